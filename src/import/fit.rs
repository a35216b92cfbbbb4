//! Fitting swept pieces to a mesh.
//!
//! Each connected part of the mesh is measured in its own principal axes
//! (the axes of its solid's second moments, not the world's), and every
//! primitive a piece or two can be is tried in those axes: the ellipsoid
//! of the same moments and the one through the part's extents; along each
//! axis, an elliptic cylinder, a capsule and a box (one square-section
//! piece, or two intersect pieces for a rectangle). Each is meshed and
//! scored against the part with the reference's weighted score; the best
//! is kept. docs/import.md has the reasons and the results.

use super::score::{quality_score, Score, Scorer, Weights};
use super::search;
use super::simplify;
use crate::error::ErrorKind;
use crate::mesh::math::{cross, dot, norm, scale, sub, M3, V3};
use crate::mesh::{Mesh, Mesher};
use crate::{Document, Error, Mode, Piece, Point, Result, Shape, Vec3};

/// How to fit.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// The reference's resolution option (its default 32): the model is
    /// meshed to be scored at this clamped to 8..=16, as the reference's
    /// `score_document_against_mesh` meshes it (a circle is scored as
    /// the 16-gon-like ring the reference sees).
    pub resolution: u32,
    /// Pieces the model should have (the reference's expected piece count).
    pub expected_pieces: Option<usize>,
    /// At most this many pieces.
    pub max_pieces: Option<usize>,
    /// The score's weights.
    pub weights: Weights,
    /// Samples along the longest side for the final score.
    pub samples: usize,
    /// A mesh of more triangles is fitted as one simplified to this many
    /// (vertices clustered on a grid), so that the fit's memory and time
    /// do not grow with the mesh; the final score is still counted
    /// against the mesh as given.
    pub max_triangles: usize,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            resolution: 32,
            expected_pieces: None,
            max_pieces: None,
            weights: Weights::default(),
            samples: 128,
            max_triangles: 200_000,
        }
    }
}

/// A fitted model and how well it fills the mesh.
#[derive(Clone, Debug)]
pub struct Fitted {
    /// The model.
    pub document: Document,
    /// Coverage and overfill on the final grid.
    pub score: Score,
    /// The reference's weighted score of it.
    pub quality: f64,
    /// Its pieces.
    pub pieces: usize,
    /// Its points.
    pub points: usize,
}

/// Fits a model to `source`.
///
/// # Errors
/// `mesh_input` when the mesh encloses no volume (a sheet, or triangles
/// that do not close around anything); `mesh` when a candidate cannot be
/// meshed (not expected: candidates are simple solids).
pub fn fit(source: &Mesh, options: &FitOptions) -> Result<Fitted> {
    let simplified = simplify::within(source, options.max_triangles);
    let fitted = simplified.as_ref().unwrap_or(source);
    let parts: Vec<Mesh> = components(fitted).into_iter().map(|p| p.0).collect();
    // One count of the inside serves the search and, when the mesh is
    // fitted as given, the score.
    let scorer = Scorer::new(fitted, options.samples);
    let chosen = search::choose(fitted, &parts, options, &scorer)?.ok_or_else(|| {
        Error::new(
            ErrorKind::MeshInput,
            "the mesh encloses no volume (a sheet, or triangles that do not close around anything)",
        )
    })?;
    drop(parts);
    let scorer = match simplified {
        Some(s) => {
            drop((scorer, s));
            Scorer::new(source, options.samples)
        }
        None => scorer,
    };
    let document = assemble(chosen);
    let model = mesh_of(&document.pieces, options.resolution.clamp(8, 16))?;
    let score = scorer.score(&model);
    let quality = quality_of(&score, &document.pieces, options);
    Ok(Fitted {
        quality,
        pieces: document.pieces.len(),
        points: points_of(&document.pieces),
        document,
        score,
    })
}

/// How well `document` fills `source`: coverage and overfill on a grid of
/// `options.samples` along the longest side, the model meshed at
/// `options.resolution` clamped to 8..=16 (as the reference scores); and
/// the reference's weighted score of it.
///
/// # Errors
/// `validation` when a piece's `from` names no piece; `mesh` when the
/// model cannot be meshed.
pub fn score_model(source: &Mesh, document: &Document, options: &FitOptions) -> Result<(Score, f64)> {
    let model = mesh_of(&document.pieces, options.resolution.clamp(8, 16))?;
    let score = Scorer::new(source, options.samples).score(&model);
    let quality = quality_of(&score, &document.pieces, options);
    Ok((score, quality))
}

/// The reference's weighted score of a model of `pieces` that counts
/// `score`.
pub(super) fn quality_of(score: &Score, pieces: &[Piece], options: &FitOptions) -> f64 {
    quality_score(
        score.coverage,
        score.overfill,
        pieces.len(),
        points_of(pieces),
        options.expected_pieces,
        options.weights,
    )
}

/// Two unit vectors across unit `w`, (u, v, w) right-handed; `None` when
/// `w` is not a direction.
pub(super) fn across(w: V3) -> Option<(V3, V3)> {
    let helper = if w[0].abs() < 0.9 {
        [1.0, 0.0, 0.0]
    } else {
        [0.0, 1.0, 0.0]
    };
    let u = crate::mesh::math::unit(cross(w, helper))?;
    Some((u, cross(w, u)))
}

/// One document of the chosen sets, each set's ids (and the ids its
/// pieces act on) moved past the sets before it. Subtract pieces come
/// after every add piece they act on: the search adds them last.
pub(super) fn assemble(chosen: Vec<Vec<Piece>>) -> Document {
    let mut pieces: Vec<Piece> = Vec::new();
    for set in chosen {
        let base = pieces.len() as u32;
        for mut p in set {
            p.id += base;
            if let Some(a) = p.affects.as_mut() {
                for id in a.iter_mut() {
                    *id += base;
                }
            }
            pieces.push(p);
        }
    }
    Document {
        pieces,
        ..Document::default()
    }
}

pub(super) fn points_of(pieces: &[Piece]) -> usize {
    pieces.iter().map(|p| p.points.as_ref().map_or(0, Vec::len)).sum()
}

pub(super) fn mesh_of(pieces: &[Piece], resolution: u32) -> Result<Mesh> {
    let mut m = Mesher::new(resolution);
    for p in pieces {
        m.push(p)?;
    }
    m.combined()
}

/// A piece's own solid, alone, at `resolution`: one mesh, inside where its
/// winding number is not 0; a sweep that folds through itself is its
/// hulls and tubes side by side, the union not made
/// ([`crate::mesh::own_volume`]).
pub(super) fn own_volume(piece: &Piece, resolution: u32) -> Result<Mesh> {
    let mut m = Mesher::new(resolution);
    m.push(piece)?;
    // One piece is one part at most (none when it is ignored).
    m.parts()
        .first()
        .map_or_else(|| Ok(Mesh::default()), crate::mesh::own_volume)
}

