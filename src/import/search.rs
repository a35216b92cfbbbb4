//! The search for a model: candidates from the mesh's parts and from
//! regions of its cells, chosen greedily by the reference's score counted
//! on a grid, subtract pieces last.

use super::cells::Cells;
use super::fit::{across, assemble, euler, mesh_of, own_volume, points_of, quality_of, v3, FitOptions, Frame};
use super::score::{quality_score, Inside, Scorer};
use super::voxels::{Grid, Located};
use crate::mesh::math::{cross, dot, mul, norm, rotate, rotation, scale, sub, unit, v, V3};
use crate::mesh::Mesh;
use crate::{Mode, Piece, Point, Result, Shape, Vec3};

/// Cells along the longest side of the grid the search works on.
pub(super) const CELLS: usize = 56;
/// Subtract pieces scored exactly at each step: at most this many of the
/// best by the grid, those within `EXACT_BAND` of the best.
const EXACT_SUBTRACTS: usize = 3;
/// How close on the grid subtract pieces are to be told apart exactly.
const EXACT_BAND: f64 = 0.005;
/// The pools the greedy search runs on: candidates that overfill at most
/// this share of their cells, and whose pieces have at most this many
/// points. A set that fills a whole part loosely can shut out sets that
/// fill pieces of it tightly (a cross, a table), and one long sweep through
/// a dumbbell the ball, bar and ball it is made of.
const POOLS: [(f64, usize); 6] = [
    (1.0, usize::MAX),
    (0.3, usize::MAX),
    (0.12, usize::MAX),
    (1.0, 2),
    (0.3, 2),
    (0.12, 2),
];
/// Sub-regions of one region tried, the largest.
const MAX_SUBREGIONS: usize = 24;
/// Regions a run left uncovered that get candidates of their own, the
/// largest.
const RESIDUAL_REGIONS: usize = 6;
/// The resolution candidates are meshed at to be put on the grid.
const RASTER_RESOLUTION: u32 = 24;

/// Pieces that may be added, and the cells of the grid they fill.
struct Candidate {
    /// Its place among all the candidates.
    id: usize,
    pieces: Vec<Piece>,
    cells: Cells,
    /// The share of its cells outside the mesh.
    overfill: f64,
}

/// The cells a candidate fills: each piece tessellated alone (no
/// booleans: a sweep that folds through itself is inside wherever its
/// winding number is not 0), an intersect pair as the cells both fill.
fn raster(grid: &Grid, pieces: &[Piece]) -> Result<Cells> {
    let mut acc: Option<Vec<bool>> = None;
    for p in pieces {
        let resolved = crate::ResolvedPiece::inherit(p, None)?;
        let Some(mesh) = crate::mesh::tessellate(&resolved, RASTER_RESOLUTION)? else {
            return Ok(Cells::default());
        };
        let set = grid.inside_closed(&mesh);
        acc = Some(match acc {
            None => set,
            Some(a) if p.mode == Some(Mode::Intersect) => a.iter().zip(&set).map(|(x, y)| *x && *y).collect(),
            Some(a) => a.iter().zip(&set).map(|(x, y)| *x || *y).collect(),
        });
    }
    Ok(acc.map_or_else(Cells::default, |a| Cells::of_flags(&a)))
}

/// The sets of pieces chosen for `source`, whose whole parts (each with
/// its own triangles) are `parts`; `None` when it encloses no cell.
pub(super) fn choose(
    source: &Mesh,
    parts: &[Mesh],
    o: &FitOptions,
    scorer: &Scorer,
) -> Result<Option<Vec<Vec<Piece>>>> {
    let grid = Grid::around(source, CELLS);
    let inside = grid.inside(source);
    let total = inside.iter().filter(|&&x| x).count();
    if total == 0 {
        return Ok(None);
    }
    let mut cands: Vec<Candidate> = Vec::new();
    // Candidates are gathered, then put on the grid on all cores (in
    // their order, whichever thread rasterizes which).
    let mut pending: Vec<Vec<Piece>> = Vec::new();
    // A set offered twice (a region fitted again as what a run left, the
    // same cells) is put on the grid once: the search takes the first of
    // equals, so a copy is never chosen.
    let mut offered: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut rasterize = |pending: &mut Vec<Vec<Piece>>, cands: &mut Vec<Candidate>| -> Result<()> {
        let mut sets = std::mem::take(pending);
        sets.retain(|set| offered.insert(format!("{set:?}")));
        let cells = crate::mesh::par_map(sets.iter().collect(), |set| raster(&grid, set))?;
        for (pieces, cells) in sets.into_iter().zip(cells) {
            if !cells.is_empty() {
                let outside = cells.iter().filter(|&c| !inside[c]).count();
                cands.push(Candidate {
                    id: cands.len(),
                    overfill: outside as f64 / cells.len() as f64,
                    pieces,
                    cells,
                });
            }
        }
        Ok(())
    };
    // Whole parts, measured on their own triangles (exact primitives);
    // the whole mesh as one when it has several.
    for part in parts {
        for c in Frame::of(part).candidates() {
            pending.push(c);
        }
        // And cut flat, where it is.
        pending.extend(super::fit::halves(part));
        // And as the meeting of two round solids, where it is.
        pending.extend(super::fit::crossed(part));
    }
    if parts.len() > 1 {
        for c in Frame::of(source).candidates() {
            pending.push(c);
        }
    }
    // Regions of cells: connected regions, cut into slabs where their
    // section changes sharply, and paths through their middles.
    let dist = grid.distance(&inside);
    let min_cells = (total / 200).max(8);
    // Each region's sweeps, and each of its largest sub-regions' shapes
    // and sweeps (on all cores, in order).
    let fitted = |cells: &Vec<usize>, shapes: bool| -> Result<Vec<Vec<Piece>>> {
        let mut out = Vec::new();
        if shapes {
            let centres: Vec<V3> = cells.iter().map(|&c| grid.centre(c)).collect();
            out.extend(Frame::of_cells(&centres, grid.h).candidates());
        }
        out.extend(tubes(&grid, cells, &dist));
        Ok(out)
    };
    let mut jobs: Vec<(Vec<usize>, bool)> = Vec::new();
    for region in grid.regions(&inside).into_iter().filter(|r| r.len() >= min_cells) {
        let mut subs = slabs(&grid, &region, inside.len(), min_cells);
        // The largest few: a part with holes cut into slabs gives many
        // small pieces that add little.
        subs.sort_by(|a, b| b.len().cmp(&a.len()).then(a[0].cmp(&b[0])));
        subs.truncate(MAX_SUBREGIONS);
        jobs.push((region, false));
        jobs.extend(subs.into_iter().map(|sub| (sub, true)));
    }
    pending.extend(
        crate::mesh::par_map(jobs.iter().collect(), |(cells, shapes)| fitted(cells, *shapes))?
            .into_iter()
            .flatten(),
    );
    rasterize(&mut pending, &mut cands)?;
    if debugging() {
        eprintln!("candidates {} cells {} inside {total}", cands.len(), grid.len());
        for c in &cands {
            let both = c.cells.iter().filter(|&x| inside[x]).count();
            eprintln!(
                "  {} pieces {:?}/{:?} points {} cells {} covers {:.1}% overfill {:.1}%",
                c.pieces.len(),
                c.pieces.first().and_then(|p| p.shape),
                c.pieces.first().and_then(|p| p.sides),
                points_of(&c.pieces),
                c.cells.len(),
                100.0 * both as f64 / total as f64,
                100.0 * c.overfill
            );
        }
    }
    // Choices between close candidates are scored exactly, the model
    // meshed at the resolution asked for (at least 16): what is fitted is
    // the shape itself, not the coarser polyhedron the reference scores.
    // Each piece's own solid (a sweep that folds as the volume it sweeps,
    // its hulls and tubes side by side, the union not made), made once
    // whatever set it is in, and prepared for inside tests once.
    let resolution = o.resolution.clamp(16, 24);
    let solids: std::sync::Mutex<std::collections::HashMap<String, std::sync::Arc<Inside>>> = Default::default();
    let own = |p: &Piece| -> Result<std::sync::Arc<Inside>> {
        let mut alone = p.clone();
        (alone.id, alone.mode, alone.affects) = (0, None, None);
        let key = format!("{alone:?}");
        if let Some(m) = solids.lock().ok().and_then(|c| c.get(&key).cloned()) {
            return Ok(m);
        }
        let m = std::sync::Arc::new(Inside::new(&own_volume(&alone, resolution)?));
        if let Ok(mut c) = solids.lock() {
            c.insert(key, m.clone());
        }
        Ok(m)
    };
    let exact = |sets: &[Vec<Piece>]| -> Result<f64> {
        let doc = assemble(sets.to_vec());
        // Each set: add pieces (each its own), an intersect pair (the
        // meeting of the two) or subtract pieces acting on all, each
        // piece's own solid and no booleans between them (a sample is in
        // the model when it is inside every piece of some group and in no
        // subtract piece). Anything else: the model meshed.
        let mut groups: Vec<Vec<std::sync::Arc<Inside>>> = Vec::new();
        let mut subtracts = Vec::new();
        for set in sets {
            let ids: Vec<u32> = set.iter().map(|p| p.id).collect();
            let pair = set.iter().all(|p| {
                p.mode == Some(Mode::Intersect) && p.affects.as_ref().is_some_and(|a| a.iter().all(|i| ids.contains(i)))
            });
            let plain = set
                .iter()
                .all(|p| p.affects.is_none() && p.mode != Some(Mode::Intersect));
            if pair {
                groups.push(set.iter().map(&own).collect::<Result<_>>()?);
            } else if plain {
                for p in set {
                    if p.mode == Some(Mode::Subtract) {
                        subtracts.push(own(p)?);
                    } else {
                        groups.push(vec![own(p)?]);
                    }
                }
            } else {
                let model = mesh_of(&doc.pieces, resolution)?;
                return Ok(quality_of(&scorer.score(&model), &doc.pieces, o));
            }
        }
        let groups: Vec<Vec<&Inside>> = groups.iter().map(|g| g.iter().map(|m| &**m).collect()).collect();
        let groups: Vec<&[&Inside]> = groups.iter().map(Vec::as_slice).collect();
        let subtracts: Vec<&Inside> = subtracts.iter().map(|m| &**m).collect();
        Ok(quality_of(&scorer.score_prepared(&groups, &subtracts), &doc.pieces, o))
    };
    let ground = Ground {
        grid: &grid,
        source,
        inside: &inside,
        total,
        o,
        exact: &exact,
        rasters: Default::default(),
    };
    let (mut best, runs) = search(&ground, &cands, [f64::NEG_INFINITY; POOLS.len()])?;
    // What the runs left uncovered (a branch off a path, the far side of a
    // coil that touches itself, a piece an overfilling set stood in for):
    // candidates fitted to those regions of cells alone, and the search
    // again with them, kept if the exact score rises.
    let before = cands.len();
    let mut residual: std::collections::HashSet<Vec<usize>> = std::collections::HashSet::new();
    for run in &runs {
        let mut left = inside.clone();
        for set in run
            .sets
            .iter()
            .filter(|s| s.iter().all(|p| p.mode != Some(Mode::Subtract)))
        {
            for c in raster(&grid, set)?.iter() {
                left[c] = false;
            }
        }
        let mut regions: Vec<Vec<usize>> = grid
            .regions(&left)
            .into_iter()
            .filter(|r| r.len() >= min_cells)
            .collect();
        regions.sort_by(|a, b| b.len().cmp(&a.len()).then(a[0].cmp(&b[0])));
        regions.truncate(RESIDUAL_REGIONS);
        // Runs that leave the same cells give the same candidates.
        regions.retain(|r| residual.insert(r.clone()));
        pending.extend(
            crate::mesh::par_map(regions.iter().collect(), |r| fitted(r, true))?
                .into_iter()
                .flatten(),
        );
    }
    rasterize(&mut pending, &mut cands)?;
    if cands.len() > before {
        // A run whose added sets score no higher on the grid than before
        // is not run to its end again.
        let floors: [f64; POOLS.len()] = std::array::from_fn(|k| runs.get(k).map_or(f64::NEG_INFINITY, |r| r.added));
        let (again, _) = search(&ground, &cands, floors)?;
        if !again.is_empty() && exact(&again)? > exact(&best)? + 1e-9 {
            best = again;
        }
    }
    let (mut best, mut now) = resectioned_sets(&ground, best)?;
    refine_points(&mut best, &mut now, grid.h, &exact)?;
    Ok(Some(best))
}

/// The chosen sets with their sweeps' points moved to the middles of the
/// mesh's own sections and sized to them ([`resectioned`]), by the
/// sections' spread along their principal axes, along the pieces' own
/// axes, and by their area, each twice (each move turns
/// the planes a little), each kept while the exact score rises: the
/// cells' sections are a cell coarse. With their exact score.
fn resectioned_sets(g: &Ground, mut chosen: Vec<Vec<Piece>>) -> Result<(Vec<Vec<Piece>>, f64)> {
    let mut now = (g.exact)(&chosen)?;
    for i in 0..chosen.len() {
        // Ends first, then sections.
        let trial: Vec<Option<Piece>> = chosen[i].iter().map(|p| ended(p, g.source)).collect();
        if trial.iter().any(Option::is_some) {
            let mut all = chosen.clone();
            for (p, t) in all[i].iter_mut().zip(trial) {
                if let Some(t) = t {
                    *p = t;
                }
            }
            let e = (g.exact)(&all)?;
            if debugging() {
                eprintln!("ended set {i}: {now:.6} -> {e:.6}");
            }
            if e > now + 1e-6 {
                (now, chosen) = (e, all);
            }
        }
        turn_set(g, &mut chosen, i, &mut now)?;
        for by in [Resize::Principal, Resize::Frame, Resize::Area] {
            for _ in 0..2 {
                let trial: Vec<Option<Piece>> = chosen[i].iter().map(|p| resectioned(p, g.source, by)).collect();
                if trial.iter().all(Option::is_none) {
                    break;
                }
                let mut all = chosen.clone();
                for (p, t) in all[i].iter_mut().zip(trial) {
                    if let Some(t) = t {
                        *p = t;
                    }
                }
                let e = (g.exact)(&all)?;
                if e > now + 1e-6 {
                    (now, chosen) = (e, all);
                } else {
                    break;
                }
            }
        }
        // Again: the sizes moved the sections' middles.
        turn_set(g, &mut chosen, i, &mut now)?;
    }
    Ok((chosen, now))
}

