//! The resumable state machine: one parse core for slices, blocking readers
//! and async streams.
//!
//! The machine records where it is (piece i of n, point j of m, the next
//! field, blob bytes still owed). It consumes a unit only when the whole unit
//! is in the buffer and never parses committed bytes again; nom's
//! `Incomplete` stays in here, and its `Needed` is used only as a hint to
//! skip retries that cannot succeed, so the cost stays linear in the input
//! however it is chunked.

use std::collections::HashSet;

use bytes::Bytes;

use crate::error::{Error, ErrorKind, Result};
use crate::event::{End, Event, Header, PieceStart};
use crate::input::Input;

mod errors;
use crate::model::Point;
use crate::options::DecodeOptions;
use crate::properties::Properties;
use crate::rules::{affects_twice, Problem};
use crate::wire::{self, Head, In, PResult, Tail, MAX_POINT, MIN_PIECE, MIN_POINT};

/// A count or length checked against the input left and the limits.
#[derive(Clone, Copy, Debug)]
enum Count {
    Pieces,
    Points,
    Affects,
    Blob,
}

/// What the machine reads next, with what it knows only there.
#[derive(Debug)]
enum Next {
    Header,
    PieceCount,
    PieceHead,
    /// The current piece's points: the next is point `index` of `count`.
    Point {
        index: u32,
        count: u32,
    },
    Tail,
    /// The current piece's `affects` ids (in `Machine::affects` as they
    /// are read); `seen` holds them too, to find one named twice.
    Affects {
        seen: HashSet<u32>,
    },
    BlobLen,
    /// A property blob of this many bytes.
    Blob(u32),
    Done,
    /// An error was returned; every later call returns it again.
    Failed(Error),
}

/// What one unit did.
enum Step {
    /// Consumed a unit that makes an event.
    Emit(Event),
    /// Consumed a unit that makes none; the next unit follows.
    Go,
    /// The buffer does not hold the next unit yet.
    Wait,
}

/// The state machine. See the module docs.
#[derive(Debug)]
pub(crate) struct Machine {
    opts: DecodeOptions,
    /// Whether a consumer holds a piece's points in memory (piece-level
    /// frames), so that `max_points_per_piece` applies.
    hold_points: bool,
    next: Next,
    /// Bytes consumed so far: the offset of the next unit.
    offset: u64,
    /// A retry cannot succeed before the buffer holds this many bytes.
    need: usize,
    /// The header's `(major, minor)`, once read: every later error in a
    /// draft's file says so.
    version: Option<(u16, u16)>,
    piece_count: u32,
    /// The current piece; `piece_count` once the pieces are done.
    index: u32,
    /// The current piece's head, from its `PieceHead` to its end.
    head: Head,
    /// The current piece's fields after its points, from its `Tail` to its end.
    tail: Tail,
    /// The current piece's affects ids read so far, from its `Tail` to its end.
    affects: Vec<u32>,
}

impl Machine {
    pub fn new(opts: DecodeOptions, hold_points: bool) -> Machine {
        Machine {
            opts,
            hold_points,
            next: Next::Header,
            offset: 0,
            need: 0,
            version: None,
            piece_count: 0,
            index: 0,
            head: Head::default(),
            tail: Tail::default(),
            affects: Vec::new(),
        }
    }

    pub fn options_mut(&mut self) -> &mut DecodeOptions {
        &mut self.opts
    }

    /// Bytes consumed so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Whether the next unit is a point.
    #[inline]
    pub fn reading_points(&self) -> bool {
        matches!(self.next, Next::Point { .. })
    }

    /// Whether the whole document has been read.
    pub fn is_done(&self) -> bool {
        matches!(self.next, Next::Done)
    }

    /// While waiting for a property blob: its length (already checked against
    /// the limits and the known input length), so the caller can reserve it.
    pub fn blob_wanted(&self) -> Option<usize> {
        match self.next {
            Next::Blob(n) => Some(n as usize),
            _ => None,
        }
    }

    /// The next event, `Ok(None)` when the buffer does not yet hold the next
    /// unit (or the document is done and nothing follows).
    ///
    /// After an error, every call returns the same error.
    #[inline]
    pub fn step<I: Input>(&mut self, input: &mut I) -> Result<Option<Event>> {
        if self.reading_points() {
            if let Some(p) = self.fast_point(input) {
                return Ok(Some(Event::Point(p)));
            }
        }
        self.step_unit(input)
    }

