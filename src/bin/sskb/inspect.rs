//! `sskb inspect PATH...`: what a file holds, counted.

use std::io;

use serde_json::{json, Value as Json};
use sskb::json::version_json;
use sskb::{Document, Event, EventReader, Validator};

use crate::batch;
use crate::cli::{input_format, Format};
use crate::inout::{error_json, open, options, read_document, Failure};

#[derive(Default)]
struct Counts {
    version: (u16, u16),
    pieces: u64,
    inherited: u64,
    points: u64,
    circle: u64,
    ngon: u64,
    add: u64,
    subtract: u64,
    intersect: u64,
    root_properties: bool,
}

impl Counts {
    /// A piece's stated shape and mode (no mode on a piece of its own is
    /// the default mode; an inherited one's is its base's, not counted).
    fn stated(&mut self, shape: Option<sskb::Shape>, mode: Option<sskb::Mode>, inherited: bool) {
        match shape {
            Some(sskb::Shape::Circle) => self.circle += 1,
            Some(sskb::Shape::Ngon) => self.ngon += 1,
            None => {}
        }
        match mode.or((!inherited).then(sskb::Mode::default)) {
            Some(sskb::Mode::Add) => self.add += 1,
            Some(sskb::Mode::Subtract) => self.subtract += 1,
            Some(sskb::Mode::Intersect) => self.intersect += 1,
            None => {}
        }
    }

    fn of(doc: &Document) -> Counts {
        let mut c = Counts {
            version: doc.version,
            root_properties: doc.properties.is_some(),
            ..Counts::default()
        };
        for p in &doc.pieces {
            c.pieces += 1;
            c.inherited += u64::from(p.from.is_some());
            c.points += p.points.as_ref().map_or(0, |v| v.len() as u64);
            c.stated(p.shape, p.mode, p.from.is_some());
        }
        c
    }
}

/// A JSON summary per file, pretty or (`--json`) one line each.
pub fn inspect(as_json: bool, jobs: usize, files: &[String]) -> u8 {
    batch::each_file(
        files,
        jobs,
        |f| {
            let (j, r) = inspect_one(&f.path, f.failed.clone());
            (j, r.err())
        },
        |_, j, _, out| {
            let text = if as_json {
                j.to_string()
            } else {
                serde_json::to_string_pretty(&j).map_err(io::Error::other)?
            };
            writeln!(out, "{text}")
        },
    )
}

/// One file's inspect summary, and whether it is valid.
fn inspect_one(file: &str, failed: Option<Failure>) -> (Json, Result<(), Failure>) {
    let mut c = Counts::default();
    let mut bytes = 0u64;
    let r = match failed {
        Some(e) => Err(e),
        None => match input_format(file) {
            Ok(Format::Sskb) => inspect_events(file, &mut c, &mut bytes),
            Ok(format) => {
                bytes = batch::size_of(file);
                read_document(file, format).and_then(|doc| {
                    c = Counts::of(&doc);
                    Ok(sskb::validate(&doc)?)
                })
            }
            Err(e) => Err(e),
        },
    };
    let mut summary = json!({
        "file": file,
        "version": version_json(c.version),
        "bytes": bytes,
        "pieces": c.pieces,
        "inherited_pieces": c.inherited,
        "points": c.points,
        "shapes": {"circle": c.circle, "ngon": c.ngon},
        "modes": {"add": c.add, "subtract": c.subtract, "intersect": c.intersect},
        "root_properties": c.root_properties,
        "valid": r.is_ok(),
    });
    if let Err(e) = &r {
        summary["error"] = error_json(e);
    }
    (summary, r)
}

/// The counts of an `.sskb` file, streaming, and its validity.
fn inspect_events(file: &str, c: &mut Counts, bytes: &mut u64) -> Result<(), Failure> {
    let input = open(file)?;
    let mut events = EventReader::with_options(input.reader, options(input.len));
    let mut v = Validator::new();
    let mut inherited = false;
    while let Some(ev) = events.next_item()? {
        match &ev {
            Event::Header(h) => c.version = h.version,
            Event::PieceStart(s) => {
                c.pieces += 1;
                inherited = s.from.is_some();
                c.inherited += u64::from(inherited);
            }
            Event::Point(_) => c.points += 1,
            Event::PieceEnd(e) => c.stated(e.shape, e.mode, inherited),
            Event::End(e) => {
                c.root_properties = e.properties.is_some();
                *bytes = events.decoder().offset();
                continue;
            }
        }
        v.push_event(&ev)?;
    }
    Ok(v.finish()?)
}
