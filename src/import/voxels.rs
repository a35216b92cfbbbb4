//! A mesh's inside on a grid of cells, for the search: cells in and out,
//! connected regions, distances to the outside, and a path through the
//! middle of a region.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};

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
        let member: HashSet<usize> = region.iter().copied().collect();
        let Some(&first) = region.first() else {
            return Vec::new();
        };
        let (a, _) = self.cheapest(&member, first, None, dist);
        self.cheapest(&member, a, None, dist).1
    }

    /// The cheapest way through `member` from `from` to `to` (to the cell
    /// reached last, the farthest, when `to` is `None`): that cell and the
    /// path, `from` last. Dijkstra, a step into a cell costing
    /// 1000 / distance² (rounded up) + 1.
    pub fn cheapest(
        &self,
        member: &HashSet<usize>,
        from: usize,
        to: Option<usize>,
        dist: &[f64],
    ) -> (usize, Vec<usize>) {
        let mut best: HashMap<usize, (u64, usize)> = HashMap::new();
        let mut heap = BinaryHeap::new();
        best.insert(from, (0, from));
        heap.push(Reverse((0u64, from)));
        let mut nb = Vec::new();
        let mut last = from;
        while let Some(Reverse((cost, c))) = heap.pop() {
            if best.get(&c).is_some_and(|b| b.0 < cost) {
                continue;
            }
            last = c;
            if Some(c) == to {
                break;
            }
            self.neighbours(c, &mut nb);
            for &d in &nb {
                if !member.contains(&d) {
                    continue;
                }
                let r = dist[d].max(0.5);
                let nc = cost + (1000.0 / (r * r)).ceil() as u64 + 1;
                if best.get(&d).is_none_or(|b| nc < b.0) {
                    best.insert(d, (nc, c));
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
            c = best[&c].1;
            path.push(c);
        }
        (last, path)
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
