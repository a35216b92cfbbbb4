//! YAML 1.2's rules that the parser underneath does not enforce by itself,
//! at the byte level: as a property blob, inside an `.sskb` file through
//! every door (the error's offset is the offending character's byte in the
//! file), and in the `.ssk` reader.
//!
//! 1. Only printable characters: tab, LF, CR, U+0020–U+007E, U+0085,
//!    U+00A0–U+D7FF, U+E000–U+FFFD, U+10000 up (escapes in double quotes
//!    are fine).
//! 2. A byte order mark only at the very start, and no directive after it.
//! 3. A block scalar whose last line ends the input: no line break added.
//! 4. `|`, `>` (and the other indicators) cannot start a plain scalar;
//!    `?`, `-`, `:` only with a safe character after them; `[?]` is a pair
//!    with a null key.

mod common;

use bytes::BytesMut;
use common::feed;
use sskb::{DecodeOptions, Decoder, ErrorKind, Event, EventDecoder, Properties, SskbDecoder, Value};

/// A blob the rules refuse: the byte (within the blob) the error points at
/// and words its message must hold.
const REFUSED: &[(&[u8], usize, &str)] = &[
    (b"a: b\x7fc", 4, "control character U+007F at line 1 column 5"),
    (b"a: b\x07", 4, "control character U+0007 at line 1 column 5"),
    (b"a: x\n\x01b: c", 5, "control character U+0001 at line 2 column 1"),
    (b"a: x\r\nb: c\x08", 10, "control character U+0008 at line 2 column 5"),
    (b"a: b\x0bc", 4, "control character U+000B"),
    (b"a: b\x0c", 4, "control character U+000C"),
    (b"a: \"b\x00\"", 5, "control character U+0000"),
    (b"a: \xc3\xa9\xc2\x80", 5, "control character U+0080 at line 1 column 5"),
    (b"a: \xc2\x9f", 3, "control character U+009F"),
    (b"a: \xef\xbf\xbe", 3, "non-character U+FFFE"),
    (b"a: x\xef\xbf\xbf", 4, "non-character U+FFFF"),
    (b"\xef\xbb\xbf%YAML 1.2\n---\na: b\n", 0, "directives"),
    (b"\xef\xbb\xbf%TAG ! tag:x,2000:\n---\na: b\n", 0, "directives"),
    (b"%YAML 1.2\n---\na: b\n", 0, "directives"),
    (b"a: b\xef\xbb\xbf\n", 4, "byte order mark U+FEFF"),
    (b"a: \"x\xef\xbb\xbfy\"\n", 5, "byte order mark U+FEFF"),
    (
        b"a: b\n\xef\xbb\xbfc: d\n",
        5,
        "byte order mark U+FEFF at line 2 column 1",
    ),
    (b"{a: |}", 4, "`|` is an indicator"),
    (b"{a: >}", 4, "`>` is an indicator"),
    (b"{a: [>]}", 5, "`>` is an indicator"),
    (b"{a: ?}", 4, "`?` followed by `}`"),
    (b"{a: [?]}", 5, "mapping keys must be strings"),
    (b"{a: [?, b]}", 5, "mapping keys must be strings"),
    // Inside a flow pair (`[? key]`) the flow rules still apply.
    (b"{a: [? ?]}", 7, "`?` followed by `]`"),
    (b"{a: [x: |]}", 8, "`|` is an indicator"),
    (b"{a: -}", 4, "'-'"),
    (b"a: [-]", 4, "'-'"),
];

/// Blobs that stay valid, with their values.
fn accepted() -> Vec<(&'static [u8], Value)> {
    let s = |k: &str, v: &str| Value::Mapping(vec![(k.to_owned(), Value::String(v.to_owned()))]);
    vec![
        (b"a: \"\\x07\"", s("a", "\u{7}")),
        (b"a: \"\\uFEFF\"", s("a", "\u{feff}")),
        (b"\xef\xbb\xbfa: b\n", s("a", "b")),
        (b"a: \xc2\x85x", s("a", "\u{85}x")),
        (b"a: x\xe2\x80\xa8y", s("a", "x\u{2028}y")),
        (b"a: x\tb", s("a", "x\tb")),
        (b"a: |\n text", s("a", "text")),
        (b"a: >\n text", s("a", "text")),
        (b"a: |+\n text", s("a", "text")),
        (b"a: >+\n text", s("a", "text")),
        (b"a: |-\n text", s("a", "text")),
        (b"a: |\n text\n", s("a", "text\n")),
        (b"a: |+\n text\n\n", s("a", "text\n\n")),
        (b"a: >\n one\n two", s("a", "one two")),
        (b"a: |\n text\n# done", s("a", "text\n")),
        (
            b"a:\n  b: |\n    deep",
            Value::Mapping(vec![("a".into(), s("b", "deep"))]),
        ),
        (b"a: -]", s("a", "-]")),
        (
            b"a: [? x]",
            Value::Mapping(vec![(
                "a".into(),
                Value::Sequence(vec![Value::Mapping(vec![("x".into(), Value::Null)])]),
            )]),
        ),
        (b"a: ?x", s("a", "?x")),
        (b"{a: -x}", s("a", "-x")),
        (b"{a: :x}", s("a", ":x")),
        (b"{\"a\n b\": c}", s("a b", "c")),
    ]
}

