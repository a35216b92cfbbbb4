//! The fast path of the blob checker: a recognizer for the commonest blob
//! shape, one block mapping of `key: value` lines, which decides such a blob
//! in one pass over its bytes without the YAML parser.
//!
//! It answers only "valid" and only for blobs in a narrow subset of YAML
//! whose meaning is plain; anything else (comments, quotes, nesting, flow
//! collections, non-ASCII, CR, blank lines, long keys, …) goes to the full
//! checker, which also gives every error. The subset, line by line:
//!
//! ```text
//! line  = key ": " value ("\n" | end of blob)
//! key   = [A-Za-z_][A-Za-z0-9_]{0,63}, not a null or boolean word
//! value = [A-Za-z0-9_.+-][A-Za-z0-9_.+ -]*, not ending in a space;
//!         "-" only when followed by a digit or "."
//! ```
//!
//! Every such line is a plain implicit key (a string by the core schema) and
//! a plain scalar value in the one block mapping at column 0. The keys must
//! be distinct, and a value that starts like a number must resolve to a
//! finite one, as the full checker demands.

use super::resolve_scalar;
use saphyr_parser::ScalarStyle;

/// The longest key the fast path takes (YAML limits implicit keys to 1024
/// characters; the full checker handles the rest).
const MAX_KEY: usize = 64;
/// The most keys the fast path takes (duplicates are found by a linear scan).
const MAX_KEYS: usize = 32;

fn key_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn key_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn value_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'+' | b'-' | b' ')
}

/// `true` when `raw` is in the subset and valid; `false` when the full
/// checker must decide (which may still accept it).
pub(super) fn is_valid_simple_mapping(raw: &[u8], max_depth: usize) -> bool {
    if max_depth == 0 || raw.is_empty() {
        return false;
    }
    let mut keys: [&[u8]; MAX_KEYS] = [&[]; MAX_KEYS];
    for (n, line) in raw
        .strip_suffix(b"\n")
        .unwrap_or(raw)
        .split(|&b| b == b'\n')
        .enumerate()
    {
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            return false;
        };
        let (key, rest) = line.split_at(colon);
        let Some(value) = rest.strip_prefix(b": ") else {
            return false;
        };
        if n == MAX_KEYS || !key_ok(key) || !value_ok(value) || keys[..n].contains(&key) {
            return false;
        }
        keys[n] = key;
    }
    true
}

fn key_ok(key: &[u8]) -> bool {
    let Some((&first, rest)) = key.split_first() else {
        return false;
    };
    key.len() <= MAX_KEY
        && key_start(first)
        && rest.iter().all(|&b| key_byte(b))
        && !matches!(
            key,
            b"null" | b"Null" | b"NULL" | b"true" | b"True" | b"TRUE" | b"false" | b"False" | b"FALSE"
        )
}

fn value_ok(value: &[u8]) -> bool {
    let (Some(&first), Some(&last)) = (value.first(), value.last()) else {
        return false;
    };
    if !value.iter().all(|&b| value_byte(b)) || first == b' ' || last == b' ' {
        return false;
    }
    if first == b'-' && !value.get(1).is_some_and(|&b| b.is_ascii_digit() || b == b'.') {
        return false;
    }
    // A value that may be a number must be a finite one (letters and `_`
    // start strings, null and boolean words, none of them numbers).
    if first.is_ascii_digit() || matches!(first, b'.' | b'+' | b'-') {
        // All bytes are ASCII, so this is valid UTF-8.
        return std::str::from_utf8(value).is_ok_and(|s| resolve_scalar(s, ScalarStyle::Plain).is_ok());
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::properties::{walk, Check};

    fn full(raw: &[u8]) -> bool {
        walk(raw, 128, &mut Check).is_ok()
    }

    #[test]
    fn accepts_the_common_shape() {
        for ok in [
            &b"name: piece 17\nmaterial: oak\nweight: 42\n"[..],
            b"a: b",
            b"a_1: -0.5e3\nb: .5\nc: +7\nd: 0x1F\ne: null\nf: TRUE\n",
            b"long_value: this is   a value with spaces.and-dots_9",
        ] {
            assert!(is_valid_simple_mapping(ok, 128), "{}", String::from_utf8_lossy(ok));
            assert!(full(ok));
        }
    }

    #[test]
    fn leaves_everything_else_to_the_full_checker() {
        for other in [
            &b""[..],
            b"a: b\na: c\n",
            b"true: x\n",
            b"1: x\n",
            b"a: 1e999\n",
            b"a: .inf\n",
            b"a: - x\n",
            b"a: -\n",
            b"a: b \n",
            b"a:  b\n",
            b"a: b # c\n",
            b"a: 'b'\n",
            b"a: b\n\n",
            b"a: b\r\n",
            b" a: b\n",
            b"a:\n  b: c\n",
            b"a: [b]\n",
            b"---\na: b\n",
            b"a: b\n...\n",
            b"a: \xc3\xa9\n",
        ] {
            assert!(
                !is_valid_simple_mapping(other, 128),
                "{}",
                String::from_utf8_lossy(other)
            );
        }
        assert!(!is_valid_simple_mapping(b"a: b\n", 0));
        let long_key = format!("{}: x\n", "k".repeat(MAX_KEY + 1));
        assert!(!is_valid_simple_mapping(long_key.as_bytes(), 128));
    }

    /// Random blobs of `key: value` lines with random bytes mixed in: most
    /// are in the subset or just outside it. Whenever the fast path says
    /// valid, the full checker agrees.
    #[test]
    fn agrees_with_the_full_checker() {
        let keys: [&[u8]; 8] = [b"a", b"b", b"a_1", b"Z9", b"true", b"_", b"e", b"nulls"];
        let value_bytes = b"ab09.+-eE _x";
        let noise = b":#' \n-\t{[&*!|>\"%@`?,";
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        let mut accepted = 0;
        for _ in 0..100_000 {
            let mut blob = Vec::new();
            for _ in 0..1 + next(4) {
                blob.extend_from_slice(keys[next(keys.len())]);
                blob.extend_from_slice(b": ");
                for _ in 0..1 + next(8) {
                    blob.push(value_bytes[next(value_bytes.len())]);
                }
                blob.push(b'\n');
            }
            if next(2) == 0 {
                let at = next(blob.len() + 1);
                blob.insert(at, noise[next(noise.len())]);
            }
            if next(4) == 0 {
                blob.pop();
            }
            if is_valid_simple_mapping(&blob, 128) {
                accepted += 1;
                assert!(full(&blob), "fast path accepted {:?}", String::from_utf8_lossy(&blob));
            }
        }
        assert!(
            accepted > 5_000,
            "the generator reached the subset only {accepted} times"
        );
    }
}
