//! Writing `.sskb`: [`SskbEncoder`] (a `tokio_util::codec::Encoder` for
//! frames and events), [`SskbWriter`] over any `std::io::Write`, and
//! [`encode`]; one encoding core behind all three.
//!
//! Every value is checked before its bytes go out: an error leaves the
//! output and the encoder exactly as they were before the call.

use std::io::Write;

use bytes::BytesMut;
use tokio_util::codec::Encoder;

use crate::codec::Frame;
use crate::error::{Error, ErrorKind, Result};
use crate::event::{End, Event, Header, PieceStart};
use crate::model::{Document, Piece, Point, TailRef};
use crate::properties::{Properties, DEFAULT_MAX_YAML_DEPTH};
use crate::rules::{check_point, check_tail, Problem, RESERVED_MASK};
use crate::wire::bit;
use crate::write::{put_blob, put_head, put_header, put_point, put_tail};

/// Where the encoder is in the document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Header,
    Pieces,
    /// Inside a piece written as events.
    Piece {
        id: u32,
        inherited: bool,
        mask: u16,
        points: Option<u32>,
        written: u32,
    },
    Done,
}

/// Encodes [`Frame`]s or [`Event`]s into `.sskb` bytes.
///
/// The header states the piece count up front; the encoder checks it at
/// `End`. Version: the header's when its major is 0 or 1 (the bytes are
/// the 1.0 layout either way, as the reference writes them), else 1.0.
#[derive(Clone, Debug)]
pub struct SskbEncoder {
    stage: Stage,
    piece_count: u32,
    pieces: u32,
    /// The header's count is a placeholder, patched by the caller.
    open_count: bool,
}

impl Default for SskbEncoder {
    fn default() -> Self {
        SskbEncoder::new()
    }
}

impl SskbEncoder {
    /// A new encoder expecting a `Header` first.
    pub fn new() -> SskbEncoder {
        SskbEncoder {
            stage: Stage::Header,
            piece_count: 0,
            pieces: 0,
            open_count: false,
        }
    }

    /// An encoder for a writer that learns the number of pieces only at
    /// the end: the header's `piece_count` is written as given (a
    /// placeholder), any number of pieces is accepted, and the caller
    /// writes [`SskbEncoder::pieces_written`] as a little-endian u32 over
    /// bytes 8 to 11 of the output once `End` is written.
    pub fn with_count_patched_later() -> SskbEncoder {
        SskbEncoder {
            open_count: true,
            ..SskbEncoder::new()
        }
    }

    /// How many pieces have been written whole.
    pub fn pieces_written(&self) -> u32 {
        self.pieces
    }

    /// Whether `End` has been written.
    pub fn is_done(&self) -> bool {
        self.stage == Stage::Done
    }

    fn error(&self, problem: Problem, id: Option<u32>, sub: &str) -> Error {
        let (kind, field, message) = problem.describe();
        let mut path = format!("pieces[{}]", self.pieces);
        if !sub.is_empty() {
            path.push('.');
            path.push_str(sub);
        }
        if !field.is_empty() {
            path.push('.');
            path.push_str(field);
        }
        let e = Error::new(kind, message).path(path);
        match id {
            Some(id) => e.piece(id),
            None => e,
        }
    }

    fn structure(&self, id: Option<u32>, message: impl Into<String>) -> Error {
        self.error(Problem::Structure("", message.into()), id, "")
    }

