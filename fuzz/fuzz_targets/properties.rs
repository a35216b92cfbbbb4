//! Any bytes as a property blob: parse, serialize and parse again; the
//! decoder's checker agrees with the parser (see `fuzz/checks/properties.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks/properties.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::check(data));
