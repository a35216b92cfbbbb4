//! The `.ssk` text format (YAML): a reader and a writer under the same rules
//! as the binary model, with the property checker's YAML discipline
//! (no anchors, aliases, tags, directives or duplicate keys).
//!
//! The reader turns the YAML into a [`Value`] tree and then into a
//! [`Document`]; the same interpretation serves the JSON form
//! ([`crate::json`]). Numbers are read as f64 and rounded to f32.

use std::fmt::Write as _;

use crate::error::{Error, ErrorKind, Result};
use crate::model::{Document, Mode, Piece, Point, Shape, Vec2, Vec3};
use crate::properties::{emit_flow, walk, Build, Properties, Value, DEFAULT_MAX_YAML_DEPTH};
use crate::rules;

/// Nesting of the text format itself above the property blobs it holds.
const TEXT_DEPTH: usize = 8;

/// Reads a `.ssk` document. CRLF line ends are fine.
///
/// ```
/// let doc = sskb::parse_ssk("version: \"1.0\"\npieces:\n- id: 0\n  points: [{x: 0, y: 0, z: 0}]\n  size: {x: 1, y: 1, z: 1}\n  shape: circle\n")?;
/// assert_eq!(doc.pieces.len(), 1);
/// # Ok::<(), sskb::Error>(())
/// ```
///
/// # Errors
/// `structure` for YAML the format forbids or fields that break its rules
/// (unknown fields, wrong types, missing required fields), `non_finite`,
/// `invalid_enum` for an unknown shape or mode, `unsupported_version` for a
/// major above 1, `malformed_properties` for bad property values.
pub fn parse_ssk(text: &str) -> Result<Document> {
    document_from_value(&parse_ssk_value(text)?)
}

/// Reads the YAML of a `.ssk` document under the format's YAML rules (no
/// anchors, aliases, tags, directives or duplicate keys) without
/// interpreting it: integers stay integers and numbers keep their f64
/// values. [`Document::from_value`] interprets the tree.
///
/// ```
/// let tree = sskb::parse_ssk_value("pieces: []\nversion: \"1.0\"\n")?;
/// assert_eq!(tree.get("version").and_then(sskb::Value::as_str), Some("1.0"));
/// assert_eq!(sskb::Document::from_value(&tree)?.pieces.len(), 0);
/// # Ok::<(), sskb::Error>(())
/// ```
///
/// # Errors
/// `structure` for YAML the format forbids, with the byte offset.
pub fn parse_ssk_value(text: &str) -> Result<Value> {
    let mut b = Build::default();
    walk(text.as_bytes(), DEFAULT_MAX_YAML_DEPTH + TEXT_DEPTH, &mut b).map_err(|e| {
        let msg = e.message.replace("property blob", "document");
        Error::new(ErrorKind::Structure, format!("YAML: {msg}")).at(e.at as u64)
    })?;
    Ok(b.root.unwrap_or(Value::Null))
}

impl Document {
    /// Interprets a tree (from [`parse_ssk_value`], JSON, or a caller's own
    /// values) under the `.ssk` reader's rules: the same checks, paths and
    /// messages as [`parse_ssk`]. Numbers are rounded to f32.
    ///
    /// # Errors
    /// As [`parse_ssk`].
    pub fn from_value(tree: &Value) -> Result<Document> {
        document_from_value(tree)
    }

    /// The document as the tree [`parse_ssk_value`] gives for its text:
    /// `version`, `pieces` with only the fields that are present,
    /// `properties` when there are root properties (an empty mapping too). Each f32 is widened
    /// to the f64 of the same value (as the Python module gives it); ids,
    /// `from`, `sides` and `affects` are integers; property blobs parsed.
    ///
    /// ```
    /// let doc = sskb::parse_ssk("pieces:\n- id: 0\n  points: [{x: 0.1, y: 0, z: 0}]\n  size: {x: 1, y: 1, z: 1}\n  shape: circle\n")?;
    /// let tree = doc.to_value()?;
    /// assert_eq!(sskb::Document::from_value(&tree)?, doc);
    /// # Ok::<(), sskb::Error>(())
    /// ```
    ///
    /// # Errors
    /// `malformed_properties` when a property blob does not parse.
    pub fn to_value(&self) -> Result<Value> {
        let mut root = vec![(
            "version".to_owned(),
            Value::String(format!("{}.{}", self.version.0, self.version.1)),
        )];
        let pieces = self
            .pieces
            .iter()
            .enumerate()
            .map(|(i, p)| piece_value(p, i))
            .collect::<Result<Vec<_>>>()?;
        root.push(("pieces".to_owned(), Value::Sequence(pieces)));
        if let Some(p) = &self.properties {
            // An empty blob here came from `properties: {}` in text, which
            // the reference keeps; the decoder gives none for an empty blob.
            let v = if p.is_empty() {
                Value::Mapping(Vec::new())
            } else {
                p.parse().map_err(|e| e.path("properties"))?
            };
            root.push(("properties".to_owned(), v));
        }
        Ok(Value::Mapping(root))
    }
}

