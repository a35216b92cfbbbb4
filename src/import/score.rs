//! How well a model fills a mesh: coverage (the share of the mesh's
//! volume the model fills), overfill (the share of the model's volume
//! outside the mesh) and the reference's weighted score, measured on a
//! regular grid of sample points with an exact inside test.
//!
//! Inside is decided column by column: each vertical line through a
//! column of samples is crossed with every triangle over it (found in a
//! grid of bins), the crossings sorted once, and each sample's winding
//! number read off from the crossings above and below it. A line through
//! an edge or a vertex is settled by a fixed tie rule (an edge belongs to
//! the triangle on one fixed side of it), so a closed mesh is crossed an
//! even number of times on every line; for an open mesh the windings
//! counted upward and downward differ and their mean decides.

use crate::mesh::Mesh;

/// The reference's weights (`ssklib.gltf_to_ssk._quality_score`'s
/// defaults: infill 1.18, outfill 1.05, complexity 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Weight of coverage.
    pub infill: f64,
    /// Weight of containment (1 − overfill).
    pub outfill: f64,
    /// Weight of the complexity penalty.
    pub complexity: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            infill: 1.18,
            outfill: 1.05,
            complexity: 1.0,
        }
    }
}

/// The reference's score of a model: `(infill · coverage + outfill · (1 −
/// overfill) − complexity · c/(1 + c) [+ piece term]) / (sum of weights
/// [+ 1])`, `c = 0.035 · pieces + 0.006 · points`; with an expected piece
/// count, the piece term is `max(0, 1 − |pieces − expected| / expected)`.
/// Coverage and overfill in percent, as the reference takes them.
pub fn quality_score(
    coverage: f64,
    overfill: f64,
    pieces: usize,
    points: usize,
    expected_pieces: Option<usize>,
    w: Weights,
) -> f64 {
    let c = 0.035 * pieces as f64 + 0.006 * points as f64;
    let (term, piece) = match expected_pieces {
        Some(e) if e > 0 => (1.0, (1.0 - (pieces as f64 - e as f64).abs() / e as f64).max(0.0)),
        _ => (0.0, 0.0),
    };
    let total = w.infill + w.outfill + w.complexity + term;
    (w.infill * coverage / 100.0 + w.outfill * (1.0 - overfill / 100.0) - w.complexity * c / (1.0 + c) + piece)
        / total.max(1e-9)
}

/// Coverage and overfill of a model against a mesh, in percent, and the
/// samples they were counted on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    /// Share of the mesh's samples inside the model.
    pub coverage: f64,
    /// Share of the model's samples outside the mesh.
    pub overfill: f64,
    /// Samples inside the mesh.
    pub source: u64,
    /// Samples inside the model.
    pub model: u64,
    /// Samples inside both.
    pub both: u64,
}

impl Score {
    /// Intersection over union, in percent.
    pub fn overlap(&self) -> f64 {
        let union = self.source + self.model - self.both;
        if union == 0 {
            100.0
        } else {
            100.0 * self.both as f64 / union as f64
        }
    }
}

/// A mesh prepared for inside tests: crossings along lines parallel to
/// Z, and for a mesh that is not closed also along X and Y, where the
/// windings counted one way and the other disagree.
pub struct Inside {
    lines: Lines,
    /// Lines along X and along Y, for an open mesh.
    across: Option<[Lines; 2]>,
    /// The mesh's box (`None` for a mesh with no vertices).
    bounds: Option<([f64; 3], [f64; 3])>,
}

impl Inside {
    /// Prepares `mesh` (any triangles: closed, open or crossing).
    pub fn new(mesh: &Mesh) -> Inside {
        Inside {
            lines: Lines::new(mesh, 2),
            across: (!balanced(mesh)).then(|| [Lines::new(mesh, 0), Lines::new(mesh, 1)]),
            bounds: mesh.bounds(),
        }
    }

    /// Inside flags for the points `(x, y, z)` of sorted heights `zs`;
    /// false when the line crosses nothing (every flag false then).
    pub(super) fn column_at(&self, x: f64, y: f64, zs: &[f64], out: &mut [bool]) -> bool {
        let mut c = Vec::new();
        self.crossings(x, y, &mut c);
        if c.is_empty() {
            out.fill(false);
            return false;
        }
        column(self, x, y, &c, zs, out);
        true
    }

    /// The crossings of the line parallel to Z through `(x, y)`, sorted.
    fn crossings(&self, x: f64, y: f64, out: &mut Vec<(f64, i32)>) {
        self.lines.crossings(x, y, out);
    }

