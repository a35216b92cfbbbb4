//! Semantic comparison of documents: the reference's
//! `canonical_document`, `document_differences` and `documents_equivalent`
//! (`ssklib` 1.5.0), giving the same differences in the same words.
//!
//! A document is compared by its *canonical form*: validated, inheritance
//! resolved, pieces in id order, every point with its effective `size` and
//! `rotation`, every piece with its `rotation` (zeros when unstated) and
//! `mode` (`add` when unstated), `affects` only where the mode is not
//! `add`, property mappings with their keys sorted. Two canonical forms are
//! compared value by value: numbers (integers and floats alike) by
//! `math.isclose` with the given tolerances, everything else exactly. Each
//! difference is a line such as `$.pieces[0].points[1].x: 1.0 != 1.5`,
//! with values written as Python's `repr` writes them, so that the Python
//! module and the `sskb diff` command say what the reference says.

use crate::error::{Error, ErrorKind, Result};
use crate::model::Document;
use crate::properties::Value;
use crate::resolve::resolve_tree;

/// How [`document_differences`] compares: the reference's defaults are
/// `rel_tol` 1e-6, `abs_tol` 1e-5 and at most 20 differences.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DiffOptions {
    /// Relative tolerance for numbers (`math.isclose`'s `rel_tol`).
    pub rel_tol: f64,
    /// Absolute tolerance for numbers (`math.isclose`'s `abs_tol`).
    pub abs_tol: f64,
    /// Stop after this many differences.
    pub max_diffs: usize,
}

impl Default for DiffOptions {
    fn default() -> Self {
        DiffOptions {
            rel_tol: 1e-6,
            abs_tol: 1e-5,
            max_diffs: 20,
        }
    }
}

fn get<'a>(m: &'a [(String, Value)], key: &str) -> Option<&'a Value> {
    m.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

fn zero_rotation() -> Value {
    Value::Mapping(["x", "y", "z"].map(|k| (k.to_owned(), Value::Float(0.0))).to_vec())
}

/// A vector's components in order, others dropped.
fn vector(v: &Value, names: &[&str]) -> Value {
    let Value::Mapping(m) = v else { return v.clone() };
    Value::Mapping(
        names
            .iter()
            .filter_map(|&k| get(m, k).map(|c| (k.to_owned(), c.clone())))
            .collect(),
    )
}

