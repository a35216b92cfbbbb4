// boolean3_kernels.rs — the geometric kernels of the boolean intersection
// algorithm: shadow predicates (shadow01), the edge-edge / vertex-face /
// edge-face kernels (kernel11, kernel02, kernel12), and the two broadphase
// drivers built on them (intersect12, winding03).
//
// Ports the kernel portion of src/boolean3.cpp. Extracted from boolean3.rs,
// which owns the Boolean3 constructor pipeline and the public boolean()
// entry points; ray_cast (boolean3.rs) also reuses kernel12. These are the
// ONLY places where floating-point operations occur in the boolean
// algorithm. They are carefully designed to minimize rounding error and to
// eliminate it at edge cases. The branch structure must exactly match the
// C++ to produce identical results.
//
// Changed for sskb (vendor/manifold-rust/PATCHES.md): intersect12 skips the
// edge-face pairs that `edge_face_apart` proves apart, before kernel12, and
// where faces or edges reach far out of the other solid's box, pairs them
// by the boxes of their parts inside it (boolean3_near.rs).

use std::collections::HashSet;

use crate::cancel::{is_cancelled, CancelToken};
use crate::disjoint_sets::DisjointSets;
use crate::impl_mesh::ManifoldImpl;
use crate::linalg::{Vec2, Vec3, Vec4};
use crate::types::Box as BBox;

use super::Intersections;

#[inline]
fn with_sign(pos: bool, v: f64) -> f64 {
    if pos {
        v
    } else {
        -v
    }
}

/// Interpolate along edge (aL, aR) at x-coordinate `x`.
/// Returns (y, z) at the interpolated point.
/// Uses the closer endpoint as the base to minimize rounding error.
fn interpolate(a_l: Vec3, a_r: Vec3, x: f64) -> Vec2 {
    let dx_l = x - a_l.x;
    let dx_r = x - a_r.x;
    debug_assert!(dx_l * dx_r <= 0.0, "Boolean manifold error: not in domain");
    let use_l = dx_l.abs() < dx_r.abs();
    let d_lr = a_r - a_l;
    let lambda = (if use_l { dx_l } else { dx_r }) / d_lr.x;
    if !lambda.is_finite() || !d_lr.y.is_finite() || !d_lr.z.is_finite() {
        return Vec2::new(a_l.y, a_l.z);
    }
    Vec2::new(
        lambda * d_lr.y + if use_l { a_l.y } else { a_r.y },
        lambda * d_lr.z + if use_l { a_l.z } else { a_r.z },
    )
}

/// Find the intersection of two edges projected onto the yz-plane, parameterized
/// by their y-coordinates. Returns (x, y, z_a, z_b) at the intersection.
fn intersect_edges(a_l: Vec3, a_r: Vec3, b_l: Vec3, b_r: Vec3) -> Vec4 {
    let dy_l = b_l.y - a_l.y;
    let dy_r = b_r.y - a_r.y;
    debug_assert!(
        dy_l * dy_r <= 0.0,
        "Boolean manifold error: no intersection"
    );
    let use_l = dy_l.abs() < dy_r.abs();
    let dx = a_r.x - a_l.x;
    let mut lambda = (if use_l { dy_l } else { dy_r }) / (dy_l - dy_r);
    if !lambda.is_finite() {
        lambda = 0.0;
    }
    let x = lambda * dx + if use_l { a_l.x } else { a_r.x };
    let a_dy = a_r.y - a_l.y;
    let b_dy = b_r.y - b_l.y;
    let use_a = a_dy.abs() < b_dy.abs();
    let y = lambda * (if use_a { a_dy } else { b_dy })
        + if use_l {
            if use_a {
                a_l.y
            } else {
                b_l.y
            }
        } else if use_a {
            a_r.y
        } else {
            b_r.y
        };
    let z = lambda * (a_r.z - a_l.z) + if use_l { a_l.z } else { a_r.z };
    let w = lambda * (b_r.z - b_l.z) + if use_l { b_l.z } else { b_r.z };
    Vec4::new(x, y, z, w)
}

