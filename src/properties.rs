//! Property blobs: raw bytes kept as a zero-copy [`Bytes`] slice of the
//! input, parsed on request into a [`Value`] under the format's strict YAML
//! rules.
//!
//! A non-empty blob must be UTF-8 YAML 1.2 whose root is a mapping with
//! string keys at every depth; values are null, bool, finite number, string,
//! sequence or mapping. Rejected: anchors, aliases, tags (`!!str`, `!x`),
//! `%YAML`/`%TAG` directives (also after a byte order mark), duplicate keys,
//! `.nan`/`.inf` and numbers that overflow f64, more than one document,
//! syntax errors, and nesting deeper than
//! [`Limits::max_yaml_depth`](crate::Limits).
//!
//! YAML 1.2's rules are kept where the parser underneath is lenient: only
//! printable characters may stand in a blob (tab, LF, CR, U+0020–U+007E,
//! U+0085, U+00A0–U+D7FF, U+E000–U+FFFD, U+10000 up; escapes inside double
//! quotes are fine), a byte order mark only at its very start; a block
//! scalar whose last line ends the blob gets no line break the blob does
//! not have; `|`, `>` and the other indicators cannot start a plain scalar,
//! nor can `?`, `:`, `-` without a safe character after them (so `{a: |}`
//! and `{a: ?}` are syntax errors, and `[?]` is a pair with a null key).
//! Every error names the line and column as well as the byte offset.
//!
//! Plain scalars are resolved by the YAML 1.2 core schema: `null`, `Null`,
//! `NULL`, `~` and the empty scalar are null; `true`/`True`/`TRUE` and the
//! `false` forms are booleans; `[-+]?[0-9]+`, `0o[0-7]+` and `0x[0-9a-fA-F]+`
//! are integers (kept as [`Value::Float`] when they do not fit an `i64`);
//! `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?` are floats.
//! Everything else, including YAML 1.1's `yes`, `on`, `1_000` and dates, is a
//! string. Quoted and block scalars are always strings.
//!
//! The checker walks the parser's events with an explicit stack, so a hostile
//! blob cannot overflow the call stack, and stops at the first alias, so an
//! alias bomb costs nothing.

use std::collections::HashSet;
use std::fmt;

use bytes::Bytes;
use saphyr_parser::{Event, Parser, ScalarStyle, ScanError};

use crate::error::{Error, ErrorKind, Result};

mod simple;

/// The default for [`Limits::max_yaml_depth`](crate::Limits).
pub const DEFAULT_MAX_YAML_DEPTH: usize = 128;
/// The largest accepted [`Limits::max_yaml_depth`](crate::Limits): deeper
/// values would make dropping a [`Value`] tree recurse too deeply.
pub const MAX_YAML_DEPTH_CAP: usize = 1024;

/// A property blob as stored in the file.
///
/// The bytes are kept exactly (a slice of the decoder's input when it came
/// from a `Bytes`/`BytesMut` buffer) and parsed only by [`Properties::parse`].
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Properties {
    raw: Bytes,
}

impl fmt::Debug for Properties {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match std::str::from_utf8(&self.raw) {
            Ok(s) => f.debug_tuple("Properties").field(&s).finish(),
            Err(_) => f.debug_tuple("Properties").field(&self.raw).finish(),
        }
    }
}

impl Properties {
    /// Wraps raw blob bytes without checking them.
    pub fn from_raw(raw: impl Into<Bytes>) -> Properties {
        Properties { raw: raw.into() }
    }

    /// An empty blob (for an inherited piece: explicitly no properties).
    pub fn empty() -> Properties {
        Properties::default()
    }

    /// The stored bytes.
    pub fn raw(&self) -> &Bytes {
        &self.raw
    }

