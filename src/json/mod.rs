//! The JSON form of documents (feature `json`): the dump form described in
//! the conformance corpus, one piece per object, f32 values printed as the
//! shortest decimal that reads back as the same f32.
//!
//! Reading the JSON form applies the same rules as the `.ssk` reader.

mod lines;

pub use lines::{JsonLinesReader, JsonLinesWriter};
use serde_json::{Map, Number, Value as Json};

use crate::error::{Error, ErrorKind, Result};
use crate::model::{Document, Piece, Point, Vec2, Vec3};
use crate::properties::{Properties, Value};
use crate::resolve::ResolvedPiece;
use crate::text::{document_from_value, parse_version};

/// An f32 as a JSON number that prints as its shortest decimal.
pub fn f32_json(v: f32) -> Json {
    let widened = format!("{v:?}").parse::<f64>().unwrap_or(f64::from(v));
    Number::from_f64(widened).map_or(Json::Null, Json::Number)
}

fn v3(v: Vec3) -> Json {
    let mut m = Map::new();
    m.insert("x".into(), f32_json(v.x));
    m.insert("y".into(), f32_json(v.y));
    m.insert("z".into(), f32_json(v.z));
    Json::Object(m)
}

fn v2(v: Vec2) -> Json {
    let mut m = Map::new();
    m.insert("x".into(), f32_json(v.x));
    m.insert("y".into(), f32_json(v.y));
    Json::Object(m)
}

/// A property value as JSON.
pub fn value_json(v: &Value) -> Json {
    match v {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(i) => Json::Number((*i).into()),
        Value::Float(f) => Number::from_f64(*f).map_or(Json::Null, Json::Number),
        Value::String(s) => Json::String(s.clone()),
        Value::Sequence(items) => Json::Array(items.iter().map(value_json).collect()),
        Value::Mapping(entries) => Json::Object(entries.iter().map(|(k, v)| (k.clone(), value_json(v))).collect()),
    }
}

/// JSON as a property value: integers that fit an `i64` stay integers.
pub fn json_value(j: &Json) -> Value {
    match j {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => n
            .as_i64()
            .map(Value::Int)
            .unwrap_or_else(|| Value::Float(n.as_f64().unwrap_or(f64::NAN))),
        Json::String(s) => Value::String(s.clone()),
        Json::Array(items) => Value::Sequence(items.iter().map(json_value).collect()),
        Json::Object(m) => Value::Mapping(m.iter().map(|(k, v)| (k.clone(), json_value(v))).collect()),
    }
}

fn props_json(p: &Properties, path: &str) -> Result<Json> {
    Ok(value_json(&p.parse().map_err(|e| e.path(path))?))
}

fn point_json(p: &Point) -> Json {
    let mut m = Map::new();
    m.insert("x".into(), f32_json(p.position.x));
    m.insert("y".into(), f32_json(p.position.y));
    m.insert("z".into(), f32_json(p.position.z));
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

/// One piece in the dump form: only the fields that are present.
///
/// # Errors
/// `malformed_properties` when its property blob does not parse.
pub fn piece_json(p: &Piece, index: usize) -> Result<Json> {
    let mut m = Map::new();
    m.insert("id".into(), p.id.into());
    if let Some(f) = p.from {
        m.insert("from".into(), f.into());
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
        m.insert("shape".into(), s.name().into());
    }
    if let Some(n) = p.sides {
        m.insert("sides".into(), n.into());
    }
    if let Some(mode) = p.mode {
        m.insert("mode".into(), mode.name().into());
    }
    if let Some(a) = &p.affects {
        m.insert("affects".into(), a.clone().into());
    }
    if let Some(props) = &p.properties {
        m.insert(
            "properties".into(),
            props_json(props, &format!("pieces[{index}].properties"))?,
        );
    }
    Ok(Json::Object(m))
}

/// A resolved piece: every field filled in, `mode` always shown.
///
/// # Errors
/// As [`piece_json`].
pub fn resolved_piece_json(p: &ResolvedPiece) -> Result<Json> {
    let piece = Piece {
        mode: Some(p.effective_mode()),
        ..Piece::from(p)
    };
    piece_json(&piece, p.id as usize)
}

/// `"major.minor"`.
pub fn version_json(version: (u16, u16)) -> Json {
    Json::String(format!("{}.{}", version.0, version.1))
}

/// Root properties as JSON (`{}` when absent).
///
/// # Errors
/// `malformed_properties` when the blob does not parse.
pub fn root_properties_json(p: Option<&Properties>) -> Result<Json> {
    match p {
        Some(p) => props_json(p, "properties"),
        None => Ok(Json::Object(Map::new())),
    }
}

/// A whole document in the dump form: `version`, `pieces`, and
/// `properties` when the root blob is non-empty.
///
/// # Errors
/// `malformed_properties` when a blob does not parse.
pub fn document_json(doc: &Document) -> Result<Json> {
    let mut m = Map::new();
    m.insert("version".into(), version_json(doc.version));
    let pieces = doc
        .pieces
        .iter()
        .enumerate()
        .map(|(i, p)| piece_json(p, i))
        .collect::<Result<Vec<_>>>()?;
    m.insert("pieces".into(), Json::Array(pieces));
    if let Some(p) = doc.properties.as_ref().filter(|p| !p.is_empty()) {
        m.insert("properties".into(), props_json(p, "properties")?);
    }
    Ok(Json::Object(m))
}

/// Reads the dump form back, under the `.ssk` reader's rules.
///
/// # Errors
/// As [`parse_ssk`](crate::parse_ssk).
pub fn document_from_json(j: &Json) -> Result<Document> {
    document_from_value(&json_value(j))
}

/// Reads one piece line of the JSON Lines form.
///
/// # Errors
/// As [`parse_ssk`](crate::parse_ssk).
pub fn piece_from_json(j: &Json, index: usize) -> Result<Piece> {
    let wrapped = Value::Mapping(vec![("pieces".into(), Value::Sequence(vec![json_value(j)]))]);
    let mut doc = document_from_value(&wrapped).map_err(|e| {
        let path = e
            .field_path()
            .map(|p| p.replacen("pieces[0]", &format!("pieces[{index}]"), 1));
        match path {
            Some(p) => e.path(p),
            None => e,
        }
    })?;
    doc.pieces
        .pop()
        .ok_or_else(|| Error::new(ErrorKind::Structure, "no piece in the line"))
}

/// Reads a `{"version": "M.m"}` line.
///
/// # Errors
/// `structure` or `unsupported_version`.
pub fn version_from_json(j: &Json) -> Result<(u16, u16)> {
    match j.get("version") {
        Some(Json::String(s)) => parse_version(s),
        _ => Err(Error::new(
            ErrorKind::Structure,
            "expected a {\"version\": \"major.minor\"} line",
        )),
    }
}

/// Reads a `{"properties": ...}` line: `None` for `null`; a mapping, even
/// an empty one (a root blob `{}`, which the reference keeps apart from no
/// blob), as properties.
///
/// # Errors
/// `malformed_properties`.
pub fn properties_from_json(j: &Json) -> Result<Option<Properties>> {
    match j {
        Json::Object(_) => Ok(Some(Properties::from_value(&json_value(j))?)),
        Json::Null => Ok(None),
        _ => Err(Error::new(
            ErrorKind::MalformedProperties,
            "properties must be a mapping",
        )),
    }
}
