//! Inheritance resolution and geometry validation against the reference's
//! verdicts, in any file order.

mod common;

use common::*;
use sskb::{Document, ErrorKind, Frame, Mode, Piece, Point, Properties, Shape, Validator, Vec3};

/// The expected outcome of decode + validate: a decode error kind, or
/// `validation`, or `ok`.
fn expected(case: &Case) -> String {
    match (case.decode.as_str(), case.valid) {
        ("ok", true) => "ok".into(),
        ("ok", false) => "validation".into(),
        (kind, _) => kind.into(),
    }
}

/// A simple deterministic shuffle.
fn shuffled<T: Clone>(items: &[T], seed: u64) -> Vec<T> {
    let mut v = items.to_vec();
    let mut s = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    for i in (1..v.len()).rev() {
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        v.swap(i, (s >> 33) as usize % (i + 1));
    }
    v
}

fn validate_pieces(pieces: &[Piece]) -> Result<(), sskb::Error> {
    let mut v = Validator::new();
    for p in pieces {
        v.push_piece(p)?;
    }
    v.finish()
}

#[test]
fn every_case_gets_the_reference_verdict() {
    let mut checked = 0;
    for case in binary_cases() {
        let data = case.bytes();
        let want = expected(&case);
        let got = sskb::validate_slice(&data);
        assert!(
            same_outcome(&want, &outcome(&got)),
            "{}: want {want}, got {:?}",
            case.file,
            got
        );
        checked += 1;
        let Ok(doc) = sskb::decode_slice(&data) else { continue };
        // The whole-document paths agree, in any file order.
        let whole = sskb::validate(&doc);
        assert_eq!(whole.is_ok(), case.valid, "{}: validate: {whole:?}", case.file);
        for seed in 0..4 {
            let order = shuffled(&doc.pieces, seed);
            let r = validate_pieces(&order);
            assert_eq!(r.is_ok(), case.valid, "{} (shuffle {seed}): {r:?}", case.file);
        }
        let reversed: Vec<_> = doc.pieces.iter().rev().cloned().collect();
        assert_eq!(validate_pieces(&reversed).is_ok(), case.valid, "{} reversed", case.file);
        if let Err(e) = &whole {
            assert_eq!(e.kind(), ErrorKind::Validation);
            assert!(e.piece_id().is_some() && e.field_path().is_some(), "{e}");
            assert!(e.message().starts_with("piece "), "{e}");
        }
        // Resolution succeeds on every valid document.
        if case.valid {
            let r = sskb::resolve(&doc).unwrap();
            assert_eq!(r.pieces.len(), doc.pieces.len());
            assert!(r.pieces.windows(2).all(|w| w[0].id < w[1].id));
        }
    }
    assert_eq!(checked, 609);
}

#[test]
fn the_validator_takes_frames_and_events() {
    for case in binary_cases().into_iter().filter(|c| c.decode == "ok") {
        let data = case.bytes();
        let mut v = Validator::new();
        let mut verdict = Ok(());
        for frame in sskb::SskbReader::new(&data[..]) {
            if let Err(e) = v.push_frame(&frame.unwrap()) {
                verdict = Err(e);
            }
        }
        assert_eq!(verdict.is_ok(), case.valid, "{}", case.file);
        let mut v = Validator::new();
        let mut verdict = Ok(());
        for ev in sskb::EventReader::new(&data[..]) {
            if let Err(e) = v.push_event(&ev.unwrap()) {
                verdict = Err(e);
            }
        }
        assert_eq!(verdict.is_ok(), case.valid, "{}", case.file);
    }
}

fn base(id: u32) -> Piece {
    Piece {
        id,
        points: Some(vec![
            Point::at(Vec3::new(1.0, 2.0, 3.0)),
            Point::at(Vec3::new(4.0, 5.0, 6.0)),
        ]),
        size: Some(Vec3::new(1.0, 1.0, 1.0)),
        shape: Some(Shape::Ngon),
        sides: Some(5),
        mode: Some(Mode::Subtract),
        properties: Some(Properties::from_raw(&b"name: base\n"[..])),
        ..Piece::default()
    }
}

fn derived(id: u32, from: u32) -> Piece {
    Piece {
        id,
        from: Some(from),
        ..Piece::default()
    }
}