/// Connected parts (triangles sharing vertices) and each one's volume.
fn components(mesh: &Mesh) -> Vec<(Mesh, f64)> {
    let n = mesh.positions.len();
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn find(p: &mut [u32], mut x: u32) -> u32 {
        while p[x as usize] != x {
            p[x as usize] = p[p[x as usize] as usize];
            x = p[x as usize];
        }
        x
    }
    for t in &mesh.triangles {
        let a = find(&mut parent, t[0]);
        for &v in &t[1..] {
            let b = find(&mut parent, v);
            if a != b {
                let (lo, hi) = (a.min(b), a.max(b));
                parent[hi as usize] = lo;
            }
        }
    }
    let mut index: std::collections::BTreeMap<u32, usize> = std::collections::BTreeMap::new();
    let mut parts: Vec<Mesh> = Vec::new();
    let mut remap = vec![u32::MAX; n];
    for t in &mesh.triangles {
        let r = find(&mut parent, t[0]);
        let k = *index.entry(r).or_insert_with(|| {
            parts.push(Mesh::default());
            parts.len() - 1
        });
        let part = &mut parts[k];
        let t = t.map(|v| {
            if remap[v as usize] == u32::MAX {
                remap[v as usize] = part.positions.len() as u32;
                part.positions.push(mesh.positions[v as usize]);
            }
            remap[v as usize]
        });
        part.triangles.push(t);
    }
    parts
        .into_iter()
        .map(|m| {
            let v = m.volume().abs();
            (m, v)
        })
        .collect()
}

/// A part's centre, principal axes (unit, right-handed, columns of `axes`)
/// and, along each, its extent from the centre both ways and the spread
/// of its solid (standard deviation).
pub(super) struct Frame {
    /// The part's vertices (or cell centres), from the centre.
    points: Vec<V3>,
    /// Half a cell, added around `points` (0 for a mesh's vertices).
    pad: f64,
    /// The normal of the part's largest flat face, for a mesh.
    face: Option<V3>,
    pub(super) centre: V3,
    pub(super) axes: [V3; 3],
    lo: V3,
    hi: V3,
    sd: V3,
}

impl Frame {
    pub(super) fn of(m: &Mesh) -> Frame {
        let k = m.positions.len().max(1) as f64;
        let o = m
            .positions
            .iter()
            .fold([0.0; 3], |s, p| [s[0] + p[0], s[1] + p[1], s[2] + p[2]])
            .map(|x| x / k);
        // Moments of the solid (tetrahedra from `o`), or of the surface
        // when the part encloses no volume (open, or a sheet).
        let (mut vol, mut first, mut second) = (0.0, [0.0; 3], [[0.0; 3]; 3]);
        for t in &m.triangles {
            let q = t.map(|i| sub(m.positions[i as usize], o));
            let v = dot(q[0], cross(q[1], q[2])) / 6.0;
            let s = [0, 1, 2].map(|c| q[0][c] + q[1][c] + q[2][c]);
            vol += v;
            for c in 0..3 {
                first[c] += v * s[c] / 4.0;
                for d in 0..3 {
                    let qq: f64 = q.iter().map(|p| p[c] * p[d]).sum();
                    second[c][d] += v / 20.0 * (qq + s[c] * s[d]);
                }
            }
        }
        let solid = vol.abs() > 1e-12 * bbox_volume(m).max(f64::MIN_POSITIVE) && vol > 0.0;
        if !solid {
            (vol, first, second) = (0.0, [0.0; 3], [[0.0; 3]; 3]);
            for t in &m.triangles {
                let q = t.map(|i| sub(m.positions[i as usize], o));
                let a = norm(cross(sub(q[1], q[0]), sub(q[2], q[0]))) / 2.0;
                let c3 = [0, 1, 2].map(|c| (q[0][c] + q[1][c] + q[2][c]) / 3.0);
                vol += a;
                for c in 0..3 {
                    first[c] += a * c3[c];
                    for d in 0..3 {
                        second[c][d] += a * c3[c] * c3[d];
                    }
                }
            }
        }
        let mean = if vol > 0.0 { first.map(|x| x / vol) } else { [0.0; 3] };
        let mut cov = [[0.0; 3]; 3];
        for c in 0..3 {
            for d in 0..3 {
                cov[c][d] = if vol > 0.0 {
                    second[c][d] / vol - mean[c] * mean[d]
                } else {
                    0.0
                };
            }
        }
        let centre = [o[0] + mean[0], o[1] + mean[1], o[2] + mean[2]];
        let mut frame = Frame::from_moments(centre, cov, &m.positions, 0.0);
        frame.face = largest_face(m);
        frame
    }

    /// The frame of cells of side `h` at these centres.
    pub(super) fn of_cells(centres: &[V3], h: f64) -> Frame {
        let k = centres.len().max(1) as f64;
        let mean = centres
            .iter()
            .fold([0.0; 3], |s, p| [s[0] + p[0], s[1] + p[1], s[2] + p[2]])
            .map(|x| x / k);
        let mut cov = [[0.0; 3]; 3];
        for p in centres {
            let d = sub(*p, mean);
            for c in 0..3 {
                for e in 0..3 {
                    cov[c][e] += d[c] * d[e] / k;
                }
            }
        }
        for (c, row) in cov.iter_mut().enumerate() {
            row[c] += h * h / 12.0;
        }
        Frame::from_moments(mean, cov, centres, 0.5 * h)
    }

    fn from_moments(centre: V3, cov: [[f64; 3]; 3], points: &[V3], pad: f64) -> Frame {
        let (vals, vecs) = eigen(cov);
        let mut axes = vecs;
        // Right-handed.
        if dot(cross(axes[0], axes[1]), axes[2]) < 0.0 {
            axes[2] = scale(axes[2], -1.0);
        }
        let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
        for q in points {
            let p = sub(*q, centre);
            for a in 0..3 {
                let x = dot(p, axes[a]);
                lo[a] = lo[a].min(x - pad);
                hi[a] = hi[a].max(x + pad);
            }
        }
        let mut points: Vec<V3> = points.iter().map(|p| sub(*p, centre)).collect();
        points.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
        points.dedup();
        Frame {
            points,
            pad,
            face: None,
            centre,
            axes,
            lo,
            hi,
            sd: vals.map(|v| v.max(0.0).sqrt()),
        }
    }