/// Set `i` of `chosen` (of exact score `now`) with its one piece's section
/// turned about the path's first tangent ([`turned`]), in steps of 2°
/// then 0.5°, either way, while the exact score rises: a frame carried
/// along a fitted path drifts from the mesh's by a few degrees where the
/// path twists, and a triangle 3° off loses about 4% of itself.
fn turn_set(g: &Ground, chosen: &mut Vec<Vec<Piece>>, i: usize, now: &mut f64) -> Result<()> {
    if chosen[i].len() != 1 {
        return Ok(());
    }
    for step in [2.0f64, 0.5] {
        for sign in [1.0, -1.0] {
            let mut improved = false;
            for _ in 0..8 {
                let Some(t) = turned(&chosen[i][0], (sign * step).to_radians()) else {
                    return Ok(());
                };
                let mut all = chosen.clone();
                all[i][0] = t;
                let e = (g.exact)(&all)?;
                if e > *now + 1e-6 {
                    (*now, *chosen) = (e, all);
                    improved = true;
                } else {
                    break;
                }
            }
            if improved {
                break;
            }
        }
    }
    Ok(())
}

/// Greedy: the candidate that raises the score most is added, while one
/// does; then subtract pieces fitted to the regions the model fills
/// outside the mesh, while one raises it.
fn search(g: &Ground, cands: &[Candidate], floors: [f64; POOLS.len()]) -> Result<(Vec<Vec<Piece>>, Vec<Run>)> {
    let exact = g.exact;
    // A candidate that fills the whole part loosely can shut out better
    // ones that fill pieces of it tightly (a cross, a table): the search
    // also runs on the candidates that overfill little, and the best
    // result is kept.
    let mut best: Option<(f64, Vec<Vec<Piece>>)> = None;
    let mut runs = Vec::new();
    let mut seen = Vec::new();
    for (&(limit, most), floor) in POOLS.iter().zip(floors) {
        let pool: Vec<&Candidate> = cands
            .iter()
            .filter(|c| c.overfill <= limit && c.pieces.iter().all(|p| p.points.as_ref().map_or(0, Vec::len) <= most))
            .collect();
        if pool.is_empty() {
            runs.push(Run {
                added: f64::NEG_INFINITY,
                sets: Vec::new(),
            });
            continue;
        }
        let (added, chosen) = greedy(g, &pool, floor, &mut seen)?;
        let Some(chosen) = chosen else {
            runs.push(Run {
                added,
                sets: Vec::new(),
            });
            continue;
        };
        // The runs compared by the exact score, not the grid's.
        let s = exact(&chosen)?;
        if debugging() {
            eprintln!(
                "run limit {limit} grid {added:.4} exact {s:.4} {:?}",
                chosen
                    .iter()
                    .map(|set| set
                        .iter()
                        .map(|p| (p.shape, p.sides, p.points.as_ref().map_or(0, Vec::len)))
                        .collect::<Vec<_>>())
                    .collect::<Vec<_>>()
            );
        }
        runs.push(Run {
            added,
            sets: chosen.clone(),
        });
        if best.as_ref().is_none_or(|(b, _)| s > *b + 1e-9) {
            best = Some((s, chosen));
        }
    }
    let Some((mut now, mut chosen)) = best else {
        return Ok((Vec::new(), runs));
    };
    // Polish: each added set moved half a cell along each of the grid's
    // axes, then its section made a little narrower or wider, while the
    // exact score rises (the grid cannot tell a section from one 5%
    // thicker when its cells are a wall's width, and a set fitted to
    // cells sits where the cells are: up to half a cell off the faces).
    // The exact score of `chosen` with set `i`'s pieces changed by `f`.
    let tried = |chosen: &[Vec<Piece>], i: usize, f: &dyn Fn(&mut Piece)| -> Result<(f64, Vec<Vec<Piece>>)> {
        let mut trial = chosen.to_vec();
        trial[i].iter_mut().for_each(f);
        Ok((exact(&trial)?, trial))
    };
    for i in 0..chosen.len() {
        let cut = chosen[i].iter().any(|p| p.mode == Some(Mode::Subtract));
        // A many-sided prism fitted to cells may be a round bore or rod:
        // the circle of the same area tried in its place.
        if chosen[i].iter().any(|p| rounded(p).is_some()) {
            let (e, trial) = tried(&chosen, i, &|p| {
                if let Some(r) = rounded(p) {
                    *p = r;
                }
            })?;
            if e > now + 1e-6 {
                (now, chosen) = (e, trial);
            }
        }
        if cut {
            continue;
        }
        // Rounded caps fitted where a mesh ends flat: flat ends carried
        // out to where the caps reached, kept only for a clear gain.
        if chosen[i].iter().any(|p| flattened(p).is_some()) {
            let (e, trial) = tried(&chosen, i, &|p| {
                if let Some(f) = flattened(p) {
                    *p = f;
                }
            })?;
            if e > now + FLATTER {
                (now, chosen) = (e, trial);
            }
        }
        for k in 0..3 {
            for sign in [-1.0, 1.0] {
                let mut d = [0.0; 3];
                d[k] = sign * 0.5 * g.grid.h;
                let (e, trial) = tried(&chosen, i, &|p| shift(p, d))?;
                if e > now + 1e-6 {
                    (now, chosen) = (e, trial);
                    break;
                }
            }
        }
        // 5% steps, then 2% ones (a section 2% off is 4% of its area).
        for steps in [[0.95f32, 1.05], [0.98, 1.02]] {
            for step in steps {
                let mut improved = false;
                for _ in 0..2 {
                    let (e, trial) = tried(&chosen, i, &|p| narrow(p, step))?;
                    if e > now + 1e-6 {
                        (now, chosen) = (e, trial);
                        improved = true;
                    } else {
                        break;
                    }
                }
                if improved {
                    break;
                }
            }
        }
    }
    Ok((chosen, runs))
}

/// Whether `SSKB_IMPORT_DEBUG` is set: the fit then writes its candidates,
/// runs and trials to standard error. Read once.
fn debugging() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("SSKB_IMPORT_DEBUG").is_some())
}

/// Most exact scores [`refine_points`] takes.
const POINT_TRIALS: usize = 48;

/// Each point of each sweep added alone (not a subtract, not one of an
/// intersected pair) moved half a cell along each of the grid's axes, then
/// its section made 5% narrower or wider across each of its two
/// directions, each change kept where the exact score (`now`, updated)
/// rises; at most [`POINT_TRIALS`] scores. Moving or sizing a whole set
/// cannot follow a sweep fitted to cells whose ends, bends and tapers are
/// each a fraction of a cell off in their own direction.
fn refine_points(
    chosen: &mut Vec<Vec<Piece>>,
    now: &mut f64,
    h: f64,
    exact: &(dyn Fn(&[Vec<Piece>]) -> Result<f64> + Sync),
) -> Result<()> {
    let mut trials = 0;
    let mut tried = |chosen: &mut Vec<Vec<Piece>>, now: &mut f64, i: usize, f: &dyn Fn(&mut Piece)| -> Result<bool> {
        if trials >= POINT_TRIALS {
            return Ok(false);
        }
        trials += 1;
        let mut trial = chosen.clone();
        f(&mut trial[i][0]);
        let e = exact(&trial)?;
        if debugging() {
            eprintln!("refine trial {trials} set {i}: {e:.5} against {:.5}", *now);
        }
        if e > *now + 1e-6 {
            (*now, *chosen) = (e, trial);
            return Ok(true);
        }
        Ok(false)
    };
    for i in 0..chosen.len() {
        if chosen[i].len() != 1 || chosen[i][0].mode.is_some_and(|m| m != Mode::Add) {
            continue;
        }
        let n = chosen[i][0].points.as_ref().map_or(0, Vec::len);
        if n < 2 {
            continue;
        }
        // The ends first (a sweep fitted to cells stops short of the mesh's
        // ends or runs past them), then the middle; given up after two
        // points in a row that no move raises.
        let order = [0, n - 1].into_iter().chain(1..n - 1);
        let mut idle = 0;
        for k in order {
            if idle >= 2 {
                break;
            }
            let before = *now;
            for axis in 0..3 {
                for sign in [-1.0, 1.0] {
                    let mut d = [0.0; 3];
                    d[axis] = sign * 0.5 * h;
                    let moved = |p: &mut Piece| {
                        if let Some(q) = p.points.as_mut().and_then(|v| v.get_mut(k)) {
                            shift_point(q, d);
                        }
                    };
                    if tried(chosen, now, i, &moved)? {
                        break;
                    }
                }
            }
            for across in 0..2 {
                for f in [0.95f32, 1.05] {
                    let sized = |p: &mut Piece| {
                        let size = p.size;
                        if let Some(q) = p.points.as_mut().and_then(|v| v.get_mut(k)) {
                            if let Some(mut s) = q.size.or(size) {
                                if across == 0 {
                                    s.x *= f;
                                } else {
                                    s.y *= f;
                                }
                                q.size = Some(s);
                            }
                        }
                    };
                    if tried(chosen, now, i, &sized)? {
                        break;
                    }
                }
            }
            idle = if *now > before { 0 } else { idle + 1 };
        }
    }
    Ok(())
}

/// What every run of the search works on: the grid, the mesh's inside on
/// it (`total` cells), the options, the exact score, and the cells of the
/// subtract pieces tried, each put on the grid once (the runs try the
/// same ones).
struct Ground<'a> {
    grid: &'a Grid,
    /// The mesh itself, for sections cut exactly ([`resectioned`]).
    source: &'a Mesh,
    inside: &'a [bool],
    total: usize,
    o: &'a FitOptions,
    exact: &'a (dyn Fn(&[Vec<Piece>]) -> Result<f64> + Sync),
    rasters: std::sync::Mutex<std::collections::HashMap<String, std::sync::Arc<Cells>>>,
}

impl Ground<'_> {
    /// The score of a model covering `model` cells, `both` of them inside.
    fn grid_score(&self, both: usize, model: usize, pieces: usize, points: usize) -> f64 {
        let cov = 100.0 * both as f64 / self.total as f64;
        let over = if model == 0 {
            0.0
        } else {
            100.0 * (model - both) as f64 / model as f64
        };
        quality_score(cov, over, pieces, points, self.o.expected_pieces, self.o.weights)
    }

    fn raster(&self, set: &[Piece]) -> Result<std::sync::Arc<Cells>> {
        let key = format!("{set:?}");
        if let Some(c) = self.rasters.lock().ok().and_then(|m| m.get(&key).cloned()) {
            return Ok(c);
        }
        let cells = std::sync::Arc::new(raster(self.grid, set)?);
        if let Ok(mut m) = self.rasters.lock() {
            m.insert(key, cells.clone());
        }
        Ok(cells)
    }
}

/// One greedy run of [`search`]: the grid's score of its added sets
/// (before subtract pieces) and all its sets.
struct Run {
    added: f64,
    sets: Vec<Vec<Piece>>,
}

/// The cells the chosen sets cover (how many sets each), and the counts
/// the score is made of.
struct State {
    cover: Vec<u32>,
    /// The cells no set covers, as words.
    free: Vec<u64>,
    both: usize,
    model: usize,
    pieces: usize,
    points: usize,
}

impl State {
    fn add(&mut self, c: &Candidate, inside: &[bool]) {
        for cell in c.cells.iter() {
            if self.cover[cell] == 0 {
                self.model += 1;
                self.both += usize::from(inside[cell]);
                self.free[cell / 64] &= !(1 << (cell % 64));
            }
            self.cover[cell] += 1;
        }
        self.pieces += c.pieces.len();
        self.points += points_of(&c.pieces);
    }

    fn remove(&mut self, c: &Candidate, inside: &[bool]) {
        for cell in c.cells.iter() {
            self.cover[cell] -= 1;
            if self.cover[cell] == 0 {
                self.model -= 1;
                self.both -= usize::from(inside[cell]);
                self.free[cell / 64] |= 1 << (cell % 64);
            }
        }
        self.pieces -= c.pieces.len();
        self.points -= points_of(&c.pieces);
    }
}

