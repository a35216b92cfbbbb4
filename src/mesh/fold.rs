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
///
/// A sweep of sections of more vertices than `max(resolution, 16)`
/// ([`FOLD_SECTION`]) is rebuilt whole as the hulls of its ring pairs,
/// each ring replaced by a coarser section that holds it ([`around`]): the
/// exact tests and unions of long thin triangles cost the square of the
/// section's vertices, and the coarse hulls hold the volume swept.
pub(super) fn swept(part: &Part) -> Result<Manifold> {
    swept_from(part, 1)
}

/// A path piece's mesh seen as its groups of positions (the start point,
/// its rings, the end point), with each ring's plane.
struct Rings<'a> {
    groups: Vec<&'a [[f64; 3]]>,
    planes: Vec<Option<([f64; 3], [f64; 3])>>,
}

impl<'a> Rings<'a> {
    /// `None` when the mesh is not laid out in rings of `part.ring`.
    fn of(part: &'a Part) -> Option<Rings<'a>> {
        let n = part.ring as usize;
        let pos = &part.mesh.positions;
        let rings = pos.len().saturating_sub(2) / n.max(1);
        if n < 3 || rings * n + 2 != pos.len() {
            return None;
        }
        let mut groups: Vec<&[[f64; 3]]> = vec![&pos[..1]];
        groups.extend(pos[1..pos.len() - 1].chunks_exact(n));
        groups.push(&pos[pos.len() - 1..]);
        let planes = groups.iter().map(|g| plane(g)).collect();
        Some(Rings { groups, planes })
    }

    /// Whether group `end` is an end point at the centre of ring `ring` (a
    /// flat cap, to rounding): the two are a disc, no volume, and no fold.
    fn flat_end(&self, end: usize, ring: usize) -> bool {
        match self.groups[end] {
            [p] => self.planes[ring].is_some_and(|(c, _)| {
                let r = self.groups[ring].iter().fold(0.0f64, |r, q| r.max(norm(sub(*q, c))));
                norm(sub(*p, c)) <= 1e-9 * r + 1e-12 * c.iter().fold(0.0f64, |m, x| m.max(x.abs()))
            }),
            _ => false,
        }
    }

    /// Whether the sweep folds between groups `i` and `i + 1`.
    fn folds(&self, i: usize) -> bool {
        let side = |p: &[f64; 3], (c, nrm): ([f64; 3], [f64; 3])| {
            (p[0] - c[0]) * nrm[0] + (p[1] - c[1]) * nrm[1] + (p[2] - c[2]) * nrm[2]
        };
        let (g, planes) = (&self.groups, &self.planes);
        let ahead = self.flat_end(i + 1, i) || planes[i].is_none_or(|pl| g[i + 1].iter().all(|p| side(p, pl) > 0.0));
        let behind = self.flat_end(i, i + 1) || planes[i + 1].is_none_or(|pl| g[i].iter().all(|p| side(p, pl) < 0.0));
        !(ahead && behind)
    }
}

/// The most vertices a folding sweep's hulls take from each ring of
/// `part`: `max(resolution, 16)`, as many as a circle has at that
/// resolution.
fn most(part: &Part) -> usize {
    (part.resolution as usize).max(FOLD_SECTION)
}

/// Whether `part` is a sweep of sections of more vertices than its hulls
/// take ([`most`]) that folds at some ring pair. Such a sweep is rebuilt
/// without the exact test for self-intersections, whose cost grows as the
/// square of the section's vertices: its hulls are coarser than the
/// sections anyway, and where the fold does not cross the tube, the hull
/// adds only the sliver between the chord and the arc.
pub(super) fn folds_at_many_sides(part: &Part) -> bool {
    part.ring as usize > most(part) && Rings::of(part).is_some_and(|r| (0..r.groups.len() - 1).any(|i| r.folds(i)))
}

/// The solids whose union is the volume `part` sweeps, before the union
/// and its budget ([`GROWTH`]): the folds' hulls and the tubes between
/// them, or for a section of many sides every ring pair's coarse hull, as
/// meshes (each closed and facing outward). A point is in the volume swept
/// when it is inside one of them, so the meshes together, inside wherever
/// their winding number is not 0, are that volume with no boolean made:
/// what the import scores a piece by. Where [`swept`] gives the union up
/// for hulls of longer runs (a section much wider than its path is long),
/// it holds more than this.
///
/// # Errors
/// `mesh` when the library refuses a hull or a tube.
pub(super) fn swept_parts(part: &Part) -> Result<Vec<Mesh>> {
    Ok(Rebuild::of(part)?.solids(1)?.iter().map(Solid::mesh).collect())
}

fn rebuild_what(part: &Part) -> String {
    format!("rebuilding piece {}, whose sweep folds through itself", part.id)
}

/// A folding sweep's rings, and the coarser sections its hulls take
/// instead when the rings have more than `max(resolution, 16)` vertices.
struct Rebuild<'a> {
    part: &'a Part,
    rings: Rings<'a>,
    /// Each group's coarse section (empty: the rings themselves; every
    /// ring pair is then a hull, no tube keeps the ring's own vertices).
    coarse: Vec<Vec<[f64; 3]>>,
}