/// Symbolic perturbation shadow predicate.
/// When p == q, the tie is broken by the sign of dir.
#[inline]
fn shadows(p: f64, q: f64, dir: f64) -> bool {
    if p == q {
        dir < 0.0
    } else {
        p < q
    }
}

// ---------------------------------------------------------------------------
// Shadow01 — vertex-edge shadow test
// ---------------------------------------------------------------------------
// Tests whether vertex a0 of mesh A shadows edge b1 of mesh B.
// Returns (winding contribution, (y,z) interpolated position).

fn shadow01(
    a0: usize,
    b1: usize,
    in_a: &ManifoldImpl,
    in_b: &ManifoldImpl,
    expand_p: bool,
    forward: bool,
) -> (i32, Vec2) {
    let b1s = in_b.halfedge[b1].start_vert as usize;
    let b1e = in_b.halfedge[b1].end_vert as usize;
    let a0x = in_a.vert_pos[a0].x;
    let b1sx = in_b.vert_pos[b1s].x;
    let b1ex = in_b.vert_pos[b1e].x;
    let a0xp = in_a.vert_normal[a0].x;
    let b1sxp = in_b.vert_normal[b1s].x;
    let b1exp = in_b.vert_normal[b1e].x;

    let mut s01 = if forward {
        shadows(a0x, b1ex, with_sign(expand_p, a0xp) - b1exp) as i32
            - shadows(a0x, b1sx, with_sign(expand_p, a0xp) - b1sxp) as i32
    } else {
        shadows(b1sx, a0x, with_sign(expand_p, b1sxp) - a0xp) as i32
            - shadows(b1ex, a0x, with_sign(expand_p, b1exp) - a0xp) as i32
    };

    let mut yz01 = Vec2::new(f64::NAN, f64::NAN);

    if s01 != 0 {
        yz01 = interpolate(in_b.vert_pos[b1s], in_b.vert_pos[b1e], in_a.vert_pos[a0].x);
        let b1pair = in_b.halfedge[b1].paired_halfedge as usize;
        let dir = in_b.face_normal[b1 / 3].y + in_b.face_normal[b1pair / 3].y;
        if forward {
            if !shadows(in_a.vert_pos[a0].y, yz01.x, -dir) {
                s01 = 0;
            }
        } else if !shadows(yz01.x, in_a.vert_pos[a0].y, with_sign(expand_p, dir)) {
            s01 = 0;
        }
    }
    (s01, yz01)
}

// ---------------------------------------------------------------------------
// Kernel11 — edge-edge intersection
// ---------------------------------------------------------------------------

fn kernel11(
    p1: usize,
    q1: usize,
    in_p: &ManifoldImpl,
    in_q: &ManifoldImpl,
    expand_p: bool,
) -> (i32, Vec4) {
    let xyzz11;
    let mut s11: i32 = 0;

    let mut k: usize = 0;
    let mut p_rl = [Vec3::splat(0.0); 2];
    let mut q_rl = [Vec3::splat(0.0); 2];
    let mut shadow_state = false;

    let p0 = [
        in_p.halfedge[p1].start_vert as usize,
        in_p.halfedge[p1].end_vert as usize,
    ];
    for i in 0..2 {
        let (s01, yz01) = shadow01(p0[i], q1, in_p, in_q, expand_p, true);
        if yz01.x.is_finite() {
            s11 += s01 * if i == 0 { -1 } else { 1 };
            if k < 2 && (k == 0 || (s01 != 0) != shadow_state) {
                shadow_state = s01 != 0;
                p_rl[k] = in_p.vert_pos[p0[i]];
                q_rl[k] = Vec3::new(p_rl[k].x, yz01.x, yz01.y);
                k += 1;
            }
        }
    }

    let q0 = [
        in_q.halfedge[q1].start_vert as usize,
        in_q.halfedge[q1].end_vert as usize,
    ];
    for i in 0..2 {
        let (s10, yz10) = shadow01(q0[i], p1, in_q, in_p, expand_p, false);
        if yz10.x.is_finite() {
            s11 += s10 * if i == 0 { -1 } else { 1 };
            if k < 2 && (k == 0 || (s10 != 0) != shadow_state) {
                shadow_state = s10 != 0;
                q_rl[k] = in_q.vert_pos[q0[i]];
                p_rl[k] = Vec3::new(q_rl[k].x, yz10.x, yz10.y);
                k += 1;
            }
        }
    }

    if s11 == 0 {
        xyzz11 = Vec4::splat(f64::NAN);
    } else {
        debug_assert_eq!(k, 2, "Boolean manifold error: s11");
        xyzz11 = intersect_edges(p_rl[0], p_rl[1], q_rl[0], q_rl[1]);

        let p1pair = in_p.halfedge[p1].paired_halfedge as usize;
        let dir_p = in_p.face_normal[p1 / 3].z + in_p.face_normal[p1pair / 3].z;
        let q1pair = in_q.halfedge[q1].paired_halfedge as usize;
        let dir_q = in_q.face_normal[q1 / 3].z + in_q.face_normal[q1pair / 3].z;
        if !shadows(xyzz11.z, xyzz11.w, with_sign(expand_p, dir_p) - dir_q) {
            s11 = 0;
        }
    }

    (s11, xyzz11)
}

