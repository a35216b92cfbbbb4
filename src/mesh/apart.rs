//! The union of a model's solids with the parts that meet nothing kept
//! apart: each level of the union's tree makes booleans only of what
//! meets across it, and the rest goes up untouched.
//!
//! A union of two solids copies every triangle of both, so a balanced
//! tree of unions over a model costs about the whole model at each of its
//! levels (log₂ of the pieces). A model of many pieces is rarely one
//! connected solid, though: the 1,000-piece random model of
//! `tests/data/mesh/generate.py` (seed 11) is 266 separate shells at
//! resolution 32, the largest 4% of its triangles. Here each node of the
//! tree is a list of solids that neither overlap nor touch one another;
//! two lists are merged by uniting only the clusters of solids whose boxes
//! meet across them, and the solids of a cluster on one side (which do
//! not touch one another) are put together without a boolean first. The
//! model is the list at the root, its meshes side by side.

use manifold_rust::types::OpType;

use super::boolean::{composed, in_space_order, neighbours, op, overlap, Bounds, Solid};
use super::parallel::{par_map, threads};
use crate::error::Result;

/// The union of `solids` as solids that neither overlap nor touch one
/// another (none empty), in a fixed order: the same solids in the same
/// order give the same result, whatever the number of threads.
///
/// # Errors
/// `mesh` when the boolean library fails, naming the pieces.
pub(super) fn union_apart(solids: Vec<Solid>) -> Result<Vec<Solid>> {
    let mut level: Vec<Vec<Solid>> = in_space_order(solids).into_iter().map(|s| vec![s]).collect();
    while level.len() > 1 {
        let groups = neighbours(level);
        // With fewer merges than threads the clusters of each merge run on
        // the threads instead (the last levels: one merge at the root).
        let inner = groups.len() < threads();
        level = par_map(groups, |(a, b, c)| {
            let ab = match b {
                Some(b) => merged(a, b, inner)?,
                None => a,
            };
            match c {
                Some(c) => merged(ab, c, inner),
                None => Ok(ab),
            }
        })?;
    }
    Ok(level.pop().unwrap_or_default())
}

/// The box around the boxes of `solids`.
fn around(solids: &[Solid]) -> Option<Bounds> {
    solids
        .iter()
        .filter_map(|s| s.bb)
        .reduce(|(a, b), (l, h)| ([0, 1, 2].map(|c| a[c].min(l[c])), [0, 1, 2].map(|c| b[c].max(h[c]))))
}

