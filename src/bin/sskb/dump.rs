//! `sskb dump FILE`: the document as JSON or JSON Lines.

use std::io::{self, BufWriter, Write};

use serde_json::{Map, Value as Json};
use sskb::json::{document_json, resolved_piece_json, root_properties_json, version_json, JsonLinesWriter};
use sskb::{Error, ErrorKind, SskbReader};

use crate::cli::{input_format, Format};
use crate::inout::{open, options, read_document, Failure};

/// Prints the document: streamed line by line for `--lines` on `.sskb`;
/// otherwise built whole first, so that nothing reaches stdout before the
/// whole document is known to be good.
pub fn dump(file: &str, lines: bool, resolved: bool) -> Result<(), Failure> {
    let format = input_format(file)?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if lines && !resolved && format == Format::Sskb {
        let input = open(file)?;
        let mut w = JsonLinesWriter::new(&mut out);
        for frame in SskbReader::with_options(input.reader, options(input.len)) {
            w.frame(&frame?)?;
        }
        out.flush()?;
        return Ok(());
    }
    let doc = read_document(file, format)?;
    let body: Vec<u8> = if resolved {
        sskb::validate(&doc)?;
        let r = sskb::resolve(&doc)?;
        if lines {
            let mut w = JsonLinesWriter::new(Vec::new());
            w.version(r.version)?;
            for p in &r.pieces {
                w.resolved_piece(p)?;
            }
            w.properties(r.properties.as_ref())?;
            w.into_inner()
        } else {
            let pieces = r
                .pieces
                .iter()
                .map(resolved_piece_json)
                .collect::<Result<Vec<_>, _>>()?;
            let mut m = Map::new();
            m.insert("version".into(), version_json(r.version));
            m.insert("pieces".into(), Json::Array(pieces));
            if let Some(p) = r.properties.as_ref().filter(|p| !p.is_empty()) {
                m.insert("properties".into(), root_properties_json(Some(p))?);
            }
            pretty(&Json::Object(m))?
        }
    } else if lines {
        let mut w = JsonLinesWriter::new(Vec::new());
        w.document(&doc)?;
        w.into_inner()
    } else {
        pretty(&document_json(&doc)?)?
    };
    out.write_all(&body)?;
    out.flush()?;
    Ok(())
}

/// Pretty-printed JSON and a newline.
pub fn pretty(j: &Json) -> Result<Vec<u8>, Error> {
    let mut t = serde_json::to_vec_pretty(j).map_err(|e| Error::new(ErrorKind::Io, e.to_string()))?;
    t.push(b'\n');
    Ok(t)
}