// ---------------------------------------------------------------------------
// Kernel02 — vertex-face intersection
// ---------------------------------------------------------------------------

fn kernel02(
    a0: usize,
    b2: usize,
    in_a: &ManifoldImpl,
    in_b: &ManifoldImpl,
    expand_p: bool,
    forward: bool,
) -> (i32, f64) {
    let mut s02: i32 = 0;
    let z02: f64;

    let mut k: usize = 0;
    let mut yzz_rl = [Vec3::splat(0.0); 2];
    let mut shadow_state = false;

    for i in 0..3 {
        let b1 = 3 * b2 + i;
        let edge_b = in_b.halfedge[b1];
        let b1f = if edge_b.is_forward() {
            b1
        } else {
            edge_b.paired_halfedge as usize
        };

        let (s01, yz01) = shadow01(a0, b1f, in_a, in_b, expand_p, forward);
        if yz01.x.is_finite() {
            s02 += s01
                * if forward == edge_b.is_forward() {
                    -1
                } else {
                    1
                };
            if k < 2 && (k == 0 || (s01 != 0) != shadow_state) {
                shadow_state = s01 != 0;
                yzz_rl[k] = Vec3::new(yz01.x, yz01.y, yz01.y);
                k += 1;
            }
        }
    }

    if s02 == 0 {
        z02 = f64::NAN;
    } else {
        debug_assert_eq!(k, 2, "Boolean manifold error: s02");
        let vert_pos_a = in_a.vert_pos[a0];
        z02 = interpolate(yzz_rl[0], yzz_rl[1], vert_pos_a.y).y;
        if forward {
            if !shadows(vert_pos_a.z, z02, -in_b.face_normal[b2].z) {
                s02 = 0;
            }
        } else if !shadows(
            z02,
            vert_pos_a.z,
            with_sign(expand_p, in_b.face_normal[b2].z),
        ) {
            s02 = 0;
        }
    }
    (s02, z02)
}

// ---------------------------------------------------------------------------
// Kernel12 — edge-face intersection
// ---------------------------------------------------------------------------