    /// Box candidates along unit `w`: across it, the smallest rectangle
    /// around the part (its sides need not follow the principal axes: a
    /// square section has none of its own); a square prism (its 4-gon's
    /// corners on local X and Y, so local X is turned 45° from the
    /// rectangle's sides), or two of them intersected.
    fn boxes(&self, w: V3, out: &mut Vec<Vec<Piece>>) {
        let Some((u, v)) = across(w) else {
            return;
        };
        let (ru, rv, rlo, rhi) = self.rectangle(u, v);
        let (mut wlo, mut whi) = (f64::INFINITY, f64::NEG_INFINITY);
        for p in &self.points {
            wlo = wlo.min(dot(*p, w) - self.pad);
            whi = whi.max(dot(*p, w) + self.pad);
        }
        let local =
            |p: [f64; 3]| -> V3 { [0, 1, 2].map(|c| self.centre[c] + p[0] * ru[c] + p[1] * rv[c] + p[2] * w[c]) };
        let rhalf = [0.5 * (rhi[0] - rlo[0]), 0.5 * (rhi[1] - rlo[1])];
        let rmid = [0.5 * (rhi[0] + rlo[0]), 0.5 * (rhi[1] + rlo[1])];
        // (ru, rv, w) is right-handed: u × v = w, and ru, rv turn in that plane.
        let diag = [
            scale(sub(ru, scale(rv, -1.0)), std::f64::consts::FRAC_1_SQRT_2),
            scale(sub(rv, ru), std::f64::consts::FRAC_1_SQRT_2),
            w,
        ];
        let frame_d = euler(diag);
        let sq = std::f64::consts::SQRT_2;
        let (big, small, wide) = if rhalf[0] >= rhalf[1] {
            (rhalf[0], rhalf[1], 1)
        } else {
            (rhalf[1], rhalf[0], 0)
        };
        let ends = |c: [f64; 2]| (local([c[0], c[1], wlo]), local([c[0], c[1], whi]));
        if big - small <= 1e-3 * big {
            let (a, b) = ends(rmid);
            out.push(vec![path_piece(
                a,
                b,
                [big * sq, big * sq, 0.0],
                frame_d,
                Shape::Ngon,
                Some(4),
            )]);
        } else {
            // Two squares of the larger half side, moved apart across the
            // narrow way so that they overlap in the rectangle.
            let shift = big - small;
            let mut pair = Vec::new();
            for (id, sign) in [(0u32, -1.0), (1, 1.0)] {
                let mut c = rmid;
                c[wide] += sign * shift;
                let (a, b) = ends(c);
                let mut p = path_piece(a, b, [big * sq, big * sq, 0.0], frame_d, Shape::Ngon, Some(4));
                p.id = id;
                p.mode = Some(Mode::Intersect);
                p.affects = Some(vec![1 - id]);
                pair.push(p);
            }
            out.push(pair);
        }
    }

    /// The part seen along unit `w`: a basis across it, the points'
    /// extents in (u, v, w), the middle of their extent across, and the
    /// point farthest from that middle (its distance and unit direction in
    /// u, v).
    fn across(&self, w: V3) -> Option<Across> {
        let (u, v) = across(w)?;
        let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
        for p in &self.points {
            for (k, a) in [u, v, w].iter().enumerate() {
                lo[k] = lo[k].min(dot(*p, *a));
                hi[k] = hi[k].max(dot(*p, *a));
            }
        }
        let mid = [0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1])];
        let (mut far, mut corner) = (0.0f64, [1.0, 0.0]);
        for p in &self.points {
            let d = [dot(*p, u) - mid[0], dot(*p, v) - mid[1]];
            let r = (d[0] * d[0] + d[1] * d[1]).sqrt();
            if r > far {
                far = r;
                corner = [d[0] / r, d[1] / r];
            }
        }
        Some(Across {
            u,
            v,
            lo,
            hi,
            mid,
            far,
            corner,
        })
    }

    /// Regular n-gon prisms along unit `w` (3, 5, 6 and 8 sides): centred
    /// on the middle of the part's extent across `w`, a corner towards
    /// the point farthest from it, that far out.
    fn prisms(&self, w: V3, out: &mut Vec<Vec<Piece>>) {
        let Some(Across {
            u,
            v,
            lo,
            hi,
            mid,
            far,
            corner,
        }) = self.across(w)
        else {
            return;
        };
        let r = far + self.pad;
        if r.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            return;
        }
        // Local X towards the corner, Y a quarter turn on, Z along w.
        let x = [0, 1, 2].map(|c| corner[0] * u[c] + corner[1] * v[c]);
        let frame = euler([x, cross(w, x), w]);
        let at = |t: f64| -> V3 { [0, 1, 2].map(|c| self.centre[c] + mid[0] * u[c] + mid[1] * v[c] + t * w[c]) };
        let (a, b) = (at(lo[2] - self.pad), at(hi[2] + self.pad));
        for sides in [3u32, 5, 6, 8] {
            out.push(vec![path_piece(a, b, [r, r, 0.0], frame, Shape::Ngon, Some(sides))]);
        }
    }

    /// Tapered pieces along unit `w` (a cone, a wedge, a frustum): each
    /// section size a straight line along the part, the lowest line above
    /// every point's distance from the axis at the middle of the part
    /// ([`taper`]); an elliptic section (its radii across u and v) and
    /// regular 3-, 4-, 5-, 6- and 8-gons (a corner towards the point
    /// farthest from the axis), both ends from the same middle as
    /// [`Frame::prisms`].
    fn tapers(&self, w: V3, out: &mut Vec<Vec<Piece>>) {
        let Some(Across {
            u,
            v,
            lo,
            hi,
            mid,
            corner,
            ..
        }) = self.across(w)
        else {
            return;
        };
        let (tlo, thi) = (lo[2] - self.pad, hi[2] + self.pad);
        if thi - tlo <= 0.0 || !(thi - tlo).is_finite() {
            return;
        }
        let at = |p: &V3| (dot(*p, w) - tlo) / (thi - tlo);
        let across = |p: &V3| [dot(*p, u) - mid[0], dot(*p, v) - mid[1]];
        let line = |f: &dyn Fn(&V3) -> f64| {
            taper(self.points.iter().map(|p| [at(p), f(p)]).collect()).map(|(a, b)| (a + self.pad, b + self.pad))
        };
        let place = |t: f64| -> V3 { [0, 1, 2].map(|c| self.centre[c] + mid[0] * u[c] + mid[1] * v[c] + t * w[c]) };
        let (a, b) = (place(tlo), place(thi));
        let sized = |mut piece: Piece, s0: V3, s1: V3| {
            if let Some(points) = piece.points.as_mut() {
                points[0].size = Some(v3(s0));
                points[1].size = Some(v3(s1));
            }
            piece
        };
        if let (Some((ua, ub)), Some((va, vb))) = (line(&|p| across(p)[0].abs()), line(&|p| across(p)[1].abs())) {
            let frame = euler([u, v, w]);
            let piece = path_piece(a, b, [ua, va, 0.0], frame, Shape::Circle, None);
            out.push(vec![sized(piece, [ua, va, 0.0], [ub, vb, 0.0])]);
        }
        let Some((ra, rb)) = line(&|p| {
            let d = across(p);
            (d[0] * d[0] + d[1] * d[1]).sqrt()
        }) else {
            return;
        };
        let x = [0, 1, 2].map(|c| corner[0] * u[c] + corner[1] * v[c]);
        let frame = euler([x, cross(w, x), w]);
        for sides in [3u32, 4, 5, 6, 8] {
            let piece = path_piece(a, b, [ra, ra, 0.0], frame, Shape::Ngon, Some(sides));
            out.push(vec![sized(piece, [ra, ra, 0.0], [rb, rb, 0.0])]);
        }
    }

    /// The smallest rectangle around the part in the plane of unit `u`
    /// and `v`: its two side directions (unit, turned from u and v in
    /// that plane) and its least and greatest corner in them, from the
    /// centre.
    fn rectangle(&self, u: V3, v: V3) -> (V3, V3, [f64; 2], [f64; 2]) {
        let flat: Vec<[f64; 2]> = self.points.iter().map(|p| [dot(*p, u), dot(*p, v)]).collect();
        let hull = hull2(flat);
        // Rotating calipers: one side of the best rectangle lies along an
        // edge of the hull.
        let mut best = (f64::INFINITY, [1.0, 0.0], [0.0; 2], [0.0; 2]);
        for i in 0..hull.len() {
            let (a, b) = (hull[i], hull[(i + 1) % hull.len()]);
            let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
            let len = (dx * dx + dy * dy).sqrt();
            if len.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
                continue;
            }
            let d = [dx / len, dy / len];
            let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
            for p in &hull {
                let x = [p[0] * d[0] + p[1] * d[1], -p[0] * d[1] + p[1] * d[0]];
                for k in 0..2 {
                    lo[k] = lo[k].min(x[k]);
                    hi[k] = hi[k].max(x[k]);
                }
            }
            let (lo, hi) = (lo.map(|x| x - self.pad), hi.map(|x| x + self.pad));
            let area = (hi[0] - lo[0]) * (hi[1] - lo[1]);
            if area < best.0 * (1.0 - 1e-12) {
                best = (area, d, lo, hi);
            }
        }
        if !best.0.is_finite() {
            return (u, v, [0.0; 2], [0.0; 2]);
        }
        let d = best.1;
        let ru = [0, 1, 2].map(|c| d[0] * u[c] + d[1] * v[c]);
        let rv = [0, 1, 2].map(|c| -d[1] * u[c] + d[0] * v[c]);
        (ru, rv, best.2, best.3)
    }

    fn world(&self, local: V3) -> V3 {
        let mut p = self.centre;
        for (l, axis) in local.iter().zip(&self.axes) {
            for (x, a) in p.iter_mut().zip(axis) {
                *x += l * a;
            }
        }
        p
    }

    /// Every candidate: a list of pieces with ids from 0.
    pub(super) fn candidates(&self) -> Vec<Vec<Piece>> {
        let half = [0, 1, 2].map(|a| 0.5 * (self.hi[a] - self.lo[a]));
        let mid = [0, 1, 2].map(|a| 0.5 * (self.hi[a] + self.lo[a]));
        let box_centre = self.world(mid);
        let mut out = Vec::new();
        // Ellipsoids: through the extents, and of the same moments (a
        // solid ellipsoid's variance along an axis is a²/5).
        let rot = euler(self.axes);
        out.push(vec![point_piece(box_centre, half, rot)]);
        let moment = self.sd.map(|s| s * 5f64.sqrt());
        if moment.iter().all(|&r| r > 0.0) {
            out.push(vec![point_piece(self.centre, moment, rot)]);
        }
        for along in 0..3 {
            let (u, v) = ((along + 1) % 3, (along + 2) % 3);
            let a = self.world(with(mid, along, self.lo[along]));
            let b = self.world(with(mid, along, self.hi[along]));
            // The section's X along axis u.
            let frame_u = euler([self.axes[u], self.axes[v], self.axes[along]]);
            // Elliptic cylinder through the extents.
            out.push(vec![path_piece(
                a,
                b,
                [half[u], half[v], 0.0],
                frame_u,
                Shape::Circle,
                None,
            )]);
            // Capsule: caps as deep as the smaller section radius.
            let r = half[u].min(half[v]);
            if half[along] > r {
                let a = self.world(with(mid, along, self.lo[along] + r));
                let b = self.world(with(mid, along, self.hi[along] - r));
                out.push(vec![path_piece(
                    a,
                    b,
                    [half[u], half[v], r],
                    frame_u,
                    Shape::Circle,
                    None,
                )]);
            }
            self.boxes(self.axes[along], &mut out);
            self.prisms(self.axes[along], &mut out);
            self.tapers(self.axes[along], &mut out);
        }
        // A box across the normal of the part's largest flat face: a cube
        // (or any part whose moments are alike every way) has no principal
        // axes of its own.
        if let Some(w) = self.face {
            self.boxes(w, &mut out);
            self.prisms(w, &mut out);
        }
        out
    }
}

