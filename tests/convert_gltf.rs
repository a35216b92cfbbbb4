//! `sskb convert IN OUT.glb|OUT.gltf`: every output read back with the
//! `gltf` crate; invalid input gives `sskb validate`'s error and writes
//! nothing; empty geometry writes a valid glTF with no mesh.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn sskb(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sskb")).args(args).output().unwrap()
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sskb-gltf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn example(name: &str) -> String {
    format!("tests/data/conformance/ssk/{name}.ssk")
}

/// Signed volume (mm³, model axes) and triangle count of every primitive.
fn read_back(doc: &gltf::Gltf, bin: &[u8]) -> (f64, usize) {
    let mut volume = 0.0;
    let mut triangles = 0;
    for mesh in doc.meshes() {
        for prim in mesh.primitives() {
            let reader = prim.reader(|_| Some(bin));
            let pos: Vec<[f32; 3]> = reader.read_positions().unwrap().collect();
            let normals: Vec<[f32; 3]> = reader.read_normals().unwrap().collect();
            let idx: Vec<u32> = reader.read_indices().unwrap().into_u32().collect();
            assert_eq!(pos.len(), normals.len());
            let acc = prim.get(&gltf::Semantic::Positions).unwrap();
            let (lo, hi) = (acc.min().unwrap(), acc.max().unwrap());
            for p in &pos {
                for c in 0..3 {
                    assert!(f64::from(p[c]) >= lo[c].as_f64().unwrap() - 1e-9);
                    assert!(f64::from(p[c]) <= hi[c].as_f64().unwrap() + 1e-9);
                }
            }
            for n in &normals {
                let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
                assert!((len - 1.0).abs() < 1e-4, "normal of length {len}");
            }
            for t in idx.chunks_exact(3) {
                // Back to millimetres, Z up: (x, y, z) = (1000·X, −1000·Z, 1000·Y).
                let m = |i: u32| {
                    let p = pos[i as usize].map(f64::from);
                    [1000.0 * p[0], -1000.0 * p[2], 1000.0 * p[1]]
                };
                let (a, b, c) = (m(t[0]), m(t[1]), m(t[2]));
                let cross = [
                    b[1] * c[2] - b[2] * c[1],
                    b[2] * c[0] - b[0] * c[2],
                    b[0] * c[1] - b[1] * c[0],
                ];
                volume += (a[0] * cross[0] + a[1] * cross[1] + a[2] * cross[2]) / 6.0;
                triangles += 1;
            }
        }
    }
    (volume, triangles)
}

fn glb(path: &Path) -> (gltf::Gltf, Vec<u8>) {
    let doc = gltf::Gltf::open(path).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
    let bin = doc.blob.clone().unwrap_or_default();
    (doc, bin)
}

#[test]
fn examples_to_glb_and_gltf_have_the_reference_volumes() {
    let reference: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("tests/data/conformance/mesh_reference.json").unwrap()).unwrap();
    for (name, by_n) in reference.as_object().unwrap() {
        let want = by_n["32"]["volume_mm3"].as_f64().unwrap();
        let out = tmp(&format!("{name}.glb"));
        let r = sskb(&["convert", &example(name), out.to_str().unwrap()]);
        assert!(r.status.success(), "{name}: {}", String::from_utf8_lossy(&r.stderr));
        let (doc, bin) = glb(&out);
        assert_eq!(doc.document.as_json().asset.generator.as_deref(), Some("sskb"));
        let (volume, triangles) = read_back(&doc, &bin);
        assert!(
            triangles > 0 && (volume - want).abs() < 1e-4 * want,
            "{name}: {volume} vs {want}"
        );

        let out = tmp(&format!("{name} copy.gltf"));
        let r = sskb(&["convert", "--resolution", "32", &example(name), out.to_str().unwrap()]);
        assert!(r.status.success(), "{name}: {}", String::from_utf8_lossy(&r.stderr));
        let doc = gltf::Gltf::open(&out).unwrap();
        let buffer = doc.buffers().next().unwrap();
        let gltf::buffer::Source::Uri(uri) = buffer.source() else {
            panic!("no uri")
        };
        assert_eq!(uri, format!("{name}%20copy.bin"));
        let bin = std::fs::read(out.with_file_name(format!("{name} copy.bin"))).unwrap();
        assert_eq!(bin.len() as u64, buffer.length() as u64);
        let (v2, t2) = read_back(&doc, &bin);
        assert_eq!((v2, t2), (volume, triangles));
    }
}

