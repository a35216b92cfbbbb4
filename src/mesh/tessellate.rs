//! One resolved piece as a closed, outward-facing triangle mesh
//! (docs/spec/GEOMETRY.md §4, §5), with the reference's tessellation counts (§7):
//! circle cross-sections of N vertices, n-gons of `sides`; straight
//! segments in max(N/4, 1) steps and curved ones in N; ellipsoids of
//! max(N/2, 4) bands by max(N, 6) longitudes; rounded caps of max(N/4, 2)
//! bands on circles and one apex on n-gons; flat caps fanned to the centre.

use std::f64::consts::{FRAC_PI_2, PI};

use super::math::{add, rotation, scale, v, V3};
use super::path::{lerp_rotation, PathFrame, Segment, Transition};
use super::Mesh;
use crate::error::{Error, ErrorKind, Result};
use crate::{ResolvedPiece, Shape};

/// The resolution's bounds.
pub const MIN_RESOLUTION: u32 = 3;
/// The resolution's bounds.
pub const MAX_RESOLUTION: u32 = 1024;
/// The most sides an n-gon may have to be meshed: `sides` is a 32-bit
/// field, and a mesh is never sized on the word of one.
pub const MAX_SIDES: u32 = 4096;

/// A size is degenerate when two or more components are zero.
fn degenerate(s: V3) -> bool {
    s.iter().filter(|c| **c == 0.0).count() >= 2
}

/// A section that is a single point: both radii zero.
fn point(s: V3) -> bool {
    s[0] == 0.0 && s[1] == 0.0
}

/// Below this share of the largest of a section's other sizes and its
/// centre's coordinates, a size is lost in the rounding of the vertices
/// it places (a double carries 16 digits; the arithmetic leaves fewer).
const THIN: f64 = 1e-12;

/// Whether `size` is zero to rounding next to the `others` of its form and
/// the coordinates of its `centre`: the mesh is then as flat as a zero
/// would make it, a sheet of no volume whose signed volume is only what
/// rounding leaves, of either sign.
fn thin(size: f64, others: &[f64], centre: V3) -> bool {
    let scale = others
        .iter()
        .copied()
        .chain(centre.iter().map(|x| x.abs()))
        .fold(0.0f64, f64::max);
    size <= THIN * scale
}

/// Unit cross-section directions: (cos θ, sin θ) for each ring vertex,
/// the first on local +X.
fn section(piece: &ResolvedPiece, resolution: u32) -> Vec<(f64, f64)> {
    let n = match piece.shape {
        Shape::Circle => resolution,
        Shape::Ngon => piece.sides.unwrap_or(3).max(3),
    };
    (0..n).map(|k| direction(k, n)).collect()
}

/// (cos θ, sin θ) for θ = k/n of a turn, from the angle within its
/// quarter turn: exactly 0 and ±1 on the axes, and mirrored alike in
/// every quarter. (`sin(π)` in floating point is 1.2e-16, not 0: times
/// a section 10²² mm wide, a vertex meant to lie on the path's centre
/// lay 10⁶ mm off it.)
fn direction(k: u32, n: u32) -> (f64, f64) {
    let quarters = 4 * u64::from(k);
    let (quarter, rest) = (quarters / u64::from(n), quarters % u64::from(n));
    let (s, c) = (FRAC_PI_2 * rest as f64 / f64::from(n)).sin_cos();
    match quarter % 4 {
        0 => (c, s),
        1 => (-s, c),
        2 => (-c, -s),
        _ => (s, -c),
    }
}

fn ring(centre: V3, f: &PathFrame, size: V3, dirs: &[(f64, f64)], shrink: f64, lift: f64) -> Vec<V3> {
    let z = add(centre, scale(f.z, lift));
    dirs.iter()
        .map(|(c, s)| {
            add(
                z,
                add(scale(f.x, size[0] * c * shrink), scale(f.y, size[1] * s * shrink)),
            )
        })
        .collect()
}

/// Rings stacked from `start` to `end`, each ring counter-clockwise seen
/// from `end`: fans at both ends, quads between.
pub(crate) fn stack(rings: &[Vec<V3>], start: V3, end: V3) -> Mesh {
    let mut m = Mesh::default();
    let n = rings[0].len() as u32;
    let s = m.push(start);
    let first = m.positions.len() as u32;
    for r in rings {
        m.positions.extend_from_slice(r);
    }
    let e = m.push(end);
    let at = |ring: u32, k: u32| first + ring * n + k % n;
    for k in 0..n {
        m.triangles.push([s, at(0, k + 1), at(0, k)]);
    }
    for r in 0..rings.len() as u32 - 1 {
        for k in 0..n {
            let (a0, a1, b0, b1) = (at(r, k), at(r, k + 1), at(r + 1, k), at(r + 1, k + 1));
            m.triangles.push([a0, a1, b1]);
            m.triangles.push([a0, b1, b0]);
        }
    }
    let last = rings.len() as u32 - 1;
    for k in 0..n {
        m.triangles.push([e, at(last, k), at(last, k + 1)]);
    }
    m
}

