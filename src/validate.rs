//! Streaming geometry validation (docs/spec/RULES.md §4): fed the decoder's pieces or
//! events in file order, it keeps a small record per piece (never points)
//! and gives the verdict at the end, whatever the order of ids in the file.

use std::io::Read;

use crate::codec::Frame;
use crate::error::{Error, ErrorKind, Result};
use crate::event::{Event, PieceStart};
use crate::input::{Input, SliceInput};
use crate::model::{Document, Piece, Point, Shape, TailRef};
use crate::options::DecodeOptions;
use crate::read::Window;
use crate::rules::{affects_twice, check_from, check_point, check_tail, NO_POINTS, NO_SHAPE, NO_SIZE};
use crate::state::Machine;

/// Default `transition_out.x` of a segment's first point.
const DEFAULT_OUT: f64 = 1.0 / 3.0;
/// Default `transition_in.x` of a segment's second point.
const DEFAULT_IN: f64 = 2.0 / 3.0;

/// What validation keeps of one piece: 16 bytes (its `affects` ids, when
/// it states them, are kept apart).
#[derive(Debug)]
struct Rec {
    id: u32,
    /// The base id, when `flags` has [`HAS_FROM`].
    from: u32,
    /// The stated point count, when `flags` has [`HAS_POINTS`].
    points: u32,
    flags: u8,
}

const HAS_FROM: u8 = 1;
const HAS_POINTS: u8 = 2;
const HAS_SIZE: u8 = 4;
const HAS_SIDES: u8 = 8;
const CIRCLE: u8 = 16;
const NGON: u8 = 32;
const HAS_AFFECTS: u8 = 64;

fn shape_flag(shape: Option<Shape>) -> u8 {
    match shape {
        Some(Shape::Circle) => CIRCLE,
        Some(Shape::Ngon) => NGON,
        None => 0,
    }
}

fn flag_shape(flags: u8) -> Option<Shape> {
    if flags & NGON != 0 {
        Some(Shape::Ngon)
    } else if flags & CIRCLE != 0 {
        Some(Shape::Circle)
    } else {
        None
    }
}

impl Rec {
    fn from(&self) -> Option<u32> {
        (self.flags & HAS_FROM != 0).then_some(self.from)
    }

    fn points(&self) -> Option<u32> {
        (self.flags & HAS_POINTS != 0).then_some(self.points)
    }
}

/// When a recorded problem is reported, in the reference's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// A field other than the points (size, rotation, sides, affects).
    Own,
    /// A point's value, or a segment's transition curve.
    Points,
}

/// A piece being fed as events.
#[derive(Debug)]
struct Building {
    rec: Rec,
    seen: u32,
    /// `transition_out.x` of the previous point (default applied).
    prev_out: Option<f64>,
    point_problem: Option<String>,
}

impl Building {
    /// Takes one point: its checks (the decoder's already made, when
    /// `decoded`) and the monotone transition rule with the point before.
    #[inline]
    fn track(&mut self, p: &Point, decoded: bool) {
        if self.point_problem.is_none() {
            let checked = if decoded { Ok(()) } else { check_point(p) };
            if let Err(problem) = checked {
                self.point_problem = Some(format!("point {}: {}", self.seen, problem.describe().2));
            } else if let Some(a) = self.prev_out {
                let z = p.transition_in.map_or(DEFAULT_IN, |t| f64::from(t.x));
                if !(0.0 <= a && a <= z && z <= 1.0) {
                    self.point_problem = Some(format!(
                        "segment {} (points {} to {}): its transition is not monotone in x ({a} > {z})",
                        self.seen - 1,
                        self.seen - 1,
                        self.seen
                    ));
                }
            }
        }
        self.prev_out = Some(p.transition_out.map_or(DEFAULT_OUT, |t| f64::from(t.x)));
        self.seen = self.seen.saturating_add(1);
    }
}

/// No record: the field is not set after inheritance.
const NONE: u32 = u32::MAX;

/// A piece after inheritance: where its points and `affects` come from (an
/// index into the records, or [`NONE`]), and its size, sides and shape
/// flags. 12 bytes.
#[derive(Clone, Copy, Debug)]
struct Resolved {
    points: u32,
    affects: u32,
    flags: u8,
}

impl Default for Resolved {
    fn default() -> Self {
        Resolved {
            points: NONE,
            affects: NONE,
            flags: 0,
        }
    }
}

