//! Meshes (feature `mesh`): each resolved piece tessellated into a closed,
//! outward-facing triangle mesh, the pieces combined by the document's
//! add / intersect / subtract rules with mesh booleans, and glTF 2.0 out.
//!
//! The geometry is docs/spec/GEOMETRY.md's:
//! Bézier paths with parallel-transport frames, transitions, caps,
//! ellipsoids and bipyramids. Building meshes ([`tessellate`]) is kept
//! apart from combining them, as manifold does.

mod apart;
mod boolean;
mod fold;
mod gltf;
pub(crate) mod math;
mod mesher;
mod parallel;
mod path;
mod tessellate;

pub use boolean::{combine, contributions, crosses_itself, own_volume, visible_parts, Part};
pub use gltf::{Gltf, SceneNode};
pub use mesher::Mesher;
pub(crate) use parallel::par_map;
pub use parallel::set_threads;
pub use tessellate::{tessellate, MAX_RESOLUTION, MAX_SIDES, MIN_RESOLUTION};

/// A triangle mesh in model units (millimetres, Z up).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// Vertex positions.
    pub positions: Vec<[f64; 3]>,
    /// Triangles as vertex indices, counter-clockwise seen from outside.
    pub triangles: Vec<[u32; 3]>,
}

impl Mesh {
    fn push(&mut self, p: [f64; 3]) -> u32 {
        self.positions.push(p);
        (self.positions.len() - 1) as u32
    }

    fn corners(&self, t: &[u32; 3]) -> [[f64; 3]; 3] {
        t.map(|i| self.positions[i as usize])
    }

    /// Whether it has no triangles.
    pub fn is_empty(&self) -> bool {
        self.triangles.is_empty()
    }

    /// Signed volume: positive when the triangles face outward.
    pub fn volume(&self) -> f64 {
        self.triangles
            .iter()
            .map(|t| {
                let [a, b, c] = self.corners(t);
                math::dot(a, math::cross(b, c)) / 6.0
            })
            .sum()
    }

    /// Surface area.
    pub fn area(&self) -> f64 {
        self.triangles
            .iter()
            .map(|t| {
                let [a, b, c] = self.corners(t);
                math::norm(math::cross(math::sub(b, a), math::sub(c, a))) / 2.0
            })
            .sum()
    }

    /// The smallest and largest corner of the box around the vertices used
    /// by triangles; `None` when empty.
    pub fn bounds(&self) -> Option<([f64; 3], [f64; 3])> {
        let mut it = self.triangles.iter().flatten().map(|&i| self.positions[i as usize]);
        let first = it.next()?;
        Some(it.fold((first, first), |(lo, hi), p| {
            ([0, 1, 2].map(|c| lo[c].min(p[c])), [0, 1, 2].map(|c| hi[c].max(p[c])))
        }))
    }

    /// Whether every edge is shared by exactly two triangles, once in each
    /// direction (closed and consistently oriented).
    pub fn is_closed(&self) -> bool {
        let mut edges = std::collections::HashMap::new();
        for t in &self.triangles {
            for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
                *edges.entry((a, b)).or_insert(0u32) += 1;
            }
        }
        edges
            .iter()
            .all(|(&(a, b), &n)| n == 1 && edges.get(&(b, a)) == Some(&1))
    }
}
