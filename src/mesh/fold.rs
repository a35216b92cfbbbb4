//! A sweep that folds through itself, or turns inside out, rebuilt into
//! the volume it sweeps before any boolean (docs/meshes.md, "Sweeps that
//! fold through themselves").

use std::sync::Arc;

use manifold_rust::linalg::Vec3;
use manifold_rust::manifold::Manifold;

use super::boolean::{failed, gl, guarded, guarded_bool, union_within, Part, Solid};
use super::math::{norm, sub};
use super::tessellate::stack;
use super::Mesh;
use crate::error::Result;

/// The volume a folding sweep covers. Between two consecutive rings the
/// sweep folds when a vertex of one lies on the wrong side of the other's
/// plane (a bend tighter than the section): each such pair becomes the
/// convex hull of its two rings, a solid however they are tilted. The
/// stretches between folds are tubes of their own (closed by cones inside
/// the neighbouring fold hulls, see [`tube`]);
/// one that still crosses itself (a path that comes back through itself)
/// becomes hulls throughout. Where the rings are parallel the hull is the
/// same solid as the tube; where a bend tilts them it adds at most the
/// sliver between the chord and the arc. The union counts every point
/// once: it is the volume swept. A flat end (the end point at its ring's
/// centre) never folds, and next to a fold it adds nothing: the fold's
/// hull holds its disc (a hull of the two alone would be flat, and its
/// union with the rest pinches vertices together).
///
/// The union has a budget ([`GROWTH`]): where the hulls cross one another
/// far along the path, each level of the union's tree multiplies the
/// triangles, and the union is given up for hulls of runs of 2, 4, 8, ...
/// ring pairs (of the whole sweep, folding or not), up to the hull of the
/// whole sweep: a solid that holds every pair's hull, so never less than
/// the volume swept.
pub(super) fn swept(part: &Part) -> Result<Manifold> {
    swept_from(part, 1)
}

/// [`swept`], starting with hulls of runs of `run` ring pairs (1: the
/// folds' hulls and the tubes between them).
fn swept_from(part: &Part, mut run: usize) -> Result<Manifold> {
    let what = || format!("rebuilding piece {}, whose sweep folds through itself", part.id);
    let n = part.ring as usize;
    let pos = &part.mesh.positions;
    let rings = pos.len().saturating_sub(2) / n.max(1);
    if n < 3 || rings * n + 2 != pos.len() {
        return Err(failed(&what(), "its mesh is not laid out in rings"));
    }
    // The start point, the rings, the end point.
    let mut groups: Vec<&[[f64; 3]]> = vec![&pos[..1]];
    groups.extend(pos[1..pos.len() - 1].chunks_exact(n));
    groups.push(&pos[pos.len() - 1..]);
    let hull = |g: &[&[[f64; 3]]]| -> Result<Solid> {
        let points: Vec<Vec3> = g
            .iter()
            .flat_map(|g| g.iter())
            .map(|p| Vec3::new(p[0], p[1], p[2]))
            .collect();
        Ok(Solid::from(
            guarded(what, || Manifold::hull(&points))?,
            Arc::from([part.id]),
        ))
    };
    let planes: Vec<Option<([f64; 3], [f64; 3])>> = groups.iter().map(|g| plane(g)).collect();
    // Whether group `end` is an end point at the centre of ring `ring` (a
    // flat cap, to rounding): the two are a disc, no volume, and no fold.
    let flat_end = |end: usize, ring: usize| match groups[end] {
        [p] => planes[ring].is_some_and(|(c, _)| {
            let r = groups[ring].iter().fold(0.0f64, |r, q| r.max(norm(sub(*q, c))));
            norm(sub(*p, c)) <= 1e-9 * r + 1e-12 * c.iter().fold(0.0f64, |m, x| m.max(x.abs()))
        }),
        _ => false,
    };
    let folds = |i: usize| -> bool {
        let side = |p: &[f64; 3], (c, nrm): ([f64; 3], [f64; 3])| {
            (p[0] - c[0]) * nrm[0] + (p[1] - c[1]) * nrm[1] + (p[2] - c[2]) * nrm[2]
        };
        let ahead = flat_end(i + 1, i) || planes[i].is_none_or(|pl| groups[i + 1].iter().all(|p| side(p, pl) > 0.0));
        let behind = flat_end(i, i + 1) || planes[i + 1].is_none_or(|pl| groups[i].iter().all(|p| side(p, pl) < 0.0));
        !(ahead && behind)
    };
    let last = groups.len() - 1;
    let folds_and_tubes = || -> Result<Vec<Solid>> {
        let mut solids = Vec::new();
        let mut i = 0;
        while i < last {
            if folds(i) {
                solids.push(hull(&groups[i..=i + 1])?);
                i += 1;
                continue;
            }
            let mut j = i + 1;
            while j < last && !folds(j) {
                j += 1;
            }
            // A flat cap and its ring alone, next to a fold: a disc of no
            // volume, which the fold's hull holds already.
            if j == i + 1 && (flat_end(i, j) || flat_end(j, i)) {
                i = j;
                continue;
            }
            let m = guarded(what, || {
                Manifold::from_mesh_gl64(&gl(&tube(
                    &groups[i..=j],
                    groups[i.saturating_sub(1)],
                    groups[(j + 1).min(last)],
                )))
            })?;
            if guarded_bool(&m, Manifold::has_self_intersections, what)? {
                for k in i..j {
                    solids.push(hull(&groups[k..=k + 1])?);
                }
            } else {
                solids.push(Solid::from(m, Arc::from([part.id])));
            }
            i = j;
        }
        Ok(solids)
    };
    let manifold = |s: Option<Solid>| {
        s.and_then(|s| s.m)
            .map_or_else(Manifold::empty, |m| Arc::try_unwrap(m).unwrap_or_else(|m| (*m).clone()))
    };
    loop {
        let solids = if run == 1 {
            folds_and_tubes()?
        } else if run < last {
            let mut solids = Vec::new();
            let mut a = 0;
            while a < last {
                let b = (a + run).min(last);
                if !(b == a + 1 && (flat_end(a, b) || flat_end(b, a))) {
                    solids.push(hull(&groups[a..=b])?);
                }
                a = b;
            }
            solids
        } else {
            return Ok(manifold(Some(hull(&groups)?)));
        };
        let input: usize = solids.iter().filter_map(|s| s.m.as_ref()).map(|m| m.num_tri()).sum();
        let within = |now: usize| now <= GROWTH_FLOOR || now <= GROWTH.saturating_mul(input);
        if let Some(u) = union_within(solids, &within)? {
            return Ok(manifold(u));
        }
        run *= 2;
    }
}

