//! A mesh's inside on a grid of cells, for the search: cells in and out,
//! connected regions, distances to the outside, and a path through the
//! middle of a region.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::score::{cross, orient, Inside};
use crate::mesh::math::V3;
use crate::mesh::Mesh;

/// Cells of side `h` from `lo`, `n` along each axis; `x` fastest.
#[derive(Clone)]
pub(super) struct Grid {
    pub lo: V3,
    pub h: f64,
    pub n: [usize; 3],
}

impl Grid {
    /// A grid over the box around `mesh`, padded by two cells, about
    /// `cells` along its longest side.
    pub fn around(mesh: &Mesh, cells: usize) -> Grid {
        let (lo, hi) = mesh.bounds().unwrap_or(([0.0; 3], [1.0; 3]));
        let longest = (0..3).map(|k| hi[k] - lo[k]).fold(0.0f64, f64::max);
        let h = if longest > 0.0 { longest / cells as f64 } else { 1.0 };
        let n = [0, 1, 2].map(|k| ((hi[k] - lo[k]) / h).ceil() as usize + 4);
        let lo = [0, 1, 2].map(|k| 0.5 * (lo[k] + hi[k]) - 0.5 * n[k] as f64 * h);
        Grid { lo, h, n }
    }

    pub fn len(&self) -> usize {
        self.n[0] * self.n[1] * self.n[2]
    }

    pub fn index(&self, i: usize, j: usize, k: usize) -> usize {
        (k * self.n[1] + j) * self.n[0] + i
    }

    pub fn cell(&self, c: usize) -> [usize; 3] {
        let i = c % self.n[0];
        let j = (c / self.n[0]) % self.n[1];
        [i, j, c / (self.n[0] * self.n[1])]
    }

    pub fn centre(&self, c: usize) -> V3 {
        let [i, j, k] = self.cell(c);
        [
            self.lo[0] + (i as f64 + 0.5) * self.h,
            self.lo[1] + (j as f64 + 0.5) * self.h,
            self.lo[2] + (k as f64 + 0.5) * self.h,
        ]
    }

    /// Which cells' centres are inside `mesh`.
    pub fn inside(&self, mesh: &Mesh) -> Vec<bool> {
        self.inside_of(&Inside::new(mesh))
    }