    /// Whether the blob is empty.
    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }

    /// Parses the blob with the default depth limit. An empty blob is an
    /// empty mapping.
    ///
    /// # Errors
    /// [`ErrorKind::MalformedProperties`] when the blob breaks a rule of the
    /// module docs; the offset is the byte within the blob.
    pub fn parse(&self) -> Result<Value> {
        self.parse_with_depth(DEFAULT_MAX_YAML_DEPTH)
    }

    /// [`Properties::parse`] with an explicit nesting limit (capped at
    /// [`MAX_YAML_DEPTH_CAP`]).
    ///
    /// # Errors
    /// As [`Properties::parse`].
    pub fn parse_with_depth(&self, max_depth: usize) -> Result<Value> {
        if self.raw.is_empty() {
            return Ok(Value::Mapping(Vec::new()));
        }
        let mut b = Build::default();
        walk(&self.raw, max_depth, &mut b).map_err(|e| e.into_error(0))?;
        Ok(b.root.unwrap_or_else(|| Value::Mapping(Vec::new())))
    }

    /// Serializes a value built in code: a mapping becomes block-style YAML
    /// with flow-style nested values and double-quoted strings, which the
    /// strict checker accepts and parses back to the same value. An empty
    /// mapping gives an empty blob.
    ///
    /// ```
    /// use sskb::{Properties, Value};
    /// let v = Value::Mapping(vec![("name".into(), Value::String("cube: \"A\"".into()))]);
    /// let p = Properties::from_value(&v)?;
    /// assert_eq!(p.parse()?, v);
    /// # Ok::<(), sskb::Error>(())
    /// ```
    ///
    /// # Errors
    /// `malformed_properties` when the root is not a mapping, a float is not
    /// finite, a mapping repeats a key, or nesting exceeds
    /// [`DEFAULT_MAX_YAML_DEPTH`] (what a default decoder accepts).
    pub fn from_value(value: &Value) -> Result<Properties> {
        let Value::Mapping(entries) = value else {
            return Err(Error::new(
                ErrorKind::MalformedProperties,
                "properties must be a mapping",
            ));
        };
        let mut out = String::new();
        let mut keys = HashSet::new();
        for (k, v) in entries {
            if !keys.insert(k.as_str()) {
                return Err(Error::new(
                    ErrorKind::MalformedProperties,
                    format!("duplicate key `{k}`"),
                ));
            }
            emit_key(k, &mut out, false);
            emit_flow(v, &mut out)?;
            out.push('\n');
        }
        Ok(Properties::from_raw(out.into_bytes()))
    }

    /// Checks the blob under the rules without building a value.
    pub(crate) fn check(&self, max_depth: usize) -> std::result::Result<(), PropError> {
        if self.raw.is_empty() || simple::is_valid_simple_mapping(&self.raw, max_depth) {
            return Ok(());
        }
        walk(&self.raw, max_depth, &mut Check)
    }
}

/// A parsed property value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `null`, `~` or empty.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// An integer that fits an `i64`.
    Int(i64),
    /// A finite float.
    Float(f64),
    /// A string.
    String(String),
    /// A sequence.
    Sequence(Vec<Value>),
    /// A mapping with string keys, in file order.
    Mapping(Vec<(String, Value)>),
}

impl Value {
    /// For a mapping, the value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Mapping(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, for a string value.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
}

/// A property error before the blob's place in the file is known.
#[derive(Debug, Clone)]
pub(crate) struct PropError {
    /// Byte offset within the blob.
    pub at: usize,
    pub message: String,
}

impl PropError {
    /// The public error, with `base` added to the in-blob offset.
    pub fn into_error(self, base: u64) -> Error {
        Error::new(ErrorKind::MalformedProperties, self.message).at(base + self.at as u64)
    }
}

/// What the walk does with the values it meets: build a tree or only check.
pub(crate) trait Sink {
    fn scalar(&mut self, v: Value);
    fn open(&mut self, mapping: bool);
    fn close(&mut self);
}

/// Builds a [`Value`] tree on an explicit stack.
#[derive(Default)]
pub(crate) struct Build {
    stack: Vec<(Option<String>, Value)>,
    key: Option<String>,
    pub(crate) root: Option<Value>,
}

impl Build {
    fn attach(&mut self, v: Value) {
        match self.stack.last_mut() {
            None => self.root = Some(v),
            Some((_, Value::Sequence(items))) => items.push(v),
            Some((_, Value::Mapping(entries))) => {
                let k = self.key.take().unwrap_or_default();
                entries.push((k, v));
            }
            Some(_) => {}
        }
    }
}