fn err(kind: ErrorKind, path: &str, message: impl Into<String>) -> Error {
    Error::new(kind, message).path(path)
}

fn structure(path: &str, message: impl Into<String>) -> Error {
    err(ErrorKind::Structure, path, message)
}

fn mapping<'a>(v: &'a Value, path: &str) -> Result<&'a [(String, Value)]> {
    match v {
        Value::Mapping(m) => Ok(m),
        _ => Err(structure(path, format!("`{path}` must be a mapping"))),
    }
}

fn only(m: &[(String, Value)], allowed: &[&str], path: &str) -> Result<()> {
    if let Some((k, _)) = m.iter().find(|(k, _)| !allowed.contains(&k.as_str())) {
        let at = if path.is_empty() { "the root" } else { path };
        return Err(structure(path, format!("unknown field `{k}` in {at}")));
    }
    Ok(())
}

fn get<'a>(m: &'a [(String, Value)], key: &str) -> Option<&'a Value> {
    m.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

fn number(v: &Value, path: &str) -> Result<f32> {
    let f = match v {
        Value::Int(i) => *i as f64,
        Value::Float(f) => *f,
        Value::Bool(_) => {
            return Err(structure(
                path,
                format!("`{path}` is a boolean; booleans are not numbers"),
            ))
        }
        _ => return Err(structure(path, format!("`{path}` must be a number"))),
    };
    let x = f as f32;
    if !x.is_finite() {
        return Err(err(
            ErrorKind::NonFinite,
            path,
            format!("`{path}` ({f}) is not a finite f32"),
        ));
    }
    Ok(x)
}

fn integer(v: &Value, path: &str) -> Result<u32> {
    match v {
        Value::Int(i) => u32::try_from(*i).map_err(|_| {
            structure(
                path,
                format!("`{path}` is {i}; it must be an integer from 0 to {}", u32::MAX),
            )
        }),
        Value::Bool(_) => Err(structure(path, format!("`{path}` is a boolean; it must be an integer"))),
        Value::Float(f) => Err(structure(path, format!("`{path}` is {f}; it must be an integer"))),
        _ => Err(structure(path, format!("`{path}` must be an integer"))),
    }
}

fn vec3(v: &Value, path: &str, nonneg: bool) -> Result<Vec3> {
    let m = mapping(v, path)?;
    only(m, &["x", "y", "z"], path)?;
    let mut c = [0.0f32; 3];
    for (slot, key) in c.iter_mut().zip(["x", "y", "z"]) {
        let p = join(path, key);
        let x = number(
            get(m, key).ok_or_else(|| structure(&p, format!("`{path}` needs `{key}`")))?,
            &p,
        )?;
        if nonneg && x < 0.0 {
            return Err(structure(&p, rules::negative(&p, x)));
        }
        *slot = x;
    }
    Ok(Vec3::new(c[0], c[1], c[2]))
}

fn transition(v: &Value, path: &str) -> Result<Vec2> {
    let m = mapping(v, path)?;
    only(m, &["x", "y"], path)?;
    let px = join(path, "x");
    let py = join(path, "y");
    let x = number(
        get(m, "x").ok_or_else(|| structure(&px, format!("`{path}` needs `x`")))?,
        &px,
    )?;
    let y = number(
        get(m, "y").ok_or_else(|| structure(&py, format!("`{path}` needs `y`")))?,
        &py,
    )?;
    if !(0.0..=1.0).contains(&x) {
        return Err(structure(&px, rules::outside_zero_to_one(&px, x)));
    }
    Ok(Vec2::new(x, y))
}