/// Candidates for a part cut flat (a dome, a half cylinder, a D-shaped
/// rod): where the part's largest flat face lies in a plane the whole part
/// is on one side of, the part mirrored across that plane is measured as
/// one ([`Frame::of`]), and each round single-piece candidate of the
/// doubled part (ellipsoids, cylinders, capsules, elliptic tapers), and the
/// quadric through the part's surface ([`quadric`]), is intersected with a
/// square prism that holds the part's side of
/// the plane (its face on the plane, reaching past the part's far side and
/// round its widest point). Each is a pair of intersect pieces acting on
/// each other. None when the part has no such face.
pub(super) fn halves(m: &Mesh) -> Vec<Vec<Piece>> {
    let Some(n) = largest_face(m) else {
        return Vec::new();
    };
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for p in &m.positions {
        lo = lo.min(dot(*p, n));
        hi = hi.max(dot(*p, n));
    }
    let span = hi - lo;
    if !(span > 0.0 && span.is_finite()) {
        return Vec::new();
    }
    // The area of faces across `n` lying on each extreme plane.
    let (mut at_lo, mut at_hi, mut total) = (0.0f64, 0.0f64, 0.0f64);
    for t in &m.triangles {
        let [a, b, c] = t.map(|i| m.positions[i as usize]);
        let normal = cross(sub(b, a), sub(c, a));
        let area = 0.5 * norm(normal);
        total += area;
        if area == 0.0 || dot(normal, n).abs() < 0.999 * 2.0 * area {
            continue;
        }
        let d = (dot(a, n) + dot(b, n) + dot(c, n)) / 3.0;
        if (d - hi).abs() <= 1e-4 * span {
            at_hi += area;
        } else if (d - lo).abs() <= 1e-4 * span {
            at_lo += area;
        }
    }
    // `out`: the face's outward normal; the part lies where p · out ≤ d.
    let (out, d) = if at_hi >= at_lo { (n, hi) } else { (scale(n, -1.0), -lo) };
    if at_hi.max(at_lo) < 0.1 * total {
        return Vec::new();
    }
    let k = m.positions.len() as u32;
    let mirror = |p: &V3| -> V3 {
        let s = 2.0 * (dot(*p, out) - d);
        [p[0] - s * out[0], p[1] - s * out[1], p[2] - s * out[2]]
    };
    let doubled = Mesh {
        positions: m
            .positions
            .iter()
            .copied()
            .chain(m.positions.iter().map(mirror))
            .collect(),
        triangles: m
            .triangles
            .iter()
            .copied()
            .chain(m.triangles.iter().map(|t| [t[0] + k, t[2] + k, t[1] + k]))
            .collect(),
    };
    let frame = Frame::of(&doubled);
    // The prism: along -out from the plane, past the far side by 2%; its
    // square's sides (corners on local X and Y) round the part's widest
    // point from its axis, by 2%.
    let w = scale(out, -1.0);
    let c = frame.centre;
    let c = sub(c, scale(out, dot(c, out) - d));
    let far = m
        .positions
        .iter()
        .map(|p| {
            let q = sub(*p, c);
            norm(sub(q, scale(w, dot(q, w))))
        })
        .fold(0.0f64, f64::max);
    let Some((u, v)) = across(w) else {
        return Vec::new();
    };
    let r = 1.02 * std::f64::consts::SQRT_2 * far;
    let mut prism = path_piece(
        c,
        [0, 1, 2].map(|i| c[i] + 1.02 * span * w[i]),
        [r, r, 0.0],
        euler([u, v, w]),
        Shape::Ngon,
        Some(4),
    );
    (prism.id, prism.mode, prism.affects) = (1, Some(Mode::Intersect), Some(vec![0]));
    // And the ellipsoid or elliptic cylinder through the part's curved
    // surface, wherever the cut lies (a rod with a shallow flat, a
    // spherical cap: the mirror is only right for a half).
    // Round primitives only: a box or a prism cut square to a face is a
    // box or a prism, found without the cut.
    frame
        .candidates()
        .into_iter()
        .filter(|set| set.len() == 1 && set[0].shape == Some(Shape::Circle))
        .chain(quadric(&m.positions, &m.positions).into_iter().map(|p| vec![p]))
        .map(|mut set| {
            let mut p = set.remove(0);
            (p.id, p.mode, p.affects) = (0, Some(Mode::Intersect), Some(vec![1]));
            vec![p, prism.clone()]
        })
        .collect()
}

