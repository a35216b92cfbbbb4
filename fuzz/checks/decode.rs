//! The decode fuzz target's checks, shared with `tests/fuzz_seeds.rs`,
//! which replays the committed seeds on stable.
//!
//! Any bytes: every door must agree to the byte (the same error kind,
//! offset, piece, path and message), never panic, and whatever decodes must
//! re-encode and decode to the same document.

use bytes::BytesMut;
use sskb::{DecodeOptions, Decoder, ErrorKind, Event, EventDecoder, Frame, SskbDecoder};

fn chunked(data: &[u8], chunk: usize, mut d: SskbDecoder) -> Result<sskb::Document, sskb::Error> {
    let mut doc = sskb::Document::default();
    let mut buf = BytesMut::new();
    let take = |f: Frame, doc: &mut sskb::Document| match f {
        Frame::Header(h) => doc.version = h.version,
        Frame::Piece(p) => doc.pieces.push(p),
        Frame::End(e) => doc.properties = e.properties,
    };
    for part in data.chunks(chunk.max(1)) {
        buf.extend_from_slice(part);
        while let Some(f) = d.decode(&mut buf)? {
            take(f, &mut doc);
        }
    }
    while let Some(f) = d.decode_eof(&mut buf)? {
        take(f, &mut doc);
    }
    Ok(doc)
}

type Key = (ErrorKind, Option<u64>, Option<u32>, Option<String>, String);

fn key(e: &sskb::Error) -> Key {
    (
        e.kind(),
        e.offset(),
        e.piece_id(),
        e.field_path().map(str::to_owned),
        e.message().to_owned(),
    )
}

/// Events fed in `chunk`-byte parts, each with the decoder's offset after
/// it; or the error.
fn events(data: &[u8], chunk: usize) -> Result<Vec<(Event, u64)>, sskb::Error> {
    let mut d = EventDecoder::new().with_options(sskb::DecodeOptions::new().input_len(data.len() as u64));
    let mut buf = BytesMut::new();
    let mut out = Vec::new();
    for part in data.chunks(chunk.max(1)) {
        buf.extend_from_slice(part);
        while let Some(e) = d.decode(&mut buf)? {
            out.push((e, d.offset()));
        }
    }
    while let Some(e) = d.decode_eof(&mut buf)? {
        out.push((e, d.offset()));
    }
    Ok(out)
}

/// A reader that gives at most `chunk` bytes a call.
struct Trickle<'a>(&'a [u8], usize);

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = self.1.min(out.len()).min(self.0.len());
        out[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

/// Runs every check on `data`; panics on a disagreement.
pub fn check(data: &[u8]) {
    let whole = sskb::decode_slice(data);
    let chunk = data.first().map_or(1, |b| usize::from(*b % 17) + 1);
    let known = chunked(
        data,
        chunk,
        SskbDecoder::new().with_options(sskb::DecodeOptions::new().input_len(data.len() as u64)),
    );
    match (&whole, &known) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        (Err(a), Err(b)) => assert_eq!(key(a), key(b), "slice and chunked decoder disagree"),
        _ => panic!("slice and chunked decoder disagree: {whole:?} / {known:?}"),
    }
    let evs = events(data, chunk);
    // Whole, the decoder reads runs of points ahead: the same events at
    // the same offsets.
    match (&evs, &events(data, data.len())) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "events differ fed whole"),
        (Err(a), Err(b)) => assert_eq!(key(a), key(b), "events fed whole disagree"),
        (a, b) => panic!("events fed whole disagree: {a:?} / {b:?}"),
    }
    let points = evs.map(|v| v.iter().filter(|e| matches!(e.0, Event::Point(_))).count());
    match (&whole, &points) {
        (Ok(doc), Ok(n)) => {
            let stated: usize = doc.pieces.iter().map(|p| p.points.as_ref().map_or(0, Vec::len)).sum();
            assert_eq!(stated, *n, "events and frames count different points");
        }
        (Err(a), Err(b)) => assert_eq!(key(a), key(b), "slice and event decoder disagree"),
        _ => panic!("slice and event decoder disagree: {whole:?} / {points:?}"),
    }
    let unknown = chunked(data, chunk, SskbDecoder::new());
    assert_eq!(whole.is_ok(), unknown.is_ok(), "known and unknown length disagree");
    let raw = DecodeOptions::new().raw_properties().decode_slice(data);
    if whole.is_ok() {
        assert!(raw.is_ok());
    }
    let validated = sskb::validate_slice(data);
    let read = sskb::validate_reader(Trickle(data, chunk), DecodeOptions::new().input_len(data.len() as u64));
    match (&validated, &read) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        (Err(a), Err(b)) => assert_eq!(key(a), key(b), "validate_slice and validate_reader disagree"),
        _ => panic!("validate_slice and validate_reader disagree: {validated:?} / {read:?}"),
    }
    if let (Err(a), Err(b)) = (&whole, &validated) {
        assert_eq!(key(a), key(b), "a decoding error is validation's error too");
    }
    if let Ok(doc) = whole {
        assert_eq!(validated.is_ok(), sskb::validate(&doc).is_ok());
        let bytes = sskb::encode(&doc).expect("a decoded document encodes");
        let back = sskb::decode_slice(&bytes).expect("an encoded document decodes");
        assert_eq!(back, doc);
        if validated.is_ok() {
            sskb::resolve(&doc).expect("a valid document resolves");
        }
    } else {
        assert!(validated.is_err());
    }
}
