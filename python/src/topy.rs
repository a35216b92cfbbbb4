//! Decoded documents as the dicts ssklib returns: pieces as dicts with only
//! the fields that are present, points as flat dicts of floats (`x`, `y`,
//! `z`, then the optional vectors), property values as parsed. f32 values are
//! widened to f64 exactly as ssklib's `struct.unpack('<f')` does. Dict keys
//! are interned once per call.
//!
//! Repeated values are cheap: within one call, a point's float equal (bit for
//! bit) to the same component of the point before reuses that float object
//! (floats are immutable), and a vector equal to the same vector of the point
//! before is a copy of its dict (no key lookups). The objects of a call are
//! not handed to the caller before it returns, so the dict copied is as it
//! was made.

use std::cell::RefCell;

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyList, PyModule, PyString};
use sskb::{Document, Piece, Point, Properties, Value, Vec3};

use crate::errors::IntoPy;

/// The interned dict keys.
pub struct Keys<'py> {
    pub py: Python<'py>,
    x: Bound<'py, PyString>,
    y: Bound<'py, PyString>,
    z: Bound<'py, PyString>,
    pub curve_in: Bound<'py, PyString>,
    pub curve_out: Bound<'py, PyString>,
    pub size: Bound<'py, PyString>,
    pub rotation: Bound<'py, PyString>,
    pub transition_in: Bound<'py, PyString>,
    pub transition_out: Bound<'py, PyString>,
    id: Bound<'py, PyString>,
    from: Bound<'py, PyString>,
    points: Bound<'py, PyString>,
    shape: Bound<'py, PyString>,
    sides: Bound<'py, PyString>,
    mode: Bound<'py, PyString>,
    affects: Bound<'py, PyString>,
    properties: Bound<'py, PyString>,
    pieces: Bound<'py, PyString>,
    /// Point dict templates by presence mask, made when first needed.
    templates: RefCell<Vec<Option<Bound<'py, PyDict>>>>,
    /// The previous point's values.
    recent: RefCell<Recent<'py>>,
}

/// Slots of [`Recent::floats`]: position, then each optional vector.
const POSITION: usize = 0;
const VECTOR_SLOTS: [usize; 6] = [3, 6, 9, 12, 15, 17];

