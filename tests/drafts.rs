//! Files whose header says a pre-1.0 version (`0.6` to `0.9`), as the
//! reference writes them from the upstream examples: read with the 1.0
//! layout through every door, equal to their 1.0-stamped twins but for the
//! version, re-encoded byte for byte, validated and meshed alike; every
//! prefix is `truncated` with a note on the draft; `major_one_only` refuses
//! them. The files in `tests/data/drafts/` were written once by
//! `ssk convert` 1.5.0 (see the README there).

use std::path::PathBuf;

use bytes::BytesMut;
use sskb::{DecodeOptions, Decoder, ErrorKind, EventReader, Frame, SskbDecoder, SskbReader};

fn drafts() -> Vec<(String, Vec<u8>, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut out: Vec<_> = std::fs::read_dir(dir.join("drafts"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "sskb"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let twin = std::fs::read(dir.join("conformance/valid").join(&name)).unwrap();
            (name, std::fs::read(&p).unwrap(), twin)
        })
        .collect();
    out.sort();
    assert_eq!(out.len(), 6, "the six upstream examples");
    out
}

/// The version the example's `.ssk` text states.
fn stated_version(name: &str) -> (u16, u16) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/conformance/ssk");
    let text = std::fs::read_to_string(dir.join(name.replace(".sskb", ".ssk"))).unwrap();
    sskb::parse_ssk(&text).unwrap().version
}

#[test]
fn drafts_decode_through_every_door_as_their_twins() {
    for (name, data, twin) in drafts() {
        let doc = sskb::decode_slice(&data).unwrap_or_else(|e| panic!("{name}: {e}"));
        let want = stated_version(&name);
        assert_eq!(doc.version, want, "{name}");
        assert_eq!(want.0, 0, "{name}: the upstream examples are drafts");
        let mut twin_doc = sskb::decode_slice(&twin).unwrap();
        assert_eq!(twin_doc.version, (1, 0));
        twin_doc.version = doc.version;
        assert_eq!(doc, twin_doc, "{name}");
        // Byte for byte, header included.
        assert_eq!(sskb::encode(&doc).unwrap(), data, "{name}");
        // Readers and codecs.
        let frames: Vec<Frame> = SskbReader::new(&data[..]).collect::<Result<_, _>>().unwrap();
        assert!(matches!(frames.last(), Some(Frame::End(_))), "{name}");
        let events = EventReader::new(&data[..]).count();
        assert!(events > frames.len(), "{name}");
        let mut codec = SskbDecoder::new().with_options(sskb::DecodeOptions::new().input_len(data.len() as u64));
        let mut buf = BytesMut::from(&data[..]);
        let mut n = 0;
        while let Some(f) = codec.decode_eof(&mut buf).unwrap() {
            n += 1;
            if matches!(f, Frame::End(_)) {
                break;
            }
        }
        assert_eq!(n, frames.len(), "{name}");
        // Validation, from a slice and a reader.
        let summary = sskb::validate_slice(&data).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(summary.pieces as usize, doc.pieces.len());
        sskb::validate_reader(&data[..], DecodeOptions::new()).unwrap();
    }
}

#[test]
fn major_one_only_refuses_drafts() {
    for (name, data, twin) in drafts() {
        let e = DecodeOptions::new().major_one_only().decode_slice(&data).unwrap_err();
        assert_eq!(
            (e.kind(), e.offset()),
            (ErrorKind::UnsupportedVersion, Some(4)),
            "{name}"
        );
        assert!(e.message().contains("pre-1.0 draft"), "{}", e.message());
        let e = sskb::validate_reader(&data[..], DecodeOptions::new().major_one_only()).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::UnsupportedVersion);
        DecodeOptions::new().major_one_only().decode_slice(&twin).unwrap();
    }
    // Major 2 and above stay unsupported either way.
    let mut data = drafts()[0].1.clone();
    data[4] = 2;
    assert_eq!(
        sskb::decode_slice(&data).unwrap_err().kind(),
        ErrorKind::UnsupportedVersion
    );
}

#[test]
fn every_prefix_of_a_draft_is_truncated_with_a_note() {
    for (name, data, _) in drafts() {
        for cut in 0..data.len() {
            // A count found to exceed the bytes left is the same outcome.
            let truncated = |k| matches!(k, ErrorKind::Truncated | ErrorKind::CountExceedsRemaining);
            let e = sskb::decode_slice(&data[..cut]).unwrap_err();
            assert!(truncated(e.kind()), "{name} cut at {cut}: {e}");
            // Once the header is read, the message says why the layout may
            // not fit; before it, nothing is known of the version.
            assert_eq!(
                e.message().contains("pre-1.0 drafts may use another layout"),
                cut >= 8,
                "{name} cut at {cut}: {e}"
            );
            let v = sskb::validate_slice(&data[..cut]).unwrap_err();
            assert!(truncated(v.kind()), "{name} cut at {cut}: {v}");
        }
    }
}

#[test]
fn an_error_in_a_draft_is_the_ordinary_one_with_a_note() {
    let (_, mut data, _) = drafts().into_iter().find(|d| d.0 == "example_tube.sskb").unwrap();
    let at = data.len() - 1;
    data.push(0);
    let e = sskb::decode_slice(&data).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::TrailingBytes);
    assert!(e.message().contains("header says version 0.6"), "{}", e.message());
    assert_eq!(e.offset(), Some(at as u64 + 1));
}

#[cfg(feature = "mesh")]
#[test]
fn drafts_mesh_as_their_twins() {
    for (name, data, twin) in drafts() {
        let mesh = |bytes: &[u8]| {
            let doc = sskb::decode_slice(bytes).unwrap();
            let mut m = sskb::mesh::Mesher::new(16);
            for p in &doc.pieces {
                m.push(p).unwrap();
            }
            m.combined().unwrap()
        };
        assert_eq!(mesh(&data), mesh(&twin), "{name}");
    }
}
