//! The properties fuzz target's checks, shared with `tests/fuzz_seeds.rs`.
//!
//! Any bytes as a property blob: parse never panics; whatever parses is
//! serialized back to a blob that parses to the same value; and the
//! decoder's strict check (which has a fast path for simple `key: value`
//! blobs) accepts a blob exactly when the full parser does.

use sskb::{Document, Properties};

/// Runs every check on `data`; panics on a disagreement.
pub fn check(data: &[u8]) {
    let p = Properties::from_raw(data.to_vec());
    let parsed = p.parse();
    if let Ok(v) = &parsed {
        let again = Properties::from_value(v).expect("a parsed value serializes");
        assert_eq!(&again.parse().expect("serialized properties parse"), v);
    }
    // The blob as the root properties of an empty document.
    let doc = Document {
        properties: (!data.is_empty()).then(|| p.clone()),
        ..Document::default()
    };
    let file = raw_document(data);
    let raw = sskb::DecodeOptions::new().raw_properties().decode_slice(&file);
    assert!(raw.is_ok(), "an empty document with any blob decodes raw");
    let strict = sskb::decode_slice(&file);
    assert_eq!(
        strict.is_ok(),
        parsed.is_ok(),
        "strict decoding and parse disagree on {data:?}"
    );
    if let Ok(d) = strict {
        assert_eq!(d, doc);
    }
}

/// An empty document whose root blob is `blob`, byte by byte.
fn raw_document(blob: &[u8]) -> Vec<u8> {
    let mut out = b"SSKB\x01\x00\x00\x00\x00\x00\x00\x00".to_vec();
    out.extend((blob.len() as u32).to_le_bytes());
    out.extend(blob);
    out
}