pub(super) fn kernel12(
    a1: usize,
    b2: usize,
    in_a: &ManifoldImpl,
    in_b: &ManifoldImpl,
    in_p: &ManifoldImpl,
    in_q: &ManifoldImpl,
    expand_p: bool,
    forward: bool,
) -> (i32, Vec3) {
    let mut x12: i32 = 0;
    let mut v12 = Vec3::splat(f64::NAN);

    let mut k: usize = 0;
    let mut xzy_lr0 = [Vec3::splat(0.0); 2];
    let mut xzy_lr1 = [Vec3::splat(0.0); 2];
    let mut shadow_state = false;

    let edge_a = in_a.halfedge[a1];

    for vert_a in [edge_a.start_vert as usize, edge_a.end_vert as usize] {
        let (s, z) = kernel02(vert_a, b2, in_a, in_b, expand_p, forward);
        if z.is_finite() {
            x12 += s * if (vert_a == edge_a.start_vert as usize) == forward {
                1
            } else {
                -1
            };
            if k < 2 && (k == 0 || (s != 0) != shadow_state) {
                shadow_state = s != 0;
                let pos = in_a.vert_pos[vert_a];
                xzy_lr0[k] = Vec3::new(pos.x, pos.z, pos.y);
                xzy_lr1[k] = xzy_lr0[k];
                xzy_lr1[k].y = z;
                k += 1;
            }
        }
    }

    for i in 0..3 {
        let b1 = 3 * b2 + i;
        let edge_b = in_b.halfedge[b1];
        let b1f = if edge_b.is_forward() {
            b1
        } else {
            edge_b.paired_halfedge as usize
        };
        let (s, xyzz) = if forward {
            kernel11(a1, b1f, in_p, in_q, expand_p)
        } else {
            kernel11(b1f, a1, in_p, in_q, expand_p)
        };
        if xyzz.x.is_finite() {
            x12 -= s * if edge_b.is_forward() { 1 } else { -1 };
            if k < 2 && (k == 0 || (s != 0) != shadow_state) {
                shadow_state = s != 0;
                xzy_lr0[k] = Vec3::new(xyzz.x, xyzz.z, xyzz.y);
                xzy_lr1[k] = xzy_lr0[k];
                xzy_lr1[k].y = xyzz.w;
                if !forward {
                    std::mem::swap(&mut xzy_lr0[k].y, &mut xzy_lr1[k].y);
                }
                k += 1;
            }
        }
    }

    if x12 == 0 {
        v12 = Vec3::splat(f64::NAN);
    } else {
        debug_assert_eq!(k, 2, "Boolean manifold error: v12");
        let xzyy = intersect_edges(xzy_lr0[0], xzy_lr0[1], xzy_lr1[0], xzy_lr1[1]);
        v12.x = xzyy.x;
        v12.y = xzyy.z;
        v12.z = xzyy.y;
    }
    (x12, v12)
}

// ---------------------------------------------------------------------------
// Intersect12 — find all edge-face intersections using collider broadphase
// ---------------------------------------------------------------------------

