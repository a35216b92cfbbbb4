//! The rest of `ssklib`'s public names on dicts and arrays: `resolve`,
//! `validate` of a resolved dict, `mesh_document`, `write_glb` /
//! `write_gltf`, `canonical_document`, `document_differences`. Each does
//! what the reference's function of the same name does, on the library.

use std::collections::HashMap;
use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyTuple};
use sskb::mesh::{Gltf, Mesher};
use sskb::{DiffOptions, Document, Piece};

use crate::errors::{error, IntoPy};
use crate::frompy;
use crate::topy;

pub fn checked_doc(py: Python<'_>, doc: &Bound<'_, PyAny>) -> PyResult<Document> {
    let tree = frompy::tree(doc)?;
    py.detach(|| Document::from_value(&tree)).py()
}

/// A piece's integer field (`id`, `from`) as the reference reads it: an
/// `int` that is not a `bool`.
fn int_field(piece: &Bound<'_, PyDict>, key: &str, index: usize) -> PyResult<Option<i64>> {
    let Some(v) = piece.get_item(key)? else { return Ok(None) };
    if v.is_instance_of::<PyBool>() || !v.is_instance_of::<PyInt>() {
        return Err(error(
            "structure",
            &format!("pieces[{index}].{key}: `{key}` must be an integer"),
        ));
    }
    v.extract::<i64>().map(Some).map_err(|_| {
        error(
            "structure",
            &format!("pieces[{index}].{key}: {v} does not fit in 64 bits"),
        )
    })
}

/// `ssklib.resolve(doc, *, in_place=True)`: fills each piece with `from`
/// with the inheritable fields it lacks, deep-copied from its base, in
/// ascending id order; returns the document (the same object, or a deep
/// copy with `in_place=False`). It checks what the reference checks: a
/// mapping with a `pieces` list of mappings with unique integer ids, each
/// `from` an integer naming a lower piece that exists. Field values are not
/// checked: that is `validate`'s work.
#[pyfunction]
#[pyo3(signature = (doc, *, in_place = true))]
pub fn resolve<'py>(py: Python<'py>, doc: &Bound<'py, PyAny>, in_place: bool) -> PyResult<Bound<'py, PyAny>> {
    if !doc.is_instance_of::<PyDict>() {
        return Err(error("structure", "the document must be a mapping"));
    }
    let copy = py.import("copy")?;
    let deepcopy = copy.getattr("deepcopy")?;
    let target = if in_place { doc.clone() } else { deepcopy.call1((doc,))? };
    let pieces = target
        .get_item("pieces")
        .ok()
        .and_then(|p| p.cast_into::<PyList>().ok())
        .ok_or_else(|| error("structure", "the document needs a `pieces` list"))?;
    let mut dicts = Vec::with_capacity(pieces.len());
    let mut by_id: HashMap<i64, usize> = HashMap::with_capacity(pieces.len());
    for (index, piece) in pieces.iter().enumerate() {
        let piece = piece
            .cast_into::<PyDict>()
            .map_err(|_| error("structure", &format!("pieces[{index}]: a piece must be a mapping")))?;
        let id = int_field(&piece, "id", index)?
            .ok_or_else(|| error("structure", &format!("pieces[{index}]: every piece needs an `id`")))?;
        if by_id.insert(id, index).is_some() {
            return Err(error(
                "validation",
                &format!("pieces[{index}]: id {id} is used by more than one piece"),
            ));
        }
        dicts.push((id, piece));
    }
    let mut order: Vec<usize> = (0..dicts.len()).collect();
    order.sort_by_key(|&i| dicts[i].0);
    let mut from = vec![None; dicts.len()];
    for &i in &order {
        let (id, piece) = &dicts[i];
        if let Some(f) = int_field(piece, "from", i)? {
            let problem = if f == *id {
                Some(format!("`from` {f} is the piece itself"))
            } else if !by_id.contains_key(&f) {
                Some(format!("`from` {f} names no piece"))
            } else if f > *id {
                Some(format!("`from` {f} is not a lower id"))
            } else {
                None
            };
            if let Some(m) = problem {
                return Err(error("validation", &format!("pieces[{i}].from: piece {id}: {m}")));
            }
            from[i] = by_id.get(&f).copied();
        }
    }
    for &i in &order {
        let Some(base) = from[i] else { continue };
        let (piece, base) = (&dicts[i].1, &dicts[base].1);
        for field in Piece::INHERITED_FIELDS {
            if piece.contains(field)? {
                continue;
            }
            if let Some(v) = base.get_item(field)? {
                piece.set_item(field, deepcopy.call1((v,))?)?;
            }
        }
    }
    Ok(target)
}

/// `ssklib.validate(doc)` for a dict: checks a resolved document as it
/// stands (no field taken through `from`); `None`, or `SskbError`.
pub fn validate_dict(py: Python<'_>, doc: &Bound<'_, PyAny>) -> PyResult<()> {
    let d = checked_doc(py, doc)?;
    py.detach(|| sskb::validate_resolved(&d)).py()
}

