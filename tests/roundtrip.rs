//! Writing: byte-exact round trips of the corpus through every encoding
//! door, the writer's refusals, and random documents (proptest).

mod common;

use bytes::BytesMut;
use common::*;
use proptest::prelude::*;
use sskb::{
    Decoder, Document, Encoder, End, ErrorKind, Event, EventDecoder, Frame, Header, Mode, Piece, PieceStart, Point,
    Properties, Shape, SskbEncoder, SskbWriter, Value, Vec2, Vec3,
};

/// Cases whose presence bytes (or has_from) are not 1: they decode, but a
/// writer emits 1, so their bytes cannot come back.
const NOT_CANONICAL: [&str; 2] = ["valid/presence_bytes_not_one.sskb", "valid/has_from_not_one.sskb"];

fn canonical_cases() -> Vec<Case> {
    binary_cases()
        .into_iter()
        .filter(|c| c.file.starts_with("valid/") && !NOT_CANONICAL.contains(&c.file.as_str()))
        .collect()
}

#[test]
fn every_valid_file_reencodes_byte_for_byte() {
    let cases = canonical_cases();
    assert_eq!(cases.len(), 87);
    for case in cases {
        let data = case.bytes();
        let doc = sskb::decode_slice(&data).unwrap();
        assert_eq!(sskb::encode(&doc).unwrap(), data, "{}: encode", case.file);

        // Frames through the codec, and through the blocking writer.
        let mut enc = SskbEncoder::new();
        let mut out = BytesMut::new();
        let mut w = SskbWriter::new(Vec::new());
        for frame in sskb::SskbReader::new(&data[..]) {
            let frame = frame.unwrap();
            w.write_frame(&frame).unwrap();
            enc.encode(frame, &mut out).unwrap();
        }
        assert_eq!(&out[..], &data[..], "{}: frames", case.file);
        assert_eq!(w.finish().unwrap(), data, "{}: writer", case.file);

        // Events straight from the event decoder, point by point.
        let mut dec = EventDecoder::new();
        let mut input = BytesMut::from(&data[..]);
        let mut enc = SskbEncoder::new();
        let mut out = BytesMut::new();
        while let Some(ev) = dec.decode_eof(&mut input).unwrap() {
            enc.encode(ev, &mut out).unwrap();
        }
        assert!(enc.is_done());
        assert_eq!(&out[..], &data[..], "{}: events", case.file);
    }
}

#[test]
fn non_canonical_files_reencode_to_canonical_ones() {
    for file in NOT_CANONICAL {
        let case = binary_cases().into_iter().find(|c| c.file == file).unwrap();
        let doc = sskb::decode_slice(&case.bytes()).unwrap();
        let bytes = sskb::encode(&doc).unwrap();
        assert_ne!(bytes, case.bytes());
        assert_eq!(sskb::decode_slice(&bytes).unwrap(), doc);
        assert_eq!(sskb::encode(&sskb::decode_slice(&bytes).unwrap()).unwrap(), bytes);
    }
}

fn piece(id: u32) -> Piece {
    Piece {
        id,
        points: Some(vec![Point::at(Vec3::new(0.0, 0.0, 0.0))]),
        size: Some(Vec3::new(1.0, 1.0, 1.0)),
        shape: Some(Shape::Circle),
        ..Piece::default()
    }
}

fn doc(pieces: Vec<Piece>) -> Document {
    Document {
        pieces,
        ..Document::default()
    }
}

