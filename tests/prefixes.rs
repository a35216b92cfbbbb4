//! httparse-style: every prefix of every valid file is "incomplete", never an
//! error, until end of input, where it is `truncated` with the offset of the end.

mod common;

use bytes::BytesMut;
use common::*;
use sskb::{Decoder, ErrorKind, EventDecoder, SskbDecoder};

fn check_prefix<D: Decoder<Error = sskb::Error>>(mut decoder: D, data: &[u8], cut: usize, file: &str) {
    let mut buf = BytesMut::from(&data[..cut]);
    loop {
        match decoder.decode(&mut buf) {
            Ok(Some(_)) => continue,
            Ok(None) => break,
            Err(e) => panic!("{file}: prefix {cut}: decode failed: {e}"),
        }
    }
    let err = loop {
        match decoder.decode_eof(&mut buf) {
            Ok(Some(_)) => continue,
            Ok(None) => panic!("{file}: prefix {cut} of {}: decode_eof accepted it", data.len()),
            Err(e) => break e,
        }
    };
    assert_eq!(err.kind(), ErrorKind::Truncated, "{file}: prefix {cut}: {err}");
    assert_eq!(err.offset(), Some(cut as u64), "{file}: prefix {cut}: {err}");
}

#[test]
fn every_prefix_of_every_valid_file_is_incomplete() {
    let mut prefixes = 0;
    for case in binary_cases().into_iter().filter(|c| c.decode == "ok") {
        let data = case.bytes();
        for cut in 0..data.len() {
            check_prefix(SskbDecoder::new(), &data, cut, &case.file);
            check_prefix(EventDecoder::new(), &data, cut, &case.file);
            prefixes += 1;
        }
        // The whole file is not.
        let mut d = SskbDecoder::new();
        let mut buf = BytesMut::from(&data[..]);
        while d.decode_eof(&mut buf).unwrap().is_some() {}
        assert!(d.is_done());
    }
    assert!(prefixes > 40_000, "{prefixes}");
}

#[test]
fn every_prefix_with_known_length_and_decode_slice() {
    for case in binary_cases().into_iter().filter(|c| c.decode == "ok") {
        let data = case.bytes();
        for cut in 0..data.len() {
            // Told the full length, the decoder still waits for the rest.
            check_prefix(
                SskbDecoder::new().with_options(sskb::DecodeOptions::new().input_len(data.len() as u64)),
                &data,
                cut,
                &case.file,
            );
            // A slice is the whole input: the cut is truncation (or a count
            // found to overrun it).
            let err = sskb::decode_slice(&data[..cut]).unwrap_err();
            assert!(
                matches!(err.kind(), ErrorKind::Truncated | ErrorKind::CountExceedsRemaining),
                "{}: prefix {cut}: {err}",
                case.file
            );
        }
    }
}
