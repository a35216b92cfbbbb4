//! `sskb validate PATH...`.

use std::io::{self, Write};
use std::sync::atomic::Ordering;

use serde_json::json;

use crate::cli::Format;
use crate::inout::{code_of, error_json, error_line, open, options, read_document, Failure};
use crate::{batch, counted, summarized, MANY};

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

pub fn validate(as_json: bool, jobs: usize, files: &[String]) -> u8 {
    let found = batch::collect(files);
    MANY.store(found.len() > 1, Ordering::Relaxed);
    let mut code = 0;
    let mut summary = batch::Summary::start();
    let mut out = io::stdout().lock();
    let mut broken = false;
    batch::run(
        &found,
        jobs,
        |f| match &f.failed {
            Some(e) => (Err(e.clone()), 0),
            None => (validate_one(&f.path), batch::size_of(&f.path)),
        },
        |f, (r, bytes)| {
            summary.add(r.as_ref().err(), bytes);
            let file = &f.path;
            let line = match &r {
                Ok(n) if as_json => json!({"file": file, "valid": true, "pieces": n}).to_string(),
                Ok(n) => format!("valid  {file}  ({})", counted(u64::from(*n), "piece")),
                Err(e) => {
                    code = code.max(code_of(e));
                    if !as_json {
                        eprintln!("{}", error_line(file, e));
                        return;
                    }
                    json!({"file": file, "valid": false, "error": error_json(e)}).to_string()
                }
            };
            broken |= writeln!(out, "{line}").is_err();
        },
    );
    if broken || out.flush().is_err() {
        return 2;
    }
    if summarized(&found) {
        eprintln!("{}", summary.line("valid", "invalid"));
    }
    code
}