/// Property values with every mapping's keys sorted.
fn sorted(v: &Value) -> Value {
    match v {
        Value::Mapping(m) => {
            let mut entries: Vec<(String, Value)> = m.iter().map(|(k, v)| (k.clone(), sorted(v))).collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Mapping(entries)
        }
        Value::Sequence(items) => Value::Sequence(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

const XYZ: [&str; 3] = ["x", "y", "z"];

fn canonical_point(point: &Value, size: &Value, rotation: &Value) -> Value {
    let Value::Mapping(m) = point else {
        return point.clone();
    };
    let mut out: Vec<(String, Value)> = XYZ
        .iter()
        .filter_map(|&k| get(m, k).map(|v| (k.to_owned(), v.clone())))
        .collect();
    out.push(("size".into(), vector(get(m, "size").unwrap_or(size), &XYZ)));
    out.push(("rotation".into(), vector(get(m, "rotation").unwrap_or(rotation), &XYZ)));
    for k in ["curve_in", "curve_out"] {
        if let Some(v) = get(m, k) {
            out.push((k.into(), vector(v, &XYZ)));
        }
    }
    for k in ["transition_in", "transition_out"] {
        if let Some(v) = get(m, k) {
            out.push((k.into(), vector(v, &XYZ[..2])));
        }
    }
    Value::Mapping(out)
}

fn canonical_piece(piece: &[(String, Value)]) -> Value {
    let zero = zero_rotation();
    let rotation = vector(get(piece, "rotation").unwrap_or(&zero), &XYZ);
    let size = get(piece, "size").map(|s| vector(s, &XYZ)).unwrap_or(Value::Null);
    let points = match get(piece, "points") {
        Some(Value::Sequence(points)) => points.iter().map(|p| canonical_point(p, &size, &rotation)).collect(),
        _ => Vec::new(),
    };
    let mode = get(piece, "mode")
        .cloned()
        .unwrap_or_else(|| Value::String("add".into()));
    let mut out = vec![
        ("id".to_owned(), get(piece, "id").cloned().unwrap_or(Value::Null)),
        ("points".to_owned(), Value::Sequence(points)),
        ("rotation".to_owned(), rotation),
        ("size".to_owned(), size),
        ("shape".to_owned(), get(piece, "shape").cloned().unwrap_or(Value::Null)),
    ];
    let is_add = matches!(&mode, Value::String(s) if s == "add");
    out.push(("mode".to_owned(), mode));
    if let Some(sides) = get(piece, "sides") {
        out.push(("sides".into(), sides.clone()));
    }
    if !is_add {
        if let Some(a) = get(piece, "affects") {
            out.push(("affects".into(), a.clone()));
        }
    }
    if let Some(p) = get(piece, "properties") {
        out.push(("properties".into(), sorted(p)));
    }
    Value::Mapping(out)
}

fn id_of(piece: &Value) -> i64 {
    match piece.get("id") {
        Some(Value::Int(i)) => *i,
        _ => i64::MAX,
    }
}

/// The canonical form of a document's tree (as [`crate::parse_ssk_value`]
/// or [`Document::to_value`] give it, or a Python dict): validated,
/// resolved and normalized as described in the module's docs, as the
/// reference's `canonical_document` returns it (`pieces`, and `properties`
/// when the document has them).
///
/// # Errors
/// Whatever [`Document::from_value`] or [`crate::validate`] reports: the
/// reference raises for an invalid document too.
pub fn canonical_document(tree: &Value) -> Result<Value> {
    let doc = Document::from_value(tree)?;
    crate::validate(&doc)?;
    let mut resolved = tree.clone();
    resolve_tree(&mut resolved);
    let mut pieces: Vec<&Value> = match resolved.get("pieces") {
        Some(Value::Sequence(p)) => p.iter().collect(),
        _ => Vec::new(),
    };
    pieces.sort_by_key(|p| id_of(p));
    let pieces = pieces
        .into_iter()
        .map(|p| match p {
            Value::Mapping(m) => canonical_piece(m),
            other => other.clone(),
        })
        .collect();
    let mut out = vec![("pieces".to_owned(), Value::Sequence(pieces))];
    if let Some(p) = resolved.get("properties") {
        out.push(("properties".to_owned(), sorted(p)));
    }
    Ok(Value::Mapping(out))
}

/// The semantic differences between two documents' trees, at most
/// `options.max_diffs` of them, in the reference's words; empty when they
/// are equivalent.
///
/// ```
/// let a = sskb::parse_ssk_value("pieces:\n- {id: 0, points: [{x: 0, y: 0, z: 0}], size: {x: 1, y: 1, z: 1}, shape: circle}\n")?;
/// let b = sskb::parse_ssk_value("pieces:\n- {id: 0, points: [{x: 0, y: 0, z: 0.5}], size: {x: 1, y: 1, z: 1}, shape: circle, mode: add}\n")?;
/// let diffs = sskb::document_differences(&a, &b, sskb::DiffOptions::default())?;
/// assert_eq!(diffs, ["$.pieces[0].points[0].z: 0 != 0.5"]);
/// # Ok::<(), sskb::Error>(())
/// ```
///
/// # Errors
/// Either document is invalid ([`canonical_document`]), or a tolerance is
/// negative (`usage`).
pub fn document_differences(left: &Value, right: &Value, options: DiffOptions) -> Result<Vec<String>> {
    check_tolerances(&options)?;
    canonical_differences(&canonical_document(left)?, &canonical_document(right)?, options)
}

fn check_tolerances(o: &DiffOptions) -> Result<()> {
    if o.rel_tol < 0.0 || o.abs_tol < 0.0 {
        return Err(Error::new(ErrorKind::Usage, "tolerances must be non-negative"));
    }
    Ok(())
}

/// The differences between two canonical forms (from
/// [`canonical_document`]), for a caller that made them itself, for
/// example to tell which of two inputs is invalid.
///
/// # Errors
/// A negative tolerance (`usage`).
pub fn canonical_differences(left: &Value, right: &Value, options: DiffOptions) -> Result<Vec<String>> {
    check_tolerances(&options)?;
    let mut out = Vec::new();
    compare(left, right, "$", &mut out, &options);
    Ok(out)
}

/// Whether two documents' trees have no semantic difference.
///
/// # Errors
/// As [`document_differences`].
pub fn documents_equivalent(left: &Value, right: &Value, options: DiffOptions) -> Result<bool> {
    let options = DiffOptions {
        max_diffs: options.max_diffs.min(1),
        ..options
    };
    Ok(document_differences(left, right, options)?.is_empty())
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}

/// Python's `math.isclose`.
fn is_close(a: f64, b: f64, rel_tol: f64, abs_tol: f64) -> bool {
    if a == b {
        return true;
    }
    if a.is_infinite() || b.is_infinite() {
        return false;
    }
    let diff = (b - a).abs();
    diff <= (rel_tol * b).abs() || diff <= (rel_tol * a).abs() || diff <= abs_tol
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Int(_) => "int",
        Value::Float(_) => "float",
        Value::String(_) => "str",
        Value::Sequence(_) => "list",
        Value::Mapping(_) => "dict",
    }
}

fn compare(left: &Value, right: &Value, path: &str, out: &mut Vec<String>, o: &DiffOptions) {
    if out.len() >= o.max_diffs {
        return;
    }
    if let (Some(a), Some(b)) = (number(left), number(right)) {
        if !is_close(a, b, o.rel_tol, o.abs_tol) {
            out.push(format!("{path}: {} != {}", py_repr(left), py_repr(right)));
        }
        return;
    }
    if std::mem::discriminant(left) != std::mem::discriminant(right) {
        out.push(format!("{path}: {} != {}", type_name(left), type_name(right)));
        return;
    }
    match (left, right) {
        (Value::Mapping(l), Value::Mapping(r)) => {
            let mut lk: Vec<&String> = l.iter().map(|(k, _)| k).collect();
            let mut rk: Vec<&String> = r.iter().map(|(k, _)| k).collect();
            lk.sort();
            rk.sort();
            for (keys, other, side) in [(&lk, &rk, "right"), (&rk, &lk, "left")] {
                for k in keys.iter().filter(|k| other.binary_search(k).is_err()) {
                    if out.len() >= o.max_diffs {
                        return;
                    }
                    out.push(format!("{path}.{k}: missing on {side}"));
                }
            }
            for k in lk.iter().filter(|k| rk.binary_search(k).is_ok()) {
                if let (Some(a), Some(b)) = (get(l, k), get(r, k)) {
                    compare(a, b, &format!("{path}.{k}"), out, o);
                }
            }
        }
        (Value::Sequence(l), Value::Sequence(r)) => {
            if l.len() != r.len() {
                out.push(format!("{path}: length {} != {}", l.len(), r.len()));
                return;
            }
            for (i, (a, b)) in l.iter().zip(r).enumerate() {
                compare(a, b, &format!("{path}[{i}]"), out, o);
            }
        }
        _ => {
            if left != right {
                out.push(format!("{path}: {} != {}", py_repr(left), py_repr(right)));
            }
        }
    }
}

/// A scalar as Python's `repr` writes it (`None`, `True`, `3`, `1e-05`,
/// `'text'`); a mapping or sequence as `{...}` or `[...]` of the same.
pub(crate) fn py_repr(v: &Value) -> String {
    match v {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => py_float(*f),
        Value::String(s) => py_str(s),
        Value::Sequence(items) => format!("[{}]", items.iter().map(py_repr).collect::<Vec<_>>().join(", ")),
        Value::Mapping(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, v)| format!("{}: {}", py_str(k), py_repr(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Python's `repr` of a float: the shortest digits that read back as the
/// same value, in exponent form when the decimal exponent is below -4 or
/// 16 and above (`1e-05`, `1.5e+16`), else positional with at least one
/// fractional digit (`100.0`, `0.0001`).
pub(crate) fn py_float(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf" } else { "-inf" }.into();
    }
    // `{:e}` gives the shortest round-trip digits: "-1.2345e-7".
    let e = format!("{:e}", f.abs());
    let (mantissa, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if f.is_sign_negative() { "-" } else { "" };
    let decpt = exp + 1;
    if !(-4 < decpt && decpt <= 16) {
        let (first, rest) = digits.split_at(1);
        let dot = if rest.is_empty() {
            String::new()
        } else {
            format!(".{rest}")
        };
        let esign = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{first}{dot}e{esign}{:02}", exp.abs());
    }
    let n = digits.len() as i32;
    if decpt <= 0 {
        format!("{sign}0.{}{digits}", "0".repeat((-decpt) as usize))
    } else if decpt < n {
        let (a, b) = digits.split_at(decpt as usize);
        format!("{sign}{a}.{b}")
    } else {
        format!("{sign}{digits}{}.0", "0".repeat((decpt - n) as usize))
    }
}

/// Whether Python's `str.isprintable` holds for `c` (the Unicode
/// categories it excludes: controls, format characters, separators other
/// than the space, surrogates, private use; unassigned code points are
/// taken as printable).
fn printable(c: char) -> bool {
    let u = c as u32;
    !(u < 0x20
        || (0x7f..=0xa0).contains(&u)
        || u == 0xad
        || matches!(
            u,
            0x600..=0x605 | 0x61c | 0x6dd | 0x70f | 0x890 | 0x891 | 0x8e2 | 0x180e
        )
        || u == 0x1680
        || (0x2000..=0x200f).contains(&u)
        || (0x2028..=0x202f).contains(&u)
        || (0x205f..=0x2064).contains(&u)
        || (0x2066..=0x206f).contains(&u)
        || u == 0x3000
        || (0xe000..=0xf8ff).contains(&u)
        || u == 0xfeff
        || (0xfff9..=0xfffb).contains(&u)
        || matches!(u, 0x110bd | 0x110cd | 0xe0001)
        || (0x13430..=0x1343f).contains(&u)
        || (0x1bca0..=0x1bca3).contains(&u)
        || (0x1d173..=0x1d17a).contains(&u)
        || (0xe0020..=0xe007f).contains(&u)
        || u >= 0xf0000)
}

/// Python's `repr` of a string.
pub(crate) fn py_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if printable(c) => out.push(c),
            c if (c as u32) < 0x100 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push(quote);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(text: &str) -> Value {
        crate::parse_ssk_value(text).unwrap()
    }

    const BASE: &str = "pieces:\n- {id: 0, points: [{x: 0, y: 0, z: 0}, {x: 1.5, y: 0, z: 0}], size: {x: 1, y: 1, z: 1}, shape: circle}\n";

    #[test]
    fn floats_as_python_writes_them() {
        for (f, s) in [
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1.0, "1.0"),
            (100.0, "100.0"),
            (0.1, "0.1"),
            (1e-5, "1e-05"),
            (1.5e-5, "1.5e-05"),
            (0.0001, "0.0001"),
            (1e16, "1e+16"),
            (1234567890123456.0, "1234567890123456.0"),
            (1.2345e17, "1.2345e+17"),
            (1e100, "1e+100"),
            (-2.5e-300, "-2.5e-300"),
            (954.614990234375, "954.614990234375"),
            (f64::from(0.1f32), "0.10000000149011612"),
            (f64::INFINITY, "inf"),
        ] {
            assert_eq!(py_float(f), s, "{f:e}");
        }
    }

    #[test]
    fn strings_as_python_writes_them() {
        for (v, s) in [
            ("circle", "'circle'"),
            ("it's", "\"it's\""),
            ("both ' and \"", "'both \\' and \"'"),
            ("a\\b\nc\t", "'a\\\\b\\nc\\t'"),
            ("\u{7}\u{85}\u{a0}é", "'\\x07\\x85\\xa0é'"),
            ("\u{2028}\u{e000}\u{10ffff}", "'\\u2028\\ue000\\U0010ffff'"),
            ("日本", "'日本'"),
        ] {
            assert_eq!(py_str(v), s);
        }
    }

    #[test]
    fn equivalent_forms_have_no_difference() {
        // Explicit defaults, another piece order, inheritance spelled out.
        let a = tree("pieces:\n- {id: 1, from: 0, shape: ngon, sides: 5}\n- {id: 0, points: [{x: 0, y: 0, z: 0}], size: {x: 1, y: 1, z: 1}, shape: circle, properties: {b: 1, a: [1, 2]}}\n");
        let b = tree("pieces:\n- {id: 0, points: [{x: 0, y: 0, z: 0, size: {x: 1, y: 1, z: 1}, rotation: {x: 0, y: 0, z: 0}}], rotation: {x: 0, y: 0, z: 0}, size: {x: 1, y: 1, z: 1}, shape: circle, mode: add, properties: {a: [1, 2.0], b: 1}}\n- {id: 1, points: [{x: 0, y: 0, z: 0.000001}], size: {x: 1, y: 1, z: 1}, shape: ngon, sides: 5, properties: {b: 1, a: [1, 2]}}\n");
        assert_eq!(
            document_differences(&a, &b, DiffOptions::default()).unwrap(),
            Vec::<String>::new()
        );
        assert!(documents_equivalent(&a, &b, DiffOptions::default()).unwrap());
    }

    #[test]
    fn differences_in_the_reference_words() {
        let a = tree(BASE);
        let b = tree("pieces:\n- {id: 0, points: [{x: 0, y: 0, z: 0}, {x: 1.5, y: 0, z: 0.25}], size: {x: 1, y: 1, z: 1}, shape: ngon, sides: 4, mode: subtract, affects: [], properties: {k: true}}\n");
        let d = document_differences(&a, &b, DiffOptions::default()).unwrap();
        assert_eq!(
            d,
            [
                "$.pieces[0].affects: missing on left",
                "$.pieces[0].properties: missing on left",
                "$.pieces[0].sides: missing on left",
                "$.pieces[0].mode: 'add' != 'subtract'",
                "$.pieces[0].points[1].z: 0 != 0.25",
                "$.pieces[0].shape: 'circle' != 'ngon'",
            ]
        );
        let two = tree(&format!("{BASE}- {{id: 1, from: 0}}\n"));
        assert_eq!(
            document_differences(&a, &two, DiffOptions::default()).unwrap(),
            ["$.pieces: length 1 != 2"]
        );
        let limited = DiffOptions {
            max_diffs: 2,
            ..DiffOptions::default()
        };
        assert_eq!(document_differences(&a, &b, limited).unwrap().len(), 2);
    }

    #[test]
    fn types_and_tolerances() {
        let a = tree("pieces:\n- {id: 0, points: [{x: 0, y: 0, z: 0}], size: {x: 1, y: 1, z: 1}, shape: circle, properties: {a: 1, b: x, c: 2.0}}\n");
        let b = tree("pieces:\n- {id: 0, points: [{x: 0, y: 0, z: 0.00002}], size: {x: 1, y: 1, z: 1}, shape: circle, properties: {a: true, b: 3, c: 2}}\n");
        let d = document_differences(&a, &b, DiffOptions::default()).unwrap();
        assert_eq!(
            d,
            [
                "$.pieces[0].points[0].z: 0 != 2e-05",
                "$.pieces[0].properties.a: int != bool",
                "$.pieces[0].properties.b: str != int",
            ]
        );
        let loose = DiffOptions {
            abs_tol: 1e-4,
            ..DiffOptions::default()
        };
        assert_eq!(document_differences(&a, &b, loose).unwrap().len(), 2);
        let negative = DiffOptions {
            rel_tol: -1.0,
            ..DiffOptions::default()
        };
        assert_eq!(
            document_differences(&a, &b, negative).unwrap_err().kind(),
            ErrorKind::Usage
        );
    }

    #[test]
    fn an_invalid_document_is_an_error() {
        let bad = tree("pieces:\n- {id: 1, points: [{x: 0, y: 0, z: 0}], size: {x: 1, y: 1, z: 1}, shape: circle}\n");
        assert!(canonical_document(&bad).is_err());
        assert!(document_differences(&tree(BASE), &bad, DiffOptions::default()).is_err());
    }

    #[test]
    fn binary_and_text_trees_compare_alike() {
        let text = tree(BASE);
        let doc = Document::from_value(&text).unwrap();
        let bin = crate::decode_slice(&crate::encode(&doc).unwrap())
            .unwrap()
            .to_value()
            .unwrap();
        assert!(documents_equivalent(&text, &bin, DiffOptions::default()).unwrap());
    }
}