fn vec3_value(v: Vec3) -> Value {
    let f = |x: f32| Value::Float(f64::from(x));
    Value::Mapping(vec![("x".into(), f(v.x)), ("y".into(), f(v.y)), ("z".into(), f(v.z))])
}

fn vec2_value(v: Vec2) -> Value {
    let f = |x: f32| Value::Float(f64::from(x));
    Value::Mapping(vec![("x".into(), f(v.x)), ("y".into(), f(v.y))])
}

fn point_value(p: &Point) -> Value {
    let f = |x: f32| Value::Float(f64::from(x));
    let mut m = vec![
        ("x".to_owned(), f(p.position.x)),
        ("y".to_owned(), f(p.position.y)),
        ("z".to_owned(), f(p.position.z)),
    ];
    for (k, v) in [
        ("curve_in", p.curve_in),
        ("curve_out", p.curve_out),
        ("size", p.size),
        ("rotation", p.rotation),
    ] {
        if let Some(v) = v {
            m.push((k.to_owned(), vec3_value(v)));
        }
    }
    for (k, v) in [("transition_in", p.transition_in), ("transition_out", p.transition_out)] {
        if let Some(v) = v {
            m.push((k.to_owned(), vec2_value(v)));
        }
    }
    Value::Mapping(m)
}

fn piece_value(p: &Piece, index: usize) -> Result<Value> {
    let int = |i: u32| Value::Int(i64::from(i));
    let mut m = vec![("id".to_owned(), int(p.id))];
    if let Some(f) = p.from {
        m.push(("from".into(), int(f)));
    }
    if let Some(points) = &p.points {
        m.push((
            "points".into(),
            Value::Sequence(points.iter().map(point_value).collect()),
        ));
    }
    if let Some(r) = p.rotation {
        m.push(("rotation".into(), vec3_value(r)));
    }
    if let Some(s) = p.size {
        m.push(("size".into(), vec3_value(s)));
    }
    if let Some(s) = p.shape {
        m.push(("shape".into(), Value::String(s.name().into())));
    }
    if let Some(n) = p.sides {
        m.push(("sides".into(), int(n)));
    }
    if let Some(mode) = p.mode {
        m.push(("mode".into(), Value::String(mode.name().into())));
    }
    if let Some(a) = &p.affects {
        m.push(("affects".into(), Value::Sequence(a.iter().map(|&i| int(i)).collect())));
    }
    if let Some(props) = &p.properties {
        let path = format!("pieces[{index}].properties");
        m.push(("properties".into(), props.parse().map_err(|e| e.path(&path))?));
    }
    Ok(Value::Mapping(m))
}

fn point(v: &Value, path: &str) -> Result<Point> {
    let m = mapping(v, path)?;
    only(
        m,
        &[
            "x",
            "y",
            "z",
            "curve_in",
            "curve_out",
            "size",
            "rotation",
            "transition_in",
            "transition_out",
        ],
        path,
    )?;
    let mut c = [0.0f32; 3];
    for (slot, key) in c.iter_mut().zip(["x", "y", "z"]) {
        let p = join(path, key);
        *slot = number(
            get(m, key).ok_or_else(|| structure(&p, format!("`{path}` needs `{key}`")))?,
            &p,
        )?;
    }
    let v3 = |key: &str, nonneg: bool| get(m, key).map(|v| vec3(v, &join(path, key), nonneg)).transpose();
    let v2 = |key: &str| get(m, key).map(|v| transition(v, &join(path, key))).transpose();
    Ok(Point {
        position: Vec3::new(c[0], c[1], c[2]),
        curve_in: v3("curve_in", false)?,
        curve_out: v3("curve_out", false)?,
        size: v3("size", true)?,
        rotation: v3("rotation", false)?,
        transition_in: v2("transition_in")?,
        transition_out: v2("transition_out")?,
    })
}

fn properties(v: &Value, path: &str) -> Result<Properties> {
    if !matches!(v, Value::Mapping(_)) {
        return Err(err(
            ErrorKind::MalformedProperties,
            path,
            format!("`{path}` must be a mapping"),
        ));
    }
    Properties::from_value(v).map_err(|e| err(ErrorKind::MalformedProperties, path, e.message().to_owned()))
}

