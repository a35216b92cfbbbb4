//! Combining the pieces' meshes (docs/spec/GEOMETRY.md §6) with `manifold-rust`, a
//! pure Rust port of Manifold, the library the reference uses: its exact
//! engine, the same algorithm, for the booleans. A sweep that folds through
//! itself is first rebuilt into the volume it sweeps (`fold.rs`).
//!
//! Add pieces contribute their volume; an intersect piece contributes its
//! overlap with the union of the other add and intersect pieces' own
//! volumes that its `affects` allows; subtract pieces remove their volume
//! from the contributions their `affects` allows. The result is the union
//! of what remains.
//!
//! Every call into the library is guarded: a panic inside it, or an error
//! status on its result, becomes a `mesh` error naming the pieces and the
//! operation. Pieces whose bounding boxes do not overlap are never put
//! through a boolean; unions put neighbours in space together first and
//! disjoint solids together without a boolean. Independent steps run on
//! all cores (`parallel.rs`), and every result is written in a canonical
//! order, so the same input gives the same triangles in every run and on
//! any number of threads.

use std::collections::HashMap;
use std::sync::Arc;

use manifold_rust::manifold::Manifold;
use manifold_rust::types::{BooleanEngine, Error as Status, MeshGL64, OpType};

use super::apart::union_apart;
use super::fold::{folds_at_many_sides, swept, swept_parts};
use super::parallel::par_map;
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
    /// Whether a section has a zero radius (one zero size component): a
    /// sheet of no volume, kept as it is, as the reference keeps it.
    pub sheet: bool,
    /// The resolution it was tessellated at. A folding sweep's hulls are
    /// built from sections of at most `max(resolution, 16)` vertices
    /// (docs/meshes.md, "Sweeps that fold through themselves").
    pub resolution: u32,
}

pub(super) type Bounds = ([f64; 3], [f64; 3]);

/// A solid in the library's form (`None` when empty), its bounds, and the
/// ids of the pieces it was made from (for error messages).
#[derive(Clone)]
pub(super) struct Solid {
    pub(super) m: Option<Arc<Manifold>>,
    pub(super) bb: Option<Bounds>,
    pub(super) ids: Arc<[u32]>,
}

pub(super) fn failed(what: &str, why: &str) -> Error {
    Error::new(ErrorKind::Mesh, format!("mesh boolean ({what}) failed: {why}"))
}

/// Runs a library call; a panic inside it becomes a `mesh` error rather
/// than a crash, and so does an error status on its result.
pub(super) fn guarded(what: impl Fn() -> String, f: impl FnOnce() -> Manifold) -> Result<Manifold> {
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
    fn empty(ids: Arc<[u32]>) -> Solid {
        Solid { m: None, bb: None, ids }
    }

    /// A piece's own solid. A sweep whose surface crosses itself (a bend
    /// tighter than its section, a path that comes back through itself),
    /// or that is inside out, is rebuilt into the volume it sweeps
    /// ([`swept`]): closed, with no part counted twice. A sheet (no volume)
    /// is kept as it is, as the reference keeps it.
    fn of(part: &Part) -> Result<Solid> {
        let ids: Arc<[u32]> = Arc::from([part.id]);
        if part.mesh.is_empty() {
            return Ok(Solid::empty(ids));
        }
        let m = match loaded(part)? {
            Some(m) => m,
            None => swept(part)?,
        };
        Ok(Solid::from(m, ids))
    }

    pub(super) fn from(m: Manifold, ids: Arc<[u32]>) -> Solid {
        if m.is_empty() {
            return Solid::empty(ids);
        }
        let b = m.bounding_box();
        Solid {
            bb: Some(([b.min.x, b.min.y, b.min.z], [b.max.x, b.max.y, b.max.z])),
            m: Some(Arc::new(m)),
            ids,
        }
    }

    /// The solid as a mesh in a canonical order: vertices sorted by
    /// position, each triangle starting at its least vertex, triangles
    /// sorted. The library numbers meshes from a process-wide counter and
    /// orders its output by those numbers, which threads hand out in no
    /// fixed order; the same solid must give the same bytes.
    pub(super) fn mesh(&self) -> Mesh {
        mesh_of(std::slice::from_ref(self))
    }
}

/// The meshes of `solids` side by side as one, in the canonical order of
/// [`Solid::mesh`].
pub(super) fn mesh_of(solids: &[Solid]) -> Mesh {
    let mut positions: Vec<[f64; 3]> = Vec::new();
    let mut tri_verts: Vec<u64> = Vec::new();
    for m in solids.iter().filter_map(|s| s.m.as_ref()) {
        let gl = m.get_mesh_gl64(-1);
        let stride = usize::try_from(gl.num_prop).unwrap_or(3).max(3);
        let base = positions.len() as u64;
        let count = gl.vert_properties.len() / stride;
        positions.extend(gl.vert_properties.chunks_exact(stride).map(|p| [p[0], p[1], p[2]]));
        // A corner that names no vertex of its own solid names none here.
        tri_verts.extend(gl.tri_verts.iter().map(|&i| {
            if usize::try_from(i).is_ok_and(|k| k < count) {
                base.saturating_add(i)
            } else {
                u64::MAX
            }
        }));
    }
    let mut order: Vec<u32> = (0..positions.len() as u32).collect();
    let key = |i: &u32| positions[*i as usize].map(f64::to_bits);
    order.sort_by(|a, b| {
        let (pa, pb) = (positions[*a as usize], positions[*b as usize]);
        pa[0]
            .total_cmp(&pb[0])
            .then(pa[1].total_cmp(&pb[1]))
            .then(pa[2].total_cmp(&pb[2]))
            .then(key(a).cmp(&key(b)))
    });
    let mut rank = vec![0u32; positions.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i as usize] = r as u32;
    }
    let mut triangles: Vec<[u32; 3]> = tri_verts
        .chunks_exact(3)
        .filter_map(|t| {
            let t = [0, 1, 2].map(|k| usize::try_from(t[k]).ok().and_then(|i| rank.get(i).copied()));
            let [Some(a), Some(b), Some(c)] = t else { return None };
            // Rotate (keeping the orientation) so the least comes first.
            Some(if a <= b && a <= c {
                [a, b, c]
            } else if b <= c {
                [b, c, a]
            } else {
                [c, a, b]
            })
        })
        .collect();
    triangles.sort_unstable();
    Mesh {
        positions: order.iter().map(|&i| positions[i as usize]).collect(),
        triangles,
    }
}

