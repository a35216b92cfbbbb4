//! Combining the pieces' meshes (GEOMETRY.md §6) with `boolmesh`, a pure
//! Rust port of manifold's robust mesh booleans.
//!
//! Add pieces contribute their volume; an intersect piece contributes its
//! overlap with the union of the other add and intersect pieces' own
//! volumes that its `affects` allows; subtract pieces remove their volume
//! from the contributions their `affects` allows. The result is the union
//! of what remains.
//!
//! Intermediate results stay in boolmesh's own form (re-importing one would
//! weld vertices that the result keeps apart where solids touch). Pieces
//! whose bounding boxes do not overlap are never put through a boolean,
//! and unions are balanced trees: a left fold re-processes the growing
//! result every time.

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

type Bounds = ([f64; 3], [f64; 3]);

/// A solid in boolmesh's form, `None` when empty, with its bounds.
#[derive(Clone)]
struct Solid {
    m: Option<Manifold>,
    bb: Option<Bounds>,
}

fn failed(what: &str, why: &str) -> Error {
    Error::new(ErrorKind::Mesh, format!("mesh boolean ({what}) failed: {why}"))
}

/// Runs a boolmesh call; its error, or a panic inside it, becomes a
/// `mesh` error rather than a crash.
fn guarded<T>(what: &str, f: impl FnOnce() -> std::result::Result<T, String>) -> Result<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(failed(what, &e)),
        Err(p) => {
            let why = p
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "the library panicked".to_owned());
            Err(failed(what, &why))
        }
    }
}

impl Solid {
    const EMPTY: Solid = Solid { m: None, bb: None };

    fn of(m: &Mesh) -> Result<Solid> {
        if m.is_empty() {
            return Ok(Solid::EMPTY);
        }
        let pos: Vec<f64> = m.positions.iter().flatten().copied().collect();
        let idx: Vec<usize> = m.triangles.iter().flatten().map(|&i| i as usize).collect();
        let mf = guarded("input", || Manifold::new(&pos, &idx))?;
        Ok(Solid::from(mf))
    }

    fn from(m: Manifold) -> Solid {
        if m.hs.is_empty() {
            return Solid::EMPTY;
        }
        let mut lo = [f64::INFINITY; 3];
        let mut hi = [f64::NEG_INFINITY; 3];
        for p in &m.ps {
            for (c, x) in [p.x, p.y, p.z].into_iter().enumerate() {
                lo[c] = lo[c].min(x);
                hi[c] = hi[c].max(x);
            }
        }
        Solid {
            m: Some(m),
            bb: Some((lo, hi)),
        }
    }

    fn mesh(&self) -> Mesh {
        let Some(m) = &self.m else { return Mesh::default() };
        Mesh {
            positions: m.ps.iter().map(|p| [p.x, p.y, p.z]).collect(),
            triangles: m
                .hs
                .chunks_exact(3)
                .map(|t| [t[0].tail as u32, t[1].tail as u32, t[2].tail as u32])
                .collect(),
        }
    }
}

fn overlap(a: &Option<Bounds>, b: &Option<Bounds>) -> bool {
    match (a, b) {
        (Some((alo, ahi)), Some((blo, bhi))) => (0..3).all(|c| alo[c] <= bhi[c] && blo[c] <= ahi[c]),
        _ => false,
    }
}

/// `a op b`; an empty result is an empty solid.
fn op(a: &Solid, b: &Solid, kind: OpType) -> Result<Solid> {
    let (Some(ma), Some(mb)) = (&a.m, &b.m) else {
        return Ok(match kind {
            OpType::Add if a.m.is_none() => b.clone(),
            OpType::Intersect => Solid::EMPTY,
            _ => a.clone(),
        });
    };
    if !overlap(&a.bb, &b.bb) {
        match kind {
            OpType::Intersect => return Ok(Solid::EMPTY),
            OpType::Subtract => return Ok(a.clone()),
            OpType::Add => {}
        }
    }
    let name = match kind {
        OpType::Add => "union",
        OpType::Subtract => "difference",
        OpType::Intersect => "intersection",
    };
    match guarded(name, || compute_boolean(ma, mb, kind)) {
        Ok(m) => Ok(Solid::from(m)),
        // boolmesh reports an empty result as an error.
        Err(e) if e.message().contains("empty") => Ok(Solid::EMPTY),
        Err(e) => Err(e),
    }
}

