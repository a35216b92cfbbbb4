//! The native part of the Python module `sskb` (`sskb._sskb`): a drop-in
//! for the reference's `ssklib` (`parse_sskb`, `parse_ssk`, `load`,
//! `validate_document`, `write_sskb`, `write_ssk`) on the Rust decoder, plus
//! streaming (`iter_pieces`, `validate`). Built on the library's public API
//! only. Decoding runs with the GIL released.

#![forbid(unsafe_code)]

mod arrays;
mod compat;
mod errors;
mod frompy;
mod gltf_convert;
mod import;
mod render;
mod stream;
mod topy;
mod writer;

use std::io::Read;
use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};
use sskb::{DecodeOptions, Document};

use crate::errors::{error, IntoPy};
use crate::stream::PieceIter;
use crate::topy::Keys;

/// Bytes-like `data` as bytes (`bytes` as is; `bytearray`, `memoryview` and
/// the like copied once).
fn as_bytes<'py>(data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    if let Ok(b) = data.cast::<PyBytes>() {
        return Ok(b.clone());
    }
    if data.is_instance_of::<PyString>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "parse_sskb expects bytes; use parse_ssk for .ssk text",
        ));
    }
    Ok(data.py().get_type::<PyBytes>().call1((data,))?.cast_into::<PyBytes>()?)
}

fn decode_to_dict<'py>(py: Python<'py>, data: &[u8]) -> PyResult<Bound<'py, PyDict>> {
    let doc = py.detach(|| sskb::decode_slice(data)).py()?;
    Keys::new(py).document(&doc)
}

/// Decodes `.sskb` bytes into the dict `ssklib.parse_sskb` returns.
#[pyfunction]
fn parse_sskb<'py>(py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    let bytes = as_bytes(data)?;
    decode_to_dict(py, bytes.as_bytes())
}

/// Reads `.ssk` text into the dict `ssklib.parse_ssk` returns: the YAML as
/// written (integers stay integers, `version` kept), checked under the
/// format's rules.
#[pyfunction]
fn parse_ssk<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    let tree = py
        .detach(|| {
            let tree = sskb::parse_ssk_value(text)?;
            Document::from_value(&tree)?;
            Ok(tree)
        })
        .py()?;
    topy::value(py, &tree)
}

/// Loads a `.ssk` or `.sskb` file (by extension) without resolving
/// inheritance, as `ssklib.load`.
#[pyfunction]
fn load<'py>(py: Python<'py>, path: PathBuf) -> PyResult<Bound<'py, PyAny>> {
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    let binary = match ext.as_deref() {
        Some("sskb") => true,
        Some("ssk") => false,
        _ => {
            let shown = ext.map_or("(none)".to_owned(), |e| format!(".{e}"));
            return Err(error(
                "io",
                &format!("unsupported input extension: {shown} (expected .ssk or .sskb)"),
            ));
        }
    };
    let data = py.detach(|| std::fs::read(&path)).map_err(|e| {
        let err = sskb::Error::from(e);
        error("io", &format!("could not read {}: {}", path.display(), err.message()))
    })?;
    if binary {
        return Ok(decode_to_dict(py, &data)?.into_any());
    }
    let text = String::from_utf8(data).map_err(|e| {
        error(
            "structure",
            &format!("input is not valid UTF-8 (at byte {})", e.utf8_error().valid_up_to()),
        )
    })?;
    parse_ssk(py, &text)
}

/// Checks `doc` under the format's rules; the document and its tree.
fn checked(py: Python<'_>, doc: &Bound<'_, PyAny>, geometry: bool) -> PyResult<(Document, sskb::Value)> {
    let tree = frompy::tree(doc)?;
    py.detach(|| {
        let d = Document::from_value(&tree)?;
        if geometry {
            sskb::validate(&d)?;
        }
        Ok((d, tree))
    })
    .py()
}

/// Resolves and validates a document, returning a resolved copy (the
/// input is not changed), as `ssklib.validate_document`.
#[pyfunction]
fn validate_document<'py>(py: Python<'py>, doc: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let (_, mut tree) = checked(py, doc, true)?;
    sskb::resolve_tree(&mut tree);
    topy::value(py, &tree)
}

/// Encodes a document as `.sskb` bytes; by default it must be valid, as
/// `ssklib.write_sskb` checks.
#[pyfunction]
#[pyo3(signature = (doc, *, validate_document = true))]
fn write_sskb<'py>(py: Python<'py>, doc: &Bound<'py, PyAny>, validate_document: bool) -> PyResult<Bound<'py, PyBytes>> {
    let (d, _) = checked(py, doc, validate_document)?;
    let bytes = py.detach(|| sskb::encode(&d)).py()?;
    Ok(PyBytes::new(py, &bytes))
}

/// Writes a document as `.ssk` text.
#[pyfunction]
fn write_ssk(py: Python<'_>, doc: &Bound<'_, PyAny>) -> PyResult<String> {
    let (d, _) = checked(py, doc, false)?;
    py.detach(|| sskb::to_ssk(&d)).py()
}