/// A part's mesh in the library's form, or `None` when it is to be
/// rebuilt into the volume it sweeps ([`swept`]): a sweep that is not a
/// sheet and is inside out somewhere (a negative volume: frames turned
/// through a fold), folds with a section of many sides, or crosses itself.
/// The first two are settled before the mesh is put in the library's form
/// (for a section of a thousand sides, most of the piece's time). A refused
/// mesh comes back with an error status (guarded); an empty one without is
/// a sheet whose triangles the import collapsed (no volume, nothing left),
/// as in the reference. A sheet (no volume) is kept as it is, as the
/// reference keeps it.
fn loaded(part: &Part) -> Result<Option<Manifold>> {
    let m = &part.mesh;
    let sweep = part.ring > 0 && !part.sheet;
    if sweep && (m.volume() <= 0.0 || folds_at_many_sides(part)) {
        return Ok(None);
    }
    let what = || format!("the mesh of piece {}", part.id);
    let mf = guarded(what, || Manifold::from_mesh_gl64(&gl(m)))?;
    if sweep && guarded_bool(&mf, Manifold::has_self_intersections, what)? {
        return Ok(None);
    }
    Ok(Some(mf))
}

/// A piece's own solid as [`combine`] takes it, made with no boolean: one
/// mesh, inside wherever its winding number is not 0. A sweep that folds
/// through itself is the folds' hulls and the tubes between them side by
/// side, each closed and facing outward (where they overlap the winding
/// number is 2 or more): the volume their union is, the union not made.
/// Where [`combine`] gives that union up for hulls of longer runs (a
/// section much wider than its path is long, docs/meshes.md) its solid
/// holds more. What the import scores a candidate piece by: the
/// tessellation and the exact test for self-intersections, not the union.
///
/// # Errors
/// `mesh` when the library refuses the piece's mesh, a hull or a tube.
pub fn own_volume(part: &Part) -> Result<Mesh> {
    if part.mesh.is_empty() {
        return Ok(Mesh::default());
    }
    if let Some(mf) = loaded(part)? {
        return Ok(Solid::from(mf, Arc::from([part.id])).mesh());
    }
    let mut out = Mesh::default();
    for mut m in swept_parts(part)? {
        if m.volume() < 0.0 {
            m.triangles.iter_mut().for_each(|t| t.swap(1, 2));
        }
        let base = u32::try_from(out.positions.len())
            .map_err(|_| failed(&format!("piece {}", part.id), "too many vertices"))?;
        out.positions.extend_from_slice(&m.positions);
        out.triangles.extend(m.triangles.iter().map(|t| t.map(|i| i + base)));
    }
    Ok(out)
}

pub(super) fn gl(m: &Mesh) -> MeshGL64 {
    MeshGL64 {
        num_prop: 3,
        vert_properties: m.positions.iter().flatten().copied().collect(),
        tri_verts: m.triangles.iter().flatten().map(|&i| u64::from(i)).collect(),
        ..MeshGL64::default()
    }
}

/// Whether the surface of a closed mesh crosses itself (two of its
/// triangles meet other than at the edges and corners they share): a sweep
/// that folds through itself, which [`combine`] rebuilds before the
/// booleans.
///
/// # Errors
/// `mesh` when the library refuses the mesh (not closed).
pub fn crosses_itself(mesh: &Mesh) -> Result<bool> {
    if mesh.is_empty() {
        return Ok(false);
    }
    let what = || "checking a mesh for self-intersections".to_owned();
    let m = guarded(what, || Manifold::from_mesh_gl64(&gl(mesh)))?;
    guarded_bool(&m, Manifold::has_self_intersections, what)
}

pub(super) fn guarded_bool(m: &Manifold, f: impl FnOnce(&Manifold) -> bool, what: impl Fn() -> String) -> Result<bool> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(m))).map_err(|_| failed(&what(), "the library panicked"))
}

pub(super) fn overlap(a: &Option<Bounds>, b: &Option<Bounds>) -> bool {
    match (a, b) {
        (Some((alo, ahi)), Some((blo, bhi))) => (0..3).all(|c| alo[c] <= bhi[c] && blo[c] <= ahi[c]),
        _ => false,
    }
}

