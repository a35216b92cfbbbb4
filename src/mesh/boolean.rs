//! Combining the pieces' meshes (GEOMETRY.md §6) with `manifold-rust`, a
//! pure Rust port of Manifold, the library the reference uses: its exact
//! engine, the same algorithm, for the booleans. A sweep that folds through
//! itself is first rebuilt into the volume it sweeps (see [`swept`]).
//!
//! Add pieces contribute their volume; an intersect piece contributes its
//! overlap with the union of the other add and intersect pieces' own
//! volumes that its `affects` allows; subtract pieces remove their volume
//! from the contributions their `affects` allows. The result is the union
//! of what remains.
//!
//! Every call into the library is guarded: a panic inside it, an error
//! status, or an empty result from a non-empty input that cannot be empty
//! becomes a `mesh` error naming the pieces and the operation. Pieces
//! whose bounding boxes do not overlap are never put through a boolean,
//! and unions are balanced trees in ascending id (a left fold re-processes
//! the growing result every time). The library runs single-threaded here,
//! so the same input gives the same triangles in every run.

use std::collections::HashMap;
use std::rc::Rc;

use manifold_rust::linalg::Vec3;
use manifold_rust::manifold::Manifold;
use manifold_rust::types::{BooleanEngine, Error as Status, MeshGL64, OpType};

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
    /// For a path piece, the vertices in each ring of its mesh, whose
    /// positions are its start point, its rings in order along the path
    /// and its end point; 0 otherwise. A sweep that folds through itself
    /// is rebuilt from these rings.
    pub ring: u32,
}

type Bounds = ([f64; 3], [f64; 3]);

/// A solid in the library's form (`None` when empty), its bounds, and the
/// ids of the pieces it was made from (for error messages).
#[derive(Clone)]
struct Solid {
    m: Option<Rc<Manifold>>,
    bb: Option<Bounds>,
    ids: Rc<[u32]>,
}

fn failed(what: &str, why: &str) -> Error {
    Error::new(ErrorKind::Mesh, format!("mesh boolean ({what}) failed: {why}"))
}

/// Runs a library call; a panic inside it becomes a `mesh` error rather
/// than a crash, and so does an error status on its result.
fn guarded(what: impl Fn() -> String, f: impl FnOnce() -> Manifold) -> Result<Manifold> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(m) => match m.status() {
            Status::NoError => Ok(m),
            s => Err(failed(&what(), &format!("{s:?}"))),
        },
        Err(p) => {
            let why = p
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "the library panicked".to_owned());
            Err(failed(&what(), &why))
        }
    }
}

/// "piece 3" or "pieces 3, 5 and 8".
fn named(ids: &[u32]) -> String {
    match ids {
        [one] => format!("piece {one}"),
        [rest @ .., last] => {
            let rest: Vec<String> = rest.iter().map(u32::to_string).collect();
            format!("pieces {} and {last}", rest.join(", "))
        }
        [] => "nothing".to_owned(),
    }
}

impl Solid {
    fn empty(ids: Rc<[u32]>) -> Solid {
        Solid { m: None, bb: None, ids }
    }

    /// A piece's own solid. A sweep whose surface crosses itself (a bend
    /// tighter than its section, a path that comes back through itself) is
    /// rebuilt by the robust engine into the region of positive winding
    /// number: the volume it sweeps, closed, with no part counted twice.
    /// A sheet (no volume) is kept as it is, as the reference keeps it.
    fn of(part: &Part) -> Result<Solid> {
        let ids: Rc<[u32]> = Rc::from([part.id]);
        let m = &part.mesh;
        if m.is_empty() {
            return Ok(Solid::empty(ids));
        }
        let mesh = MeshGL64 {
            num_prop: 3,
            vert_properties: m.positions.iter().flatten().copied().collect(),
            tri_verts: m.triangles.iter().flatten().map(|&i| u64::from(i)).collect(),
            ..MeshGL64::default()
        };
        let what = || format!("the mesh of piece {}", part.id);
        let mut mf = guarded(what, || Manifold::from_mesh_gl64(&mesh))?;
        if mf.is_empty() {
            // Our tessellation is closed by construction; an empty import
            // means the library refused it.
            return Err(failed(&what(), "the library found it not closed"));
        }
        if part.ring > 0 && m.volume() > 0.0 && guarded_bool(&mf, Manifold::has_self_intersections, what)? {
            mf = swept(part)?;
        }
        Ok(Solid::from(mf, ids))
    }

    fn from(m: Manifold, ids: Rc<[u32]>) -> Solid {
        if m.is_empty() {
            return Solid::empty(ids);
        }
        let b = m.bounding_box();
        Solid {
            bb: Some(([b.min.x, b.min.y, b.min.z], [b.max.x, b.max.y, b.max.z])),
            m: Some(Rc::new(m)),
            ids,
        }
    }

    fn mesh(&self) -> Mesh {
        let Some(m) = &self.m else { return Mesh::default() };
        let gl = m.get_mesh_gl64(-1);
        let stride = usize::try_from(gl.num_prop).unwrap_or(3).max(3);
        Mesh {
            positions: gl
                .vert_properties
                .chunks_exact(stride)
                .map(|p| [p[0], p[1], p[2]])
                .collect(),
            triangles: gl
                .tri_verts
                .chunks_exact(3)
                .map(|t| [t[0] as u32, t[1] as u32, t[2] as u32])
                .collect(),
        }
    }
}