/// One greedy run over `cands`: its score on the grid and its sets.
fn greedy(
    g: &Ground,
    cands: &[&Candidate],
    floor: f64,
    seen: &mut Vec<Vec<usize>>,
) -> Result<(f64, Option<Vec<Vec<Piece>>>)> {
    let (grid, inside, o, exact) = (g.grid, g.inside, g.o, g.exact);
    let q = |both: usize, model: usize, pieces: usize, points: usize| g.grid_score(both, model, pieces, points);
    let max = o.max_pieces.unwrap_or(usize::MAX).max(1);
    let inside_words = Cells::words_of(inside);
    let mut st = State {
        cover: vec![0u32; inside.len()],
        free: Cells::words_of(&vec![true; inside.len()]),
        both: 0,
        model: 0,
        pieces: 0,
        points: 0,
    };
    let mut chosen: Vec<usize> = Vec::new();
    let score = |st: &State| {
        if st.pieces == 0 {
            f64::NEG_INFINITY
        } else {
            q(st.both, st.model, st.pieces, st.points)
        }
    };
    // The best candidate to add to `st`, not in `chosen`, and its score.
    // Every candidate that may be added to `st`, not in `chosen`, with its
    // score.
    let adds = |st: &State, chosen: &[usize]| -> Vec<(f64, usize)> {
        let mut out = Vec::new();
        for (i, c) in cands.iter().enumerate() {
            if chosen.contains(&i) || st.pieces + c.pieces.len() > max {
                continue;
            }
            let (dm, db) = c.cells.meet(&st.free, &inside_words);
            if db == 0 {
                continue;
            }
            let s = q(
                st.both + db,
                st.model + dm,
                st.pieces + c.pieces.len(),
                st.points + points_of(&c.pieces),
            );
            out.push((s, i));
        }
        out
    };
    let best_add = |st: &State, chosen: &[usize]| -> Option<(f64, usize)> {
        adds(st, chosen)
            .into_iter()
            .fold(None, |best: Option<(f64, usize)>, (s, i)| {
                if best.is_none_or(|(b, _)| s > b) {
                    Some((s, i))
                } else {
                    best
                }
            })
    };
    let mut current = f64::NEG_INFINITY;
    for _round in 0..4 {
        // Add while the score rises.
        while let Some((s, i)) = best_add(&st, &chosen) {
            if s <= current + 1e-6 {
                break;
            }
            st.add(cands[i], inside);
            chosen.push(i);
            current = s;
        }
        // Then each chosen set in turn: taken out, and the best other put
        // in its place (or none), when that scores higher. A loose set
        // chosen early gives way to tighter ones.
        let mut changed = false;
        let mut k = 0;
        while k < chosen.len() {
            let c = chosen[k];
            st.remove(cands[c], inside);
            let without: Vec<usize> = chosen.iter().copied().filter(|&x| x != c).collect();
            let alone = score(&st);
            let swap = best_add(&st, &chosen).filter(|&(_, j)| j != c);
            match swap {
                Some((s, j)) if s > current + 1e-6 && s >= alone => {
                    st.add(cands[j], inside);
                    chosen[k] = j;
                    current = s;
                    changed = true;
                }
                _ if alone > current + 1e-6 => {
                    chosen = without;
                    current = alone;
                    changed = true;
                    continue;
                }
                _ => st.add(cands[c], inside),
            }
            k += 1;
        }
        if !changed {
            break;
        }
    }
    // Not carried further when it scores no higher than `floor` on the
    // grid, or when an earlier run added the same sets.
    if current <= floor + 1e-6 {
        return Ok((current, None));
    }
    let mut key: Vec<usize> = chosen.iter().map(|&i| cands[i].id).collect();
    key.sort_unstable();
    if seen.contains(&key) {
        return Ok((current, None));
    }
    seen.push(key);
    let mut filled: Vec<bool> = st.cover.iter().map(|&c| c > 0).collect();
    let (mut both, mut model, mut pieces, mut points) = (st.both, st.model, st.pieces, st.points);
    let mut chosen: Vec<Vec<Piece>> = chosen.iter().map(|&i| cands[i].pieces.clone()).collect();
    // Subtract pieces, one at a time, fitted to the regions filled
    // outside the mesh (a bore, a hole, the inside of a shell).
    let mut now: Option<f64> = None;
    for _ in 0..8 {
        if pieces >= max {
            break;
        }
        let outside: Vec<bool> = filled.iter().zip(inside).map(|(&f, &i)| f && !i).collect();
        let min_cells = (model / 200).max(8);
        let mut ranked: Vec<(f64, Vec<Piece>, Vec<usize>)> = Vec::new();
        let mut trials: Vec<Vec<Piece>> = Vec::new();
        for region in grid
            .regions(&outside)
            .into_iter()
            .filter(|r| r.len() >= min_cells)
            .take(6)
        {
            let centres: Vec<V3> = region.iter().map(|&c| grid.centre(c)).collect();
            // Each as the cells give it, a little narrower and wider: a cavity's
            // cells reach half a cell past its wall, and a bore cut too
            // wide takes the wall with it.
            let shapes = Frame::of_cells(&centres, grid.h).candidates();
            // And each run a cell past its ends, first: where that cuts
            // nothing more (a bore through a part), a cut flush with the
            // part's faces is left to a scorer's luck with coplanar faces.
            for (mut set, f, past) in shapes
                .into_iter()
                .filter(|set| set.len() == 1)
                .flat_map(|set| [1.0f32, 0.95, 0.9, 1.05].map(|f| (set.clone(), f)))
                .flat_map(|(set, f)| [(set.clone(), f, true), (set, f, false)])
            {
                if pieces + set.len() > max {
                    continue;
                }
                for p in &mut set {
                    p.mode = Some(Mode::Subtract);
                    narrow(p, f);
                    if past {
                        lengthen(p, grid.h);
                    }
                }
                trials.push(set);
            }
        }
        // Put on the grid on all cores, ranked in order.
        let rastered = crate::mesh::par_map(trials.iter().collect(), |set| g.raster(set))?;
        for (set, cells) in trials.into_iter().zip(rastered) {
            let cells: Vec<usize> = cells.iter().filter(|&c| filled[c]).collect();
            let lost = cells.iter().filter(|&&c| inside[c]).count();
            let s = q(
                both - lost,
                model - cells.len(),
                pieces + set.len(),
                points + points_of(&set),
            );
            if s > current + 1e-6 {
                ranked.push((s, set, cells));
            }
        }
        // The grid is coarse beside a wall a few cells thick: the best few
        // by the grid are scored exactly, and one is taken only if the
        // exact score rises too.
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        let Some(top) = ranked.first().map(|r| r.0) else { break };
        ranked.retain(|r| r.0 >= top - EXACT_BAND);
        ranked.truncate(EXACT_SUBTRACTS);
        let mut best: Option<(f64, f64, Vec<Piece>, Vec<usize>)> = None;
        if ranked.len() == 1 {
            // Clearly the best by the grid.
            best = ranked.pop().map(|(s, set, cells)| (s, f64::NAN, set, cells));
        } else {
            let base = match now {
                Some(e) => e,
                None => exact(&chosen)?,
            };
            for (s, set, cells) in ranked {
                chosen.push(set);
                let e = exact(&chosen)?;
                let set = chosen.pop().unwrap_or_default();
                if e > base + 1e-6 && best.as_ref().is_none_or(|b| e > b.1) {
                    best = Some((s, e, set, cells));
                }
            }
        }
        match best {
            Some((s, e, set, cells)) => {
                now = Some(e).filter(|e| e.is_finite());
                for c in cells {
                    filled[c] = false;
                    model -= 1;
                    both -= usize::from(inside[c]);
                }
                pieces += set.len();
                points += points_of(&set);
                current = s;
                chosen.push(set);
            }
            _ => break,
        }
    }
    Ok((current, Some(chosen)))
}

/// Sub-regions of `region`: along each principal and each world axis,
/// the region cut where its section (cells per slice) changes by half or
/// more, each slab's connected parts.
fn slabs(grid: &Grid, region: &[usize], cells: usize, min_cells: usize) -> Vec<Vec<usize>> {
    let centres: Vec<V3> = region.iter().map(|&c| grid.centre(c)).collect();
    let frame = Frame::of_cells(&centres, grid.h);
    let world = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let mut out: Vec<Vec<usize>> = Vec::new();
    for axis in frame.axes.iter().chain(world.iter()) {
        // Two directions across the axis, for each cell's footprint.
        let across = {
            let a = *axis;
            let helper = if a[0].abs() < 0.9 {
                [1.0, 0.0, 0.0]
            } else {
                [0.0, 1.0, 0.0]
            };
            let u = crate::mesh::math::unit(crate::mesh::math::cross(a, helper)).unwrap_or([0.0, 0.0, 1.0]);
            [u, crate::mesh::math::cross(a, u)]
        };
        let foot: Vec<(i64, i64)> = centres
            .iter()
            .map(|p| {
                let d = sub(*p, frame.centre);
                (
                    (dot(d, across[0]) / grid.h).round() as i64,
                    (dot(d, across[1]) / grid.h).round() as i64,
                )
            })
            .collect();
        let t: Vec<i64> = centres
            .iter()
            .map(|p| (dot(sub(*p, frame.centre), *axis) / grid.h).round() as i64)
            .collect();
        let (lo, hi) = (
            t.iter().copied().min().unwrap_or(0),
            t.iter().copied().max().unwrap_or(0),
        );
        let mut area = vec![0usize; (hi - lo + 1) as usize];
        for &x in &t {
            area[(x - lo) as usize] += 1;
        }
        // Cuts between slices whose areas differ by a factor of 2.
        let mut bounds = vec![lo];
        for s in 0..area.len().saturating_sub(1) {
            let (a, b) = (area[s].max(1) as f64, area[s + 1].max(1) as f64);
            if a / b >= 2.0 || b / a >= 2.0 {
                bounds.push(lo + s as i64 + 1);
            }
        }
        if bounds.len() == 1 {
            continue;
        }
        bounds.push(hi + 1);
        for w in bounds.windows(2) {
            let mut set = vec![false; cells];
            let mut any = 0;
            for (k, &c) in region.iter().enumerate() {
                if (w[0]..w[1]).contains(&t[k]) {
                    set[c] = true;
                    any += 1;
                }
            }
            if any < min_cells {
                continue;
            }
            for r in grid.regions(&set) {
                if r.len() < min_cells || r.len() >= region.len() {
                    continue;
                }
                // The slab's part carried along the axis through the whole
                // region: an arm of a cross, a leg of a table through the
                // top, found from its end.
                let mine: std::collections::HashSet<(i64, i64)> =
                    r.iter().map(|c| foot[region.binary_search(c).unwrap_or(0)]).collect();
                let long: Vec<usize> = region
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| mine.contains(&foot[*k]))
                    .map(|(_, &c)| c)
                    .collect();
                let mut keep = grid.regions(&{
                    let mut m = vec![false; cells];
                    for &c in &long {
                        m[c] = true;
                    }
                    m
                });
                keep.retain(|k| k.len() >= min_cells && k.len() < region.len() && k != &r);
                if !out.contains(&r) {
                    out.push(r);
                }
                for k in keep {
                    if !out.contains(&k) {
                        out.push(k);
                    }
                }
            }
        }
    }
    out
}

/// Path pieces through the middle of a region that is long for its
/// thickness: the path sampled at 4, 8, 16 and 32 points (as its length
/// allows), each point sized by the distance to the outside there, with
/// rounded and with flat ends.
fn tubes(grid: &Grid, region: &[usize], dist: &[f64]) -> Vec<Vec<Piece>> {
    let path = grid.middle_path(region, dist);
    if path.len() < 4 {
        return Vec::new();
    }
    let mut out = sweeps(grid, region, dist, &path, false);
    // A ring: a second way back from the far end to the start that keeps
    // clear of the first makes the path a closed loop.
    let median = {
        let mut r: Vec<f64> = path.iter().map(|&c| dist[c]).collect();
        r.sort_by(f64::total_cmp);
        r[r.len() / 2].max(1.0)
    };
    let clear = 2.0 * median + 1.0;
    let ends = 3.0 * median;
    let first: Vec<V3> = path.iter().map(|&c| grid.centre(c)).collect();
    let (a, b) = (first[0], first[first.len() - 1]);
    let near = |p: V3, q: V3| {
        let d = sub(p, q);
        dot(d, d).sqrt() / grid.h
    };
    let member = grid.flags(region.iter().copied().filter(|&c| {
        let p = grid.centre(c);
        near(p, a) <= ends || near(p, b) <= ends || first.iter().all(|&q| near(p, q) > clear)
    }));
    let (_, back) = grid.cheapest(&member, path[0], Some(path[path.len() - 1]), dist);
    if back.len() * 2 >= path.len() {
        // `path` runs from its far end to its start, `back` from the start
        // to that end: around once.
        let mut ring = path.clone();
        ring.extend_from_slice(&back[1..]);
        out.extend(sweeps(grid, region, dist, &ring, true));
        out.extend(torus(grid, region, &ring));
    }
    out
}