/// Validates a document fed piece by piece (or event by event) in file order.
///
/// ```
/// # let bytes = std::fs::read("tests/data/conformance/valid/from_before_base_in_file.sskb").unwrap();
/// let mut v = sskb::Validator::new();
/// for frame in sskb::SskbReader::new(&bytes[..]) {
///     v.push_frame(&frame?)?;
/// }
/// v.finish()?;
/// # Ok::<(), sskb::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct Validator {
    recs: Vec<Rec>,
    /// Every piece's stated `affects` ids, end to end.
    affects: Vec<u32>,
    /// For each piece that states `affects`: its record index and its range
    /// of `affects` (start, length), in record order.
    affect_ranges: Vec<(u32, u32, u32)>,
    /// The first problem of each piece that has one (rare: the decoder
    /// rejects most of them already), by record index.
    problems: Vec<(u32, Phase, String)>,
    current: Option<Building>,
    finished: bool,
    /// Whether every point comes from this crate's decoder, which has
    /// checked its values already (so they are not checked again).
    decoded: bool,
}

fn invalid(rec: &Rec, index: usize, message: impl AsRef<str>) -> Error {
    Error::new(ErrorKind::Validation, format!("piece {}: {}", rec.id, message.as_ref()))
        .piece(rec.id)
        .path(format!("pieces[{index}]"))
}

impl Validator {
    /// An empty validator.
    pub fn new() -> Validator {
        Validator::default()
    }

    /// A validator fed only by this crate's decoder.
    fn for_decoded() -> Validator {
        Validator {
            decoded: true,
            ..Validator::default()
        }
    }

    /// How many pieces have been fed.
    pub fn pieces(&self) -> usize {
        self.recs.len()
    }

    fn misuse(message: &str) -> Error {
        Error::new(ErrorKind::Validation, message)
    }

    fn start(&mut self, s: &PieceStart) -> Result<()> {
        if self.current.is_some() || self.finished {
            return Err(Self::misuse("a piece started inside another piece or after the end"));
        }
        self.current = Some(Building {
            rec: Rec {
                id: s.id,
                from: s.from.unwrap_or(0),
                points: s.point_count.unwrap_or(0),
                flags: if s.from.is_some() { HAS_FROM } else { 0 }
                    | if s.point_count.is_some() { HAS_POINTS } else { 0 },
            },
            seen: 0,
            prev_out: None,
            point_problem: None,
        });
        Ok(())
    }

    #[inline]
    fn point(&mut self, p: &Point) -> Result<()> {
        let decoded = self.decoded;
        let Some(b) = self.current.as_mut() else {
            return Err(Self::misuse("a point outside a piece"));
        };
        b.track(p, decoded);
        Ok(())
    }

    fn end(&mut self, t: &TailRef<'_>) -> Result<()> {
        let Some(mut b) = self.current.take() else {
            return Err(Self::misuse("a piece ended that did not start"));
        };
        if b.rec.points().is_some_and(|n| n != b.seen) {
            return Err(Self::misuse("a piece ended before its points did"));
        }
        let Ok(index) = u32::try_from(self.recs.len()) else {
            return Err(Self::misuse("more than u32::MAX pieces in one document"));
        };
        b.rec.flags |= if t.size.is_some() { HAS_SIZE } else { 0 }
            | if t.sides.is_some() { HAS_SIDES } else { 0 }
            | shape_flag(*t.shape);
        if let Some(ids) = t.affects {
            let start = u32::try_from(self.affects.len()).ok();
            let len = u32::try_from(ids.len()).ok();
            let (Some(start), Some(len)) = (start, len) else {
                return Err(Self::misuse("more than u32::MAX affects ids in one document"));
            };
            self.affects.extend_from_slice(ids);
            self.affect_ranges.push((index, start, len));
            b.rec.flags |= HAS_AFFECTS;
        }
        if let Err(problem) = check_tail(t) {
            self.problems.push((index, Phase::Own, problem.describe().2));
        } else if let Some(problem) = b.point_problem {
            self.problems.push((index, Phase::Points, problem));
        }
        self.recs.push(b.rec);
        Ok(())
    }

    /// Forgets a piece that was started but will not be ended (a writer
    /// that refused one of its values): the validator is as it was before
    /// its `PieceStart`.
    pub fn abandon_piece(&mut self) {
        self.current = None;
    }

