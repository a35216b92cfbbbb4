//! A mesh of too many triangles made smaller before fitting: vertices
//! clustered on a grid (each cell's vertices become their mean), the
//! triangles that collapse dropped, and pairs that cancel (the same three
//! cells, opposite ways round) dropped too.
//!
//! Clustering maps vertices to vertices and keeps every surviving
//! triangle's orientation, so a closed surface stays closed as a sum of
//! triangles: each edge is crossed as often one way as the other, and the
//! winding number (what [`super::Inside`] counts) is that of a surface no
//! farther than a cell's diagonal from the original. The fit sees shapes
//! on a grid of 56 cells; the cells here are made as large as the budget
//! needs and no larger (about 0.6% of a million-triangle ellipsoid's
//! longest side for 200,000 triangles: 164,370 of them, a third of a
//! fitting cell).

use crate::mesh::Mesh;

/// `mesh` with at most `budget` triangles (at least 64), or `None` when it
/// has no more than that already.
pub(super) fn within(mesh: &Mesh, budget: usize) -> Option<Mesh> {
    let budget = budget.max(64);
    if mesh.triangles.len() <= budget {
        return None;
    }
    let (lo, hi) = mesh.bounds()?;
    let longest = (0..3).map(|k| hi[k] - lo[k]).fold(0.0f64, f64::max);
    if !(longest > 0.0 && longest.is_finite()) {
        return None;
    }
    // A closed surface of area A on cells of side h keeps about 2·A/h²
    // triangles; start there, and grow the cells until the budget holds.
    // No cell smaller than a millionth of the longest side, so that cell
    // indices fit in 21 bits.
    let floor = longest / 1_000_000.0;
    let mut h = (2.0 * mesh.area() / budget as f64).sqrt().max(floor);
    loop {
        let out = clustered(mesh, lo, h);
        if out.triangles.len() <= budget || h >= longest {
            return Some(out);
        }
        h *= 1.25;
    }
}