/// Faces that meet at an edge turning by more than this (its cosine) are
/// on different patches of the surface ([`patches`]).
const CREASE_COS: f64 = 0.866;

/// Candidates for a part that is the meeting of two round solids (an
/// ellipsoid cut by a tube or a second ellipsoid, a lens): the part's
/// surface split into smooth patches where it creases ([`patches`]), and
/// where the two largest each hold a tenth of the area, the quadric
/// through each ([`quadric`]: an ellipsoid or an elliptic cylinder
/// running along the part) alone, and each of one met with each of the
/// other as a pair of intersect pieces acting on each other. None when the
/// part has no two such patches; no pair when a patch is flat (a part cut
/// flat is [`halves`]'s).
pub(super) fn crossed(m: &Mesh) -> Vec<Vec<Piece>> {
    let patches = patches(m);
    let total: f64 = patches.iter().map(|p| p.0).sum();
    let [(a, first), (b, second), ..] = patches.as_slice() else {
        return Vec::new();
    };
    if !(*a >= 0.1 * total && *b >= 0.1 * total) {
        return Vec::new();
    }
    // Each patch's own vertices: those on a crease lie on both surfaces
    // only to within the facets (a boolean's cut through two faceted
    // solids runs inside both).
    let mut on = vec![0u8; m.positions.len()];
    for (_, vertices) in &patches {
        for &i in vertices {
            on[i as usize] = on[i as usize].saturating_add(1);
        }
    }
    let fit = |vertices: &[u32]| {
        let points: Vec<V3> = vertices
            .iter()
            .filter(|&&i| on[i as usize] == 1)
            .map(|&i| m.positions[i as usize])
            .collect();
        quadric(&points, &m.positions)
    };
    let (one, other) = (fit(first), fit(second));
    let mut out: Vec<Vec<Piece>> = one.iter().chain(&other).map(|p| vec![p.clone()]).collect();
    for p in &one {
        for q in &other {
            let (mut p, mut q) = (p.clone(), q.clone());
            (p.id, p.mode, p.affects) = (0, Some(Mode::Intersect), Some(vec![1]));
            (q.id, q.mode, q.affects) = (1, Some(Mode::Intersect), Some(vec![0]));
            out.push(vec![p, q]);
        }
    }
    out
}

/// The smooth patches of a mesh's surface: its triangles joined across
/// each edge two of them share whose normals differ by less than the
/// crease ([`CREASE_COS`]), largest first (ties in the order of their
/// first triangles), each with its area and its vertices (in order; a
/// vertex on a crease is in each patch it bounds). A triangle of no area
/// is a patch of its own.
fn patches(m: &Mesh) -> Vec<(f64, Vec<u32>)> {
    let k = m.triangles.len();
    // Each triangle's unit normal and area.
    let faces: Vec<(Option<V3>, f64)> = m
        .triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| m.positions[i as usize]);
            let n = cross(sub(b, a), sub(c, a));
            (crate::mesh::math::unit(n), 0.5 * norm(n))
        })
        .collect();
    let mut parent: Vec<usize> = (0..k).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut first: std::collections::HashMap<(u32, u32), usize> = std::collections::HashMap::new();
    for (t, tri) in m.triangles.iter().enumerate() {
        for e in 0..3 {
            let (x, y) = (tri[e], tri[(e + 1) % 3]);
            match first.entry((x.min(y), x.max(y))) {
                std::collections::hash_map::Entry::Vacant(v) => {
                    v.insert(t);
                }
                std::collections::hash_map::Entry::Occupied(o) => {
                    let u = *o.get();
                    if let (Some(p), Some(q)) = (faces[t].0, faces[u].0) {
                        if dot(p, q) >= CREASE_COS {
                            let (a, b) = (root(&mut parent, t), root(&mut parent, u));
                            // The smaller root: patches numbered by their first triangle.
                            parent[a.max(b)] = a.min(b);
                        }
                    }
                }
            }
        }
    }
    let mut index: std::collections::BTreeMap<usize, usize> = std::collections::BTreeMap::new();
    let mut out: Vec<(f64, Vec<u32>)> = Vec::new();
    for (t, tri) in m.triangles.iter().enumerate() {
        let r = root(&mut parent, t);
        let n = out.len();
        let slot = *index.entry(r).or_insert(n);
        if slot == n {
            out.push((0.0, Vec::new()));
        }
        out[slot].0 += faces[t].1;
        out[slot].1.extend_from_slice(tri);
    }
    for (_, v) in &mut out {
        v.sort_unstable();
        v.dedup();
    }
    // Stable: equal areas keep the order of their first triangles.
    out.sort_by(|a, b| b.0.total_cmp(&a.0));
    out
}

