//! Combining the pieces' meshes (GEOMETRY.md §6) with `boolmesh`, a pure
//! Rust port of manifold's robust mesh booleans.
//!
//! Add pieces contribute their volume; an intersect piece contributes its
//! overlap with the union of the other add and intersect pieces' own
//! volumes that its `affects` allows; subtract pieces remove their volume
//! from the contributions their `affects` allows. The result is the union
//! of what remains. Unions are built as balanced trees: a left fold of many
//! unions re-processes the growing result every time.

use std::collections::HashMap;

use boolmesh::prelude::{compute_boolean, Manifold, OpType};

use super::Mesh;
use crate::error::{Error, ErrorKind, Result};
use crate::Mode;

/// One piece's part in the booleans.
#[derive(Clone, Debug)]
pub struct Part {
    /// The piece's id.
    pub id: u32,
    /// Its effective mode.
    pub mode: Mode,
    /// The ids it is limited to (`None`: all).
    pub affects: Option<Vec<u32>>,
    /// Its mesh.
    pub mesh: Mesh,
}

fn failed(what: &str, why: &str) -> Error {
    Error::new(ErrorKind::Mesh, format!("mesh boolean ({what}) failed: {why}"))
}

fn manifold(m: &Mesh) -> Result<Manifold> {
    let pos: Vec<f64> = m.positions.iter().flatten().copied().collect();
    let idx: Vec<usize> = m.triangles.iter().flatten().map(|&i| i as usize).collect();
    Manifold::new(&pos, &idx).map_err(|e| failed("input", &e))
}

fn mesh(m: &Manifold) -> Mesh {
    let positions = m.ps.iter().map(|p| [p.x, p.y, p.z]).collect();
    let triangles =
        m.hs.chunks_exact(3)
            .map(|t| [t[0].tail as u32, t[1].tail as u32, t[2].tail as u32])
            .collect();
    Mesh { positions, triangles }
}

/// `a op b`; an empty result is an empty mesh.
pub(crate) fn op(a: &Mesh, b: &Mesh, kind: OpType) -> Result<Mesh> {
    match kind {
        OpType::Add if a.is_empty() => return Ok(b.clone()),
        OpType::Add | OpType::Subtract if b.is_empty() => return Ok(a.clone()),
        OpType::Intersect if a.is_empty() || b.is_empty() => return Ok(Mesh::default()),
        OpType::Subtract if a.is_empty() => return Ok(Mesh::default()),
        _ => {}
    }
    let name = match kind {
        OpType::Add => "union",
        OpType::Subtract => "difference",
        OpType::Intersect => "intersection",
    };
    match compute_boolean(&manifold(a)?, &manifold(b)?, kind) {
        Ok(m) => Ok(mesh(&m)),
        // boolmesh reports an empty result as an error.
        Err(e) if e.contains("empty") => Ok(Mesh::default()),
        Err(e) => Err(failed(name, &e)),
    }
}

/// The union of `meshes` as a balanced tree.
pub(crate) fn union_all(mut meshes: Vec<Mesh>) -> Result<Mesh> {
    meshes.retain(|m| !m.is_empty());
    while meshes.len() > 1 {
        let mut next = Vec::with_capacity(meshes.len().div_ceil(2));
        let mut it = meshes.into_iter();
        while let Some(a) = it.next() {
            next.push(match it.next() {
                Some(b) => op(&a, &b, OpType::Add)?,
                None => a,
            });
        }
        meshes = next;
    }
    Ok(meshes.pop().unwrap_or_default())
}

fn allows(affects: &Option<Vec<u32>>, id: u32) -> bool {
    affects.as_ref().is_none_or(|a| a.contains(&id))
}

/// Unions of sets of parts, each made once.
struct Unions<'a> {
    parts: Vec<&'a Part>,
    made: HashMap<Vec<u32>, Mesh>,
}

impl<'a> Unions<'a> {
    /// The union of the parts with these ids (ascending).
    fn of(&mut self, ids: Vec<u32>) -> Result<Mesh> {
        if let Some(m) = self.made.get(&ids) {
            return Ok(m.clone());
        }
        let meshes = self
            .parts
            .iter()
            .filter(|p| ids.binary_search(&p.id).is_ok())
            .map(|p| p.mesh.clone())
            .collect();
        let m = union_all(meshes)?;
        self.made.insert(ids, m.clone());
        Ok(m)
    }
}

/// The intersect phase: each add and intersect piece's part before
/// subtraction, with the ids of the subtract pieces that cut it.
fn phase_one(parts: &[Part]) -> Result<Vec<(u32, Mesh, Vec<u32>)>> {
    let mut sorted: Vec<&Part> = parts.iter().collect();
    sorted.sort_by_key(|p| p.id);
    let candidates: Vec<&Part> = sorted.iter().copied().filter(|p| p.mode != Mode::Subtract).collect();
    let subtracts: Vec<u32> = sorted
        .iter()
        .filter(|p| p.mode == Mode::Subtract)
        .map(|p| p.id)
        .collect();
    let mut unions = Unions {
        parts: sorted.clone(),
        made: HashMap::new(),
    };
    let mut out = Vec::new();
    for p in &candidates {
        let m = match p.mode {
            Mode::Intersect => {
                let others = candidates
                    .iter()
                    .filter(|q| q.id != p.id && allows(&p.affects, q.id))
                    .map(|q| q.id)
                    .collect();
                op(&p.mesh, &unions.of(others)?, OpType::Intersect)?
            }
            _ => p.mesh.clone(),
        };
        let cutting = subtracts
            .iter()
            .copied()
            .filter(|s| sorted.iter().any(|q| q.id == *s && allows(&q.affects, p.id)))
            .collect();
        out.push((p.id, m, cutting));
    }
    Ok(out)
}

/// Each contributing piece's final part, in ascending id: the add and
/// intersect pieces after the subtract phase (empty ones left out).
///
/// # Errors
/// `mesh` when the boolean library fails.
pub fn contributions(parts: &[Part]) -> Result<Vec<(u32, Mesh)>> {
    let mut unions = Unions {
        parts: parts.iter().collect(),
        made: HashMap::new(),
    };
    let mut out = Vec::new();
    for (id, m, cutting) in phase_one(parts)? {
        let m = op(&m, &unions.of(cutting)?, OpType::Subtract)?;
        if !m.is_empty() {
            out.push((id, m));
        }
    }
    Ok(out)
}

/// The combined solid: the union of the contributions. Contributions cut
/// by the same subtract pieces are united first and cut once.
///
/// # Errors
/// `mesh` when the boolean library fails.
pub fn combine(parts: &[Part]) -> Result<Mesh> {
    let mut unions = Unions {
        parts: parts.iter().collect(),
        made: HashMap::new(),
    };
    let mut groups: Vec<(Vec<u32>, Vec<Mesh>)> = Vec::new();
    for (_, m, cutting) in phase_one(parts)? {
        match groups.iter_mut().find(|g| g.0 == cutting) {
            Some(g) => g.1.push(m),
            None => groups.push((cutting, vec![m])),
        }
    }
    let mut results = Vec::new();
    for (cutting, meshes) in groups {
        let whole = union_all(meshes)?;
        results.push(op(&whole, &unions.of(cutting)?, OpType::Subtract)?);
    }
    union_all(results)
}