/// Iterates the pieces of an `.sskb` file (a path, or any binary file
/// object with `read`), decoding in chunks of `chunk_size` bytes. For a
/// file object, `length` (the input's total size, when known) lets every
/// count be checked against the bytes left as it is read, as it is for a
/// path.
#[pyfunction]
#[pyo3(signature = (file, *, arrays = false, chunk_size = 65536, length = None))]
fn iter_pieces(
    py: Python<'_>,
    file: &Bound<'_, PyAny>,
    arrays: bool,
    chunk_size: usize,
    length: Option<u64>,
) -> PyResult<PieceIter> {
    PieceIter::open(py, file, arrays, chunk_size, length)
}

/// A Python file object as `std::io::Read`, taking the GIL for each read.
struct PyReader(Py<PyAny>);

impl Read for PyReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        Python::attach(|py| {
            let data = self
                .0
                .bind(py)
                .call_method1("read", (out.len(),))
                .and_then(|d| Ok(as_bytes(&d)?.as_bytes().to_vec()))
                .map_err(|e| std::io::Error::other(e.to_string()))?;
            let n = data.len().min(out.len());
            out[..n].copy_from_slice(&data[..n]);
            Ok(n)
        })
    }
}

/// `validate(doc)` with a dict checks a resolved document as
/// `ssklib.validate` does (returns `None`, raises `SskbError`); with a path
/// or a binary file object it validates an `.sskb` file in one streaming
/// pass and returns `{"version", "pieces", "points"}` (also
/// `validate_stream`).
#[pyfunction]
fn validate<'py>(py: Python<'py>, doc: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    if doc.is_instance_of::<PyDict>() {
        compat::validate_dict(py, doc)?;
        return Ok(py.None().into_bound(py));
    }
    Ok(validate_stream(py, doc)?.into_any())
}

/// Validates an `.sskb` file (a path or a binary file object) in one
/// streaming pass; returns `{"version", "pieces", "points"}`.
#[pyfunction]
fn validate_stream<'py>(py: Python<'py>, file: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    if file.is_instance_of::<PyDict>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "validate_stream takes a path or a binary file object; validate(doc) checks a dict",
        ));
    }
    let summary = if file.hasattr("read")? {
        let reader = PyReader(file.clone().unbind());
        py.detach(|| sskb::validate_reader(reader, DecodeOptions::new()))
    } else {
        let path: PathBuf = file.extract()?;
        py.detach(|| {
            let f = std::fs::File::open(&path)?;
            let len = f.metadata()?.len();
            sskb::validate_reader(f, DecodeOptions::new().input_len(len))
        })
    }
    .py()?;
    let d = PyDict::new(py);
    d.set_item("version", format!("{}.{}", summary.version.0, summary.version.1))?;
    d.set_item("pieces", summary.pieces)?;
    d.set_item("points", summary.points)?;
    Ok(d)
}

/// Converts `input_path` (`.sskb`, `.ssk`) to `output_path` by its
/// extension: `.glb` or `.gltf` (meshed at `resolution`; `per_piece` gives
/// one node per contributing piece), `.sskb` or `.ssk`; the fields of
/// `ssklib.ConversionResult` as a dict (the Python `convert` wraps it).
#[pyfunction]
#[pyo3(signature = (input_path, output_path, *, resolution = 32, per_piece = false))]
fn _convert<'py>(
    py: Python<'py>,
    input_path: PathBuf,
    output_path: PathBuf,
    resolution: u32,
    per_piece: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let c = py
        .detach(|| gltf_convert::convert(&input_path, &output_path, resolution, per_piece))
        .py()?;
    let d = PyDict::new(py);
    d.set_item("output_format", c.format)?;
    d.set_item("piece_count", c.pieces)?;
    d.set_item("bytes_written", c.bytes)?;
    d.set_item("vertex_count", c.vertices)?;
    d.set_item("triangle_count", c.triangles)?;
    Ok(d)
}

#[pymodule]
fn _sskb(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(parse_sskb, m)?)?;
    m.add_function(wrap_pyfunction!(parse_ssk, m)?)?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(validate_document, m)?)?;
    m.add_function(wrap_pyfunction!(write_sskb, m)?)?;
    m.add_function(wrap_pyfunction!(write_ssk, m)?)?;
    m.add_function(wrap_pyfunction!(iter_pieces, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(validate_stream, m)?)?;
    m.add_function(wrap_pyfunction!(_convert, m)?)?;
    m.add_function(wrap_pyfunction!(compat::resolve, m)?)?;
    m.add_function(wrap_pyfunction!(compat::mesh_document, m)?)?;
    m.add_function(wrap_pyfunction!(compat::write_glb, m)?)?;
    m.add_function(wrap_pyfunction!(compat::write_gltf, m)?)?;
    m.add_function(wrap_pyfunction!(compat::canonical_document, m)?)?;
    m.add_function(wrap_pyfunction!(compat::document_differences, m)?)?;
    m.add_function(wrap_pyfunction!(compat::documents_equivalent, m)?)?;
    m.add_function(wrap_pyfunction!(import::_import_mesh, m)?)?;
    m.add_function(wrap_pyfunction!(import::_score_document, m)?)?;
    m.add_function(wrap_pyfunction!(render::render, m)?)?;
    m.add_function(wrap_pyfunction!(render::render_png, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<PieceIter>()?;
    m.add_class::<writer::Writer>()?;
    Ok(())
}