/// The union of a folding sweep's hulls and tubes is given up when a level
/// of its tree holds more than `GROWTH` times the triangles it started
/// with, and more than `GROWTH_FLOOR`: the hulls then cross one another
/// far along the path (a section much wider than the path is long), and
/// every level multiplies the triangles (a 246-byte document at resolution
/// 32: more than 100 s for the exact union). Among the 527 folding pieces
/// of `generate.py`'s seed 11 at resolution 32, no level is above 3.2
/// times its start, nor above 1.6 times once past 4,000 triangles.
const GROWTH: usize = 2;
const GROWTH_FLOOR: usize = 4096;

/// A ring's centre and unit normal (Newell's method: along the path, for
/// rings counter-clockwise seen from ahead); `None` for a single point or
/// a ring of no area.
fn plane(g: &[[f64; 3]]) -> Option<([f64; 3], [f64; 3])> {
    if g.len() < 3 {
        return None;
    }
    let k = g.len() as f64;
    let s = g.iter().fold([0.0; 3], |s, p| [s[0] + p[0], s[1] + p[1], s[2] + p[2]]);
    let c = [s[0] / k, s[1] / k, s[2] / k];
    let mut nrm = [0.0; 3];
    for (a, b) in g.iter().zip(g.iter().cycle().skip(1)) {
        nrm[0] += (a[1] - b[1]) * (a[2] + b[2]);
        nrm[1] += (a[2] - b[2]) * (a[0] + b[0]);
        nrm[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
    let len = (nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]).sqrt();
    (len > 0.0 && len.is_finite()).then(|| (c, nrm.map(|x| x / len)))
}

/// A closed tube through the groups of a stretch. Each end is its own
/// point (the sweep's start or end), or, for a ring (whose pair with the
/// group beyond it, `before` or `after`, folds), a cone to the point
/// halfway between the ring's centre and the centre of the group beyond.
///
/// That point lies in the convex hull of the two groups, which is one of
/// the solids the sweep is the union of, and so does the whole cone: the
/// union is the same as with a flat disc. A cone rather than a disc because
/// the disc's triangles lie in one plane to rounding, and the exact test
/// for self-intersections must then settle every pair of them with exact
/// arithmetic; a cone's triangles meet only at their apex and edges.
fn tube(groups: &[&[[f64; 3]]], before: &[[f64; 3]], after: &[[f64; 3]]) -> Mesh {
    let centre = |g: &[[f64; 3]]| {
        let k = g.len() as f64;
        let s = g.iter().fold([0.0; 3], |s, p| [s[0] + p[0], s[1] + p[1], s[2] + p[2]]);
        [s[0] / k, s[1] / k, s[2] / k]
    };
    let apex = |ring: &[[f64; 3]], beyond: &[[f64; 3]]| {
        let (c, b) = (centre(ring), centre(beyond));
        [0.5 * (c[0] + b[0]), 0.5 * (c[1] + b[1]), 0.5 * (c[2] + b[2])]
    };
    let (first, last) = (groups[0], groups[groups.len() - 1]);
    let start = if first.len() == 1 {
        first[0]
    } else {
        apex(first, before)
    };
    let end = if last.len() == 1 { last[0] } else { apex(last, after) };
    let from = usize::from(first.len() == 1);
    let to = groups.len() - usize::from(last.len() == 1);
    let rings: Vec<Vec<[f64; 3]>> = groups[from..to].iter().map(|g| g.to_vec()).collect();
    stack(&rings, start, end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use manifold_rust::types::{BooleanEngine, OpType};

    /// A zigzag sweep of a wide section at `resolution`: every joint folds.
    fn zigzag(resolution: u32) -> Part {
        let doc = crate::parse_ssk(
            "pieces:\n- id: 3\n  points: [{x: 0, y: 0, z: 0}, {x: 10, y: 0, z: 0}, \
             {x: 0, y: 4, z: 1}, {x: 10, y: 8, z: 0}, {x: 2, y: 12, z: 2}]\n  \
             size: {x: 2, y: 1.5, z: 0}\n  shape: circle\n",
        )
        .unwrap();
        let piece = crate::resolve(&doc).unwrap().pieces.remove(0);
        let t = super::super::tessellate::tessellate_with_rings(&piece, resolution)
            .unwrap()
            .unwrap();
        Part {
            id: piece.id,
            mode: piece.effective_mode(),
            affects: None,
            mesh: t.mesh,
            ring: t.ring,
            sheet: t.sheet,
        }
    }

    #[test]
    fn hulls_of_longer_runs_hold_the_swept_volume() {
        let part = zigzag(8);
        let exact = swept_from(&part, 1).unwrap();
        let v = exact.volume();
        assert!(v > 0.0 && exact.num_tri() > 0);
        let points: Vec<Vec3> = part
            .mesh
            .positions
            .iter()
            .map(|p| Vec3::new(p[0], p[1], p[2]))
            .collect();
        let whole = Manifold::hull(&points).volume();
        let mut before = v;
        for run in [2, 4, 8, 16, 1 << 20] {
            let coarse = swept_from(&part, run).unwrap();
            let w = coarse.volume();
            // Nothing of the swept volume is left out.
            let left = exact.boolean_with_engine(&coarse, OpType::Subtract, BooleanEngine::Exact);
            assert!(left.volume() <= 1e-9 * v, "run {run}: {} left out", left.volume());
            assert!(
                w >= before * (1.0 - 1e-12) && w <= whole * (1.0 + 1e-12),
                "run {run}: {w}"
            );
            before = w;
        }
        // The last is the hull of the whole sweep, and the first adds
        // only slivers at the bends.
        assert!((before - whole).abs() <= 1e-9 * whole);
        assert!(swept_from(&part, 2).unwrap().volume() < 1.1 * v);
        assert!(whole > 1.5 * v);
    }

    #[test]
    fn ring_planes_face_along_the_path() {
        // A ring counter-clockwise seen from +z (ahead) faces +z.
        let ring: Vec<[f64; 3]> = (0..8)
            .map(|k| {
                let a = std::f64::consts::TAU * f64::from(k) / 8.0;
                [a.cos(), a.sin(), 5.0]
            })
            .collect();
        let (c, n) = plane(&ring).unwrap();
        assert!((c[2] - 5.0).abs() < 1e-12 && c[0].abs() < 1e-12);
        assert!((n[2] - 1.0).abs() < 1e-12);
        assert!(plane(&ring[..1]).is_none());
        // A ring of no area has no plane.
        assert!(plane(&[[0.0; 3], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]]).is_none());
    }
}
