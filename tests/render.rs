//! Pictures by their properties, not golden files: framing, silhouettes,
//! axes, translation, background and shading.

use sskb::mesh::{Mesh, Mesher};
use sskb::render::{Background, Drawn, Picture, RenderOptions, Scene, View, MARGIN};
use sskb::Mode;

/// A box from `lo` to `hi`, outward triangles.
fn cuboid(lo: [f64; 3], hi: [f64; 3]) -> Mesh {
    let positions = (0..8)
        .map(|k| {
            [
                if k & 1 == 0 { lo[0] } else { hi[0] },
                if k & 2 == 0 { lo[1] } else { hi[1] },
                if k & 4 == 0 { lo[2] } else { hi[2] },
            ]
        })
        .collect();
    let quads = [
        [0, 2, 3, 1],
        [4, 5, 7, 6],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 4, 6, 2],
        [1, 3, 7, 5],
    ];
    let triangles = quads
        .iter()
        .flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]])
        .collect();
    Mesh { positions, triangles }
}

/// A sphere of `r` at the origin: `n` rings of `2n` vertices.
fn sphere(r: f64, n: u32) -> Mesh {
    let mut positions = vec![[0.0, 0.0, r], [0.0, 0.0, -r]];
    for i in 1..n {
        let t = std::f64::consts::PI * f64::from(i) / f64::from(n);
        for j in 0..2 * n {
            let p = std::f64::consts::PI * f64::from(j) / f64::from(n);
            positions.push([r * t.sin() * p.cos(), r * t.sin() * p.sin(), r * t.cos()]);
        }
    }
    let at = |i: u32, j: u32| 2 + (i - 1) * 2 * n + j % (2 * n);
    let mut triangles = Vec::new();
    for j in 0..2 * n {
        triangles.push([0, at(1, j), at(1, j + 1)]);
        triangles.push([1, at(n - 1, j + 1), at(n - 1, j)]);
        for i in 1..n - 1 {
            let (a, b, c, d) = (at(i, j), at(i, j + 1), at(i + 1, j), at(i + 1, j + 1));
            triangles.push([a, c, d]);
            triangles.push([a, d, b]);
        }
    }
    Mesh { positions, triangles }
}

fn scene(meshes: Vec<Mesh>) -> Scene {
    Scene::new(
        meshes
            .into_iter()
            .enumerate()
            .map(|(k, mesh)| Drawn {
                id: k as u32,
                mode: Mode::Add,
                mesh,
            })
            .collect(),
    )
}

fn options(size: u32, view: View) -> RenderOptions {
    RenderOptions {
        size,
        view,
        ..RenderOptions::default()
    }
}

fn drawn(p: &Picture, x: u32, y: u32) -> bool {
    p.pixel(x, y) != [255, 255, 255, 255]
}

#[test]
fn a_unit_cube_from_the_front_fills_the_framed_square() {
    let size = 100;
    let p = scene(vec![cuboid([0.0; 3], [1.0; 3])])
        .render(&options(size, View::Front))
        .unwrap();
    // The square is the picture less the margin: from 5 to 95.
    let (lo, hi) = (f64::from(size) * MARGIN, f64::from(size) * (1.0 - MARGIN));
    for y in 0..size {
        for x in 0..size {
            let inside = |v: u32| f64::from(v) + 0.5 > lo && f64::from(v) + 0.5 < hi;
            let near = |v: u32| (f64::from(v) + 0.5 - lo).abs() < 1.0 || (f64::from(v) + 0.5 - hi).abs() < 1.0;
            if near(x) || near(y) {
                continue;
            }
            assert_eq!(drawn(&p, x, y), inside(x) && inside(y), "pixel ({x}, {y})");
        }
    }
}