    fn order(&self, message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Structure, message)
    }

    fn header(&mut self, h: &Header, dst: &mut BytesMut) -> Result<()> {
        if self.stage != Stage::Header {
            return Err(self.order("a Header can only come first"));
        }
        let version = if h.version.0 <= 1 { h.version } else { (1, 0) };
        put_header(dst, version, h.piece_count);
        self.piece_count = h.piece_count;
        self.stage = Stage::Pieces;
        Ok(())
    }

    fn check_blob(&self, props: Option<&Properties>, id: Option<u32>) -> Result<()> {
        let Some(p) = props else { return Ok(()) };
        if p.raw().len() > u32::MAX as usize {
            return Err(self.structure(id, "a property blob longer than 4 GiB cannot be stored"));
        }
        p.check(DEFAULT_MAX_YAML_DEPTH).map_err(|e| {
            let path = match id {
                Some(_) => format!("pieces[{}].properties", self.pieces),
                None => "properties".into(),
            };
            let err = Error::new(ErrorKind::MalformedProperties, e.message).path(path);
            match id {
                Some(id) => err.piece(id),
                None => err,
            }
        })
    }

    /// Checks a piece's start against the header and writes its head.
    fn start(&mut self, s: &PieceStart, mask: u16, dst: &mut BytesMut) -> Result<()> {
        if self.stage != Stage::Pieces {
            return Err(self.order("a piece can only start after the Header, outside another piece"));
        }
        if self.pieces >= self.piece_count && !(self.open_count && self.pieces < u32::MAX) {
            return Err(self.structure(
                Some(s.id),
                format!("more pieces than the header's piece_count of {}", self.piece_count),
            ));
        }
        let inherited = s.from.is_some();
        if mask & RESERVED_MASK != 0 {
            return Err(self.error(Problem::ReservedBits(mask), Some(s.id), ""));
        }
        if inherited && (mask & bit::POINTS != 0) != s.point_count.is_some() {
            return Err(self.structure(
                Some(s.id),
                "field_mask bit 0 must be set exactly when points are stated",
            ));
        }
        match s.point_count {
            Some(0) => {
                return Err(self.error(
                    Problem::Structure("points", "`points` is present but empty".into()),
                    Some(s.id),
                    "",
                ))
            }
            None if !inherited => {
                return Err(self.structure(Some(s.id), "a piece without `from` needs points, size and shape"))
            }
            _ => {}
        }
        put_head(dst, s.id, s.from, mask, s.point_count);
        self.stage = Stage::Piece {
            id: s.id,
            inherited,
            mask,
            points: s.point_count,
            written: 0,
        };
        Ok(())
    }

    fn point(&mut self, p: &Point, dst: &mut BytesMut) -> Result<()> {
        let Stage::Piece {
            id, points, written, ..
        } = &mut self.stage
        else {
            return Err(self.order("a Point can only come inside a piece"));
        };
        let (id, index) = (*id, *written);
        if Some(index) >= *points || points.is_none() {
            return Err(self.structure(Some(id), "more points than the piece's point_count"));
        }
        check_point(p).map_err(|e| self.error(e, Some(id), &format!("points[{index}]")))?;
        put_point(dst, p);
        if let Stage::Piece { written, .. } = &mut self.stage {
            *written += 1;
        }
        Ok(())
    }

    fn end(&mut self, t: &TailRef<'_>, dst: &mut BytesMut) -> Result<()> {
        let Stage::Piece {
            id,
            inherited,
            mask,
            points,
            written,
        } = self.stage
        else {
            return Err(self.order("a PieceEnd can only end a piece"));
        };
        if points.unwrap_or(0) != written {
            return Err(self.structure(
                Some(id),
                format!(
                    "point_count is {} but {written} points were written",
                    points.unwrap_or(0)
                ),
            ));
        }
        if inherited {
            if t.mask() != mask & !bit::POINTS {
                return Err(self.structure(
                    Some(id),
                    format!(
                        "the fields stated ({:#06x}) do not match field_mask {mask:#06x}",
                        t.mask() | (mask & bit::POINTS)
                    ),
                ));
            }
        } else if t.size.is_none() || t.shape.is_none() {
            return Err(self.structure(Some(id), "a piece without `from` needs points, size and shape"));
        }
        check_tail(t).map_err(|e| self.error(e, Some(id), ""))?;
        if let Some(ids) = t.affects {
            if ids.len() > u32::MAX as usize {
                return Err(self.structure(Some(id), "more than u32::MAX affects ids"));
            }
        }
        self.check_blob(t.properties.as_ref(), Some(id))?;
        put_tail(dst, inherited, t);
        self.stage = Stage::Pieces;
        self.pieces += 1;
        Ok(())
    }

    fn finish(&mut self, properties: Option<&Properties>, dst: &mut BytesMut) -> Result<()> {
        if self.stage != Stage::Pieces {
            return Err(self.order("End can only come after the Header and complete pieces"));
        }
        if self.pieces != self.piece_count && !self.open_count {
            return Err(Error::new(
                ErrorKind::Structure,
                format!(
                    "the header's piece_count is {} but {} pieces were written",
                    self.piece_count, self.pieces
                ),
            ));
        }
        self.check_blob(properties, None)?;
        put_blob(dst, properties.map_or(&[][..], |p| p.raw()));
        self.stage = Stage::Done;
        Ok(())
    }

    fn piece(&mut self, p: &Piece, dst: &mut BytesMut) -> Result<()> {
        let tail = p.tail();
        let points = match &p.points {
            Some(v) if v.len() > u32::MAX as usize => {
                return Err(self.structure(Some(p.id), "more than u32::MAX points"));
            }
            Some(v) => Some(v.len() as u32),
            None => None,
        };
        let mask = match p.from {
            Some(_) => tail.mask() | if points.is_some() { bit::POINTS } else { 0 },
            None => 0,
        };
        let start = PieceStart {
            index: self.pieces,
            id: p.id,
            from: p.from,
            field_mask: p.from.map(|_| mask),
            point_count: points,
        };
        self.start(&start, mask, dst)?;
        for point in p.points.iter().flatten() {
            self.point(point, dst)?;
        }
        self.end(&tail, dst)
    }

    /// A whole document: header, each piece (then `after_piece`, which may
    /// move the bytes on), end.
    fn document(
        &mut self,
        doc: &Document,
        dst: &mut BytesMut,
        mut after_piece: impl FnMut(&mut BytesMut) -> Result<()>,
    ) -> Result<()> {
        let count = u32::try_from(doc.pieces.len())
            .map_err(|_| Error::new(ErrorKind::Structure, "more than u32::MAX pieces"))?;
        self.encode(
            &Frame::Header(Header {
                version: doc.version,
                piece_count: count,
            }),
            dst,
        )?;
        for p in &doc.pieces {
            self.atomically(dst, |enc, dst| enc.piece(p, dst))?;
            after_piece(dst)?;
        }
        self.atomically(dst, |enc, dst| enc.finish(doc.properties.as_ref(), dst))
    }

    /// Runs `f`; on error, restores the encoder and `dst` as they were.
    fn atomically(&mut self, dst: &mut BytesMut, f: impl FnOnce(&mut Self, &mut BytesMut) -> Result<()>) -> Result<()> {
        let (saved, len) = (self.clone(), dst.len());
        let r = f(self, dst);
        if r.is_err() {
            *self = saved;
            dst.truncate(len);
        }
        r
    }
}

