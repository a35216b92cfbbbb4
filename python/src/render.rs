//! `sskb.render` and `sskb.render_png`: a model (a file or a document)
//! meshed and drawn as `sskb render` draws it.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString, PyTuple};
use sskb::mesh::Mesher;
use sskb::render::{RenderOptions, Scene, View};
use sskb::Document;

use crate::compat::check_resolution;
use crate::errors::{error, IntoPy};

/// A file's path (`str` or `os.PathLike`: `.sskb` or `.ssk`) or a
/// document (a dict), as a document.
fn document(py: Python<'_>, path_or_doc: &Bound<'_, PyAny>) -> PyResult<Document> {
    if path_or_doc.is_instance_of::<pyo3::types::PyDict>() {
        return crate::compat::checked_doc(py, path_or_doc);
    }
    let path: PathBuf = path_or_doc
        .extract()
        .map_err(|_| error("usage", "expected a path (.sskb or .ssk) or a document (a dict)"))?;
    py.detach(|| crate::gltf_convert::read(&path)).py()
}

/// `"iso"`, `"top"`, `"30,20"` or `(30, 20)`.
fn view(v: &Bound<'_, PyAny>) -> PyResult<View> {
    if v.is_instance_of::<PyString>() {
        let s: String = v.extract()?;
        return s.parse().map_err(|e: String| error("usage", &e));
    }
    if v.is_instance_of::<PyTuple>() {
        if let Ok((azimuth, elevation)) = v.extract::<(f64, f64)>() {
            return format!("{azimuth},{elevation}")
                .parse()
                .map_err(|e: String| error("usage", &e));
        }
    }
    Err(error(
        "usage",
        "view: a name (iso, front, back, left, right, top, bottom), \"AZ,EL\" or (azimuth, elevation)",
    ))
}

/// The picture: validated, meshed, drawn.
#[allow(clippy::too_many_arguments)]
fn picture(
    py: Python<'_>,
    path_or_doc: &Bound<'_, PyAny>,
    size: i64,
    v: Option<&Bound<'_, PyAny>>,
    resolution: i64,
    background: &str,
    color_by: &str,
    perspective: bool,
) -> PyResult<sskb::render::Picture> {
    let resolution = check_resolution(resolution)?;
    let size = u32::try_from(size).unwrap_or(0);
    let options = RenderOptions {
        size,
        view: v.map_or(Ok(View::Iso), view)?,
        perspective,
        background: background.parse().map_err(|e: String| error("usage", &e))?,
        color_by: color_by.parse().map_err(|e: String| error("usage", &e))?,
    };
    if !(sskb::render::MIN_SIZE..=sskb::render::MAX_SIZE).contains(&size) {
        // The library's own refusal, before anything is read.
        return Scene::default().render(&options).py();
    }
    let doc = document(py, path_or_doc)?;
    py.detach(|| {
        sskb::validate(&doc)?;
        let mut mesher = Mesher::new(resolution);
        for p in &doc.pieces {
            mesher.push(p)?;
        }
        Scene::from_mesher(&mesher)?.render(&options)
    })
    .py()
}

/// The model drawn as an `(size, size, 4)` uint8 NumPy array, RGBA, rows
/// from the top (what `sskb render` writes as PNG).
#[pyfunction]
#[pyo3(signature = (path_or_doc, *, size = 512, view = None, resolution = 32, background = "white", color_by = "none", perspective = false))]
#[allow(clippy::too_many_arguments)]
pub fn render<'py>(
    py: Python<'py>,
    path_or_doc: &Bound<'py, PyAny>,
    size: i64,
    view: Option<&Bound<'py, PyAny>>,
    resolution: i64,
    background: &str,
    color_by: &str,
    perspective: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let p = picture(
        py,
        path_or_doc,
        size,
        view,
        resolution,
        background,
        color_by,
        perspective,
    )?;
    py.import("numpy")?
        .call_method1("frombuffer", (PyByteArray::new(py, &p.rgba), "u1"))?
        .call_method1("reshape", ((i64::from(p.height), i64::from(p.width), 4i64),))
}

/// The model drawn, as the bytes of a PNG file.
#[pyfunction]
#[pyo3(signature = (path_or_doc, *, size = 512, view = None, resolution = 32, background = "white", color_by = "none", perspective = false))]
#[allow(clippy::too_many_arguments)]
pub fn render_png<'py>(
    py: Python<'py>,
    path_or_doc: &Bound<'py, PyAny>,
    size: i64,
    view: Option<&Bound<'py, PyAny>>,
    resolution: i64,
    background: &str,
    color_by: &str,
    perspective: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let p = picture(
        py,
        path_or_doc,
        size,
        view,
        resolution,
        background,
        color_by,
        perspective,
    )?;
    let png = py.detach(|| p.to_png()).py()?;
    Ok(PyBytes::new(py, &png))
}