impl Sink for Build {
    fn scalar(&mut self, v: Value) {
        if let (Some((_, Value::Mapping(_))), None) = (self.stack.last(), &self.key) {
            // A key: the walk has already checked that it is a string.
            if let Value::String(k) = v {
                self.key = Some(k);
            }
            return;
        }
        self.attach(v);
    }
    fn open(&mut self, mapping: bool) {
        let v = if mapping {
            Value::Mapping(Vec::new())
        } else {
            Value::Sequence(Vec::new())
        };
        self.stack.push((self.key.take(), v));
    }
    fn close(&mut self) {
        if let Some((key, v)) = self.stack.pop() {
            self.key = key;
            self.attach(v);
        }
    }
}

/// Checks without building: the walk itself tracks keys.
#[derive(Default)]
struct Check;

impl Sink for Check {
    fn scalar(&mut self, _: Value) {}
    fn open(&mut self, _: bool) {}
    fn close(&mut self) {}
}

/// One open collection during the walk.
enum Level {
    Seq,
    /// Keys seen so far and whether the next scalar is a key.
    Map {
        keys: HashSet<String>,
        want_key: bool,
    },
}

pub(crate) fn walk(raw: &[u8], max_depth: usize, sink: &mut impl Sink) -> std::result::Result<(), PropError> {
    let max_depth = max_depth.min(MAX_YAML_DEPTH_CAP);
    let text = std::str::from_utf8(raw).map_err(|e| PropError {
        at: e.valid_up_to(),
        message: format!("property blob is not valid UTF-8 (byte {})", e.valid_up_to()),
    })?;
    check_characters(text)?;
    let char_to_byte = |idx: usize| text.char_indices().nth(idx).map_or(text.len(), |(b, _)| b);
    let fail = |idx: usize, message: String| PropError {
        at: char_to_byte(idx),
        message,
    };
    let mut source = Source::new(text);
    // Whether the blob ends in a line break, and its length in characters
    // (counted only when a block scalar may end at the end of input).
    let ends_in_break = text.ends_with(['\n', '\r']);
    let mut total_chars: Option<usize> = None;
    let mut parser = Parser::new_from_str(text);
    let mut stack: Vec<Level> = Vec::new();
    // For each open collection: whether it is a flow collection.
    let mut flow: Vec<bool> = Vec::new();
    let mut documents = 0usize;
    let mut root_is_mapping = false;
    while let Some(next) = parser.next_event() {
        let (event, span) = next.map_err(|e: ScanError| {
            fail(
                e.marker().index(),
                format!(
                    "YAML syntax error at line {} column {}: {}",
                    e.marker().line(),
                    e.marker().col() + 1,
                    e.info()
                ),
            )
        })?;
        let at = span.start.index();
        let where_ = || format!("line {} column {}", span.start.line(), span.start.col() + 1);
        match event {
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => {}
            Event::DocumentStart(explicit) => {
                documents += 1;
                if documents > 1 {
                    return Err(fail(
                        at,
                        format!("more than one YAML document (the second starts at {})", where_()),
                    ));
                }
                if explicit {
                    // Before the first `---` only comments, blank lines and
                    // directives can stand; a directive starts with `%`.
                    // A byte order mark may stand before the first one.
                    let before = span.start.line().saturating_sub(1);
                    let directive = |l: &str| l.trim_start_matches('\u{feff}').starts_with('%');
                    if let Some((n, _)) = text.lines().take(before).enumerate().find(|(_, l)| directive(l)) {
                        let byte = text.lines().take(n).map(|l| l.len() + 1).sum::<usize>();
                        return Err(PropError {
                            at: byte.min(text.len()),
                            message: format!("YAML directives (%YAML, %TAG) are not allowed (line {})", n + 1),
                        });
                    }
                }
            }
            Event::Alias(_) => return Err(fail(at, format!("aliases are not allowed ({})", where_()))),
            Event::Scalar(mut value, style, anchor, tag) => {
                if anchor != 0 {
                    return Err(fail(at, format!("anchors are not allowed ({})", where_())));
                }
                if tag.is_some() {
                    return Err(fail(at, format!("tags are not allowed ({})", where_())));
                }
                // An empty plain scalar (a missing key or value) has no
                // first character: its position is the next token's.
                if style == ScalarStyle::Plain && !value.is_empty() {
                    let in_flow = flow.last().copied().unwrap_or(false);
                    let start = source.at(at);
                    // In a flow sequence, `?` with nothing after it is an
                    // explicit key: a pair whose key is null.
                    let null_key = in_flow
                        && matches!(stack.last(), Some(Level::Seq))
                        && matches!(start, Some(('?', Some(',' | ']' | ' ' | '\t' | '\n' | '\r'))));
                    if null_key {
                        return Err(fail(
                            at,
                            format!(
                                "mapping keys must be strings, found a null explicit key `?` ({})",
                                where_()
                            ),
                        ));
                    }
                    if let Some(m) = plain_start_problem(start, in_flow) {
                        return Err(fail(at, format!("YAML syntax error at {}: {m}", where_())));
                    }
                }
                // A block scalar whose last line ends the blob without a
                // line break: the parser adds the break YAML 1.2 does not
                // (b-chomped-last is the end of input there).
                if matches!(style, ScalarStyle::Literal | ScalarStyle::Folded)
                    && !ends_in_break
                    && value.ends_with('\n')
                    && span.end.index() >= *total_chars.get_or_insert_with(|| text.chars().count())
                {
                    value.to_mut().pop();
                }
                let v = resolve_scalar(&value, style).map_err(|m| fail(at, format!("{m} ({})", where_())))?;
                match stack.last_mut() {
                    None => {
                        return Err(fail(
                            at,
                            format!(
                                "the root of a property blob must be a mapping, not a scalar ({})",
                                where_()
                            ),
                        ));
                    }
                    Some(Level::Map { keys, want_key }) if *want_key => {
                        let Value::String(k) = &v else {
                            return Err(fail(
                                at,
                                format!("mapping keys must be strings, found `{value}` ({})", where_()),
                            ));
                        };
                        if !keys.insert(k.clone()) {
                            return Err(fail(at, format!("duplicate key `{k}` ({})", where_())));
                        }
                        *want_key = false;
                    }
                    Some(Level::Map { want_key, .. }) => *want_key = true,
                    Some(Level::Seq) => {}
                }
                sink.scalar(v);
            }
            Event::SequenceStart(anchor, ref tag) | Event::MappingStart(anchor, ref tag) => {
                let mapping = matches!(event, Event::MappingStart(..));
                if anchor != 0 {
                    return Err(fail(at, format!("anchors are not allowed ({})", where_())));
                }
                if tag.is_some() {
                    return Err(fail(at, format!("tags are not allowed ({})", where_())));
                }
                match stack.last_mut() {
                    None if !mapping => {
                        return Err(fail(
                            at,
                            format!(
                                "the root of a property blob must be a mapping, not a sequence ({})",
                                where_()
                            ),
                        ));
                    }
                    None => root_is_mapping = true,
                    Some(Level::Map { want_key: true, .. }) => {
                        return Err(fail(
                            at,
                            format!("mapping keys must be strings, found a collection ({})", where_()),
                        ));
                    }
                    Some(Level::Map { want_key, .. }) => *want_key = true,
                    Some(Level::Seq) => {}
                }
                if stack.len() >= max_depth {
                    return Err(fail(
                        at,
                        format!("nesting deeper than {max_depth} levels ({})", where_()),
                    ));
                }
                stack.push(if mapping {
                    Level::Map {
                        keys: HashSet::new(),
                        want_key: true,
                    }
                } else {
                    Level::Seq
                });
                // Flow context is inherited: a pair inside `[...]` (which
                // starts at its `?` or key) is in flow context too.
                let in_flow = flow.last().copied().unwrap_or(false);
                flow.push(in_flow || matches!(source.at(at), Some(('{' | '[', _))));
                sink.open(mapping);
            }
            Event::SequenceEnd | Event::MappingEnd => {
                stack.pop();
                flow.pop();
                sink.close();
            }
        }
    }
    if !root_is_mapping {
        return Err(PropError {
            at: 0,
            message: "a non-empty property blob must hold a YAML mapping, and this one holds no document".into(),
        });
    }
    Ok(())
}

