//! Helpers shared by the integration tests: the conformance corpus, the JSON
//! form of a decoded document, and a chunked decoder driver.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use bytes::BytesMut;
use serde_json::{json, Map, Value as Json};
use sskb::{Decoder as _, Document, Error, Frame, Piece, Point, Properties, SskbDecoder, Value, Vec2, Vec3};

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

fn f(v: f32) -> Json {
    json!(f64::from(v))
}

fn v3(v: Vec3) -> Json {
    json!({"x": f(v.x), "y": f(v.y), "z": f(v.z)})
}

fn v2(v: Vec2) -> Json {
    json!({"x": f(v.x), "y": f(v.y)})
}

pub fn value_json(v: &Value) -> Json {
    match v {
        Value::Null => Json::Null,
        Value::Bool(b) => json!(b),
        Value::Int(i) => json!(i),
        Value::Float(x) => json!(x),
        Value::String(s) => json!(s),
        Value::Sequence(items) => Json::Array(items.iter().map(value_json).collect()),
        Value::Mapping(entries) => Json::Object(entries.iter().map(|(k, v)| (k.clone(), value_json(v))).collect()),
    }
}

fn props_json(p: &Properties) -> Json {
    value_json(&p.parse().expect("properties of a decoded document parse"))
}

fn point_json(p: &Point) -> Json {
    let mut m = Map::new();
    m.insert("x".into(), f(p.position.x));
    m.insert("y".into(), f(p.position.y));
    m.insert("z".into(), f(p.position.z));
    for (k, v) in [
        ("curve_in", p.curve_in),
        ("curve_out", p.curve_out),
        ("size", p.size),
        ("rotation", p.rotation),
    ] {
        if let Some(v) = v {
            m.insert(k.into(), v3(v));
        }
    }
    for (k, v) in [("transition_in", p.transition_in), ("transition_out", p.transition_out)] {
        if let Some(v) = v {
            m.insert(k.into(), v2(v));
        }
    }
    Json::Object(m)
}

pub fn piece_json(p: &Piece) -> Json {
    let mut m = Map::new();
    m.insert("id".into(), json!(p.id));
    if let Some(from) = p.from {
        m.insert("from".into(), json!(from));
    }
    if let Some(points) = &p.points {
        m.insert("points".into(), Json::Array(points.iter().map(point_json).collect()));
    }
    if let Some(r) = p.rotation {
        m.insert("rotation".into(), v3(r));
    }
    if let Some(s) = p.size {
        m.insert("size".into(), v3(s));
    }
    if let Some(s) = p.shape {
        m.insert("shape".into(), json!(s.name()));
    }
    if let Some(s) = p.sides {
        m.insert("sides".into(), json!(s));
    }
    if let Some(mode) = p.mode {
        m.insert("mode".into(), json!(mode.name()));
    }
    if let Some(a) = &p.affects {
        m.insert("affects".into(), json!(a));
    }
    if let Some(props) = &p.properties {
        m.insert("properties".into(), props_json(props));
    }
    Json::Object(m)
}

pub fn doc_json(d: &Document) -> Json {
    let mut m = Map::new();
    m.insert("version".into(), json!(format!("{}.{}", d.version.0, d.version.1)));
    m.insert("pieces".into(), Json::Array(d.pieces.iter().map(piece_json).collect()));
    if let Some(p) = &d.properties {
        m.insert("properties".into(), props_json(p));
    }
    Json::Object(m)
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
pub fn decode_chunked(data: &[u8], chunk: usize, mut decoder: SskbDecoder) -> Result<Document, Error> {
    let mut doc = Document::default();
    let mut buf = BytesMut::new();
    let mut ended = false;
    let mut take = |frame: Frame, doc: &mut Document| match frame {
        Frame::Header(h) => doc.version = h.version,
        Frame::Piece(p) => doc.pieces.push(p),
        Frame::End(e) => {
            doc.properties = e.properties;
            ended = true;
        }
    };
    let step = if chunk == 0 { data.len().max(1) } else { chunk };
    for piece in data.chunks(step) {
        buf.extend_from_slice(piece);
        while let Some(frame) = decoder.decode(&mut buf)? {
            take(frame, &mut doc);
        }
    }
    while let Some(frame) = decoder.decode_eof(&mut buf)? {
        take(frame, &mut doc);
    }
    assert!(ended, "decode_eof returned Ok(None) before End");
    Ok(doc)
}
