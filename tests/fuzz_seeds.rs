//! Replays every committed fuzz seed (`fuzz/seeds/<target>/`, a minimized
//! corpus with every past finding in `fuzz/regressions/<target>/`) through
//! the fuzz targets' own checks, on stable, so that CI exercises them
//! without nightly or cargo-fuzz.

#[path = "../fuzz/checks/decode.rs"]
mod decode;
#[cfg(feature = "import")]
#[path = "../fuzz/checks/import.rs"]
mod import;
#[cfg(feature = "mesh")]
#[path = "../fuzz/checks/mesh.rs"]
mod mesh;
#[path = "../fuzz/checks/properties.rs"]
mod properties;

use std::path::Path;

fn inputs(target: &str) -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut out = Vec::new();
    for dir in ["seeds", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        for e in entries {
            let path = e.unwrap().path();
            out.push((path.display().to_string(), std::fs::read(&path).unwrap()));
        }
    }
    out.sort();
    out
}

fn replay(target: &str, check: fn(&[u8]), at_least: usize) {
    let inputs = inputs(target);
    assert!(inputs.len() >= at_least, "{target}: only {} seeds", inputs.len());
    for (name, data) in &inputs {
        if let Err(e) = std::panic::catch_unwind(|| check(data)) {
            std::panic::resume_unwind(Box::new(format!("{name}: {e:?}")));
        }
    }
    println!("{target}: {} seeds replayed", inputs.len());
}

#[test]
fn decode_seeds() {
    replay("decode", decode::check, 100);
}

#[test]
fn properties_seeds() {
    replay("properties", properties::check, 100);
}

#[cfg(feature = "mesh")]
#[test]
fn mesh_seeds() {
    replay("mesh", mesh::check, 100);
}

#[cfg(feature = "import")]
#[test]
fn import_seeds() {
    replay("import", import::check, 20);
}