/// A one-piece `.sskb` file whose piece carries `blob`; the blob's offset.
fn file_with(blob: &[u8]) -> (Vec<u8>, usize) {
    let mut f = b"SSKB\x01\x00\x00\x00\x01\x00\x00\x00".to_vec();
    f.extend([0, 0, 0, 0, 0]); // id 0, no from
    f.extend(1u32.to_le_bytes()); // one point
    f.extend([0; 12]);
    f.extend([0; 6]);
    f.push(0); // no rotation
    for v in [1.0f32, 1.0, 1.0] {
        f.extend(v.to_le_bytes());
    }
    f.extend([0, 0, 0, 0]); // circle, no sides, add, no affects
    f.extend((blob.len() as u32).to_le_bytes());
    let at = f.len();
    f.extend(blob);
    f.extend(0u32.to_le_bytes()); // no root properties
    (f, at)
}

#[test]
fn refused_blobs_point_at_the_character_through_every_door() {
    for &(blob, at, words) in REFUSED {
        let shown = String::from_utf8_lossy(blob);
        let e = Properties::from_raw(blob.to_vec()).parse().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::MalformedProperties, "{shown:?}: {e}");
        assert_eq!(e.offset(), Some(at as u64), "{shown:?}: {e}");
        assert!(e.message().contains(words), "{shown:?}: {e}");

        let (file, start) = file_with(blob);
        let want = (start + at) as u64;
        let mut errors = vec![
            ("decode_slice", sskb::decode_slice(&file).unwrap_err()),
            ("decode_bytes", sskb::decode_bytes(file.clone().into()).unwrap_err()),
            ("validate_slice", sskb::validate_slice(&file).unwrap_err()),
            (
                "validate_reader",
                sskb::validate_reader(&file[..], DecodeOptions::new()).unwrap_err(),
            ),
        ];
        for chunk in [1, 7, file.len()] {
            errors.push(("frames", feed(SskbDecoder::new(), &file, chunk).unwrap_err()));
            errors.push(("events", feed(EventDecoder::new(), &file, chunk).unwrap_err()));
        }
        for (door, e) in errors {
            assert_eq!(e.kind(), ErrorKind::MalformedProperties, "{shown:?} ({door}): {e}");
            assert_eq!(e.offset(), Some(want), "{shown:?} ({door}): {e}");
            assert_eq!(e.piece_id(), Some(0), "{shown:?} ({door})");
            assert_eq!(e.field_path(), Some("pieces[0].properties"), "{shown:?} ({door})");
            assert!(e.message().contains(words), "{shown:?} ({door}): {e}");
        }
        // Raw properties are not checked.
        assert!(DecodeOptions::new().raw_properties().decode_slice(&file).is_ok());
    }
}

#[test]
fn valid_blobs_keep_their_values_through_every_door() {
    for (blob, value) in accepted() {
        let shown = String::from_utf8_lossy(blob);
        let p = Properties::from_raw(blob.to_vec());
        assert_eq!(p.parse().unwrap(), value, "{shown:?}");
        let (file, _) = file_with(blob);
        let doc = sskb::decode_slice(&file).unwrap_or_else(|e| panic!("{shown:?}: {e}"));
        let props = doc.pieces[0].properties.as_ref().unwrap();
        assert_eq!(props.parse().unwrap(), value, "{shown:?}");
        sskb::validate_slice(&file).unwrap();
        for chunk in [1, 7] {
            assert!(feed(EventDecoder::new(), &file, chunk).is_ok(), "{shown:?}");
        }
        // Round trip: serialized from the value, parsed back the same.
        assert_eq!(Properties::from_value(&value).unwrap().parse().unwrap(), value);
    }
}