#[test]
fn a_sphere_is_a_circle_of_the_expected_radius_on_nothing() {
    let size = 120u32;
    let p = scene(vec![sphere(7.0, 48)])
        .render(&RenderOptions {
            background: Background::Transparent,
            ..options(size, View::Iso)
        })
        .unwrap();
    let radius = f64::from(size) * (1.0 - 2.0 * MARGIN) / 2.0;
    let c = f64::from(size) / 2.0;
    for y in 0..size {
        for x in 0..size {
            let d = ((f64::from(x) + 0.5 - c).powi(2) + (f64::from(y) + 0.5 - c).powi(2)).sqrt();
            let alpha = p.pixel(x, y)[3];
            if d < radius - 1.5 {
                assert_eq!(alpha, 255, "({x}, {y}) at {d:.2}");
            } else if d > radius + 1.0 {
                assert_eq!(p.pixel(x, y), [0; 4], "({x}, {y}) at {d:.2}: transparent outside");
            }
        }
    }
}

#[test]
fn the_top_view_shows_an_l_the_right_way_round() {
    // An L in plan: a bar along +X at the bottom, a bar along +Y at the
    // left. Seen from the top, X is to the right and Y up.
    let l = scene(vec![
        cuboid([0.0, 0.0, 0.0], [10.0, 2.0, 1.0]),
        cuboid([0.0, 0.0, 0.0], [2.0, 10.0, 1.0]),
    ]);
    let p = l.render(&options(100, View::Top)).unwrap();
    assert!(drawn(&p, 10, 90), "bottom left");
    assert!(drawn(&p, 90, 90), "bottom right: the X bar");
    assert!(drawn(&p, 10, 10), "top left: the Y bar");
    assert!(!drawn(&p, 90, 10), "top right is empty");
    assert!(!drawn(&p, 50, 50), "the inside of the L is empty");
    // From the front, the bars stand side by side on the ground: the X
    // bar spans the width, the picture's top (Z = 1, a tenth of the width
    // above) has nothing.
    let p = l.render(&options(100, View::Front)).unwrap();
    assert!(drawn(&p, 50, 50) && !drawn(&p, 50, 20));
    // From the right (+X), Y runs to the right: the Y bar spans it.
    let p = l.render(&options(100, View::Right)).unwrap();
    assert!(drawn(&p, 10, 50) && drawn(&p, 90, 50));
}

#[test]
fn a_model_a_kilometre_away_looks_the_same() {
    // Integer coordinates: exact in the file's f32 at 10^6 mm too.
    let doc = |d: f64| {
        format!(
            "pieces:\n\
             - id: 0\n  points: [{{x: {a}, y: {a}, z: {a}}}, {{x: {b}, y: {a}, z: {c}}}]\n  size: {{x: 4, y: 3, z: 0}}\n  shape: circle\n\
             - id: 1\n  points: [{{x: {a}, y: {b}, z: {a}}}, {{x: {b}, y: {b}, z: {a}}}]\n  size: {{x: 3, y: 3, z: 0}}\n  shape: ngon\n  sides: 5\n\
             - id: 2\n  points: [{{x: {b}, y: {a}, z: {a}}}]\n  size: {{x: 6, y: 6, z: 6}}\n  shape: circle\n  mode: subtract\n",
            a = d,
            b = d + 12.0,
            c = d + 20.0,
        )
    };
    let picture = |d: f64| {
        let doc = sskb::parse_ssk(&doc(d)).unwrap();
        let mut m = Mesher::new(24);
        for p in &doc.pieces {
            m.push(p).unwrap();
        }
        Scene::from_mesher(&m)
            .unwrap()
            .render(&options(128, View::Iso))
            .unwrap()
    };
    let (near, far) = (picture(0.0), picture(1.0e6));
    let differ = near
        .rgba
        .chunks_exact(4)
        .zip(far.rgba.chunks_exact(4))
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 2))
        .count();
    assert!(differ <= 3, "{differ} pixels differ");
    assert!(near.rgba.chunks_exact(4).filter(|p| p != &[255, 255, 255, 255]).count() > 1000);
}