    /// Whether `p` is inside: on a closed mesh, its winding number is not
    /// 0; on an open one where the windings counted up and down from it
    /// differ, the mean of those counted both ways along X, Y and Z is at
    /// least ½ in size.
    pub fn contains(&self, p: [f64; 3]) -> bool {
        let mut c = Vec::new();
        self.crossings(p[0], p[1], &mut c);
        let total: i32 = c.iter().map(|h| h.1).sum();
        let above: i32 = c.iter().filter(|h| h.0 > p[2]).map(|h| h.1).sum();
        self.decide(p, above, above - total)
    }

    /// Inside or not from the windings counted up (`up`) and down
    /// (`down`) along Z.
    fn decide(&self, p: [f64; 3], up: i32, down: i32) -> bool {
        match &self.across {
            Some(across) if up != down => {
                let mut sum = up + down;
                let mut c = Vec::new();
                for (a, lines) in across.iter().enumerate() {
                    // Lines along X: coordinates (y, z, x); along Y: (z, x, y).
                    let (u, v, w) = if a == 0 { (p[1], p[2], p[0]) } else { (p[2], p[0], p[1]) };
                    lines.crossings(u, v, &mut c);
                    let total: i32 = c.iter().map(|h| h.1).sum();
                    let beyond: i32 = c.iter().filter(|h| h.0 > w).map(|h| h.1).sum();
                    sum += beyond + (beyond - total);
                }
                2 * sum.abs() >= 6
            }
            _ => up != 0 || down != 0,
        }
    }
}

/// Whether every edge of `mesh` is crossed as often one way as the other
/// (a closed surface, perhaps touching itself along edges or at corners):
/// then the winding number counted up a line and down it agree, and one
/// direction of lines is enough.
pub(super) fn balanced(mesh: &Mesh) -> bool {
    let mut edges: Vec<(u32, u32, i8)> = mesh
        .triangles
        .iter()
        .flat_map(|t| [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])])
        .map(|(a, b)| if a < b { (a, b, 1) } else { (b, a, -1) })
        .collect();
    edges.sort_unstable();
    edges
        .chunk_by(|a, b| (a.0, a.1) == (b.0, b.1))
        .all(|run| run.iter().map(|e| i64::from(e.2)).sum::<i64>() == 0)
}

/// Triangles binned for crossings with lines parallel to one axis, their
/// coordinates turned so that the lines run along the third.
struct Lines {
    /// Per triangle: its corners, the line axis last.
    tris: Vec<[[f64; 3]; 3]>,
    lo: [f64; 2],
    cell: [f64; 2],
    bins: [usize; 2],
    /// Triangles per bin: `start[b]..start[b + 1]` in `items`.
    start: Vec<u32>,
    items: Vec<u32>,
}

impl Lines {
    fn new(mesh: &Mesh, axis: usize) -> Lines {
        let turn = |p: [f64; 3]| [p[(axis + 1) % 3], p[(axis + 2) % 3], p[axis]];
        let tris: Vec<[[f64; 3]; 3]> = mesh
            .triangles
            .iter()
            .map(|t| t.map(|i| turn(mesh.positions[i as usize])))
            .filter(|c| {
                // No area seen from above: no vertical line crosses it.
                let o = (c[1][0] - c[0][0]) * (c[2][1] - c[0][1]) - (c[1][1] - c[0][1]) * (c[2][0] - c[0][0]);
                o != 0.0
            })
            .collect();
        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for c in tris.iter().flatten() {
            for k in 0..2 {
                lo[k] = lo[k].min(c[k]);
                hi[k] = hi[k].max(c[k]);
            }
        }
        let side = ((tris.len() as f64).sqrt().ceil() as usize).clamp(1, 1024);
        let bins = [side, side];
        let cell = [0, 1].map(|k| {
            let w = (hi[k] - lo[k]) / side as f64;
            if w > 0.0 && w.is_finite() {
                w
            } else {
                1.0
            }
        });
        let mut inside = Lines {
            tris,
            lo: if lo[0].is_finite() { lo } else { [0.0; 2] },
            cell,
            bins,
            start: Vec::new(),
            items: Vec::new(),
        };
        // Counting sort of (bin, triangle) pairs.
        let mut count = vec![0u32; side * side + 1];
        for t in &inside.tris {
            let (a, b) = inside.span(t);
            for y in a[1]..=b[1] {
                for x in a[0]..=b[0] {
                    count[y * side + x] += 1;
                }
            }
        }
        let mut start = vec![0u32; side * side + 1];
        for b in 0..side * side {
            start[b + 1] = start[b] + count[b];
        }
        let mut fill = start.clone();
        let mut items = vec![0u32; start[side * side] as usize];
        for (i, t) in inside.tris.iter().enumerate() {
            let (a, b) = inside.span(t);
            for y in a[1]..=b[1] {
                for x in a[0]..=b[0] {
                    let slot = &mut fill[y * side + x];
                    items[*slot as usize] = i as u32;
                    *slot += 1;
                }
            }
        }
        inside.start = start;
        inside.items = items;
        inside
    }

