//! `sskb convert IN OUT.glb|OUT.gltf`: validate, mesh, write glTF.
//!
//! An `.sskb` file is read three times, streaming: validation (the same
//! function and errors as `sskb validate`, and nothing is written when it
//! fails), a pass over its events collecting the ids that pieces inherit
//! from, and the meshing pass, which keeps each piece's mesh and the
//! points only of those bases. Standard input is read into memory first.

use std::collections::HashSet;
use std::io::{Read, Write};
use std::path::Path;

use sskb::mesh::{Gltf, Mesher};
use sskb::{DecodeOptions, Error, Event, EventReader, Frame, SskbReader};

use crate::cli::Format;
use crate::inout::{open, options, read_document, Failure, Output};
use crate::own_progress;
use crate::validate::validate_one;

/// The ids that some piece's `from` names.
fn bases<R: Read>(reader: R, opts: DecodeOptions) -> Result<HashSet<u32>, Error> {
    let mut ids = HashSet::new();
    for ev in EventReader::with_options(reader, opts) {
        if let Event::PieceStart(s) = ev? {
            ids.extend(s.from);
        }
    }
    Ok(ids)
}

fn mesh_frames<R: Read>(reader: R, opts: DecodeOptions, mut mesher: Mesher) -> Result<Mesher, Error> {
    for frame in SskbReader::with_options(reader, opts) {
        if let Frame::Piece(p) = frame? {
            mesher.push(&p)?;
        }
    }
    Ok(mesher)
}

/// The validated model's pieces, resolved and tessellated.
pub fn mesher(input: &str, from: Format, resolution: u32) -> Result<Mesher, Failure> {
    match from {
        Format::Sskb if input == "-" => {
            let mut data = Vec::new();
            std::io::stdin().lock().read_to_end(&mut data).map_err(Error::from)?;
            sskb::validate_reader(&data[..], DecodeOptions::new())?;
            let ids = bases(&data[..], DecodeOptions::new())?;
            Ok(mesh_frames(
                &data[..],
                DecodeOptions::new(),
                Mesher::new(resolution).keeping_bases(ids),
            )?)
        }
        Format::Sskb => {
            validate_one(input)?;
            let src = open(input)?;
            let ids = bases(src.reader, options(src.len))?;
            let src = open(input)?;
            Ok(mesh_frames(
                src.reader,
                options(src.len),
                Mesher::new(resolution).keeping_bases(ids),
            )?)
        }
        other => {
            let doc = read_document(input, other)?;
            sskb::validate(&doc)?;
            let mut mesher = Mesher::new(resolution);
            for p in &doc.pieces {
                mesher.push(p)?;
            }
            Ok(mesher)
        }
    }
}

/// A panic inside the boolean library becomes a `mesh` error (see
/// `sskb::mesh`); this keeps its own report off the terminal, once for
/// the process. Any other panic is reported as usual.
pub fn quiet_library_panics() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !info.location().is_some_and(|l| l.file().contains("manifold-rust")) {
            previous(info);
        }
    }));
}

/// Runs `f`, the booleans of `mesher`'s pieces, with a spinner on a
/// terminal when there are many: they can take a while on big models.
pub fn combining<T>(mesher: &Mesher, f: impl FnOnce() -> T) -> T {
    let spinner = (mesher.parts().len() >= 200 && own_progress()).then(|| {
        let s = indicatif::ProgressBar::new_spinner();
        s.set_message(format!("combining {} pieces", mesher.parts().len()));
        s.enable_steady_tick(std::time::Duration::from_millis(120));
        s
    });
    let out = f();
    if let Some(s) = spinner {
        s.finish_and_clear();
    }
    out
}

pub fn convert(
    input: &str,
    from: Format,
    output: &str,
    to: Format,
    resolution: u32,
    per_piece: bool,
) -> Result<(), Failure> {
    let mesher = mesher(input, from, resolution)?;
    let nodes = combining(&mesher, || mesher.scene(per_piece));
    let gltf = Gltf::new(&nodes?)?;
    if gltf.triangles == 0 {
        eprintln!("warning: {input}: the geometry is empty; wrote a glTF with no mesh");
    }
    if to == Format::Glb {
        let mut out = Output::create(output)?;
        gltf.write_glb(&mut out.writer)?;
        return Ok(out.commit()?);
    }
    let bin_path = Path::new(output).with_extension("bin");
    let bin_name = bin_path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let json = gltf.to_gltf(&bin_name)?;
    let mut bin_out = Output::create(&bin_path.to_string_lossy())?;
    bin_out.writer.write_all(gltf.bin())?;
    let mut json_out = Output::create(output)?;
    json_out.writer.write_all(&json)?;
    bin_out.commit()?;
    Ok(json_out.commit()?)
}