/// `None` means `token` was cancelled part-way through; the partial results are
/// discarded, mirroring C++ `Intersect12` returning `Intersections{}` after its
/// post-`for_each` `IsCancelled` check (boolean3.cpp:380-381).
pub(super) fn intersect12(
    in_p: &ManifoldImpl,
    in_q: &ManifoldImpl,
    expand_p: bool,
    forward: bool,
    token: Option<&CancelToken>,
) -> Option<Intersections> {
    // a: edge mesh, b: face mesh
    let (a, b) = if forward { (in_p, in_q) } else { (in_q, in_p) };

    // Query b's cached face BVH (built in sort_geometry), as C++ queries
    // b.collider_ — rebuilding here dominated the intersection stage.
    let collider = &b.collider;

    let mut result = Intersections::default();

    // For each forward edge of a, query its bounding box against b's face BVH
    // and run kernel12 on each candidate. Per-edge work is independent and the
    // final stable sort below fully orders the unique (edge, face) pairs, so
    // the parallel path is bit-identical to the sequential one.
    let n = a.halfedge.len();
    let prefilter = crate::EDGE_FACE_PREFILTER.load(std::sync::atomic::Ordering::Relaxed);
    // sskb patch 9: the faces' planes, computed once per boolean where
    // they take little memory (at most `PLANES_MAX` faces: 9 MB), else once
    // per pair as before.
    let planes = (prefilter && b.halfedge.len() / 3 <= PLANES_MAX).then(|| {
        (0..b.halfedge.len() / 3)
            .map(|f| FacePlane::of(b, f))
            .collect::<Vec<_>>()
    });
    let near = if crate::CLIPPED_BROAD_PHASE.load(std::sync::atomic::Ordering::Relaxed) {
        super::boolean3_near::NearFaces::new(a, b)
    } else {
        None
    };
    let per_edge: Vec<Vec<([i32; 2], i32, Vec3)>> =
        crate::par::maybe_par_map_ct(n, 10_000, token, |query_idx| {
            let mut local: Vec<([i32; 2], i32, Vec3)> = Vec::new();
            if !a.halfedge[query_idx].is_forward() {
                return local;
            }
            let (p, q) = (
                a.vert_pos[a.halfedge[query_idx].start_vert as usize],
                a.vert_pos[a.halfedge[query_idx].end_vert as usize],
            );
            let query = BBox::from_points(p, q);
            let edge = Edge::new(p, q);
            let mut pair = |query_idx: usize, face_idx: usize| {
                if prefilter {
                    let apart = match &planes {
                        Some(planes) => edge_face_apart(&edge, &planes[face_idx]),
                        None => edge_face_apart(&edge, &FacePlane::of(b, face_idx)),
                    };
                    if apart {
                        return;
                    }
                }
                let (x, v) = kernel12(query_idx, face_idx, a, b, in_p, in_q, expand_p, forward);
                if v.x.is_finite() {
                    let pair = if forward {
                        [query_idx as i32, face_idx as i32]
                    } else {
                        [face_idx as i32, query_idx as i32]
                    };
                    local.push((pair, x, v));
                }
            };
            match &near {
                // The collider's pairs that the parts' boxes do not prove
                // apart (in another order: the sort below orders them all).
                Some(near) if !query.is_empty() => near.each_face_near(collider, p, q, |f| {
                    if query.does_overlap_box(collider.leaf_box(f)) {
                        pair(query_idx, f);
                    }
                }),
                _ => collider.collisions_one(&query, query_idx, &mut pair),
            }
            local
        })?;
    for local in per_edge {
        for (pair, x, v) in local {
            result.p1q2.push(pair);
            result.x12.push(x);
            result.v12.push(v);
        }
    }

    // C++'s stated invariant is "every ctx-passing parallel op is followed by
    // IsCancelled to discard partial results" (boolean3.cpp:364). Honouring it
    // here also skips the sort below, which is the longest uninterruptible
    // stretch in this function.
    if is_cancelled(token) {
        return None;
    }

    // Sort by edge index for deterministic results
    // (stable on integer keys, so the parallel sort keeps the sequential order)
    let mut indices: Vec<usize> = (0..result.p1q2.len()).collect();
    let sort_idx = if forward { 0 } else { 1 };
    let p1q2 = &result.p1q2;
    crate::par::maybe_par_sort_by_key(&mut indices, 10_000, |&i| {
        (p1q2[i][sort_idx], p1q2[i][1 - sort_idx])
    });

    let old_p1q2 = std::mem::take(&mut result.p1q2);
    let old_x12 = std::mem::take(&mut result.x12);
    let old_v12 = std::mem::take(&mut result.v12);
    let m = indices.len();
    result.p1q2 = crate::par::maybe_par_map(m, 10_000, |i| old_p1q2[indices[i]]);
    result.x12 = crate::par::maybe_par_map(m, 10_000, |i| old_x12[indices[i]]);
    result.v12 = crate::par::maybe_par_map(m, 10_000, |i| old_v12[indices[i]]);

    Some(result)
}