/// The ellipsoid or elliptic cylinder whose surface `points` (a part's
/// vertices, or a patch of them, [`crossed`]) lie on, by an algebraic
/// least-squares fit of a quadric (the smallest eigenvector of Σ v vᵀ,
/// v = (x², y², z², 2xy, 2xz, 2yz, x, y, z, 1) in coordinates centred and
/// scaled to the points), fitted again without the fifth of the points
/// farthest from the first fit's surface (the centre of a flat end's fan,
/// a corner where a cut meets it). The ellipsoid when the quadric is one,
/// and the cylinder when its least eigenvalue is all but 0, running along
/// the extent of the whole part's vertices `part` on its axis; neither
/// when larger than four times the points' extent.
fn quadric(points: &[V3], part: &[V3]) -> Vec<Piece> {
    let k = points.len();
    if k < 10 {
        return Vec::new();
    }
    let mean = points
        .iter()
        .fold([0.0; 3], |s, p| [s[0] + p[0], s[1] + p[1], s[2] + p[2]])
        .map(|x| x / k as f64);
    let s = points
        .iter()
        .map(|p| sub(*p, mean).iter().fold(0.0f64, |a, x| a.max(x.abs())))
        .fold(0.0f64, f64::max);
    if !(s > 0.0 && s.is_finite()) {
        return Vec::new();
    }
    let local: Vec<V3> = points.iter().map(|p| sub(*p, mean).map(|x| x / s)).collect();
    let row = |p: &V3| -> [f64; 10] {
        let [x, y, z] = *p;
        [x * x, y * y, z * z, 2.0 * x * y, 2.0 * x * z, 2.0 * y * z, x, y, z, 1.0]
    };
    let solve = |use_: &dyn Fn(usize) -> bool| -> Option<[f64; 10]> {
        let mut a = [[0.0f64; 10]; 10];
        for (i, p) in local.iter().enumerate() {
            if use_(i) {
                let r = row(p);
                for (j, rj) in r.iter().enumerate() {
                    for (l, rl) in r.iter().enumerate() {
                        a[j][l] += rj * rl;
                    }
                }
            }
        }
        let (vals, vecs) = jacobi(a);
        let least = (0..10).min_by(|&i, &j| vals[i].total_cmp(&vals[j]))?;
        Some(std::array::from_fn(|j| vecs[j][least]))
    };
    // The distance to the surface, to first order: |q(p)| / |∇q(p)|.
    let off = |q: &[f64; 10], p: &V3| -> f64 {
        let [x, y, z] = *p;
        let value = row(p).iter().zip(q).map(|(a, b)| a * b).sum::<f64>();
        let grad = [
            2.0 * (q[0] * x + q[3] * y + q[4] * z) + q[6],
            2.0 * (q[3] * x + q[1] * y + q[5] * z) + q[7],
            2.0 * (q[4] * x + q[5] * y + q[2] * z) + q[8],
        ];
        value.abs() / norm(grad).max(1e-300)
    };
    let Some(first) = solve(&|_| true) else {
        return Vec::new();
    };
    let offs: Vec<f64> = local.iter().map(|p| off(&first, p)).collect();
    let mut sorted = offs.clone();
    sorted.sort_by(f64::total_cmp);
    let cut = sorted[(k * 4) / 5];
    let Some(q) = solve(&|i| offs[i] <= cut) else {
        return Vec::new();
    };
    let mut a = [[q[0], q[3], q[4]], [q[3], q[1], q[5]], [q[4], q[5], q[2]]];
    let mut b = [q[6], q[7], q[8]];
    let mut j = q[9];
    // The sign that makes the quadratic part's trace positive.
    if a[0][0] + a[1][1] + a[2][2] < 0.0 {
        a = a.map(|r| r.map(|x| -x));
        b = b.map(|x| -x);
        j = -j;
    }
    let (vals, vecs) = eigen(a);
    if vals[0].partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return Vec::new();
    }
    let mut axes = vecs;
    if dot(cross(axes[0], axes[1]), axes[2]) < 0.0 {
        axes[2] = scale(axes[2], -1.0);
    }
    // The centre (−½ A⁻¹ b on the first `used` axes), and the radii along
    // them; `None` past four times the part's extent.
    let fitted = |used: usize| -> Option<(V3, Vec<f64>)> {
        let mut centre = [0.0; 3];
        for i in 0..used {
            let along = -0.5 * dot(vecs[i], b) / vals[i];
            centre = [0, 1, 2].map(|c| centre[c] + along * vecs[i][c]);
        }
        let ac: V3 = [0, 1, 2].map(|r| dot(a[r], centre));
        let level = dot(centre, ac) - j;
        let radii: Vec<f64> = (0..used).map(|i| s * (level / vals[i]).sqrt()).collect();
        radii
            .iter()
            .all(|r| r.is_finite() && *r > 0.0 && *r <= 8.0 * s)
            .then(|| ([0, 1, 2].map(|c| mean[c] + s * centre[c]), radii))
    };
    let mut out = Vec::new();
    if vals[2] > 0.0 {
        if let Some((world, r)) = fitted(3) {
            out.push(point_piece(world, [r[0], r[1], r[2]], euler(axes)));
        }
    }
    // An elliptic cylinder where the least eigenvalue is all but 0.
    if vals[2].abs() <= 1e-2 * vals[0] {
        if let Some((world, r)) = fitted(2) {
            let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
            for p in part {
                let t = dot(sub(*p, world), axes[2]);
                lo = lo.min(t);
                hi = hi.max(t);
            }
            let at = |t: f64| [0, 1, 2].map(|c| world[c] + t * axes[2][c]);
            out.push(path_piece(
                at(lo),
                at(hi),
                [r[0], r[1], 0.0],
                euler(axes),
                Shape::Circle,
                None,
            ));
        }
    }
    out
}

/// Eigenvalues and unit eigenvectors (the columns of the second) of a
/// symmetric N×N matrix, by cyclic Jacobi rotations.
fn jacobi<const N: usize>(mut a: [[f64; N]; N]) -> ([f64; N], [[f64; N]; N]) {
    let mut v = [[0.0f64; N]; N];
    for (i, row) in v.iter_mut().enumerate() {
        row[i] = 1.0;
    }
    for _ in 0..64 {
        // Above the diagonal against on it.
        let mut off = 0.0f64;
        let mut diag = 0.0f64;
        for (i, row) in a.iter().enumerate() {
            diag += row[i].abs();
            off += row[i + 1..].iter().map(|x| x.abs()).sum::<f64>();
        }
        if off == 0.0 || off <= 1e-15 * diag {
            break;
        }
        for p in 0..N {
            for q in p + 1..N {
                if a[p][q] == 0.0 {
                    continue;
                }
                let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                let t = if theta == 0.0 {
                    1.0
                } else {
                    theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt())
                };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for row in a.iter_mut() {
                    let (akp, akq) = (row[p], row[q]);
                    row[p] = c * akp - s * akq;
                    row[q] = s * akp + c * akq;
                }
                let (rp, rq) = (a[p], a[q]);
                for l in 0..N {
                    a[p][l] = c * rp[l] - s * rq[l];
                    a[q][l] = s * rp[l] + c * rq[l];
                }
                for row in v.iter_mut() {
                    let (vp, vq) = (row[p], row[q]);
                    row[p] = c * vp - s * vq;
                    row[q] = s * vp + c * vq;
                }
            }
        }
    }
    (std::array::from_fn(|i| a[i][i]), v)
}

