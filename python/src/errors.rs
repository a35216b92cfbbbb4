//! `sskb::Error` as the Python exception `sskb.SskbError` (a `ValueError`,
//! defined in `sskb/__init__.py`) with `kind`, `offset`, `piece`, `path` and
//! `message`.

use pyo3::prelude::*;

/// The Python exception for `e`.
pub fn to_py(e: &sskb::Error) -> PyErr {
    Python::attach(|py| {
        raise(
            py,
            &e.to_string(),
            e.kind().name(),
            e.offset(),
            e.piece_id(),
            e.field_path(),
            e.message(),
        )
    })
}

/// An `SskbError` made here rather than by the library (a wrong argument
/// type, an unsupported extension).
pub fn error(kind: &str, message: &str) -> PyErr {
    Python::attach(|py| raise(py, message, kind, None, None, None, message))
}

fn raise(
    py: Python<'_>,
    text: &str,
    kind: &str,
    offset: Option<u64>,
    piece: Option<u32>,
    path: Option<&str>,
    message: &str,
) -> PyErr {
    let made = py
        .import("sskb")
        .and_then(|m| m.getattr("SskbError"))
        .and_then(|cls| cls.call1((text, kind, offset, piece, path, message)));
    match made {
        Ok(instance) => PyErr::from_value(instance),
        Err(e) => e,
    }
}

/// `Result<T, sskb::Error>` into `PyResult<T>`.
pub trait IntoPy<T> {
    /// Raises `SskbError` for an error.
    ///
    /// # Errors
    /// The error, as `SskbError`.
    fn py(self) -> PyResult<T>;
}

impl<T> IntoPy<T> for sskb::Result<T> {
    fn py(self) -> PyResult<T> {
        self.map_err(|e| to_py(&e))
    }
}
