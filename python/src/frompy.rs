//! Python values as a [`Value`] tree, for documents handed in as dicts
//! (`validate_document`, `write_sskb`, `write_ssk`). Only what a document or
//! a property blob can hold is accepted: dicts with string keys, lists and
//! tuples, `str`, `int` (64-bit), `float`, `bool` and `None`. Nesting is
//! bounded, so a deep or cyclic structure is an error, never a crash.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use sskb::Value;

use crate::errors::error;

/// Deeper than any document: the text format's own nesting plus the
/// deepest property values the library accepts by default.
const MAX_DEPTH: usize = sskb::DEFAULT_MAX_YAML_DEPTH + 16;

/// What went wrong and where, the path built on the way out.
struct Problem {
    message: String,
    path: Vec<String>,
}

/// `obj` as a tree.
///
/// # Errors
/// `SskbError` of kind `structure` naming the path of a value that is not
/// one of the accepted types, a non-string key, an integer outside 64 bits,
/// or nesting deeper than any document.
pub fn tree(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    convert(obj, 0).map_err(|p| {
        let mut path = String::new();
        for seg in p.path.iter().rev() {
            if !seg.starts_with('[') && !path.is_empty() {
                path.push('.');
            }
            path.push_str(seg);
        }
        let at = if path.is_empty() {
            "the document".to_owned()
        } else {
            format!("`{path}`")
        };
        error("structure", &format!("{}: {}", at, p.message))
    })
}

fn convert(obj: &Bound<'_, PyAny>, depth: usize) -> Result<Value, Problem> {
    let fail = |message: String| Problem {
        message,
        path: Vec::new(),
    };
    if depth > MAX_DEPTH {
        return Err(fail(format!("nested deeper than {MAX_DEPTH} levels")));
    }
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if obj.is_instance_of::<PyInt>() {
        return obj
            .extract::<i64>()
            .map(Value::Int)
            .map_err(|_| fail(format!("integer {obj} does not fit in 64 bits")));
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        return Ok(Value::Float(f.value()));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return s
            .to_cow()
            .map(|s| Value::String(s.into_owned()))
            .map_err(|e| fail(format!("string is not valid Unicode: {e}")));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut entries = Vec::with_capacity(d.len());
        for (k, v) in d.iter() {
            let key = match k.cast::<PyString>() {
                Ok(s) => s
                    .to_cow()
                    .map_err(|e| fail(format!("key is not valid Unicode: {e}")))?
                    .into_owned(),
                Err(_) => return Err(fail(format!("keys must be strings, not {}", type_name(&k)))),
            };
            let item = convert(&v, depth + 1).map_err(|mut p| {
                p.path.push(key.clone());
                p
            })?;
            entries.push((key, item));
        }
        return Ok(Value::Mapping(entries));
    }
    let items: Option<Vec<Bound<'_, PyAny>>> = if let Ok(l) = obj.cast::<PyList>() {
        Some(l.iter().collect())
    } else if let Ok(t) = obj.cast::<PyTuple>() {
        Some(t.iter().collect())
    } else {
        None
    };
    if let Some(items) = items {
        let mut out = Vec::with_capacity(items.len());
        for (i, v) in items.iter().enumerate() {
            out.push(convert(v, depth + 1).map_err(|mut p| {
                p.path.push(format!("[{i}]"));
                p
            })?);
        }
        return Ok(Value::Sequence(out));
    }
    Err(fail(format!(
        "a value of type {} is not allowed in a document",
        type_name(obj)
    )))
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map_or_else(|_| "?".to_owned(), |n| n.to_string())
}
