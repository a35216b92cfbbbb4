//! `import_gltf_to_ssk` and the scorer behind `ImportResult.score_document`:
//! a mesh file fitted with pieces (`sskb::import`).

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use sskb::import::{fit, read_mesh_file, score_model, FitOptions, Weights};
use sskb::mesh::Mesh;

use crate::compat::{check_resolution, checked_doc};
use crate::errors::{error, IntoPy};
use crate::topy::Keys;

fn options(
    expected: Option<i64>,
    max_pieces: Option<i64>,
    resolution: i64,
    weights: (f64, f64, f64),
) -> PyResult<FitOptions> {
    let count = |v: Option<i64>, what: &str| -> PyResult<Option<usize>> {
        match v {
            None => Ok(None),
            Some(n) if n >= 1 => Ok(Some(n as usize)),
            Some(n) => Err(error("usage", &format!("{what} must be at least 1, not {n}"))),
        }
    };
    for (w, what) in [
        (weights.0, "infill_weight"),
        (weights.1, "outfill_weight"),
        (weights.2, "complexity_weight"),
    ] {
        if !(w.is_finite() && w >= 0.0) {
            return Err(error(
                "usage",
                &format!("{what} must be a finite number, at least 0, not {w}"),
            ));
        }
    }
    Ok(FitOptions {
        resolution: check_resolution(resolution)?,
        expected_pieces: count(expected, "expected_piece_count")?,
        max_pieces: count(max_pieces, "max_pieces")?,
        weights: Weights {
            infill: weights.0,
            outfill: weights.1,
            complexity: weights.2,
        },
        ..FitOptions::default()
    })
}

fn arrays<'py>(py: Python<'py>, mesh: &Mesh) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let np = py.import("numpy")?;
    let mut v = Vec::with_capacity(mesh.positions.len() * 24);
    for p in &mesh.positions {
        for c in p {
            v.extend_from_slice(&c.to_le_bytes());
        }
    }
    let mut f = Vec::with_capacity(mesh.triangles.len() * 12);
    for t in &mesh.triangles {
        for i in t {
            let i = i32::try_from(*i).map_err(|_| error("mesh_input", "more than 2^31 vertices"))?;
            f.extend_from_slice(&i.to_le_bytes());
        }
    }
    let array = |bytes: Vec<u8>, dtype: &str| -> PyResult<Bound<'py, PyAny>> {
        np.call_method1("frombuffer", (pyo3::types::PyByteArray::new(py, &bytes), dtype))?
            .call_method1("reshape", ((-1i64, 3i64),))?
            .call_method0("copy")
    };
    Ok((array(v, "<f8")?, array(f, "<i4")?))
}

/// Reads a mesh file (`.glb`, `.gltf`, `.stl`, `.obj`) and fits a model to
/// it: a dict of the document, coverage, overfill, score and the source's
/// vertices (millimetres, Z up) and faces, for `ImportResult`.
#[pyfunction]
#[pyo3(signature = (path, *, expected_piece_count, max_pieces, resolution, infill_weight, outfill_weight, complexity_weight))]
#[allow(clippy::too_many_arguments)]
pub fn _import_mesh<'py>(
    py: Python<'py>,
    path: PathBuf,
    expected_piece_count: Option<i64>,
    max_pieces: Option<i64>,
    resolution: i64,
    infill_weight: f64,
    outfill_weight: f64,
    complexity_weight: f64,
) -> PyResult<Bound<'py, PyDict>> {
    let o = options(
        expected_piece_count,
        max_pieces,
        resolution,
        (infill_weight, outfill_weight, complexity_weight),
    )?;
    let (source, fitted) = py
        .detach(|| {
            let source = read_mesh_file(&path)?;
            let fitted = fit(&source.mesh, &o)?;
            Ok::<_, sskb::Error>((source, fitted))
        })
        .py()?;
    let d = PyDict::new(py);
    d.set_item("document", Keys::new(py).document(&fitted.document)?)?;
    d.set_item("coverage_percent", round3(fitted.score.coverage))?;
    d.set_item("overfill_percent", round3(fitted.score.overfill))?;
    d.set_item("score", fitted.quality)?;
    let (v, f) = arrays(py, &source.mesh)?;
    d.set_item("source_vertices", v)?;
    d.set_item("source_faces", f)?;
    d.set_item("notes", source.notes)?;
    Ok(d)
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// `(coverage_percent, overfill_percent, score)` of `doc` against a mesh
/// given as vertices (millimetres, Z up) and faces.
#[pyfunction]
#[pyo3(signature = (doc, vertices, faces, *, expected_piece_count, resolution, infill_weight, outfill_weight, complexity_weight))]
#[allow(clippy::too_many_arguments)]
pub fn _score_document<'py>(
    py: Python<'py>,
    doc: &Bound<'py, PyAny>,
    vertices: &Bound<'py, PyAny>,
    faces: &Bound<'py, PyAny>,
    expected_piece_count: Option<i64>,
    resolution: i64,
    infill_weight: f64,
    outfill_weight: f64,
    complexity_weight: f64,
) -> PyResult<Bound<'py, PyTuple>> {
    let o = options(
        expected_piece_count,
        None,
        resolution,
        (infill_weight, outfill_weight, complexity_weight),
    )?;
    let d = checked_doc(py, doc)?;
    let positions: Vec<[f64; 3]> = vertices.call_method0("tolist")?.extract()?;
    let tris: Vec<[i64; 3]> = faces.call_method0("tolist")?.extract()?;
    let n = positions.len() as i64;
    let mut triangles = Vec::with_capacity(tris.len());
    for (k, t) in tris.iter().enumerate() {
        if t.iter().any(|&i| i < 0 || i >= n) {
            return Err(error(
                "usage",
                &format!("faces[{k}] names a vertex out of range (0..{n})"),
            ));
        }
        triangles.push(t.map(|i| i as u32));
    }
    if positions.iter().flatten().any(|c| !c.is_finite()) {
        return Err(error("non_finite", "a vertex that is not finite"));
    }
    let mesh = Mesh { positions, triangles };
    let (s, q) = py
        .detach(|| {
            sskb::validate(&d)?;
            score_model(&mesh, &d, &o)
        })
        .py()?;
    PyTuple::new(py, [round3(s.coverage), round3(s.overfill), q])
}
