//! Any bytes that decode to a valid document mesh without a panic, into
//! closed solids (see `fuzz/checks/mesh.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks/mesh.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::check(data));
