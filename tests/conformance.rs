//! Every `.sskb` case of the conformance corpus (the reference
//! implementation's verdicts), through every door and at many chunk sizes.

mod common;

use common::*;
use sskb::{DecodeOptions, SskbDecoder};

const CHUNKS: [usize; 7] = [1, 2, 3, 7, 64, 4096, 0];

fn decoder(raw: bool, len: Option<u64>) -> SskbDecoder {
    let mut options = sskb::DecodeOptions::new();
    if raw {
        options = options.raw_properties();
    }
    if let Some(len) = len {
        options = options.input_len(len);
    }
    SskbDecoder::new().with_options(options)
}

#[test]
fn corpus_is_complete() {
    let cases = binary_cases();
    assert_eq!(cases.len(), 609, "binary cases in cases.jsonl");
    for c in &cases {
        assert!(corpus_dir().join(&c.file).is_file(), "{}", c.file);
    }
}

#[test]
fn every_case_with_known_length() {
    let mut checked = 0;
    let mut compared = 0;
    let mut failures = Vec::new();
    for case in binary_cases() {
        let data = case.bytes();
        let expected_doc = case.expected_json();
        for (raw, expected) in [(false, &case.decode), (true, &case.decode_raw)] {
            let opts = if raw {
                DecodeOptions::new().raw_properties()
            } else {
                DecodeOptions::new()
            };
            let whole = opts.decode_slice(&data);
            let mut runs = vec![("decode_slice".to_owned(), whole.clone())];
            runs.push(("decode_bytes".to_owned(), opts.decode_bytes(data.clone().into())));
            for chunk in CHUNKS {
                runs.push((
                    format!("chunks of {chunk}"),
                    decode_chunked(&data, chunk, decoder(raw, Some(data.len() as u64))),
                ));
            }
            for (how, r) in runs {
                checked += 1;
                let got = outcome(&r);
                if !same_outcome(expected, &got) {
                    failures.push(format!(
                        "{} ({}, raw={raw}, {how}): expected {expected}, got {got}: {:?}",
                        case.file,
                        case.note,
                        r.err()
                    ));
                    continue;
                }
                let Ok(doc) = r else { continue };
                // Documents from every door are identical.
                if let Ok(w) = &whole {
                    if &doc != w {
                        failures.push(format!("{} ({how}): document differs from decode_slice's", case.file));
                    }
                }
                if let (Some(exp), false) = (&expected_doc, raw) {
                    compared += 1;
                    if let Err(diff) = json_eq(&doc_json(&doc), exp, "doc") {
                        failures.push(format!("{} ({how}): {diff}", case.file));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} runs failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(checked, 609 * 2 * 9);
    // 102 cases have an expected document: compared through all 9 doors.
    assert_eq!(compared, 102 * 9);
}

#[test]
fn every_case_without_known_length() {
    let mut failures = Vec::new();
    for case in binary_cases() {
        let data = case.bytes();
        let known = DecodeOptions::new().decode_slice(&data);
        for chunk in CHUNKS {
            let r = decode_chunked(&data, chunk, decoder(false, None));
            match (case.decode.as_str(), &r) {
                ("ok", Ok(doc)) => {
                    if Some(doc) != known.as_ref().ok() {
                        failures.push(format!(
                            "{} (chunks of {chunk}): differs from the known-length decode",
                            case.file
                        ));
                    }
                }
                ("ok", Err(e)) => {
                    failures.push(format!("{} (chunks of {chunk}): valid input rejected: {e}", case.file))
                }
                (_, Ok(_)) => failures.push(format!("{} (chunks of {chunk}): invalid input accepted", case.file)),
                (_, Err(_)) => {}
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn errors_name_what_and_where() {
    for case in binary_cases().into_iter().filter(|c| c.decode != "ok") {
        let err = sskb::decode_slice(&case.bytes()).unwrap_err();
        assert!(err.offset().is_some(), "{}: no offset in {err}", case.file);
        assert!(!err.message().is_empty());
        if matches!(
            case.decode.as_str(),
            "non_finite" | "invalid_enum" | "reserved_bits" | "structure" | "malformed_properties"
        ) {
            let path = err
                .field_path()
                .unwrap_or_else(|| panic!("{}: no path in {err}", case.file));
            assert!(
                path.starts_with("pieces[") || path == "properties",
                "{}: {path}",
                case.file
            );
        }
        if case.decode == "non_finite" {
            assert!(err.piece_id().is_some(), "{}: {err}", case.file);
        }
    }
}