/// Whether edge `e` of `a` and face `f` of `b` are apart beyond doubt, so
/// that `kernel12` would find no intersection between them and need not run.
///
/// The broad phase pairs every edge with every face whose bounding box its
/// own box meets. Long triangles of two overlapping solids (the convex hull
/// of two rings of a swept section, say) have boxes that meet nearly all the
/// others', and `kernel12`'s eighteen shadow tests per pair then dominate a
/// boolean whose surfaces cross in few places. Two cheap tests settle most
/// such pairs: both ends of the edge strictly on one side of the face's
/// plane, or the edge's line passing strictly outside one of the face's
/// edges while inside another (the three orientations of the line against
/// the face's edges not all of one sign).
///
/// Each sign counts only when it is certain for the exact inputs and would
/// stay the same were any of the five points moved by up to
/// `1e-9 × max |coordinate|` in each coordinate: a margin far above the
/// rounding of `kernel12`'s interpolations (a few ulps of the same
/// coordinates), whose decisions are those of exact arithmetic on inputs
/// moved by about that much. A pair so separated has no intersection for
/// `kernel12` to find; a pair closer than the margin, or degenerate, goes to
/// `kernel12` as before. The result of the boolean is unchanged, bit for bit.
fn edge_face_apart(e: &Edge, t: &FacePlane) -> bool {
    let scale = e.most.max(t.most);
    if !scale.is_finite() {
        return false;
    }
    let eta = 1e-9 * scale;
    let (sp, sq) = (t.side(e.p, eta), t.side(e.q, eta));
    if sp != 0 && sp == sq {
        return true;
    }
    // The edge's line against the face's edges: `det[q - p, a - p, b - p]`
    // for each edge `a b` of the face (the determinant of
    // `orient3d(p, q, a, b)` with its sign flipped, for all three alike,
    // which the test below does not read), with `q - p` and its 1-norm
    // computed once per edge.
    let a = [t.t[0] - e.p, t.t[1] - e.p, t.t[2] - e.p];
    let la = a.map(|v| v.x.abs() + v.y.abs() + v.z.abs());
    let u = e.u;
    let side = |i: usize, j: usize| {
        let (b, c) = (a[i], a[j]);
        let (yz, zy) = (b.y * c.z, b.z * c.y);
        let (zx, xz) = (b.z * c.x, b.x * c.z);
        let (xy, yx) = (b.x * c.y, b.y * c.x);
        let det = u.x * (yz - zy) + u.y * (zx - xz) + u.z * (xy - yx);
        let permanent = u.x.abs() * (yz.abs() + zy.abs())
            + u.y.abs() * (zx.abs() + xz.abs())
            + u.z.abs() * (xy.abs() + yx.abs());
        certain_sign(det, permanent, e.lu, la[i], la[j], eta)
    };
    let s = [side(0, 1), side(1, 2), side(2, 0)];
    s.contains(&1) && s.contains(&-1)
}

/// The largest magnitude of the points' coordinates (a coordinate that is
/// NaN is passed over, as `f64::max` does).
fn largest(points: &[Vec3]) -> f64 {
    points.iter().fold(0.0f64, |m, w| {
        m.max(w.x.abs()).max(w.y.abs()).max(w.z.abs())
    })
}

/// An edge as [`edge_face_apart`] reads it: its ends, the largest of
/// their coordinates' magnitudes, and its direction.
struct Edge {
    p: Vec3,
    q: Vec3,
    most: f64,
    /// `q - p` and its 1-norm.
    u: Vec3,
    lu: f64,
}

impl Edge {
    fn new(p: Vec3, q: Vec3) -> Self {
        let most = largest(&[p, q]);
        let u = q - p;
        Edge {
            p,
            q,
            most,
            u,
            lu: u.x.abs() + u.y.abs() + u.z.abs(),
        }
    }
}

/// A face as [`edge_face_apart`] reads it: its corners, the largest of
/// their coordinates' magnitudes, and what the side of its plane a point
/// lies on needs besides the point (sskb patch 9).
struct FacePlane {
    t: [Vec3; 3],
    most: f64,
    /// `(t1 - t0) × (t2 - t0)`.
    n: Vec3,
    /// The permanent's factors: `|e1.y e2.z| + |e1.z e2.y|` and so on.
    pn: Vec3,
    /// `|t1 - t0|₁` and `|t2 - t0|₁`.
    lb: f64,
    lc: f64,
}

/// The most faces whose [`FacePlane`]s `intersect12` computes ahead.
const PLANES_MAX: usize = 1 << 16;

