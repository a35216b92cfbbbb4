//! `sskb.Writer`: a document written piece by piece from NumPy arrays, as
//! `iter_pieces(..., arrays=True)` gives them, without a Python object per
//! point. Memory holds one piece's arrays and its bytes.
//!
//! A piece's fields other than its points are read by the `.ssk` reader's
//! rules (the same checks and conversions as `write_sskb`), its points are
//! checked by the encoder as they are written, and with `validate=True`
//! (the default, as `write_sskb`) the streaming validator sees every event
//! and the document is refused at `close` if invalid. A path is written
//! through a temporary file renamed at `close`, so a failure leaves no file;
//! the piece count is patched into the header at `close` when it was not
//! given (a file object must then be seekable).

use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::PathBuf;

use bytes::BytesMut;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};
use sskb::{
    Document, Encoder, End, Event, Header, PieceEnd, PieceStart, Point, Properties, SskbEncoder, Validator, Value,
    Vec2, Vec3,
};

use crate::errors::{error, IntoPy};
use crate::frompy;

use crate::arrays::FIELDS as COLUMNS;

/// The piece fields other than the points: `id`, `from` and those a piece
/// may inherit.
fn piece_keys() -> impl Iterator<Item = &'static str> {
    ["id", "from"]
        .into_iter()
        .chain(sskb::Piece::INHERITED_FIELDS.into_iter().filter(|k| *k != "points"))
}

/// Where the bytes go.
enum Sink {
    /// A temporary file beside `path`, renamed to it at `close`.
    Path {
        path: PathBuf,
        temp: PathBuf,
        file: BufWriter<File>,
    },
    /// A Python binary file object; `start` is where the document began
    /// (for the count patch), when the object can seek.
    Object { obj: Py<PyAny>, start: Option<u64> },
}

/// Writes an `.sskb` document a piece at a time: `Writer(target,
/// piece_count=None, *, properties=None, version="1.0", validate=True)`,
/// then `piece(...)` for each piece and `close()` (or use it as a context
/// manager: an exception inside the `with` block discards the output).
#[pyclass(module = "sskb._sskb")]
pub struct Writer {
    sink: Option<Sink>,
    encoder: SskbEncoder,
    validator: Option<Validator>,
    buf: BytesMut,
    piece_count: Option<u32>,
    properties: Option<Properties>,
}

fn closed() -> PyErr {
    error("usage", "the writer is closed")
}

/// One point column: f32 values (little-endian bytes) and a mask.
struct Column<'a> {
    values: &'a [u8],
    width: usize,
    mask: Option<&'a [u8]>,
}

impl Column<'_> {
    #[inline]
    fn f(&self, j: usize, c: usize) -> f32 {
        let o = (j * self.width + c) * 4;
        f32::from_le_bytes([
            self.values[o],
            self.values[o + 1],
            self.values[o + 2],
            self.values[o + 3],
        ])
    }

    #[inline]
    fn present(&self, j: usize) -> bool {
        self.mask.is_none_or(|m| m[j] != 0)
    }

    #[inline]
    fn v3(&self, j: usize) -> Option<Vec3> {
        self.present(j)
            .then(|| Vec3::new(self.f(j, 0), self.f(j, 1), self.f(j, 2)))
    }

    #[inline]
    fn v2(&self, j: usize) -> Option<Vec2> {
        self.present(j).then(|| Vec2::new(self.f(j, 0), self.f(j, 1)))
    }
}

/// A numeric array as contiguous little-endian f32 bytes of shape (n, width).
fn f32_array<'py>(
    np: &Bound<'py, PyModule>,
    name: &str,
    a: &Bound<'py, PyAny>,
    width: usize,
) -> PyResult<Bound<'py, PyBytes>> {
    let arr = np.call_method1("asarray", (a,))?;
    let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
    let shape: Vec<usize> = arr.getattr("shape")?.extract()?;
    if !matches!(kind.as_str(), "f" | "i" | "u") {
        return Err(error(
            "structure",
            &format!(
                "`{name}` must be an array of numbers, not of dtype {}",
                arr.getattr("dtype")?.str()?
            ),
        ));
    }
    if shape.len() != 2 || shape[1] != width {
        return Err(error(
            "structure",
            &format!("`{name}` must have shape (n, {width}), not {shape:?}"),
        ));
    }
    Ok(np
        .call_method1("ascontiguousarray", (arr, "<f4"))?
        .call_method0("tobytes")?
        .cast_into::<PyBytes>()?)
}