fn piece(v: &Value, path: &str) -> Result<Piece> {
    let m = mapping(v, path)?;
    only(m, &Piece::KEYS, path)?;
    let id_path = join(path, "id");
    let id = integer(
        get(m, "id").ok_or_else(|| structure(path, "every piece needs an `id`"))?,
        &id_path,
    )?;
    let with_id = |e: Error| e.piece(id);
    let from = get(m, "from")
        .map(|v| integer(v, &join(path, "from")))
        .transpose()
        .map_err(with_id)?;
    if from.is_none() {
        if let Some(missing) = ["points", "size", "shape"].iter().find(|k| get(m, k).is_none()) {
            return Err(with_id(structure(
                path,
                format!("piece {id} has no `from`, so it needs `{missing}`"),
            )));
        }
    }
    let points = match get(m, "points") {
        None => None,
        Some(Value::Sequence(items)) if !items.is_empty() => {
            let pp = join(path, "points");
            let pts = items.iter().enumerate().map(|(i, p)| point(p, &format!("{pp}[{i}]")));
            Some(pts.collect::<Result<Vec<_>>>().map_err(with_id)?)
        }
        Some(_) => {
            return Err(with_id(structure(
                &join(path, "points"),
                "`points` must be a non-empty list",
            )));
        }
    };
    let name = |key: &str| -> Result<Option<&str>> {
        match get(m, key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(structure(&join(path, key), format!("`{key}` must be a string"))),
        }
    };
    let shape = match name("shape").map_err(with_id)? {
        None => None,
        Some("circle") => Some(Shape::Circle),
        Some("ngon") => Some(Shape::Ngon),
        Some(s) => {
            return Err(with_id(err(
                ErrorKind::InvalidEnum,
                &join(path, "shape"),
                format!("shape `{s}` is not `circle` or `ngon`"),
            )))
        }
    };
    let mode = match name("mode").map_err(with_id)? {
        None => None,
        Some("add") => Some(Mode::Add),
        Some("subtract") => Some(Mode::Subtract),
        Some("intersect") => Some(Mode::Intersect),
        Some(s) => {
            return Err(with_id(err(
                ErrorKind::InvalidEnum,
                &join(path, "mode"),
                format!("mode `{s}` is not `add`, `subtract` or `intersect`"),
            )))
        }
    };
    let sides = get(m, "sides")
        .map(|v| integer(v, &join(path, "sides")))
        .transpose()
        .map_err(with_id)?;
    if let Some(n) = sides.filter(|n| *n < 3) {
        return Err(with_id(structure(&join(path, "sides"), rules::too_few_sides(n))));
    }
    let affects = match get(m, "affects") {
        None => None,
        Some(Value::Sequence(items)) => {
            let ap = join(path, "affects");
            let mut ids = Vec::with_capacity(items.len());
            for (i, v) in items.iter().enumerate() {
                let a = integer(v, &format!("{ap}[{i}]")).map_err(with_id)?;
                if ids.contains(&a) {
                    return Err(with_id(structure(&ap, rules::affects_twice(a))));
                }
                ids.push(a);
            }
            Some(ids)
        }
        Some(_) => return Err(with_id(structure(&join(path, "affects"), "`affects` must be a list"))),
    };
    Ok(Piece {
        id,
        from,
        points,
        rotation: get(m, "rotation")
            .map(|v| vec3(v, &join(path, "rotation"), false))
            .transpose()
            .map_err(with_id)?,
        size: get(m, "size")
            .map(|v| vec3(v, &join(path, "size"), true))
            .transpose()
            .map_err(with_id)?,
        shape,
        sides,
        mode,
        affects,
        properties: get(m, "properties")
            .map(|v| properties(v, &join(path, "properties")))
            .transpose()
            .map_err(with_id)?,
    })
}

/// Interprets a parsed tree (from `.ssk` or JSON) as a document.
pub(crate) fn document_from_value(root: &Value) -> Result<Document> {
    let m = match root {
        Value::Mapping(m) => m,
        _ => return Err(Error::new(ErrorKind::Structure, "the root must be a mapping")),
    };
    only(m, &["version", "pieces", "properties"], "")?;
    let version = match get(m, "version") {
        None => (1, 0),
        Some(Value::String(s)) => parse_version(s)?,
        Some(_) => return Err(structure("version", "`version` must be a string such as \"1.0\"")),
    };
    let pieces = match get(m, "pieces") {
        Some(Value::Sequence(items)) => items
            .iter()
            .enumerate()
            .map(|(i, p)| piece(p, &format!("pieces[{i}]")))
            .collect::<Result<Vec<_>>>()?,
        Some(_) => return Err(structure("pieces", "`pieces` must be a list")),
        None => return Err(Error::new(ErrorKind::Structure, "the root needs `pieces`")),
    };
    let properties = get(m, "properties").map(|v| properties(v, "properties")).transpose()?;
    Ok(Document {
        version,
        pieces,
        properties,
    })
}