impl FacePlane {
    /// Face `f` of `b`.
    fn of(b: &ManifoldImpl, f: usize) -> Self {
        let t = [
            b.vert_pos[b.halfedge[3 * f].start_vert as usize],
            b.vert_pos[b.halfedge[3 * f + 1].start_vert as usize],
            b.vert_pos[b.halfedge[3 * f + 2].start_vert as usize],
        ];
        let most = largest(&t);
        let (e1, e2) = (t[1] - t[0], t[2] - t[0]);
        let n = Vec3::new(
            e1.y * e2.z - e1.z * e2.y,
            e1.z * e2.x - e1.x * e2.z,
            e1.x * e2.y - e1.y * e2.x,
        );
        let pn = Vec3::new(
            (e1.y * e2.z).abs() + (e1.z * e2.y).abs(),
            (e1.z * e2.x).abs() + (e1.x * e2.z).abs(),
            (e1.x * e2.y).abs() + (e1.y * e2.x).abs(),
        );
        let l1 = |v: Vec3| v.x.abs() + v.y.abs() + v.z.abs();
        FacePlane {
            t,
            most,
            n,
            pn,
            lb: l1(e1),
            lc: l1(e2),
        }
    }

    /// The sign of `orient3d(t0, t1, t2, x)` under the terms of
    /// [`certain_sign`], 0 when not certain. The determinant
    /// `det[t0 - x, t1 - x, t2 - x]` equals `(t0 - x) · ((t1 - t0) × (t2 - t0))`;
    /// evaluated so, its rounding is within a few ulps of the same
    /// permanent `Σ |t0 - x|ᵢ (|e1ⱼ e2ₖ| + |e1ₖ e2ⱼ|)`, which `1e-14` times
    /// bounds with room to spare, and it is trilinear in `t0 - x`, `e1`
    /// and `e2`.
    #[inline]
    fn side(&self, x: Vec3, eta: f64) -> i32 {
        let d = self.t[0] - x;
        let det = d.x * self.n.x + d.y * self.n.y + d.z * self.n.z;
        let permanent = d.x.abs() * self.pn.x + d.y.abs() * self.pn.y + d.z.abs() * self.pn.z;
        let la = d.x.abs() + d.y.abs() + d.z.abs();
        certain_sign(det, permanent, la, self.lb, self.lc, eta)
    }
}

/// The sign of a 3 × 3 determinant `det[x, y, z]` of differences of the
/// points (`det`, as evaluated), when rounding cannot have changed it and no
/// move of the points by up to `eta` in each coordinate could; 0 otherwise.
/// `permanent` is `Σ |xᵢ| (|yⱼ zₖ| + |yₖ zⱼ|)` over the three cyclic
/// `(i, j, k)`, and `lx`, `ly`, `lz` are the 1-norms of `x`, `y`, `z`.
///
/// The rounding bound is 1e-14 times the permanent, over ten times
/// Shewchuk's `o3derrboundA` (7.8e-16): the differences are rounded once
/// each, and the products and sums add a few ulps of the same permanent,
/// in whichever order of the expansion. A move of the points by `eta`
/// changes each difference by at most `6 eta` in the 1-norm, which bounds
/// each coordinate, and the determinant is trilinear in them: it moves by
/// at most `(lx + h)(ly + h)(lz + h) - lx ly lz`, `h = 6 eta`.
#[inline]
fn certain_sign(det: f64, permanent: f64, lx: f64, ly: f64, lz: f64, eta: f64) -> i32 {
    let h = 6.0 * eta;
    let moved = (lx + h) * (ly + h) * (lz + h) - lx * ly * lz;
    let bound = 1e-14 * permanent + 1.01 * moved;
    if det > bound {
        1
    } else if det < -bound {
        -1
    } else {
        0
    }
}

// ---------------------------------------------------------------------------
// Winding03 — compute winding numbers via flood-fill
// ---------------------------------------------------------------------------
// Groups vertices into connected components along unbroken edges (edges not
// cut by any intersection). For each component, picks a representative vertex
// and computes its winding number via kernel02 against all overlapping faces
// of the other mesh. Then flood-fills that winding number to all vertices in
// the component.