/// Only printable characters may stand in a YAML stream: tab, line feed,
/// carriage return, U+0020–U+007E, U+0085, U+00A0–U+D7FF, U+E000–U+FFFD and
/// U+10000 up (escapes inside double quotes are another matter). A byte
/// order mark may only start the blob.
fn check_characters(text: &str) -> std::result::Result<(), PropError> {
    let printable = |c: char| {
        matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}')
            || c >= '\u{10000}'
    };
    // Printable ASCII (and tab and line breaks) needs no closer look.
    if text.bytes().all(|b| matches!(b, b'\t' | b'\n' | b'\r' | b' '..=b'~')) {
        return Ok(());
    }
    let (mut line, mut column) = (1usize, 1usize);
    let mut after_cr = false;
    for (at, c) in text.char_indices() {
        let what = if c == '\u{FEFF}' && at > 0 {
            Some(("byte order mark", "a byte order mark may only start the text"))
        } else if matches!(c, '\u{FFFE}' | '\u{FFFF}') {
            Some(("non-character", "YAML allows only printable characters"))
        } else if !printable(c) {
            Some(("control character", "YAML allows only printable characters"))
        } else {
            None
        };
        if let Some((what, why)) = what {
            return Err(PropError {
                at,
                message: format!("{what} U+{:04X} at line {line} column {column}; {why}", u32::from(c)),
            });
        }
        match c {
            '\n' if after_cr => {}
            '\n' | '\r' => {
                line += 1;
                column = 1;
            }
            _ => column += 1,
        }
        after_cr = c == '\r';
    }
    Ok(())
}