    /// The hot path: a point whose bytes are all in the buffer, parsed in
    /// complete mode. `None` leaves everything to the streaming unit (a
    /// buffer edge, or a bad value whose error it then reports). Like the
    /// unit, it does not retry before the buffer holds the bytes the last
    /// `Incomplete` asked for.
    #[inline(always)]
    fn fast_point<I: Input>(&mut self, input: &mut I) -> Option<Point> {
        let buf = input.chunk();
        if buf.len() < MAX_POINT && buf.len() < self.need.max(MIN_POINT as usize) {
            return None;
        }
        let (rest, p) = wire::point_complete(buf).ok()?;
        let n = buf.len() - rest.len();
        self.commit(input, n);
        self.points_done(1);
        Some(p)
    }

    /// Counts `n` more points of the current piece as read; after the last,
    /// its tail follows.
    #[inline]
    fn points_done(&mut self, n: u32) {
        if let Next::Point { index, count } = &mut self.next {
            *index += n;
            if *index == *count {
                self.next = Next::Tail;
            }
        }
    }

    /// Reads the current piece's points whose bytes are all in the buffer
    /// and hands each to `f`, committing them at once (at most `max`): the fast path of the
    /// piece-level doors and of validation, with no event per point. Points
    /// at the buffer's edge, and any bad value, are left to
    /// [`Machine::step`]. Returns how many points were read.
    #[inline]
    pub fn points_with<I: Input>(&mut self, input: &mut I, max: u32, mut f: impl FnMut(&Point)) -> u32 {
        let buf = input.chunk();
        // As for one point: no retry before the bytes the last
        // `Incomplete` asked for are there.
        let Next::Point { index, count } = self.next else {
            return 0;
        };
        if buf.len() < self.need {
            return 0;
        }
        let left = (count - index).min(max);
        let mut rest = buf;
        let mut k = 0;
        while k < left && rest.len() >= MIN_POINT as usize {
            let Ok((r, p)) = wire::point_complete(rest) else {
                break;
            };
            f(&p);
            rest = r;
            k += 1;
        }
        let n = buf.len() - rest.len();
        self.commit(input, n);
        self.points_read(k);
        k
    }

    /// [`Machine::points_done`] after a run of points, kept out of line so
    /// that the run's loop does not hold the state in registers for it.
    #[inline(never)]
    fn points_read(&mut self, n: u32) {
        self.points_done(n);
    }

    /// Every unit but the fast path's points, and the errors.
    fn step_unit<I: Input>(&mut self, input: &mut I) -> Result<Option<Event>> {
        if let Next::Failed(e) = &self.next {
            return Err(e.clone());
        }
        match self.step_units(input) {
            Err(e) => {
                let e = self.noted(e);
                self.next = Next::Failed(e.clone());
                Err(e)
            }
            ok => ok,
        }
    }

