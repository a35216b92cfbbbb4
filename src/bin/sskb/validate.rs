//! `sskb validate PATH...`.

use serde_json::json;

use crate::cli::Format;
use crate::inout::{error_json, error_line, open, options, read_document, Failure};
use crate::{batch, counted};

/// One file decoded and validated in one streaming pass (`.sskb`), or
/// read whole and validated (the text forms); its piece count.
pub fn validate_one(file: &str) -> Result<u32, Failure> {
    let format = if file == "-" {
        Format::Sskb
    } else {
        Format::of(file).unwrap_or(Format::Sskb)
    };
    match format {
        Format::Sskb => {
            let input = open(file)?;
            Ok(sskb::validate_reader(input.reader, options(input.len))?.pieces)
        }
        other => {
            let doc = read_document(file, other)?;
            sskb::validate(&doc)?;
            Ok(doc.pieces.len() as u32)
        }
    }
}

/// A line per file: `valid  FILE  (N pieces)` on stdout or the error on
/// stderr, or with `--json` one object per file on stdout.
pub fn validate(as_json: bool, jobs: usize, files: &[String]) -> u8 {
    batch::each_file(
        files,
        jobs,
        |f| match f.failed.clone().map_or_else(|| validate_one(&f.path), Err) {
            Ok(n) => (Some(n), None),
            Err(e) => (None, Some(e)),
        },
        |f, n, failure, out| {
            let file = &f.path;
            match (n, failure) {
                (Some(n), _) if as_json => writeln!(out, "{}", json!({"file": file, "valid": true, "pieces": n})),
                (Some(n), _) => writeln!(out, "valid  {file}  ({})", counted(u64::from(n), "piece")),
                (None, Some(e)) if as_json => {
                    writeln!(out, "{}", json!({"file": file, "valid": false, "error": error_json(e)}))
                }
                (None, Some(e)) => {
                    eprintln!("{}", error_line(file, e));
                    Ok(())
                }
                (None, None) => Ok(()),
            }
        },
    )
}