/// The volume a folding sweep covers: the union of the convex hulls of
/// each pair of consecutive rings (and of each end ring with its end
/// point). Each hull is a solid however the rings are tilted, so where the
/// sweep's own surface crosses itself, the union counts every point once.
/// For rings that are parallel (straight stretches) the hull is the same
/// solid as the surface between them; where a bend tilts them it adds at
/// most the sliver between the chord and the arc.
fn swept(part: &Part) -> Result<Manifold> {
    let what = || format!("rebuilding piece {}, whose sweep folds through itself", part.id);
    let n = part.ring as usize;
    let pos = &part.mesh.positions;
    let rings = pos.len().saturating_sub(2) / n;
    if n < 3 || rings * n + 2 != pos.len() {
        return Err(failed(&what(), "its mesh is not laid out in rings"));
    }
    let start = &pos[..1];
    let end = &pos[pos.len() - 1..];
    let mut groups: Vec<&[[f64; 3]]> = vec![start];
    groups.extend(pos[1..pos.len() - 1].chunks_exact(n));
    groups.push(end);
    let hulls = groups
        .windows(2)
        .map(|w| {
            let points: Vec<Vec3> = w
                .iter()
                .flat_map(|g| g.iter())
                .map(|p| Vec3::new(p[0], p[1], p[2]))
                .collect();
            let m = guarded(what, || Manifold::hull(&points))?;
            Ok(Solid::from(m, Rc::from([part.id])))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(union_all(hulls)?
        .and_then(|s| s.m)
        .map_or_else(Manifold::empty, |m| Rc::try_unwrap(m).unwrap_or_else(|m| (*m).clone())))
}

fn guarded_bool(m: &Manifold, f: impl FnOnce(&Manifold) -> bool, what: impl Fn() -> String) -> Result<bool> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(m))).map_err(|_| failed(&what(), "the library panicked"))
}

fn overlap(a: &Option<Bounds>, b: &Option<Bounds>) -> bool {
    match (a, b) {
        (Some((alo, ahi)), Some((blo, bhi))) => (0..3).all(|c| alo[c] <= bhi[c] && blo[c] <= ahi[c]),
        _ => false,
    }
}

/// `a op b`; an empty result is an empty solid.
fn op(a: &Solid, b: &Solid, kind: OpType) -> Result<Solid> {
    let ids: Rc<[u32]> = {
        let mut v: Vec<u32> = a.ids.iter().chain(b.ids.iter()).copied().collect();
        v.sort_unstable();
        v.dedup();
        v.into()
    };
    let (Some(ma), Some(mb)) = (&a.m, &b.m) else {
        return Ok(match kind {
            OpType::Add if a.m.is_none() => b.clone(),
            OpType::Intersect => Solid::empty(ids),
            _ => a.clone(),
        });
    };
    if !overlap(&a.bb, &b.bb) {
        match kind {
            OpType::Intersect => return Ok(Solid::empty(ids)),
            OpType::Subtract => return Ok(a.clone()),
            OpType::Add => {}
        }
    }
    let what = || match kind {
        OpType::Add => format!("union of {} with {}", named(&a.ids), named(&b.ids)),
        OpType::Subtract => format!("{} minus {}", named(&a.ids), named(&b.ids)),
        OpType::Intersect => format!("{} intersected with {}", named(&a.ids), named(&b.ids)),
    };
    let m = guarded(what, || ma.boolean_with_engine(mb, kind, BooleanEngine::Exact))?;
    let m = match kind {
        OpType::Add => m,
        _ => guarded(what, || without_slivers(m))?,
    };
    Ok(Solid::from(m, ids))
}

/// A difference or intersection of solids whose surfaces coincide (a copy
/// inherited through `from` subtracted from another) can leave shells of
/// no volume where the surfaces met: they are dropped. A shell is kept
/// when its volume is more than a millionth of the cube of its size.
fn without_slivers(m: Manifold) -> Manifold {
    let parts = m.decompose();
    let keep: Vec<bool> = parts
        .iter()
        .map(|p| {
            let b = p.bounding_box();
            let d = [b.max.x - b.min.x, b.max.y - b.min.y, b.max.z - b.min.z];
            let size = d.iter().fold(0.0f64, |a, x| a.max(*x));
            p.volume().abs() > 1e-6 * size * size * size
        })
        .collect();
    if keep.iter().all(|k| *k) {
        return m;
    }
    let kept: Vec<Manifold> = parts
        .into_iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(p, _)| p)
        .collect();
    Manifold::compose(&kept)
}

/// The union of `solids` as a balanced tree.
fn union_all(mut solids: Vec<Solid>) -> Result<Option<Solid>> {
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
    Ok(solids.pop())
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
        let s = union_all(which.iter().map(|&i| solids[i].clone()).collect())?
            .unwrap_or_else(|| Solid::empty(Rc::from([])));
        self.made.insert(which, s.clone());
        Ok(s)
    }
}

/// Each contributing piece's final part, in ascending id: the add and
/// intersect pieces after the subtract phase (empty ones left out).
///
/// # Errors
/// `mesh` when the boolean library fails, naming the pieces and the
/// operation.
pub fn contributions(parts: &[Part]) -> Result<Vec<(u32, Mesh)>> {
    Ok(solids(parts)?.into_iter().map(|(id, s)| (id, s.mesh())).collect())
}

fn solids(parts: &[Part]) -> Result<Vec<(u32, Solid)>> {
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by_key(|&i| parts[i].id);
    let solids = parts.iter().map(Solid::of).collect::<Result<Vec<_>>>()?;
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
/// `mesh` when the boolean library fails, naming the pieces and the
/// operation.
pub fn combine(parts: &[Part]) -> Result<Mesh> {
    let all = solids(parts)?.into_iter().map(|(_, s)| s).collect();
    Ok(union_all(all)?.map(|s| s.mesh()).unwrap_or_default())
}