/// The characters at parser positions (character indices), read forward
/// with a cursor, so that looking at every event costs one pass.
struct Source<'a> {
    text: &'a str,
    ascii: bool,
    /// The cursor: a character index and its byte offset.
    index: usize,
    byte: usize,
}

impl<'a> Source<'a> {
    fn new(text: &'a str) -> Source<'a> {
        Source {
            text,
            ascii: text.is_ascii(),
            index: 0,
            byte: 0,
        }
    }

    /// The character at character index `idx` and the one after it.
    fn at(&mut self, idx: usize) -> Option<(char, Option<char>)> {
        let byte = if self.ascii {
            idx
        } else {
            if idx < self.index {
                (self.index, self.byte) = (0, 0);
            }
            let (skip, b) = self.text[self.byte..]
                .char_indices()
                .nth(idx - self.index)
                .map_or((idx - self.index, self.text.len()), |(b, _)| {
                    (idx - self.index, self.byte + b)
                });
            self.index += skip;
            self.byte = b;
            b
        };
        let mut rest = self.text.get(byte..)?.chars();
        let c = rest.next()?;
        Some((c, rest.next()))
    }
}

/// Why a plain scalar may not start as it does (YAML 1.2 ns-plain-first):
/// an indicator character cannot start one, and `?`, `:` and `-` only when
/// a "safe" character follows (any non-space character; in a flow
/// collection, not `,[]{}` either).
fn plain_start_problem(start: Option<(char, Option<char>)>, in_flow: bool) -> Option<String> {
    let (c, next) = start?;
    match c {
        '|' | '>' | '!' | '&' | '*' | '%' | '@' | '`' | '\'' | '"' | '#' | ',' | '[' | ']' | '{' | '}' => {
            Some(format!("`{c}` is an indicator and cannot start a plain scalar"))
        }
        '?' | ':' | '-' => {
            let space = |n: char| matches!(n, ' ' | '\t' | '\n' | '\r' | '\u{FEFF}');
            let flow_indicator = |n: char| matches!(n, ',' | '[' | ']' | '{' | '}');
            let safe = next.is_some_and(|n| !(space(n) || in_flow && flow_indicator(n)));
            (!safe).then(|| match next {
                Some(n) if !n.is_whitespace() => format!("`{c}` followed by `{n}` cannot start a plain scalar here"),
                _ => format!("`{c}` alone cannot be a plain scalar here"),
            })
        }
        _ => None,
    }
}

/// A YAML double-quoted string (JSON escapes are valid YAML escapes).
pub(crate) fn quote(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            // Escaped: what YAML does not allow raw (controls, C1,
            // U+FFFE/U+FFFF), a byte order mark, and line separators.
            c if (c as u32) < 0x20
                || ('\u{7f}'..='\u{9f}').contains(&c)
                || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}') =>
            {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Longest implicit (`key: value`) key YAML allows, in characters.
const IMPLICIT_KEY_MAX: usize = 1024;

/// Emits a mapping key and its `:`: an implicit key when short enough, else
/// an explicit `? key` entry.
fn emit_key(k: &str, out: &mut String, flow: bool) {
    let start = out.len();
    quote(k, out);
    if out[start..].chars().count() < IMPLICIT_KEY_MAX - 2 {
        out.push_str(": ");
        return;
    }
    out.insert_str(start, "? ");
    out.push_str(if flow { " : " } else { "\n: " });
}

/// Emits `v` in flow style, without recursion.
pub(crate) fn emit_flow(v: &Value, out: &mut String) -> Result<()> {
    enum Todo<'a> {
        Value(&'a Value, usize),
        Text(&'static str),
        Key(&'a str),
    }
    // The root mapping is level 1; its values' collections are level 2.
    let mut todo = vec![Todo::Value(v, 2)];
    while let Some(t) = todo.pop() {
        match t {
            Todo::Text(s) => out.push_str(s),
            Todo::Key(k) => emit_key(k, out, true),
            Todo::Value(v, depth) => match v {
                Value::Null => out.push_str("null"),
                Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
                Value::Int(i) => out.push_str(&i.to_string()),
                Value::Float(f) if f.is_finite() => {
                    // `{:?}` always shows a `.` or an exponent, so it reads back as a float.
                    out.push_str(&format!("{f:?}"));
                }
                Value::Float(f) => {
                    return Err(Error::new(
                        ErrorKind::MalformedProperties,
                        format!("non-finite number {f}"),
                    ));
                }
                Value::String(s) => quote(s, out),
                Value::Sequence(_) | Value::Mapping(_) if depth > DEFAULT_MAX_YAML_DEPTH => {
                    return Err(Error::new(
                        ErrorKind::MalformedProperties,
                        format!("nesting deeper than {DEFAULT_MAX_YAML_DEPTH} levels"),
                    ));
                }
                Value::Sequence(items) => {
                    out.push('[');
                    todo.push(Todo::Text("]"));
                    for (i, item) in items.iter().enumerate().rev() {
                        todo.push(Todo::Value(item, depth + 1));
                        if i > 0 {
                            todo.push(Todo::Text(", "));
                        }
                    }
                }
                Value::Mapping(entries) => {
                    let mut keys = HashSet::new();
                    if let Some((k, _)) = entries.iter().find(|(k, _)| !keys.insert(k.as_str())) {
                        return Err(Error::new(
                            ErrorKind::MalformedProperties,
                            format!("duplicate key `{k}`"),
                        ));
                    }
                    out.push('{');
                    todo.push(Todo::Text("}"));
                    for (i, (k, item)) in entries.iter().enumerate().rev() {
                        todo.push(Todo::Value(item, depth + 1));
                        todo.push(Todo::Key(k));
                        if i > 0 {
                            todo.push(Todo::Text(", "));
                        }
                    }
                }
            },
        }
    }
    Ok(())
}

/// Resolves one scalar by the YAML 1.2 core schema (plain scalars only).
fn resolve_scalar(s: &str, style: ScalarStyle) -> std::result::Result<Value, String> {
    if style != ScalarStyle::Plain {
        return Ok(Value::String(s.to_owned()));
    }
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Ok(Value::Null),
        "true" | "True" | "TRUE" => return Ok(Value::Bool(true)),
        "false" | "False" | "FALSE" => return Ok(Value::Bool(false)),
        _ => {}
    }
    let unsigned = s.strip_prefix(['-', '+']).unwrap_or(s);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF")
        || (unsigned.len() == s.len() && matches!(s, ".nan" | ".NaN" | ".NAN"))
    {
        return Err(format!("non-finite number `{s}`"));
    }
    // Integers that do not fit an i64 become the nearest f64.
    let int = |digits: &str, radix: u32| -> Value {
        i64::from_str_radix(digits, radix).map_or_else(
            |_| Value::Float(u128::from_str_radix(digits, radix).map_or(f64::INFINITY, |v| v as f64)),
            Value::Int,
        )
    };
    if let Some(oct) = s.strip_prefix("0o") {
        if !oct.is_empty() && oct.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
            return finite(int(oct, 8), s);
        }
    }
    if let Some(hex) = s.strip_prefix("0x") {
        if !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return finite(int(hex, 16), s);
        }
    }
    if !unsigned.is_empty() && unsigned.bytes().all(|b| b.is_ascii_digit()) {
        let v = s
            .parse::<i64>()
            .map_or_else(|_| Value::Float(s.parse::<f64>().unwrap_or(f64::INFINITY)), Value::Int);
        return finite(v, s);
    }
    if is_core_float(unsigned) {
        let f: f64 = s.parse().map_err(|_| format!("unreadable number `{s}`"))?;
        return finite(Value::Float(f), s);
    }
    Ok(Value::String(s.to_owned()))
}

fn finite(v: Value, s: &str) -> std::result::Result<Value, String> {
    match v {
        Value::Float(f) if !f.is_finite() => Err(format!("number `{s}` is out of range (not finite)")),
        v => Ok(v),
    }
}

/// `(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?` (sign already removed).
fn is_core_float(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |mut i: usize| {
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        (i, i - start)
    };
    let (mut i, int_digits) = digits(0);
    if i < b.len() && b[i] == b'.' {
        let (j, frac) = digits(i + 1);
        if int_digits == 0 && frac == 0 {
            return false;
        }
        i = j;
    } else if int_digits == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        let (k, exp) = digits(j);
        if exp == 0 {
            return false;
        }
        i = k;
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Value> {
        Properties::from_raw(s.as_bytes().to_vec()).parse()
    }

    fn err(s: &str) -> String {
        let e = parse(s).expect_err(s);
        assert_eq!(e.kind(), ErrorKind::MalformedProperties);
        e.message().to_owned()
    }

    #[test]
    fn scalars_follow_the_core_schema() {
        let v = parse("a: ~\nb: True\nc: -12\nd: .5\ne: 0x1F\nf: 0o17\ng: yes\nh: 1_000\ni: '1'\nj: 1e3\nk: 2.\nl: 99999999999999999999\nm: -9223372036854775808\n").unwrap();
        let want = [
            ("a", Value::Null),
            ("b", Value::Bool(true)),
            ("c", Value::Int(-12)),
            ("d", Value::Float(0.5)),
            ("e", Value::Int(31)),
            ("f", Value::Int(15)),
            ("g", Value::String("yes".into())),
            ("h", Value::String("1_000".into())),
            ("i", Value::String("1".into())),
            ("j", Value::Float(1000.0)),
            ("k", Value::Float(2.0)),
            ("l", Value::Float(1e20)),
            ("m", Value::Int(i64::MIN)),
        ];
        for (k, w) in want {
            assert_eq!(v.get(k), Some(&w), "{k}");
        }
    }

    #[test]
    fn nested_values_keep_order() {
        let v = parse("z: 1\na: {b: [1, 2.5, null, true, x], c: {}}\n").unwrap();
        let Value::Mapping(m) = &v else { panic!() };
        assert_eq!(m[0].0, "z");
        assert_eq!(
            m[1].1,
            Value::Mapping(vec![
                (
                    "b".into(),
                    Value::Sequence(vec![
                        Value::Int(1),
                        Value::Float(2.5),
                        Value::Null,
                        Value::Bool(true),
                        Value::String("x".into())
                    ])
                ),
                ("c".into(), Value::Mapping(vec![])),
            ])
        );
    }

    #[test]
    fn every_forbidden_form_is_rejected() {
        assert!(err("a: &x 1\nb: *x\n").contains("anchor"));
        assert!(err("a: [*x]\n").contains("alias") || err("a: [*x]\n").contains("syntax"));
        assert!(err("a: !!str 1\n").contains("tag"));
        assert!(err("a: !x 1\n").contains("tag"));
        assert!(err("%YAML 1.2\n---\na: 1\n").contains("directive"));
        assert!(err("%TAG !e! tag:x,2000:\n---\na: 1\n").contains("directive"));
        assert!(err("a: 1\na: 2\n").contains("duplicate"));
        assert!(err("a: {b: 1, b: 2}\n").contains("duplicate"));
        assert!(err("1: a\n").contains("keys must be strings"));
        assert!(err("a: {null: 1}\n").contains("keys must be strings"));
        assert!(err("? [a]\n: 1\n").contains("keys must be strings"));
        assert!(err("a: .nan\n").contains("non-finite"));
        assert!(err("a: -.inf\n").contains("non-finite"));
        assert!(err("a: 1e999\n").contains("not finite"));
        assert!(err("a: 1\n---\nb: 2\n").contains("more than one"));
        assert!(err("- a\n").contains("mapping"));
        assert!(err("42\n").contains("mapping"));
        assert!(err("null\n").contains("mapping"));
        assert!(err("  \n").contains("no document"));
        assert!(err("a: [1\n").contains("syntax"));
        assert!(err("a:\n\tb: 1\n").contains("syntax"));
        let bad_utf8 = Properties::from_raw(vec![b'a', b':', b' ', 0xff]).parse().unwrap_err();
        assert_eq!(bad_utf8.offset(), Some(3));
    }

    #[test]
    fn markers_are_fine() {
        assert!(parse("---\na: 1\n").is_ok());
        assert!(parse("a: 1\n...\n").is_ok());
        assert!(parse("# c\na: 1 # d\n").is_ok());
        assert!(parse("a: '%x'\n").is_ok());
        assert_eq!(parse("").unwrap(), Value::Mapping(vec![]));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let n = 100_000;
        let flow = format!("a: {}{}", "[".repeat(n), "]".repeat(n));
        assert!(parse(&flow).is_err());
        let flow_map = format!("a: {}{}", "{a: ".repeat(n), "}".repeat(n));
        assert!(err(&flow_map).contains("nesting"));
        let mut block = String::new();
        for i in 0..n {
            block.push_str(&" ".repeat(i % 4096));
            block.push_str("a:\n");
            if i % 4096 == 4095 {
                break;
            }
        }
        assert!(err(&block).contains("nesting"));
        // Exactly at the limit is fine.
        let ok = format!(
            "a: {}{}",
            "[".repeat(DEFAULT_MAX_YAML_DEPTH - 1),
            "]".repeat(DEFAULT_MAX_YAML_DEPTH - 1)
        );
        assert!(parse(&ok).is_ok(), "{}", parse(&ok).unwrap_err());
    }

    #[test]
    fn long_keys_round_trip() {
        // Found by the properties fuzzer: a key longer than YAML's 1024
        // characters for an implicit key, at the root and nested.
        let long = "\u{b}".repeat(300) + "a";
        for v in [
            Value::Mapping(vec![(long.clone(), Value::Int(-12)), ("b".into(), Value::Null)]),
            Value::Mapping(vec![(
                "a".into(),
                Value::Mapping(vec![(long.clone(), Value::Bool(true))]),
            )]),
            Value::Mapping(vec![("x".repeat(2000), Value::Sequence(vec![Value::Int(1)]))]),
        ] {
            let p = Properties::from_value(&v).unwrap();
            assert_eq!(p.parse().unwrap(), v);
        }
    }

    #[test]
    fn check_agrees_with_parse() {
        for s in ["a: 1\n", "a: 1\na: 2\n", "- 1\n", "a: {b: [c, {d: e}]}\n", "a: &x 1\n"] {
            let p = Properties::from_raw(s.as_bytes().to_vec());
            assert_eq!(p.check(DEFAULT_MAX_YAML_DEPTH).is_ok(), p.parse().is_ok(), "{s}");
        }
    }
}