/// The ids of a solid made from pieces `ids`: ascending, each once.
fn id_set(ids: impl Iterator<Item = u32>) -> Arc<[u32]> {
    let mut v: Vec<u32> = ids.collect();
    v.sort_unstable();
    v.dedup();
    v.into()
}

/// `a op b`; an empty result is an empty solid.
pub(super) fn op(a: &Solid, b: &Solid, kind: OpType) -> Result<Solid> {
    let ids = id_set(a.ids.iter().chain(b.ids.iter()).copied());
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
    let started = tracing().then(std::time::Instant::now);
    let m = guarded(what, || ma.boolean_with_engine(mb, kind, BooleanEngine::Exact))?;
    let m = match kind {
        OpType::Add => m,
        _ => guarded(what, || without_slivers(m))?,
    };
    if let Some(t) = started {
        eprintln!(
            "sskb-mesh: {}: {} and {} triangles, {} made, {:.3} ms",
            what(),
            ma.num_tri(),
            mb.num_tri(),
            m.num_tri(),
            1e3 * t.elapsed().as_secs_f64()
        );
    }
    Ok(Solid::from(m, ids))
}

/// Whether `SSKB_MESH_TRACE` is set: every boolean then writes a line to
/// standard error (the operation, its operands' and result's triangles,
/// its time), read once. Where a model's meshing time goes, by operation
/// (docs/performance.md).
fn tracing() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("SSKB_MESH_TRACE").is_some())
}

/// A difference or intersection of solids whose surfaces coincide (a copy
/// inherited through `from` subtracted from another) can leave shells of
/// no volume where the surfaces met: they are dropped. A shell is kept
/// when its volume is more than a millionth of the cube of its size.
///
/// One pass over the triangles finds the shells (triangles joined by
/// shared vertices, as the library's own connectivity joins them) with
/// their volumes and boxes; only when one is dropped is the solid split:
/// by the library for a few shells, else made again from the kept shells'
/// triangles. (The library's `decompose` copies the whole mesh once per
/// shell: k shells of n triangles cost k·n, and running it after every
/// difference and intersection made large models at high resolutions run
/// for hours.)
/// Up to this many shells, a solid with a sliver is split by the library.
const FEW_SHELLS: usize = 16;

fn without_slivers(m: Manifold) -> Manifold {
    let gl = m.get_mesh_gl64(-1);
    let stride = usize::try_from(gl.num_prop).unwrap_or(3).max(3);
    let n = gl.vert_properties.len() / stride;
    let at = |i: u64| -> Option<[f64; 3]> {
        let i = usize::try_from(i).ok().filter(|&i| i < n)?;
        let p = &gl.vert_properties[i * stride..i * stride + 3];
        Some([p[0], p[1], p[2]])
    };
    let tris: Vec<[u64; 3]> = gl.tri_verts.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect();
    if tris.iter().flatten().any(|&i| at(i).is_none()) {
        return m;
    }
    // Union-find over the vertices, joined by each triangle's corners.
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for t in &tris {
        let a = root(&mut parent, t[0] as usize);
        for &v in &t[1..] {
            let b = root(&mut parent, v as usize);
            if a != b {
                parent[b] = a;
            }
        }
    }
    // The library exports its runs (the triangles from one source mesh)
    // ordered by their meshes' ids, which are numbered in the order meshes
    // were made, and so depend on which thread made which first. Taken in
    // an order of their own (by the corners of their first triangle), the
    // sums below and the solid made again from the kept shells are the same
    // whatever the threads did.
    let order: Vec<usize> = {
        // Every triangle in some run, whatever the export's bounds say.
        let mut starts: Vec<usize> = vec![0];
        starts.extend(
            gl.run_index
                .iter()
                .map(|&r| usize::try_from(r / 3).unwrap_or(usize::MAX).min(tris.len())),
        );
        starts.push(tris.len());
        starts.dedup();
        let mut runs: Vec<(usize, usize)> = starts.windows(2).map(|w| (w[0], w[1].max(w[0]))).collect();
        let key = |&(a, b): &(usize, usize)| -> Vec<u64> {
            tris.get(a..b)
                .and_then(|r| r.first())
                .map(|t| {
                    t.iter()
                        .flat_map(|&i| at(i).unwrap_or_default().map(f64::to_bits))
                        .collect()
                })
                .unwrap_or_default()
        };
        runs.sort_by_cached_key(|r| (key(r), r.1 - r.0));
        runs.into_iter().flat_map(|(a, b)| a..b).collect()
    };
    // Each shell's signed volume and box.
    let mut shell: HashMap<usize, (f64, [f64; 3], [f64; 3])> = HashMap::new();
    let mut of_tri = vec![0; tris.len()];
    for &k in &order {
        let t = &tris[k];
        let r = root(&mut parent, t[0] as usize);
        of_tri[k] = r;
        let [a, b, c] = t.map(|i| at(i).unwrap_or_default());
        let e = shell.entry(r).or_insert((0.0, a, a));
        e.0 += super::math::dot(a, super::math::cross(b, c)) / 6.0;
        for p in [a, b, c] {
            e.1 = [0, 1, 2].map(|k| e.1[k].min(p[k]));
            e.2 = [0, 1, 2].map(|k| e.2[k].max(p[k]));
        }
    }
    let keeps = |(v, lo, hi): &(f64, [f64; 3], [f64; 3])| {
        let size = (0..3).fold(0.0f64, |s, k| s.max(hi[k] - lo[k]));
        v.abs() > 1e-6 * size * size * size
    };
    if shell.values().all(keeps) {
        return m;
    }
    // Few shells: the library's own split, which keeps each shell as the
    // library made it (the same triangles in later booleans as before this
    // pass existed); it costs shells × triangles, so only up to a bound.
    if shell.len() <= FEW_SHELLS {
        let parts: Vec<Manifold> = m
            .decompose()
            .into_iter()
            .filter(|p| {
                let b = p.bounding_box();
                let size = [b.max.x - b.min.x, b.max.y - b.min.y, b.max.z - b.min.z]
                    .iter()
                    .fold(0.0f64, |a, x| a.max(*x));
                p.volume().abs() > 1e-6 * size * size * size
            })
            .collect();
        return Manifold::compose(&parts);
    }
    // The kept shells' triangles over their own vertices, in order, with
    // each triangle's source face and each run's source mesh and
    // transform, as the library exported them: imported again, the solid
    // keeps its relation to the meshes it was made from, as the shells
    // `decompose` would give keep it (later booleans re-triangulate faces
    // by that relation).
    let mut index = vec![u64::MAX; n];
    let mut kept = MeshGL64 {
        num_prop: 3,
        ..MeshGL64::default()
    };
    let runs = gl.run_original_id.len();
    let run_of = |t: usize| -> usize {
        // The run whose start is at or before triangle t's first index.
        let at = (t * 3) as u64;
        gl.run_index.partition_point(|&r| r <= at).saturating_sub(1)
    };
    let mut last_run = usize::MAX;
    for &t in &order {
        let (tri, r) = (&tris[t], &of_tri[t]);
        if !shell.get(r).is_some_and(keeps) {
            continue;
        }
        if runs > 0 {
            let run = run_of(t).min(runs - 1);
            if run != last_run {
                kept.run_index.push(kept.tri_verts.len() as u64);
                kept.run_original_id.push(gl.run_original_id[run]);
                if gl.run_transform.len() >= (run + 1) * 12 {
                    kept.run_transform
                        .extend_from_slice(&gl.run_transform[run * 12..run * 12 + 12]);
                }
                last_run = run;
            }
        }
        for &v in tri {
            let v = v as usize;
            if index[v] == u64::MAX {
                index[v] = (kept.vert_properties.len() / 3) as u64;
                kept.vert_properties
                    .extend_from_slice(&gl.vert_properties[v * stride..v * stride + 3]);
            }
            kept.tri_verts.push(index[v]);
        }
        if let Some(&f) = gl.face_id.get(t) {
            kept.face_id.push(f);
        }
    }
    if kept.tri_verts.is_empty() {
        return Manifold::default();
    }
    if runs > 0 {
        kept.run_index.push(kept.tri_verts.len() as u64);
    }
    if kept.face_id.len() != kept.tri_verts.len() / 3 {
        kept.face_id.clear();
    }
    if kept.run_transform.len() != kept.run_original_id.len() * 12 {
        kept.run_transform.clear();
    }
    Manifold::from_mesh_gl64(&kept)
}

