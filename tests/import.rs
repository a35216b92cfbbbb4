//! Meshes into models: reading glTF, STL and OBJ (node transforms, every
//! kind of bad input), the scorer against closed forms, and primitives
//! recovered as one piece each.

use sskb::import::{fit, read_mesh, FitOptions, Inside, MeshFormat, Scorer, SourceMesh};
use sskb::mesh::{Gltf, Mesh, Mesher, SceneNode};
use sskb::{ErrorKind, Mode, Shape};

fn no_files(uri: &str) -> sskb::Result<Vec<u8>> {
    panic!("no external buffer expected, asked for {uri}")
}

fn read(bytes: &[u8], format: MeshFormat) -> sskb::Result<SourceMesh> {
    read_mesh(bytes, format, &mut no_files)
}

fn model_mesh(ssk: &str, resolution: u32) -> Mesh {
    let doc = sskb::parse_ssk(ssk).unwrap();
    let mut m = Mesher::new(resolution);
    for p in &doc.pieces {
        m.push(p).unwrap();
    }
    m.combined().unwrap()
}

fn glb_of(mesh: &Mesh) -> Vec<u8> {
    Gltf::new(&[SceneNode {
        name: "part".into(),
        mesh: mesh.clone(),
        extras: None,
    }])
    .unwrap()
    .to_glb()
    .unwrap()
}

/// A `.glb` of a JSON chunk (padded with spaces) and a binary chunk.
fn glb(json: &str, bin: &[u8]) -> Vec<u8> {
    let mut j = json.as_bytes().to_vec();
    while j.len() % 4 != 0 {
        j.push(b' ');
    }
    let mut b = bin.to_vec();
    while b.len() % 4 != 0 {
        b.push(0);
    }
    let total = 12 + 8 + j.len() + if b.is_empty() { 0 } else { 8 + b.len() };
    let mut out = Vec::new();
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(j.len() as u32).to_le_bytes());
    out.extend_from_slice(&0x4E4F_534Au32.to_le_bytes());
    out.extend_from_slice(&j);
    if !b.is_empty() {
        out.extend_from_slice(&(b.len() as u32).to_le_bytes());
        out.extend_from_slice(&0x004E_4942u32.to_le_bytes());
        out.extend_from_slice(&b);
    }
    out
}

/// One triangle (0,0,0), (1,0,0), (0,1,0) in metres, with indices, and
/// the JSON around it; `node` is the scene's one node's transform fields.
fn triangle_glb(node: &str, count: u64, indices: [u16; 3]) -> Vec<u8> {
    let mut bin = Vec::new();
    for p in [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]] {
        for c in p {
            bin.extend_from_slice(&c.to_le_bytes());
        }
    }
    for i in indices {
        bin.extend_from_slice(&i.to_le_bytes());
    }
    bin.extend_from_slice(&[0, 0]);
    let json = format!(
        r#"{{"asset":{{"version":"2.0"}},"scene":0,"scenes":[{{"nodes":[0]}}],
        "nodes":[{{"mesh":0{node}}}],
        "meshes":[{{"primitives":[{{"attributes":{{"POSITION":0}},"indices":1}}]}}],
        "accessors":[{{"bufferView":0,"componentType":5126,"count":{count},"type":"VEC3"}},
                     {{"bufferView":1,"componentType":5123,"count":3,"type":"SCALAR"}}],
        "bufferViews":[{{"buffer":0,"byteOffset":0,"byteLength":36}},{{"buffer":0,"byteOffset":36,"byteLength":6}}],
        "buffers":[{{"byteLength":44}}]}}"#
    );
    glb(&json, &bin)
}

