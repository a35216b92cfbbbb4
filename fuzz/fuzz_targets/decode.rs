//! Any bytes: every door must agree to the byte, nothing panics, and what
//! decodes re-encodes to the same document (see `fuzz/checks/decode.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks/decode.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::check(data));