/// The union of `solids`: sorted so that neighbours in space come
/// together, runs of disjoint ones put together without a boolean
/// (Manifold's `compose`), then a balanced tree of unions, each level's
/// pairs on as many threads as the machine has. The result depends only on
/// the solids and their order.
pub(super) fn union_all(solids: Vec<Solid>) -> Result<Option<Solid>> {
    union_in_order(in_space_order(solids))
}

/// `solids` without empty ones and repeats, neighbours in space first.
pub(super) fn in_space_order(mut solids: Vec<Solid>) -> Vec<Solid> {
    // Empty solids go; one solid twice (copies sharing a contribution) is
    // itself once.
    let mut seen = std::collections::HashSet::new();
    solids.retain(|s| s.m.as_ref().is_some_and(|m| seen.insert(Arc::as_ptr(m))));
    // Neighbours in space first: along the longest side of the whole box,
    // by the centres of their boxes (a stable sort: ties keep the given
    // order). A union of two halves that meet only near their border then
    // costs little for the rest of each.
    let whole = solids
        .iter()
        .filter_map(|s| s.bb)
        .fold(None, |acc: Option<Bounds>, (l, h)| {
            Some(acc.map_or((l, h), |(a, b)| {
                ([0, 1, 2].map(|c| a[c].min(l[c])), [0, 1, 2].map(|c| b[c].max(h[c])))
            }))
        });
    if let Some((lo, hi)) = whole {
        let axis = (0..3)
            .max_by(|&a, &b| (hi[a] - lo[a]).total_cmp(&(hi[b] - lo[b])))
            .unwrap_or(0);
        let centre = |s: &Solid| s.bb.map_or(0.0, |b| b.0[axis] + b.1[axis]);
        solids.sort_by(|a, b| centre(a).total_cmp(&centre(b)));
    }
    solids
}

/// The union of `solids` in the order given, neighbours in the order
/// first: for solids that are already neighbours in space when they are
/// neighbours in the list (the pieces of a sweep along its path), which a
/// sort by position would interleave where the path comes back.
pub(super) fn union_in_order(solids: Vec<Solid>) -> Result<Option<Solid>> {
    Ok(union_within(solids, &|_| true)?.flatten())
}

