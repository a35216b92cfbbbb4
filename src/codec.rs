//! `tokio_util::codec::Decoder`s: [`EventDecoder`] (events, constant memory
//! per point) and [`SskbDecoder`] (whole pieces), the second built on the
//! first.

use bytes::BytesMut;
use tokio_util::codec::Decoder;

use crate::error::{Error, Result};
use crate::event::{End, Event, Header};
use crate::input::Input;
use crate::limits::Limits;
use crate::model::{Piece, Point};
use crate::options::DecodeOptions;
use crate::state::Machine;
use crate::wire::{self, MIN_POINT};

/// A decoded unit at piece granularity.
#[derive(Clone, Debug, PartialEq)]
pub enum Frame {
    /// Header and piece count; always first.
    Header(Header),
    /// One whole piece, in file order.
    Piece(Piece),
    /// The end of the document with the root properties; always last.
    End(End),
}

macro_rules! builder_methods {
    () => {
        /// Applies `options` (limits, strict or raw properties, input length).
        #[must_use]
        pub fn with_options(mut self, options: DecodeOptions) -> Self {
            *self.machine_mut().options_mut() = options;
            self
        }

        /// The total input length: each count is checked against the bytes
        /// left the moment it is read (`count_exceeds_remaining`).
        #[must_use]
        #[deprecated(note = "use `with_options(DecodeOptions::new().input_len(len))`: options are set one way")]
        pub fn with_input_len(mut self, len: u64) -> Self {
            self.machine_mut().options_mut().input_len = Some(len);
            self
        }

        /// Replaces the [`Limits`].
        #[must_use]
        #[deprecated(note = "use `with_options(DecodeOptions::new().limits(limits))`: options are set one way")]
        pub fn with_limits(mut self, limits: Limits) -> Self {
            self.machine_mut().options_mut().limits = limits;
            self
        }

        /// Keeps property blobs raw and unchecked.
        #[must_use]
        #[deprecated(note = "use `with_options(DecodeOptions::new().raw_properties())`: options are set one way")]
        pub fn raw_properties(mut self) -> Self {
            self.machine_mut().options_mut().strict = false;
            self
        }

        /// Whether the whole document has been decoded.
        pub fn is_done(&self) -> bool {
            self.machine().is_done()
        }
    };
}

/// Decodes `.sskb` into [`Event`]s: header, piece start, each point, piece
/// end, end.
///
/// ```
/// use bytes::BytesMut;
/// use tokio_util::codec::Decoder;
/// // An empty document: header 1.0, no pieces, an empty root blob.
/// let file = b"SSKB\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00";
/// let mut decoder = sskb::EventDecoder::new();
/// let mut buf = BytesMut::from(&file[..]);
/// while let Some(event) = decoder.decode_eof(&mut buf)? {
///     println!("{event:?}");
/// }
/// # Ok::<(), sskb::Error>(())
/// ```
///
/// When the buffer holds several points of a piece, the decoder reads them
/// in one run (at most 64) and returns them one per call: their bytes leave
/// the buffer with the first of them. [`EventDecoder::offset`] still gives
/// the offset of the next event.
#[derive(Debug)]
pub struct EventDecoder {
    machine: Machine,
    /// Points read ahead in one run from the buffer (all checked, their
    /// bytes consumed), handed out one per call: a run costs one buffer
    /// advance instead of one per point.
    run: Vec<Point>,
    /// How many of `run` have been handed out.
    taken: usize,
}

impl Default for EventDecoder {
    fn default() -> Self {
        EventDecoder::new()
    }
}

impl EventDecoder {
    /// Strict properties, default limits, unknown input length.
    pub fn new() -> EventDecoder {
        EventDecoder {
            machine: Machine::new(DecodeOptions::new(), false),
            run: Vec::new(),
            taken: 0,
        }
    }

    fn machine(&self) -> &Machine {
        &self.machine
    }

    /// The offset of the next event: the bytes consumed so far, less the
    /// points read ahead and not yet returned.
    pub fn offset(&self) -> u64 {
        let ahead: u64 = self.run[self.taken..].iter().map(wire::point_len).sum();
        self.machine.offset() - ahead
    }

    fn machine_mut(&mut self) -> &mut Machine {
        &mut self.machine
    }

    builder_methods!();
}

impl Decoder for EventDecoder {
    type Item = Event;
    type Error = Error;