pub fn check_resolution(resolution: i64) -> PyResult<u32> {
    let ok = (i64::from(sskb::mesh::MIN_RESOLUTION)..=i64::from(sskb::mesh::MAX_RESOLUTION)).contains(&resolution);
    if !ok {
        return Err(error(
            "usage",
            &format!(
                "resolution must be {} to {}, not {resolution}",
                sskb::mesh::MIN_RESOLUTION,
                sskb::mesh::MAX_RESOLUTION
            ),
        ));
    }
    Ok(resolution as u32)
}

/// `ssklib.mesh_document(doc, *, resolution=32)`: the combined solid as
/// `(vertices, faces)`, vertices `(n, 3)` float64 in glTF axes and metres
/// (x, z, −y)·0.001, faces `(m, 3)` int32; `(None, None)` when nothing is
/// left. The document is validated and resolved first.
#[pyfunction]
#[pyo3(signature = (doc, *, resolution = 32))]
pub fn mesh_document<'py>(py: Python<'py>, doc: &Bound<'py, PyAny>, resolution: i64) -> PyResult<Bound<'py, PyTuple>> {
    let resolution = check_resolution(resolution)?;
    let d = checked_doc(py, doc)?;
    let mesh = py
        .detach(|| {
            sskb::validate(&d)?;
            let mut mesher = Mesher::new(resolution);
            for p in &d.pieces {
                mesher.push(p)?;
            }
            mesher.combined()
        })
        .py()?;
    if mesh.is_empty() {
        return PyTuple::new(py, [py.None(), py.None()]);
    }
    let np = py.import("numpy")?;
    let mut v = Vec::with_capacity(mesh.positions.len() * 24);
    for p in &mesh.positions {
        for c in [p[0] * 0.001, p[2] * 0.001, -p[1] * 0.001] {
            v.extend_from_slice(&c.to_le_bytes());
        }
    }
    let mut f = Vec::with_capacity(mesh.triangles.len() * 12);
    for t in &mesh.triangles {
        for i in t {
            let i = i32::try_from(*i).map_err(|_| error("mesh", "more than 2^31 vertices"))?;
            f.extend_from_slice(&i.to_le_bytes());
        }
    }
    let array = |bytes: Vec<u8>, dtype: &str| -> PyResult<Bound<'py, PyAny>> {
        np.call_method1("frombuffer", (pyo3::types::PyByteArray::new(py, &bytes), dtype))?
            .call_method1("reshape", ((-1i64, 3i64),))
    };
    PyTuple::new(py, [array(v, "<f8")?, array(f, "<i4")?])
}

/// A mesh handed in by a caller: f32 positions and u32 triangles.
type Triangles = (Vec<[f32; 3]>, Vec<[u32; 3]>);

/// `vertices` and `faces` as f32 positions and u32 triangles, checked.
fn mesh_arrays(py: Python<'_>, vertices: &Bound<'_, PyAny>, faces: &Bound<'_, PyAny>) -> PyResult<Triangles> {
    let np = py.import("numpy")?;
    let v = np.call_method1("asarray", (vertices,))?;
    let f = np.call_method1("asarray", (faces,))?;
    let kind = |a: &Bound<'_, PyAny>| -> PyResult<String> { a.getattr("dtype")?.getattr("kind")?.extract() };
    let shape = |a: &Bound<'_, PyAny>| -> PyResult<Vec<usize>> { a.getattr("shape")?.extract() };
    if !matches!(kind(&v)?.as_str(), "f" | "i" | "u") || shape(&v)?.len() != 2 || shape(&v)?[1] != 3 {
        return Err(error(
            "structure",
            &format!(
                "vertices must be an (n, 3) array of numbers, not shape {:?} of dtype {}",
                shape(&v)?,
                v.getattr("dtype")?.str()?
            ),
        ));
    }
    if !matches!(kind(&f)?.as_str(), "i" | "u") || shape(&f)?.len() != 2 || shape(&f)?[1] != 3 {
        return Err(error(
            "structure",
            &format!(
                "faces must be an (m, 3) array of integers, not shape {:?} of dtype {}",
                shape(&f)?,
                f.getattr("dtype")?.str()?
            ),
        ));
    }
    let n = shape(&v)?[0];
    let vb: Vec<u8> = np
        .call_method1("ascontiguousarray", (&v, "<f4"))?
        .call_method0("tobytes")?
        .extract()?;
    let fb: Vec<u8> = np
        .call_method1("ascontiguousarray", (&f, "<i8"))?
        .call_method0("tobytes")?
        .extract()?;
    let positions = vb
        .chunks_exact(12)
        .map(|c| [0, 4, 8].map(|o| f32::from_le_bytes([c[o], c[o + 1], c[o + 2], c[o + 3]])))
        .collect();
    let mut triangles = Vec::with_capacity(fb.len() / 24);
    for (k, c) in fb.chunks_exact(24).enumerate() {
        let mut t = [0u32; 3];
        for (slot, o) in t.iter_mut().zip([0, 8, 16]) {
            let i = i64::from_le_bytes(c[o..o + 8].try_into().unwrap_or([0; 8]));
            *slot = u32::try_from(i)
                .ok()
                .filter(|&i| (i as usize) < n)
                .ok_or_else(|| error("structure", &format!("faces[{k}] names vertex {i} of {n}")))?;
        }
        triangles.push(t);
    }
    if triangles.is_empty() {
        return Err(error("structure", "faces is empty: there is nothing to write"));
    }
    Ok((positions, triangles))
}

