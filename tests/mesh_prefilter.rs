//! The boolean library's prefilters (vendor/manifold-rust, PATCHES.md: the
//! edge-face one of its booleans, the shared-vertex one of its
//! self-intersection scan, the broad phase by parts clipped to the other
//! solid's box, the scan's walk that lists each pair once, and its plane
//! between the longest edges of two thin triangles) skip work,
//! never change a result: every model here
//! meshes to the same bytes with them on and off, and every piece's mesh
//! gets the same self-intersection verdict.
//!
//! One test in its own binary, because the switch is global. Not in the
//! published crate (whose manifold-rust has no switch), so not named in
//! Cargo.toml either: the feature gate is here.
#![cfg(feature = "mesh")]

use std::path::Path;

use manifold_rust::linalg::Vec3;
use manifold_rust::robust::soup::settled_star_count;
use manifold_rust::{
    CLIPPED_BROAD_PHASE, CONE_STARS, EDGE_FACE_PREFILTER, PAIRS_ONCE, SHARED_VERTEX_PREFILTER, SPINE_SEPARATION,
};
use sskb::mesh::{Mesh, Mesher};
use sskb::Document;
use std::sync::atomic::Ordering;

#[allow(dead_code)]
#[path = "../benches/common/grid.rs"]
mod grid;

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn unit(a: [f64; 3]) -> [f64; 3] {
    let n = dot(a, a).sqrt().max(1e-12);
    a.map(|x| x / n)
}

fn mesh(doc: &Document, n: u32) -> Option<Mesh> {
    let mut mesher = Mesher::new(n);
    for p in &doc.pieces {
        mesher.push(p).ok()?;
    }
    mesher.combined().ok()
}

fn files(dir: &Path, ext: Option<&str>) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| ext.is_none_or(|x| p.extension().is_some_and(|e| e == x)))
        .collect();
    v.sort();
    v
}