    /// # Errors
    /// Any decoding error; after one, every call returns it again.
    #[inline]
    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Event>> {
        if let Some(p) = self.run.get(self.taken) {
            self.taken += 1;
            return Ok(Some(Event::Point(*p)));
        }
        self.decode_next(src)
    }

    /// # Errors
    /// `truncated` when the input ends before the document does, with the
    /// offset of the end of input and what was being read.
    #[inline]
    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Event>> {
        if let Some(event) = self.decode(src)? {
            return Ok(Some(event));
        }
        self.machine.at_eof(src.len())?;
        Ok(None)
    }
}

impl EventDecoder {
    /// The next event once the points read ahead are all handed out: the
    /// next run of points, or the next unit. Kept out of line so that
    /// handing out a point read ahead is a few instructions in the caller.
    #[inline(never)]
    fn decode_next(&mut self, src: &mut BytesMut) -> Result<Option<Event>> {
        if self.machine.reading_points() {
            self.run.clear();
            let run = &mut self.run;
            if self.machine.points_with(src, RUN, |p| run.push(*p)) > 0 {
                self.taken = 1;
                return Ok(Some(Event::Point(self.run[0])));
            }
            self.taken = 0;
        }
        let event = self.machine.step(src)?;
        if event.is_none() {
            reserve_blob(&self.machine, src);
        }
        Ok(event)
    }
}

/// How many points [`EventDecoder`] reads ahead at most.
const RUN: u32 = 64;

/// Only a blob is longer than a small unit: while the machine waits for one,
/// reserve toward it, but never more than doubles the buffer (the length
/// field is not trusted with an allocation, even within the limits).
fn reserve_blob(machine: &Machine, src: &mut BytesMut) {
    if let Some(n) = machine.blob_wanted() {
        src.reserve(n.saturating_sub(src.len()).min(src.len().max(64 * 1024)));
    }
}

/// Gathers events into [`Frame`]s.
#[derive(Debug, Default)]
pub(crate) struct Assembler {
    piece: Option<Piece>,
}

impl Assembler {
    /// Steps `machine` over `input` until a frame is complete (`None` when
    /// the buffer runs dry first). A piece's points whose bytes are in the
    /// buffer go straight into its `Vec`, without an event each.
    ///
    /// # Errors
    /// Any decoding error.
    pub fn next_frame<I: Input>(&mut self, machine: &mut Machine, input: &mut I) -> Result<Option<Frame>> {
        loop {
            if let Some(points) = self.piece.as_mut().and_then(|p| p.points.as_mut()) {
                machine.points_with(input, u32::MAX, |p| points.push(*p));
            }
            let Some(event) = machine.step(input)? else {
                return Ok(None);
            };
            if let Some(frame) = self.push(event, input.chunk().len()) {
                return Ok(Some(frame));
            }
        }
    }

    /// Adds an event; `in_hand` is how many input bytes are buffered after
    /// it, which bounds what a piece's points may preallocate.
    pub fn push(&mut self, event: Event, in_hand: usize) -> Option<Frame> {
        match event {
            Event::Header(h) => Some(Frame::Header(h)),
            Event::PieceStart(s) => {
                let fits = in_hand / MIN_POINT as usize;
                self.piece = Some(Piece {
                    id: s.id,
                    from: s.from,
                    points: s.point_count.map(|n| Vec::with_capacity((n as usize).min(fits))),
                    ..Piece::default()
                });
                None
            }
            Event::Point(p) => {
                if let Some(points) = self.piece.as_mut().and_then(|piece| piece.points.as_mut()) {
                    points.push(p);
                }
                None
            }
            Event::PieceEnd(e) => {
                let mut piece = self.piece.take().unwrap_or_default();
                piece.set_end(e);
                Some(Frame::Piece(piece))
            }
            Event::End(e) => Some(Frame::End(e)),
        }
    }
}

/// Decodes `.sskb` into [`Frame`]s: the header, one whole piece at a time,
/// and the end with the root properties.
///
/// Use it with `FramedRead` over any `AsyncRead`:
///
/// ```no_run
/// use futures::StreamExt;
/// use tokio_util::codec::FramedRead;
///
/// # async fn run() -> Result<(), sskb::Error> {
/// let file = tokio::fs::File::open("model.sskb").await?;
/// let len = file.metadata().await?.len();
/// let mut frames = FramedRead::new(file, sskb::SskbDecoder::new().with_options(sskb::DecodeOptions::new().input_len(len)));
/// while let Some(frame) = frames.next().await {
///     if let sskb::Frame::Piece(piece) = frame? {
///         println!("piece {}", piece.id);
///     }
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct SskbDecoder {
    machine: Machine,
    assembler: Assembler,
}