/// The piece's mesh at `resolution` (clamped to 3..=1024); `None` for an
/// ignored piece (degenerate size, no usable segment).
///
/// # Errors
/// `limit_exceeded` for an n-gon of more than [`MAX_SIDES`] sides.
pub fn tessellate(piece: &ResolvedPiece, resolution: u32) -> Result<Option<Mesh>> {
    Ok(tessellate_with_rings(piece, resolution)?.map(|t| t.mesh))
}

/// A piece's mesh with what the booleans need to know of its layout.
pub(crate) struct Tessellation {
    pub mesh: Mesh,
    /// For a path piece, the vertices in each ring (0 for a point piece).
    pub ring: u32,
    /// Whether some section has a zero radius: a sheet (or a ribbon) of no
    /// volume, whose signed volume is only what the rounding of its
    /// overlapping faces leaves.
    pub sheet: bool,
}

/// [`tessellate`], with the number of vertices in each ring of a path
/// piece's mesh (0 for a point piece). A path piece's positions are laid
/// out as its start point, its rings (caps included) in order along the
/// path, and its end point.
pub(crate) fn tessellate_with_rings(piece: &ResolvedPiece, resolution: u32) -> Result<Option<Tessellation>> {
    if piece.shape == Shape::Ngon {
        let sides = piece.sides.unwrap_or(3);
        if sides > MAX_SIDES {
            return Err(Error::new(
                ErrorKind::LimitExceeded,
                format!(
                    "piece {}: an n-gon of {sides} sides is more than the {MAX_SIDES} the mesher takes",
                    piece.id
                ),
            )
            .piece(piece.id));
        }
    }
    let n = resolution.clamp(MIN_RESOLUTION, MAX_RESOLUTION);
    Ok(match piece.points.len() {
        0 => None,
        1 => point_piece(piece, n).map(|mesh| Tessellation {
            mesh,
            ring: 0,
            sheet: piece.effective_size(0).map(v).is_some_and(|s| {
                let c = v(piece.points[0].position);
                thin(s[0], &[s[1], s[2]], c) || thin(s[1], &[s[0], s[2]], c) || thin(s[2], &[s[0], s[1]], c)
            }),
        }),
        _ => path_piece(piece, n).map(|(mesh, sheet)| Tessellation {
            mesh,
            ring: section(piece, n).len() as u32,
            sheet,
        }),
    })
}

fn point_piece(piece: &ResolvedPiece, n: u32) -> Option<Mesh> {
    let size = v(piece.effective_size(0)?);
    // Degenerate: ignored. One zero component is not degenerate: the
    // ellipsoid or bipyramid is a sheet of no volume, and it is meshed so
    // (both faces), as the reference does.
    if degenerate(size) {
        return None;
    }
    let centre = v(piece.points[0].position);
    let f = PathFrame::rotated(&rotation(v(piece.effective_rotation(0)?)));
    let bottom = add(centre, scale(f.z, -size[2]));
    let top = add(centre, scale(f.z, size[2]));
    match piece.shape {
        Shape::Ngon => Some(stack(
            &[ring(centre, &f, size, &section(piece, n), 1.0, 0.0)],
            bottom,
            top,
        )),
        Shape::Circle => {
            let bands = (n / 2).max(4);
            let dirs = section(piece, n.max(6));
            let rings: Vec<Vec<V3>> = (1..bands)
                .map(|j| {
                    let phi = -FRAC_PI_2 + PI * f64::from(j) / f64::from(bands);
                    ring(centre, &f, size, &dirs, phi.cos(), phi.sin() * size[2])
                })
                .collect();
            Some(stack(&rings, bottom, top))
        }
    }
}

/// One sample along the path: where, which way, how big.
struct Sample {
    centre: V3,
    frame: PathFrame,
    size: V3,
}