/// As [`union_in_order`], but `None` when it gives up: before each level
/// of the tree, `go_on` is asked with the triangles of the level in all,
/// and the union stops if it says no.
pub(super) fn union_within(mut solids: Vec<Solid>, go_on: &dyn Fn(usize) -> bool) -> Result<Option<Option<Solid>>> {
    solids.retain(|s| s.m.is_some());
    let tris = |level: &[Solid]| -> usize { level.iter().filter_map(|s| s.m.as_ref()).map(|m| m.num_tri()).sum() };
    // Runs of consecutive solids whose boxes meet none of the others' in
    // the run are put together without a boolean.
    let mut groups: Vec<Vec<Solid>> = Vec::new();
    for s in solids {
        match groups.last_mut() {
            Some(g) if g.iter().all(|t| !overlap(&t.bb, &s.bb)) => g.push(s),
            _ => groups.push(vec![s]),
        }
    }
    let mut level = par_map(groups, composed)?;
    while level.len() > 1 {
        if !go_on(tris(&level)) {
            return Ok(None);
        }
        let groups = neighbours(level);
        level = par_map(groups, |(a, b, c)| {
            // `a` and `b` are dropped once united, before the union with `c`.
            let ab = match b {
                Some(b) => {
                    let ab = op(&a, &b, OpType::Add)?;
                    drop((a, b));
                    ab
                }
                None => a,
            };
            match c {
                Some(c) => op(&ab, &c, OpType::Add),
                None => Ok(ab),
            }
        })?;
    }
    Ok(Some(level.pop()))
}

/// A level of a union's tree in groups of neighbours: pairs, and of an odd
/// number the last three together, so that no solid is carried up alone
/// to be united with the whole at the top (a boolean that copies every
/// triangle of the model for the sake of one piece at its end: 5.7 s of
/// 71 s for 10,000 pieces at resolution 16). One item stays alone.
pub(super) fn neighbours<T>(level: Vec<T>) -> Vec<(T, Option<T>, Option<T>)> {
    let mut groups = Vec::with_capacity(level.len() / 2 + 1);
    let mut it = level.into_iter();
    while let Some(a) = it.next() {
        let b = it.next();
        groups.push((a, b, None));
    }
    if groups.len() >= 2 && groups.last().is_some_and(|g| g.1.is_none()) {
        if let (Some((c, _, _)), Some(g)) = (groups.pop(), groups.last_mut()) {
            g.2 = Some(c);
        }
    }
    groups
}

/// Disjoint solids as one.
pub(super) fn composed(group: Vec<Solid>) -> Result<Solid> {
    if group.len() == 1 {
        return Ok(group.into_iter().next().unwrap_or_else(|| Solid::empty(Arc::from([]))));
    }
    let ids = id_set(group.iter().flat_map(|s| s.ids.iter().copied()));
    // A solid held nowhere else is moved, not copied.
    let parts: Vec<Manifold> = group
        .into_iter()
        .filter_map(|s| s.m.map(|m| Arc::try_unwrap(m).unwrap_or_else(|m| (*m).clone())))
        .collect();
    let what = || format!("putting together {}", named(&ids));
    let m = guarded(what, || Manifold::compose(&parts))?;
    Ok(Solid::from(m, ids))
}

fn allows(affects: &Option<Vec<u32>>, id: u32) -> bool {
    affects.as_ref().is_none_or(|a| a.contains(&id))
}

/// Each contributing piece's final part, in ascending id: the add and
/// intersect pieces after the subtract phase (empty ones left out).
///
/// # Errors
/// `mesh` when the boolean library fails, naming the pieces and the
/// operation.
pub fn contributions(parts: &[Part]) -> Result<Vec<(u32, Mesh)>> {
    Ok(solids(parts, false)?
        .into_iter()
        .map(|(id, s)| (id, s.mesh()))
        .collect())
}