#[test]
fn shading_darkens_with_the_angle_to_the_light() {
    let size = 200u32;
    let p = scene(vec![sphere(1.0, 96)])
        .render(&options(size, View::Front))
        .unwrap();
    // From the front: screen right is X, up is Z, toward the eye is −Y;
    // the light is fixed to the camera.
    let l = {
        let v = [-0.35f64, 0.55, 0.76];
        let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        v.map(|c| c / n)
    };
    let radius = f64::from(size) * (1.0 - 2.0 * MARGIN) / 2.0;
    // Mean brightness by 10° of angle to the light, away from the outline.
    let mut bins = [(0.0f64, 0u32); 9];
    for y in 0..size {
        for x in 0..size {
            let sx = (f64::from(x) + 0.5 - f64::from(size) / 2.0) / radius;
            let sy = -(f64::from(y) + 0.5 - f64::from(size) / 2.0) / radius;
            let r2 = sx * sx + sy * sy;
            if r2 > 0.9 {
                continue;
            }
            let n = [sx, sy, (1.0 - r2).sqrt()];
            let angle = (n[0] * l[0] + n[1] * l[1] + n[2] * l[2])
                .clamp(-1.0, 1.0)
                .acos()
                .to_degrees();
            let k = (angle / 10.0) as usize;
            if k < bins.len() {
                let px = p.pixel(x, y);
                bins[k].0 += f64::from(px[0]) + f64::from(px[1]) + f64::from(px[2]);
                bins[k].1 += 1;
            }
        }
    }
    let means: Vec<f64> = bins.iter().filter(|b| b.1 > 20).map(|b| b.0 / f64::from(b.1)).collect();
    assert!(means.len() >= 5, "{means:?}");
    for w in means.windows(2) {
        assert!(w[1] < w[0], "brightness by angle: {means:?}");
    }
}

#[test]
fn views_agree_with_their_angles() {
    let s = scene(vec![
        cuboid([0.0, 0.0, 0.0], [10.0, 2.0, 1.0]),
        cuboid([0.0, 0.0, 0.0], [2.0, 10.0, 1.0]),
    ]);
    for (named, az, el) in [
        (View::Front, 0.0, 0.0),
        (View::Right, 90.0, 0.0),
        (View::Top, 0.0, 90.0),
        (View::Iso, 45.0, 35.264_389_682_754_654),
    ] {
        let a = s.render(&options(64, named)).unwrap();
        let b = s
            .render(&options(
                64,
                View::Angles {
                    azimuth: az,
                    elevation: el,
                },
            ))
            .unwrap();
        assert_eq!(a, b, "{named}");
    }
}

#[test]
fn a_perspective_shows_the_near_end_larger() {
    // A long bar along Y, in perspective.
    let bar = scene(vec![cuboid([0.0, 0.0, 0.0], [6.0, 40.0, 6.0])]);
    let right = bar
        .render(&RenderOptions {
            perspective: true,
            background: Background::Transparent,
            ..options(128, View::Right)
        })
        .unwrap();
    // From +X, Y runs to the right and both ends are as far: as tall.
    // From azimuth 60 (the eye toward +X and −Y), Y still runs to the
    // right and the −Y end, on the left, is nearer: taller.
    let height = |p: &Picture, x: u32| (0..p.height).filter(|&y| p.pixel(x, y)[3] > 128).count();
    assert_eq!(height(&right, 16), height(&right, 111));
    let turned = bar
        .render(&RenderOptions {
            perspective: true,
            background: Background::Transparent,
            ..options(
                128,
                View::Angles {
                    azimuth: 60.0,
                    elevation: 0.0,
                },
            )
        })
        .unwrap();
    let cols: Vec<u32> = (0..128).filter(|&x| height(&turned, x) > 0).collect();
    let along = |t: f64| cols[(t * (cols.len() - 1) as f64) as usize];
    let (near, far) = (height(&turned, along(0.2)), height(&turned, along(0.8)));
    assert!(
        near as f64 > 1.1 * far as f64,
        "the nearer −Y end is taller: {near} against {far}"
    );
    let flat = bar
        .render(&RenderOptions {
            background: Background::Transparent,
            ..options(
                128,
                View::Angles {
                    azimuth: 60.0,
                    elevation: 0.0,
                },
            )
        })
        .unwrap();
    let cols: Vec<u32> = (0..128).filter(|&x| height(&flat, x) > 0).collect();
    let along = |t: f64| cols[(t * (cols.len() - 1) as f64) as usize];
    assert!(
        height(&flat, along(0.2)).abs_diff(height(&flat, along(0.8))) <= 1,
        "orthographic: as tall"
    );
}