#[test]
fn resolution_follows_chains_and_replaces_whole() {
    let mut p2 = derived(2, 1);
    p2.rotation = Some(Vec3::new(0.0, 0.0, 90.0));
    p2.properties = Some(Properties::empty());
    let mut p3 = derived(3, 2);
    p3.points = Some(vec![Point {
        size: Some(Vec3::new(2.0, 2.0, 2.0)),
        ..Point::default()
    }]);
    p3.mode = Some(Mode::Add);
    // Derived pieces before their bases in the file.
    let doc = Document {
        pieces: vec![p3, p2, derived(1, 0), base(0)],
        ..Document::default()
    };
    sskb::validate(&doc).unwrap();
    let r = sskb::resolve(&doc).unwrap();
    let ids: Vec<_> = r.pieces.iter().map(|p| p.id).collect();
    assert_eq!(ids, [0, 1, 2, 3]);
    assert_eq!(r.pieces[1].points, r.pieces[0].points);
    assert_eq!(r.pieces[1].properties, r.pieces[0].properties);
    assert_eq!(
        r.pieces[2].properties,
        Some(Properties::empty()),
        "explicit empty replaces"
    );
    assert_eq!(
        r.pieces[3].properties,
        Some(Properties::empty()),
        "and is inherited as such"
    );
    assert_eq!(r.pieces[3].points.len(), 1, "lists replace whole");
    assert_eq!(r.pieces[3].sides, Some(5));
    assert_eq!(r.pieces[3].effective_mode(), Mode::Add);
    assert_eq!(r.pieces[2].effective_mode(), Mode::Subtract);
    assert_eq!(r.pieces[3].effective_rotation(0), Some(Vec3::new(0.0, 0.0, 90.0)));
    assert_eq!(r.pieces[0].effective_rotation(1), Some(Vec3::default()));
    assert_eq!(r.pieces[3].effective_size(0), Some(Vec3::new(2.0, 2.0, 2.0)));
    assert_eq!(r.pieces[2].effective_size(0), Some(Vec3::new(1.0, 1.0, 1.0)));
    assert_eq!(r.pieces[2].effective_size(9), None);
}

#[test]
fn broken_rules_are_named() {
    let cases: Vec<(Vec<Piece>, &str)> = vec![
        (vec![base(0), base(0)], "id 0 is used by more than one piece"),
        (vec![base(0), derived(1, 1)], "`from` 1 is the piece itself"),
        (vec![base(0), derived(1, 7)], "`from` 7 names no piece"),
        (vec![derived(0, 1), base(1)], "`from` 1 is not a lower id"),
        (vec![base(1)], "ids must start at 0"),
        (vec![base(0), base(2)], "ids must be contiguous"),
        (vec![Piece { sides: None, ..base(0) }], "is an ngon without `sides`"),
        (
            vec![Piece {
                affects: Some(vec![3]),
                ..base(0)
            }],
            "`affects` names piece 3, which does not exist",
        ),
        (
            vec![
                base(0),
                Piece {
                    affects: Some(vec![1]),
                    ..base(1)
                },
                derived(2, 1),
            ],
            "piece 1: `affects` names the piece itself",
        ),
        (
            vec![
                Piece {
                    affects: Some(vec![2]),
                    ..base(0)
                },
                base(1),
                derived(2, 0),
            ],
            "piece 2: `affects` names the piece itself",
        ),
        (
            vec![Piece {
                points: None,
                ..derived(0, 0)
            }],
            "is the piece itself",
        ),
    ];
    for (pieces, want) in cases {
        let e = validate_pieces(&pieces).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Validation);
        assert!(e.message().contains(want), "want {want:?}, got {e}");
    }
    // Transition monotony with defaults: out 1/3, in 2/3.
    let mut p = base(0);
    p.points.as_mut().unwrap()[0].transition_out = Some(sskb::Vec2::new(0.9, 0.0));
    let e = validate_pieces(&[p.clone()]).unwrap_err();
    assert!(e.message().contains("segment 0"), "{e}");
    p.points.as_mut().unwrap()[1].transition_in = Some(sskb::Vec2::new(0.95, 0.0));
    validate_pieces(&[p]).unwrap();
}

#[test]
fn validation_errors_come_after_decoding_errors() {
    // An invalid geometry with trailing bytes is a decoding error first.
    let case = binary_cases()
        .into_iter()
        .find(|c| c.file.ends_with("geometry_ids_gap.sskb"))
        .unwrap();
    let mut data = case.bytes();
    assert_eq!(sskb::validate_slice(&data).unwrap_err().kind(), ErrorKind::Validation);
    data.push(0);
    assert_eq!(
        sskb::validate_slice(&data).unwrap_err().kind(),
        ErrorKind::TrailingBytes
    );
}

#[test]
fn frames_feed_the_validator_in_file_order_only_once() {
    let mut v = Validator::new();
    v.push_frame(&Frame::Piece(base(0))).unwrap();
    assert!(v.push_frame(&Frame::End(sskb::End::default())).is_ok());
    assert!(v.push_piece(&base(1)).is_err(), "nothing after the end");
}