#[test]
fn the_writer_refuses_what_the_decoder_would_reject() {
    let bad: Vec<(&str, Piece, ErrorKind, &str)> = vec![
        (
            "nan",
            {
                let mut p = piece(0);
                p.points.as_mut().unwrap()[0].position.y = f32::NAN;
                p
            },
            ErrorKind::NonFinite,
            "pieces[0].points[0].y",
        ),
        (
            "inf rotation",
            Piece {
                rotation: Some(Vec3::new(0.0, f32::INFINITY, 0.0)),
                ..piece(0)
            },
            ErrorKind::NonFinite,
            "pieces[0].rotation.y",
        ),
        (
            "negative size",
            Piece {
                size: Some(Vec3::new(1.0, -1.0, 1.0)),
                ..piece(0)
            },
            ErrorKind::Structure,
            "pieces[0].size.y",
        ),
        (
            "negative point size",
            {
                let mut p = piece(0);
                p.points.as_mut().unwrap()[0].size = Some(Vec3::new(-0.5, 0.0, 0.0));
                p
            },
            ErrorKind::Structure,
            "pieces[0].points[0].size.x",
        ),
        (
            "sides 2",
            Piece {
                sides: Some(2),
                shape: Some(Shape::Ngon),
                ..piece(0)
            },
            ErrorKind::Structure,
            "pieces[0].sides",
        ),
        (
            "transition",
            {
                let mut p = piece(0);
                p.points.as_mut().unwrap()[0].transition_out = Some(Vec2::new(1.5, 0.0));
                p
            },
            ErrorKind::Structure,
            "pieces[0].points[0].transition_out.x",
        ),
        (
            "duplicate affects",
            Piece {
                affects: Some(vec![1, 2, 1]),
                ..piece(0)
            },
            ErrorKind::Structure,
            "pieces[0].affects",
        ),
        (
            "empty points",
            Piece {
                points: Some(vec![]),
                ..piece(0)
            },
            ErrorKind::Structure,
            "pieces[0].points",
        ),
        (
            "no points",
            Piece {
                points: None,
                ..piece(0)
            },
            ErrorKind::Structure,
            "pieces[0]",
        ),
        (
            "no size",
            Piece { size: None, ..piece(0) },
            ErrorKind::Structure,
            "pieces[0]",
        ),
        (
            "no shape",
            Piece {
                shape: None,
                ..piece(0)
            },
            ErrorKind::Structure,
            "pieces[0]",
        ),
        (
            "inherited empty points",
            Piece {
                id: 0,
                from: Some(0),
                points: Some(vec![]),
                ..Piece::default()
            },
            ErrorKind::Structure,
            "pieces[0].points",
        ),
        (
            "bad blob",
            Piece {
                properties: Some(Properties::from_raw(&b"a: &x 1\n"[..])),
                ..piece(0)
            },
            ErrorKind::MalformedProperties,
            "pieces[0].properties",
        ),
    ];
    for (name, p, kind, path) in bad {
        let e = sskb::encode(&doc(vec![p.clone()])).unwrap_err();
        assert_eq!(e.kind(), kind, "{name}: {e}");
        assert_eq!(e.field_path(), Some(path), "{name}: {e}");
        assert_eq!(e.piece_id(), Some(0), "{name}");

        // Through the codec: nothing is written and the encoder is unchanged.
        let mut enc = SskbEncoder::new();
        let mut out = BytesMut::new();
        enc.encode(
            Frame::Header(Header {
                version: (1, 0),
                piece_count: 1,
            }),
            &mut out,
        )
        .unwrap();
        let before = out.clone();
        assert!(enc.encode(Frame::Piece(p), &mut out).is_err(), "{name}");
        assert_eq!(out, before, "{name}: bytes went out");
        enc.encode(Frame::Piece(piece(0)), &mut out).unwrap();
        enc.encode(Frame::End(End::default()), &mut out).unwrap();
        assert!(sskb::decode_slice(&out).is_ok(), "{name}");
    }
}

#[test]
fn the_piece_count_is_enforced() {
    let mut enc = SskbEncoder::new();
    let mut out = BytesMut::new();
    enc.encode(
        Frame::Header(Header {
            version: (1, 0),
            piece_count: 2,
        }),
        &mut out,
    )
    .unwrap();
    enc.encode(Frame::Piece(piece(0)), &mut out).unwrap();
    let e = enc.encode(Frame::End(End::default()), &mut out).unwrap_err();
    assert!(e.message().contains("piece_count is 2 but 1"), "{e}");
    enc.encode(Frame::Piece(piece(1)), &mut out).unwrap();
    let e = enc.encode(Frame::Piece(piece(2)), &mut out).unwrap_err();
    assert!(e.message().contains("more pieces"), "{e}");
    enc.encode(Frame::End(End::default()), &mut out).unwrap();
    assert_eq!(sskb::decode_slice(&out).unwrap().pieces.len(), 2);
    // An unfinished writer says so.
    let mut w = SskbWriter::new(Vec::new());
    w.write_frame(&Frame::Header(Header {
        version: (1, 0),
        piece_count: 0,
    }))
    .unwrap();
    assert!(w.finish().is_err());
}