#[test]
fn per_piece_nodes_carry_ids_and_properties() {
    let ssk = "pieces:
- id: 0
  points: [{x: 0, y: 0, z: 0}, {x: 0, y: 0, z: 50}]
  size: {x: 10, y: 10, z: 0}
  shape: circle
  properties: {name: post, weight: 2.5}
- id: 1
  from: 0
  points: [{x: 30, y: 0, z: 0}, {x: 30, y: 0, z: 50}]
- id: 2
  points: [{x: -100, y: 0, z: 25}, {x: 100, y: 0, z: 25}]
  size: {x: 3, y: 3, z: 0}
  shape: ngon
  sides: 4
  mode: subtract
";
    let src = tmp("posts.ssk");
    std::fs::write(&src, ssk).unwrap();
    let out = tmp("posts.glb");
    let r = sskb(&["convert", "--per-piece", src.to_str().unwrap(), out.to_str().unwrap()]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let (doc, _) = glb(&out);
    let nodes: Vec<_> = doc.nodes().collect();
    assert_eq!(
        nodes.iter().map(|n| n.name().unwrap()).collect::<Vec<_>>(),
        ["piece 0", "piece 1"]
    );
    for n in &nodes {
        let extras: serde_json::Value = serde_json::from_str(n.extras().as_ref().unwrap().get()).unwrap();
        assert_eq!(extras, serde_json::json!({"name": "post", "weight": 2.5}));
    }
}

#[test]
fn invalid_input_writes_nothing_and_says_what_validate_says() {
    let bad = "tests/data/conformance/invalid/geometry_ids_gap.sskb";
    let out = tmp("bad.glb");
    let r = sskb(&["convert", bad, out.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    let v = sskb(&["validate", bad]);
    assert_eq!(String::from_utf8_lossy(&r.stderr), String::from_utf8_lossy(&v.stderr));
    assert!(!out.exists());
    let leftovers: Vec<_> = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let truncated = "tests/data/conformance/invalid/huge_piece_count_r0.sskb";
    let r = sskb(&["convert", truncated, out.to_str().unwrap()]);
    let v = sskb(&["validate", truncated]);
    assert_eq!(String::from_utf8_lossy(&r.stderr), String::from_utf8_lossy(&v.stderr));
    assert!(!out.exists());
}

#[test]
fn empty_geometry_gives_a_glb_without_a_mesh() {
    let src = tmp("flat.ssk");
    std::fs::write(
        &src,
        "pieces:\n- id: 0\n  points: [{x: 0, y: 0, z: 0}]\n  size: {x: 5, y: 0, z: 0}\n  shape: circle\n",
    )
    .unwrap();
    let out = tmp("flat.glb");
    let r = sskb(&["convert", src.to_str().unwrap(), out.to_str().unwrap()]);
    assert!(r.status.success());
    assert!(String::from_utf8_lossy(&r.stderr).contains("the geometry is empty"));
    let (doc, _) = glb(&out);
    assert_eq!(doc.meshes().count(), 0);
    assert_eq!(doc.scenes().count(), 0);
}

#[test]
fn usage_errors() {
    let out = tmp("x.glb");
    let src = example("example_cylinder");
    for args in [
        vec!["convert", "--resolution", "2", &src, out.to_str().unwrap()],
        vec!["convert", "--resolution", "1025", &src, out.to_str().unwrap()],
        vec!["convert", "--per-piece", &src, "y.sskb"],
        vec!["convert", &src, "--to", "gltf", "-"],
    ] {
        let r = sskb(&args);
        assert_eq!(r.status.code(), Some(2), "{args:?}");
        assert!(!r.stderr.is_empty());
    }
    // From standard input to standard output.
    let data = std::fs::read("tests/data/conformance/valid/example_ladder.sskb").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sskb"))
        .args(["convert", "--from", "sskb", "--to", "glb", "-", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), &data).unwrap();
    let r = child.wait_with_output().unwrap();
    assert!(r.status.success());
    let doc = gltf::Gltf::from_slice(&r.stdout).unwrap();
    let (volume, _) = read_back(&doc, doc.blob.as_deref().unwrap());
    assert!((volume - 19_359_500.0).abs() < 1e-4 * 19_359_500.0, "{volume}");
}

/// The same bytes on one thread and on every core: the mesh work spreads
/// over `std::thread::available_parallelism()` threads, which `taskset -c
/// 0` (util-linux, essential in Debian) makes one. Models with folding
/// sweeps (one of a 1,031-gon, rebuilt from coarse sections), copies
/// through `from`, unions, intersections and differences; and a fuzz find
/// whose difference leaves slivers among many shells, so that the solid is
/// made again from the kept shells' triangles (their runs once came in the
/// order of the library's mesh ids, which the threads' race numbers: one
/// thread gave one mesh, two threads either of two).
#[test]
fn one_thread_and_all_cores_write_the_same_bytes() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert!(
        cores >= 2,
        "this test compares 1 thread with several; the machine has {cores} core"
    );
    for (i, model) in [
        "tests/data/mesh/union_blowup_22.json",
        "tests/data/mesh/random_01.sskb",
        "tests/data/mesh/cases/p1000_union_sub8.ssk",
        "tests/data/conformance/ssk/example_csg_cube.ssk",
        "fuzz/regressions/mesh/slow-at-32-790-bytes-73239de5",
        "fuzz/regressions/mesh/slow-2060-sides-1242-bytes-0f731d85",
    ]
    .iter()
    .enumerate()
    {
        let (one, all) = (tmp(&format!("one{i}.glb")), tmp(&format!("all{i}.glb")));
        let n = if model.ends_with("0f731d85") { "3" } else { "8" };
        let args = ["--resolution", n, "--from", "sskb"];
        let args = if model.starts_with("fuzz/") {
            &args[..]
        } else {
            &args[..2]
        };
        let run = Command::new("taskset")
            .args(["-c", "0", env!("CARGO_BIN_EXE_sskb"), "convert", model])
            .arg(&one)
            .args(args)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{model}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        let all_path = all.to_str().unwrap();
        let run = sskb(&[&["convert", model, all_path][..], args].concat());
        assert!(
            run.status.success(),
            "{model}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        let (a, b) = (std::fs::read(&one).unwrap(), std::fs::read(&all).unwrap());
        assert!(a.len() > 1000, "{model}: no mesh");
        assert!(a == b, "{model}: 1 thread and {cores} differ");
    }
}