impl<'a> Rebuild<'a> {
    /// # Errors
    /// `mesh` when the part's mesh is not laid out in rings.
    fn of(part: &'a Part) -> Result<Rebuild<'a>> {
        let Some(rings) = Rings::of(part) else {
            return Err(failed(&rebuild_what(part), "its mesh is not laid out in rings"));
        };
        let most = most(part);
        let coarse = if part.ring as usize > most {
            rings.groups.iter().map(|g| around(g, most)).collect()
        } else {
            Vec::new()
        };
        Ok(Rebuild { part, rings, coarse })
    }

    fn what(&self) -> impl Fn() -> String + '_ {
        || rebuild_what(self.part)
    }

    /// The convex hull of groups `g` (their coarse sections if any).
    fn hull(&self, g: std::ops::RangeInclusive<usize>) -> Result<Solid> {
        let points: Vec<Vec3> = g
            .flat_map(|i| match self.coarse.get(i) {
                Some(c) => c.as_slice(),
                None => self.rings.groups[i],
            })
            .map(|p| Vec3::new(p[0], p[1], p[2]))
            .collect();
        Ok(Solid::from(
            guarded(self.what(), || Manifold::hull(&points))?,
            Arc::from([self.part.id]),
        ))
    }

    fn last(&self) -> usize {
        self.rings.groups.len() - 1
    }

    /// The folds' hulls and the tubes between them.
    fn folds_and_tubes(&self) -> Result<Vec<Solid>> {
        let (rings, groups, last) = (&self.rings, &self.rings.groups, self.last());
        let mut solids = Vec::new();
        let mut i = 0;
        while i < last {
            if rings.folds(i) {
                solids.push(self.hull(i..=i + 1)?);
                i += 1;
                continue;
            }
            let mut j = i + 1;
            while j < last && !rings.folds(j) {
                j += 1;
            }
            // A flat cap and its ring alone, next to a fold: a disc of no
            // volume, which the fold's hull holds already.
            if j == i + 1 && (rings.flat_end(i, j) || rings.flat_end(j, i)) {
                i = j;
                continue;
            }
            let m = guarded(self.what(), || {
                Manifold::from_mesh_gl64(&gl(&tube(
                    &groups[i..=j],
                    groups[i.saturating_sub(1)],
                    groups[(j + 1).min(last)],
                )))
            })?;
            if guarded_bool(&m, Manifold::has_self_intersections, self.what())? {
                for k in i..j {
                    solids.push(self.hull(k..=k + 1)?);
                }
            } else {
                solids.push(Solid::from(m, Arc::from([self.part.id])));
            }
            i = j;
        }
        Ok(solids)
    }