    /// Which cells' centres are inside a closed `mesh` (a tessellated
    /// piece; where its winding number is not 0). Each triangle is
    /// crossed with the columns of cell centres under it only (a scan of
    /// its rows), so the cost is the triangles and the columns they
    /// cover, not their boxes.
    pub fn inside_closed(&self, mesh: &Mesh) -> Vec<bool> {
        let h = self.h;
        let n = self.n;
        let mut hits: Vec<(u32, f64, i32)> = Vec::new();
        // Index of the first centre at or above `v` along axis k, and of
        // the last at or below.
        let first = |v: f64, k: usize| (((v - self.lo[k]) / h - 0.5).ceil().max(0.0) as usize).min(n[k]);
        let last = |v: f64, k: usize| ((v - self.lo[k]) / h - 0.5).floor();
        for t in &mesh.triangles {
            let c = t.map(|i| mesh.positions[i as usize]);
            if orient([c[0][0], c[0][1]], [c[1][0], c[1][1]], [c[2][0], c[2][1]]) == 0.0 {
                continue;
            }
            let (ylo, yhi) = (c[0][1].min(c[1][1]).min(c[2][1]), c[0][1].max(c[1][1]).max(c[2][1]));
            let jhi = last(yhi, 1);
            if jhi < 0.0 {
                continue;
            }
            let jhi = (jhi as usize).min(n[1].saturating_sub(1));
            for j in first(ylo, 1)..=jhi {
                let y = self.lo[1] + (j as f64 + 0.5) * h;
                // Where the line at this y meets the triangle's edges.
                let (mut xa, mut xb) = (f64::INFINITY, f64::NEG_INFINITY);
                for (p, q) in [(c[0], c[1]), (c[1], c[2]), (c[2], c[0])] {
                    if (p[1] - y) * (q[1] - y) <= 0.0 {
                        let x = if p[1] == q[1] {
                            p[0].min(q[0])
                        } else {
                            p[0] + (q[0] - p[0]) * (y - p[1]) / (q[1] - p[1])
                        };
                        let x2 = if p[1] == q[1] { p[0].max(q[0]) } else { x };
                        xa = xa.min(x);
                        xb = xb.max(x2);
                    }
                }
                if xa > xb {
                    continue;
                }
                // A cell more each way: the exact test decides.
                let i0 = first(xa, 0).saturating_sub(1);
                let i1 = last(xb, 0) + 1.0;
                if i1 < 0.0 {
                    continue;
                }
                let i1 = (i1 as usize).min(n[0].saturating_sub(1));
                for i in i0..=i1 {
                    let x = self.lo[0] + (i as f64 + 0.5) * h;
                    if let Some((z, s)) = cross(&c, x, y) {
                        hits.push(((j * n[0] + i) as u32, z, s));
                    }
                }
            }
        }
        hits.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        let mut out = vec![false; self.len()];
        for column in hits.chunk_by(|a, b| a.0 == b.0) {
            let col = column[0].0 as usize;
            let (i, j) = (col % n[0], col / n[0]);
            let total: i32 = column.iter().map(|h| h.2).sum();
            let mut above = total;
            let mut at = 0;
            // Below the lowest crossing the winding is `total` (0 for a
            // closed mesh), above the highest 0: only the centres between
            // (a cell more each way) need the walk.
            let ks = if total == 0 {
                let lowest = first(column[0].1, 2).saturating_sub(1);
                let highest = last(column[column.len() - 1].1, 2) + 2.0;
                lowest..(highest.max(0.0) as usize).min(n[2])
            } else {
                0..n[2]
            };
            for k in ks {
                let z = self.lo[2] + (k as f64 + 0.5) * h;
                while at < column.len() && column[at].1 <= z {
                    above -= column[at].2;
                    at += 1;
                }
                // Closed: the windings up and down agree; not 0 is inside.
                if above != 0 {
                    out[self.index(i, j, k)] = true;
                }
            }
        }
        out
    }

    fn inside_of(&self, inside: &Inside) -> Vec<bool> {
        let mut out = vec![false; self.len()];
        let zs: Vec<f64> = (0..self.n[2]).map(|k| self.lo[2] + (k as f64 + 0.5) * self.h).collect();
        let mut flags = vec![false; self.n[2]];
        for j in 0..self.n[1] {
            for i in 0..self.n[0] {
                let x = self.lo[0] + (i as f64 + 0.5) * self.h;
                let y = self.lo[1] + (j as f64 + 0.5) * self.h;
                if inside.column_at(x, y, &zs, &mut flags) {
                    for (k, f) in flags.iter().enumerate() {
                        if *f {
                            out[self.index(i, j, k)] = true;
                        }
                    }
                }
            }
        }
        out
    }

    /// The face neighbours of cell `c` inside the grid.
    pub fn neighbours(&self, c: usize, out: &mut Vec<usize>) {
        out.clear();
        let [i, j, k] = self.cell(c);
        let (sx, sy) = (1, self.n[0]);
        let sz = self.n[0] * self.n[1];
        if i > 0 {
            out.push(c - sx);
        }
        if i + 1 < self.n[0] {
            out.push(c + sx);
        }
        if j > 0 {
            out.push(c - sy);
        }
        if j + 1 < self.n[1] {
            out.push(c + sy);
        }
        if k > 0 {
            out.push(c - sz);
        }
        if k + 1 < self.n[2] {
            out.push(c + sz);
        }
    }

