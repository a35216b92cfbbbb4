//! Helpers shared by the integration tests: the conformance corpus, the JSON
//! form of a decoded document, and a chunked decoder driver.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use bytes::BytesMut;
use serde_json::Value as Json;
use sskb::{Decoder, Document, Error, Frame, SskbDecoder};

pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/conformance")
}

#[derive(Debug, Clone)]
pub struct Case {
    pub file: String,
    pub decode: String,
    pub decode_raw: String,
    pub valid: bool,
    pub json: Option<String>,
    pub note: String,
}

impl Case {
    pub fn bytes(&self) -> Vec<u8> {
        std::fs::read(corpus_dir().join(&self.file)).unwrap()
    }

    pub fn expected_json(&self) -> Option<Json> {
        let path = corpus_dir().join(self.json.as_ref()?);
        Some(serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap())
    }

    pub fn is_binary(&self) -> bool {
        self.file.ends_with(".sskb")
    }
}

pub fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(corpus_dir().join("cases.jsonl")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Json = serde_json::from_str(l).unwrap();
            Case {
                file: v["file"].as_str().unwrap().to_owned(),
                decode: v["decode"].as_str().unwrap().to_owned(),
                decode_raw: v["decode_raw"].as_str().unwrap().to_owned(),
                valid: v["valid"].as_bool().unwrap(),
                json: v["json"].as_str().map(str::to_owned),
                note: v["note"].as_str().unwrap_or("").to_owned(),
            }
        })
        .collect()
}

pub fn binary_cases() -> Vec<Case> {
    cases().into_iter().filter(Case::is_binary).collect()
}

/// `truncated` and `count_exceeds_remaining` are the same outcome.
pub fn outcome<T>(r: &Result<T, Error>) -> String {
    match r {
        Ok(_) => "ok".into(),
        Err(e) if e.kind().name() == "count_exceeds_remaining" => "truncated".into(),
        Err(e) => e.kind().name().into(),
    }
}

pub fn same_outcome(expected: &str, got: &str) -> bool {
    let norm = |s: &str| {
        if s == "count_exceeds_remaining" {
            "truncated".to_owned()
        } else {
            s.to_owned()
        }
    };
    norm(expected) == norm(got)
}

#[cfg(feature = "json")]
/// The document in the JSON form of `shared/README.md`, by the crate's own
/// writer (`sskb::json`); the corpus's expected files check it.
pub fn doc_json(d: &Document) -> Json {
    sskb::json::document_json(d).expect("properties of a decoded document parse")
}

/// Structural equality; numbers are equal when both are integers and equal,
/// or both are floats and equal after rounding to f32.
pub fn json_eq(a: &Json, b: &Json, path: &str) -> Result<(), String> {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => {
            let same = match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                (Some(i), Some(j), _, _) => i == j,
                (_, _, Some(i), Some(j)) => i == j,
                _ if x.is_f64() && y.is_f64() => x.as_f64().map(|v| v as f32) == y.as_f64().map(|v| v as f32),
                _ => false,
            };
            if same {
                Ok(())
            } else {
                Err(format!("{path}: {x} != {y}"))
            }
        }
        (Json::Array(x), Json::Array(y)) => {
            if x.len() != y.len() {
                return Err(format!("{path}: length {} != {}", x.len(), y.len()));
            }
            x.iter()
                .zip(y)
                .enumerate()
                .try_for_each(|(i, (a, b))| json_eq(a, b, &format!("{path}[{i}]")))
        }
        (Json::Object(x), Json::Object(y)) => {
            let kx: Vec<_> = x.keys().collect();
            let ky: Vec<_> = y.keys().collect();
            let mut sx = kx.clone();
            let mut sy = ky.clone();
            sx.sort();
            sy.sort();
            if sx != sy {
                return Err(format!("{path}: keys {kx:?} != {ky:?}"));
            }
            x.iter()
                .try_for_each(|(k, v)| json_eq(v, &y[k], &format!("{path}.{k}")))
        }
        _ if a == b => Ok(()),
        _ => Err(format!("{path}: {a} != {b}")),
    }
}

/// Feeds `data` to `decoder` in chunks of `chunk` bytes (0: all at once),
/// draining every frame after each chunk, then `decode_eof`; gathers the
/// frames into a document.
pub fn decode_chunked(data: &[u8], chunk: usize, decoder: SskbDecoder) -> Result<Document, Error> {
    let mut doc = Document::default();
    let mut ended = false;
    for frame in feed(decoder, data, chunk)? {
        match frame {
            Frame::Header(h) => doc.version = h.version,
            Frame::Piece(p) => doc.pieces.push(p),
            Frame::End(e) => {
                doc.properties = e.properties;
                ended = true;
            }
        }
    }
    assert!(ended, "decode_eof returned Ok(None) before End");
    Ok(doc)
}

/// Feeds `data` to any decoder in chunks of `chunk` bytes (0: all at once),
/// draining every item after each chunk, then `decode_eof`; the items, or
/// the first error.
pub fn feed<D: Decoder<Error = Error>>(mut d: D, data: &[u8], chunk: usize) -> Result<Vec<D::Item>, Error> {
    let mut buf = BytesMut::new();
    let mut out = Vec::new();
    let step = if chunk == 0 { data.len().max(1) } else { chunk };
    for part in data.chunks(step) {
        buf.extend_from_slice(part);
        while let Some(item) = d.decode(&mut buf)? {
            out.push(item);
        }
    }
    while let Some(item) = d.decode_eof(&mut buf)? {
        out.push(item);
    }
    Ok(out)
}