/// Writes `bytes` to `path` through a temporary file beside it.
pub fn write_atomic(path: &std::path::Path, bytes: &[u8]) -> sskb::Result<()> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let temp = path.with_file_name(format!(".{name}.{}.{k}.tmp", std::process::id()));
    let r = std::fs::write(&temp, bytes).and_then(|()| std::fs::rename(&temp, path));
    if r.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    Ok(r?)
}

/// `ssklib.write_glb(vertices, faces, path)`: a `.glb` of one mesh whose
/// vertices are already in glTF axes and metres, flat-shaded as the
/// reference writes it (three vertices per triangle, face normals).
#[pyfunction]
pub fn write_glb(py: Python<'_>, vertices: &Bound<'_, PyAny>, faces: &Bound<'_, PyAny>, path: PathBuf) -> PyResult<()> {
    let (v, f) = mesh_arrays(py, vertices, faces)?;
    py.detach(|| write_atomic(&path, &Gltf::from_triangles(&v, &f)?.to_glb()?))
        .py()
}

/// `ssklib.write_gltf(vertices, faces, path)`: as `write_glb`, as `.gltf`
/// JSON with its buffer in a `.bin` of the same stem beside it.
#[pyfunction]
pub fn write_gltf(
    py: Python<'_>,
    vertices: &Bound<'_, PyAny>,
    faces: &Bound<'_, PyAny>,
    path: PathBuf,
) -> PyResult<()> {
    let (v, f) = mesh_arrays(py, vertices, faces)?;
    py.detach(|| write_gltf_files(&Gltf::from_triangles(&v, &f)?, &path))
        .py()
}

/// A `.gltf` at `path` and its buffer in the `.bin` of the same stem
/// beside it, each written atomically.
pub fn write_gltf_files(gltf: &Gltf, path: &std::path::Path) -> sskb::Result<()> {
    let bin_path = path.with_extension("bin");
    let bin_name = bin_path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let json = gltf.to_gltf(&bin_name)?;
    write_atomic(&bin_path, gltf.bin())?;
    write_atomic(path, &json)
}

/// `ssklib.canonical_document(doc)`: validated, resolved, normalized
/// (`sskb::canonical_document`).
#[pyfunction]
pub fn canonical_document<'py>(py: Python<'py>, doc: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let tree = frompy::tree(doc)?;
    let c = py.detach(|| sskb::canonical_document(&tree)).py()?;
    topy::value(py, &c)
}

fn options(rel_tol: f64, abs_tol: f64, max_diffs: i64) -> DiffOptions {
    DiffOptions {
        rel_tol,
        abs_tol,
        max_diffs: usize::try_from(max_diffs.max(0)).unwrap_or(usize::MAX),
    }
}

/// `ssklib.document_differences(left, right, *, rel_tol=1e-6,
/// abs_tol=1e-5, max_diffs=20)`: the differences in the reference's words.
#[pyfunction]
#[pyo3(signature = (left, right, *, rel_tol = 1e-6, abs_tol = 1e-5, max_diffs = 20))]
pub fn document_differences(
    py: Python<'_>,
    left: &Bound<'_, PyAny>,
    right: &Bound<'_, PyAny>,
    rel_tol: f64,
    abs_tol: f64,
    max_diffs: i64,
) -> PyResult<Vec<String>> {
    if rel_tol < 0.0 || abs_tol < 0.0 {
        // As math.isclose, which the reference calls.
        return Err(pyo3::exceptions::PyValueError::new_err(
            "tolerances must be non-negative",
        ));
    }
    let (l, r) = (frompy::tree(left)?, frompy::tree(right)?);
    py.detach(|| sskb::document_differences(&l, &r, options(rel_tol, abs_tol, max_diffs)))
        .py()
}

/// `ssklib.documents_equivalent(left, right, **kwargs)`.
#[pyfunction]
#[pyo3(signature = (left, right, *, rel_tol = 1e-6, abs_tol = 1e-5, max_diffs = 20))]
pub fn documents_equivalent(
    py: Python<'_>,
    left: &Bound<'_, PyAny>,
    right: &Bound<'_, PyAny>,
    rel_tol: f64,
    abs_tol: f64,
    max_diffs: i64,
) -> PyResult<bool> {
    Ok(document_differences(py, left, right, rel_tol, abs_tol, max_diffs)?.is_empty())
}