/// `mesh` with its vertices clustered on cells of side `h` from `lo`.
fn clustered(mesh: &Mesh, lo: [f64; 3], h: f64) -> Mesh {
    let cell = |p: &[f64; 3]| -> u64 {
        let c = |k: usize| (((p[k] - lo[k]) / h).floor().clamp(0.0, 2_097_151.0)) as u64;
        (c(0) << 42) | (c(1) << 21) | c(2)
    };
    let keys: Vec<u64> = mesh.positions.iter().map(cell).collect();
    let mut order: Vec<u32> = (0..mesh.positions.len() as u32).collect();
    order.sort_by_key(|&i| (keys[i as usize], i));
    // Each vertex's cluster, clusters in order of their cells.
    let mut cluster = vec![0u32; mesh.positions.len()];
    let mut centres: Vec<[f64; 3]> = Vec::new();
    for run in order.chunk_by(|&a, &b| keys[a as usize] == keys[b as usize]) {
        let mut s = [0.0; 3];
        for &i in run {
            cluster[i as usize] = centres.len() as u32;
            let p = mesh.positions[i as usize];
            s = [s[0] + p[0], s[1] + p[1], s[2] + p[2]];
        }
        let k = run.len() as f64;
        centres.push([s[0] / k, s[1] / k, s[2] / k]);
    }
    drop(keys);
    drop(order);
    // Triangles of three clusters, each with its three clusters sorted and
    // which way round it goes.
    let mut tris: Vec<([u32; 3], bool, u32)> = Vec::new();
    for (n, t) in mesh.triangles.iter().enumerate() {
        let c = t.map(|v| cluster[v as usize]);
        if c[0] == c[1] || c[1] == c[2] || c[0] == c[2] {
            continue;
        }
        let mut s = c;
        s.sort_unstable();
        // The same cyclic order as the sorted one, or the other.
        let even = (c[0] == s[0] && c[1] == s[1]) || (c[1] == s[0] && c[2] == s[1]) || (c[2] == s[0] && c[0] == s[1]);
        tris.push((s, even, n as u32));
    }
    tris.sort_unstable_by_key(|&(s, even, n)| (s, even, n));
    // Of each set of three clusters, as many triangles as one way round
    // outnumbers the other, the first of them.
    let mut keep = vec![false; mesh.triangles.len()];
    for run in tris.chunk_by(|a, b| a.0 == b.0) {
        let odd = run.iter().filter(|t| !t.1).count();
        let even = run.len() - odd;
        let (skip, take) = if even > odd { (odd, even - odd) } else { (0, odd - even) };
        for t in run.iter().skip(skip).take(take) {
            keep[t.2 as usize] = true;
        }
    }
    drop(tris);
    let mut new = vec![u32::MAX; centres.len()];
    let mut out = Mesh::default();
    for (t, _) in mesh.triangles.iter().zip(&keep).filter(|(_, &k)| k) {
        let t = t.map(|v| {
            let c = cluster[v as usize] as usize;
            if new[c] == u32::MAX {
                new[c] = out.positions.len() as u32;
                out.positions.push(centres[c]);
            }
            new[c]
        });
        out.triangles.push(t);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A UV sphere of radius `r` with `n` bands and 2·`n` meridians.
    fn sphere(r: f64, n: usize) -> Mesh {
        let mut m = Mesh::default();
        m.positions.push([0.0, 0.0, r]);
        for i in 1..n {
            let th = std::f64::consts::PI * i as f64 / n as f64;
            for j in 0..2 * n {
                let ph = std::f64::consts::PI * j as f64 / n as f64;
                m.positions
                    .push([r * th.sin() * ph.cos(), r * th.sin() * ph.sin(), r * th.cos()]);
            }
        }
        m.positions.push([0.0, 0.0, -r]);
        let w = 2 * n as u32;
        let at = |i: u32, j: u32| 1 + (i - 1) * w + j % w;
        let south = m.positions.len() as u32 - 1;
        for j in 0..w {
            m.triangles.push([0, at(1, j), at(1, j + 1)]);
            m.triangles.push([at(n as u32 - 1, j + 1), at(n as u32 - 1, j), south]);
        }
        for i in 1..n as u32 - 1 {
            for j in 0..w {
                m.triangles.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
                m.triangles.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
            }
        }
        m
    }

    #[test]
    fn a_fine_sphere_is_made_small_and_stays_the_sphere() {
        let m = sphere(10.0, 200);
        assert!(m.is_closed() && m.triangles.len() > 150_000);
        let s = within(&m, 5_000).expect("simplified");
        assert!(
            s.triangles.len() <= 5_000 && s.triangles.len() > 1_000,
            "{}",
            s.triangles.len()
        );
        let (v0, v) = (m.volume(), s.volume());
        assert!((v - v0).abs() < 0.03 * v0, "{v0} → {v}");
        // Every edge is crossed as often one way as the other.
        assert!(crate::import::score::balanced(&s));
        // Points well inside and well outside stay so.
        let inside = crate::import::Inside::new(&s);
        assert!(inside.contains([0.0, 0.0, 0.0]) && inside.contains([9.0, 0.0, 0.0]));
        assert!(!inside.contains([11.0, 0.0, 0.0]) && !inside.contains([0.0, 0.0, -10.6]));
    }

    #[test]
    fn small_meshes_are_left_alone_and_the_result_is_the_same_every_time() {
        let m = sphere(3.0, 20);
        assert!(within(&m, 10_000).is_none());
        let a = within(&m, 300).expect("simplified");
        let b = within(&m, 300).expect("simplified");
        assert!(a.triangles.len() <= 300);
        assert_eq!(a.triangles, b.triangles);
        assert_eq!(a.positions, b.positions);
    }

    #[test]
    fn opposite_triangles_on_the_same_cells_cancel() {
        let mut m = sphere(5.0, 40);
        let extra: Vec<[u32; 3]> = m.triangles.iter().take(10).map(|t| [t[0], t[2], t[1]]).collect();
        m.triangles.extend(extra);
        let s = within(&m, 1_000).expect("simplified");
        let v = sphere(5.0, 40).volume();
        assert!((s.volume() - v).abs() < 0.05 * v);
    }
}