    /// Feeds one decoder event.
    ///
    /// # Errors
    /// `validation` for events out of order; the geometry verdict comes from
    /// [`Validator::finish`], which `Event::End` calls.
    pub fn push_event(&mut self, event: &Event) -> Result<()> {
        match event {
            Event::Header(_) => Ok(()),
            Event::PieceStart(s) => self.start(s),
            Event::Point(p) => self.point(p),
            Event::PieceEnd(e) => self.end(&e.tail()),
            Event::End(_) => self.finish(),
        }
    }

    /// Feeds one decoder frame.
    ///
    /// # Errors
    /// As [`Validator::push_event`].
    pub fn push_frame(&mut self, frame: &Frame) -> Result<()> {
        match frame {
            Frame::Header(_) => Ok(()),
            Frame::Piece(p) => self.push_piece(p),
            Frame::End(_) => self.finish(),
        }
    }

    /// Feeds one whole piece.
    ///
    /// # Errors
    /// As [`Validator::push_event`].
    pub fn push_piece(&mut self, p: &Piece) -> Result<()> {
        let count = p.points.as_ref().map(|v| u32::try_from(v.len()).unwrap_or(u32::MAX));
        self.start(&PieceStart {
            index: self.recs.len() as u32,
            id: p.id,
            from: p.from,
            field_mask: None,
            point_count: count,
        })?;
        for point in p.points.iter().flatten() {
            self.point(point)?;
        }
        self.end(&p.tail())
    }

    /// The verdict on the pieces fed so far, as the reference's
    /// `validate(resolve(doc))` gives it.
    ///
    /// # Errors
    /// `validation` with the piece id, its place in the file and the rule
    /// broken in words.
    pub fn finish(&mut self) -> Result<()> {
        if self.current.is_some() {
            return Err(Self::misuse("the document ended inside a piece"));
        }
        self.finished = true;
        let recs = &self.recs;
        let n = recs.len();
        // 1. Unique ids, and every `from` names a lower existing id.
        let mut by_id: Vec<u32> = (0..n as u32).collect();
        by_id.sort_unstable_by_key(|&i| recs[i as usize].id);
        if let Some(w) = by_id
            .windows(2)
            .find(|w| recs[w[0] as usize].id == recs[w[1] as usize].id)
        {
            let (i, r) = (w[1] as usize, &recs[w[1] as usize]);
            return Err(invalid(r, i, format!("id {} is used by more than one piece", r.id)));
        }
        let exists = |id: u32| by_id.binary_search_by_key(&id, |&i| recs[i as usize].id).is_ok();
        for &i in &by_id {
            let r = &recs[i as usize];
            if let Some(f) = r.from() {
                check_from(r.id, f, exists(f)).map_err(|m| invalid(r, i as usize, m))?;
            }
        }
        // 2. Ids are exactly 0..n.
        if let Some(&first) = by_id.first() {
            let r = &recs[first as usize];
            if r.id != 0 {
                return Err(invalid(
                    r,
                    first as usize,
                    format!("ids must start at 0, the lowest is {}", r.id),
                ));
            }
        }
        if let Some(&last) = by_id.last() {
            let r = &recs[last as usize];
            if r.id as usize != n - 1 {
                return Err(invalid(
                    r,
                    last as usize,
                    format!("ids must be contiguous: {n} pieces, but the highest id is {}", r.id),
                ));
            }
        }
        // 3. Resolve: ids are 0..n and every `from` is lower, so ascending id
        // order meets each base before its children.
        let mut res = vec![Resolved::default(); n];
        for &i in &by_id {
            let r = &recs[i as usize];
            let base = r.from().map(|f| res[f as usize]).unwrap_or_default();
            let own_shape = r.flags & (CIRCLE | NGON);
            res[r.id as usize] = Resolved {
                points: if r.flags & HAS_POINTS != 0 { i } else { base.points },
                affects: if r.flags & HAS_AFFECTS != 0 { i } else { base.affects },
                flags: (r.flags & (HAS_SIZE | HAS_SIDES))
                    | (base.flags & (HAS_SIZE | HAS_SIDES))
                    | if own_shape != 0 {
                        own_shape
                    } else {
                        base.flags & (CIRCLE | NGON)
                    },
            };
        }
        // 4. Each resolved piece, in file order.
        for (i, r) in recs.iter().enumerate() {
            let v = res[r.id as usize];
            let points = recs.get(v.points as usize).and_then(Rec::points);
            if points.unwrap_or(0) == 0 {
                return Err(invalid(r, i, NO_POINTS));
            }
            if v.flags & HAS_SIZE == 0 {
                return Err(invalid(r, i, NO_SIZE));
            }
            let Some(shape) = flag_shape(v.flags) else {
                return Err(invalid(r, i, NO_SHAPE));
            };
            let problem = |stage: Phase, k: usize| {
                self.problems
                    .binary_search_by_key(&(k as u32), |p| p.0)
                    .ok()
                    .map(|j| &self.problems[j])
                    .filter(|p| p.1 == stage)
                    .map(|p| &p.2)
            };
            if let Some(m) = problem(Phase::Own, i) {
                return Err(invalid(r, i, m));
            }
            if shape == Shape::Ngon && v.flags & HAS_SIDES == 0 {
                return Err(invalid(r, i, "is an ngon without `sides`"));
            }
            let list = self
                .affect_ranges
                .binary_search_by_key(&v.affects, |a| a.0)
                .ok()
                .map(|k| self.affect_ranges[k])
                .map(|(_, start, len)| &self.affects[start as usize..start as usize + len as usize]);
            if let Some(list) = list {
                let mut seen = std::collections::HashSet::with_capacity(list.len());
                for &a in list {
                    if a as usize >= n {
                        return Err(invalid(
                            r,
                            i,
                            format!("`affects` names piece {a}, which does not exist"),
                        ));
                    }
                    if a == r.id {
                        return Err(invalid(r, i, "`affects` names the piece itself"));
                    }
                    if !seen.insert(a) {
                        return Err(invalid(r, i, affects_twice(a)));
                    }
                }
            }
            if let Some(m) = (v.points != NONE)
                .then(|| problem(Phase::Points, v.points as usize))
                .flatten()
            {
                return Err(invalid(r, i, m));
            }
        }
        Ok(())
    }
}