/// A torus around a region of cells that `ring` loops through: its centre
/// and plane (across the least spread) from all the region's cells, its
/// radii from their mean distance from the axis and their volume; four
/// Bézier quarters, as the reference draws a ring.
fn torus(grid: &Grid, region: &[usize], ring: &[usize]) -> Vec<Vec<Piece>> {
    if ring.is_empty() {
        return Vec::new();
    }
    // Its centre and plane from all its cells: a ring of cells along the
    // middle sits up to half a cell off it.
    let all: Vec<V3> = region.iter().map(|&c| grid.centre(c)).collect();
    let frame = Frame::of_cells(&all, grid.h);
    let [u, v, _] = frame.axes;
    let c = frame.centre;
    // The mean distance of a solid torus's points from its axis is
    // R + r²/4R, and its volume 2π²Rr²: solved for R and r.
    let rho = |p: &V3| {
        let d = sub(*p, c);
        (dot(d, u).powi(2) + dot(d, v).powi(2)).sqrt()
    };
    let mean = all.iter().map(rho).sum::<f64>() / all.len().max(1) as f64;
    let volume = region.len() as f64 * grid.h.powi(3);
    let (mut big, mut small) = (mean, 0.0);
    for _ in 0..8 {
        small = (volume / (2.0 * std::f64::consts::PI.powi(2) * big)).sqrt();
        big = mean - small * small / (4.0 * big);
    }
    if !(big > small && small > 0.0) {
        return Vec::new();
    }
    let k = 4.0 / 3.0 * (std::f64::consts::PI / 8.0).tan() * big;
    let at = |a: f64, r: f64| -> V3 { [0, 1, 2].map(|i| c[i] + r * (a.cos() * u[i] + a.sin() * v[i])) };
    let tangent = |a: f64| -> V3 { [0, 1, 2].map(|i| -a.sin() * u[i] + a.cos() * v[i]) };
    let mut points = Vec::with_capacity(5);
    for q in 0..5 {
        let a = std::f64::consts::FRAC_PI_2 * q as f64;
        let p = at(a, big);
        let t = tangent(a);
        let mut pt = Point::at(v3(p));
        if q > 0 {
            pt.curve_in = Some(v3([0, 1, 2].map(|i| p[i] - k * t[i])));
        }
        if q < 4 {
            pt.curve_out = Some(v3([0, 1, 2].map(|i| p[i] + k * t[i])));
        }
        points.push(pt);
    }
    // The section as the volume gives it, and a little thicker: cells
    // whose centres are inside undercount a thin tube's volume.
    [1.0, 1.05, 1.1]
        .map(|f| {
            vec![Piece {
                id: 0,
                points: Some(points.clone()),
                size: Some(v3([small * f, small * f, 0.0])),
                shape: Some(Shape::Circle),
                ..Piece::default()
            }]
        })
        .to_vec()
}

/// An elliptic section along a path's points (`s`: the region's cells in
/// their normal planes): the piece's rotation (local X the major axis at
/// the start, Z the path's first direction) and the radii at each point
/// along the frame as a sweep carries it (parallel transport), from the
/// second moments of each section's cells. `None` when the sections are
/// round enough.
fn elliptic(s: &Sections) -> Option<(V3, Vec<(f64, f64)>)> {
    let (theta, ref sizes, elongated) = s.turn;
    if !elongated {
        return None;
    }
    let x = [0, 1, 2].map(|i| theta.cos() * s.x0[i] + theta.sin() * s.y0[i]);
    Some((euler([x, cross(s.t0, x), s.t0]), sizes.clone()))
}

/// For a regular n-gon centred at 0 with a corner on +x, ∫ zⁿ dA over
/// ∫ |z|ⁿ dA (z = x + iy), n = 3, 4, 5, 6: how strongly its cells show n
/// corners (an even n shows in an ellipse's cells too).
const CORNERS: [(u32, f64); 4] = [(3, 0.658), (4, 0.4285), (5, 0.3102), (6, 0.241)];

/// A sweep whose sections show corners: the n-gon section that fits
/// them, its sides, the rotation that puts a corner where the sections'
/// corners are (at the start, carried along as the sweep carries its
/// frame), and each point's sizes. The sections are first made round: each
/// cell's place in its section's principal axes (the turn of
/// [`elliptic`]) over the section's radii along them, where an n-gon
/// scaled along its own axes is regular. Round sections take any turn;
/// elongated ones a corner on one of their axes (an n-gon scaled along
/// other axes is not an n-gon scaled). Sizes: the second moments of each
/// section along the n-gon's axes, averaged with the neighbours'. `None`
/// when no n shows 0.7 of a regular n-gon's corners (the fewest n that
/// does is taken), or when the corners turn along the path (they cancel).
fn polygonal(s: &Sections) -> Option<Polygonal> {
    let (theta, ref sizes, elongated) = s.turn;
    let (c, si) = (theta.cos(), theta.sin());
    // Per n: the sums of zⁿ (re, im) and |z|ⁿ over every section's cells,
    // z about the section's middle, along its axes, over its radii.
    let mut sums = [[0.0f64; 3]; CORNERS.len()];
    for (cells, &(a, b)) in s.cells.iter().zip(sizes) {
        let m = cells.len() as f64;
        let (mu, mv) = cells.iter().fold((0.0, 0.0), |(x, y), q| (x + q[0] / m, y + q[1] / m));
        for q in cells {
            let (u, v) = (q[0] - mu, q[1] - mv);
            let (u, v) = ((c * u + si * v) / a.max(1e-12), (c * v - si * u) / b.max(1e-12));
            let r = (u * u + v * v).sqrt();
            // zⁿ and |z|ⁿ for n = 1, 2, ... by multiplication.
            let (mut zr, mut zi, mut rn, mut n) = (u, v, r, 1);
            for (sum, &(corners, _)) in sums.iter_mut().zip(&CORNERS) {
                while n < corners {
                    (zr, zi) = (zr * u - zi * v, zr * v + zi * u);
                    rn *= r;
                    n += 1;
                }
                sum[0] += zr;
                sum[1] += zi;
                sum[2] += rn;
            }
        }
    }
    // The fewest corners that show: a triangle's cells show six too.
    let shown: Vec<((u32, f64), f64)> = sums
        .iter()
        .zip(&CORNERS)
        .map(|(sum, &(n, k))| {
            (
                (n, sum[1].atan2(sum[0])),
                (sum[0].hypot(sum[1]) / sum[2].max(1e-300)) / k,
            )
        })
        .collect();
    let ((n, phase), _) = shown.into_iter().find(|s| s.1 >= 0.7)?;
    let nf = f64::from(n);
    // The corner's angle from the first axis: free in a round section,
    // else the quarter turn whose n-fold angle is nearest the cells'.
    let psi = if elongated {
        let gap = |q: f64| {
            let d = (nf * q - phase).rem_euclid(std::f64::consts::TAU);
            d.min(std::f64::consts::TAU - d)
        };
        [0.0, 1.0, 2.0, 3.0]
            .map(|k| k * std::f64::consts::FRAC_PI_2)
            .into_iter()
            .min_by(|a, b| gap(*a).total_cmp(&gap(*b)))?
    } else {
        phase / nf
    };
    // A unit-circumradius n-gon's variance along any axis; an ellipse of
    // radius a has a²/4.
    let var = (2.0 + (std::f64::consts::TAU / nf).cos()) / 12.0;
    let f = 0.5 / var.sqrt();
    let across = (psi / std::f64::consts::FRAC_PI_2).round() as i64 % 2 == 1 && elongated;
    // Each averaged with its neighbours' (¼, ½, ¼): a section a cell thick
    // through a bar a few cells across holds a few dozen cells.
    let k = sizes.len();
    let sizes = (0..k)
        .map(|j| {
            let (p, q) = (sizes[j.saturating_sub(1)], sizes[(j + 1).min(k - 1)]);
            let (a, b) = (
                0.25 * p.0 + 0.5 * sizes[j].0 + 0.25 * q.0,
                0.25 * p.1 + 0.5 * sizes[j].1 + 0.25 * q.1,
            );
            if across {
                (b * f, a * f)
            } else {
                (a * f, b * f)
            }
        })
        .collect();
    let turn = theta + psi;
    let x = [0, 1, 2].map(|i| turn.cos() * s.x0[i] + turn.sin() * s.y0[i]);
    Some(Polygonal {
        sides: n,
        rotation: euler([x, cross(s.t0, x), s.t0]),
        sizes,
    })
}

/// An n-gon section fitted along a path ([`polygonal`]).
struct Polygonal {
    sides: u32,
    /// The piece's rotation: a corner on local X at the start.
    rotation: V3,
    /// Each point's size along local X and Y.
    sizes: Vec<(f64, f64)>,
}

/// The cells of a region in the normal planes of a path's points: each
/// point's frame carried along the path from a basis across its start,
/// and each section's cells in it (u, v).
struct Sections {
    t0: V3,
    x0: V3,
    y0: V3,
    cells: Vec<Vec<[f64; 2]>>,
    /// Each section's middle: its cells' centroid, in the world.
    middles: Vec<V3>,
    /// [`Sections::turn`] of these sections.
    turn: (f64, Vec<(f64, f64)>, bool),
}

impl Sections {
    /// The cells of `region` in the normal planes of the points `at`
    /// (slabs a cell thick, within three times `rs` and two cells of each
    /// point); `None` for fewer than two points or a section of fewer than
    /// 4 cells.
    fn of(located: &Located, at: &[V3], rs: &[f64]) -> Option<Sections> {
        let grid = located.grid();
        let k = at.len();
        if k < 2 {
            return None;
        }
        let tangent = |j: usize| unit(sub(at[(j + 1).min(k - 1)], at[j.saturating_sub(1)]));
        let t0 = tangent(0)?;
        let (x0, y0) = across(t0)?;
        let (mut x, mut prev) = (x0, t0);
        let h = grid.h;
        let (mut cells, mut middles) = (Vec::with_capacity(k), Vec::with_capacity(k));
        for j in 0..k {
            let t = tangent(j).unwrap_or(prev);
            x = carry(x, prev, t);
            prev = t;
            let y = cross(t, x);
            let reach = 3.0 * rs[j] + 2.0 * h;
            let ball = reach * reach + h * h;
            let here: Vec<[f64; 2]> = located
                .slab(at[j], t, ball.sqrt(), 0.5 * h)
                .iter()
                .map(|&c| sub(grid.centre(c), at[j]))
                .filter(|d| dot(*d, *d) <= ball && dot(*d, t).abs() <= 0.5 * h)
                .map(|d| [dot(d, x), dot(d, y)])
                .filter(|[u, v]| u * u + v * v <= reach * reach)
                .collect();
            if here.len() < 4 {
                return None;
            }
            let m = here.len() as f64;
            let (mu, mv) = here.iter().fold((0.0, 0.0), |(a, b), q| (a + q[0] / m, b + q[1] / m));
            middles.push([0, 1, 2].map(|i| at[j][i] + mu * x[i] + mv * y[i]));
            cells.push(here);
        }
        let turn = Sections::turn(&cells, h);
        Some(Sections {
            t0,
            x0,
            y0,
            cells,
            middles,
            turn,
        })
    }

    /// One turn for the whole path (the sections' major axes averaged as
    /// doubled angles, weighted by how elongated each is), each section's
    /// ellipse radii along it and across, and whether the median section
    /// is elongated (axes 1.25 : 1 or more); `h` the cells' side.
    fn turn(cells: &[Vec<[f64; 2]>], h: f64) -> (f64, Vec<(f64, f64)>, bool) {
        let moments: Vec<[f64; 3]> = cells
            .iter()
            .map(|cells| {
                let n = cells.len() as f64;
                let [sx, sy, sxx, syy, sxy] = cells.iter().fold([0.0; 5], |s, q| {
                    [
                        s[0] + q[0],
                        s[1] + q[1],
                        s[2] + q[0] * q[0],
                        s[3] + q[1] * q[1],
                        s[4] + q[0] * q[1],
                    ]
                });
                let (mx, my) = (sx / n, sy / n);
                // A cell's own spread (h²/12) on top of its centre's.
                [
                    sxx / n - mx * mx + h * h / 12.0,
                    syy / n - my * my + h * h / 12.0,
                    sxy / n - mx * my,
                ]
            })
            .collect();
        let (mut c2, mut s2) = (0.0, 0.0);
        for m in &moments {
            let (d, e) = (m[0] - m[1], 2.0 * m[2]);
            c2 += d * (d * d + e * e).sqrt();
            s2 += e * (d * d + e * e).sqrt();
        }
        let theta = 0.5 * s2.atan2(c2);
        let (c, s) = (theta.cos(), theta.sin());
        let mut sizes = Vec::with_capacity(moments.len());
        let mut ratio = Vec::with_capacity(moments.len());
        for m in &moments {
            let vx = c * c * m[0] + 2.0 * c * s * m[2] + s * s * m[1];
            let vy = s * s * m[0] - 2.0 * c * s * m[2] + c * c * m[1];
            // An ellipse of radii a, b has variances a²/4 and b²/4.
            let (a, b) = (2.0 * vx.max(0.0).sqrt(), 2.0 * vy.max(0.0).sqrt());
            ratio.push(a.max(b) / a.min(b).max(1e-9));
            sizes.push((a, b));
        }
        ratio.sort_by(f64::total_cmp);
        (theta, sizes, ratio[ratio.len() / 2] >= 1.25)
    }
}

/// The cells at `cells` in the plane through `at` normal to unit `t` (a
/// slab a cell of side `h` thick), within `reach` of `at`: their count and
/// sums of u, v, u², v², uv in the basis (x, y) across `t`.
fn section(cells: impl Iterator<Item = V3>, at: V3, t: V3, (x, y): (V3, V3), reach: f64, h: f64) -> [f64; 6] {
    // Beyond this, a cell is out of the slab or out of reach.
    let ball = reach * reach + h * h;
    let mut s = [0.0; 6];
    for c in cells {
        let d = sub(c, at);
        if dot(d, d) > ball || dot(d, t).abs() > 0.5 * h {
            continue;
        }
        let (u, v) = (dot(d, x), dot(d, y));
        if u * u + v * v > reach * reach {
            continue;
        }
        s[0] += 1.0;
        s[1] += u;
        s[2] += v;
        s[3] += u * u;
        s[4] += v * v;
        s[5] += u * v;
    }
    s
}

/// Unit `x` (normal to unit `from`) turned by the least rotation taking
/// `from` to unit `to`, made normal to `to` again.
fn carry(x: V3, from: V3, to: V3) -> V3 {
    let axis = cross(from, to);
    let (sin, cos) = (norm(axis), dot(from, to));
    let turned = match unit(axis) {
        Some(a) if sin > 1e-12 => {
            // Rodrigues.
            let ax = cross(a, x);
            let ad = dot(a, x);
            [0, 1, 2].map(|i| x[i] * cos + ax[i] * sin + a[i] * ad * (1.0 - cos))
        }
        _ => x,
    };
    let off = dot(turned, to);
    unit(sub(turned, scale(to, off))).unwrap_or(x)
}

