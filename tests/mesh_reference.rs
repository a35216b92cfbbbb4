//! Our meshes against the reference's on documents that use every field
//! (`tests/data/mesh/random_ssk/`, 60 made by `generate.py`) and on the
//! minimal cases where the two once differed (`tests/data/mesh/cases/`),
//! at resolutions 8 and 32. The reference's figures were stored once by
//! `differential.py` with ssk 1.5.0 (`tests/data/mesh/differential.json`);
//! CI never runs the reference.
//!
//! The two agree when they describe the same solid: volumes within 3% and
//! every bound within 1.5% of the diagonal (or both empty). Where they do
//! not, a piece's own sweep must fold through itself: the reference meshes
//! the folded surface as it is (not a solid: the overlap counted twice,
//! inverted regions subtracted), and ours is the volume swept, so ours must
//! be closed, of positive volume, and inside the pieces' own bounds.

use std::path::{Path, PathBuf};

use serde_json::Value;
use sskb::mesh::{crosses_itself, tessellate, Mesh, Mesher};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/mesh")
}

fn source(name: &str) -> String {
    for dir in ["random_ssk", "cases"] {
        let p = data().join(dir).join(format!("{name}.ssk"));
        if p.exists() {
            return std::fs::read_to_string(p).unwrap();
        }
    }
    panic!("{name}: no document");
}

fn bounds(v: &Value) -> Option<([f64; 3], [f64; 3])> {
    let b = v.as_array()?;
    let corner = |c: &Value| -> Option<[f64; 3]> {
        let c = c.as_array()?;
        Some([c[0].as_f64()?, c[1].as_f64()?, c[2].as_f64()?])
    };
    Some((corner(&b[0])?, corner(&b[1])?))
}

fn diagonal((lo, hi): ([f64; 3], [f64; 3])) -> f64 {
    (0..3).map(|c| (hi[c] - lo[c]).powi(2)).sum::<f64>().sqrt()
}

#[test]
fn meshes_agree_with_the_reference_or_fold() {
    let stored: Value =
        serde_json::from_str(&std::fs::read_to_string(data().join("differential.json")).unwrap()).unwrap();
    let (mut agree, mut folded) = (0, 0);
    let mut worst: f64 = 0.0;
    for (name, by_n) in stored.as_object().unwrap() {
        let doc = sskb::parse_ssk(&source(name)).unwrap();
        let resolved = sskb::resolve(&doc).unwrap();
        for (n, want) in by_n.as_object().unwrap() {
            let n: u32 = n.parse().unwrap();
            let mut mesher = Mesher::new(n);
            for p in &doc.pieces {
                mesher.push(p).unwrap();
            }
            let ours: Mesh = mesher.combined().unwrap_or_else(|e| panic!("{name} at {n}: {e}"));
            assert!(ours.is_closed(), "{name} at {n}: not closed");
            let pieces: Vec<Mesh> = resolved
                .pieces
                .iter()
                .filter_map(|p| tessellate(p, n).unwrap())
                .collect();
            let folds = pieces.iter().any(|m| m.volume() > 0.0 && crosses_itself(m).unwrap());
            if let Some(e) = want.get("error") {
                // The reference refuses to write empty geometry.
                assert!(e.as_str().unwrap().contains("empty geometry"), "{name}: {e}");
                assert!(ours.is_empty() || folds, "{name} at {n}: the reference is empty");
                agree += 1;
                continue;
            }
            let v = want["volume_mm3"].as_f64().unwrap();
            let ov = ours.volume();
            let same = match (bounds(&want["bounds_mm"]), ours.bounds()) {
                (Some(theirs), Some(mine)) => {
                    let d = diagonal(theirs);
                    let near = |a: [f64; 3], b: [f64; 3]| (0..3).all(|c| (a[c] - b[c]).abs() <= 0.015 * d + 1e-4);
                    let rel = (ov - v).abs() / v.abs().max(ov.abs()).max(1e-300);
                    let volume = v.abs().max(ov.abs()) < 1e-3 || rel <= 0.03;
                    if near(mine.0, theirs.0) && near(mine.1, theirs.1) && volume {
                        worst = worst.max(if v.abs().max(ov.abs()) < 1e-3 { 0.0 } else { rel });
                        true
                    } else {
                        false
                    }
                }
                (None, None) => true,
                _ => false,
            };
            if !same {
                // Explained only by a piece whose sweep folds: there ours is
                // the swept volume, closed and positive, within the pieces'
                // own bounds.
                assert!(folds, "{name} at {n}: volume {ov} bounds {:?} vs {want}", ours.bounds());
                folded += 1;
                assert!(ov >= -1e-9, "{name} at {n}: volume {ov}");
                if let Some((lo, hi)) = ours.bounds() {
                    let all = pieces
                        .iter()
                        .filter_map(Mesh::bounds)
                        .fold(([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]), |(a, b), (l, h)| {
                            ([0, 1, 2].map(|c| a[c].min(l[c])), [0, 1, 2].map(|c| b[c].max(h[c])))
                        });
                    let slack = 1e-6 * diagonal(all).max(1.0);
                    for c in 0..3 {
                        assert!(lo[c] >= all.0[c] - slack && hi[c] <= all.1[c] + slack, "{name} at {n}");
                    }
                }
                continue;
            }
            agree += 1;
        }
    }
    eprintln!(
        "{agree} agree, {folded} differ where a sweep folds; largest volume difference where they agree: {:.3}%",
        worst * 100.0
    );
    assert_eq!(agree + folded, 2 * 73);
    // 94 of the 146 agreed when the figures were stored: a change that
    // loses agreement shows here.
    assert!(agree >= 94, "{agree} agree");
}

/// The same document gives the same bytes whatever the number of threads
/// and however often it is meshed.
#[test]
fn meshes_are_the_same_every_run() {
    let text = source("p1000_union_sub8");
    let doc = sskb::parse_ssk(&text).unwrap();
    let glb = || {
        let mut mesher = Mesher::new(16);
        for p in &doc.pieces {
            mesher.push(p).unwrap();
        }
        let nodes = mesher.scene(false).unwrap();
        sskb::mesh::Gltf::new(&nodes).unwrap().to_glb().unwrap()
    };
    let first = glb();
    for _ in 0..3 {
        assert!(glb() == first);
    }
}