/// Validates a decoded document (docs/spec/RULES.md §4).
///
/// # Errors
/// `validation`, as [`Validator::finish`].
pub fn validate(doc: &Document) -> Result<()> {
    let mut v = Validator::new();
    for p in &doc.pieces {
        v.push_piece(p)?;
    }
    v.finish()
}

/// Validates a document that is meant to be resolved already, as the
/// reference's `ssklib.validate(doc)` checks one: every piece is checked
/// as it stands, with no field taken from its `from` (which must still name
/// a lower piece that exists), so a piece that relies on inheritance for
/// its points, size or shape fails.
///
/// ```
/// let doc = sskb::parse_ssk("pieces:\n- {id: 0, points: [{x: 0, y: 0, z: 0}], size: {x: 1, y: 1, z: 1}, shape: circle}\n- {id: 1, from: 0, shape: ngon, sides: 5}\n")?;
/// assert!(sskb::validate(&doc).is_ok());
/// assert!(sskb::validate_resolved(&doc).is_err());
/// let resolved = sskb::resolve(&doc)?;
/// # Ok::<(), sskb::Error>(())
/// ```
///
/// # Errors
/// `validation`, as [`validate`].
pub fn validate_resolved(doc: &Document) -> Result<()> {
    let ids: std::collections::HashSet<u32> = doc.pieces.iter().map(|p| p.id).collect();
    let mut v = Validator::new();
    for (i, p) in doc.pieces.iter().enumerate() {
        if let Some(f) = p.from {
            check_from(p.id, f, ids.contains(&f)).map_err(|m| {
                Error::new(ErrorKind::Validation, format!("piece {}: {m}", p.id))
                    .piece(p.id)
                    .path(format!("pieces[{i}].from"))
            })?;
        }
        v.push_piece(&Piece {
            from: None,
            ..p.clone()
        })?;
    }
    v.finish()
}

/// What a streaming validation saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// `(major, minor)`.
    pub version: (u16, u16),
    /// Pieces in the document.
    pub pieces: u32,
    /// Points stated in the file (inherited points are not counted again).
    pub points: u64,
}

/// Decodes (strict properties, structure rules) and validates in one
/// streaming pass over events: memory holds one point at a time plus the
/// validator's small per-piece records.
///
/// # Errors
/// Any decoding error, or `validation`.
pub fn validate_reader<R: Read>(reader: R, options: DecodeOptions) -> Result<Summary> {
    let mut input = Window::new(reader);
    let machine = Machine::new(options, false);
    validate_input(machine, &mut input, |w| {
        if w.at_eof() {
            return Ok(false);
        }
        w.fill()?;
        Ok(true)
    })
}

