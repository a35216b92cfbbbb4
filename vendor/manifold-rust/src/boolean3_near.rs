// boolean3_near.rs — a tighter broad phase for `intersect12`: faces and
// edges clipped to the other solid's box (changed for sskb: see PATCHES.md,
// 3; 8).
//
// The collider pairs an edge of one solid with every face of the other
// whose bounding box its own box meets. A long, slanted triangle (a side of
// a section far wider than the rest of the model) has a box far larger than
// itself, which meets nearly every box of the other solid although the
// triangle passes nowhere near most of them: the candidate pairs become the
// product of the two sizes. Only the part of a face inside the other
// solid's box can meet that solid's edges, and only the part of an edge
// inside this solid's box can meet its faces; here each is clipped to that
// box, and the boxes of the parts are paired instead.
//
// A pair the collider gives and these boxes do not is separated by more
// than the boxes' margin, `MARGIN` times the largest coordinate of the five
// points, the separation `edge_face_apart` asks for: `kernel12`, whose
// decisions are those of exact arithmetic on inputs moved by a few ulps,
// finds no intersection between them, and the pair is left out. Every other
// pair is still asked of the face's own box exactly as the collider asks,
// so the pairs given to `kernel12` are a subset of the collider's and the
// boolean's result is the same, bit for bit.

use crate::collider::Collider;
use crate::impl_mesh::ManifoldImpl;
use crate::linalg::Vec3;
use crate::types::Box as BBox;

/// Boxes are enlarged by this share of the largest coordinate of the points
/// they hold or are clipped against: far more than the rounding of a clip
/// (a few ulps), and the separation `edge_face_apart` asks for.
const MARGIN: f64 = 1e-9;

/// The faces of one solid near the other: a collider over the boxes of
/// their parts inside the other's box, with each leaf's face, or the
/// solid's own collider; and whether the edges are clipped to the faces'
/// solid's box first.
pub(super) struct NearFaces {
    /// `None`: the faces' own collider.
    parts: Option<(Collider, Vec<u32>)>,
    clip_edges: bool,
    /// The faces' solid's box.
    faces_box: BBox,
}

/// Whether `inner` reaches out of `outer` grown by its own size on every
/// side: a box far larger than the region it is asked about.
fn reaches_far(inner: &BBox, outer: &BBox) -> bool {
    !enlarged(
        *outer,
        outer.size().x.max(outer.size().y).max(outer.size().z),
    )
    .contains_box(inner)
}

fn enlarged(mut b: BBox, by: f64) -> BBox {
    let d = Vec3::splat(by);
    b.min = b.min - d;
    b.max = b.max + d;
    b
}

/// The common part of two boxes (empty when they do not meet).
fn common(a: &BBox, b: &BBox) -> BBox {
    BBox {
        min: Vec3::new(
            a.min.x.max(b.min.x),
            a.min.y.max(b.min.y),
            a.min.z.max(b.min.z),
        ),
        max: Vec3::new(
            a.max.x.min(b.max.x),
            a.max.y.min(b.max.y),
            a.max.z.min(b.max.z),
        ),
    }
}

fn largest_coordinate(points: &[Vec3]) -> f64 {
    points.iter().fold(0.0f64, |m, p| {
        m.max(p.x.abs()).max(p.y.abs()).max(p.z.abs())
    })
}

/// The box of the part of triangle `t` inside `region`, enlarged by
/// `margin` and kept within `region`; `None` when it misses the region.
/// The triangle is clipped by each of the region's six planes in turn
/// (Sutherland and Hodgman).
fn clipped_triangle(t: [Vec3; 3], region: &BBox, margin: f64) -> Option<BBox> {
    let mut poly: Vec<Vec3> = t.to_vec();
    let mut next = Vec::with_capacity(9);
    for axis in 0..3 {
        for upper in [false, true] {
            let bound = if upper {
                region.max[axis]
            } else {
                region.min[axis]
            };
            let inside = |v: Vec3| {
                if upper {
                    v[axis] <= bound
                } else {
                    v[axis] >= bound
                }
            };
            next.clear();
            for i in 0..poly.len() {
                let (s, e) = (poly[i], poly[(i + 1) % poly.len()]);
                let (si, ei) = (inside(s), inside(e));
                if si {
                    next.push(s);
                }
                if si != ei {
                    let mut x = s + (e - s) * ((bound - s[axis]) / (e[axis] - s[axis]));
                    x[axis] = bound;
                    next.push(x);
                }
            }
            std::mem::swap(&mut poly, &mut next);
            if poly.is_empty() {
                return None;
            }
        }
    }
    let mut b = BBox::from_point(poly[0]);
    for &v in &poly[1..] {
        b.union_point(v);
    }
    Some(common(&enlarged(b, margin), region))
}

/// The box of the part of the segment from `p` to `q` inside `region`
/// (Liang and Barsky), enlarged by `margin` and kept within `region`;
/// `None` when it misses the region.
fn clipped_segment(p: Vec3, q: Vec3, region: &BBox, margin: f64) -> Option<BBox> {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    let d = q - p;
    for axis in 0..3 {
        let (lo, hi, x, dx) = (region.min[axis], region.max[axis], p[axis], d[axis]);
        if dx == 0.0 {
            if !(x >= lo && x <= hi) {
                return None;
            }
            continue;
        }
        let (a, b) = ((lo - x) / dx, (hi - x) / dx);
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        t0 = t0.max(a);
        t1 = t1.min(b);
        if !(t0 <= t1) {
            return None;
        }
    }
    let at = |t: f64| {
        if t <= 0.0 {
            p
        } else if t >= 1.0 {
            q
        } else {
            p + d * t
        }
    };
    Some(common(
        &enlarged(BBox::from_points(at(t0), at(t1)), margin),
        region,
    ))
}