/// A presence mask: a bool array of shape (n,).
fn mask_array<'py>(
    np: &Bound<'py, PyModule>,
    name: &str,
    a: &Bound<'py, PyAny>,
    n: usize,
) -> PyResult<Bound<'py, PyBytes>> {
    let arr = np.call_method1("asarray", (a,))?;
    let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
    let shape: Vec<usize> = arr.getattr("shape")?.extract()?;
    if kind != "b" {
        return Err(error(
            "structure",
            &format!(
                "`{name}` must be a bool array, not of dtype {}",
                arr.getattr("dtype")?.str()?
            ),
        ));
    }
    if shape != [n] {
        return Err(error(
            "structure",
            &format!("`{name}` must have shape ({n},) like the positions, not {shape:?}"),
        ));
    }
    Ok(np
        .call_method1("ascontiguousarray", (arr,))?
        .call_method0("tobytes")?
        .cast_into::<PyBytes>()?)
}

/// `e` about the one piece of a stand-in document, told of piece `index`.
fn at_index(e: sskb::Error, index: u32) -> sskb::Error {
    let fix = |s: &str| s.replacen("pieces[0]", &format!("pieces[{index}]"), 1);
    let mut out = sskb::Error::new(e.kind(), fix(e.message()));
    if let Some(p) = e.field_path() {
        out = out.path(fix(p));
    }
    match e.piece_id() {
        Some(id) => out.piece(id),
        None => out,
    }
}