    /// Connected regions (face neighbours) of the cells that are set,
    /// largest first (ties by first cell).
    pub fn regions(&self, set: &[bool]) -> Vec<Vec<usize>> {
        let mut seen = vec![false; set.len()];
        let mut out = Vec::new();
        let mut nb = Vec::new();
        for start in 0..set.len() {
            if !set[start] || seen[start] {
                continue;
            }
            seen[start] = true;
            let mut region = vec![start];
            let mut at = 0;
            while at < region.len() {
                self.neighbours(region[at], &mut nb);
                for &d in &nb {
                    if set[d] && !seen[d] {
                        seen[d] = true;
                        region.push(d);
                    }
                }
                at += 1;
            }
            region.sort_unstable();
            out.push(region);
        }
        out.sort_by(|a, b| b.len().cmp(&a.len()).then(a[0].cmp(&b[0])));
        out
    }

    /// Each cell's distance to the nearest cell not in `set`, in cells
    /// (exact Euclidean, by three passes of the lower envelope of
    /// parabolas: Felzenszwalb and Huttenlocher).
    pub fn distance(&self, set: &[bool]) -> Vec<f64> {
        const BIG: f64 = 1e20;
        let mut d: Vec<f64> = set.iter().map(|&s| if s { BIG } else { 0.0 }).collect();
        let n = self.n;
        let mut f = Vec::new();
        let mut out = Vec::new();
        for axis in 0..3 {
            let (a, b) = ((axis + 1) % 3, (axis + 2) % 3);
            let stride = [1, n[0], n[0] * n[1]];
            for u in 0..n[a] {
                for v in 0..n[b] {
                    let base = u * stride[a] + v * stride[b];
                    f.clear();
                    f.extend((0..n[axis]).map(|t| d[base + t * stride[axis]]));
                    envelope(&f, &mut out);
                    for t in 0..n[axis] {
                        d[base + t * stride[axis]] = out[t];
                    }
                }
            }
        }
        d.iter().map(|x| x.sqrt()).collect()
    }

    /// A path through the middle of `region` between the two cells
    /// farthest apart along it: the cheapest way when a step costs more
    /// the nearer it runs to the outside. Cell indices in order.
    pub fn middle_path(&self, region: &[usize], dist: &[f64]) -> Vec<usize> {
        let Some(&first) = region.first() else {
            return Vec::new();
        };
        let member = self.flags(region.iter().copied());
        let (a, _) = self.cheapest(&member, first, None, dist);
        self.cheapest(&member, a, None, dist).1
    }

    /// A flag for each cell of the grid, set for `cells`.
    pub fn flags(&self, cells: impl IntoIterator<Item = usize>) -> Vec<bool> {
        let mut out = vec![false; self.len()];
        for c in cells {
            if let Some(f) = out.get_mut(c) {
                *f = true;
            }
        }
        out
    }

    /// The cheapest way through the cells flagged in `member` (one flag a
    /// cell of the grid) from `from` to `to` (to the cell reached last,
    /// the farthest, when `to` is `None`): that cell and the path, `from`
    /// last. Dijkstra, a step into a cell costing 1000 / distance²
    /// (rounded up) + 1; ties go to the lower cell index.
    pub fn cheapest(&self, member: &[bool], from: usize, to: Option<usize>, dist: &[f64]) -> (usize, Vec<usize>) {
        // Each cell's cost so far and the cell it was reached from.
        let mut best: Vec<(u64, usize)> = vec![(u64::MAX, usize::MAX); self.len()];
        let mut heap = BinaryHeap::new();
        if from >= best.len() {
            return (from, Vec::new());
        }
        best[from] = (0, from);
        heap.push(Reverse((0u64, from)));
        let mut nb = Vec::new();
        let mut last = from;
        while let Some(Reverse((cost, c))) = heap.pop() {
            if best[c].0 < cost {
                continue;
            }
            last = c;
            if Some(c) == to {
                break;
            }
            self.neighbours(c, &mut nb);
            for &d in &nb {
                if !member.get(d).copied().unwrap_or(false) {
                    continue;
                }
                let r = dist[d].max(0.5);
                let nc = cost + (1000.0 / (r * r)).ceil() as u64 + 1;
                if nc < best[d].0 {
                    best[d] = (nc, c);
                    heap.push(Reverse((nc, d)));
                }
            }
        }
        if to.is_some_and(|t| t != last) {
            return (last, Vec::new());
        }
        let mut path = vec![last];
        let mut c = last;
        while c != from {
            c = best[c].1;
            path.push(c);
        }
        (last, path)
    }
}