impl Default for SskbDecoder {
    fn default() -> Self {
        SskbDecoder::new()
    }
}

impl SskbDecoder {
    /// Strict properties, default limits, unknown input length.
    pub fn new() -> SskbDecoder {
        SskbDecoder {
            machine: Machine::new(DecodeOptions::new(), true),
            assembler: Assembler::default(),
        }
    }

    fn machine(&self) -> &Machine {
        &self.machine
    }

    fn machine_mut(&mut self) -> &mut Machine {
        &mut self.machine
    }

    /// Bytes consumed so far (the offset of the next unit).
    pub fn offset(&self) -> u64 {
        self.machine.offset()
    }

    builder_methods!();
}

impl Decoder for SskbDecoder {
    type Item = Frame;
    type Error = Error;

    /// # Errors
    /// Any decoding error; after one, every call returns it again.
    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Frame>> {
        let frame = self.assembler.next_frame(&mut self.machine, src)?;
        if frame.is_none() {
            reserve_blob(&self.machine, src);
        }
        Ok(frame)
    }

    /// # Errors
    /// As [`EventDecoder::decode_eof`].
    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Frame>> {
        if let Some(frame) = self.decode(src)? {
            return Ok(Some(frame));
        }
        self.machine.at_eof(src.len())?;
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "pieces:\n- id: 0\n  points: [{x: 0, y: 0, z: 0}, {x: 1, y: 2, z: 3}]\n  size: {x: 2, y: 2, z: 0}\n  shape: circle\n  properties: {name: a}\n- id: 1\n  from: 0\n  mode: intersect\nproperties: {units: mm}\n";

    /// Frames put the events of each piece together: the same document as
    /// a whole decode, however the bytes arrive.
    #[test]
    fn frames_are_whole_pieces_at_any_chunking() {
        let doc = crate::parse_ssk(DOC).unwrap();
        let data = crate::encode(&doc).unwrap();
        for chunk in [1, 2, 3, 7, 64, data.len()] {
            let mut d = SskbDecoder::new();
            let mut buf = BytesMut::new();
            let mut frames = Vec::new();
            for c in data.chunks(chunk) {
                buf.extend_from_slice(c);
                while let Some(f) = d.decode(&mut buf).unwrap() {
                    frames.push(f);
                }
            }
            assert!(d.decode_eof(&mut buf).unwrap().is_none());
            assert!(d.is_done());
            let [Frame::Header(h), Frame::Piece(a), Frame::Piece(b), Frame::End(e)] = &frames[..] else {
                panic!("chunk {chunk}: {frames:?}");
            };
            assert_eq!(h.piece_count, 2);
            assert_eq!((a, b), (&doc.pieces[0], &doc.pieces[1]));
            assert_eq!(e.properties, doc.properties);
        }
    }

    /// At the end of input a partial frame is a typed truncation with the
    /// offset, never `Ok(None)`.
    #[test]
    fn decode_eof_reports_truncation_with_the_offset() {
        let data = crate::encode(&crate::parse_ssk(DOC).unwrap()).unwrap();
        for cut in [0, 5, 20, data.len() - 1] {
            let mut d = EventDecoder::new();
            let mut buf = BytesMut::from(&data[..cut]);
            let e = loop {
                match d.decode_eof(&mut buf) {
                    Ok(Some(_)) => {}
                    Ok(None) => panic!("cut {cut}: no error"),
                    Err(e) => break e,
                }
            };
            assert_eq!(e.kind(), crate::ErrorKind::Truncated, "cut {cut}: {e}");
            assert_eq!(e.offset(), Some(cut as u64), "cut {cut}: {e}");
        }
    }

    /// Options given to a codec apply: a known input length makes a count
    /// that cannot fit an error at once.
    #[test]
    fn options_apply() {
        let data = crate::encode(&crate::parse_ssk(DOC).unwrap()).unwrap();
        let mut d = EventDecoder::new().with_options(DecodeOptions::new().input_len(12));
        let mut buf = BytesMut::from(&data[..12]);
        let e = loop {
            match d.decode(&mut buf) {
                Ok(Some(_)) => {}
                Ok(None) => panic!("no error"),
                Err(e) => break e,
            }
        };
        assert_eq!(e.kind(), crate::ErrorKind::CountExceedsRemaining, "{e}");
    }
}
