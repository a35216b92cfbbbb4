//! A piece's points as NumPy arrays, built from flat little-endian buffers
//! without a Python object per point: `positions` (n, 3) float32, and for
//! each optional point field that any point has, the field as (n, 3) or
//! (n, 2) float32 (zeros where absent) with `<name>_present`, an (n,) bool
//! mask. The points' `size` and `rotation` are named `point_size` and
//! `point_rotation`, since `size` and `rotation` are the piece's own.

use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyDict};
use sskb::{Piece, Point};

use crate::topy::Keys;

/// The optional point fields in array form: name, width.
pub const FIELDS: [(&str, usize); 6] = [
    ("curve_in", 3),
    ("curve_out", 3),
    ("point_size", 3),
    ("point_rotation", 3),
    ("transition_in", 2),
    ("transition_out", 2),
];

/// One optional field's values (f32 little-endian) and presence mask.
struct Column {
    field: usize,
    values: Vec<u8>,
    mask: Vec<u8>,
}

/// The columns of a piece's points: plain Rust, built with the GIL released.
pub struct Columns {
    n: usize,
    positions: Vec<u8>,
    optional: Vec<Column>,
}

fn field(p: &Point, i: usize) -> Option<[f32; 3]> {
    let v3 = |v: Option<sskb::Vec3>| v.map(|v| [v.x, v.y, v.z]);
    let v2 = |v: Option<sskb::Vec2>| v.map(|v| [v.x, v.y, 0.0]);
    match i {
        0 => v3(p.curve_in),
        1 => v3(p.curve_out),
        2 => v3(p.size),
        3 => v3(p.rotation),
        4 => v2(p.transition_in),
        _ => v2(p.transition_out),
    }
}

fn push(out: &mut Vec<u8>, v: &[f32]) {
    for x in v {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

impl Columns {
    pub fn new(points: &[Point]) -> Columns {
        let n = points.len();
        let mut positions = Vec::with_capacity(n * 12);
        for p in points {
            push(&mut positions, &[p.position.x, p.position.y, p.position.z]);
        }
        let mut optional = Vec::new();
        for (i, (_, width)) in FIELDS.iter().enumerate() {
            if !points.iter().any(|p| field(p, i).is_some()) {
                continue;
            }
            let mut values = Vec::with_capacity(n * width * 4);
            let mut mask = Vec::with_capacity(n);
            for p in points {
                let v = field(p, i);
                push(&mut values, &v.unwrap_or_default()[..*width]);
                mask.push(u8::from(v.is_some()));
            }
            optional.push(Column { field: i, values, mask });
        }
        Columns { n, positions, optional }
    }
}

/// The piece as a dict whose points are arrays; the other fields as in the
/// dict form.
pub fn piece<'py>(
    keys: &Keys<'py>,
    np: &Bound<'py, PyModule>,
    p: &Piece,
    index: usize,
    columns: Option<Columns>,
) -> PyResult<Bound<'py, PyDict>> {
    let py = keys.py;
    let d = keys.piece_head(p)?;
    if let Some(c) = columns {
        let f32le = "<f4";
        let array = |bytes: &[u8], dtype: &str, shape: (usize, usize)| -> PyResult<Bound<'py, PyAny>> {
            let a = np.call_method1("frombuffer", (PyByteArray::new(py, bytes), dtype))?;
            if shape.1 == 0 {
                Ok(a)
            } else {
                a.call_method1("reshape", (shape,))
            }
        };
        d.set_item("positions", array(&c.positions, f32le, (c.n, 3))?)?;
        for col in &c.optional {
            let (name, width) = FIELDS[col.field];
            d.set_item(name, array(&col.values, f32le, (c.n, width))?)?;
            d.set_item(format!("{name}_present"), array(&col.mask, "?", (c.n, 0))?)?;
        }
    }
    keys.piece_tail(p, index, &d)?;
    Ok(d)
}