/// `None` means `token` was cancelled part-way through; the partial winding
/// numbers are discarded, mirroring C++ `Winding03` returning `Vec<int>{}` at
/// each of its `IsCancelled` checks (boolean3.cpp:437, 456, 472, 480).
pub(super) fn winding03(
    in_p: &ManifoldImpl,
    in_q: &ManifoldImpl,
    p1q2: &[[i32; 2]],
    expand_p: bool,
    forward: bool,
    token: Option<&CancelToken>,
) -> Option<Vec<i32>> {
    let (a, b) = if forward { (in_p, in_q) } else { (in_q, in_p) };
    let sort_idx = if forward { 0 } else { 1 };

    // Build union-find: unite vertices along unbroken edges. This loop is the
    // Rust counterpart of the ctx-passing `for_each` at boolean3.cpp:425, and
    // checks the token once per C++ kSeqCancelChunk (= 1024) halfedges
    // (parallel.h:424), in the search and again in the unions.
    const CHUNK: usize = 1024;
    let u_a = DisjointSets::new(a.vert_pos.len() as u32);
    let n = a.halfedge.len();
    // Find each chunk's unbroken edges in parallel, but unite them in index
    // order: the union-find's roots, where windings are computed, depend on it.
    let unbroken = crate::par::maybe_par_map_ct(n.div_ceil(CHUNK), 10, token, |c| {
        (c * CHUNK..n.min((c + 1) * CHUNK))
            .filter(|&edge| {
                // Unbroken: no intersection on it.
                a.halfedge[edge].is_forward()
                    && p1q2
                        .binary_search_by(|pair| pair[sort_idx].cmp(&(edge as i32)))
                        .is_err()
            })
            .collect::<Vec<usize>>()
    })?;
    for chunk in unbroken {
        if is_cancelled(token) {
            return None;
        }
        for edge in chunk {
            let he = &a.halfedge[edge];
            u_a.unite(he.start_vert as u32, he.end_vert as u32);
        }
    }

    // Post-loop check, matching C++ boolean3.cpp:437.
    if is_cancelled(token) {
        return None;
    }

    // Find unique component representatives
    let mut components = HashSet::new();
    for v in 0..a.vert_pos.len() {
        components.insert(u_a.find(v as u32));
    }
    let verts: Vec<usize> = components.into_iter().map(|v| v as usize).collect();

    // Post-scan check, matching C++ boolean3.cpp:456.
    if is_cancelled(token) {
        return None;
    }

    // Query b's cached face BVH (built in sort_geometry), as C++ queries
    // b.collider_.
    let collider = &b.collider;

    // For each representative vertex, compute winding number via kernel02
    let mut w03 = vec![0i32; a.vert_pos.len()];

    // Use BVH for winding number queries.
    // The winding number shoots a Z-ray, so we need XY overlap with infinite Z.
    // Build query boxes with the vertex XY position and infinite Z extent.
    let query_boxes: Vec<(usize, BBox)> = verts
        .iter()
        .map(|&vi| {
            let pt = a.vert_pos[vi];
            let qbox = BBox::from_points(
                Vec3::new(pt.x, pt.y, f64::NEG_INFINITY),
                Vec3::new(pt.x, pt.y, f64::INFINITY),
            );
            (vi, qbox)
        })
        .collect();

    // For each representative vert, query the BVH and sum kernel02 winding
    // contributions. The sums are integers, so accumulation order is
    // irrelevant and the per-vert work can run in parallel bit-exactly.
    let sums: Vec<(usize, i32)> =
        crate::par::maybe_par_map_ct(query_boxes.len(), 1_000, token, |qi| {
            let (vi, ref qbox) = query_boxes[qi];
            let mut sum = 0i32;
            collider.collisions_one(qbox, 0, |_qi, face_idx| {
                let (s02, z02) = kernel02(vi, face_idx, a, b, expand_p, forward);
                if z02.is_finite() {
                    sum += s02 * if forward { 1 } else { -1 };
                }
            });
            (vi, sum)
        })?;
    for (vi, sum) in sums {
        w03[vi] += sum;
    }

    // Flood fill: propagate representative's winding number to all component members
    for i in 0..w03.len() {
        let root = u_a.find(i as u32) as usize;
        if root != i {
            w03[i] = w03[root];
        }
    }

    Some(w03)
}