/// A region's cells found by where they are: each cell of the grid's
/// place in the region's order (`u32::MAX`: not in it).
pub(super) struct Located<'a> {
    grid: &'a Grid,
    rank: Vec<u32>,
    region: &'a [usize],
}

impl<'a> Located<'a> {
    pub fn new(grid: &'a Grid, region: &'a [usize]) -> Located<'a> {
        let mut rank = vec![u32::MAX; grid.len()];
        for (r, &c) in region.iter().enumerate() {
            if let Some(x) = rank.get_mut(c) {
                *x = u32::try_from(r).unwrap_or(u32::MAX - 1);
            }
        }
        Located { grid, rank, region }
    }

    /// The grid the region is on.
    pub fn grid(&self) -> &'a Grid {
        self.grid
    }

    /// Whether cell `c` of the grid is in the region.
    pub fn holds(&self, c: usize) -> bool {
        self.rank.get(c).is_some_and(|&r| r != u32::MAX)
    }

    /// The region's cells, in its order, among them every one whose centre
    /// is within `radius` of `at` and within `half` of the plane through
    /// `at` normal to unit `t` (with a cell to spare around both: the
    /// caller tests its own bounds): a slab's columns along the axis
    /// nearest `t`, not every cell of the region.
    pub fn slab(&self, at: V3, t: V3, radius: f64, half: f64) -> Vec<usize> {
        let g = self.grid;
        let a = (0..3).fold(0, |m, k| if t[k].abs() > t[m].abs() { k } else { m });
        if t[a].is_nan()
            || t[a].abs() <= 0.1
            || !radius.is_finite()
            || !half.is_finite()
            || at.iter().any(|x| !x.is_finite())
        {
            return self.region.to_vec();
        }
        let (b, c) = ((a + 1) % 3, (a + 2) % 3);
        // Indices of the centres within [from, to] along axis k, a cell
        // more each way, within the grid.
        let span = |from: f64, to: f64, k: usize| -> Option<(usize, usize)> {
            let i0 = ((from - g.lo[k]) / g.h - 0.5).ceil() - 1.0;
            let i1 = ((to - g.lo[k]) / g.h - 0.5).floor() + 1.0;
            let top = g.n[k] as f64 - 1.0;
            if i1 < 0.0 || i0 > top || i0 > i1 {
                return None;
            }
            Some((i0.max(0.0) as usize, i1.min(top) as usize))
        };
        let mut found: Vec<(u32, usize)> = Vec::new();
        let Some((b0, b1)) = span(at[b] - radius, at[b] + radius, b) else {
            return Vec::new();
        };
        let Some((c0, c1)) = span(at[c] - radius, at[c] + radius, c) else {
            return Vec::new();
        };
        for ib in b0..=b1 {
            let pb = g.lo[b] + (ib as f64 + 0.5) * g.h;
            for ic in c0..=c1 {
                let pc = g.lo[c] + (ic as f64 + 0.5) * g.h;
                // Where along axis a the slab's plane crosses this column.
                let rest = (pb - at[b]) * t[b] + (pc - at[c]) * t[c];
                let (u, v) = ((-half - rest) / t[a], (half - rest) / t[a]);
                let (lo, hi) = (u.min(v).max(-radius), u.max(v).min(radius));
                let Some((a0, a1)) = span(at[a] + lo, at[a] + hi, a) else {
                    continue;
                };
                for ia in a0..=a1 {
                    let mut ijk = [0; 3];
                    (ijk[a], ijk[b], ijk[c]) = (ia, ib, ic);
                    let cell = g.index(ijk[0], ijk[1], ijk[2]);
                    if self.holds(cell) {
                        found.push((self.rank[cell], cell));
                    }
                }
            }
        }
        found.sort_unstable();
        found.into_iter().map(|(_, c)| c).collect()
    }
}