    fn bin(&self, x: f64, k: usize) -> usize {
        let b = ((x - self.lo[k]) / self.cell[k]).floor();
        if b <= 0.0 {
            0
        } else {
            (b as usize).min(self.bins[k] - 1)
        }
    }

    fn span(&self, t: &[[f64; 3]; 3]) -> ([usize; 2], [usize; 2]) {
        let mut a = [usize::MAX; 2];
        let mut b = [0usize; 2];
        for c in t {
            for k in 0..2 {
                let i = self.bin(c[k], k);
                a[k] = a[k].min(i);
                b[k] = b[k].max(i);
            }
        }
        (a, b)
    }

    /// The crossings of the vertical line through `(x, y)`: each
    /// triangle's height there and +1 where it faces up, −1 where down;
    /// sorted by height.
    fn crossings(&self, x: f64, y: f64, out: &mut Vec<(f64, i32)>) {
        out.clear();
        if self.tris.is_empty() {
            return;
        }
        if x < self.lo[0] || y < self.lo[1] {
            return;
        }
        let (bx, by) = (self.bin(x, 0), self.bin(y, 1));
        let b = by * self.bins[0] + bx;
        for &i in &self.items[self.start[b] as usize..self.start[b + 1] as usize] {
            let t = &self.tris[i as usize];
            if let Some(hit) = cross(t, x, y) {
                out.push(hit);
            }
        }
        out.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
}

/// Where the vertical line through `(x, y)` crosses triangle `t`, and the
/// triangle's facing; `None` when it misses. An edge the line passes
/// through belongs to the triangle on its left seen from its lower end
/// (in a fixed order of its two ends), so two triangles sharing it count
/// once between them when they lie on its two sides, and both or neither
/// (facing opposite ways) when they lie on one side, as at a silhouette.
pub(super) fn cross(t: &[[f64; 3]; 3], x: f64, y: f64) -> Option<(f64, i32)> {
    let p = [x, y];
    let a = [t[0][0], t[0][1]];
    let b = [t[1][0], t[1][1]];
    let c = [t[2][0], t[2][1]];
    let area = orient(a, b, c);
    let s = if area > 0.0 { 1.0 } else { -1.0 };
    // Each edge's orientation seen from the triangle's side: positive
    // strictly inside; zero settled by the edge's own tie rule.
    let mut w = [0.0f64; 3];
    for (k, (u, v)) in [(b, c), (c, a), (a, b)].into_iter().enumerate() {
        let o = edge_orient(u, v, p) * s;
        if o < 0.0 {
            return None;
        }
        if o == 0.0 {
            // The edge u→v as the triangle sees it (counter-clockwise);
            // it owns the line when it points down, or left if level.
            let (d0, d1) = if s > 0.0 {
                (v[0] - u[0], v[1] - u[1])
            } else {
                (u[0] - v[0], u[1] - v[1])
            };
            if !(d1 < 0.0 || (d1 == 0.0 && d0 < 0.0)) {
                return None;
            }
        }
        w[k] = o;
    }
    let sum = w[0] + w[1] + w[2];
    if sum <= 0.0 {
        return None;
    }
    let z = (w[0] * t[0][2] + w[1] * t[1][2] + w[2] * t[2][2]) / sum;
    Some((z, if s > 0.0 { 1 } else { -1 }))
}

pub(super) fn orient(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// `orient(u, v, p)` computed from the two ends in a fixed order, so that
/// the edge seen from its other triangle gives exactly the opposite sign.
fn edge_orient(u: [f64; 2], v: [f64; 2], p: [f64; 2]) -> f64 {
    if (u[0], u[1]) <= (v[0], v[1]) {
        orient(u, v, p)
    } else {
        -orient(v, u, p)
    }
}

/// Counts samples of a source mesh and a model on one grid.
pub struct Scorer {
    source: Inside,
    bounds: ([f64; 3], [f64; 3]),
    /// Samples along the longest side of the box.
    pub resolution: usize,
}

impl Scorer {
    /// A scorer for `source` with about `resolution` samples along the
    /// longest side of the box the grid covers.
    pub fn new(source: &Mesh, resolution: usize) -> Scorer {
        Scorer {
            source: Inside::new(source),
            bounds: source.bounds().unwrap_or(([0.0; 3], [0.0; 3])),
            resolution: resolution.max(2),
        }
    }

    /// Coverage and overfill of `model` (a closed mesh) against the
    /// source, on a grid over the box around both, padded by 1%.
    pub fn score(&self, model: &Mesh) -> Score {
        self.count(&[&[&Inside::new(model)]], &[])
    }

    /// As [`Scorer::score`] for the model that is the union of `groups`,
    /// each the intersection of its meshes, less the union of `subtracts`
    /// (each a closed mesh, inside where its winding number is not 0),
    /// with no boolean made: a sample is in the model when it is inside
    /// every mesh of a group and in no subtract.
    pub fn score_parts(&self, groups: &[&[&Mesh]], subtracts: &[&Mesh]) -> Score {
        let groups: Vec<Vec<Inside>> = groups
            .iter()
            .map(|g| g.iter().map(|m| Inside::new(m)).collect())
            .collect();
        let subtracts: Vec<Inside> = subtracts.iter().map(|m| Inside::new(m)).collect();
        let groups: Vec<Vec<&Inside>> = groups.iter().map(|g| g.iter().collect()).collect();
        let groups: Vec<&[&Inside]> = groups.iter().map(Vec::as_slice).collect();
        let subtracts: Vec<&Inside> = subtracts.iter().collect();
        self.count(&groups, &subtracts)
    }

    /// As [`Scorer::score_parts`], the meshes prepared already (a mesh
    /// scored in many models is prepared once).
    pub fn score_prepared(&self, groups: &[&[&Inside]], subtracts: &[&Inside]) -> Score {
        self.count(groups, subtracts)
    }

    fn count(&self, groups: &[&[&Inside]], subtracts: &[&Inside]) -> Score {
        let (mut lo, mut hi) = self.bounds;
        for g in groups {
            // A group's box: the meeting of its meshes' boxes.
            let Some((a, b)) = g.iter().map(|m| m.bounds).try_fold(
                ([f64::NEG_INFINITY; 3], [f64::INFINITY; 3]),
                |(a, b): ([f64; 3], [f64; 3]), m| {
                    m.map(|(p, q)| ([0, 1, 2].map(|k| a[k].max(p[k])), [0, 1, 2].map(|k| b[k].min(q[k]))))
                },
            ) else {
                continue;
            };
            if g.is_empty() || (0..3).any(|k| a[k] > b[k]) {
                continue;
            }
            for k in 0..3 {
                lo[k] = lo[k].min(a[k]);
                hi[k] = hi[k].max(b[k]);
            }
        }
        let longest = (0..3).map(|k| hi[k] - lo[k]).fold(0.0f64, f64::max);
        let h = if longest > 0.0 {
            longest * 1.02 / self.resolution as f64
        } else {
            1.0
        };
        // One sample in each cell of the grid, at a fixed pseudo-random
        // place in it (stratified): a part whose faces run along grid
        // lines is not counted a whole layer too small or too big.
        let n = [0, 1, 2].map(|k| (((hi[k] - lo[k]) * 1.02 / h).ceil() as usize).max(1));
        let origin = [0, 1, 2].map(|k| 0.5 * (lo[k] + hi[k]) - 0.5 * n[k] as f64 * h);
        // Each mesh with its group (`None` for a subtract).
        let parts: Vec<(&Inside, Option<usize>)> = groups
            .iter()
            .enumerate()
            .flat_map(|(g, ms)| ms.iter().map(move |m| (*m, Some(g))))
            .chain(subtracts.iter().map(|m| (*m, None)))
            .collect();
        // Bands of rows on all cores; the counts are sums, the same
        // whatever thread counted which band.
        let band = |rows: std::ops::Range<usize>| -> [u64; 3] {
            let mut flags_g = vec![vec![true; n[2]]; groups.len()];
            let mut zs = vec![0.0; n[2]];
            let mut cs = Vec::new();
            let mut cm: Vec<Vec<(f64, i32)>> = vec![Vec::new(); parts.len()];
            let (mut source, mut both, mut inmodel) = (0u64, 0u64, 0u64);
            let mut flags_s = vec![false; n[2]];
            let mut flags_m = vec![false; n[2]];
            let mut flags_p = vec![false; n[2]];
            for j in rows {
                for i in 0..n[0] {
                    let cell = (j * n[0] + i) as u64;
                    let x = origin[0] + (i as f64 + jitter(cell, 0)) * h;
                    let y = origin[1] + (j as f64 + jitter(cell, 1)) * h;
                    self.source.crossings(x, y, &mut cs);
                    for ((inside, _), c) in parts.iter().zip(cm.iter_mut()) {
                        inside.crossings(x, y, c);
                    }
                    if cs.is_empty() && cm.iter().zip(&parts).all(|(c, p)| c.is_empty() || p.1.is_none()) {
                        continue;
                    }
                    for (k, z) in zs.iter_mut().enumerate() {
                        *z = origin[2] + (k as f64 + jitter(cell, 2 + k as u64)) * h;
                    }
                    column(&self.source, x, y, &cs, &zs, &mut flags_s);
                    for f in &mut flags_g {
                        f.fill(true);
                    }
                    for ((inside, group), c) in parts.iter().zip(&cm) {
                        let Some(g) = group else { continue };
                        if c.is_empty() {
                            // A mesh this line does not cross holds none of it.
                            flags_g[*g].fill(false);
                            continue;
                        }
                        column(inside, x, y, c, &zs, &mut flags_p);
                        for (f, p) in flags_g[*g].iter_mut().zip(&flags_p) {
                            *f &= *p;
                        }
                    }
                    flags_m.fill(false);
                    for f in &flags_g {
                        for (m, p) in flags_m.iter_mut().zip(f) {
                            *m |= *p;
                        }
                    }
                    for ((inside, group), c) in parts.iter().zip(&cm) {
                        if group.is_some() || c.is_empty() {
                            continue;
                        }
                        column(inside, x, y, c, &zs, &mut flags_p);
                        for (m, p) in flags_m.iter_mut().zip(&flags_p) {
                            *m &= !*p;
                        }
                    }
                    for (s, m) in flags_s.iter().zip(&flags_m) {
                        source += u64::from(*s);
                        inmodel += u64::from(*m);
                        both += u64::from(*s && *m);
                    }
                }
            }
            [source, both, inmodel]
        };
        let bands: Vec<std::ops::Range<usize>> = (0..n[1])
            .step_by(BAND_ROWS)
            .map(|j| j..(j + BAND_ROWS).min(n[1]))
            .collect();
        // (A failed worker, which only a poisoned lock could make: the
        // rows counted here instead.)
        let [source, both, inmodel] = crate::mesh::par_map(bands, |rows| Ok(band(rows)))
            .unwrap_or_else(|_| vec![band(0..n[1])])
            .into_iter()
            .fold([0u64; 3], |a, b| [a[0] + b[0], a[1] + b[1], a[2] + b[2]]);
        let coverage = if source == 0 {
            0.0
        } else {
            100.0 * both as f64 / source as f64
        };
        let overfill = if inmodel == 0 {
            0.0
        } else {
            100.0 * (inmodel - both) as f64 / inmodel as f64
        };
        Score {
            coverage,
            overfill,
            source,
            model: inmodel,
            both,
        }
    }
}

/// Rows of the grid a thread counts at a time.
const BAND_ROWS: usize = 8;

/// A number in [0, 1) fixed by the cell and the coordinate (SplitMix64).
fn jitter(cell: u64, k: u64) -> f64 {
    let mut z = cell.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ k.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// Inside flags for sorted heights `zs` from a column's sorted crossings.
fn column(inside: &Inside, x: f64, y: f64, c: &[(f64, i32)], zs: &[f64], out: &mut [bool]) {
    let total: i32 = c.iter().map(|h| h.1).sum();
    // `above` = the facings of the crossings above the current height.
    let mut above = total;
    let mut k = 0;
    for (z, o) in zs.iter().zip(out.iter_mut()) {
        while k < c.len() && c[k].0 <= *z {
            above -= c[k].1;
            k += 1;
        }
        *o = inside.decide([x, y, *z], above, above - total);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube(lo: f64, hi: f64) -> Mesh {
        let p = |x: usize, y: usize, z: usize| [[lo, hi][x], [lo, hi][y], [lo, hi][z]];
        let positions: Vec<[f64; 3]> = (0..8).map(|i| p(i & 1, (i >> 1) & 1, (i >> 2) & 1)).collect();
        let triangles = vec![
            [0, 2, 1],
            [1, 2, 3],
            [4, 5, 6],
            [5, 7, 6],
            [0, 1, 4],
            [1, 5, 4],
            [2, 6, 3],
            [3, 6, 7],
            [0, 4, 2],
            [2, 4, 6],
            [1, 3, 5],
            [3, 7, 5],
        ];
        Mesh { positions, triangles }
    }

    #[test]
    fn a_cube_contains_its_inside_only() {
        let c = cube(0.0, 1.0);
        assert!((c.volume() - 1.0).abs() < 1e-12);
        let inside = Inside::new(&c);
        assert!(inside.contains([0.5, 0.5, 0.5]));
        assert!(!inside.contains([0.5, 0.5, 1.5]));
        assert!(!inside.contains([1.5, 0.5, 0.5]));
        // Lines through the cube's edges and its diagonal's corners.
        assert!(inside.contains([0.5, 0.5, 0.25]));
        assert!(inside.contains([0.0, 0.5, 0.5]) == inside.contains([0.0, 0.5, 0.25]));
    }

    #[test]
    fn a_cube_against_itself_and_a_half_of_it() {
        let s = Scorer::new(&cube(0.0, 1.0), 40);
        let same = s.score(&cube(0.0, 1.0));
        assert_eq!(same.coverage, 100.0);
        assert_eq!(same.overfill, 0.0);
        // A cube of side 2 from 0: covers all, 7/8 of it outside.
        let big = s.score(&cube(0.0, 2.0));
        assert_eq!(big.coverage, 100.0);
        assert!((big.overfill - 87.5).abs() < 1.0, "{big:?}");
    }

    #[test]
    fn parts_are_counted_as_their_union_less_the_subtracts() {
        let s = Scorer::new(&cube(0.0, 1.0), 40);
        let (unit, two) = (cube(0.0, 1.0), cube(0.0, 2.0));
        // Two copies overlapping: the union, counted once.
        let twice = s.score_parts(&[&[&unit], &[&unit]], &[]);
        assert_eq!((twice.coverage, twice.overfill), (100.0, 0.0));
        assert_eq!(twice.model, s.score(&unit).model);
        // A cube of side 2 less its far octant: 7 of 8, 1 of them the source.
        let cut = s.score_parts(&[&[&two]], &[&cube(1.0, 2.0)]);
        assert_eq!(cut.coverage, 100.0);
        assert!((cut.overfill - 600.0 / 7.0).abs() < 1.0, "{cut:?}");
        // The source itself cut away: nothing covered.
        let none = s.score_parts(&[&[&two]], &[&cube(-1.0, 1.0)]);
        assert_eq!(none.coverage, 0.0);
        // Meshes prepared once count as meshes prepared each time.
        let (big, far) = (Inside::new(&two), Inside::new(&cube(1.0, 2.0)));
        assert_eq!(s.score_prepared(&[&[&big]], &[&far]), cut);
        assert_eq!(s.score_prepared(&[&[&big], &[&big]], &[]), s.score(&two));
        assert_eq!(s.score_parts(&[&[&two]], &[]).model, s.score(&two).model);
        // A group is the meeting of its meshes: two cubes of side 2 offset
        // by 1 meet in a cube of side 1, the source.
        let met = s.score_parts(&[&[&two, &cube(-1.0, 1.0)]], &[]);
        assert_eq!((met.coverage, met.overfill), (100.0, 0.0));
        assert_eq!(met.model, s.score(&unit).model);
        // Two subtracts both count.
        let both = s.score_parts(&[&[&two]], &[&cube(1.0, 2.0), &cube(-1.0, 1.0)]);
        assert_eq!(both.coverage, 0.0);
        assert!((both.overfill - 100.0).abs() < 1e-9, "{both:?}");
    }

    #[test]
    fn the_reference_score() {
        // Coverage 100, overfill 0, one piece of two points.
        let s = quality_score(100.0, 0.0, 1, 2, None, Weights::default());
        let c = 0.035 + 0.012;
        assert!((s - (1.18 + 1.05 - c / (1.0 + c)) / 3.23).abs() < 1e-12);
        let e = quality_score(100.0, 0.0, 2, 2, Some(1), Weights::default());
        let c = 0.07 + 0.012;
        assert!((e - (1.18 + 1.05 - c / (1.0 + c)) / 4.23).abs() < 1e-12);
    }
}
