//! Any bytes: every door must agree, never panic, and whatever decodes must
//! re-encode and decode to the same document.
#![no_main]

use bytes::BytesMut;
use libfuzzer_sys::fuzz_target;
use sskb::{Decoder, DecodeOptions, ErrorKind, Frame, SskbDecoder};

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

fn kind(r: &Result<sskb::Document, sskb::Error>) -> Option<ErrorKind> {
    r.as_ref().err().map(|e| match e.kind() {
        ErrorKind::CountExceedsRemaining => ErrorKind::Truncated,
        k => k,
    })
}

fuzz_target!(|data: &[u8]| {
    let whole = sskb::decode_slice(data);
    let chunk = data.first().map_or(1, |b| usize::from(*b % 17) + 1);
    let known = chunked(data, chunk, SskbDecoder::new().with_input_len(data.len() as u64));
    assert_eq!(kind(&whole), kind(&known), "slice and chunked decoder disagree");
    if let (Ok(a), Ok(b)) = (&whole, &known) {
        assert_eq!(a, b);
    }
    let unknown = chunked(data, chunk, SskbDecoder::new());
    assert_eq!(whole.is_ok(), unknown.is_ok(), "known and unknown length disagree");
    let raw = DecodeOptions::new().raw_properties().decode_slice(data);
    if whole.is_ok() {
        assert!(raw.is_ok());
    }
    let validated = sskb::validate_slice(data);
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
});