#[test]
fn the_prefilter_changes_no_result() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cases: Vec<(String, Document, u32)> = Vec::new();
    // The stored random models and the minimal cases where meshes differed.
    for path in files(&root.join("tests/data/mesh"), Some("sskb")) {
        let doc = sskb::decode_slice(&std::fs::read(&path).unwrap()).unwrap();
        for n in [8, 16] {
            cases.push((path.display().to_string(), doc.clone(), n));
        }
    }
    for path in files(&root.join("tests/data/mesh/cases"), Some("ssk")) {
        let doc = sskb::parse_ssk(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for n in [5, 12] {
            cases.push((path.display().to_string(), doc.clone(), n));
        }
    }
    // Every mesh fuzz seed and finding that is a valid document, at the
    // resolution the fuzz target gives it.
    for dir in ["fuzz/seeds/mesh", "fuzz/regressions/mesh"] {
        for path in files(&root.join(dir), None) {
            let data = std::fs::read(&path).unwrap();
            let Ok(doc) = sskb::decode_slice(&data) else { continue };
            if sskb::validate(&doc).is_err() || doc.pieces.len() > 64 {
                continue;
            }
            let n = 3 + u32::from(data.last().copied().unwrap_or(0) % 6);
            cases.push((path.display().to_string(), doc, n));
        }
    }
    // Random grids of overlapping pieces, a fifth subtract or intersect.
    for seed in 0..24 {
        cases.push((format!("grid seed {seed}"), grid::grid_document(2000 + seed, 4, 3), 6));
    }
    // Flat caps of many sides (fans of triangles coplanar to rounding).
    for (shape, n) in [("circle", 256), ("ngon\n  sides: 700", 4)] {
        let text = format!(
            "pieces:\n- id: 0\n  points: [{{x: 0, y: 0, z: 0, curve_out: {{x: 5, y: 0, z: 5}}}}, {{x: 10, y: 3, z: 20}}]\n  size: {{x: 4, y: 3, z: 0}}\n  shape: {shape}\n"
        );
        cases.push((format!("flat-capped {shape}"), sskb::parse_ssk(&text).unwrap(), n));
    }
    // A section far wider than the rest of the model (a plate 1.7 mm thick
    // through pieces of a few millimetres: piece 8 of a fuzz find, its
    // width set from 10 mm to 10 km), and a wide thin ring around small
    // pieces: faces whose boxes reach far out of the others', the
    // clipped broad phase's case.
    let find = root.join("fuzz/regressions/mesh/slow-at-32-932-bytes-01da53eb");
    let wide = sskb::decode_slice(&std::fs::read(find).unwrap()).unwrap();
    for (width, n) in [(10.0f32, 5), (300.0, 4), (10_000.0, 3), (1e7, 3)] {
        let mut doc = wide.clone();
        if let Some(size) = doc.pieces[8].size.as_mut() {
            size.y = width;
        }
        cases.push((format!("wide plate {width} mm"), doc, n));
    }
    for (k, n) in [(0.3f32, 6), (2.0, 8)] {
        let text = format!(
            "pieces:\n- id: 0\n  points: [{{x: -40, y: 0, z: 0, curve_out: {{x: 0, y: {k}, z: 9}}}}, {{x: 40, y: 0, z: 3}}]\n  size: {{x: 900, y: 1.5, z: 0}}\n  rotation: {{x: 0, y: 0, z: 7}}\n  shape: circle\n- id: 1\n  points: [{{x: 0, y: 0, z: -5}}, {{x: 1, y: 0, z: 8}}]\n  size: {{x: 3, y: 3, z: 0}}\n  shape: ngon\n  sides: 5\n- id: 2\n  points: [{{x: 20, y: 2, z: -4}}, {{x: 21, y: -1, z: 9}}]\n  size: {{x: 2, y: 4, z: 0}}\n  shape: circle\n  mode: subtract\n"
        );
        cases.push((format!("wide ring bent {k}"), sskb::parse_ssk(&text).unwrap(), n));
    }
    // Pointed caps of many sides (stars of triangles round an apex off
    // their rim's plane), along a bend that the fewest steps fold.
    for (sides, n, z) in [(3328, 3, 0.35), (700, 5, 2.0), (400, 4, 0.01)] {
        let text = format!(
            "pieces:\n- id: 0\n  points: [{{x: 20, y: 40, z: 0}}, {{x: 19.2, y: 35.6, z: 10.2, curve_in: {{x: 18.5, y: 39.6, z: 7.2}}}}]\n  size: {{x: 2.6, y: 7.6, z: {z}}}\n  rotation: {{x: 0, y: 0, z: 4.75}}\n  shape: ngon\n  sides: {sides}\n"
        );
        cases.push((format!("pointed {sides}-gon"), sskb::parse_ssk(&text).unwrap(), n));
    }
    // Thin sweeps of many sides along bends (long, thin triangles side by
    // side, each crossing the others' planes: the spine separation's
    // case), one with a path that loops back through itself.
    for (sides, n, back, size) in [
        (300, 3, "{x: 1, y: 2, z: 3}", 0.5),
        (120, 8, "{x: 1, y: 2, z: 3}", 2.0),
        (200, 3, "{x: -6, y: 12, z: 3}", 0.6),
        (64, 6, "{x: -6, y: 12, z: 3}", 3.0),
    ] {
        let text = format!(
            "pieces:\n- id: 0\n  points: [{{x: 0.5, y: -2.25, z: 3, curve_out: {{x: 4, y: 5, z: 6}}}}, {{x: 10, y: -2.25, z: 3, curve_in: {back}}}]\n  size: {{x: {size}, y: {h}, z: 0}}\n  shape: ngon\n  sides: {sides}\n",
            h = size / 2.0
        );
        cases.push((
            format!("thin bent {sides}-gon {size} mm"),
            sskb::parse_ssk(&text).unwrap(),
            n,
        ));
    }
    let set = |on: bool| {
        EDGE_FACE_PREFILTER.store(on, Ordering::Relaxed);
        SHARED_VERTEX_PREFILTER.store(on, Ordering::Relaxed);
        CLIPPED_BROAD_PHASE.store(on, Ordering::Relaxed);
        PAIRS_ONCE.store(on, Ordering::Relaxed);
        SPINE_SEPARATION.store(on, Ordering::Relaxed);
        CONE_STARS.store(on, Ordering::Relaxed);
    };
    // A mesh's self-intersection verdict with the prefilters on, then off
    // (left on).
    let on_and_off = |m: &Mesh| {
        let on = sskb::mesh::crosses_itself(m).ok();
        set(false);
        let off = sskb::mesh::crosses_itself(m).ok();
        set(true);
        (on, off)
    };
    let (mut meshed, mut verdicts, mut crossing) = (0, 0, 0);
    for (name, doc, n) in &cases {
        set(true);
        let with = mesh(doc, *n);
        set(false);
        let without = mesh(doc, *n);
        set(true);
        assert!(
            with == without,
            "{name} at resolution {n}: a prefilter changed the mesh"
        );
        meshed += usize::from(with.is_some_and(|m| !m.is_empty()));
        let Ok(resolved) = sskb::resolve(doc) else { continue };
        for p in &resolved.pieces {
            let Ok(Some(m)) = sskb::mesh::tessellate(p, *n) else {
                continue;
            };
            let (on, off) = on_and_off(&m);
            assert_eq!(
                on, off,
                "{name}, piece {}, at resolution {n}: a prefilter changed the verdict",
                p.id
            );
            verdicts += 1;
            crossing += usize::from(on == Some(true));
        }
    }
    println!(
        "{} cases, {meshed} non-empty meshes, {verdicts} self-intersection verdicts ({crossing} crossing), the same with and without",
        cases.len()
    );
    // Two thin tetrahedra close together, in random poses: few enough
    // triangle pairs that one pair decides the verdict, so a prefilter
    // that calls one touching pair apart shows.
    let (mut touching, mut apart) = (0, 0);
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut uniform = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    for trial in 0..4000 {
        let mut m = Mesh::default();
        for k in 0..2 {
            let (len, h) = (10.0, 0.02 + 0.5 * (uniform() + 1.0));
            let axis = unit([uniform(), uniform(), uniform()]);
            let side = unit(cross(axis, [uniform(), uniform(), uniform()]));
            let up = cross(axis, side);
            let at = if k == 0 {
                [0.0; 3]
            } else {
                [uniform(), uniform(), uniform()].map(|x| 1.5 * x)
            };
            let local = [
                [-0.5 * len, 0.0, 0.0],
                [0.5 * len, 0.0, 0.0],
                [len * 0.3 * uniform(), h, 0.0],
                [len * 0.3 * uniform(), 0.0, h],
            ];
            let base = m.positions.len() as u32;
            for l in local {
                m.positions
                    .push([0, 1, 2].map(|c| at[c] + l[0] * axis[c] + l[1] * side[c] + l[2] * up[c]));
            }
            let p = &m.positions[base as usize..];
            let d = |i: usize| [0, 1, 2].map(|c| p[i][c] - p[0][c]);
            let flip = dot(d(1), cross(d(2), d(3))) < 0.0;
            for t in [[0u32, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]] {
                let t = if flip { [t[0], t[2], t[1]] } else { t };
                m.triangles.push(t.map(|i| base + i));
            }
        }
        let (on, off) = on_and_off(&m);
        assert_eq!(
            on, off,
            "thin tetrahedra, trial {trial}: a prefilter changed the verdict"
        );
        match on {
            Some(true) => touching += 1,
            Some(false) => apart += 1,
            None => {}
        }
    }
    println!("thin tetrahedra: {touching} touching, {apart} apart, the same with and without");
    assert!(touching >= 500 && apart >= 500, "{touching} touching, {apart} apart");
    unions_of_hulls_that_share_a_ring(&set, &mut uniform);
    cones(&on_and_off, &mut uniform);
    assert!(meshed >= 100, "only {meshed} non-empty meshes");
    assert!(
        crossing >= 50 && verdicts - crossing >= 50,
        "{crossing} of {verdicts} cross"
    );
}