    /// Runs one unit parser on the buffer: the unit and its length when
    /// complete, `None` (and a hint in `need`) when not.
    fn unit<'a, T>(&mut self, buf: In<'a>, parse: impl FnOnce(In<'a>) -> PResult<'a, T>) -> Result<Option<(usize, T)>> {
        match parse(buf) {
            Ok((rest, v)) => Ok(Some((buf.len() - rest.len(), v))),
            Err(nom::Err::Incomplete(needed)) => {
                let more = match needed {
                    nom::Needed::Size(n) => n.get(),
                    nom::Needed::Unknown => 1,
                };
                self.need = buf.len().saturating_add(more);
                Ok(None)
            }
            Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
                let at = (buf.len() - e.input.len()) as u64;
                let id = (buf.len() >= 4).then(|| u32::from_le_bytes([buf[0], buf[1], buf[2], buf[3]]));
                Err(self.wire_error(at, e.problem, id))
            }
        }
    }

    /// Smallest number of bytes after the current piece: the later pieces
    /// and the root blob length.
    fn min_after_piece(&self) -> u64 {
        u64::from(self.piece_count - self.index - 1) * MIN_PIECE + 4
    }

    #[inline]
    fn commit<I: Input>(&mut self, input: &mut I, n: usize) {
        input.advance(n);
        self.offset += n as u64;
        self.need = 0;
    }

    /// Units until one makes an event or the buffer runs short.
    fn step_units<I: Input>(&mut self, input: &mut I) -> Result<Option<Event>> {
        loop {
            if input.chunk().len() < self.need {
                return Ok(None);
            }
            let step = match self.next {
                Next::Header => self.header(input)?,
                Next::PieceCount => self.piece_count(input)?,
                Next::PieceHead => self.piece_head(input)?,
                Next::Point { .. } => self.point(input)?,
                Next::Tail => self.tail(input)?,
                Next::Affects { .. } => self.affects_ids(input)?,
                Next::BlobLen => self.blob_len(input)?,
                Next::Blob(len) => self.blob(input, len)?,
                Next::Done if input.chunk().is_empty() => Step::Wait,
                Next::Done => return Err(self.trailing()),
                // `step_unit` returns the stored error before this is reached.
                Next::Failed(_) => Step::Wait,
            };
            match step {
                Step::Emit(event) => return Ok(Some(event)),
                Step::Go => {}
                Step::Wait => return Ok(None),
            }
        }
    }

    #[inline]
    fn header<I: Input>(&mut self, input: &mut I) -> Result<Step> {
        let Some((n, version)) = self.unit(input.chunk(), wire::header)? else {
            return Ok(Step::Wait);
        };
        if version.0 == 0 && self.opts.major_one_only {
            return Err(self.wire_error(4, Problem::UnsupportedVersion(version.0, version.1), None));
        }
        self.commit(input, n);
        self.version = Some(version);
        self.next = Next::PieceCount;
        Ok(Step::Go)
    }

    #[inline]
    fn piece_count<I: Input>(&mut self, input: &mut I) -> Result<Step> {
        let Some((n, count)) = self.unit(input.chunk(), wire::u32_le)? else {
            return Ok(Step::Wait);
        };
        let at = self.offset;
        self.check_count(count, MIN_PIECE, 4, at, Count::Pieces)?;
        self.commit(input, n);
        self.piece_count = count;
        self.index = 0;
        self.next = if count == 0 { Next::BlobLen } else { Next::PieceHead };
        Ok(Step::Emit(Event::Header(Header {
            version: self.version.unwrap_or_default(),
            piece_count: count,
        })))
    }

    #[inline]
    fn piece_head<I: Input>(&mut self, input: &mut I) -> Result<Step> {
        let Some((n, head)) = self.unit(input.chunk(), wire::piece_head)? else {
            return Ok(Step::Wait);
        };
        self.head = head;
        if let Some(count) = head.point_count {
            let at = self.offset + wire::point_count_offset(&head) as u64;
            let after = head.min_after_points() + self.min_after_piece();
            self.check_count(count, MIN_POINT, after, at, Count::Points)?;
            if self.hold_points {
                self.limit(count, self.opts.limits.max_points_per_piece, at, Count::Points)?;
            }
        }
        self.commit(input, n);
        self.next = match head.point_count {
            Some(count) => Next::Point { index: 0, count },
            None => Next::Tail,
        };
        Ok(Step::Emit(Event::PieceStart(PieceStart {
            index: self.index,
            id: head.id,
            from: head.from,
            field_mask: head.mask,
            point_count: head.point_count,
        })))
    }

    /// A point the fast path left: at a buffer's edge, or with a bad value.
    #[inline]
    fn point<I: Input>(&mut self, input: &mut I) -> Result<Step> {
        let Some((n, point)) = self.unit(input.chunk(), wire::point)? else {
            return Ok(Step::Wait);
        };
        self.commit(input, n);
        self.points_done(1);
        Ok(Step::Emit(Event::Point(point)))
    }

    #[inline]
    fn tail<I: Input>(&mut self, input: &mut I) -> Result<Step> {
        let head = self.head;
        let buf = input.chunk();
        let Some((n, tail)) = self.unit(buf, |i| wire::tail(i, head))? else {
            return Ok(Step::Wait);
        };
        self.affects.clear();
        let mut seen = None;
        if let Some(count) = tail.affects_count {
            let at = self.offset + tail.affects_count_at as u64;
            let after = if head.has_blob() { 4 } else { 0 } + self.min_after_piece();
            self.check_count(count, 4, after, at, Count::Affects)?;
            self.limit(count, self.opts.limits.max_affects, at, Count::Affects)?;
            // At most what the bytes in hand can fill.
            let fits = (count as usize).min((buf.len() - n) / 4);
            self.affects.reserve(fits);
            seen = (count > 0).then(|| HashSet::with_capacity(fits));
        }
        self.commit(input, n);
        self.tail = tail;
        Ok(match seen {
            Some(seen) => {
                self.next = Next::Affects { seen };
                Step::Go
            }
            None => self.after_affects(),
        })
    }

    #[inline]
    fn affects_ids<I: Input>(&mut self, input: &mut I) -> Result<Step> {
        let buf = input.chunk();
        let take = (self.affects_left() as usize).min(buf.len() / 4);
        if take == 0 {
            self.need = 4;
            return Ok(Step::Wait);
        }
        // Called only in this state; the `else` keeps the function total.
        let Next::Affects { seen } = &mut self.next else {
            return Ok(Step::Wait);
        };
        let mut twice = None;
        for (k, id) in buf[..take * 4].chunks_exact(4).enumerate() {
            let id = u32::from_le_bytes([id[0], id[1], id[2], id[3]]);
            if !seen.insert(id) {
                twice = Some((k, id));
                break;
            }
            self.affects.push(id);
        }
        if let Some((k, id)) = twice {
            let index = self.affects.len();
            return Err(Error::new(ErrorKind::Structure, affects_twice(id))
                .at(self.offset + 4 * k as u64)
                .piece(self.head.id)
                .path(format!("{}.affects[{index}]", self.piece_path())));
        }
        self.commit(input, take * 4);
        if self.affects_left() > 0 {
            self.need = 4;
            return Ok(Step::Wait);
        }
        Ok(self.after_affects())
    }

    #[inline]
    fn blob_len<I: Input>(&mut self, input: &mut I) -> Result<Step> {
        let Some((n, len)) = self.unit(input.chunk(), wire::u32_le)? else {
            return Ok(Step::Wait);
        };
        let at = self.offset;
        let root = self.index >= self.piece_count;
        let after = if root { 0 } else { self.min_after_piece() };
        self.check_count(len, 1, after, at, Count::Blob)?;
        self.limit(len, self.opts.limits.max_property_bytes, at, Count::Blob)?;
        self.commit(input, n);
        if len > 0 {
            self.next = Next::Blob(len);
            Ok(Step::Go)
        } else {
            Ok(Step::Emit(self.finish_blob(Bytes::new())))
        }
    }

    #[inline]
    fn blob<I: Input>(&mut self, input: &mut I, len: u32) -> Result<Step> {
        if input.chunk().len() < len as usize {
            self.need = len as usize;
            return Ok(Step::Wait);
        }
        let start = self.offset;
        let raw = input.take_bytes(len as usize);
        self.offset += u64::from(len);
        self.need = 0;
        if self.opts.strict {
            let props = Properties::from_raw(raw.clone());
            if let Err(e) = props.check(self.opts.limits.max_yaml_depth) {
                let mut err = e.into_error(start).path(self.blob_path());
                if self.index < self.piece_count {
                    err = err.piece(self.head.id);
                }
                return Err(err);
            }
        }
        Ok(Step::Emit(self.finish_blob(raw)))
    }

    /// Affects ids of the current piece not read yet.
    fn affects_left(&self) -> u32 {
        self.tail
            .affects_count
            .unwrap_or(0)
            .saturating_sub(self.affects.len() as u32)
    }

    /// After the affects ids: a blob length follows, or the piece ends here.
    fn after_affects(&mut self) -> Step {
        if self.head.has_blob() {
            self.next = Next::BlobLen;
            Step::Go
        } else {
            Step::Emit(self.finish_piece(None))
        }
    }

    fn finish_blob(&mut self, raw: Bytes) -> Event {
        if self.index >= self.piece_count {
            self.next = Next::Done;
            let properties = (!raw.is_empty()).then(|| Properties::from_raw(raw));
            return Event::End(End { properties });
        }
        // A non-inherited piece's empty blob is no properties; an inherited
        // piece that states its properties keeps an explicit empty mapping.
        let props = if self.head.from.is_none() && raw.is_empty() {
            None
        } else {
            Some(Properties::from_raw(raw))
        };
        self.finish_piece(props)
    }

    fn finish_piece(&mut self, properties: Option<Properties>) -> Event {
        let t = self.tail;
        let affects = t.affects_count.map(|_| std::mem::take(&mut self.affects));
        self.index += 1;
        self.next = if self.index < self.piece_count {
            Next::PieceHead
        } else {
            Next::BlobLen
        };
        Event::PieceEnd(t.end(affects, properties))
    }
}