/// Each contributing piece's part, or with `whole` (for their union) the
/// parts that union needs: an intersect piece's overlaps that lie in add
/// pieces' parts are left to those.
fn solids(parts: &[Part], whole: bool) -> Result<Vec<(u32, Solid)>> {
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by_key(|&i| parts[i].id);
    // `twin[i]`: parts with the same twin have the same solid (a copy
    // through `from` whose mesh is its base's); `usize::MAX` when not built.
    let (mut solids, twin) = own_solids(parts, &needed(parts))?;
    // Add phase: an intersect piece meets the union of the other add and
    // intersect pieces it allows (only those that can overlap it).
    let kept: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| parts[i].mode != Mode::Subtract)
        .collect();
    let candidates: Vec<Option<Vec<usize>>> = kept
        .iter()
        .map(|&i| {
            let p = &parts[i];
            (p.mode == Mode::Intersect).then(|| {
                order
                    .iter()
                    .copied()
                    .filter(|&j| {
                        let q = &parts[j];
                        j != i
                            && q.mode != Mode::Subtract
                            && allows(&p.affects, q.id)
                            && overlap(&solids[i].bb, &solids[j].bb)
                    })
                    .collect()
            })
        })
        .collect();
    // For the whole solid, an intersect piece's overlap with an add piece
    // is already in the result when every subtract piece that cuts the add
    // piece there cuts the intersect piece too: that add piece is left out
    // of its union, and an intersect piece left with none contributes
    // nothing more. (Uniting such overlaps with the add pieces they lie in,
    // surfaces partly the same, is what makes the library's unions blow up
    // on large models.)
    let subtracts: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&s| parts[s].mode == Mode::Subtract)
        .collect();
    let covered = |i: usize, j: usize| {
        parts[j].mode == Mode::Add
            && subtracts.iter().all(|&s| {
                let a = &parts[s].affects;
                !allows(a, parts[j].id) || !overlap(&solids[s].bb, &solids[i].bb) || allows(a, parts[i].id)
            })
    };
    let (kept, candidates): (Vec<usize>, Vec<Option<Vec<usize>>>) = if whole {
        kept.into_iter()
            .zip(candidates)
            .filter_map(|(i, c)| match c {
                Some(c) if !c.is_empty() => {
                    let rest: Vec<usize> = c.into_iter().filter(|&j| !covered(i, j)).collect();
                    (!rest.is_empty()).then_some((i, Some(rest)))
                }
                c => Some((i, c)),
            })
            .unzip()
    } else {
        (kept, candidates)
    };
    // An intersect piece that meets a copy of itself (the same solid) is
    // what it contributes, whatever else it meets: P ∩ (P ∪ Q) = P. Left to
    // the library, the two solids' surfaces coincide everywhere, and the
    // result, and every union it then takes part in, blows up (a
    // 10,000-piece model: one union of 46 s, 1,034,880 triangles).
    let meets_twin = |i: usize, c: &[usize]| twin[i] != usize::MAX && c.iter().any(|&j| twin[j] == twin[i]);
    let candidates: Vec<Option<Vec<usize>>> = kept
        .iter()
        .zip(candidates)
        .map(|(&i, c)| c.filter(|c| !meets_twin(i, c)))
        .collect();
    let unions = unions_of(&solids, candidates.iter().flatten())?;
    let added = par_map(kept.iter().zip(&candidates).collect(), |(&i, c)| match c {
        Some(c) => op(&solids[i], &unions[c], OpType::Intersect),
        None => Ok(solids[i].clone()),
    })?;
    // Where a contribution is its piece's own solid, copies of one solid
    // are one contribution: the same subtract pieces then cut it once, and
    // the union keeps one of them.
    let origin: Vec<usize> = kept
        .iter()
        .zip(&candidates)
        .map(|(&i, c)| match c {
            None if twin[i] != usize::MAX => twin[i],
            _ => usize::MAX - 1 - i,
        })
        .collect();
    // From here on only the subtract pieces' own solids are used: the
    // others, and the unions of the add phase, are let go (a contribution
    // still holds its piece's solid where it is that solid), so that each
    // is freed once its difference is made. At resolution 64 this is the
    // peak of memory.
    drop(unions);
    for (s, p) in solids.iter_mut().zip(parts) {
        if p.mode != Mode::Subtract {
            *s = Solid::empty(Arc::clone(&s.ids));
        }
    }
    // Subtract phase: each contribution minus the subtract pieces that
    // allow it and can overlap it.
    let cutting: Vec<Vec<usize>> = kept
        .iter()
        .zip(&added)
        .map(|(&i, part)| {
            order
                .iter()
                .copied()
                .filter(|&j| {
                    let s = &parts[j];
                    s.mode == Mode::Subtract && allows(&s.affects, parts[i].id) && overlap(&part.bb, &solids[j].bb)
                })
                .collect()
        })
        .collect();
    let unions = unions_of(&solids, cutting.iter().filter(|c| !c.is_empty()))?;
    // Each distinct (contribution, cutters) once, in the order of `kept`.
    let mut first: HashMap<(usize, &[usize]), usize> = HashMap::new();
    let same: Vec<usize> = origin
        .iter()
        .zip(&cutting)
        .enumerate()
        .map(|(k, (&o, c))| *first.entry((o, c.as_slice())).or_insert(k))
        .collect();
    let work: Vec<(Solid, &Vec<usize>)> = added
        .into_iter()
        .zip(&cutting)
        .zip(&same)
        .enumerate()
        .filter(|(k, (_, &s))| *k == s)
        .map(|(_, ((part, c), _))| (part, c))
        .collect();
    let made = par_map(work, |(part, c)| {
        if c.is_empty() {
            Ok(part)
        } else {
            op(&part, &unions[c], OpType::Subtract)
        }
    })?;
    let mut made = made.into_iter();
    let mut done: Vec<Solid> = Vec::with_capacity(same.len());
    for (k, &s) in same.iter().enumerate() {
        let d = if k == s {
            made.next().unwrap_or_else(|| Solid::empty(Arc::from([])))
        } else {
            let mut d = done[s].clone();
            d.ids = id_set(d.ids.iter().copied().chain([parts[kept[k]].id]));
            d
        };
        done.push(d);
    }
    Ok(kept
        .iter()
        .zip(done)
        .filter(|(_, s)| s.m.is_some())
        .map(|(&i, s)| (parts[i].id, s))
        .collect())
}