/// An `.ssk` document whose root properties hold `yaml` (indented under
/// `properties:`).
fn ssk_with(yaml: &str) -> String {
    let mut s = String::from(
        "version: \"1.0\"\npieces:\n- id: 0\n  points: [{x: 0, y: 0, z: 0}]\n  size: {x: 1, y: 1, z: 1}\n  shape: circle\nproperties:\n",
    );
    for line in yaml.split_inclusive('\n') {
        s.push_str("  ");
        s.push_str(line);
    }
    s
}

#[test]
fn the_ssk_reader_follows_the_same_rules() {
    // Characters: the offset is the character's byte in the text.
    for (bad, what) in [
        ("a: b\u{7}", "control character U+0007 at line 8 column 7"),
        ("a: b\u{7f}", "control character U+007F at line 8 column 7"),
        ("a: \u{9f}", "control character U+009F at line 8 column 6"),
        ("a: \u{ffff}", "non-character U+FFFF at line 8 column 6"),
        ("a: b\u{feff}", "byte order mark U+FEFF at line 8 column 7"),
        ("{a: |}", "`|` is an indicator"),
        ("{a: ?}", "`?` followed by `}`"),
        ("{a: [?]}", "mapping keys must be strings"),
    ] {
        let text = ssk_with(bad);
        let e = sskb::parse_ssk(&text).unwrap_err();
        assert!(e.message().contains(what), "{bad:?}: {e}");
        let bad_char = text.find(['\u{7}', '\u{7f}', '\u{9f}', '\u{ffff}', '\u{feff}']);
        if let Some(at) = bad_char {
            assert_eq!(e.offset(), Some(at as u64), "{bad:?}: {e}");
        }
    }
    let with_bom = format!("\u{feff}%YAML 1.2\n---\n{}", ssk_with("a: b\n"));
    assert!(sskb::parse_ssk(&with_bom).unwrap_err().message().contains("directives"));
    let bom_first = format!("\u{feff}{}", ssk_with("a: b\n"));
    assert!(sskb::parse_ssk(&bom_first).is_ok());
    // A block scalar that ends the text keeps no line break it did not have.
    for (yaml, want) in [
        ("note: |\n  text", "text"),
        ("note: >+\n  text", "text"),
        ("note: |\n  text\n", "text\n"),
    ] {
        let doc = sskb::parse_ssk(&ssk_with(yaml)).unwrap();
        let v = doc.properties.unwrap().parse().unwrap();
        assert_eq!(v.get("note").and_then(Value::as_str), Some(want), "{yaml:?}");
    }
}

#[test]
fn events_carry_the_checked_blob() {
    let (file, _) = file_with(b"a: |\n text");
    let mut d = EventDecoder::new();
    let mut buf = BytesMut::from(&file[..]);
    let mut seen = false;
    while let Some(e) = d.decode_eof(&mut buf).unwrap() {
        if let Event::PieceEnd(end) = e {
            let v = end.properties.unwrap().parse().unwrap();
            assert_eq!(v.get("a").and_then(Value::as_str), Some("text"));
            seen = true;
        }
    }
    assert!(seen);
}

/// The README's table of differences from the reference, our side of it.
#[test]
fn the_readme_table_of_differences() {
    let s = |v: &str| Value::String(v.to_owned());
    let ok: &[(&[u8], &str, Value)] = &[
        (b"a: x\tb", "a", s("x\tb")),
        (b"{\"a\n b\": c}", "a b", s("c")),
        (b"a: x\xc2\x85y", "a", s("x\u{85}y")),
        (b"a: x\xe2\x80\xa8y", "a", s("x\u{2028}y")),
        (b"a: yes", "a", s("yes")),
        (b"a: on", "a", s("on")),
        (b"a: 1_000", "a", s("1_000")),
        (b"a: 2001-12-14", "a", s("2001-12-14")),
        (b"<<: {b: c}", "<<", Value::Mapping(vec![("b".into(), s("c"))])),
        (b"a: =", "a", s("=")),
        (b"a: 1e3", "a", Value::Float(1000.0)),
    ];
    for (blob, key, want) in ok {
        let v = Properties::from_raw(blob.to_vec()).parse().unwrap();
        assert_eq!(v.get(key), Some(want), "{:?}", String::from_utf8_lossy(blob));
    }
    for blob in [&b"a: \"x\"#c"[..], b"{a: -}", b"{a: |}", b"{a: ?}", b"a: 1e999"] {
        let e = Properties::from_raw(blob.to_vec()).parse().unwrap_err();
        assert_eq!(
            e.kind(),
            ErrorKind::MalformedProperties,
            "{:?}",
            String::from_utf8_lossy(blob)
        );
    }
}