#[cfg(test)]
mod tests {
    use bytes::BytesMut;

    use super::*;
    use crate::input::SliceInput;

    /// A document that visits every state: two pieces (points, `affects`,
    /// a property blob; the second inheriting with no points) and root
    /// properties.
    fn every_state() -> Vec<u8> {
        let doc = crate::parse_ssk(
            "pieces:\n\
             - id: 0\n  points: [{x: 0, y: 0, z: 0}, {x: 0, y: 0, z: 5, size: {x: 1, y: 1, z: 0}}]\n  size: {x: 2, y: 2, z: 0}\n  shape: circle\n  properties: {name: a}\n\
             - id: 1\n  from: 0\n  mode: subtract\n  affects: [0]\n\
             properties: {units: mm}\n",
        )
        .unwrap();
        crate::encode(&doc).unwrap()
    }

    /// Feeds `data` whole and returns the machine where it stopped, with
    /// the bytes it left unread.
    fn run(data: &[u8]) -> (Machine, usize, Option<Error>) {
        let mut m = Machine::new(DecodeOptions::new(), true);
        let mut input = SliceInput(data);
        loop {
            match m.step(&mut input) {
                Ok(Some(_)) => {}
                Ok(None) => return (m, input.0.len(), None),
                Err(e) => return (m, input.0.len(), Some(e)),
            }
        }
    }