/// Path piece `p`'s end points moved `by` outward along its ends'
/// directions (a point piece is left as it is).
fn lengthen(p: &mut Piece, by: f64) {
    let Some(points) = p.points.as_mut() else { return };
    let n = points.len();
    if n < 2 {
        return;
    }
    let at = |q: &Point| [q.position.x, q.position.y, q.position.z].map(f64::from);
    let push = |q: &mut Point, towards: V3| {
        let here = at(q);
        if let Some(d) = unit(sub(here, towards)) {
            q.position = v3([0, 1, 2].map(|i| here[i] + by * d[i]));
        }
    };
    let (second, before) = (at(&points[1]), at(&points[n - 2]));
    push(&mut points[0], second);
    push(&mut points[n - 1], before);
}

/// The gain in the exact score that flat ends ([`flattened`]) must bring
/// to be kept. Smaller gains are within what the reference's scorer,
/// which meshes a model at its own resolution, sees differently: the
/// S-rod's (rounded caps) and the bent pipe's flat ends gained 0.0016 and
/// 0.0018 here and the S-rod lost 1.3% of overlap there; the U-tube's
/// gained 0.0071 here and 1.1% there.
const FLATTER: f64 = 0.0025;

/// Path piece `p` with each rounded cap (an end point whose section has
/// a depth, `size.z`) made flat and its end point carried out along the
/// path by the cap's depth (half of `size.z`, as the section's half-width
/// is half of `size.x`); `None` when neither end has a cap.
fn flattened(p: &Piece) -> Option<Piece> {
    let points = p.points.as_ref()?;
    let n = points.len();
    if n < 2 {
        return None;
    }
    let mut r = p.clone();
    let pts = r.points.as_mut()?;
    let at = |v: Vec3| [v.x, v.y, v.z].map(f64::from);
    let mut any = false;
    for (end, next) in [(0, 1), (n - 1, n - 2)] {
        let q = &pts[end];
        let Some(mut size) = q.size.or(p.size) else { continue };
        if size.z.is_nan() || size.z <= 0.0 {
            continue;
        }
        // Outward: away from the control on the path's side, else from
        // the next point.
        let control = if end == 0 { q.curve_out } else { q.curve_in };
        let towards = control.map_or_else(|| at(pts[next].position), at);
        let here = at(q.position);
        let Some(d) = unit(sub(here, towards)) else { continue };
        let by = 0.5 * f64::from(size.z);
        size.z = 0.0;
        let q = &mut pts[end];
        q.position = v3([0, 1, 2].map(|k| here[k] + by * d[k]));
        q.size = Some(size);
        any = true;
    }
    any.then_some(r)
}

/// Ends carried to the mesh's own end faces: from the point next to an
/// end, along the path's tangent there, outward to the plane of the
/// mesh's end face ([`end_face`]); the end point moves there, flat (its
/// section the next point's, which [`resectioned`] then cuts from the
/// mesh), its control along the face's normal so that the path arrives
/// square to the face. `None` when no end moves (no end face ahead, or
/// one far beyond where the end was).
fn ended(p: &Piece, mesh: &Mesh) -> Option<Piece> {
    let points = p.points.as_ref()?;
    let k = points.len();
    if k < 3 || p.mode.is_some_and(|m| m != Mode::Add) || p.affects.is_some() {
        return None;
    }
    let f = |v: Vec3| [v.x, v.y, v.z].map(f64::from);
    // A closed path (a ring) has no ends.
    let (first, last) = (f(points[0].position), f(points[k - 1].position));
    if norm(sub(first, last)) <= 1e-3 * norm(sub(first, f(points[1].position))) {
        return None;
    }
    let mut r = p.clone();
    let pts = r.points.as_mut()?;
    let mut any = false;
    for (end, next) in [(0, 1), (k - 1, k - 2)] {
        let q = &pts[next];
        let here = f(q.position);
        // Outward along the path at the next point: its controls, else
        // the points on either side.
        let (back, ahead) = if end == 0 {
            (q.curve_out.map_or(f(pts[2].position), f), q.curve_in.map(f))
        } else {
            (q.curve_in.map_or(f(pts[k - 3].position), f), q.curve_out.map(f))
        };
        let Some(d) = unit(sub(ahead.unwrap_or(here), back)) else {
            continue;
        };
        let Some(size) = q.size.or(p.size).map(f) else { continue };
        let was = norm(sub(f(pts[end].position), here));
        let reach = size[0].max(size[1]);
        let Some((t, n)) = end_face(mesh, here, d, reach) else {
            continue;
        };
        if !(t > 0.0 && t <= 2.0 * was + reach) {
            continue;
        }
        // On the face, at the middle of the mesh's section just inside it
        // (the ray meets the face off its middle where the path bends).
        let hit = [0, 1, 2].map(|c| here[c] + t * d[c]);
        let inside = 0.05 * t;
        let Some(section) = cut(mesh, sub(hit, scale(n, inside)), n, 3.0 * reach) else {
            continue;
        };
        let at = [0, 1, 2].map(|c| section.middle[c] + inside * n[c]);
        if norm(sub(at, hit)) > reach {
            continue;
        }
        // Square to the face.
        let control = [0, 1, 2].map(|c| at[c] - t / 3.0 * n[c]);
        let e = &mut pts[end];
        e.position = v3(at);
        if end == 0 {
            e.curve_out = Some(v3(control));
        } else {
            e.curve_in = Some(v3(control));
        }
        e.size = Some(v3([size[0], size[1], 0.0]));
        any = true;
    }
    any.then_some(r)
}

/// The mesh's end face ahead of `from` along unit `d`: of the triangles
/// that face along `d` (within 45°) and lie within `reach` of the ray,
/// the nearest ahead; its plane's distance along the ray, and its unit
/// normal.
fn end_face(mesh: &Mesh, from: V3, d: V3, reach: f64) -> Option<(f64, V3)> {
    let mut best: Option<(f64, V3, V3)> = None;
    for tri in &mesh.triangles {
        let [a, b, c] = tri.map(|i| mesh.positions[i as usize]);
        let Some(n) = unit(cross(sub(b, a), sub(c, a))) else {
            continue;
        };
        if dot(n, d) < std::f64::consts::FRAC_1_SQRT_2 {
            continue;
        }
        let m = [0, 1, 2].map(|k| (a[k] + b[k] + c[k]) / 3.0 - from[k]);
        let along = dot(m, d);
        if along <= 0.0 || norm(sub(m, scale(d, along))) > reach {
            continue;
        }
        if best.is_none_or(|(s, _, _)| along < s) {
            best = Some((along, m, n));
        }
    }
    let (_, m, n) = best?;
    Some((dot(m, n) / dot(d, n), n))
}

/// An n-gon of five sides or more as the circle of the same section
/// area (the same scaling, `size` × √(n·sin(2π/n)/2π)); `None` for
/// anything else.
fn rounded(p: &Piece) -> Option<Piece> {
    let n = match (p.shape, p.sides) {
        (Some(Shape::Ngon), Some(n)) if n >= 5 => f64::from(n),
        _ => return None,
    };
    let f = (n * (std::f64::consts::TAU / n).sin() / std::f64::consts::TAU).sqrt() as f32;
    let mut r = p.clone();
    r.shape = Some(Shape::Circle);
    r.sides = None;
    narrow(&mut r, f);
    Some(r)
}

/// Moves a piece (its points and their curve controls) by `d`.
fn shift(p: &mut Piece, d: V3) {
    for q in p.points.iter_mut().flatten() {
        shift_point(q, d);
    }
}

/// Moves a point and its curve controls by `d`.
fn shift_point(q: &mut Point, d: V3) {
    let by = |v: &mut Vec3| *v = v3([f64::from(v.x) + d[0], f64::from(v.y) + d[1], f64::from(v.z) + d[2]]);
    by(&mut q.position);
    for c in [&mut q.curve_in, &mut q.curve_out].into_iter().flatten() {
        by(c);
    }
}

/// Path piece `p` with its section turned by `angle` (radians, right-handed
/// about the tangent) at the start of its path, where the mesher sets its
/// frame (the piece's rotation turned about that tangent), and so all
/// along it. `None` for a piece of one point, one whose points have
/// rotations of their own (the mesher starts a frame from them where it
/// cannot carry one), a round section, or no first tangent.
fn turned(p: &Piece, angle: f64) -> Option<Piece> {
    let pts = p.points.as_ref()?;
    if pts.len() < 2 || pts.iter().any(|q| q.rotation.is_some()) {
        return None;
    }
    let f = |w: Vec3| [w.x, w.y, w.z].map(f64::from);
    let oriented = match p.shape {
        Some(Shape::Ngon) => true,
        _ => pts
            .iter()
            .filter_map(|q| q.size)
            .chain(p.size)
            .any(|s| (f64::from(s.x) - f64::from(s.y)).abs() > 0.02 * f64::from(s.x).max(f64::from(s.y))),
    };
    if !oriented {
        return None;
    }
    // The first segment's derivative at its start: towards its first
    // control, else its second, else its end.
    let start = f(pts[0].position);
    let tangent = [pts[0].curve_out, pts[1].curve_in, Some(pts[1].position)]
        .into_iter()
        .flatten()
        .find_map(|c| unit(sub(f(c), start)))?;
    let r = rotation(v(p.rotation.unwrap_or_default()));
    let (sin, cos) = angle.sin_cos();
    let axes = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]].map(|e| rotate(mul(&r, e), tangent, cos, sin));
    let mut out = p.clone();
    out.rotation = Some(v3(euler(axes)));
    Some(out)
}

/// Path piece `p` with each point moved to the middle of the mesh's
/// section in the point's normal plane, and its size set from that
/// section as [`Resize`] says; `None` when no point moves.
///
/// The section is cut from the mesh's own triangles: each triangle that
/// crosses the plane gives a segment, directed so that the inside is on
/// its left (seen along the tangent), and the segments near the point
/// (within three times its larger size) give the section's area and
/// centroid by Green's theorem, with no need to join them into loops. A
/// point whose section is far off (its middle more than its size away,
/// its area or a size off by more than a factor of 4: the plane meets another
/// part of the mesh, or the section is not closed near the point) keeps
/// its place. Add pieces only.
fn resectioned(p: &Piece, mesh: &Mesh, by: Resize) -> Option<Piece> {
    let pts = p.points.as_ref()?;
    let k = pts.len();
    // An add piece only: an intersected or subtracted one is not the
    // mesh's section.
    if k < 2 || p.mode.is_some_and(|m| m != Mode::Add) || p.affects.is_some() {
        return None;
    }
    let f = |v: Vec3| [v.x, v.y, v.z].map(f64::from);
    // A unit section's area, and its second moment about its middle
    // along any axis (a regular n-gon's is the same along every one).
    let (unit_area, unit_spread) = match p.shape {
        Some(Shape::Ngon) => {
            let n = f64::from(p.sides.unwrap_or(3).max(3));
            let turn = std::f64::consts::TAU / n;
            (0.5 * n * turn.sin(), (2.0 + turn.cos()) / 12.0)
        }
        _ => (std::f64::consts::PI, 0.25),
    };
    // Each point's tangent: the path's segments as they leave and reach
    // it (a control, else the next point), halfway between the two.
    let tangents: Vec<Option<V3>> = (0..k)
        .map(|i| {
            let here = f(pts[i].position);
            let into = (i > 0)
                .then(|| unit(sub(here, pts[i].curve_in.map_or(f(pts[i - 1].position), f))))
                .flatten();
            let out_of = (i + 1 < k)
                .then(|| unit(sub(pts[i].curve_out.map_or(f(pts[i + 1].position), f), here)))
                .flatten();
            match (into, out_of) {
                (Some(a), Some(b)) => unit([a[0] + b[0], a[1] + b[1], a[2] + b[2]]),
                (a, b) => a.or(b),
            }
        })
        .collect();
    // Each point's local X: the rotated X across the first tangent,
    // carried from tangent to tangent by the least turn (as the mesher
    // carries its frame along the path, to the turns between points).
    let mut xs: Vec<Option<V3>> = Vec::with_capacity(k);
    let turned = rotation(v(pts[0].rotation.or(p.rotation).unwrap_or_default()));
    let mut last: Option<(V3, V3)> = None;
    for t in &tangents {
        let x = t.and_then(|t| match last {
            Some((x, from)) => Some(carry(x, from, t)),
            // The rotated X across the tangent, else the rotated Y.
            None => [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]].into_iter().find_map(|w| {
                let x = mul(&turned, w);
                unit(sub(x, scale(t, dot(x, t))))
            }),
        });
        if let (Some(x), Some(t)) = (x, *t) {
            last = Some((x, t));
        }
        xs.push(x);
    }
    let mut out = p.clone();
    let mut moved = false;
    for i in 0..k {
        let here = f(pts[i].position);
        let (Some(t), Some(x)) = (tangents[i], xs[i]) else {
            continue;
        };
        let Some(size) = pts[i].size.or(p.size).map(f) else {
            continue;
        };
        let reach = 3.0 * size[0].max(size[1]);
        // A flat end lies on the mesh's end face: its section is cut a
        // little inside (a twentieth of the way to the next point), and
        // the end moves across the path only.
        let end = (i == 0 || i + 1 == k) && size[2] == 0.0;
        let inward = if end {
            let next = f(pts[if i == 0 { 1 } else { k - 2 }].position);
            let toward = if i == 0 { 0.05 } else { -0.05 };
            scale(t, toward * norm(sub(next, here)))
        } else {
            [0.0; 3]
        };
        let plane = [0, 1, 2].map(|c| here[c] + inward[c]);
        let Some(section) = cut(mesh, plane, t, reach) else {
            continue;
        };
        let grow = section.area / (unit_area * size[0] * size[1]);
        let d = sub(section.middle, plane);
        let d = if end { sub(d, scale(t, dot(d, t))) } else { d };
        if !(0.25..=4.0).contains(&grow) || norm(d) > size[0].max(size[1]) {
            continue;
        }
        // The sizes [`Resize`] asks for; a unit section spreads
        // `unit_spread` along any axis.
        let (a, b) = match by {
            Resize::Principal => {
                let (big, small) = section.principal();
                let (big, small) = ((big / unit_spread).sqrt(), (small / unit_spread).sqrt());
                if size[0] >= size[1] {
                    (big, small)
                } else {
                    (small, big)
                }
            }
            Resize::Frame => (
                (section.along(x) / unit_spread).sqrt(),
                (section.along(cross(t, x)) / unit_spread).sqrt(),
            ),
            Resize::Area => (size[0] * grow.sqrt(), size[1] * grow.sqrt()),
        };
        if !(0.25..=4.0).contains(&(a / size[0])) || !(0.25..=4.0).contains(&(b / size[1])) {
            continue;
        }
        let q = &mut out.points.as_mut()?[i];
        shift_point(q, d);
        q.size = Some(v3([a, b, size[2]]));
        moved = true;
    }
    moved.then_some(out)
}

