//! `sskb diff A B`: two models compared by what they mean.

use std::io::{self, Write};

use serde_json::{json, Value as Json};
use sskb::{DiffOptions, Error, ErrorKind, Value};

use crate::cli::{input_format, Format};
use crate::inout::{error_line, open, read_document, read_to_string, Failure};

/// A model's canonical form, from its tree: as written for `.ssk` and
/// `.json` (integers stay integers), the decoded document's for `.sskb`
/// and `.jsonl`.
fn canonical(path: &str) -> Result<Value, Failure> {
    let tree = match input_format(path)? {
        Format::Ssk => sskb::parse_ssk_value(&read_to_string(open(path)?)?)?,
        Format::Json => {
            let text = read_to_string(open(path)?)?;
            let j: Json =
                serde_json::from_str(&text).map_err(|e| Error::new(ErrorKind::Structure, format!("not JSON: {e}")))?;
            sskb::json::json_value(&j)
        }
        format => read_document(path, format)?.to_value()?,
    };
    Ok(sskb::canonical_document(&tree)?)
}

/// Prints the differences; 0 when equivalent, 1 when not, 2 on errors
/// (either model unreadable or invalid).
pub fn diff(left: &str, right: &str, options: DiffOptions, as_json: bool) -> u8 {
    let mut forms = Vec::with_capacity(2);
    for path in [left, right] {
        match canonical(path) {
            Ok(c) => forms.push(c),
            Err(f) => {
                eprintln!("{}", error_line(path, &f));
                return 2;
            }
        }
    }
    let differences = match sskb::canonical_differences(&forms[0], &forms[1], options) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {} ({})", e.message(), e.kind().name());
            return 2;
        }
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let written = if as_json {
        let body = json!({"equivalent": differences.is_empty(), "differences": differences});
        writeln!(out, "{body}")
    } else {
        differences.iter().try_for_each(|d| writeln!(out, "{d}"))
    };
    if written.and_then(|()| out.flush()).is_err() {
        return 2;
    }
    if !as_json && differences.len() >= options.max_diffs {
        eprintln!(
            "(stopped after {} differences: --max-diffs N shows more)",
            differences.len()
        );
    }
    u8::from(!differences.is_empty())
}