    /// Every prefix ends in some state; each state's end-of-input error is
    /// `truncated`, at the end of the input, names the unit it was in, and
    /// every state but the end is reached by some prefix.
    #[test]
    fn every_state_has_its_end_of_input_error() {
        let data = every_state();
        let mut seen = HashSet::new();
        for cut in 0..data.len() {
            let (m, left, err) = run(&data[..cut]);
            assert!(err.is_none(), "prefix {cut}: {err:?}");
            let e = m.truncation(left);
            assert_eq!(e.kind(), ErrorKind::Truncated, "prefix {cut}: {e}");
            assert_eq!(e.offset(), Some(cut as u64), "prefix {cut}: {e}");
            let what = match m.next {
                Next::Header => "the 8-byte header",
                Next::PieceCount => "the piece count",
                Next::PieceHead => "the head of piece",
                Next::Point { .. } => "point ",
                Next::Tail => "the fields after the points",
                Next::Affects { .. } => "affects id 1 of 1",
                Next::BlobLen if m.index >= m.piece_count => "the root property blob length",
                Next::BlobLen => "the property blob length of piece",
                Next::Blob(_) => "-byte property blob",
                Next::Done | Next::Failed(_) => panic!("prefix {cut} ended the document"),
            };
            assert!(e.message().contains(what), "prefix {cut}: {e}");
            // Inside a piece (past its head) the error names the piece.
            if m.index < m.piece_count
                && matches!(
                    m.next,
                    Next::Point { .. } | Next::Tail | Next::Affects { .. } | Next::Blob(_)
                )
            {
                assert!(e.piece_id().is_some(), "prefix {cut}: {e}");
            }
            seen.insert(std::mem::discriminant(&m.next));
        }
        assert_eq!(seen.len(), 8, "every state but the end and a failure");
        // The whole document: no error; one byte more: trailing bytes.
        let (m, left, err) = run(&data);
        assert!(err.is_none() && m.is_done() && m.eof_error(left).is_none());
        let mut more = data.clone();
        more.push(0);
        let (m, left, _) = run(&more);
        let e = m.truncation(left);
        assert_eq!(e.kind(), ErrorKind::TrailingBytes);
    }

    /// After an error every step and the end of input give that error.
    #[test]
    fn a_failure_is_kept() {
        let mut data = every_state();
        data[0] = b'X';
        let (mut m, left, err) = run(&data);
        let e = err.expect("bad magic");
        assert_eq!(e.kind(), ErrorKind::BadMagic);
        assert!(matches!(m.next, Next::Failed(_)));
        let again = m.step(&mut SliceInput(&data)).unwrap_err();
        assert_eq!(again.to_string(), e.to_string());
        assert_eq!(m.truncation(left).to_string(), e.to_string());
    }

    /// Chunked input gives the same events as whole input, and the
    /// machine never consumes a unit before it is complete.
    #[test]
    fn byte_at_a_time_equals_whole() {
        let data = every_state();
        let mut whole = Vec::new();
        let mut m = Machine::new(DecodeOptions::new(), true);
        let mut input = SliceInput(&data);
        while let Some(ev) = m.step(&mut input).unwrap() {
            whole.push(ev);
        }
        let mut m = Machine::new(DecodeOptions::new(), true);
        let mut buf = BytesMut::new();
        let mut events = Vec::new();
        for &b in &data {
            buf.extend_from_slice(&[b]);
            while let Some(ev) = m.step(&mut buf).unwrap() {
                events.push(ev);
            }
        }
        assert!(m.is_done() && buf.is_empty());
        assert_eq!(events, whole);
    }
}