impl Encoder<Event> for SskbEncoder {
    type Error = Error;

    /// # Errors
    /// A value the decoder would reject, an event out of order, a count that
    /// does not match; nothing is written then.
    fn encode(&mut self, event: Event, dst: &mut BytesMut) -> Result<()> {
        self.encode(&event, dst)
    }
}

impl Encoder<&Event> for SskbEncoder {
    type Error = Error;

    /// # Errors
    /// As for `Encoder<Event>`.
    fn encode(&mut self, event: &Event, dst: &mut BytesMut) -> Result<()> {
        self.atomically(dst, |enc, dst| match event {
            Event::Header(h) => enc.header(h, dst),
            Event::PieceStart(s) => {
                let mask = match (s.from, s.field_mask) {
                    (Some(_), Some(m)) => m,
                    (Some(_), None) => {
                        return Err(enc.structure(Some(s.id), "an inherited PieceStart needs its field_mask"));
                    }
                    (None, Some(_)) => {
                        return Err(enc.structure(Some(s.id), "a piece without `from` has no field_mask"));
                    }
                    (None, None) => 0,
                };
                enc.start(s, mask, dst)
            }
            Event::Point(p) => enc.point(p, dst),
            Event::PieceEnd(e) => enc.end(&e.tail(), dst),
            Event::End(End { properties }) => enc.finish(properties.as_ref(), dst),
        })
    }
}

impl Encoder<Frame> for SskbEncoder {
    type Error = Error;

    /// # Errors
    /// As for `Encoder<Event>`; a piece is written whole or not at all.
    fn encode(&mut self, frame: Frame, dst: &mut BytesMut) -> Result<()> {
        self.encode(&frame, dst)
    }
}

impl Encoder<&Frame> for SskbEncoder {
    type Error = Error;