/// The unions a folding sweep is rebuilt with, in random poses: the convex
/// hulls of two ring pairs that share their middle ring (the same points,
/// so edges and faces meet at shared corners), tilted and turned so that
/// they cross, some rings squashed nearly flat and some far from the
/// origin. The edge-face prefilter settles most of their pairs (its planes
/// and directions computed once per boolean); every union is the same with
/// the prefilters on and off, to the bit.
fn unions_of_hulls_that_share_a_ring(set: &dyn Fn(bool), uniform: &mut dyn FnMut() -> f64) {
    use manifold_rust::linalg::Vec3;
    use manifold_rust::manifold::Manifold;
    use manifold_rust::types::OpType;
    let mut crossed = 0;
    for trial in 0..400 {
        let n = 5 + (trial % 28);
        let far = if trial % 5 == 0 { 1e4 * uniform() } else { 0.0 };
        let (rx, ry) = (1.0 + 4.0 * uniform().abs(), 0.05 + 3.0 * uniform().abs());
        let ring = |at: [f64; 3], axis: [f64; 3], turn: f64| -> Vec<Vec3> {
            let side = unit(cross(axis, [0.3, 0.5, 0.8]));
            let up = cross(axis, side);
            (0..n)
                .map(|k| {
                    let a = turn + std::f64::consts::TAU * k as f64 / n as f64;
                    let (u, v) = (rx * a.cos(), ry * a.sin());
                    let c = [0, 1, 2].map(|i| far + at[i] + u * side[i] + v * up[i]);
                    Vec3::new(c[0], c[1], c[2])
                })
                .collect()
        };
        let step = 0.2 + uniform().abs();
        let axes = [0, 1, 2].map(|_| unit([uniform(), uniform(), 2.0 + uniform()]));
        let rings = [
            ring([0.0, 0.0, -step], axes[0], uniform()),
            ring([0.0, 0.0, 0.0], axes[1], uniform()),
            ring([uniform(), 0.0, step], axes[2], uniform()),
        ];
        let a = Manifold::hull(&[rings[0].clone(), rings[1].clone()].concat());
        let b = Manifold::hull(&[rings[1].clone(), rings[2].clone()].concat());
        let union = || {
            let m = a.boolean(&b, OpType::Add).get_mesh_gl64(-1);
            (m.vert_properties, m.tri_verts)
        };
        set(true);
        let with = union();
        set(false);
        let without = union();
        set(true);
        assert!(
            with == without,
            "hulls sharing a ring, trial {trial} ({n}-gons): a prefilter changed the union"
        );
        // New vertices where the surfaces cross, besides the rings' own.
        crossed += usize::from(with.0.len() / 3 > 3 * n);
    }
    assert!(crossed >= 100, "only {crossed} of 400 unions crossed");
}

