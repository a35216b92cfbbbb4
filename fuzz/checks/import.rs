//! The import fuzz target's checks, shared with `tests/fuzz_seeds.rs`.
//!
//! Any bytes, read as glTF, STL and OBJ (the first byte chooses the
//! order): no panic, no allocation beyond what the bytes can fill (the
//! fuzzer's memory limit), an error of a known kind; a mesh that reads is
//! welded (no triangle repeats a vertex, every index in range, every
//! position finite); a small one is fitted, and the model validates.

use sskb::import::{fit, read_mesh, FitOptions, MeshFormat};
use sskb::ErrorKind;

/// Runs every check on `data`; panics on a failure.
pub fn check(data: &[u8]) {
    let formats = [MeshFormat::Gltf, MeshFormat::Stl, MeshFormat::Obj];
    let first = usize::from(data.first().copied().unwrap_or(0) % 3);
    for k in 0..3 {
        let format = formats[(first + k) % 3];
        let mut none = |_: &str| Err(sskb::Error::new(ErrorKind::MeshInput, "no external buffers here"));
        match read_mesh(data, format, &mut none) {
            Ok(m) => {
                let n = m.mesh.positions.len() as u32;
                assert!(!m.mesh.triangles.is_empty());
                for t in &m.mesh.triangles {
                    assert!(t.iter().all(|&i| i < n), "index out of range");
                    assert!(t[0] != t[1] && t[1] != t[2] && t[0] != t[2], "a collapsed triangle");
                }
                assert!(m.mesh.positions.iter().flatten().all(|c| c.is_finite()));
                if k == 0 && m.mesh.triangles.len() <= 64 && plain(&m.mesh) {
                    match fit(
                        &m.mesh,
                        &FitOptions {
                            resolution: 8,
                            samples: 24,
                            ..FitOptions::default()
                        },
                    ) {
                        Ok(f) => {
                            sskb::validate(&f.document).expect("a fitted model validates");
                            assert!((0.0..=100.0).contains(&f.score.coverage), "{:?}", f.score);
                        }
                        Err(e) => assert!(
                            matches!(
                                e.kind(),
                                ErrorKind::MeshInput | ErrorKind::Mesh | ErrorKind::LimitExceeded
                            ),
                            "{e}"
                        ),
                    }
                }
            }
            Err(e) => assert!(
                matches!(
                    e.kind(),
                    ErrorKind::MeshInput
                        | ErrorKind::Truncated
                        | ErrorKind::CountExceedsRemaining
                        | ErrorKind::NonFinite
                ),
                "{format:?}: {e}"
            ),
        }
    }
}

/// Coordinates a model can hold (f32, and sizes the rules allow): the
/// fitter is not asked to draw a part 1e300 mm wide.
fn plain(m: &sskb::mesh::Mesh) -> bool {
    m.positions.iter().flatten().all(|c| c.abs() < 1e6)
        && m.bounds().is_some_and(|(lo, hi)| (0..3).all(|k| hi[k] - lo[k] > 1e-3))
}