#[test]
fn gltf_metres_y_up_become_millimetres_z_up_through_node_transforms() {
    let plain = read(&triangle_glb("", 3, [0, 1, 2]), MeshFormat::Gltf).unwrap();
    let mut p = plain.mesh.positions.clone();
    p.sort_by(|a, b| a.partial_cmp(b).unwrap());
    // (x, y, z) metres → (x, −z, y) millimetres.
    assert_eq!(p, vec![[0.0, 0.0, 0.0], [0.0, 0.0, 1000.0], [1000.0, 0.0, 0.0]]);
    // Translated by (1, 2, 3) m, scaled by 2, turned 90° about +Y
    // (x → −z, z → x): (1, 0, 0) goes to (1, 2, 3) + 2·(0, 0, −1) = (1, 2, 1).
    let s = std::f32::consts::FRAC_1_SQRT_2;
    let node = format!(r#","translation":[1,2,3],"scale":[2,2,2],"rotation":[0,{s},0,{s}]"#);
    let moved = read(&triangle_glb(&node, 3, [0, 1, 2]), MeshFormat::Gltf).unwrap();
    let want =
        [[1.0, 2.0, 3.0], [1.0, 2.0, 1.0], [1.0, 4.0, 3.0]].map(|[x, y, z]| [x * 1000.0, -z * 1000.0, y * 1000.0]);
    for (got, want) in moved.mesh.positions.iter().zip(want) {
        for c in 0..3 {
            assert!((got[c] - want[c]).abs() < 1e-3, "{got:?} {want:?}");
        }
    }
}

#[test]
fn a_mirroring_node_keeps_the_triangles_facing_out() {
    let cube = model_mesh(
        "version: \"1.0\"\npieces:\n  - id: 0\n    points: [{x: 0, y: 0, z: 0}, {x: 0, y: 0, z: 10}]\n    size: {x: 5, y: 5, z: 0}\n    shape: ngon\n    sides: 4\n",
        8,
    );
    let v = cube.volume();
    let bytes = glb_of(&cube);
    // Rewrite the node to mirror x: the same JSON with a matrix added.
    let json_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let json = std::str::from_utf8(&bytes[20..20 + json_len]).unwrap().trim_end();
    let mirrored = json.replacen(
        r#""mesh":0"#,
        r#""mesh":0,"matrix":[-1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]"#,
        1,
    );
    assert_ne!(mirrored, json);
    let bin_len = u32::from_le_bytes(bytes[20 + json_len..24 + json_len].try_into().unwrap()) as usize;
    let bin = &bytes[28 + json_len..28 + json_len + bin_len];
    let m = read(&glb(&mirrored, bin), MeshFormat::Gltf).unwrap();
    assert!((m.mesh.volume() - v).abs() < 1e-6 * v, "{} {v}", m.mesh.volume());
}

#[test]
fn bad_meshes_get_clear_errors() {
    let kind = |bytes: &[u8], format| read(bytes, format).err().map(|e| (e.kind(), e.to_string()));
    // Empty files.
    for f in [MeshFormat::Gltf, MeshFormat::Stl, MeshFormat::Obj] {
        let (k, m) = kind(b"", f).unwrap();
        assert!(matches!(k, ErrorKind::MeshInput | ErrorKind::Truncated), "{f:?}: {m}");
    }
    // No triangles.
    let (k, m) = kind(b"v 0 0 0\nv 1 0 0\n", MeshFormat::Obj).unwrap();
    assert_eq!(k, ErrorKind::MeshInput, "{m}");
    assert!(m.contains("no triangles"), "{m}");
    // NaN positions.
    let (k, m) = kind(b"v 0 0 nan\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", MeshFormat::Obj).unwrap();
    assert_eq!(k, ErrorKind::NonFinite, "{m}");
    assert!(m.contains("line 1"), "{m}");
    // An index out of range, in OBJ and in glTF.
    let (k, m) = kind(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", MeshFormat::Obj).unwrap();
    assert_eq!(k, ErrorKind::MeshInput);
    assert!(m.contains("line 4") && m.contains("out of range"), "{m}");
    let (k, m) = kind(&triangle_glb("", 3, [0, 1, 7]), MeshFormat::Gltf).unwrap();
    assert_eq!(k, ErrorKind::MeshInput);
    assert!(
        m.contains("index 7 is out of range") && m.contains("meshes[0].primitives[0]"),
        "{m}"
    );
    // A buffer shorter than the file says.
    let mut short = triangle_glb("", 3, [0, 1, 2]);
    short.truncate(short.len() - 8);
    let (k, m) = kind(&short, MeshFormat::Gltf).unwrap();
    assert_eq!(k, ErrorKind::Truncated, "{m}");
    // A 1 GB accessor claim in a tiny file: refused before allocating.
    let (k, m) = kind(&triangle_glb("", 1 << 30, [0, 1, 2]), MeshFormat::Gltf).unwrap();
    assert_eq!(k, ErrorKind::CountExceedsRemaining, "{m}");
    assert!(m.contains("accessors[0]"), "{m}");
    // A binary STL whose count claims 4 billion triangles.
    let mut stl = vec![0u8; 84];
    stl[80..84].copy_from_slice(&u32::MAX.to_le_bytes());
    let (k, _) = kind(&stl, MeshFormat::Stl).unwrap();
    assert_eq!(k, ErrorKind::CountExceedsRemaining);
    // Compressed meshes.
    let draco = glb(
        r#"{"asset":{"version":"2.0"},"extensionsRequired":["KHR_draco_mesh_compression"],"extensionsUsed":["KHR_draco_mesh_compression"]}"#,
        &[],
    );
    let (k, m) = kind(&draco, MeshFormat::Gltf).unwrap();
    assert_eq!(k, ErrorKind::MeshInput);
    assert!(m.contains("KHR_draco_mesh_compression"), "{m}");
    // Not JSON, and a node tree with a cycle.
    assert_eq!(kind(b"{not json", MeshFormat::Gltf).unwrap().0, ErrorKind::MeshInput);
    let cycle = r#"{"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"nodes":[{"children":[1]},{"children":[0]}]}"#;
    let (k, m) = kind(cycle.as_bytes(), MeshFormat::Gltf).unwrap();
    assert_eq!(k, ErrorKind::MeshInput);
    assert!(m.contains("cycle"), "{m}");
}

#[test]
fn points_and_lines_are_noted_and_ignored() {
    let obj = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nl 1 2\np 3\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
    let m = read(obj, MeshFormat::Obj).unwrap();
    assert_eq!(m.mesh.triangles.len(), 4);
    assert_eq!(m.notes.len(), 2, "{:?}", m.notes);
}

#[test]
fn stl_binary_and_ascii_and_obj_read_the_same_tetrahedron() {
    // A tetrahedron facing out, in millimetres Z up.
    let p = [[0.0f32, 0.0, 0.0], [10.0, 0.0, 0.0], [0.0, 10.0, 0.0], [0.0, 0.0, 10.0]];
    let faces = [[0usize, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
    let mut bin = vec![0u8; 80];
    bin.extend_from_slice(&4u32.to_le_bytes());
    let mut ascii = String::from("solid t\n");
    for f in faces {
        bin.extend_from_slice(&[0u8; 12]);
        ascii.push_str("facet normal 0 0 0\nouter loop\n");
        for &i in &f {
            for c in p[i] {
                bin.extend_from_slice(&c.to_le_bytes());
            }
            ascii.push_str(&format!("vertex {} {} {}\n", p[i][0], p[i][1], p[i][2]));
        }
        bin.extend_from_slice(&[0, 0]);
        ascii.push_str("endloop\nendfacet\n");
    }
    ascii.push_str("endsolid t\n");
    let a = read(&bin, MeshFormat::Stl).unwrap();
    let b = read(ascii.as_bytes(), MeshFormat::Stl).unwrap();
    let want = 1000.0 / 6.0;
    assert_eq!(a.mesh.positions.len(), 4);
    assert!((a.mesh.volume() - want).abs() < 1e-9);
    assert!((b.mesh.volume() - want).abs() < 1e-9);
    // OBJ in metres Y up, negative indices counting back.
    let obj = "v 0 0 0\nv 0.01 0 0\nv 0 0 -0.01\nv 0 0.01 0\nf -4 -2 -3\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
    let c = read(obj.as_bytes(), MeshFormat::Obj).unwrap();
    assert!((c.mesh.volume() - want).abs() < 1e-9, "{}", c.mesh.volume());
}

#[test]
fn the_scorer_matches_closed_forms() {
    // A sphere of radius 10 at resolution 256 against the cube around it:
    // the sphere covers π/6 of the cube.
    let sphere = model_mesh(
        "version: \"1.0\"\npieces:\n  - id: 0\n    points: [{x: 0, y: 0, z: 0}]\n    size: {x: 10, y: 10, z: 10}\n    shape: circle\n",
        256,
    );
    let cube = model_mesh(
        "version: \"1.0\"\npieces:\n  - id: 0\n    points: [{x: 0, y: 0, z: -10}, {x: 0, y: 0, z: 10}]\n    size: {x: 14.1421356, y: 14.1421356, z: 0}\n    rotation: {x: 0, y: 0, z: 45}\n    shape: ngon\n    sides: 4\n",
        8,
    );
    let s = Scorer::new(&sphere, 160).score(&cube);
    assert!((s.coverage - 100.0).abs() < 1e-9, "{s:?}");
    let frac = std::f64::consts::PI / 6.0;
    assert!((s.overfill - 100.0 * (1.0 - frac)).abs() < 0.5, "{s:?}");
    let back = Scorer::new(&cube, 160).score(&sphere);
    assert!((back.coverage - 100.0 * frac).abs() < 0.5, "{back:?}");
    assert!(back.overfill < 1e-9, "{back:?}");
    // Inside, one point at a time, agrees with the columns.
    let inside = Inside::new(&sphere);
    assert!(inside.contains([0.1, 0.2, 9.0]) && !inside.contains([7.5, 7.5, 0.0]));
}

#[test]
fn an_open_mesh_is_read_by_the_space_it_encloses() {
    // A box of side 20 with its top missing: still mostly inside.
    let cube = model_mesh(
        "version: \"1.0\"\npieces:\n  - id: 0\n    points: [{x: 0, y: 0, z: -10}, {x: 0, y: 0, z: 10}]\n    size: {x: 14.1421356, y: 14.1421356, z: 0}\n    rotation: {x: 0, y: 0, z: 45}\n    shape: ngon\n    sides: 4\n",
        8,
    );
    let mut open = cube.clone();
    open.triangles
        .retain(|t| !t.iter().all(|&i| open.positions[i as usize][2] > 9.99));
    assert!(open.triangles.len() < cube.triangles.len());
    assert!(!open.is_closed() && cube.is_closed());
    let s = Scorer::new(&open, 64).score(&cube);
    assert!(s.coverage > 99.9 && s.overfill < 0.1, "{s:?}");
}

/// Primitives in rotated poses come back as one piece each, sizes within 2%.
/// Asserts a fitted piece's sizes are within 2% of `want`, in any order
/// (a fit's axes need not be the model's).
fn assert_sizes_near(name: &str, got: sskb::Vec3, want: [f64; 3]) {
    let mut got = [got.x, got.y, got.z].map(f64::from);
    let mut want = want;
    got.sort_by(f64::total_cmp);
    want.sort_by(f64::total_cmp);
    for (g, w) in got.iter().zip(want) {
        assert!(
            (g - w).abs() <= 0.02 * w.max(1e-9),
            "{name}: size {got:?}, want {want:?}"
        );
    }
}

#[test]
fn primitives_come_back_as_one_piece_each() {
    let cases: [(&str, &str, Shape, [f64; 3]); 6] = [
        ("sphere", "points: [{x: 10, y: 20, z: 30}]\n    size: {x: 15, y: 15, z: 15}\n    shape: circle", Shape::Circle, [15.0, 15.0, 15.0]),
        (
            "ellipsoid",
            "points: [{x: 0, y: 0, z: 0}]\n    size: {x: 20, y: 12, z: 6}\n    rotation: {x: 30, y: -20, z: 50}\n    shape: circle",
            Shape::Circle,
            [20.0, 12.0, 6.0],
        ),
        ("cylinder", "points: [{x: 0, y: 0, z: 0}, {x: 0, y: 0, z: 60}]\n    size: {x: 8, y: 8, z: 0}\n    shape: circle", Shape::Circle, [8.0, 8.0, 0.0]),
        (
            "tilted cylinder",
            "points: [{x: 5, y: 5, z: 5}, {x: 45, y: 35, z: 55}]\n    size: {x: 8, y: 8, z: 0}\n    shape: circle",
            Shape::Circle,
            [8.0, 8.0, 0.0],
        ),
        (
            "capsule",
            "points: [{x: 0, y: 0, z: 0}, {x: 30, y: -20, z: 10}]\n    size: {x: 6, y: 6, z: 6}\n    shape: circle",
            Shape::Circle,
            [6.0, 6.0, 6.0],
        ),
        (
            "square box",
            "points: [{x: 0, y: 0, z: 0}, {x: 20, y: 30, z: 40}]\n    size: {x: 10, y: 10, z: 0}\n    rotation: {x: 10, y: 20, z: 30}\n    shape: ngon\n    sides: 4",
            Shape::Ngon,
            [10.0, 10.0, 0.0],
        ),
    ];
    for (name, body, shape, size) in cases {
        let mesh = model_mesh(&format!("version: \"1.0\"\npieces:\n  - id: 0\n    {body}\n"), 64);
        let source = read(&glb_of(&mesh), MeshFormat::Gltf).unwrap();
        let f = fit(&source.mesh, &FitOptions::default()).unwrap();
        assert_eq!(f.pieces, 1, "{name}: {:?}", f.document);
        let p = &f.document.pieces[0];
        assert_eq!(p.shape, Some(shape), "{name}");
        assert_sizes_near(name, p.size.unwrap(), size);
        // Scored as meshed finely (the fit scores at 16, as the reference
        // does, where a sphere is a polyhedron 6% short of it).
        let fine = model_mesh(&sskb::to_ssk(&f.document).unwrap(), 64);
        let s = Scorer::new(&source.mesh, 128).score(&fine);
        assert!(s.coverage > 97.0 && s.overfill < 3.0, "{name}: {s:?}");
    }
}

#[test]
fn parts_cut_flat_come_back_as_the_primitive_and_a_prism() {
    // A tilted ellipsoid halved across its short axis, a rod halved along
    // its axis (both found by mirroring the part across its flat face), and
    // a rod with a shallow flat (found by the quadric through its curved
    // surface): each an intersect pair of a square prism and the whole
    // primitive.
    let cases: [(&str, &str, [f64; 3]); 3] = [
        (
            "dome",
            "  - id: 0\n    points: [{x: 0, y: 0, z: 0}]\n    size: {x: 20, y: 14, z: 9}\n    rotation: {x: 25, y: -15, z: 40}\n    shape: circle\n    mode: intersect\n    affects: [1]\n  - id: 1\n    points: [{x: 0, y: 0, z: 0}, {x: 2.7589, y: -14.2357, z: 26.2628}]\n    size: {x: 40, y: 40, z: 0}\n    rotation: {x: 25, y: -15, z: 40}\n    shape: ngon\n    sides: 4\n    mode: intersect\n    affects: [0]\n",
            [20.0, 14.0, 9.0],
        ),
        (
            "half rod",
            "  - id: 0\n    points: [{x: 0, y: 0, z: 0}, {x: 10, y: 30, z: 40}]\n    size: {x: 8, y: 8, z: 0}\n    shape: circle\n    mode: intersect\n    affects: [1]\n  - id: 1\n    points: [{x: 11.767, y: 8.188, z: -9.0827}, {x: 21.767, y: 38.188, z: 30.9173}]\n    size: {x: 24, y: 24, z: 0}\n    shape: ngon\n    sides: 4\n    mode: intersect\n    affects: [0]\n",
            [8.0, 8.0, 0.0],
        ),
        (
            "D-shaped rod",
            "  - id: 0\n    points: [{x: 0, y: 0, z: 0}, {x: 15.1409, y: -17.6388, z: 32.5519}]\n    size: {x: 8, y: 8, z: 0}\n    rotation: {x: 30, y: 20, z: 10}\n    shape: circle\n    mode: intersect\n    affects: [1]\n  - id: 1\n    points: [{x: 3.3356, y: 3.6972, z: 0.4519}, {x: 18.4765, y: -13.9415, z: 33.0038}]\n    size: {x: 12, y: 12, z: 0}\n    rotation: {x: 30, y: 20, z: 10}\n    shape: ngon\n    sides: 4\n    mode: intersect\n    affects: [0]\n",
            [8.0, 8.0, 0.0],
        ),
    ];
    for (name, pieces, size) in cases {
        let mesh = model_mesh(&format!("version: \"1.0\"\npieces:\n{pieces}"), 64);
        let f = fit(&mesh, &FitOptions::default()).unwrap();
        assert_eq!(f.pieces, 2, "{name}: {:?}", f.document);
        let (p, q) = (&f.document.pieces[0], &f.document.pieces[1]);
        assert_eq!(
            (p.shape, q.shape, q.sides),
            (Some(Shape::Circle), Some(Shape::Ngon), Some(4)),
            "{name}"
        );
        assert_eq!(
            (p.affects.as_deref(), q.affects.as_deref()),
            (Some(&[1][..]), Some(&[0][..])),
            "{name}"
        );
        assert_sizes_near(name, p.size.unwrap(), size);
        let fine = model_mesh(&sskb::to_ssk(&f.document).unwrap(), 64);
        let s = Scorer::new(&mesh, 128).score(&fine);
        assert!(s.coverage > 98.0 && s.overfill < 2.0, "{name}: {s:?}");
    }
}

#[test]
fn a_part_where_two_round_solids_meet_comes_back_as_the_pair() {
    // A tilted ellipsoid cut by a cylinder through its side: the surface
    // creases where they meet, and the quadric through each smooth patch
    // is the ellipsoid and the cylinder.
    let pieces = "  - id: 0\n    points: [{x: 0, y: 0, z: 0}]\n    size: {x: 20, y: 12, z: 9}\n    rotation: {x: 25, y: -15, z: 40}\n    shape: circle\n    mode: intersect\n    affects: [1]\n  - id: 1\n    points: [{x: 8, y: 0, z: -15}, {x: 8, y: 0, z: 15}]\n    size: {x: 10, y: 10, z: 0}\n    shape: circle\n    mode: intersect\n    affects: [0]\n";
    let mesh = model_mesh(&format!("version: \"1.0\"\npieces:\n{pieces}"), 64);
    let f = fit(&mesh, &FitOptions::default()).unwrap();
    assert_eq!(f.pieces, 2, "{:?}", f.document);
    let (p, q) = (&f.document.pieces[0], &f.document.pieces[1]);
    assert_eq!((p.shape, q.shape), (Some(Shape::Circle), Some(Shape::Circle)));
    assert_eq!((p.mode, q.mode), (Some(Mode::Intersect), Some(Mode::Intersect)));
    assert_eq!(
        (p.affects.as_deref(), q.affects.as_deref()),
        (Some(&[1][..]), Some(&[0][..]))
    );
    // The ellipsoid (one point) and the cylinder (two), in either order.
    let (ellipsoid, cylinder) = if p.points.as_ref().map_or(0, Vec::len) == 1 {
        (p, q)
    } else {
        (q, p)
    };
    assert_sizes_near("ellipsoid", ellipsoid.size.unwrap(), [20.0, 12.0, 9.0]);
    assert_sizes_near("cylinder", cylinder.size.unwrap(), [10.0, 10.0, 0.0]);
    let fine = model_mesh(&sskb::to_ssk(&f.document).unwrap(), 64);
    let s = Scorer::new(&mesh, 128).score(&fine);
    assert!(s.coverage > 98.0 && s.overfill < 2.0, "{s:?}");
}

#[test]
fn a_rectangular_box_in_any_pose_is_two_intersected_squares() {
    let mesh = model_mesh(
        "version: \"1.0\"\npieces:\n  - id: 0\n    points: [{x: 0, y: 0, z: 0}, {x: 0, y: 0, z: 50}]\n    size: {x: 14.142136, y: 14.142136, z: 0}\n    rotation: {x: 0, y: 0, z: 45}\n    shape: ngon\n    sides: 4\n    mode: intersect\n    affects: [1]\n  - id: 1\n    points: [{x: 0, y: 12, z: 0}, {x: 0, y: 12, z: 50}]\n    size: {x: 14.142136, y: 14.142136, z: 0}\n    rotation: {x: 0, y: 0, z: 45}\n    shape: ngon\n    sides: 4\n    mode: intersect\n    affects: [0]\n",
        8,
    );
    let v = mesh.volume();
    assert!((v - 50.0 * 20.0 * 8.0).abs() < 1e-6 * v, "{v}");
    let f = fit(&mesh, &FitOptions::default()).unwrap();
    assert_eq!(f.pieces, 2);
    assert!(f.score.coverage > 99.0 && f.score.overfill < 1.0, "{:?}", f.score);
}

#[test]
fn a_mesh_of_more_triangles_than_the_budget_is_fitted_simplified_and_scored_as_given() {
    // A tilted capsule meshed at 128: about 33,000 triangles, fitted as
    // one of at most 3,000.
    let body = "points: [{x: 0, y: 0, z: 0}, {x: 30, y: -20, z: 10}]\n    size: {x: 6, y: 6, z: 6}\n    shape: circle";
    let mesh = model_mesh(&format!("version: \"1.0\"\npieces:\n  - id: 0\n    {body}\n"), 128);
    assert!(mesh.triangles.len() > 20_000, "{}", mesh.triangles.len());
    let small = FitOptions {
        max_triangles: 3_000,
        ..FitOptions::default()
    };
    let f = fit(&mesh, &small).unwrap();
    assert_eq!(f.pieces, 1, "{:?}", f.document);
    let p = &f.document.pieces[0];
    let size = p.size.unwrap();
    for s in [size.x, size.y, size.z] {
        assert!((f64::from(s) - 6.0).abs() <= 0.02 * 6.0, "size {size:?}");
    }
    // The printed score is counted against the mesh as given: the same
    // as scoring the fitted model against it afresh.
    let model = model_mesh(&sskb::to_ssk(&f.document).unwrap(), 16);
    let again = Scorer::new(&mesh, FitOptions::default().samples).score(&model);
    assert_eq!((f.score.coverage, f.score.overfill), (again.coverage, again.overfill));
    assert!(f.score.coverage > 95.0 && f.score.overfill < 3.0, "{:?}", f.score);
    // The same bytes every run.
    let g = fit(&mesh, &small).unwrap();
    assert_eq!(sskb::to_ssk(&f.document).unwrap(), sskb::to_ssk(&g.document).unwrap());
}