/// Which parts' own solids can change the result, judged by the boxes of
/// their meshes (which hold their solids, a folding sweep's rebuild too):
/// every add piece; an intersect piece whose box meets an add or intersect
/// piece it allows, and those pieces; a subtract piece whose box meets a
/// piece it allows that is needed as a contribution. The rest are never
/// built: an intersect with nothing to meet, a subtract with nothing to
/// cut, contribute nothing whatever their solids are.
fn needed(parts: &[Part]) -> Vec<bool> {
    let boxes: Vec<Option<Bounds>> = parts.iter().map(|p| p.mesh.bounds()).collect();
    let mut need = vec![false; parts.len()];
    let mut contributes = vec![false; parts.len()];
    for (i, p) in parts.iter().enumerate() {
        match p.mode {
            Mode::Add => {
                need[i] = true;
                contributes[i] = true;
            }
            Mode::Intersect => {
                let meets: Vec<usize> = (0..parts.len())
                    .filter(|&j| {
                        j != i
                            && parts[j].mode != Mode::Subtract
                            && allows(&p.affects, parts[j].id)
                            && overlap(&boxes[i], &boxes[j])
                    })
                    .collect();
                if !meets.is_empty() {
                    need[i] = true;
                    contributes[i] = true;
                    for j in meets {
                        need[j] = true;
                    }
                }
            }
            Mode::Subtract => {}
        }
    }
    for (s, p) in parts.iter().enumerate() {
        if p.mode == Mode::Subtract {
            need[s] = (0..parts.len())
                .any(|k| contributes[k] && allows(&p.affects, parts[k].id) && overlap(&boxes[s], &boxes[k]));
        }
    }
    need
}

/// Each part's own solid ([`Solid::of`]), in the parts' order; empty for a
/// part that is not `need`ed. A part
/// whose mesh is the same as an earlier part's (a copy inherited through
/// `from`) takes that part's solid, made once, as an original of its own
/// (the library tells the two apart in a boolean as it would two
/// imports): rebuilding a folding sweep is the costliest step there is.
fn own_solids(parts: &[Part], need: &[bool]) -> Result<(Vec<Solid>, Vec<usize>)> {
    use std::hash::{Hash, Hasher};
    let bits = |p: &[f64; 3]| p.map(f64::to_bits);
    let same = |a: &Part, b: &Part| {
        a.ring == b.ring
            && a.sheet == b.sheet
            && a.mesh.triangles == b.mesh.triangles
            && a.mesh.positions.len() == b.mesh.positions.len()
            && a.mesh
                .positions
                .iter()
                .zip(&b.mesh.positions)
                .all(|(p, q)| bits(p) == bits(q))
    };
    // For each part, the index in `unique` of the part whose solid it takes.
    let mut buckets: HashMap<u64, Vec<usize>> = HashMap::new();
    let mut unique: Vec<usize> = Vec::new();
    let mut source: Vec<usize> = Vec::with_capacity(parts.len());
    for (i, p) in parts.iter().enumerate() {
        if !need[i] {
            source.push(usize::MAX);
            continue;
        }
        // A fixed-key hash: it only groups, the order comes from `parts`.
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (p.ring, p.sheet, &p.mesh.triangles).hash(&mut h);
        p.mesh.positions.iter().for_each(|q| bits(q).hash(&mut h));
        let bucket = buckets.entry(h.finish()).or_default();
        match bucket.iter().find(|&&k| same(&parts[unique[k]], p)) {
            Some(&k) => source.push(k),
            None => {
                bucket.push(unique.len());
                source.push(unique.len());
                unique.push(i);
            }
        }
    }
    let made = par_map(unique.iter().map(|&i| &parts[i]).collect(), Solid::of)?;
    let solids = parts
        .iter()
        .zip(source.iter().copied())
        .enumerate()
        .map(|(i, (p, k))| {
            let Some(s) = made.get(k) else {
                return Ok(Solid::empty(Arc::from([p.id])));
            };
            if unique[k] == i {
                return Ok(s.clone());
            }
            let what = || format!("the mesh of piece {}", p.id);
            Ok(match &s.m {
                Some(m) => Solid::from(guarded(what, || m.as_original())?, Arc::from([p.id])),
                None => Solid::empty(Arc::from([p.id])),
            })
        })
        .collect::<Result<Vec<Solid>>>()?;
    Ok((solids, source))
}

/// The union of each distinct set of solids (by index), each made once.
fn unions_of<'a>(solids: &[Solid], sets: impl Iterator<Item = &'a Vec<usize>>) -> Result<HashMap<Vec<usize>, Solid>> {
    let mut unique: Vec<Vec<usize>> = sets.cloned().collect();
    unique.sort_unstable();
    unique.dedup();
    let made = par_map(unique.iter().collect(), |set| {
        Ok(union_all(set.iter().map(|&i| solids[i].clone()).collect())?.unwrap_or_else(|| Solid::empty(Arc::from([]))))
    })?;
    Ok(unique.into_iter().zip(made).collect())
}

/// The combined solid: the union of the contributions.
///
/// # Errors
/// `mesh` when the boolean library fails, naming the pieces and the
/// operation.
pub fn combine(parts: &[Part]) -> Result<Mesh> {
    let all = solids(parts, true)?.into_iter().map(|(_, s)| s).collect();
    Ok(mesh_of(&union_apart(all)?))
}