/// The lower envelope of parabolas `f[q] + (t − q)²`, at every `t`.
fn envelope(f: &[f64], out: &mut Vec<f64>) {
    let n = f.len();
    out.clear();
    out.resize(n, 0.0);
    let mut v = vec![0usize; n];
    let mut z = vec![0.0f64; n + 1];
    let mut k = 0;
    z[0] = f64::NEG_INFINITY;
    z[1] = f64::INFINITY;
    for q in 1..n {
        loop {
            let p = v[k];
            let s = ((f[q] + (q * q) as f64) - (f[p] + (p * p) as f64)) / (2.0 * (q as f64 - p as f64));
            // z[0] is −∞, so k never goes below 0.
            if s <= z[k] {
                k -= 1;
                continue;
            }
            k += 1;
            v[k] = q;
            z[k] = s;
            z[k + 1] = f64::INFINITY;
            break;
        }
    }
    let mut k = 0;
    for (t, o) in out.iter_mut().enumerate() {
        while z[k + 1] < t as f64 {
            k += 1;
        }
        let p = v[k];
        *o = f[p] + (t as f64 - p as f64).powi(2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slab_holds_every_cell_of_the_region_near_its_plane_in_order() {
        let g = Grid {
            lo: [-3.0, 1.0, 0.5],
            h: 0.7,
            n: [23, 17, 19],
        };
        // A region in a scrambled order.
        let mut region: Vec<usize> = (0..g.len())
            .filter(|&c| {
                let p = g.centre(c);
                (p[0] - 4.0).powi(2) / 30.0 + (p[1] - 7.0).powi(2) / 12.0 + (p[2] - 7.0).powi(2) / 20.0 <= 1.0
            })
            .collect();
        region.sort_by_key(|&c| (c * 7919) % 1009);
        let located = Located::new(&g, &region);
        let mut seed = 7u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        for _ in 0..200 {
            let at = [-3.0 + 16.0 * rnd(), 1.0 + 12.0 * rnd(), 0.5 + 13.0 * rnd()];
            let t = crate::mesh::math::unit([rnd() - 0.5, rnd() - 0.5, rnd() - 0.5]).unwrap();
            let (radius, half) = (0.5 + 6.0 * rnd(), 0.35);
            let near = |c: &usize| {
                let d = crate::mesh::math::sub(g.centre(*c), at);
                crate::mesh::math::dot(d, d) <= radius * radius && crate::mesh::math::dot(d, t).abs() <= half
            };
            let want: Vec<usize> = region.iter().copied().filter(near).collect();
            let got: Vec<usize> = located.slab(at, t, radius, half);
            let got_near: Vec<usize> = got.iter().copied().filter(near).collect();
            assert_eq!(got_near, want);
            // Only a cell to spare around the slab, not the region.
            assert!(got.len() < region.len() / 2 || want.len() > region.len() / 8);
        }
    }

    #[test]
    fn distances_in_a_slab_grow_to_its_middle() {
        let g = Grid {
            lo: [0.0; 3],
            h: 1.0,
            n: [9, 5, 5],
        };
        let set: Vec<bool> = (0..g.len())
            .map(|c| {
                let [i, j, k] = g.cell(c);
                (1..8).contains(&i) && (1..4).contains(&j) && (1..4).contains(&k)
            })
            .collect();
        let d = g.distance(&set);
        assert_eq!(d[g.index(0, 2, 2)], 0.0);
        assert_eq!(d[g.index(1, 2, 2)], 1.0);
        assert_eq!(d[g.index(4, 2, 2)], 2.0);
        assert_eq!(d[g.index(4, 1, 1)], 1.0);
        let regions = g.regions(&set);
        assert_eq!(regions.len(), 1);
        assert_eq!(regions[0].len(), 7 * 3 * 3);
        let path = g.middle_path(&regions[0], &d);
        let ends: Vec<[usize; 3]> = [path[0], path[path.len() - 1]].iter().map(|&c| g.cell(c)).collect();
        assert!(
            ends.iter().any(|e| e[0] == 1) && ends.iter().any(|e| e[0] == 7),
            "{ends:?}"
        );
    }
}