    /// # Errors
    /// As for `Encoder<Event>`.
    fn encode(&mut self, frame: &Frame, dst: &mut BytesMut) -> Result<()> {
        self.atomically(dst, |enc, dst| match frame {
            Frame::Header(h) => enc.header(h, dst),
            Frame::Piece(p) => enc.piece(p, dst),
            Frame::End(End { properties }) => enc.finish(properties.as_ref(), dst),
        })
    }
}

/// Encodes a whole document.
///
/// ```
/// use sskb::{Document, Piece, Point, Shape, Vec3};
/// let doc = Document {
///     pieces: vec![Piece {
///         id: 0,
///         points: Some(vec![Point::at(Vec3::new(0.0, 0.0, 0.0))]),
///         size: Some(Vec3::new(1.0, 1.0, 1.0)),
///         shape: Some(Shape::Circle),
///         ..Piece::default()
///     }],
///     ..Document::default()
/// };
/// let bytes = sskb::encode(&doc)?;
/// assert_eq!(sskb::decode_slice(&bytes)?, doc);
/// # Ok::<(), sskb::Error>(())
/// ```
///
/// # Errors
/// A value the decoder would reject (non-finite, negative size, sides < 3,
/// transition x outside [0, 1], duplicate affects, empty points, a piece
/// without `from` missing points, size or shape, a malformed property blob).
pub fn encode(doc: &Document) -> Result<Vec<u8>> {
    let mut out = BytesMut::new();
    SskbEncoder::new().document(doc, &mut out, |_| Ok(()))?;
    Ok(Vec::from(out))
}

/// Writes frames or events to a blocking [`Write`], buffering up to 64 KiB.
///
/// ```
/// use sskb::{Event, End, Header, SskbWriter};
/// let mut w = SskbWriter::new(Vec::new());
/// w.write_event(&Event::Header(Header { version: (1, 0), piece_count: 0 }))?;
/// w.write_event(&Event::End(End::default()))?;
/// let bytes = w.finish()?;
/// assert_eq!(bytes.len(), 16);
/// # Ok::<(), sskb::Error>(())
/// ```
#[derive(Debug)]
pub struct SskbWriter<W: Write> {
    inner: W,
    encoder: SskbEncoder,
    buf: BytesMut,
}

const FLUSH_AT: usize = 64 * 1024;

/// Moves the buffered bytes to `out` once there are enough of them.
fn spill(out: &mut impl Write, buf: &mut BytesMut) -> Result<()> {
    if buf.len() >= FLUSH_AT {
        out.write_all(buf)?;
        buf.clear();
    }
    Ok(())
}

impl<W: Write> SskbWriter<W> {
    /// A writer over `inner`.
    pub fn new(inner: W) -> Self {
        SskbWriter {
            inner,
            encoder: SskbEncoder::new(),
            buf: BytesMut::new(),
        }
    }

    fn spill(&mut self) -> Result<()> {
        spill(&mut self.inner, &mut self.buf)
    }

    /// Writes one frame.
    ///
    /// # Errors
    /// As for [`SskbEncoder`], or `io`.
    pub fn write_frame(&mut self, frame: &Frame) -> Result<()> {
        self.encoder.encode(frame, &mut self.buf)?;
        self.spill()
    }

    /// Writes one event.
    ///
    /// # Errors
    /// As for [`SskbEncoder`], or `io`.
    pub fn write_event(&mut self, event: &Event) -> Result<()> {
        self.encoder.encode(event, &mut self.buf)?;
        self.spill()
    }

    /// Writes a whole document.
    ///
    /// # Errors
    /// As [`encode`], or `io`.
    pub fn write_document(&mut self, doc: &Document) -> Result<()> {
        let inner = &mut self.inner;
        self.encoder.document(doc, &mut self.buf, |buf| spill(inner, buf))
    }

