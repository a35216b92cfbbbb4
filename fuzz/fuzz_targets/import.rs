//! Any bytes read as a mesh (glTF, STL, OBJ) and, when small, fitted
//! (see `fuzz/checks/import.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks/import.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::check(data));