/// Root properties by the reader's rules (through a stand-in document).
fn root_properties(properties: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Properties>> {
    let Some(p) = properties.filter(|p| !p.is_none()) else {
        return Ok(None);
    };
    let root = Value::Mapping(vec![
        ("pieces".to_owned(), Value::Sequence(Vec::new())),
        ("properties".to_owned(), frompy::tree(p)?),
    ]);
    Ok(Document::from_value(&root).py()?.properties)
}

/// A piece vector given as three numbers (a tuple, list or array) as the
/// mapping the reader takes; a mapping as it is.
fn vector_tree(name: &str, v: &Bound<'_, PyAny>) -> PyResult<Value> {
    if v.is_instance_of::<PyDict>() {
        return frompy::tree(v);
    }
    let items: Vec<Bound<'_, PyAny>> = v
        .try_iter()
        .and_then(|it| it.collect::<PyResult<Vec<_>>>())
        .map_err(|_| {
            error(
                "structure",
                &format!("`{name}` must be a mapping of x, y, z or three numbers"),
            )
        })?;
    if items.len() != 3 {
        return Err(error(
            "structure",
            &format!("`{name}` must have three numbers, not {}", items.len()),
        ));
    }
    let mut m = Vec::with_capacity(3);
    for (k, item) in ["x", "y", "z"].iter().zip(&items) {
        // NumPy scalars become Python numbers.
        let item = if item.hasattr("item")? {
            item.call_method0("item")?
        } else {
            item.clone()
        };
        m.push(((*k).to_owned(), frompy::tree(&item)?));
    }
    Ok(Value::Mapping(m))
}

impl Writer {
    fn sink(&mut self) -> PyResult<&mut Sink> {
        self.sink.as_mut().ok_or_else(closed)
    }

    /// Moves the encoded bytes to the sink.
    fn flush_buf(&mut self, py: Python<'_>) -> PyResult<()> {
        let Some(sink) = self.sink.as_mut() else {
            return Err(closed());
        };
        match sink {
            Sink::Path { file, .. } => {
                let buf = &self.buf;
                py.detach(|| file.write_all(buf))
                    .map_err(|e| crate::errors::to_py(&e.into()))?;
            }
            Sink::Object { obj, .. } => {
                obj.bind(py).call_method1("write", (PyBytes::new(py, &self.buf),))?;
            }
        }
        self.buf.clear();
        Ok(())
    }

    /// Drops the output: the temporary file is removed.
    fn discard(&mut self) {
        if let Some(Sink::Path { temp, file, .. }) = self.sink.take() {
            drop(file);
            let _ = std::fs::remove_file(temp);
        }
    }

    /// Encodes one piece as events, fed to the validator too; on an error
    /// the writer is left as it was before the call.
    fn encode_piece(
        &mut self,
        start: PieceStart,
        n: usize,
        point: impl Fn(usize) -> Point + Sync,
        end: PieceEnd,
    ) -> sskb::Result<()> {
        let (saved_enc, len) = (self.encoder.clone(), self.buf.len());
        let r = (|| {
            let ev = Event::PieceStart(start);
            self.encoder.encode(&ev, &mut self.buf)?;
            if let Some(v) = &mut self.validator {
                v.push_event(&ev)?;
            }
            for j in 0..n {
                let ev = Event::Point(point(j));
                self.encoder.encode(&ev, &mut self.buf)?;
                if let Some(v) = &mut self.validator {
                    v.push_event(&ev)?;
                }
            }
            let ev = Event::PieceEnd(end);
            self.encoder.encode(&ev, &mut self.buf)?;
            if let Some(v) = &mut self.validator {
                v.push_event(&ev)?;
            }
            Ok(())
        })();
        if r.is_err() {
            self.encoder = saved_enc;
            if let Some(v) = &mut self.validator {
                v.abandon_piece();
            }
            self.buf.truncate(len);
        }
        r
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        self.discard();
    }
}

#[pymethods]
impl Writer {
    #[new]
    #[pyo3(signature = (target, piece_count = None, *, properties = None, version = "1.0", validate = true))]
    fn new(
        py: Python<'_>,
        target: &Bound<'_, PyAny>,
        piece_count: Option<u32>,
        properties: Option<&Bound<'_, PyAny>>,
        version: &str,
        validate: bool,
    ) -> PyResult<Writer> {
        // The version, by the reader's rules.
        let root = vec![
            ("version".to_owned(), Value::String(version.to_owned())),
            ("pieces".to_owned(), Value::Sequence(Vec::new())),
        ];
        let doc = Document::from_value(&Value::Mapping(root)).py()?;
        let properties = root_properties(properties)?;
        let sink = if target.hasattr("write")? {
            let start = if piece_count.is_none() {
                let seekable = target.hasattr("seekable")? && target.call_method0("seekable")?.is_truthy()?;
                if !seekable {
                    return Err(error(
                        "usage",
                        "piece_count is needed for a target that cannot seek (a pipe or socket): \
                         the header states it before the pieces",
                    ));
                }
                Some(target.call_method0("tell")?.extract::<u64>()?)
            } else {
                None
            };
            Sink::Object {
                obj: target.clone().unbind(),
                start,
            }
        } else {
            let path: PathBuf = target.extract().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err("Writer needs a path or a binary file object with `write`")
            })?;
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .ok_or_else(|| error("usage", &format!("{} names no file", path.display())))?;
            static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
            let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let temp = path.with_file_name(format!(".{name}.{}.{k}.tmp", std::process::id()));
            let file = py
                .detach(|| File::create(&temp))
                .map_err(|e| crate::errors::to_py(&e.into()))?;
            Sink::Path {
                path,
                temp,
                file: BufWriter::with_capacity(1 << 20, file),
            }
        };
        let mut w = Writer {
            sink: Some(sink),
            encoder: if piece_count.is_some() {
                SskbEncoder::new()
            } else {
                SskbEncoder::with_count_patched_later()
            },
            validator: validate.then(Validator::new),
            buf: BytesMut::new(),
            piece_count,
            properties,
        };
        let header = Event::Header(Header {
            version: doc.version,
            piece_count: piece_count.unwrap_or(0),
        });
        w.encoder.encode(&header, &mut w.buf).py()?;
        w.flush_buf(py)?;
        Ok(w)
    }

    /// Writes one piece. Fields by keyword, or one mapping (a piece from
    /// `iter_pieces(..., arrays=True)`): `id`, `from`, `positions` ((n, 3)
    /// numbers), the optional point fields `curve_in`, `curve_out`,
    /// `point_size`, `point_rotation` ((n, 3)), `transition_in`,
    /// `transition_out` ((n, 2)), each with an optional `<name>_present`
    /// (n,) bool mask (absent: every point has it), and `rotation`, `size`
    /// (`{"x", "y", "z"}` or three numbers), `shape`, `sides`, `mode`,
    /// `affects`, `properties`. A field given as `None` is absent. A piece
    /// that is refused writes nothing.
    #[pyo3(signature = (fields = None, /, **kwargs))]
    fn piece(
        &mut self,
        py: Python<'_>,
        fields: Option<&Bound<'_, PyDict>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<()> {
        self.sink()?;
        let all = PyDict::new(py);
        for d in [fields, kwargs].into_iter().flatten() {
            all.update(d.as_mapping())?;
        }
        let index = self.encoder.pieces_written();
        // Every key known.
        for k in all.keys() {
            let k: String = k.cast_into::<PyString>()?.to_cow()?.into_owned();
            let known = piece_keys().any(|p| p == k)
                || k == "positions"
                || COLUMNS
                    .iter()
                    .any(|(c, _)| k == *c || k.strip_suffix("_present") == Some(c));
            if !known {
                return Err(error(
                    "structure",
                    &format!("pieces[{index}]: unknown field `{k}` (a piece's points go in `positions` and the point arrays)"),
                ));
            }
        }
        let get = |k: &str| -> PyResult<Option<Bound<'_, PyAny>>> { Ok(all.get_item(k)?.filter(|v| !v.is_none())) };
        // The fields after the points, by the reader's rules, through a
        // stand-in piece (with a stand-in point, not written).
        let mut m = Vec::new();
        for k in piece_keys() {
            if let Some(v) = get(k)? {
                let tree = if k == "rotation" || k == "size" {
                    vector_tree(k, &v)?
                } else {
                    frompy::tree(&v)?
                };
                m.push((k.to_owned(), tree));
            }
        }
        let stand_in = Value::Mapping(vec![
            ("x".into(), Value::Int(0)),
            ("y".into(), Value::Int(0)),
            ("z".into(), Value::Int(0)),
        ]);
        m.push(("points".to_owned(), Value::Sequence(vec![stand_in])));
        let tree = Value::Mapping(vec![("pieces".to_owned(), Value::Sequence(vec![Value::Mapping(m)]))]);
        let mut doc = py
            .detach(|| Document::from_value(&tree))
            .map_err(|e| at_index(e, index))
            .py()?;
        let piece = doc.pieces.pop().ok_or_else(|| error("structure", "no piece"))?;
        // The point arrays.
        let np = py.import("numpy")?;
        let positions = get("positions")?
            .map(|a| f32_array(&np, "positions", &a, 3))
            .transpose()?;
        let n = positions.as_ref().map_or(0, |p| p.as_bytes().len() / 12);
        let mut columns = Vec::with_capacity(COLUMNS.len());
        for (name, width) in COLUMNS {
            let mask_name = format!("{name}_present");
            let values = get(name)?;
            let mask = get(&mask_name)?;
            if values.is_some() && positions.is_none() {
                return Err(error(
                    "structure",
                    &format!("pieces[{index}]: `{name}` without `positions`"),
                ));
            }
            let values = match values {
                Some(v) => f32_array(&np, name, &v, width)?,
                None if mask.is_some() => {
                    return Err(error(
                        "structure",
                        &format!("pieces[{index}]: `{mask_name}` without `{name}`"),
                    ));
                }
                None => {
                    columns.push(None);
                    continue;
                }
            };
            if values.as_bytes().len() != n * width * 4 {
                return Err(error(
                    "structure",
                    &format!(
                        "pieces[{index}]: `{name}` has {} rows but `positions` has {n}",
                        values.as_bytes().len() / (width * 4)
                    ),
                ));
            }
            let mask = mask.map(|m| mask_array(&np, &mask_name, &m, n)).transpose()?;
            columns.push(Some((values, width, mask)));
        }
        if positions.is_some() && n == 0 {
            return Err(error("structure", &format!("pieces[{index}]: `positions` is empty")));
        }
        if positions.is_none() && piece.from.is_none() {
            return Err(error(
                "structure",
                &format!("pieces[{index}]: a piece without `from` needs `positions`"),
            ));
        }
        let end = PieceEnd {
            rotation: piece.rotation,
            size: piece.size,
            shape: piece.shape,
            sides: piece.sides,
            mode: piece.mode,
            affects: piece.affects,
            properties: piece.properties,
        };
        let point_count = positions
            .as_ref()
            .map(|_| u32::try_from(n).map_err(|_| error("structure", "more than u32::MAX points in one piece")))
            .transpose()?;
        let start = PieceStart {
            index,
            id: piece.id,
            from: piece.from,
            field_mask: piece.from.map(|_| end.field_mask(point_count.is_some())),
            point_count,
        };
        let pos = positions.as_ref().map(|p| Column {
            values: p.as_bytes(),
            width: 3,
            mask: None,
        });
        let cols: Vec<Option<Column<'_>>> = columns
            .iter()
            .map(|c| {
                c.as_ref().map(|(v, width, mask)| Column {
                    values: v.as_bytes(),
                    width: *width,
                    mask: mask.as_ref().map(|m| m.as_bytes()),
                })
            })
            .collect();
        let r = py.detach(|| {
            let point = |j: usize| {
                let p = pos
                    .as_ref()
                    .map_or(Vec3::new(0.0, 0.0, 0.0), |c| Vec3::new(c.f(j, 0), c.f(j, 1), c.f(j, 2)));
                let v3 = |i: usize| cols[i].as_ref().and_then(|c| c.v3(j));
                let v2 = |i: usize| cols[i].as_ref().and_then(|c| c.v2(j));
                Point {
                    position: p,
                    curve_in: v3(0),
                    curve_out: v3(1),
                    size: v3(2),
                    rotation: v3(3),
                    transition_in: v2(4),
                    transition_out: v2(5),
                }
            };
            self.encode_piece(start, n, point, end)
        });
        r.py()?;
        self.flush_buf(py)
    }

    /// The root properties written at `close` (a dict, or `None` for
    /// none); set them before closing when they are known only at the end
    /// (as `iter_pieces(...).properties` is).
    #[setter]
    fn set_properties(&mut self, properties: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        self.sink()?;
        self.properties = root_properties(properties)?;
        Ok(())
    }

    /// How many pieces have been written.
    #[getter]
    fn pieces_written(&self) -> u32 {
        self.encoder.pieces_written()
    }

    /// Ends the document: the root properties (`properties`, if given,
    /// replaces those set before), the piece count patched in when it was
    /// not given, the file renamed into place. With
    /// `validate=True`, an invalid document is refused here and nothing is
    /// left at the path.
    #[pyo3(signature = (properties = None))]
    fn close(&mut self, py: Python<'_>, properties: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        if self.sink.is_none() {
            return Ok(());
        }
        if properties.is_some_and(|p| !p.is_none()) {
            match root_properties(properties) {
                Ok(p) => self.properties = p,
                Err(e) => {
                    self.discard();
                    return Err(e);
                }
            }
        }
        let end = Event::End(End {
            properties: self.properties.clone(),
        });
        let checked = (|| {
            if let Some(v) = &mut self.validator {
                v.push_event(&end)?;
            }
            self.encoder.encode(&end, &mut self.buf)
        })();
        if let Err(e) = checked {
            self.discard();
            return Err(crate::errors::to_py(&e));
        }
        if let Err(e) = self.flush_buf(py) {
            self.discard();
            return Err(e);
        }
        let count = self.encoder.pieces_written();
        let patch = self.piece_count.is_none();
        match self.sink.take() {
            Some(Sink::Path { path, temp, mut file }) => {
                let r = py.detach(|| -> std::io::Result<()> {
                    if patch {
                        file.seek(SeekFrom::Start(8))?;
                        file.write_all(&count.to_le_bytes())?;
                    }
                    file.flush()?;
                    drop(file);
                    std::fs::rename(&temp, &path)
                });
                if let Err(e) = r {
                    let _ = std::fs::remove_file(&temp);
                    return Err(crate::errors::to_py(&e.into()));
                }
            }
            Some(Sink::Object { obj, start }) => {
                let obj = obj.bind(py);
                if let (true, Some(start)) = (patch, start) {
                    let here = obj.call_method0("tell")?;
                    obj.call_method1("seek", (start + 8,))?;
                    obj.call_method1("write", (PyBytes::new(py, &count.to_le_bytes()),))?;
                    obj.call_method1("seek", (here,))?;
                }
                if obj.hasattr("flush")? {
                    obj.call_method0("flush")?;
                }
            }
            None => {}
        }
        Ok(())
    }

    /// Drops what was written: nothing is left at a path (a file object
    /// keeps the bytes already given to it).
    fn abort(&mut self) {
        self.discard();
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// Closes, or with an exception in the block aborts (and lets the
    /// exception go on).
    fn __exit__(
        &mut self,
        py: Python<'_>,
        exc_type: Option<&Bound<'_, PyAny>>,
        _exc: Option<&Bound<'_, PyAny>>,
        _tb: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<bool> {
        if exc_type.is_some_and(|t| !t.is_none()) {
            self.abort();
        } else {
            self.close(py, None)?;
        }
        Ok(false)
    }
}
