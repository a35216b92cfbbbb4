//! Meshing speed: `cargo bench --bench mesh` times, at resolution 32, the
//! six upstream examples and the 1,000-piece grid document
//! (`benches/common/grid.rs`; `cargo run --release --example mesh_grid`
//! writes it as `.sskb` for other tools), from decoded document to glTF
//! bytes: tessellation, booleans and the writer. Medians of a few rounds.
//!
//! More models (`.ssk` or `.sskb`), each at the resolutions given, from
//! `SSKB_BENCH_MODELS` (`PATH[:RES,RES...]` separated by spaces); the
//! random models of `tests/data/mesh/generate.py`, for example:
//!
//! ```sh
//! python3 tests/data/mesh/generate.py /tmp/r1000.ssk 1000 11
//! SSKB_BENCH_ROUNDS=1 SSKB_BENCH_MODELS="/tmp/r1000.ssk:8,16,32" cargo bench --bench mesh
//! ```

#[path = "common/grid.rs"]
mod grid;

use std::time::{Duration, Instant};

use sskb::mesh::{Gltf, Mesher, SceneNode};
use sskb::Document;

fn mesh(doc: &Document, resolution: u32) -> (usize, usize) {
    let mut mesher = Mesher::new(resolution);
    for p in &doc.pieces {
        mesher.push(p).unwrap();
    }
    let m = mesher.combined().unwrap();
    let triangles = m.triangles.len();
    let gltf = Gltf::new(&[SceneNode {
        name: "sskb".into(),
        mesh: m,
        extras: None,
    }])
    .unwrap();
    (triangles, gltf.to_glb().unwrap().len())
}

fn time(rounds: usize, f: impl Fn() -> (usize, usize)) -> (Duration, (usize, usize)) {
    let mut times = Vec::new();
    let mut out = (0, 0);
    for _ in 0..rounds {
        let t = Instant::now();
        out = f();
        times.push(t.elapsed());
    }
    times.sort();
    (times[times.len() / 2], out)
}

fn main() {
    let rounds: usize = std::env::var("SSKB_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    println!("| document | pieces | time | triangles | .glb bytes |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    for name in [
        "example_csg_cube",
        "example_cylinder",
        "example_hemisphere",
        "example_ladder",
        "example_triangular_prism",
        "example_tube",
    ] {
        let text = std::fs::read_to_string(format!("tests/data/conformance/ssk/{name}.ssk")).unwrap();
        let doc = sskb::parse_ssk(&text).unwrap();
        let (t, (tri, bytes)) = time(rounds.max(5), || mesh(&doc, 32));
        println!(
            "| {name} | {} | {:.2} ms | {tri} | {bytes} |",
            doc.pieces.len(),
            t.as_secs_f64() * 1e3
        );
    }
    let doc = grid::grid_document(1, 40, 25);
    let (t, (tri, bytes)) = time(rounds, || mesh(&doc, 32));
    println!(
        "| grid 40 × 25 | {} | {:.2} s | {tri} | {bytes} |",
        doc.pieces.len(),
        t.as_secs_f64()
    );
    for spec in std::env::var("SSKB_BENCH_MODELS")
        .unwrap_or_default()
        .split_whitespace()
    {
        let (path, res) = spec.split_once(':').unwrap_or((spec, "32"));
        let data = std::fs::read(path).unwrap();
        let doc = if path.ends_with(".sskb") {
            sskb::decode_slice(&data).unwrap()
        } else {
            sskb::parse_ssk(&String::from_utf8_lossy(&data)).unwrap()
        };
        for n in res.split(',').map(|r| r.parse::<u32>().unwrap()) {
            let (t, (tri, bytes)) = time(rounds, || mesh(&doc, n));
            println!(
                "| {path} at {n} | {} | {:.2} s | {tri} | {bytes} |",
                doc.pieces.len(),
                t.as_secs_f64()
            );
        }
    }
}