/// One list from two: solids of `a` and `b` whose boxes meet are joined
/// into clusters (through any chain of such meetings), each cluster
/// becomes the union of its side of `a` and its side of `b`, and every
/// other solid is kept as it is. The result is in the order of `a` then
/// `b`, a cluster where its first solid was.
fn merged(a: Vec<Solid>, b: Vec<Solid>, inner: bool) -> Result<Vec<Solid>> {
    let n = a.len();
    let (box_a, box_b) = (around(&a), around(&b));
    let items: Vec<Solid> = a.into_iter().chain(b).collect();
    let mut parent: Vec<usize> = (0..items.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    // Only solids within the other side's box can meet one of its solids.
    let near_b: Vec<usize> = (0..n).filter(|&i| overlap(&items[i].bb, &box_b)).collect();
    let near_a: Vec<usize> = (n..items.len()).filter(|&j| overlap(&items[j].bb, &box_a)).collect();
    for &i in &near_b {
        for &j in &near_a {
            if overlap(&items[i].bb, &items[j].bb) {
                let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
                if ri != rj {
                    parent[ri.max(rj)] = ri.min(rj);
                }
            }
        }
    }
    let roots: Vec<usize> = (0..items.len()).map(|k| root(&mut parent, k)).collect();
    let mut size = vec![0usize; items.len()];
    for &r in &roots {
        size[r] += 1;
    }
    // Each cluster's solids of `a` and of `b`, and where it goes.
    enum Slot {
        Kept(Solid),
        Cluster(usize),
    }
    let mut slots = Vec::with_capacity(items.len());
    let mut clusters: Vec<(Vec<Solid>, Vec<Solid>)> = Vec::new();
    let mut cluster_of = vec![usize::MAX; items.len()];
    for (k, s) in items.into_iter().enumerate() {
        let r = roots[k];
        if size[r] == 1 {
            slots.push(Slot::Kept(s));
            continue;
        }
        if cluster_of[r] == usize::MAX {
            cluster_of[r] = clusters.len();
            slots.push(Slot::Cluster(clusters.len()));
            clusters.push((Vec::new(), Vec::new()));
        }
        let c = &mut clusters[cluster_of[r]];
        if k < n {
            c.0.push(s);
        } else {
            c.1.push(s);
        }
    }
    let unite = |(a, b): (Vec<Solid>, Vec<Solid>)| -> Result<Solid> { op(&composed(a)?, &composed(b)?, OpType::Add) };
    let made = if inner && clusters.len() > 1 {
        par_map(clusters, unite)?
    } else {
        clusters.into_iter().map(unite).collect::<Result<Vec<Solid>>>()?
    };
    let mut made: Vec<Option<Solid>> = made.into_iter().map(Some).collect();
    Ok(slots
        .into_iter()
        .filter_map(|slot| match slot {
            Slot::Kept(s) => Some(s),
            Slot::Cluster(c) => made[c].take(),
        })
        .filter(|s| s.m.is_some())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use manifold_rust::manifold::Manifold;
    use std::sync::Arc;

    fn cube(at: [f64; 3], side: f64, id: u32) -> Solid {
        let m = Manifold::cube(manifold_rust::linalg::Vec3::new(side, side, side), false)
            .translate(manifold_rust::linalg::Vec3::new(at[0], at[1], at[2]));
        Solid::from(m, Arc::from([id]))
    }

    /// The ids of all of `solids`, ascending.
    fn ids_of(solids: &[Solid]) -> Vec<u32> {
        let mut v: Vec<u32> = solids.iter().flat_map(|s| s.ids.iter().copied()).collect();
        v.sort_unstable();
        v
    }

    fn volume(solids: &[Solid]) -> f64 {
        solids.iter().filter_map(|s| s.m.as_ref()).map(|m| m.volume()).sum()
    }

    #[test]
    fn only_solids_that_meet_across_a_merge_are_united() {
        // Two rows of unit cubes 3 apart; the second row's first cube
        // overlaps the first row's last by half. Cubes 0..=3 and 10..=13.
        let a: Vec<Solid> = (0..4).map(|i| cube([3.0 * i as f64, 0.0, 0.0], 1.0, i)).collect();
        let b: Vec<Solid> = (0..4)
            .map(|i| cube([9.5 + 3.0 * i as f64, 0.0, 0.0], 1.0, 10 + i))
            .collect();
        let kept_a = Arc::as_ptr(a[0].m.as_ref().unwrap());
        let kept_b = Arc::as_ptr(b[3].m.as_ref().unwrap());
        let out = merged(a, b, false).unwrap();
        // Seven solids: six untouched, and cubes 3 and 10 as one.
        assert_eq!(out.len(), 7);
        assert_eq!(&*out[3].ids, &[3, 10]);
        assert!((volume(&out[3..4]) - 1.5).abs() < 1e-9, "{}", volume(&out[3..4]));
        // The others are the same solids, not copies.
        assert_eq!(Arc::as_ptr(out[0].m.as_ref().unwrap()), kept_a);
        assert_eq!(Arc::as_ptr(out[6].m.as_ref().unwrap()), kept_b);
        assert!((volume(&out) - 7.5).abs() < 1e-9);
    }

    #[test]
    fn a_chain_of_meetings_is_one_cluster_and_the_tree_is_the_union() {
        // Cubes 0.75 apart overlap their neighbours: one solid in the end,
        // of volume 1 + 11 × 0.75 along x; two far cubes stay apart.
        let mut solids: Vec<Solid> = (0..12).map(|i| cube([0.75 * i as f64, 0.0, 0.0], 1.0, i)).collect();
        solids.push(cube([0.0, 5.0, 0.0], 1.0, 20));
        solids.push(cube([5.0, 5.0, 0.0], 1.0, 21));
        for threads in [1, 2] {
            crate::mesh::set_threads(threads);
            let out = union_apart(solids.clone()).unwrap();
            assert_eq!(out.len(), 3, "{threads} threads");
            assert_eq!(ids_of(&out), (0..12).chain([20, 21]).collect::<Vec<u32>>());
            let whole = out.iter().find(|s| s.ids.len() == 12).unwrap();
            assert!((volume(std::slice::from_ref(whole)) - (1.0 + 11.0 * 0.75)).abs() < 1e-9);
            assert!((volume(&out) - (2.0 + 1.0 + 11.0 * 0.75)).abs() < 1e-9);
        }
        crate::mesh::set_threads(0);
    }
}