/// A mesh's self-intersection verdict with the prefilters on and off.
type Verdicts<'a> = &'a dyn Fn(&Mesh) -> (Option<bool>, Option<bool>);

/// Bipyramids in random poses: two stars of 64 to 263 triangles round
/// apexes on either side of one rim, the rim an ellipse (convex seen from
/// each apex), an ellipse wound round twice (every turn the same way, the
/// triangles overlapping), a star of alternating radii, or a rim
/// zigzagging across one apex's height. The cone-star settling proves
/// only the first kind; every verdict is the same with it on and off, and
/// the second kind crosses itself.
fn cones(on_and_off: Verdicts, uniform: &mut dyn FnMut() -> f64) {
    let mut counts = [[0usize; 2]; 4];
    for trial in 0..400 {
        let kind = trial % 4;
        let k = 64 + ((uniform() + 1.0) * 100.0) as usize;
        let turns = if kind == 1 { 2 } else { 1 };
        let k = if kind == 1 && k % 2 == 0 { k + 1 } else { k };
        let axis = unit([uniform(), uniform(), uniform()]);
        let side = unit(cross(axis, [uniform(), uniform(), uniform()]));
        let up = cross(axis, side);
        let at = [uniform(), uniform(), uniform()].map(|x| 50.0 * x);
        let (a, b) = (3.0 + 2.0 * uniform(), 3.0 + 2.0 * uniform());
        let h = if uniform() > 0.0 {
            0.05 + 4.0 * (uniform() + 1.0)
        } else {
            -(0.05 + 4.0 * (uniform() + 1.0))
        };
        let world = |l: [f64; 3]| [0, 1, 2].map(|c| at[c] + l[0] * axis[c] + l[1] * side[c] + l[2] * up[c]);
        let mut m = Mesh::default();
        let below = if kind == 3 {
            h - h.signum() * (1.0 + 1.5 * (uniform() + 1.0))
        } else {
            -h.signum() * (0.05 + 4.0 * (uniform() + 1.0))
        };
        m.positions.push(world([0.0, 0.0, h]));
        m.positions.push(world([0.0, 0.0, below]));
        for j in 0..k {
            let t = std::f64::consts::TAU * (turns * j) as f64 / k as f64;
            let r = if kind == 2 && j % 2 == 1 { 0.6 } else { 1.0 };
            let z = if kind == 3 {
                if j % 2 == 0 {
                    0.5
                } else {
                    -0.5
                }
            } else {
                0.0
            };
            let z = if kind == 3 { z + h } else { z };
            m.positions.push(world([r * a * t.cos(), r * b * t.sin(), z]));
        }
        let rim = |j: usize| 2 + (j % k) as u32;
        for j in 0..k {
            // Outward for an apex above the base (h > 0); flipped below.
            let (cone, base) = ([0, rim(j), rim(j + 1)], [1, rim(j + 1), rim(j)]);
            if h > 0.0 {
                m.triangles.push(cone);
                m.triangles.push(base);
            } else {
                m.triangles.push([cone[0], cone[2], cone[1]]);
                m.triangles.push([base[0], base[2], base[1]]);
            }
        }
        // The stars settled in one pass: both apexes' of a convex rim,
        // neither of the others.
        let tris: Vec<[Vec3; 3]> = m
            .triangles
            .iter()
            .map(|t| t.map(|i| m.positions[i as usize]).map(|p| Vec3::new(p[0], p[1], p[2])))
            .collect();
        let settled = settled_star_count(&tris);
        CONE_STARS.store(false, Ordering::Relaxed);
        let flat = settled_star_count(&tris);
        CONE_STARS.store(true, Ordering::Relaxed);
        assert_eq!(
            settled - flat,
            if kind == 0 { 2 } else { 0 },
            "cone trial {trial} (kind {kind}): cone stars settled"
        );
        let (on, off) = on_and_off(&m);
        assert_eq!(
            on, off,
            "cone trial {trial} (kind {kind}): a prefilter changed the verdict"
        );
        if let Some(v) = on {
            counts[kind][usize::from(v)] += 1;
        }
    }
    println!(
        "cones [clean, crossing] by kind (convex, twice round, star, zigzag): {counts:?}, the same with and without"
    );
    assert!(counts[0][0] >= 90, "{counts:?}");
    assert!(counts[1][1] >= 90, "{counts:?}");
}