/// The one validation loop: the machine's events, and runs of points
/// straight from the buffer, into a [`Validator`] that trusts the decoder's
/// checks. `more` adds input (`false` at its end).
fn validate_input<I: Input>(
    mut machine: Machine,
    input: &mut I,
    mut more: impl FnMut(&mut I) -> Result<bool>,
) -> Result<Summary> {
    let mut v = Validator::for_decoded();
    let mut summary = Summary {
        version: (0, 0),
        pieces: 0,
        points: 0,
    };
    // The verdict waits for the end of input, so that a decoding error
    // (such as trailing bytes) wins over a geometry one, as in the reference.
    loop {
        if let Some(b) = v.current.as_mut() {
            summary.points += u64::from(machine.points_with(input, u32::MAX, |p| b.track(p, true)));
        }
        let event = match machine.step(input)? {
            Some(event) => event,
            None if machine.is_done() => {
                // Only the end of input may follow the document.
                if !more(input)? {
                    break;
                }
                continue;
            }
            None => {
                if !more(input)? {
                    return Err(machine.truncation(input.chunk().len()));
                }
                continue;
            }
        };
        match &event {
            Event::Header(h) => {
                summary.version = h.version;
                summary.pieces = h.piece_count;
            }
            Event::Point(_) => summary.points += 1,
            Event::End(_) => continue,
            _ => {}
        }
        v.push_event(&event)?;
    }
    v.finish()?;
    Ok(summary)
}

/// [`validate_reader`] over a slice, whose length is known.
///
/// ```
/// # let bytes = std::fs::read("tests/data/conformance/valid/example_ladder.sskb").unwrap();
/// let summary = sskb::validate_slice(&bytes)?;
/// println!("valid: {} pieces", summary.pieces);
/// # Ok::<(), sskb::Error>(())
/// ```
///
/// # Errors
/// As [`validate_reader`].
pub fn validate_slice(data: &[u8]) -> Result<Summary> {
    let machine = Machine::new(DecodeOptions::new().input_len(data.len() as u64), false);
    validate_input(machine, &mut SliceInput(data), |_| Ok(false))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str) -> Result<()> {
        validate(&crate::parse_ssk(text).unwrap())
    }

    /// The streaming validator and the whole-document one agree, and each
    /// rule is reported with the piece it is about.
    #[test]
    fn rules_by_piece() {
        let ok = "pieces:\n- id: 0\n  points: [{x: 0, y: 0, z: 0}, {x: 0, y: 0, z: 5}]\n  size: {x: 2, y: 2, z: 0}\n  shape: circle\n- id: 1\n  from: 0\n  mode: subtract\n  affects: [0]\n";
        check(ok).unwrap();
        let bytes = crate::encode(&crate::parse_ssk(ok).unwrap()).unwrap();
        assert_eq!(validate_slice(&bytes).unwrap().pieces, 2);
        for (text, piece, words) in [
            (ok.replace("affects: [0]", "affects: [1]"), 1, "itself"),
            (ok.replace("affects: [0]", "affects: [9]"), 1, "9"),
            (ok.replace("from: 0", "from: 4"), 1, "4"),
            (ok.replace("shape: circle", "shape: ngon"), 0, "sides"),
        ] {
            let e = check(&text).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Validation, "{text}");
            assert_eq!(e.piece_id(), Some(piece), "{text}: {e}");
            assert!(e.message().contains(words), "{text}: {e}");
            // The same verdict streaming, from the bytes.
            let bytes = crate::encode(&crate::parse_ssk(&text).unwrap()).unwrap();
            assert_eq!(validate_slice(&bytes).unwrap_err().to_string(), e.to_string());
        }
    }

    /// Pieces fed one by one: `finish` reports what only the whole
    /// document shows (a `from` naming a piece that never came).
    #[test]
    fn finish_checks_the_whole() {
        let d = crate::parse_ssk(
            "pieces:\n- id: 1\n  from: 0\n  size: {x: 1, y: 1, z: 0}\n- id: 0\n  points: [{x: 0, y: 0, z: 0}]\n  size: {x: 1, y: 1, z: 1}\n  shape: circle\n",
        )
        .unwrap();
        let mut v = Validator::new();
        for p in &d.pieces {
            v.push_piece(p).unwrap();
        }
        assert_eq!(v.pieces(), 2);
        v.finish().unwrap_or_else(|e| panic!("{e}"));
        let mut v = Validator::new();
        v.push_piece(&d.pieces[0]).unwrap();
        assert_eq!(v.finish().unwrap_err().kind(), ErrorKind::Validation);
    }
}