/// The normal (either way) of the largest flat face of a mesh: triangle
/// areas summed by normal direction, rounded to 1e-3; `None` when no
/// direction holds a tenth of the area.
fn largest_face(m: &Mesh) -> Option<V3> {
    let mut by: std::collections::BTreeMap<[i64; 3], (f64, V3)> = std::collections::BTreeMap::new();
    let mut total = 0.0;
    for t in &m.triangles {
        let [a, b, c] = t.map(|i| m.positions[i as usize]);
        let n = cross(sub(b, a), sub(c, a));
        let area = 0.5 * norm(n);
        let Some(mut u) = crate::mesh::math::unit(n) else {
            continue;
        };
        // One sign for both faces of a slab.
        if u.iter().find(|x| x.abs() > 1e-9).is_some_and(|x| *x < 0.0) {
            u = scale(u, -1.0);
        }
        total += area;
        let key = u.map(|x| (x * 1000.0).round() as i64);
        let e = by.entry(key).or_insert((0.0, [0.0; 3]));
        e.0 += area;
        for (s, x) in e.1.iter_mut().zip(u) {
            *s += area * x;
        }
    }
    let (area, sum) = by.into_values().max_by(|a, b| a.0.total_cmp(&b.0))?;
    (area >= 0.1 * total).then(|| crate::mesh::math::unit(sum)).flatten()
}

/// The convex hull of points in a plane, counter-clockwise (Andrew's
/// monotone chain).
fn hull2(mut p: Vec<[f64; 2]>) -> Vec<[f64; 2]> {
    p.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    p.dedup();
    if p.len() < 3 {
        return p;
    }
    let turn = |o: [f64; 2], a: [f64; 2], b: [f64; 2]| (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
    let mut h: Vec<[f64; 2]> = Vec::with_capacity(2 * p.len());
    for pass in 0..2 {
        let start = h.len();
        let iter: Box<dyn Iterator<Item = &[f64; 2]>> = if pass == 0 {
            Box::new(p.iter())
        } else {
            Box::new(p.iter().rev())
        };
        for &q in iter {
            while h.len() >= start + 2 && turn(h[h.len() - 2], h[h.len() - 1], q) <= 0.0 {
                h.pop();
            }
            h.push(q);
        }
        h.pop();
    }
    h
}

/// What [`Frame::across`] gives.
struct Across {
    u: V3,
    v: V3,
    lo: V3,
    hi: V3,
    mid: [f64; 2],
    far: f64,
    corner: [f64; 2],
}

/// The line `y = a + (b − a)·s` over `s` in [0, 1] above every point
/// `(s, y)` that is lowest at `s = ½` (so lowest on average over the
/// span): the edge of the points' upper hull over `s = ½`, or the level
/// of a hull vertex there; both ends at least 0. `None` without points.
fn taper(points: Vec<[f64; 2]>) -> Option<(f64, f64)> {
    let hull = hull2(points);
    let first = hull.first()?;
    if hull.len() < 3 {
        let y = hull.iter().fold(first[1], |m, p| m.max(p[1]));
        return Some((y.max(0.0), y.max(0.0)));
    }
    // The hull is counter-clockwise: its edges running towards smaller s
    // are the upper chain.
    let mut best: Option<(f64, f64)> = None;
    for i in 0..hull.len() {
        let (p, q) = (hull[i], hull[(i + 1) % hull.len()]);
        if !(q[0] < p[0] && q[0] <= 0.5 && 0.5 <= p[0]) {
            continue;
        }
        let slope = (p[1] - q[1]) / (p[0] - q[0]);
        let a = q[1] - slope * q[0];
        best = Some((a, a + slope));
        break;
    }
    let (a, b) = best.unwrap_or_else(|| {
        let y = hull.iter().fold(first[1], |m, p| m.max(p[1]));
        (y, y)
    });
    (a.is_finite() && b.is_finite()).then_some((a.max(0.0), b.max(0.0)))
}

fn with(mut p: V3, axis: usize, x: f64) -> V3 {
    p[axis] = x;
    p
}

fn bbox_volume(m: &Mesh) -> f64 {
    m.bounds()
        .map_or(0.0, |(a, b)| (b[0] - a[0]) * (b[1] - a[1]) * (b[2] - a[2]))
}

pub(super) fn v3(p: V3) -> Vec3 {
    Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32)
}

fn point_piece(centre: V3, radii: V3, rotation: V3) -> Piece {
    Piece {
        id: 0,
        points: Some(vec![Point::at(v3(centre))]),
        size: Some(v3(radii)),
        rotation: Some(v3(rotation)),
        shape: Some(Shape::Circle),
        ..Piece::default()
    }
}

fn path_piece(a: V3, b: V3, size: V3, rotation: V3, shape: Shape, sides: Option<u32>) -> Piece {
    Piece {
        id: 0,
        points: Some(vec![Point::at(v3(a)), Point::at(v3(b))]),
        size: Some(v3(size)),
        rotation: Some(v3(rotation)),
        shape: Some(shape),
        sides,
        ..Piece::default()
    }
}

/// Euler angles in degrees (extrinsic X, Y, Z: R = Rz · Ry · Rx) of the
/// rotation whose columns are the given right-handed unit axes.
pub(super) fn euler(axes: [V3; 3]) -> V3 {
    // Rows of R: r[i][j] = axes[j][i].
    let r: M3 = [0, 1, 2].map(|i| [axes[0][i], axes[1][i], axes[2][i]]);
    let sy = (-r[2][0]).clamp(-1.0, 1.0);
    let y = sy.asin();
    let (x, z) = if sy.abs() < 1.0 - 1e-12 {
        (r[2][1].atan2(r[2][2]), r[1][0].atan2(r[0][0]))
    } else {
        (0.0, (-r[0][1]).atan2(r[1][1]))
    };
    [x, y, z].map(f64::to_degrees)
}