    /// The solids of hulls of runs of `run` ring pairs (1: the folds'
    /// hulls and the tubes between them, unless the sections are coarse);
    /// one hull of the whole sweep when `run` reaches its length.
    fn solids(&self, run: usize) -> Result<Vec<Solid>> {
        let (rings, last) = (&self.rings, self.last());
        if run == 1 && self.coarse.is_empty() {
            return self.folds_and_tubes();
        }
        if run >= last {
            return Ok(vec![self.hull(0..=last)?]);
        }
        let mut solids = Vec::new();
        let mut a = 0;
        while a < last {
            let b = (a + run).min(last);
            if !(b == a + 1 && (rings.flat_end(a, b) || rings.flat_end(b, a))) {
                solids.push(self.hull(a..=b)?);
            }
            a = b;
        }
        Ok(solids)
    }
}

/// [`swept`], starting with hulls of runs of `run` ring pairs (1: the
/// folds' hulls and the tubes between them).
fn swept_from(part: &Part, mut run: usize) -> Result<Manifold> {
    let rebuild = Rebuild::of(part)?;
    let manifold = |s: Option<Solid>| {
        s.and_then(|s| s.m)
            .map_or_else(Manifold::empty, |m| Arc::try_unwrap(m).unwrap_or_else(|m| (*m).clone()))
    };
    loop {
        // One hull of the whole sweep at the end: its union is itself.
        let solids = rebuild.solids(run)?;
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

/// The most vertices a folding sweep's hulls take from each ring when the
/// resolution asks for fewer: the union of hulls that cross one another
/// pairs each long triangle of one with most of the other's, a cost that
/// grows as the square of the ring's vertices (fuzz finds at resolution
/// 32: a 1,031-gon folding at 104 ring pairs, 16.1 s before this bound and
/// 0.94 s with it; a 2,060-gon folding at six, 18.0 s and 0.67 s). From
/// resolution 16 up the hulls take as many as a circle has: a 932-byte
/// document whose 516-gon, 10 m wide, folds along a 40 mm path took 2.1 s
/// at 32 with a bound of 64 and takes 0.8–0.9 s with 32.
const FOLD_SECTION: usize = 16;

/// A section of at most `most` vertices around ring `g` (returned as it
/// is when it has no more, or is a single point): every k-th vertex, with
/// k = ⌈n / most⌉, moved away from the ring's centre by 1 / cos(πk / n).
///
/// A ring is the image of a regular n-gon under an affine map of its
/// plane that takes the polygon's centre to the ring's centre (the mean of
/// its vertices). The chosen vertices are the images of points of the
/// unit circle no more than 2πk / n apart, and the polygon through them,
/// moved out by 1 / cos(πk / n), holds the whole unit circle, so the
/// coarse section holds the ring: the hulls still hold the volume swept,
/// and hold no more of the section's plane than a share of about
/// (πk / n)² / 3 more than the ring's own polygon and circle.
fn around(g: &[[f64; 3]], most: usize) -> Vec<[f64; 3]> {
    let n = g.len();
    if n <= most || n < 3 {
        return g.to_vec();
    }
    let k = n.div_ceil(most.max(3));
    let out = 1.0 / (std::f64::consts::PI * k as f64 / n as f64).cos();
    let m = n as f64;
    let s = g.iter().fold([0.0; 3], |s, p| [s[0] + p[0], s[1] + p[1], s[2] + p[2]]);
    let c = [s[0] / m, s[1] / m, s[2] / m];
    g.iter()
        .step_by(k)
        .map(|p| {
            [
                c[0] + (p[0] - c[0]) * out,
                c[1] + (p[1] - c[1]) * out,
                c[2] + (p[2] - c[2]) * out,
            ]
        })
        .collect()
}

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
        zigzag_of("shape: circle", resolution)
    }

    /// The zigzag with a section given by `shape` (its YAML).
    fn zigzag_of(shape: &str, resolution: u32) -> Part {
        let doc = crate::parse_ssk(&format!(
            "pieces:\n- id: 3\n  points: [{{x: 0, y: 0, z: 0}}, {{x: 10, y: 0, z: 0}}, \
             {{x: 0, y: 4, z: 1}}, {{x: 10, y: 8, z: 0}}, {{x: 2, y: 12, z: 2}}]\n  \
             size: {{x: 2, y: 1.5, z: 0}}\n  {shape}\n"
        ))
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
            resolution,
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
    fn a_coarse_section_holds_its_ring() {
        // An ellipse-like 1,000-gon, tilted, off the origin.
        let (n, c) = (1000u32, [3.0, -2.0, 7.0]);
        let (a, b) = ([2.0, 0.0, 1.0], [0.0, 1.5, 0.0]);
        let ring: Vec<[f64; 3]> = (0..n)
            .map(|k| {
                let t = std::f64::consts::TAU * f64::from(k) / f64::from(n);
                let (x, y) = (t.cos(), t.sin());
                [0, 1, 2].map(|i| c[i] + a[i] * x + b[i] * y)
            })
            .collect();
        assert_eq!(around(&ring, 1000), ring);
        for most in [3, 7, 64, 999] {
            let coarse = around(&ring, most);
            assert!(coarse.len() <= most && coarse.len() >= 3, "{most}: {}", coarse.len());
            // In the ring's own coordinates (x, y with p = c + a x + b y),
            // every ring vertex is inside every edge of the coarse section.
            let local = |p: &[f64; 3]| {
                let d = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
                (d[0] / 2.0, d[1] / 1.5)
            };
            let q: Vec<(f64, f64)> = coarse.iter().map(local).collect();
            let mut area = 0.0;
            for (i, &(x0, y0)) in q.iter().enumerate() {
                let (x1, y1) = q[(i + 1) % q.len()];
                area += 0.5 * (x0 * y1 - x1 * y0);
                for p in &ring {
                    let (x, y) = local(p);
                    assert!((x1 - x0) * (y - y0) - (y1 - y0) * (x - x0) >= -1e-12, "{most}: outside");
                }
            }
            // And it adds little: at most (πk/n)² of the circle, to first order.
            let k = n.div_ceil(most as u32);
            let share = (std::f64::consts::PI * f64::from(k) / f64::from(n)).powi(2);
            assert!(
                area >= std::f64::consts::PI && area <= std::f64::consts::PI * (1.0 + share),
                "{most}: {area}"
            );
        }
        // A single point stays.
        assert_eq!(around(&ring[..1], 3), ring[..1].to_vec());
    }

    #[test]
    fn a_folding_sweep_of_many_sides_is_rebuilt_from_coarse_sections() {
        // A 200-gon: more vertices than resolution 8 lets the hulls take
        // (16, as at 16), fewer than resolution 256 does. The rings are the same at
        // both: only the straight segments' steps depend on the resolution
        // (max(N/4, 1) = 2 at 8), so the exact one is built at 8 too.
        let mut part = zigzag_of("shape: ngon\n  sides: 200", 8);
        assert_eq!(part.ring, 200);
        assert!(folds_at_many_sides(&part));
        // The hulls take as many vertices of each ring as a circle has at
        // the resolution, and at least 16: every 13th at 8 and 16 (16
        // vertices), every 7th at 32 (29).
        for (n, most) in [(8, 16), (16, 16), (32, 32), (64, 64)] {
            part.resolution = n;
            let rebuild = Rebuild::of(&part).unwrap();
            let rings = &rebuild.coarse[1..rebuild.coarse.len() - 1];
            assert!(
                !rings.is_empty() && rings.iter().all(|c| c.len() <= most && c.len() > most / 2),
                "at {n}"
            );
        }
        part.resolution = 8;
        let coarse = swept(&part).unwrap();
        part.resolution = 256;
        assert!(!folds_at_many_sides(&part));
        let exact = swept(&part).unwrap();
        let (w, v) = (coarse.volume(), exact.volume());
        // Nothing of the swept volume is left out, and little is added:
        // the coarse sections' share and the chords of the bends.
        let left = exact.boolean_with_engine(&coarse, OpType::Subtract, BooleanEngine::Exact);
        assert!(left.volume() <= 1e-9 * v, "{} left out", left.volume());
        assert!(w >= v && w <= 1.05 * v, "{w} against {v}");
        // Each coarse hull takes 16 of the 200 ring vertices and the ends;
        // the exact rebuild keeps all 200.
        assert!(
            coarse.num_vert() < exact.num_vert() / 2,
            "{} {}",
            coarse.num_vert(),
            exact.num_vert()
        );
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