/// The previous point's floats by component and vector dicts by field.
struct Recent<'py> {
    bits: [u32; 19],
    floats: [Option<Bound<'py, PyFloat>>; 19],
    vectors: [Option<([u32; 3], Bound<'py, PyDict>)>; 6],
}

impl<'py> Recent<'py> {
    /// The float of component `slot` of a point: the previous point's object
    /// when it holds the same value, else a new one kept for the next point.
    #[inline]
    fn float(&mut self, py: Python<'py>, slot: usize, v: f32) -> &Bound<'py, PyFloat> {
        let bits = v.to_bits();
        if self.bits[slot] != bits {
            self.bits[slot] = bits;
            self.floats[slot] = None;
        }
        self.floats[slot].get_or_insert_with(|| PyFloat::new(py, f64::from(v)))
    }
}

impl<'py> Keys<'py> {
    pub fn new(py: Python<'py>) -> Keys<'py> {
        Keys {
            py,
            x: intern!(py, "x").clone(),
            y: intern!(py, "y").clone(),
            z: intern!(py, "z").clone(),
            curve_in: intern!(py, "curve_in").clone(),
            curve_out: intern!(py, "curve_out").clone(),
            size: intern!(py, "size").clone(),
            rotation: intern!(py, "rotation").clone(),
            transition_in: intern!(py, "transition_in").clone(),
            transition_out: intern!(py, "transition_out").clone(),
            id: intern!(py, "id").clone(),
            from: intern!(py, "from").clone(),
            points: intern!(py, "points").clone(),
            shape: intern!(py, "shape").clone(),
            sides: intern!(py, "sides").clone(),
            mode: intern!(py, "mode").clone(),
            affects: intern!(py, "affects").clone(),
            properties: intern!(py, "properties").clone(),
            pieces: intern!(py, "pieces").clone(),
            templates: RefCell::new(vec![None; 64]),
            recent: RefCell::new(Recent {
                bits: [0; 19],
                floats: Default::default(),
                vectors: Default::default(),
            }),
        }
    }

    #[inline]
    fn float(&self, v: f32) -> Bound<'py, PyFloat> {
        PyFloat::new(self.py, f64::from(v))
    }

    /// Sets optional vector `field` (0 = `curve_in` … 5 =
    /// `transition_out`) of a point's dict `into`: a copy of the previous
    /// point's dict when the values are the same, else a new dict whose
    /// floats are reused where they repeat.
    fn put_vector(
        &self,
        recent: &mut Recent<'py>,
        into: &Bound<'py, PyDict>,
        key: &Bound<'py, PyString>,
        field: usize,
        v: [f32; 3],
        len: usize,
    ) -> PyResult<()> {
        let bits = v.map(f32::to_bits);
        if let Some((b, d)) = &recent.vectors[field] {
            if *b == bits {
                return into.set_item(key, d.copy()?);
            }
        }
        let d = PyDict::new(self.py);
        let slot = VECTOR_SLOTS[field];
        d.set_item(&self.x, recent.float(self.py, slot, v[0]))?;
        d.set_item(&self.y, recent.float(self.py, slot + 1, v[1]))?;
        if len == 3 {
            d.set_item(&self.z, recent.float(self.py, slot + 2, v[2]))?;
        }
        into.set_item(key, &d)?;
        recent.vectors[field] = Some((bits, d));
        Ok(())
    }

    pub fn vec3(&self, v: Vec3) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(self.py);
        d.set_item(&self.x, self.float(v.x))?;
        d.set_item(&self.y, self.float(v.y))?;
        d.set_item(&self.z, self.float(v.z))?;
        Ok(d)
    }

    /// One point: `x`, `y`, `z`, then each optional field present.
    pub fn point(&self, p: &Point) -> PyResult<Bound<'py, PyDict>> {
        let mask = usize::from(p.curve_in.is_some())
            | usize::from(p.curve_out.is_some()) << 1
            | usize::from(p.size.is_some()) << 2
            | usize::from(p.rotation.is_some()) << 3
            | usize::from(p.transition_in.is_some()) << 4
            | usize::from(p.transition_out.is_some()) << 5;
        let d = if mask.count_ones() >= 3 {
            self.templated(mask)?
        } else {
            PyDict::new(self.py)
        };
        let recent = &mut *self.recent.borrow_mut();
        let py = self.py;
        d.set_item(&self.x, recent.float(py, POSITION, p.position.x))?;
        d.set_item(&self.y, recent.float(py, POSITION + 1, p.position.y))?;
        d.set_item(&self.z, recent.float(py, POSITION + 2, p.position.z))?;
        let vectors = [
            (&self.curve_in, p.curve_in),
            (&self.curve_out, p.curve_out),
            (&self.size, p.size),
            (&self.rotation, p.rotation),
        ];
        for (field, (k, v)) in vectors.into_iter().enumerate() {
            if let Some(v) = v {
                self.put_vector(recent, &d, k, field, [v.x, v.y, v.z], 3)?;
            }
        }
        let transitions = [
            (&self.transition_in, p.transition_in),
            (&self.transition_out, p.transition_out),
        ];
        for (field, (k, v)) in transitions.into_iter().enumerate() {
            if let Some(v) = v {
                self.put_vector(recent, &d, k, 4 + field, [v.x, v.y, 0.0], 2)?;
            }
        }
        Ok(d)
    }

    /// A copy of the dict with the keys of a point whose optional fields are
    /// `mask` (values `None`, made when first needed): a dict at its final
    /// size, where inserting more than five keys into a new dict would
    /// resize it.
    fn templated(&self, mask: usize) -> PyResult<Bound<'py, PyDict>> {
        let mut cache = self.templates.borrow_mut();
        if let Some(t) = &cache[mask] {
            return t.copy();
        }
        let t = PyDict::new(self.py);
        let none = self.py.None();
        for k in [&self.x, &self.y, &self.z] {
            t.set_item(k, &none)?;
        }
        let optional = [
            &self.curve_in,
            &self.curve_out,
            &self.size,
            &self.rotation,
            &self.transition_in,
            &self.transition_out,
        ];
        for (i, k) in optional.into_iter().enumerate() {
            if mask & (1 << i) != 0 {
                t.set_item(k, &none)?;
            }
        }
        let copy = t.copy();
        cache[mask] = Some(t);
        copy
    }

    /// `id` and `from`: the start of every piece's dict.
    pub fn piece_head(&self, p: &Piece) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(self.py);
        d.set_item(&self.id, p.id)?;
        if let Some(f) = p.from {
            d.set_item(&self.from, f)?;
        }
        Ok(d)
    }

    /// Every field after the points, into `d`.
    pub fn piece_tail(&self, p: &Piece, index: usize, d: &Bound<'py, PyDict>) -> PyResult<()> {
        if let Some(r) = p.rotation {
            d.set_item(&self.rotation, self.vec3(r)?)?;
        }
        if let Some(s) = p.size {
            d.set_item(&self.size, self.vec3(s)?)?;
        }
        if let Some(s) = p.shape {
            d.set_item(&self.shape, intern_name(self.py, s.name()))?;
        }
        if let Some(n) = p.sides {
            d.set_item(&self.sides, n)?;
        }
        if let Some(m) = p.mode {
            d.set_item(&self.mode, intern_name(self.py, m.name()))?;
        }
        if let Some(a) = &p.affects {
            d.set_item(&self.affects, PyList::new(self.py, a)?)?;
        }
        if let Some(props) = &p.properties {
            let path = format!("pieces[{index}].properties");
            d.set_item(&self.properties, self.properties(props, &path)?)?;
        }
        Ok(())
    }

    /// One piece in the dict form.
    pub fn piece(&self, p: &Piece, index: usize) -> PyResult<Bound<'py, PyDict>> {
        let d = self.piece_head(p)?;
        if let Some(points) = &p.points {
            let _paused = (points.len() > 1000).then(|| NoGc::new(self.py));
            let list = PyList::empty(self.py);
            for q in points {
                list.append(self.point(q)?)?;
            }
            d.set_item(&self.points, list)?;
        }
        self.piece_tail(p, index, &d)?;
        Ok(d)
    }

    /// A property blob's values (`{}` for an empty blob).
    pub fn properties(&self, p: &Properties, path: &str) -> PyResult<Bound<'py, PyAny>> {
        if p.is_empty() {
            return Ok(PyDict::new(self.py).into_any());
        }
        let v = p.parse().map_err(|e| e.path(path)).py()?;
        value(self.py, &v)
    }

    /// A document as `ssklib.parse_sskb` returns it: `pieces`, and
    /// `properties` when the root blob is not empty.
    pub fn document(&self, doc: &Document) -> PyResult<Bound<'py, PyDict>> {
        let _paused = NoGc::new(self.py);
        let d = PyDict::new(self.py);
        let list = PyList::empty(self.py);
        for (i, p) in doc.pieces.iter().enumerate() {
            list.append(self.piece(p, i)?)?;
        }
        d.set_item(&self.pieces, list)?;
        if let Some(p) = doc.properties.as_ref().filter(|p| !p.is_empty()) {
            d.set_item(&self.properties, self.properties(p, "properties")?)?;
        }
        Ok(d)
    }
}