/// `"major.minor"`, both decimal; a major above 1 is not supported.
pub(crate) fn parse_version(s: &str) -> Result<(u16, u16)> {
    let bad = || structure("version", format!("version `{s}` is not of the form \"major.minor\""));
    let (a, b) = s.split_once('.').ok_or_else(bad)?;
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit());
    if !digits(a) || !digits(b) {
        return Err(bad());
    }
    let major: u16 = a.parse().map_err(|_| bad())?;
    let minor: u16 = b.parse().map_err(|_| bad())?;
    if major > 1 {
        return Err(err(
            ErrorKind::UnsupportedVersion,
            "version",
            format!("version {s} is not supported: major versions above 1 are unknown"),
        ));
    }
    Ok((major, minor))
}

/// The shortest decimal that reads back as the same f32.
pub(crate) fn f32_text(v: f32) -> String {
    format!("{v:?}")
}

fn v3_text(v: Vec3) -> String {
    format!("{{x: {}, y: {}, z: {}}}", f32_text(v.x), f32_text(v.y), f32_text(v.z))
}

fn v2_text(v: Vec2) -> String {
    format!("{{x: {}, y: {}}}", f32_text(v.x), f32_text(v.y))
}

fn props_text(p: &Properties, path: &str) -> Result<String> {
    let v = p.parse().map_err(|e| e.path(path))?;
    let mut out = String::new();
    emit_flow(&v, &mut out)?;
    Ok(out)
}