/// A section of a mesh ([`cut`]).
struct Cut {
    area: f64,
    middle: V3,
    /// Its second moments about the middle over its area: along u and
    /// v (the plane's axes) and across them.
    spread: (f64, f64, f64),
    /// The plane's axes.
    axes: (V3, V3),
}

impl Cut {
    /// Its second moments along its principal axes, the larger first.
    fn principal(&self) -> (f64, f64) {
        let (sxx, syy, sxy) = self.spread;
        let (mean, gap) = (0.5 * (sxx + syy), (0.25 * (sxx - syy).powi(2) + sxy * sxy).sqrt());
        (mean + gap, (mean - gap).max(0.0))
    }

    /// Its second moment along unit `w` (in its plane).
    fn along(&self, w: V3) -> f64 {
        let (sxx, syy, sxy) = self.spread;
        let (a, b) = (dot(w, self.axes.0), dot(w, self.axes.1));
        (a * a * sxx + 2.0 * a * b * sxy + b * b * syy).max(0.0)
    }
}

/// How [`resectioned`] sizes a section.
#[derive(Clone, Copy, Debug)]
enum Resize {
    /// By its spread along its principal axes, the larger to the larger
    /// size.
    Principal,
    /// By its spread along the piece's own axes there.
    Frame,
    /// To its area, the fitted aspect kept.
    Area,
}

/// The section of `mesh`'s inside by the plane through `at` across unit
/// `t`, from the triangles whose crossings lie within `reach` of `at`
/// ([`resectioned`]); `None` for no area.
fn cut(mesh: &Mesh, at: V3, t: V3, reach: f64) -> Option<Cut> {
    let (u, v) = across(t)?;
    let (mut a2, mut cx, mut cy) = (0.0f64, 0.0f64, 0.0f64);
    let (mut xx, mut yy, mut xy) = (0.0f64, 0.0f64, 0.0f64);
    for tri in &mesh.triangles {
        let q = tri.map(|i| mesh.positions[i as usize]);
        let d = q.map(|p| dot(sub(p, at), t));
        // Each edge from one side (d ≥ 0) to the other: where it crosses.
        let mut hits = [[0.0f64; 3]; 2];
        let mut n = 0;
        for e in 0..3 {
            let (a, b) = (e, (e + 1) % 3);
            if (d[a] >= 0.0) != (d[b] >= 0.0) && n < 2 {
                let s = d[a] / (d[a] - d[b]);
                hits[n] = [0, 1, 2].map(|c| q[a][c] + s * (q[b][c] - q[a][c]));
                n += 1;
            }
        }
        if n != 2 {
            continue;
        }
        let mid = [0, 1, 2].map(|c| 0.5 * (hits[0][c] + hits[1][c]) - at[c]);
        if norm(mid) > reach {
            continue;
        }
        // The inside lies to the left of t × (outward normal).
        let normal = cross(sub(q[1], q[0]), sub(q[2], q[0]));
        let dir = cross(t, normal);
        let (p0, p1) = if dot(sub(hits[1], hits[0]), dir) >= 0.0 {
            (hits[0], hits[1])
        } else {
            (hits[1], hits[0])
        };
        let (x0, y0) = (dot(sub(p0, at), u), dot(sub(p0, at), v));
        let (x1, y1) = (dot(sub(p1, at), u), dot(sub(p1, at), v));
        let c = x0 * y1 - x1 * y0;
        a2 += c;
        cx += (x0 + x1) * c;
        cy += (y0 + y1) * c;
        xx += (x0 * x0 + x0 * x1 + x1 * x1) * c;
        yy += (y0 * y0 + y0 * y1 + y1 * y1) * c;
        xy += (x0 * y1 + 2.0 * x0 * y0 + 2.0 * x1 * y1 + x1 * y0) * c;
    }
    if !(a2 > 0.0 && a2.is_finite()) {
        return None;
    }
    // Green's theorem: area 2A = Σc; ∫x = Σ(x0 + x1)c / 6; ∫x² =
    // Σ(x0² + x0x1 + x1²)c / 12; ∫xy = Σ(x0y1 + 2x0y0 + 2x1y1 + x1y0)c / 24.
    let (mx, my) = (cx / (3.0 * a2), cy / (3.0 * a2));
    let (sxx, syy, sxy) = (
        xx / (6.0 * a2) - mx * mx,
        yy / (6.0 * a2) - my * my,
        xy / (12.0 * a2) - mx * my,
    );
    Some(Cut {
        area: 0.5 * a2,
        middle: [0, 1, 2].map(|c| at[c] + mx * u[c] + my * v[c]),
        spread: (sxx, syy, sxy),
        axes: (u, v),
    })
}

/// Piece `p`'s section (its own size and its points') scaled by `f`
/// across its path; a piece of one point (an ellipsoid) every way.
fn narrow(p: &mut Piece, f: f32) {
    let solo = p.points.as_ref().is_some_and(|v| v.len() == 1);
    let across = |s: &mut Vec3| {
        s.x *= f;
        s.y *= f;
        if solo {
            s.z *= f;
        }
    };
    if let Some(s) = &mut p.size {
        across(s);
    }
    for pt in p.points.iter_mut().flatten() {
        if let Some(s) = &mut pt.size {
            across(s);
        }
    }
}

/// Sweeps along a path of cells (a closed loop when `closed`: its last
/// cell is its first).
/// The points `at` of a path (radii `rs`) moved to the centroid of the
/// region's cells in their normal planes (a slab a cell thick, within
/// 1.5 radii and two cells), each radius that of a disc of the same second
/// moments (variance r²/4 each way). The end points of a path that runs to
/// the extremes or on to the region's end keep their places (their planes
/// hold a cap's rim, not a section) and take the radius next to them.
/// `None` when a plane holds too few cells.
fn centred(located: &Located, at: &[V3], rs: &[f64], end: Ends) -> Option<(Vec<V3>, Vec<f64>)> {
    let grid = located.grid();
    let k = at.len();
    if k < 3 {
        return None;
    }
    let h = grid.h;
    let (mut out_at, mut out_r) = (at.to_vec(), rs.to_vec());
    let (from, to) = if end == Ends::Rounded { (0, k) } else { (1, k - 1) };
    for j in from..to {
        let t = unit(sub(at[(j + 1).min(k - 1)], at[j.saturating_sub(1)]))?;
        let (x, y) = across(t)?;
        let reach = 1.5 * rs[j] + 2.0 * h;
        let cells = located.slab(at[j], t, (reach * reach + h * h).sqrt(), 0.5 * h);
        let [n, sx, sy, sxx, syy, _] = section(cells.iter().map(|&c| grid.centre(c)), at[j], t, (x, y), reach, h);
        if n < 4.0 {
            return None;
        }
        let (mx, my) = (sx / n, sy / n);
        let var = 0.5 * (sxx / n - mx * mx + syy / n - my * my) + h * h / 12.0;
        out_at[j] = [0, 1, 2].map(|c| at[j][c] + mx * x[c] + my * y[c]);
        out_r[j] = 2.0 * var.max(0.0).sqrt();
    }
    if end != Ends::Rounded {
        out_r[0] = out_r[1];
        out_r[k - 1] = out_r[k - 2];
        if end == Ends::Flat {
            (out_r[0], out_r[k - 1]) = (rs[0], rs[k - 1]);
        }
    }
    Some((out_at, out_r))
}

/// How a sweep candidate ends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ends {
    Rounded,
    Flat,
    Square,
}

