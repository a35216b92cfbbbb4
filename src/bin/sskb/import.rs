//! `sskb convert MESH MODEL`: a triangle mesh (glTF, STL, OBJ) fitted with
//! swept pieces and written as a model.

use std::io::Write;
use std::path::Path;

use sskb::import::{fit, read_mesh_file, FitOptions, Weights};
use sskb::json::{document_json, JsonLinesWriter};

use crate::cli::Format;
use crate::dump::pretty;
use crate::inout::{Failure, Output};

/// The import options of `convert`.
pub struct ImportOptions {
    pub pieces: Option<usize>,
    pub max_pieces: Option<usize>,
    pub weights: Weights,
    /// Whether any of them was given (they apply to mesh input only).
    pub given: bool,
}

/// Imports `input` into `output` of format `to`, printing one line on
/// standard error: `imported part.glb: 7 pieces, 41 points; coverage
/// 96.1%, overfill 3.2%, score 0.641`.
pub fn import(input: &str, to: Format, output: &str, resolution: u32, o: &ImportOptions) -> Result<(), Failure> {
    if input == "-" {
        return Err(Failure::Usage(
            "a mesh to import needs a file name (a .gltf names its buffers beside it)".into(),
        ));
    }
    let source = read_mesh_file(Path::new(input))?;
    for n in &source.notes {
        eprintln!("note: {input}: {n}");
    }
    let fitted = fit(
        &source.mesh,
        &FitOptions {
            resolution,
            expected_pieces: o.pieces,
            max_pieces: o.max_pieces,
            weights: o.weights,
            ..FitOptions::default()
        },
    )?;
    let doc = &fitted.document;
    let bytes = match to {
        Format::Sskb => sskb::encode(doc)?,
        Format::Ssk => sskb::to_ssk(doc)?.into_bytes(),
        Format::Json => pretty(&document_json(doc)?)?,
        Format::Jsonl => {
            let mut w = JsonLinesWriter::new(Vec::new());
            w.document(doc)?;
            w.into_inner()
        }
        _ => {
            return Err(Failure::Usage(
                "a mesh imports into .sskb, .ssk, .json or .jsonl".into(),
            ))
        }
    };
    let mut out = Output::create(output)?;
    out.writer.write_all(&bytes)?;
    out.commit()?;
    eprintln!(
        "imported {input}: {} {}, {} {}; coverage {:.1}%, overfill {:.1}%, score {:.3}",
        fitted.pieces,
        if fitted.pieces == 1 { "piece" } else { "pieces" },
        fitted.points,
        if fitted.points == 1 { "point" } else { "points" },
        fitted.score.coverage,
        fitted.score.overfill,
        fitted.quality
    );
    Ok(())
}