/// The solids whose union [`combine`] makes, each with the id of the piece
/// it is a part of, in ascending id: what a depth buffer draws to show
/// the combined solid without computing the union (a surface hidden
/// inside another part is behind that part's surface from any eye
/// outside).
///
/// # Errors
/// As [`combine`].
pub fn visible_parts(parts: &[Part]) -> Result<Vec<(u32, Mesh)>> {
    Ok(solids(parts, true)?.into_iter().map(|(id, s)| (id, s.mesh())).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(id: u32, mode: Mode, affects: Option<Vec<u32>>, at: f64) -> Part {
        // A unit tetrahedron at x = `at`.
        let positions = vec![[at, 0.0, 0.0], [at + 1.0, 0.0, 0.0], [at, 1.0, 0.0], [at, 0.0, 1.0]];
        Part {
            id,
            mode,
            affects,
            mesh: Mesh {
                positions,
                triangles: vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
            },
            ring: 0,
            sheet: false,
            resolution: 8,
        }
    }

    /// Two tetrahedra as one solid: a unit one at x = 0 and one of `height`
    /// at x = 5.
    fn two_tetrahedra(height: f64) -> Manifold {
        let mut positions = part(0, Mode::Add, None, 0.0).mesh.positions;
        positions.extend([[5.0, 0.0, 0.0], [6.0, 0.0, 0.0], [5.0, 1.0, 0.0], [5.0, 0.0, height]]);
        let t = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
        let triangles = t.iter().chain(&t).enumerate().map(|(k, t)| {
            let o = if k < 4 { 0 } else { 4 };
            t.map(|i| i + o)
        });
        let mesh = Mesh {
            positions,
            triangles: triangles.collect(),
        };
        Manifold::from_mesh_gl64(&gl(&mesh))
    }

    #[test]
    fn no_solid_is_carried_up_alone() {
        for n in 1..12usize {
            let groups = neighbours((0..n).collect());
            assert_eq!(groups.len(), (n / 2).max(1), "{n} solids");
            let mut order = Vec::new();
            for (a, b, c) in groups {
                assert!(b.is_some() || n == 1, "{n} solids: {a} alone");
                order.extend([Some(a), b, c].into_iter().flatten());
            }
            assert_eq!(order, (0..n).collect::<Vec<_>>());
        }
    }

    #[test]
    fn sliver_shells_are_dropped_in_one_pass() {
        // A flat tetrahedron (volume 1e-9 of its size cubed) is dropped.
        let m = without_slivers(two_tetrahedra(6e-9));
        assert_eq!(m.num_tri(), 4);
        assert!((m.volume() - 1.0 / 6.0).abs() < 1e-12);
        // A thin but real one (1e-4) is kept, as the solid was.
        let m = without_slivers(two_tetrahedra(6e-4));
        assert_eq!(m.num_tri(), 8);
        assert!((m.volume() - (1.0 + 6e-4) / 6.0).abs() < 1e-12);
        // Nothing but slivers: nothing.
        let flat = Manifold::from_mesh_gl64(&gl(&part(0, Mode::Add, None, 0.0).mesh))
            .scale(manifold_rust::linalg::Vec3::new(1.0, 1.0, 1e-9));
        assert!(without_slivers(flat).is_empty());
    }

    #[test]
    fn many_shells_are_made_again_from_the_kept_triangles() {
        // FEW_SHELLS + 4 unit tetrahedra in a row and one flat one: more
        // shells than the library's split is used for.
        let t = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
        let mut mesh = Mesh::default();
        let count = FEW_SHELLS + 4;
        for k in 0..=count {
            let x = 3.0 * k as f64;
            let h = if k == count / 2 { 1e-9 } else { 1.0 };
            let base = mesh.positions.len() as u32;
            mesh.positions
                .extend([[x, 0.0, 0.0], [x + 1.0, 0.0, 0.0], [x, 1.0, 0.0], [x, 0.0, h]]);
            mesh.triangles.extend(t.iter().map(|t| t.map(|i| i + base)));
        }
        let m = without_slivers(Manifold::from_mesh_gl64(&gl(&mesh)));
        assert_eq!(m.num_tri(), 4 * count);
        assert!((m.volume() - count as f64 / 6.0).abs() < 1e-9, "{}", m.volume());
        let b = m.bounding_box();
        assert_eq!((b.min.x, b.max.x), (0.0, 3.0 * count as f64 + 1.0));
        // Still a solid the library works with.
        let moved = m.translate(manifold_rust::linalg::Vec3::new(0.5, 0.0, 0.0));
        let u = m.boolean_with_engine(&moved, OpType::Add, BooleanEngine::Exact);
        assert!(u.status() == Status::NoError && u.volume() > m.volume());
    }

    #[test]
    fn only_parts_that_can_change_the_result_are_needed() {
        let parts = [
            part(0, Mode::Add, None, 0.0),
            // Intersects: one allowed nothing, one too far, one that meets 0.
            part(1, Mode::Intersect, Some(vec![]), 0.0),
            part(2, Mode::Intersect, None, 50.0),
            part(3, Mode::Intersect, Some(vec![0]), 0.5),
            // Subtracts: one allowed nothing, one too far, one that cuts 0,
            // one that cuts only the intersect 1, which contributes nothing.
            part(4, Mode::Subtract, Some(vec![]), 0.0),
            part(5, Mode::Subtract, None, 80.0),
            part(6, Mode::Subtract, Some(vec![0]), 0.2),
            part(7, Mode::Subtract, Some(vec![1]), 0.0),
        ];
        assert_eq!(needed(&parts), [true, false, false, true, false, false, true, false]);
    }

    #[test]
    fn an_intersect_builds_what_it_meets() {
        // 1 meets the intersect 2 only, which meets the add piece 0: 1's own
        // solid is needed as 2's candidate although 1 allows nothing.
        let parts = [
            part(0, Mode::Add, None, 0.0),
            part(1, Mode::Intersect, Some(vec![]), 0.6),
            part(2, Mode::Intersect, None, 0.3),
        ];
        assert_eq!(needed(&parts), [true, true, true]);
    }
}