/// Writes a document as `.ssk` in the recommended field order (id, from,
/// points, rotation, size, shape, sides, mode, affects, properties; x, y, z,
/// curve_in, curve_out, size, rotation, transition_in, transition_out).
///
/// # Errors
/// `malformed_properties` when a property blob does not parse.
pub fn to_ssk(doc: &Document) -> Result<String> {
    let mut o = String::new();
    let _ = writeln!(o, "version: \"{}.{}\"", doc.version.0, doc.version.1);
    if doc.pieces.is_empty() {
        o.push_str("pieces: []\n");
    } else {
        o.push_str("pieces:\n");
    }
    for (i, p) in doc.pieces.iter().enumerate() {
        let _ = writeln!(o, "  - id: {}", p.id);
        if let Some(f) = p.from {
            let _ = writeln!(o, "    from: {f}");
        }
        if let Some(points) = &p.points {
            o.push_str("    points:\n");
            for pt in points {
                let _ = writeln!(o, "      - x: {}", f32_text(pt.position.x));
                let _ = writeln!(o, "        y: {}", f32_text(pt.position.y));
                let _ = writeln!(o, "        z: {}", f32_text(pt.position.z));
                for (k, v) in [
                    ("curve_in", pt.curve_in),
                    ("curve_out", pt.curve_out),
                    ("size", pt.size),
                    ("rotation", pt.rotation),
                ] {
                    if let Some(v) = v {
                        let _ = writeln!(o, "        {k}: {}", v3_text(v));
                    }
                }
                for (k, v) in [
                    ("transition_in", pt.transition_in),
                    ("transition_out", pt.transition_out),
                ] {
                    if let Some(v) = v {
                        let _ = writeln!(o, "        {k}: {}", v2_text(v));
                    }
                }
            }
        }
        if let Some(r) = p.rotation {
            let _ = writeln!(o, "    rotation: {}", v3_text(r));
        }
        if let Some(s) = p.size {
            let _ = writeln!(o, "    size: {}", v3_text(s));
        }
        if let Some(s) = p.shape {
            let _ = writeln!(o, "    shape: {}", s.name());
        }
        if let Some(n) = p.sides {
            let _ = writeln!(o, "    sides: {n}");
        }
        if let Some(m) = p.mode {
            let _ = writeln!(o, "    mode: {}", m.name());
        }
        if let Some(a) = &p.affects {
            let ids: Vec<String> = a.iter().map(u32::to_string).collect();
            let _ = writeln!(o, "    affects: [{}]", ids.join(", "));
        }
        if let Some(props) = &p.properties {
            let text = props_text(props, &format!("pieces[{i}].properties"))?;
            let _ = writeln!(o, "    properties: {text}");
        }
    }
    if let Some(props) = &doc.properties {
        let text = props_text(props, "properties")?;
        let _ = writeln!(o, "properties: {text}");
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        assert_eq!(parse_version("1.0").unwrap(), (1, 0));
        assert_eq!(parse_version("0.9").unwrap(), (0, 9));
        assert_eq!(parse_version("1.77").unwrap(), (1, 77));
        assert_eq!(parse_version("2.0").unwrap_err().kind(), ErrorKind::UnsupportedVersion);
        for bad in ["1", "1.", ".1", "a.b", "1.0.0", "-1.0", "1.x"] {
            assert_eq!(parse_version(bad).unwrap_err().kind(), ErrorKind::Structure, "{bad}");
        }
    }

    #[test]
    fn rules() {
        let ok = "pieces:\n- id: 0\n  points: [{x: 0, y: 0, z: 0}]\n  size: {x: 1, y: 1, z: 1}\n  shape: circle\n";
        assert_eq!(parse_ssk(ok).unwrap().version, (1, 0));
        let cases = [
            (ok.replace("id: 0", "id: -1"), ErrorKind::Structure, "pieces[0].id"),
            (ok.replace("id: 0", "id: true"), ErrorKind::Structure, "pieces[0].id"),
            (
                ok.replace("x: 0,", "x: 1e39,"),
                ErrorKind::NonFinite,
                "pieces[0].points[0].x",
            ),
            (
                ok.replace("circle", "Circle"),
                ErrorKind::InvalidEnum,
                "pieces[0].shape",
            ),
            (ok.replace("z: 1}", "z: -1}"), ErrorKind::Structure, "pieces[0].size.z"),
            (
                ok.replace("[{x: 0, y: 0, z: 0}]", "[]"),
                ErrorKind::Structure,
                "pieces[0].points",
            ),
            (
                ok.replace("shape: circle", "shape: ngon\n  sides: 2"),
                ErrorKind::Structure,
                "pieces[0].sides",
            ),
            (
                ok.replace("shape: circle", "shape: circle\n  affects: [1, 1]"),
                ErrorKind::Structure,
                "pieces[0].affects",
            ),
            (
                ok.replace("shape: circle", "shape: circle\n  properties: [1]"),
                ErrorKind::MalformedProperties,
                "pieces[0].properties",
            ),
            (
                ok.replace("z: 0}", "z: 0, transition_in: {x: 2, y: 0}}"),
                ErrorKind::Structure,
                "pieces[0].points[0].transition_in.x",
            ),
            (
                ok.replace("z: 0}", "z: 0, w: 0}"),
                ErrorKind::Structure,
                "pieces[0].points[0]",
            ),
        ];
        for (text, kind, path) in cases {
            let e = parse_ssk(&text).unwrap_err();
            assert_eq!((e.kind(), e.field_path()), (kind, Some(path)), "{text}\n{e}");
        }
        assert!(parse_ssk("pieces: []\nextra: 1\n")
            .unwrap_err()
            .message()
            .contains("unknown field `extra`"));
        assert!(
            parse_ssk("pieces:\n- id: 0\n  from: 0\n").is_ok(),
            "an inherited piece may omit anything"
        );
    }

    #[test]
    fn writes_what_it_reads() {
        let text = "version: \"1.3\"\npieces:\n  - id: 0\n    points:\n      - x: 954.615\n        y: 0.0\n        z: -1.5\n        curve_in: {x: 1.0, y: 2.0, z: 3.0}\n        transition_out: {x: 0.25, y: 9.0}\n    size: {x: 1.0, y: 1.0, z: 1.0}\n    shape: ngon\n    sides: 6\n    mode: subtract\n    affects: [1, 2]\n    properties: {\"a\": [1, 2.5, null]}\n  - id: 1\n    from: 0\n    properties: {}\nproperties: {\"name\": \"x\"}\n";
        let doc = parse_ssk(text).unwrap();
        assert_eq!(to_ssk(&doc).unwrap(), text);
    }
}
