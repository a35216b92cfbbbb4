//! Any bytes as a property blob: parse never panics; whatever parses is
//! serialized back to a blob that parses to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sskb::Properties;

fuzz_target!(|data: &[u8]| {
    let p = Properties::from_raw(data.to_vec());
    if let Ok(v) = p.parse() {
        let again = Properties::from_value(&v).expect("a parsed value serializes");
        assert_eq!(again.parse().expect("serialized properties parse"), v);
    }
});