/// The face's corners.
fn corners(b: &ManifoldImpl, f: usize) -> [Vec3; 3] {
    [0, 1, 2].map(|i| b.vert_pos[b.halfedge[3 * f + i].start_vert as usize])
}

impl NearFaces {
    /// The tighter broad phase for the edges of `a` against the faces of
    /// `b`, or `None` when it would pair them much as the collider does:
    /// fewer than one face in eight reaches far out of `a`'s box, and fewer
    /// than one edge in eight far out of `b`'s.
    pub(super) fn new(a: &ManifoldImpl, b: &ManifoldImpl) -> Option<NearFaces> {
        let faces = b.num_tri();
        if b.collider.num_leaves() != faces || faces < 2 || a.halfedge.is_empty() {
            return None;
        }
        let scale = a.bbox.scale();
        if !(scale.is_finite() && b.bbox.scale().is_finite()) {
            return None;
        }
        // A face's box is within its solid's box, an edge's within its
        // own (each is the box of some of its vertices): where the whole
        // solid does not reach far, none of its faces or edges does, and
        // they are not counted (changed for sskb: PATCHES.md, 8).
        let far_faces = if reaches_far(&b.bbox, &a.bbox) {
            (0..faces)
                .filter(|&f| reaches_far(b.collider.leaf_box(f), &a.bbox))
                .count()
        } else {
            0
        };
        let (mut edges, mut far_edges) = (0, 0);
        if reaches_far(&a.bbox, &b.bbox) {
            for h in a.halfedge.iter().filter(|h| h.is_forward()) {
                edges += 1;
                let e = BBox::from_points(
                    a.vert_pos[h.start_vert as usize],
                    a.vert_pos[h.end_vert as usize],
                );
                far_edges += usize::from(reaches_far(&e, &b.bbox));
            }
        }
        // (`far_edges > 0` as well: uncounted edges are none of them far.)
        let clip_faces = far_faces > 0 && 8 * far_faces >= faces;
        let clip_edges = far_edges > 0 && 8 * far_edges >= edges;
        if !clip_faces && !clip_edges {
            return None;
        }
        Some(NearFaces {
            parts: clip_faces.then(|| Self::parts(a, b)),
            clip_edges,
            faces_box: b.bbox,
        })
    }

    /// A collider over the boxes of the parts of `b`'s faces inside `a`'s
    /// box, and each leaf's face.
    fn parts(a: &ManifoldImpl, b: &ManifoldImpl) -> (Collider, Vec<u32>) {
        let scale = a.bbox.scale();
        let faces = b.num_tri();
        let mut boxes = Vec::with_capacity(faces);
        let mut face_of = Vec::with_capacity(faces);
        for f in 0..faces {
            let t = corners(b, f);
            let margin = MARGIN * largest_coordinate(&t).max(scale);
            let region = enlarged(a.bbox, margin);
            let own = b.collider.leaf_box(f);
            let part = if region.contains_box(own) {
                Some(*own)
            } else {
                clipped_triangle(t, &region, margin)
            };
            if let Some(part) = part {
                boxes.push(part);
                face_of.push(f as u32);
            }
        }
        // A collider of one leaf finds nothing: that leaf twice.
        if boxes.len() == 1 {
            boxes.push(boxes[0]);
            face_of.push(face_of[0]);
        }
        // Leaves in Morton order of their centres, ties in face order.
        let morton: Vec<u32> = boxes
            .iter()
            .map(|bx| Collider::morton_code(bx.center(), &b.bbox))
            .collect();
        let mut order: Vec<usize> = (0..boxes.len()).collect();
        order.sort_by_key(|&i| morton[i]);
        (
            Collider::new(
                order.iter().map(|&i| boxes[i]).collect(),
                order.iter().map(|&i| morton[i]).collect(),
            ),
            order.iter().map(|&i| face_of[i]).collect(),
        )
    }

    /// Calls `pair` with each face of `b` (whose collider is `own`) whose
    /// box, or part's box, meets the edge from `p` to `q`, or its part
    /// inside `b`'s box; each face once (a face has one leaf, or two alike
    /// when it is the only one).
    pub(super) fn each_face_near(
        &self,
        own: &Collider,
        p: Vec3,
        q: Vec3,
        mut pair: impl FnMut(usize),
    ) {
        let query = if self.clip_edges {
            let margin = MARGIN * largest_coordinate(&[p, q]).max(self.faces_box.scale());
            match clipped_segment(p, q, &enlarged(self.faces_box, margin), margin) {
                Some(query) => query,
                None => return,
            }
        } else {
            BBox::from_points(p, q)
        };
        match &self.parts {
            Some((collider, face_of)) => {
                let mut last = None;
                collider.collisions_one(&query, 0, |_, leaf| {
                    let f = face_of[leaf];
                    if last != Some(f) {
                        last = Some(f);
                        pair(f as usize);
                    }
                });
            }
            None => own.collisions_one(&query, 0, |_, f| pair(f)),
        }
    }
}
