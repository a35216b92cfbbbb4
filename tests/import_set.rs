//! The judged meshes (tests/data/import/): our scorer against the
//! reference's stored verdicts on our stored imports, and the importer on
//! a few of the meshes against the stored scores. The models are
//! `make.py`'s, meshed here at resolution 48 as it meshes them; the
//! verdicts come from `compare.py` (run by hand with the reference, ssk
//! 1.5.0; results.json).

use std::path::PathBuf;

use serde_json::Value as Json;
use sskb::import::{fit, score_model, FitOptions, Scorer};
use sskb::mesh::{Mesh, Mesher};

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/import")
}

fn results() -> Json {
    serde_json::from_str(&std::fs::read_to_string(data().join("results.json")).unwrap()).unwrap()
}

fn mesh_of(doc: &sskb::Document, resolution: u32) -> Mesh {
    let mut m = Mesher::new(resolution);
    for p in &doc.pieces {
        m.push(p).unwrap();
    }
    m.combined().unwrap()
}

/// The mesh `make.py` makes of model NAME, in model units.
fn source(name: &str) -> Option<Mesh> {
    let text = std::fs::read_to_string(data().join("models").join(format!("{name}.ssk"))).ok()?;
    Some(mesh_of(&sskb::parse_ssk(&text).unwrap(), 48))
}

/// The reference samples 2,728 points in the mesh's box padded by 2.5% a
/// side; of them, the share of the box the mesh fills lands inside it.
/// Its coverage is off by its sampling error (a binomial's, counted 4
/// times over, and 2.5 points more); the model is meshed at 16, as the
/// reference meshes it to score.
#[test]
fn our_scorer_agrees_with_the_references_on_the_stored_imports() {
    let r = results();
    let mut checked = 0;
    for row in r["rows"].as_array().unwrap() {
        let name = row["name"].as_str().unwrap();
        // Our import of the hollow box cuts 0.22 mm into its floor and
        // ceiling (its subtract is 36.43 mm tall, the cavity 36): 5% of
        // the shell, by volumes 30,918 against 31,117 mm³ and by our
        // count; the reference's 2,728 samples see none of it.
        // The table's legs are thinner than the reference's 10 × 10 × 10
        // grid: it counts 95.7% coverage where 20,000 random points with
        // its own inside test count 85.4% (we count 85.1%). Of the torus
        // (ours 0.13 mm off centre, its section 0.39 mm thicker: all but
        // covered) it counts 92.6%, and 93.6% on 20,000 random points: its
        // inside test, not ours, is off there (we count 99.0%).
        if matches!(name, "hollow_box" | "table" | "torus_tilted") {
            continue;
        }
        let Some(src) = source(name) else { continue };
        let ours = &row["ours"];
        let doc = sskb::parse_ssk(ours["document"].as_str().unwrap()).unwrap();
        let model = mesh_of(&doc, 16);
        let s = Scorer::new(&src, 96).score(&model);
        let fill = 1.0 - row["bbox"]["overfill"].as_f64().unwrap() / 100.0;
        let inside = (2728.0 * fill / 1.05f64.powi(3)).max(1.0);
        let (c, o) = (ours["coverage"].as_f64().unwrap(), ours["overfill"].as_f64().unwrap());
        // A share of 0 or 100% observed on n samples is no surer than one
        // sample in n either way.
        let sigma = |p: f64, n: f64| 100.0 * (((p / 100.0) * (1.0 - p / 100.0)).max(1.0 / n) / n).sqrt();
        let model_samples = (inside * c / 100.0 / (1.0 - o / 100.0).max(0.01)).max(1.0);
        let tol_c = 4.0 * sigma(c, inside) + 2.5;
        let tol_o = 4.0 * sigma(o, model_samples) + 2.5;
        assert!(
            (s.coverage - c).abs() <= tol_c,
            "{name}: coverage {} against the reference's {c} (±{tol_c:.2})",
            s.coverage
        );
        assert!(
            (s.overfill - o).abs() <= tol_o,
            "{name}: overfill {} against the reference's {o} (±{tol_o:.2})",
            s.overfill
        );
        checked += 1;
    }
    assert!(checked >= 22, "{checked}");
}

/// A few meshes of every kind imported again: by our scorer, at least the
/// reference's score and the bounding box's (stored, by the reference's
/// scorer) and within 0.02 of what `sskb convert` printed when the
/// results were stored; the same document twice.
#[test]
fn the_importer_holds_its_stored_scores() {
    let r = results();
    for name in ["cube_rotated", "cross", "random_002", "spring", "table", "u_tube"] {
        let row = r["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|row| row["name"] == name)
            .unwrap();
        let src = source(name).unwrap();
        let o = FitOptions::default();
        let f = fit(&src, &o).unwrap();
        let floor = row["ref"]["score"]
            .as_f64()
            .unwrap()
            .max(row["bbox"]["score"].as_f64().unwrap());
        assert!(f.quality >= floor, "{name}: {} under {floor}", f.quality);
        let line = row["ours"]["line"].as_str().unwrap();
        let stored: f64 = line.rsplit("score ").next().unwrap().parse().unwrap();
        assert!(
            f.quality >= stored - 0.02,
            "{name}: {} against {stored} stored",
            f.quality
        );
        assert!(
            f.score.coverage >= 80.0 && f.score.overfill <= 25.0,
            "{name}: {:?}",
            f.score
        );
        let again = fit(&src, &o).unwrap();
        assert_eq!(
            sskb::to_ssk(&f.document).unwrap(),
            sskb::to_ssk(&again.document).unwrap(),
            "{name}"
        );
        let (s, q) = score_model(&src, &f.document, &o).unwrap();
        assert_eq!((s, q), (f.score, f.quality));
    }
}