#[test]
fn events_must_agree_with_their_piece_start() {
    let mut enc = SskbEncoder::new();
    let mut out = BytesMut::new();
    enc.encode(
        Event::Header(Header {
            version: (1, 0),
            piece_count: 2,
        }),
        &mut out,
    )
    .unwrap();
    let start = PieceStart {
        index: 0,
        id: 0,
        from: None,
        field_mask: None,
        point_count: Some(2),
    };
    enc.encode(Event::PieceStart(start), &mut out).unwrap();
    enc.encode(Event::Point(Point::default()), &mut out).unwrap();
    let end = sskb::PieceEnd {
        rotation: None,
        size: Some(Vec3::new(1.0, 1.0, 1.0)),
        shape: Some(Shape::Circle),
        sides: None,
        mode: None,
        affects: None,
        properties: None,
    };
    let e = enc.encode(Event::PieceEnd(end.clone()), &mut out).unwrap_err();
    assert!(e.message().contains("point_count is 2 but 1"), "{e}");
    enc.encode(Event::Point(Point::default()), &mut out).unwrap();
    assert!(enc.encode(Event::Point(Point::default()), &mut out).is_err());
    enc.encode(Event::PieceEnd(end), &mut out).unwrap();
    // An inherited piece: the mask must match what PieceEnd states.
    let start = PieceStart {
        index: 1,
        id: 1,
        from: Some(0),
        field_mask: Some(1 << 5),
        point_count: None,
    };
    enc.encode(Event::PieceStart(start), &mut out).unwrap();
    let wrong = sskb::PieceEnd {
        rotation: None,
        size: None,
        shape: None,
        sides: None,
        mode: None,
        affects: None,
        properties: None,
    };
    assert!(enc.encode(Event::PieceEnd(wrong.clone()), &mut out).is_err());
    enc.encode(
        Event::PieceEnd(sskb::PieceEnd {
            mode: Some(Mode::Add),
            ..wrong
        }),
        &mut out,
    )
    .unwrap();
    enc.encode(Event::End(End::default()), &mut out).unwrap();
    let doc = sskb::decode_slice(&out).unwrap();
    assert_eq!(doc.pieces[1].mode, Some(Mode::Add));
}

#[test]
fn header_version_rules() {
    let mut d = doc(vec![]);
    d.version = (1, 9);
    assert_eq!(&sskb::encode(&d).unwrap()[4..8], &[1, 0, 9, 0]);
    // A draft version is kept (the layout is 1.0 either way), as the
    // reference writes it; a major above 1 is written as 1.0.
    d.version = (0, 6);
    let bytes = sskb::encode(&d).unwrap();
    assert_eq!(&bytes[4..8], &[0, 0, 6, 0]);
    assert_eq!(sskb::decode_slice(&bytes).unwrap().version, (0, 6));
    d.version = (3, 1);
    assert_eq!(&sskb::encode(&d).unwrap()[4..8], &[1, 0, 0, 0]);
}

// ---- random documents ----

fn finite() -> impl Strategy<Value = f32> {
    prop_oneof![
        4 => -1000.0f32..1000.0,
        1 => any::<f32>().prop_filter("finite", |v| v.is_finite()),
        1 => Just(-0.0f32),
    ]
}

fn nonneg() -> impl Strategy<Value = f32> {
    prop_oneof![4 => 0.0f32..1000.0, 1 => Just(0.0f32), 1 => Just(f32::MAX)]
}

fn v3() -> impl Strategy<Value = Vec3> {
    (finite(), finite(), finite()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn size3() -> impl Strategy<Value = Vec3> {
    (nonneg(), nonneg(), nonneg()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn transition() -> impl Strategy<Value = Vec2> {
    (0.0f32..=1.0, finite()).prop_map(|(x, y)| Vec2::new(x, y))
}

fn point() -> impl Strategy<Value = Point> {
    (
        v3(),
        proptest::option::of(v3()),
        proptest::option::of(v3()),
        proptest::option::of(size3()),
        proptest::option::of(v3()),
        proptest::option::of(transition()),
        proptest::option::of(transition()),
    )
        .prop_map(
            |(position, curve_in, curve_out, size, rotation, transition_in, transition_out)| Point {
                position,
                curve_in,
                curve_out,
                size,
                rotation,
                transition_in,
                transition_out,
            },
        )
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::Int),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::Float),
        ".{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Sequence),
            proptest::collection::btree_map(".{0,6}", inner, 0..4)
                .prop_map(|m| Value::Mapping(m.into_iter().collect())),
        ]
    })
}