fn sweeps(grid: &Grid, region: &[usize], dist: &[f64], path: &[usize], closed: bool) -> Vec<Vec<Piece>> {
    let raw_r: Vec<f64> = path.iter().map(|&c| dist[c]).collect();
    let mut sorted = raw_r.clone();
    sorted.sort_by(f64::total_cmp);
    let median = sorted[sorted.len() / 2].max(1.0);
    if (path.len() as f64) < 3.0 * median {
        return Vec::new();
    }
    // Smoothed: positions and radii averaged over about a radius.
    let w = (median.round() as usize).max(1);
    let raw: Vec<V3> = path.iter().map(|&c| grid.centre(c)).collect();
    let n = raw.len();
    // The window around cell i (wrapping round a loop).
    let around = |i: usize| -> Vec<usize> {
        if closed {
            let m = n - 1;
            (0..=2 * w).map(|k| (i + m + k - w) % m).collect()
        } else {
            (i.saturating_sub(w)..=(i + w).min(n - 1)).collect()
        }
    };
    let pos: Vec<V3> = (0..n)
        .map(|i| {
            let idx = around(i);
            let k = idx.len() as f64;
            idx.iter().fold([0.0; 3], |s, &j| {
                [s[0] + raw[j][0] / k, s[1] + raw[j][1] / k, s[2] + raw[j][2] / k]
            })
        })
        .collect();
    let radii: Vec<f64> = (0..n)
        .map(|i| {
            let idx = around(i);
            idx.iter().map(|&j| raw_r[j]).sum::<f64>() / idx.len() as f64
        })
        .collect();
    // A cell's distance runs to the nearest outside cell's centre, half a
    // cell beyond the surface.
    let r_raw = |i: usize| (radii[i] - 0.5).max(0.5) * grid.h;
    // And the same radii scaled so that the tube holds the region's
    // volume (the distances of cells run short of the surface).
    let length_volume: f64 = (1..n)
        .map(|i| {
            let d = sub(pos[i], pos[i - 1]);
            let r = 0.5 * (r_raw(i) + r_raw(i - 1));
            std::f64::consts::PI * r * r * dot(d, d).sqrt()
        })
        .sum();
    let volume = region.len() as f64 * grid.h.powi(3);
    let fill = if length_volume > 0.0 {
        (volume / length_volume).sqrt().clamp(0.5, 2.0)
    } else {
        1.0
    };
    // How far the region runs on from `p` in the direction `d` (unit):
    // in half-cell steps while the cells are the region's, and half a cell
    // more (a centre is half a cell short of the surface).
    let located = Located::new(grid, region);
    let run_on = |p: V3, d: V3| -> f64 {
        let mut t = 0.0;
        for _ in 0..4 * CELLS {
            let q = [0, 1, 2].map(|c| p[c] + (t + 0.5 * grid.h) * d[c]);
            let ijk = [0, 1, 2].map(|c| ((q[c] - grid.lo[c]) / grid.h).floor());
            if (0..3).any(|c| ijk[c] < 0.0 || ijk[c] >= grid.n[c] as f64)
                || !located.holds(grid.index(ijk[0] as usize, ijk[1] as usize, ijk[2] as usize))
            {
                break;
            }
            t += 0.5 * grid.h;
        }
        t + 0.5 * grid.h
    };
    // The points of a path through `at` with radii `rs`: Catmull-Rom
    // tangents as Bézier controls, caps as deep as the radius when rounded.
    let path_points = |at: &[V3], rs: &[f64], rounded: bool| -> Vec<Point> {
        let k = at.len();
        let mut points = Vec::with_capacity(k);
        for j in 0..k {
            // Round a loop, the neighbours of its ends are each other's.
            let prev = if closed && j == 0 {
                at[k - 2]
            } else {
                at[j.saturating_sub(1)]
            };
            let next = if closed && j + 1 == k {
                at[1]
            } else {
                at[(j + 1).min(k - 1)]
            };
            let d = [0, 1, 2].map(|c| (next[c] - prev[c]) / 6.0);
            let p = at[j];
            let r = rs[j];
            let mut pt = Point::at(v3(p));
            if j > 0 {
                pt.curve_in = Some(v3([p[0] - d[0], p[1] - d[1], p[2] - d[2]]));
            }
            if j + 1 < k {
                pt.curve_out = Some(v3([p[0] + d[0], p[1] + d[1], p[2] + d[2]]));
            }
            let cap = if rounded && (j == 0 || j + 1 == k) { r } else { 0.0 };
            pt.size = Some(v3([r, r, cap]));
            points.push(pt);
        }
        points
    };
    // A sweep of `shape` through `points` with each point's section sizes
    // (caps, where `rounded`, as deep as their mean) and the rotation given.
    let sized = |mut points: Vec<Point>, sizes: &[(f64, f64)], rotation: V3, shape: Shape, rounded: bool| -> Piece {
        let last = points.len() - 1;
        for (j, (pt, &(a, b))) in points.iter_mut().zip(sizes).enumerate() {
            let cap = if rounded && (j == 0 || j == last) {
                0.5 * (a + b)
            } else {
                0.0
            };
            pt.size = Some(v3([a, b, cap]));
        }
        let (a, b) = sizes[0];
        Piece {
            id: 0,
            points: Some(points),
            size: Some(v3([a, b, if rounded { 0.5 * (a + b) } else { 0.0 }])),
            rotation: Some(v3(rotation)),
            shape: Some(shape),
            ..Piece::default()
        }
    };
    let mut out = Vec::new();
    for (k, scale) in [4usize, 8, 16, 32].into_iter().flat_map(|k| [(k, 1.0), (k, fill)]) {
        let r_of = |i: usize| r_raw(i) * scale;
        if k > n / 2 {
            break;
        }
        let ends: &[Ends] = if closed {
            &[Ends::Flat]
        } else {
            &[Ends::Rounded, Ends::Flat, Ends::Square]
        };
        for &end in ends {
            let rounded = end == Ends::Rounded;
            // Rounded ends: the path trimmed by a radius at each end, caps
            // as deep as the radius; flat ends: to the extremes; square
            // ends: trimmed as for rounded, then run on straight along the
            // path's direction there to where the region ends, the section
            // as at the trim (a tube cut square, whose extreme cells are
            // the corners of its rim).
            let trim = if end == Ends::Flat {
                0
            } else {
                (median.round() as usize).min(n / 4)
            };
            let (a, b) = (trim, n - 1 - trim);
            if b <= a + 1 {
                continue;
            }
            let idx: Vec<usize> = (0..k).map(|j| a + (b - a) * j / (k - 1)).collect();
            let mut at: Vec<V3> = idx.iter().map(|&i| pos[i]).collect();
            if end == Ends::Square {
                for (e, inward) in [(0usize, (a + w).min(b)), (k - 1, b.saturating_sub(w).max(a))] {
                    let Some(d) = unit(sub(at[e], pos[inward])) else {
                        continue;
                    };
                    let t = run_on(at[e], d);
                    at[e] = [0, 1, 2].map(|c| at[e][c] + t * d[c]);
                }
            }
            let rs: Vec<f64> = idx.iter().map(|&i| r_of(i)).collect();
            let points = path_points(&at, &rs, rounded);
            let r0 = rs[0];
            // The path's points moved to the middle of the cells in their
            // normal planes, each circle of their second moments: the
            // cheapest path keeps to cell centres and leans where the
            // distances tie (not for 4 points, too few for a bend, nor for
            // ends at the extremes, whose sections are a cap's rim: fewer
            // candidates to put on the grid).
            if scale == 1.0 && !closed && k >= 8 && end != Ends::Flat {
                if let Some((at, rs)) = centred(&located, &at, &rs, end) {
                    let r0 = rs[0];
                    out.push(vec![Piece {
                        id: 0,
                        points: Some(path_points(&at, &rs, rounded)),
                        size: Some(v3([r0, r0, if rounded { r0 } else { 0.0 }])),
                        shape: Some(Shape::Circle),
                        ..Piece::default()
                    }]);
                }
            }
            // A bar whose sections have corners (a triangular or hexagonal
            // bar): the n-gon of each section's second moments, turned
            // once at the start so that its corners meet theirs.
            let sections = if scale == 1.0 && !closed {
                Sections::of(&located, &at, &rs)
            } else {
                None
            };
            if let Some(s) = &sections {
                if let Some(Polygonal { sides, rotation, sizes }) = polygonal(s) {
                    // Inner points moved to their sections' middles (a
                    // triangle's is not where the distance peaks).
                    let mut moved = at.clone();
                    let inner = moved.len().saturating_sub(1);
                    for (j, m) in moved.iter_mut().enumerate().take(inner).skip(1) {
                        *m = s.middles[j];
                    }
                    out.push(vec![Piece {
                        sides: Some(sides),
                        ..sized(
                            path_points(&moved, &rs, rounded),
                            &sizes,
                            rotation,
                            Shape::Ngon,
                            rounded,
                        )
                    }]);
                }
            }
            // A flat part (a bar, a strap): an elliptic section of the
            // second moments of the cells around each point, turned once
            // at the start and carried along as the sweep carries it.
            if let Some(s) = &sections {
                if let Some((rotation, sizes)) = elliptic(s) {
                    out.push(vec![sized(points.clone(), &sizes, rotation, Shape::Circle, rounded)]);
                }
            }
            out.push(vec![Piece {
                id: 0,
                points: Some(points),
                size: Some(v3([r0, r0, if rounded { r0 } else { 0.0 }])),
                shape: Some(Shape::Circle),
                ..Piece::default()
            }]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounded_caps_are_flattened_and_carried_out_by_their_depth() {
        let capped = Piece {
            points: Some(vec![
                Point {
                    curve_out: Some(Vec3 { x: 0.0, y: 0.0, z: 5.0 }),
                    ..Point::at(Vec3 { x: 0.0, y: 0.0, z: 2.0 })
                },
                Point::at(Vec3 {
                    x: 0.0,
                    y: 0.0,
                    z: 20.0,
                }),
                Point {
                    size: Some(Vec3 { x: 3.0, y: 3.0, z: 0.0 }),
                    ..Point::at(Vec3 {
                        x: 10.0,
                        y: 0.0,
                        z: 20.0,
                    })
                },
            ]),
            size: Some(Vec3 { x: 4.0, y: 4.0, z: 4.0 }),
            ..Piece::default()
        };
        let flat = flattened(&capped).expect("the start has a cap");
        let pts = flat.points.as_ref().expect("points kept");
        // The start, capped by the piece's size: carried back along its
        // control's direction by half the depth, its own section flat.
        assert_eq!(pts[0].position, Vec3 { x: 0.0, y: 0.0, z: 0.0 });
        assert_eq!(pts[0].size, Some(Vec3 { x: 4.0, y: 4.0, z: 0.0 }));
        // The end was flat already: where it was.
        assert_eq!(pts[2], capped.points.as_ref().expect("points")[2]);
        assert_eq!(pts[1], capped.points.as_ref().expect("points")[1]);
        assert!(flattened(&flat).is_none(), "nothing left to flatten");
        let ball = Piece {
            points: Some(vec![Point::at(Vec3 { x: 0.0, y: 0.0, z: 0.0 })]),
            ..capped
        };
        assert!(flattened(&ball).is_none(), "a one-point piece has no ends");
    }

    #[test]
    fn an_octagon_is_rounded_to_the_circle_of_its_area_and_a_square_is_not() {
        let at = |z: f32| Point {
            size: Some(Vec3 { x: 2.0, y: 4.0, z: 0.0 }),
            ..Point::at(Vec3 { x: 0.0, y: 0.0, z })
        };
        let octagon = Piece {
            points: Some(vec![at(0.0), at(10.0)]),
            size: Some(Vec3 { x: 2.0, y: 4.0, z: 0.0 }),
            shape: Some(Shape::Ngon),
            sides: Some(8),
            mode: Some(Mode::Subtract),
            ..Piece::default()
        };
        let round = rounded(&octagon).expect("an octagon is rounded");
        assert_eq!(
            (round.shape, round.sides, round.mode),
            (Some(Shape::Circle), None, Some(Mode::Subtract))
        );
        // Section areas: (n/2)·sin(2π/n)·x·y for the n-gon, π·x·y for the ellipse.
        let ngon = 4.0 * (std::f64::consts::TAU / 8.0).sin() * 2.0 * 4.0;
        for s in std::iter::once(round.size).chain(round.points.iter().flatten().map(|q| q.size)) {
            let s = s.expect("sizes kept");
            let ellipse = std::f64::consts::PI * f64::from(s.x) * f64::from(s.y);
            assert!((ellipse / ngon - 1.0).abs() < 1e-6, "{ellipse} {ngon}");
            assert!((f64::from(s.y) / f64::from(s.x) - 2.0).abs() < 1e-6);
            assert_eq!(s.z, 0.0);
        }
        let square = Piece {
            sides: Some(4),
            ..octagon.clone()
        };
        assert!(rounded(&square).is_none());
        let circle = Piece {
            shape: Some(Shape::Circle),
            sides: None,
            ..octagon
        };
        assert!(rounded(&circle).is_none());
    }

    #[test]
    fn refined_points_move_and_resize_towards_a_better_score_within_the_budget() {
        // A score that wants the last point 1.0 further along x and the
        // first point's section 10% wider across x; a subtract piece that
        // would score better moved is left alone.
        let sweep = Piece {
            points: Some(vec![
                Point::at(Vec3::new(0.0, 0.0, 0.0)),
                Point::at(Vec3::new(10.0, 0.0, 0.0)),
            ]),
            size: Some(Vec3::new(2.0, 2.0, 0.0)),
            ..Piece::default()
        };
        let cut = Piece {
            mode: Some(Mode::Subtract),
            ..sweep.clone()
        };
        let calls = std::sync::atomic::AtomicUsize::new(0);
        let exact = |sets: &[Vec<Piece>]| -> Result<f64> {
            calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let pts = sets[0][0].points.as_ref().unwrap();
            let end = f64::from(pts[1].position.x);
            let width = f64::from(pts[0].size.or(sets[0][0].size).unwrap().x);
            let moved = f64::from(sets[1][0].points.as_ref().unwrap()[0].position.y);
            Ok(-(end - 11.0).abs() - (width - 2.2).abs() + moved)
        };
        let mut chosen = vec![vec![sweep], vec![cut.clone()]];
        let mut now = exact(&chosen).unwrap();
        let start = now;
        refine_points(&mut chosen, &mut now, 0.5, &exact).unwrap();
        assert!(now > start + 0.3, "{start} -> {now}");
        assert_eq!(now, exact(&chosen).unwrap());
        let pts = chosen[0][0].points.as_ref().unwrap();
        assert_eq!(pts[1].position, Vec3::new(10.25, 0.0, 0.0), "one half-cell step a pass");
        assert!((pts[0].size.unwrap().x - 2.1).abs() < 1e-6, "{:?}", pts[0].size);
        assert_eq!(pts[0].size.unwrap().y, 2.0);
        assert_eq!(pts[0].position, Vec3::new(0.0, 0.0, 0.0));
        assert_eq!(chosen[1], vec![cut]);
        assert!(calls.load(std::sync::atomic::Ordering::Relaxed) <= POINT_TRIALS + 2);
    }

    #[test]
    fn a_shifted_piece_moves_its_points_and_their_controls() {
        let mut a = Point::at(Vec3::new(1.0, 2.0, 3.0));
        a.curve_out = Some(Vec3::new(2.0, 2.0, 3.0));
        let mut b = Point::at(Vec3::new(5.0, 2.0, 3.0));
        b.curve_in = Some(Vec3::new(4.0, 3.0, 3.0));
        let mut p = Piece {
            points: Some(vec![a, b]),
            size: Some(Vec3::new(1.0, 1.0, 0.0)),
            ..Piece::default()
        };
        shift(&mut p, [0.5, 0.0, -1.0]);
        let pts = p.points.unwrap();
        assert_eq!(pts[0].position, Vec3::new(1.5, 2.0, 2.0));
        assert_eq!(pts[0].curve_out, Some(Vec3::new(2.5, 2.0, 2.0)));
        assert_eq!(pts[0].curve_in, None);
        assert_eq!(pts[1].position, Vec3::new(5.5, 2.0, 2.0));
        assert_eq!(pts[1].curve_in, Some(Vec3::new(4.5, 3.0, 2.0)));
        assert_eq!(p.size, Some(Vec3::new(1.0, 1.0, 0.0)));
    }

    #[test]
    fn a_turned_section_starts_its_frame_turned_about_the_first_tangent() {
        // The mesher's first frame: local X projected off the tangent.
        let start_x = |p: &Piece, t: V3| -> V3 {
            let x = mul(&rotation(v(p.rotation.unwrap())), [1.0, 0.0, 0.0]);
            unit(sub(x, scale(t, dot(x, t)))).unwrap()
        };
        let mut a = Point::at(Vec3::new(1.0, 2.0, 3.0));
        a.curve_out = Some(Vec3::new(3.0, 3.0, 5.0));
        let mut b = Point::at(Vec3::new(9.0, -2.0, 4.0));
        b.curve_in = Some(Vec3::new(7.0, 0.0, 6.0));
        let p = Piece {
            points: Some(vec![a, b]),
            size: Some(Vec3::new(2.0, 2.0, 0.0)),
            rotation: Some(Vec3::new(20.0, -35.0, 110.0)),
            shape: Some(Shape::Ngon),
            sides: Some(3),
            ..Piece::default()
        };
        let t = unit([2.0, 1.0, 2.0]).unwrap();
        let x0 = start_x(&p, t);
        for deg in [2.0f64, -0.5, 7.0, -30.0] {
            let q = turned(&p, deg.to_radians()).unwrap();
            let x1 = start_x(&q, t);
            let angle = dot(cross(x0, x1), t).atan2(dot(x0, x1)).to_degrees();
            assert!((angle - deg).abs() < 1e-3, "{deg}: {angle}");
            // Nothing else moves.
            assert_eq!(
                (q.points.clone(), q.size, q.shape, q.sides),
                (p.points.clone(), p.size, p.shape, p.sides)
            );
        }
        // A round section has no turn; an elliptic one has.
        let round = Piece {
            shape: Some(Shape::Circle),
            sides: None,
            ..p.clone()
        };
        assert!(turned(&round, 0.1).is_none());
        let flat = Piece {
            size: Some(Vec3::new(2.0, 1.0, 0.0)),
            ..round.clone()
        };
        assert!(turned(&flat, 0.1).is_some());
        // Points with rotations of their own are left alone.
        let mut own = p.clone();
        own.points.as_mut().unwrap()[1].rotation = Some(Vec3::new(0.0, 0.0, 10.0));
        assert!(turned(&own, 0.1).is_none());
    }

    #[test]
    fn bars_with_corners_get_the_n_gon_of_their_corners_and_round_ones_none() {
        // Bars along x on a grid of unit cells, their sections about the
        // axis y = z = 12: a regular n-gon of circumradius 1 scaled by
        // (sx, sy) along local axes turned `turn` from +y toward +z.
        let grid = Grid {
            lo: [0.0; 3],
            h: 1.0,
            n: [40, 25, 25],
        };
        let bar = |n: u32, turn: f64, (sx, sy): (f64, f64)| -> Vec<usize> {
            let ngon: Vec<[f64; 2]> = (0..n)
                .map(|k| {
                    let a = std::f64::consts::TAU * f64::from(k) / f64::from(n);
                    let (x, y) = (sx * a.cos(), sy * a.sin());
                    [x * turn.cos() - y * turn.sin(), x * turn.sin() + y * turn.cos()]
                })
                .collect();
            (0..grid.len())
                .filter(|&c| {
                    let p = grid.centre(c);
                    let q = [p[1] - 12.0, p[2] - 12.0];
                    // Inside: left of every edge (counter-clockwise).
                    (0..ngon.len()).all(|k| {
                        let (a, b) = (ngon[k], ngon[(k + 1) % ngon.len()]);
                        (b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0]) >= 0.0
                    })
                })
                .collect()
        };
        let at: Vec<V3> = (0..8).map(|j| [4.5 + 4.5 * f64::from(j), 12.0, 12.0]).collect();
        let rs = vec![4.0; 8];
        // The corner's direction (local X) and the sizes found.
        let found = |region: &[usize]| {
            let p = polygonal(&Sections::of(&Located::new(&grid, region), &at, &rs)?)?;
            let r = crate::mesh::math::rotation(p.rotation);
            Some((p.sides, [r[1][0], r[2][0]], p.sizes[3]))
        };
        // A triangle with a corner up (+z), and one turned 20°.
        for turn in [90f64, 20.0] {
            let (n, x, (a, b)) = found(&bar(3, turn.to_radians(), (8.0, 8.0))).unwrap();
            assert_eq!(n, 3);
            let off = x[1].atan2(x[0]).to_degrees() - turn;
            // Any of the three corners.
            assert!((off.rem_euclid(120.0) + 3.0).rem_euclid(120.0) < 6.0, "{turn}: {x:?}");
            assert!((a - 8.0).abs() < 0.6 && (b - 8.0).abs() < 0.6, "{a} {b}");
        }
        // A flat triangle (corner along its long axis): its corner on that
        // axis, its sizes along and across it.
        let (n, x, (a, b)) = found(&bar(3, 0.0, (10.0, 5.0))).unwrap();
        assert_eq!(n, 3);
        assert!(x[0] > 0.99, "{x:?}");
        assert!((a - 10.0).abs() < 0.8 && (b - 5.0).abs() < 0.5, "{a} {b}");
        // A hexagon shows six corners, not three.
        let (n, _, _) = found(&bar(6, 0.3, (9.0, 9.0))).unwrap();
        assert_eq!(n, 6);
        // A round bar and an elliptic one show none.
        assert!(found(&bar(64, 0.0, (9.0, 9.0))).is_none());
        assert!(found(&bar(64, 0.4, (10.0, 5.0))).is_none());
    }

    #[test]
    fn a_path_off_the_middle_of_a_rod_is_centred_and_sized() {
        // A rod of radius 6 along x on a grid of unit cells: the cells whose
        // centres are within 6 of the axis y = z = 10.
        let grid = Grid {
            lo: [0.0; 3],
            h: 1.0,
            n: [40, 21, 21],
        };
        let region: Vec<usize> = (0..grid.len())
            .filter(|&c| {
                let p = grid.centre(c);
                (p[1] - 10.0).powi(2) + (p[2] - 10.0).powi(2) <= 36.0
            })
            .collect();
        // A path 1.5 off the axis, its radii short.
        let at: Vec<V3> = (0..5).map(|j| [5.5 + 7.0 * f64::from(j), 11.5, 10.0]).collect();
        let rs = vec![4.0; 5];
        let (c, r) = centred(&Located::new(&grid, &region), &at, &rs, Ends::Rounded).unwrap();
        for (p, r) in c.iter().zip(&r) {
            assert!((p[1] - 10.0).abs() < 0.05 && (p[2] - 10.0).abs() < 0.05, "{p:?}");
            // A disc of cells of radius 6 has the moments of one of about 6.
            assert!((r - 6.0).abs() < 0.3, "{r}");
        }
        // Ends that are a cap's rim keep their places.
        let (c, r) = centred(&Located::new(&grid, &region), &at, &rs, Ends::Flat).unwrap();
        assert_eq!((c[0], c[4], r[0], r[4]), (at[0], at[4], 4.0, 4.0));
        assert!((c[2][1] - 10.0).abs() < 0.05);
        // Outside the rod, no cells: nothing to centre on.
        let away: Vec<V3> = at.iter().map(|p| [p[0], p[1] + 30.0, p[2]]).collect();
        assert!(centred(&Located::new(&grid, &region), &away, &rs, Ends::Rounded).is_none());
    }

    #[test]
    fn ends_move_to_the_mesh_s_end_faces() {
        // A straight triangular bar from x = 0 to 20; a fitted piece whose
        // ends stop short with rounded caps, its path tilted at the start
        // (the ray from its second point meets the face 0.6 off the axis)
        // and off the axis at the end.
        let at = |x: f32, y: f32, z: f32| Point::at(Vec3::new(x, y, z));
        let bar = |points: Vec<Point>, size: Vec3| Piece {
            points: Some(points),
            size: Some(size),
            shape: Some(Shape::Ngon),
            sides: Some(3),
            ..Piece::default()
        };
        let flat = Vec3::new(3.0, 3.0, 0.0);
        let source = mesh_of(&[bar(vec![at(0.0, 0.0, 0.0), at(20.0, 0.0, 0.0)], flat)], 16).unwrap();
        let fitted = bar(
            vec![
                at(1.5, 0.4, 0.0),
                at(5.0, 0.3, 0.0),
                at(10.0, 0.0, 0.0),
                at(15.0, 0.0, 0.0),
                at(18.0, 0.3, -0.2),
            ],
            Vec3::new(2.8, 2.8, 1.5),
        );
        let e = ended(&fitted, &source).unwrap();
        let pts = e.points.as_ref().unwrap();
        for (q, x, control) in [(&pts[0], 0.0, pts[0].curve_out), (&pts[4], 20.0, pts[4].curve_in)] {
            // On the face, at the middle of the section, flat, with the
            // inner point's section (the piece's), the path square to it.
            let p = q.position;
            assert!((p.x - x).abs() < 1e-4 && p.y.abs() < 1e-4 && p.z.abs() < 1e-4, "{p:?}");
            assert_eq!(q.size, Some(Vec3::new(2.8, 2.8, 0.0)));
            let c = control.unwrap();
            assert!(c.y.abs() < 1e-4 && c.z.abs() < 1e-4 && (c.x - x).abs() > 1.0, "{c:?}");
        }
        // The inner points stay.
        assert_eq!(pts[1..4], fitted.points.as_ref().unwrap()[1..4]);
        // An end far short of the face (more than twice its distance to
        // the next point and a section beyond) stays where it is.
        let short = bar(
            vec![
                at(8.0, 0.0, 0.0),
                at(9.0, 0.0, 0.0),
                at(10.0, 0.0, 0.0),
                at(15.0, 0.0, 0.0),
                at(18.0, 0.0, 0.0),
            ],
            flat,
        );
        let e = ended(&short, &source).unwrap();
        assert_eq!(e.points.as_ref().unwrap()[0], short.points.as_ref().unwrap()[0]);
        assert!((e.points.as_ref().unwrap()[4].position.x - 20.0).abs() < 1e-4);
        // A ring has no ends; a subtract piece is not the mesh's.
        let mut ring = fitted.clone();
        ring.points.as_mut().unwrap()[4] = ring.points.as_ref().unwrap()[0];
        assert!(ended(&ring, &source).is_none());
        let cutter = Piece {
            mode: Some(Mode::Subtract),
            ..fitted.clone()
        };
        assert!(ended(&cutter, &source).is_none());
        // Nothing ahead faces along the path: no end face.
        assert!(end_face(&source, [10.0, 0.0, 0.0], [0.0, 1.0, 0.0], 3.0).is_none());
    }

    #[test]
    fn inner_points_move_to_the_middles_of_the_mesh_s_sections() {
        // A straight triangular bar along x, sections of circumradius 3.
        let at = |x: f32, y: f32, z: f32| Point::at(Vec3::new(x, y, z));
        let bar = |middle: Point, size: f32| Piece {
            points: Some(vec![at(0.0, 0.0, 0.0), middle, at(20.0, 0.0, 0.0)]),
            size: Some(Vec3::new(size, size, 0.0)),
            shape: Some(Shape::Ngon),
            sides: Some(3),
            ..Piece::default()
        };
        let source = mesh_of(&[bar(at(10.0, 0.0, 0.0), 3.0)], 16).unwrap();
        let area = 1.5 * (std::f64::consts::TAU / 3.0).sin() * 9.0;
        let c = cut(&source, [10.0, 0.8, -0.5], [1.0, 0.0, 0.0], 12.0).unwrap();
        assert!((c.area - area).abs() < 1e-9 * area, "{} {area}", c.area);
        assert!(norm(sub(c.middle, [10.0, 0.0, 0.0])) < 1e-9, "{:?}", c.middle);
        // A regular triangle of circumradius 3 spreads 9 (2 + cos 120°)/12
        // along every axis.
        let spread = 9.0 * 1.5 / 12.0;
        assert!(
            (c.spread.0 - spread).abs() < 1e-9 && (c.spread.1 - spread).abs() < 1e-9,
            "{:?}",
            c.spread
        );
        // Reached from too far, the section is left out.
        assert!(cut(&source, [10.0, 0.8, -0.5], [1.0, 0.0, 0.0], 0.5).is_none());
        // A middle point off the axis with a section too small (0.64 of
        // the area) comes back to the axis at the bar's size; the flat
        // ends, cut a little inside, keep their places and take that size
        // (the second time, when the path no longer tilts their planes).
        let off = bar(at(10.0, 0.8, -0.5), 2.4);
        let fixed = resectioned(&off, &source, Resize::Area).unwrap();
        let p = fixed.points.as_ref().unwrap()[1].position;
        assert!(p.x == 10.0 && p.y.abs() < 1e-5 && p.z.abs() < 1e-5, "{p:?}");
        let fixed = resectioned(&fixed, &source, Resize::Area).unwrap();
        let pts = fixed.points.as_ref().unwrap();
        for q in pts {
            let size = q.size.unwrap();
            assert!((size.x - 3.0).abs() < 1e-4 && (size.y - 3.0).abs() < 1e-4, "{size:?}");
        }
        for (q, x) in [(&pts[0], 0.0), (&pts[2], 20.0)] {
            let p = q.position;
            assert!((p.x - x).abs() < 0.01 && p.y.abs() < 0.01 && p.z.abs() < 0.01, "{p:?}");
        }
        // An elliptic rod of radii 4 and 2 fitted round: by its spread
        // along its principal axes each point gets the rod's radii, the
        // larger to the larger size; along the piece's axes, each to its
        // own; by its area, its own aspect at the rod's area.
        let rod = |a: f32, b: f32| Piece {
            shape: Some(Shape::Circle),
            sides: None,
            size: Some(Vec3::new(a, b, 0.0)),
            ..bar(at(10.0, 0.0, 0.0), 1.0)
        };
        let source = mesh_of(&[rod(4.0, 2.0)], 64).unwrap();
        // The rod's local X is world Y (world X, its rotated X, lies along
        // it), its Y world Z: radii 4 and 2.
        let cases = [
            (Resize::Principal, (3.0, 2.9), (4.0, 2.0)),
            (Resize::Principal, (2.9, 3.0), (2.0, 4.0)),
            (Resize::Frame, (2.9, 3.0), (4.0, 2.0)),
            (
                Resize::Area,
                (3.0, 2.9),
                ((8.0f32 * 3.0 / 2.9).sqrt(), (8.0f32 * 2.9 / 3.0).sqrt()),
            ),
        ];
        for (by, (a, b), want) in cases {
            let fitted = resectioned(&rod(a, b), &source, by).unwrap();
            for q in fitted.points.as_ref().unwrap() {
                let s = q.size.unwrap();
                assert!(
                    (s.x / want.0 - 1.0).abs() < 0.01 && (s.y / want.1 - 1.0).abs() < 0.01,
                    "{by:?} {s:?}"
                );
            }
        }
        // Far from the bar nothing moves.
        let source = mesh_of(&[bar(at(10.0, 0.0, 0.0), 3.0)], 16).unwrap();
        let mut away = bar(at(10.0, 40.0, 0.0), 3.0);
        shift(&mut away, [0.0, 0.0, 30.0]);
        for by in [Resize::Principal, Resize::Frame, Resize::Area] {
            assert!(resectioned(&away, &source, by).is_none());
        }
    }
}