/// Eigenvalues (descending) and unit eigenvectors of a symmetric 3×3
/// matrix ([`jacobi`]).
fn eigen(a: [[f64; 3]; 3]) -> (V3, [V3; 3]) {
    let (d, v) = jacobi(a);
    let mut order = [0usize, 1, 2];
    order.sort_by(|&i, &j| d[j].total_cmp(&d[i]));
    (order.map(|i| d[i]), order.map(|i| [v[0][i], v[1][i], v[2][i]]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::math::rotation;

    #[test]
    fn a_folding_sweep_scores_as_its_hulls_and_tubes_side_by_side() {
        // A zigzag of a section wider than its bends: every joint folds,
        // and the mesher rebuilds it as the union of hulls and tubes.
        let doc = crate::parse_ssk(
            "pieces:\n- id: 0\n  points: [{x: 0, y: 0, z: 0}, {x: 10, y: 0, z: 0}, \
             {x: 0, y: 4, z: 1}, {x: 10, y: 8, z: 0}, {x: 2, y: 12, z: 2}]\n  \
             size: {x: 2, y: 1.5, z: 0}\n  shape: circle\n",
        )
        .unwrap();
        let piece = &doc.pieces[0];
        let union = mesh_of(std::slice::from_ref(piece), 16).unwrap();
        let parts = own_volume(piece, 16).unwrap();
        // Not one closed solid: parts that overlap (the winding number is
        // 2 where they do), more triangles than the union.
        assert!(
            parts.volume() > 1.05 * union.volume(),
            "{} {}",
            parts.volume(),
            union.volume()
        );
        // Inside the same places.
        let s = Scorer::new(&union, 160).score(&parts);
        assert!(s.coverage > 99.9 && s.overfill < 0.1, "{s:?}");
        // A piece that does not fold is its own mesh.
        let straight = crate::parse_ssk("pieces:\n- id: 0\n  points: [{x: 0, y: 0, z: 0}, {x: 10, y: 0, z: 0}]\n  size: {x: 2, y: 2, z: 0}\n  shape: circle\n").unwrap();
        let a = own_volume(&straight.pieces[0], 16).unwrap();
        let b = mesh_of(&straight.pieces, 16).unwrap();
        assert!((a.volume() - b.volume()).abs() < 1e-9 * b.volume());
    }

    #[test]
    fn a_surface_splits_into_patches_at_its_creases() {
        let patched = |ssk: &str, resolution: u32| {
            let doc = crate::parse_ssk(ssk).unwrap();
            let m = mesh_of(&doc.pieces, resolution).unwrap();
            (patches(&m), m)
        };
        // A box: six faces, four of 4 × 10 mm and two of 4 × 4 (a square
        // of half-diagonal √8 has sides of 4).
        let (p, m) = patched(
            "pieces:\n- id: 0\n  points: [{x: 0, y: 0, z: 0}, {x: 0, y: 0, z: 10}]\n  size: {x: 2.828427, y: 2.828427, z: 0}\n  rotation: {x: 0, y: 0, z: 45}\n  shape: ngon\n  sides: 4\n",
            16,
        );
        assert_eq!(p.len(), 6, "{p:?}");
        for (a, want) in p.iter().map(|x| x.0).zip([40.0, 40.0, 40.0, 40.0, 16.0, 16.0]) {
            assert!((a - want).abs() < 1e-3, "{a} {want}");
        }
        assert!(m.positions.len() >= 8);
        // A lens: two caps, the same area, meeting at a crease; no cap
        // crosses it.
        let (p, m) = patched(
            "pieces:\n- id: 0\n  points: [{x: 0, y: 0, z: 0}]\n  size: {x: 20, y: 20, z: 20}\n  shape: circle\n  mode: intersect\n  affects: [1]\n- id: 1\n  points: [{x: 0, y: 0, z: 24}]\n  size: {x: 20, y: 20, z: 20}\n  shape: circle\n  mode: intersect\n  affects: [0]\n",
            32,
        );
        assert_eq!(p.len(), 2, "{:?}", p.iter().map(|x| x.0).collect::<Vec<_>>());
        assert!((p[0].0 - p[1].0).abs() < 1e-6 * p[0].0);
        for (_, vertices) in &p {
            let z: Vec<f64> = vertices.iter().map(|&i| m.positions[i as usize][2]).collect();
            assert!(z.iter().all(|&z| z <= 12.0 + 1e-9) || z.iter().all(|&z| z >= 12.0 - 1e-9));
        }
        // Each cap's own vertices lie on its sphere: the pair is the two
        // spheres, met.
        let pairs: Vec<Vec<Piece>> = crossed(&m).into_iter().filter(|set| set.len() == 2).collect();
        assert_eq!(pairs.len(), 1);
        for p in &pairs[0] {
            let s = p.size.unwrap();
            for r in [s.x, s.y, s.z] {
                assert!((f64::from(r) - 20.0).abs() < 1e-3, "{s:?}");
            }
        }
    }

    #[test]
    fn a_taper_is_the_lowest_line_over_the_middle() {
        let close = |(a, b): (f64, f64), (x, y): (f64, f64)| (a - x).abs() < 1e-12 && (b - y).abs() < 1e-12;
        // A cone's profile, sampled: radius 2 at s = 0 to 0 at s = 1.
        let cone: Vec<[f64; 2]> = (0..=20)
            .flat_map(|i| {
                let s = f64::from(i) / 20.0;
                [[s, 2.0 * (1.0 - s)], [s, 0.5 * (1.0 - s)], [s, 0.0]]
            })
            .collect();
        assert!(close(taper(cone).unwrap(), (2.0, 0.0)));
        // A bump off the middle: the hull's edge over s = ½, from the bump
        // (0.4, 3) down to (1, 1), not the line through the ends.
        let bump = vec![[0.0, 1.0], [1.0, 1.0], [0.4, 3.0], [0.2, 0.0]];
        let (a, b) = taper(bump).unwrap();
        assert!((a - 13.0 / 3.0).abs() < 1e-12 && (b - 1.0).abs() < 1e-12, "{a} {b}");
        // Every point under the line, the line no higher than it need be.
        let cloud: Vec<[f64; 2]> = (0..50)
            .map(|i| {
                let s = f64::from(i) / 49.0;
                [s, 1.0 + 0.5 * s + 0.3 * (7.0 * s).sin().abs()]
            })
            .collect();
        let (a, b) = taper(cloud.clone()).unwrap();
        assert!(cloud.iter().all(|p| p[1] <= a + (b - a) * p[0] + 1e-12));
        assert!(cloud.iter().any(|p| (p[1] - (a + (b - a) * p[0])).abs() < 1e-12));
        assert!(taper(Vec::new()).is_none());
    }

    #[test]
    fn euler_angles_give_back_their_rotation() {
        for deg in [
            [10.0, 20.0, 30.0],
            [-170.0, 45.0, 5.0],
            [0.0, 90.0, 0.0],
            [33.0, -60.0, 120.0],
        ] {
            let r = rotation(deg);
            let axes = [0, 1, 2].map(|j| [r[0][j], r[1][j], r[2][j]]);
            let back = rotation(euler(axes));
            for i in 0..3 {
                for j in 0..3 {
                    assert!((back[i][j] - r[i][j]).abs() < 1e-9, "{deg:?}");
                }
            }
        }
    }

    #[test]
    fn eigen_of_a_rotated_diagonal() {
        let r = rotation([20.0, -35.0, 70.0]);
        let d = [9.0, 4.0, 1.0];
        let mut a = [[0.0; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                a[i][j] = (0..3).map(|k| r[i][k] * d[k] * r[j][k]).sum();
            }
        }
        let (vals, vecs) = eigen(a);
        for k in 0..3 {
            assert!((vals[k] - d[k]).abs() < 1e-12);
            let col = [r[0][k], r[1][k], r[2][k]];
            assert!((dot(vecs[k], col).abs() - 1.0).abs() < 1e-12);
        }
    }
}