/// The union of `solids` as a balanced tree.
fn union_all(mut solids: Vec<Solid>) -> Result<Solid> {
    solids.retain(|s| s.m.is_some());
    while solids.len() > 1 {
        let mut next = Vec::with_capacity(solids.len().div_ceil(2));
        let mut it = solids.into_iter();
        while let Some(a) = it.next() {
            next.push(match it.next() {
                Some(b) => op(&a, &b, OpType::Add)?,
                None => a,
            });
        }
        solids = next;
    }
    Ok(solids.pop().unwrap_or(Solid::EMPTY))
}

fn allows(affects: &Option<Vec<u32>>, id: u32) -> bool {
    affects.as_ref().is_none_or(|a| a.contains(&id))
}

/// Unions of sets of parts, each made once.
struct Unions {
    made: HashMap<Vec<usize>, Solid>,
}

impl Unions {
    fn of(&mut self, solids: &[Solid], which: Vec<usize>) -> Result<Solid> {
        if let Some(s) = self.made.get(&which) {
            return Ok(s.clone());
        }
        let s = union_all(which.iter().map(|&i| solids[i].clone()).collect())?;
        self.made.insert(which, s.clone());
        Ok(s)
    }
}

/// Each contributing piece's final part, in ascending id: the add and
/// intersect pieces after the subtract phase (empty ones left out).
///
/// # Errors
/// `mesh` when the boolean library fails.
pub fn contributions(parts: &[Part]) -> Result<Vec<(u32, Mesh)>> {
    Ok(solids(parts)?.into_iter().map(|(id, s)| (id, s.mesh())).collect())
}

fn solids(parts: &[Part]) -> Result<Vec<(u32, Solid)>> {
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by_key(|&i| parts[i].id);
    let solids = parts.iter().map(|p| Solid::of(&p.mesh)).collect::<Result<Vec<_>>>()?;
    let mut unions = Unions { made: HashMap::new() };
    let mut out = Vec::new();
    for &i in &order {
        let p = &parts[i];
        let own = &solids[i];
        let part = match p.mode {
            Mode::Subtract => continue,
            Mode::Intersect => {
                // Only candidates that can overlap it.
                let others: Vec<usize> = order
                    .iter()
                    .copied()
                    .filter(|&j| {
                        let q = &parts[j];
                        j != i
                            && q.mode != Mode::Subtract
                            && allows(&p.affects, q.id)
                            && overlap(&own.bb, &solids[j].bb)
                    })
                    .collect();
                op(own, &unions.of(&solids, others)?, OpType::Intersect)?
            }
            Mode::Add => own.clone(),
        };
        let cutting: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&j| {
                let s = &parts[j];
                s.mode == Mode::Subtract && allows(&s.affects, p.id) && overlap(&part.bb, &solids[j].bb)
            })
            .collect();
        let part = if cutting.is_empty() {
            part
        } else {
            op(&part, &unions.of(&solids, cutting)?, OpType::Subtract)?
        };
        if part.m.is_some() {
            out.push((p.id, part));
        }
    }
    Ok(out)
}

/// The combined solid: the union of the contributions.
///
/// # Errors
/// `mesh` when the boolean library fails.
pub fn combine(parts: &[Part]) -> Result<Mesh> {
    let all = solids(parts)?.into_iter().map(|(_, s)| s).collect();
    Ok(union_all(all)?.mesh())
}
