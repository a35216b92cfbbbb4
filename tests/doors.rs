//! Every door gives the same answer to the byte: for each conformance case,
//! the error (kind, offset, piece id, field path and message) or the result
//! of `decode_slice` is what the event codec, the frame codec and the
//! validators give, however the input is chunked or read. The fast paths
//! (points in complete mode, runs of points, simple blobs) and the streaming
//! units must never tell different stories.

mod common;

use std::io::Read;

use bytes::BytesMut;
use common::*;
use sskb::{DecodeOptions, Decoder, Error, Event, EventDecoder, SskbDecoder};

type Key = (&'static str, Option<u64>, Option<u32>, Option<String>, String);

fn key(e: &Error) -> Key {
    (
        e.kind().name(),
        e.offset(),
        e.piece_id(),
        e.field_path().map(str::to_owned),
        e.message().to_owned(),
    )
}

/// A reader that hands out at most `chunk` bytes a call and reports
/// `Interrupted` every third call.
struct Trickle<'a> {
    data: &'a [u8],
    chunk: usize,
    calls: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        self.calls += 1;
        if self.calls % 3 == 0 {
            return Err(std::io::ErrorKind::Interrupted.into());
        }
        let n = self.chunk.min(out.len()).min(self.data.len());
        out[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

#[test]
fn every_door_gives_the_same_error_or_result() {
    let mut runs = 0;
    let mut failures = Vec::new();
    for case in binary_cases() {
        let data = case.bytes();
        let len = data.len() as u64;
        let whole = sskb::decode_slice(&data);
        let want = whole.as_ref().err().map(key);
        for chunk in [0, 1, 7, 100] {
            runs += 2;
            let got = feed(
                EventDecoder::new().with_options(sskb::DecodeOptions::new().input_len(len)),
                &data,
                chunk,
            );
            if got.as_ref().err().map(key) != want {
                failures.push(format!(
                    "{}: events in {chunk}s: {:?} vs {want:?}",
                    case.file,
                    got.err()
                ));
            } else if let (Ok(evs), Ok(doc)) = (&got, &whole) {
                let points: usize = doc.pieces.iter().map(|p| p.points.as_ref().map_or(0, Vec::len)).sum();
                let seen = evs.iter().filter(|e| matches!(e, Event::Point(_))).count();
                if points != seen {
                    failures.push(format!(
                        "{}: events in {chunk}s: {seen} points, not {points}",
                        case.file
                    ));
                }
            }
            let frames = decode_chunked(
                &data,
                chunk,
                SskbDecoder::new().with_options(sskb::DecodeOptions::new().input_len(len)),
            );
            match (&frames, &whole) {
                (Ok(a), Ok(b)) if a == b => {}
                (Err(a), Err(b)) if key(a) == key(b) => {}
                _ => failures.push(format!("{}: frames in {chunk}s: {frames:?} vs {whole:?}", case.file)),
            }
        }
        let validated = sskb::validate_slice(&data);
        for chunk in [1, 7, 4096, data.len().max(1)] {
            runs += 1;
            let reader = Trickle {
                data: &data,
                chunk,
                calls: 0,
            };
            let got = sskb::validate_reader(reader, DecodeOptions::new().input_len(len));
            let same = match (&got, &validated) {
                (Ok(a), Ok(b)) => a == b,
                (Err(a), Err(b)) => key(a) == key(b),
                _ => false,
            };
            if !same {
                failures.push(format!(
                    "{}: validate_reader in {chunk}s: {got:?} vs {validated:?}",
                    case.file
                ));
            }
        }
        // A decoding error is validation's answer too, to the byte.
        if let (Err(d), Err(v)) = (&whole, &validated) {
            if key(d) != key(v) {
                failures.push(format!("{}: validate_slice {v:?} vs decode_slice {d:?}", case.file));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(runs, 609 * 12);
}

/// Events from `data` fed one byte at a time, the decoder first asked with
/// an empty buffer (as a socket's first poll may).
fn events_from_empty(data: &[u8]) -> Result<usize, Error> {
    let mut d = EventDecoder::new();
    let mut buf = BytesMut::new();
    let mut n = 0;
    while d.decode(&mut buf)?.is_some() {
        n += 1;
    }
    for &b in data {
        buf.extend_from_slice(&[b]);
        while d.decode(&mut buf)?.is_some() {
            n += 1;
        }
    }
    while d.decode_eof(&mut buf)?.is_some() {
        n += 1;
    }
    Ok(n)
}

/// Short inputs, the decoder asked before any byte arrives: a wrong first
/// byte is `bad_magic` at once, never `truncated` because the decoder
/// waited for a whole magic (a fuzzer's find, from `validate_reader`).
#[test]
fn short_inputs_get_the_same_error_from_an_empty_start() {
    let valid = std::fs::read(corpus_dir().join("valid/example_ladder.sskb")).unwrap();
    let mut inputs: Vec<Vec<u8>> = (0..=12).map(|n| valid[..n].to_vec()).collect();
    for b in [0u8, b'X', b'S'] {
        inputs.push(vec![b]);
        inputs.push(vec![b'S', b]);
        inputs.push(vec![b'S', b'S', b'K', b]);
    }
    inputs.push(b"SSKB\x02\x00\x00\x00".to_vec());
    inputs.push(b"SSKB\x00".to_vec());
    for data in inputs {
        let want = sskb::decode_slice(&data).err().map(|e| key(&e));
        let got = events_from_empty(&data).err().map(|e| key(&e));
        // Without a known length, the count checks do not apply: compare
        // with a slice decode that does not know it either.
        let unknown = sskb::read_document(&data[..], DecodeOptions::new())
            .err()
            .map(|e| key(&e));
        assert_eq!(got, unknown, "events from an empty start, {data:?}");
        // The header's errors do not depend on a known length.
        if want
            .as_ref()
            .is_some_and(|k| matches!(k.0, "bad_magic" | "unsupported_version"))
        {
            assert_eq!(got, want, "{data:?}");
        }
        let reader = Trickle {
            data: &data,
            chunk: 1,
            calls: 0,
        };
        let validated = sskb::validate_reader(reader, DecodeOptions::new().input_len(data.len() as u64));
        let sliced = sskb::validate_slice(&data);
        assert_eq!(
            validated.as_ref().err().map(key),
            sliced.as_ref().err().map(key),
            "validate_reader from an empty start, {data:?}"
        );
    }
}

/// `(event, offset after it)` for every event of `data` fed in `chunk`-byte
/// pieces (0: the whole buffer at once).
fn events_with_offsets(data: &[u8], chunk: usize) -> Vec<(Event, u64)> {
    let mut d = EventDecoder::new();
    let mut buf = BytesMut::new();
    let mut out = Vec::new();
    let step = if chunk == 0 { data.len().max(1) } else { chunk };
    for part in data.chunks(step) {
        buf.extend_from_slice(part);
        while let Some(e) = d.decode(&mut buf).unwrap() {
            out.push((e, d.offset()));
        }
    }
    while let Some(e) = d.decode_eof(&mut buf).unwrap() {
        out.push((e, d.offset()));
    }
    out
}

/// The event decoder reads runs of points ahead of the events it returns;
/// `offset()` still says where the next event starts, as it does when the
/// bytes arrive one at a time and nothing can be read ahead.
#[test]
fn event_offsets_do_not_depend_on_read_ahead() {
    let mut checked = 0;
    for case in binary_cases() {
        let data = case.bytes();
        if sskb::read_document(&data[..], DecodeOptions::new()).is_err() {
            continue;
        }
        let one = events_with_offsets(&data, 1);
        for chunk in [0, 7, 100] {
            assert_eq!(events_with_offsets(&data, chunk), one, "{} in {chunk}s", case.file);
        }
        assert_eq!(one.last().map(|e| e.1), Some(data.len() as u64), "{}", case.file);
        checked += 1;
    }
    assert!(checked >= 100, "{checked}");
}