/// A non-empty property mapping, serialized by the crate.
fn properties() -> impl Strategy<Value = Properties> {
    proptest::collection::btree_map("[a-z ]{0,6}|.{0,6}", value(), 1..4)
        .prop_map(|m| Properties::from_value(&Value::Mapping(m.into_iter().collect())).unwrap())
}

fn own_piece(id: u32) -> impl Strategy<Value = Piece> {
    (
        proptest::collection::vec(point(), 1..5),
        proptest::option::of(v3()),
        size3(),
        prop_oneof![Just(Shape::Circle), Just(Shape::Ngon)],
        proptest::option::of(3u32..u32::MAX),
        prop_oneof![Just(None), Just(Some(Mode::Subtract)), Just(Some(Mode::Intersect))],
        proptest::option::of(proptest::collection::btree_set(any::<u32>(), 0..5)),
        proptest::option::of(properties()),
    )
        .prop_map(
            move |(points, rotation, size, shape, sides, mode, affects, properties)| Piece {
                id,
                from: None,
                points: Some(points),
                rotation,
                size: Some(size),
                shape: Some(shape),
                sides,
                mode,
                affects: affects.map(|s| s.into_iter().rev().collect()),
                properties,
            },
        )
}

fn inherited_piece(id: u32) -> impl Strategy<Value = Piece> {
    (
        any::<u32>(),
        proptest::option::of(proptest::collection::vec(point(), 1..4)),
        proptest::option::of(v3()),
        proptest::option::of(size3()),
        proptest::option::of(prop_oneof![Just(Shape::Circle), Just(Shape::Ngon)]),
        proptest::option::of(3u32..100),
        proptest::option::of(prop_oneof![
            Just(Mode::Add),
            Just(Mode::Subtract),
            Just(Mode::Intersect)
        ]),
        proptest::option::of(proptest::collection::btree_set(any::<u32>(), 0..5)),
        proptest::option::of(prop_oneof![Just(Properties::empty()), properties()]),
    )
        .prop_map(
            move |(from, points, rotation, size, shape, sides, mode, affects, properties)| Piece {
                id,
                from: Some(from),
                points,
                rotation,
                size,
                shape,
                sides,
                mode,
                affects: affects.map(|s| s.into_iter().collect()),
                properties,
            },
        )
}

fn document() -> impl Strategy<Value = Document> {
    let pieces = proptest::collection::vec((any::<bool>(), any::<u32>()), 0..6).prop_flat_map(|specs| {
        specs
            .into_iter()
            .map(|(inherited, id)| {
                if inherited {
                    inherited_piece(id).boxed()
                } else {
                    own_piece(id).boxed()
                }
            })
            .collect::<Vec<_>>()
    });
    (pieces, any::<u16>(), proptest::option::of(properties())).prop_map(|(pieces, minor, properties)| Document {
        version: (1, minor),
        pieces,
        properties,
    })
}

proptest! {
    // 256 cases by default; PROPTEST_CASES=N runs more.

    #[test]
    fn random_documents_round_trip(d in document()) {
        let bytes = sskb::encode(&d).unwrap();
        let back = sskb::decode_slice(&bytes).unwrap();
        prop_assert_eq!(&back, &d);
        prop_assert_eq!(sskb::encode(&back).unwrap(), bytes.clone());
        // Properties come back as the values they were built from.
        for (a, b) in back.pieces.iter().zip(&d.pieces) {
            if let (Some(x), Some(y)) = (&a.properties, &b.properties) {
                prop_assert_eq!(x.parse().unwrap(), y.parse().unwrap());
            }
        }
        // Chunked decoding agrees.
        let chunked = decode_chunked(&bytes, 7, sskb::SskbDecoder::new()).unwrap();
        prop_assert_eq!(chunked, d);
    }

    #[test]
    fn property_values_round_trip(m in proptest::collection::vec((".{0,8}", value()), 0..6)) {
        let mut seen = std::collections::HashSet::new();
        let entries: Vec<_> = m.into_iter().filter(|(k, _)| seen.insert(k.clone())).collect();
        let v = Value::Mapping(entries);
        let p = Properties::from_value(&v).unwrap();
        prop_assert_eq!(p.parse().unwrap(), v);
    }
}