fn path_piece(piece: &ResolvedPiece, n: u32) -> Option<(Mesh, bool)> {
    let pts = &piece.points;
    let mut samples: Vec<Sample> = Vec::new();
    let mut frame: Option<PathFrame> = None;
    let usable: Vec<usize> = (0..pts.len() - 1)
        .filter(|&i| !Segment::between(&pts[i], &pts[i + 1]).is_degenerate())
        .collect();
    for (nth, &i) in usable.iter().enumerate() {
        let seg = Segment::between(&pts[i], &pts[i + 1]);
        let tr = Transition::between(&pts[i], &pts[i + 1]);
        let (s0, s1) = (v(piece.effective_size(i)?), v(piece.effective_size(i + 1)?));
        let (r0, r1) = (piece.effective_rotation(i)?, piece.effective_rotation(i + 1)?);
        let steps = if seg.straight { (n / 4).max(1) } else { n };
        let first = if nth == 0 { 0 } else { 1 };
        for k in first..=steps {
            let u = f64::from(k) / f64::from(steps);
            let p = tr.progress(u);
            let Some(tangent) = seg.tangent(u) else { continue };
            let size = [0, 1, 2].map(|c| (s0[c] + (s1[c] - s0[c]) * p).max(0.0));
            // Where the size is degenerate inside the path, the path has
            // no volume: no ring there. The ends keep theirs (a degenerate
            // one becomes the end point itself, below).
            let end = (nth == 0 && k == 0) || (nth + 1 == usable.len() && k == steps);
            if !end && degenerate(size) {
                continue;
            }
            let f = match frame.and_then(|f| f.carried(tangent)) {
                Some(f) => f,
                None => PathFrame::initial(tangent, &lerp_rotation(r0, r1, p)),
            };
            frame = Some(f);
            samples.push(Sample {
                centre: seg.at(u),
                frame: f,
                size,
            });
        }
    }
    // A path of two end rings and nothing between (every inner size
    // degenerate) is still meshed, as the reference does: a sheet where
    // the end sections are lines. Only a path whose sections are all
    // points has nothing to mesh.
    if samples.len() < 2 || samples.iter().all(|s| point(s.size)) {
        return None;
    }
    let dirs = section(piece, n);
    let cap_bands = (n / 4).max(2);
    let cap = |s: &Sample, outward: f64| -> (Vec<Vec<V3>>, V3) {
        let pole = add(s.centre, scale(s.frame.z, outward * s.size[2]));
        // A cap of a depth lost in rounding is flat: its rings would lie in
        // one plane, to rounding.
        let flat = thin(s.size[2], &s.size[..2], s.centre);
        if flat || piece.shape == Shape::Ngon {
            return (Vec::new(), if flat { s.centre } else { pole });
        }
        // From the path outwards: latitudes 1..bands-1.
        let rings = (1..cap_bands)
            .map(|j| {
                let phi = FRAC_PI_2 * f64::from(j) / f64::from(cap_bands);
                ring(
                    s.centre,
                    &s.frame,
                    s.size,
                    &dirs,
                    phi.cos(),
                    outward * phi.sin() * s.size[2],
                )
            })
            .collect();
        (rings, pole)
    };
    // An end whose section is a point (both radii zero) is a ring of one
    // point: the body closes at the end point itself, with no cap beyond
    // it (a cap there would be a needle of no volume).
    let mut body: &[Sample] = &samples;
    let (mut head, start) = match body.split_first() {
        Some((s, rest)) if point(s.size) => {
            body = rest;
            (Vec::new(), s.centre)
        }
        _ => cap(&body[0], -1.0),
    };
    head.reverse();
    let (tail, end) = match body.split_last() {
        Some((s, rest)) if point(s.size) => {
            body = rest;
            (Vec::new(), s.centre)
        }
        _ => cap(&body[body.len() - 1], 1.0),
    };
    let mut rings = head;
    rings.extend(body.iter().map(|s| ring(s.centre, &s.frame, s.size, &dirs, 1.0, 0.0)));
    rings.extend(tail);
    if rings.is_empty() {
        return None;
    }
    // A section with a radius zero to rounding (an end that is a point,
    // where a cone closes, is not a sheet).
    let sheet = samples.iter().any(|s| {
        !point(s.size) && (thin(s.size[0], &[s.size[1]], s.centre) || thin(s.size[1], &[s.size[0]], s.centre))
    });
    Some((stack(&rings, start, end), sheet))
}

#[cfg(test)]
mod tests {
    use super::direction;

    #[test]
    fn section_directions_are_exact_on_the_axes_and_mirrored() {
        for n in [3u32, 4, 5, 8, 12, 32, 516, 1_000, 2_054] {
            for k in 0..n {
                let (c, s) = direction(k, n);
                let a = std::f64::consts::TAU * f64::from(k) / f64::from(n);
                assert!((c - a.cos()).abs() < 1e-14 && (s - a.sin()).abs() < 1e-14, "{k}/{n}");
                assert!((c * c + s * s - 1.0).abs() < 1e-15, "{k}/{n}");
                if (4 * k) % n == 0 {
                    // On an axis: one of them exactly 0, the other ±1.
                    assert!(c == 0.0 || s == 0.0, "{k}/{n}: ({c}, {s})");
                    assert_eq!(c.abs() + s.abs(), 1.0, "{k}/{n}");
                }
                if n % 2 == 0 {
                    // Half a turn on: the same direction reversed, exactly.
                    let (c2, s2) = direction((k + n / 2) % n, n);
                    assert_eq!((c2, s2), (-c, -s), "{k}/{n}");
                }
            }
        }
    }
}