/// Pauses Python's cyclic garbage collector while a document's objects are
/// made: millions of new dicts and floats would otherwise trigger a
/// collection every few hundred allocations, each walking the young objects
/// (measured: 0.95 s instead of 0.35 s for 194,180 points). None of these
/// objects can form a cycle. The collector is switched back on when the
/// guard drops, if it was on.
pub struct NoGc<'py> {
    gc: Option<Bound<'py, PyModule>>,
}

impl<'py> NoGc<'py> {
    pub fn new(py: Python<'py>) -> NoGc<'py> {
        let gc = py.import("gc").ok().filter(|gc| {
            let on = gc
                .call_method0("isenabled")
                .and_then(|v| v.is_truthy())
                .unwrap_or(false);
            on && gc.call_method0("disable").is_ok()
        });
        NoGc { gc }
    }
}

impl Drop for NoGc<'_> {
    fn drop(&mut self) {
        if let Some(gc) = &self.gc {
            let _ = gc.call_method0("enable");
        }
    }
}

fn intern_name<'py>(py: Python<'py>, name: &str) -> Bound<'py, PyString> {
    PyString::intern(py, name)
}

/// A parsed value as Python: mappings as dicts in file order, sequences as
/// lists, integers as `int`, floats as `float`.
pub fn value<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => pyo3::types::PyBool::new(py, *b).to_owned().into_any(),
        Value::Int(i) => i.into_pyobject(py)?.into_any(),
        Value::Float(f) => PyFloat::new(py, *f).into_any(),
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Sequence(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(value(py, item)?)?;
            }
            list.into_any()
        }
        Value::Mapping(entries) => {
            let d = PyDict::new(py);
            for (k, item) in entries {
                d.set_item(PyString::new(py, k), value(py, item)?)?;
            }
            d.into_any()
        }
    })
}