    /// Flushes and returns the inner writer.
    ///
    /// # Errors
    /// `structure` when `End` has not been written; `io`.
    pub fn finish(mut self) -> Result<W> {
        if !self.encoder.is_done() {
            return Err(Error::new(
                ErrorKind::Structure,
                "the document is incomplete: End was not written",
            ));
        }
        self.inner.write_all(&self.buf)?;
        self.inner.flush()?;
        Ok(self.inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc() -> Document {
        crate::parse_ssk(
            "pieces:\n- id: 0\n  points: [{x: 0, y: 0, z: 0}, {x: 0, y: 0, z: 5}]\n  size: {x: 2, y: 2, z: 0}\n  shape: circle\n- id: 1\n  from: 0\n  affects: [0]\n  mode: subtract\n",
        )
        .unwrap()
    }

    fn events(data: &[u8]) -> Vec<Event> {
        crate::EventReader::new(data).collect::<Result<_>>().unwrap()
    }

    /// A count patched in afterwards gives the bytes of a count known up
    /// front; without the open count, the placeholder is refused at End.
    #[test]
    fn a_count_patched_later_gives_the_same_bytes() {
        let whole = encode(&doc()).unwrap();
        let mut out = BytesMut::new();
        let mut enc = SskbEncoder::with_count_patched_later();
        for f in crate::SskbReader::new(&whole[..]) {
            let f = match f.unwrap() {
                Frame::Header(h) => Frame::Header(Header { piece_count: 0, ..h }),
                other => other,
            };
            enc.encode(f, &mut out).unwrap();
        }
        assert_eq!(enc.pieces_written(), 2);
        out[8..12].copy_from_slice(&enc.pieces_written().to_le_bytes());
        assert_eq!(&out[..], &whole[..]);
        let mut strict = SskbEncoder::new();
        let mut out = BytesMut::new();
        strict
            .encode(
                Frame::Header(Header {
                    version: (1, 0),
                    piece_count: 0,
                }),
                &mut out,
            )
            .unwrap();
        let piece = doc().pieces[0].clone();
        assert!(strict.encode(Frame::Piece(piece), &mut out).is_err());
    }

    /// Events, frames and whole documents make the same bytes.
    #[test]
    fn every_door_writes_the_same_bytes() {
        let d = doc();
        let whole = encode(&d).unwrap();
        let mut by_events = BytesMut::new();
        let mut enc = SskbEncoder::new();
        for ev in events(&whole) {
            enc.encode(ev, &mut by_events).unwrap();
        }
        assert!(enc.is_done());
        assert_eq!(&by_events[..], &whole[..]);
        let mut w = SskbWriter::new(Vec::new());
        for f in crate::SskbReader::new(&whole[..]) {
            w.write_frame(&f.unwrap()).unwrap();
        }
        assert_eq!(w.finish().unwrap(), whole);
    }

    /// Out of order, the encoder says what may come where and writes
    /// nothing for the refused event.
    #[test]
    fn stages_refuse_what_does_not_belong() {
        let whole = encode(&doc()).unwrap();
        let evs = events(&whole);
        let (header, start, point, end) = (&evs[0], &evs[1], &evs[2], &evs[4]);
        let mut dst = BytesMut::new();
        let mut enc = SskbEncoder::new();
        let e = enc.encode(point.clone(), &mut dst).unwrap_err();
        assert!(e.message().contains("a Point can only come inside a piece"), "{e}");
        assert!(dst.is_empty());
        enc.encode(header.clone(), &mut dst).unwrap();
        let e = enc.encode(header.clone(), &mut dst).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Structure);
        // End before the pieces the header announced.
        let last = evs.last().unwrap().clone();
        let e = enc.encode(last, &mut dst).unwrap_err();
        assert!(e.message().contains("piece_count is 2 but 0 pieces"), "{e}");
        // A piece's end before all its points.
        enc.encode(start.clone(), &mut dst).unwrap();
        let len = dst.len();
        let e = enc.encode(end.clone(), &mut dst).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Structure, "{e}");
        assert_eq!(dst.len(), len);
    }

    /// A value the wire cannot hold is refused with its field.
    #[test]
    fn values_are_checked_before_their_bytes() {
        let mut d = doc();
        d.pieces[0].size = Some(crate::Vec3 {
            x: -1.0,
            y: 2.0,
            z: 0.0,
        });
        let e = encode(&d).unwrap_err();
        assert_eq!(e.piece_id(), Some(0));
        assert!(e.field_path().unwrap_or("").contains("size.x"), "{e}");
        let mut d = doc();
        d.pieces[1].affects = Some(vec![0, 0]);
        let e = encode(&d).unwrap_err();
        assert!(e.message().contains("twice"), "{e}");
    }
}
