//! `sskb convert`: one input to one output, or many into a directory.

use std::fs::File;
use std::io::{self, BufReader, Seek, Write};
use std::path::Path;

use sskb::json::{document_json, JsonLinesReader, JsonLinesWriter};
use sskb::{Error, ErrorKind, EventReader, Frame, SskbReader, SskbWriter};

use crate::cli::Format;
use crate::dump::pretty;
use crate::inout::{open, options, read_document, Failure, Output};
use crate::{batch, import, mesh, report};

/// The conversion options every input shares.
pub struct ConvertOptions {
    pub from: Option<Format>,
    pub to: Option<Format>,
    pub resolution: Option<u32>,
    pub per_piece: bool,
    pub import: import::ImportOptions,
}

impl ConvertOptions {
    /// The usage error of these options for a glTF output or not.
    fn misuse(&self, from: Option<Format>, to: Format) -> Option<&'static str> {
        let importing = from.is_some_and(Format::is_mesh_input);
        let meshing = matches!(to, Format::Glb | Format::Gltf);
        if importing && meshing {
            return Some("a mesh imports into a model (.sskb, .ssk, .json, .jsonl), not into glTF");
        }
        if importing {
            return self.per_piece.then_some("--per-piece applies to .glb and .gltf output");
        }
        // With --out-dir and no --from, each file's own extension decides.
        if self.import.given && from.is_some() {
            return Some("--pieces, --max-pieces and the weights apply to mesh input (.glb, .gltf, .stl, .obj)");
        }
        (!meshing && (self.resolution.is_some() || self.per_piece))
            .then_some("--resolution and --per-piece apply to .glb and .gltf output and to mesh input")
    }

    /// Converts one input to one output of known formats.
    fn run(&self, from: Format, input: &str, to: Format, output: &str) -> Result<(), Failure> {
        if from.is_mesh_input() {
            import::import(input, to, output, self.resolution.unwrap_or(32), &self.import)
        } else if matches!(to, Format::Glb | Format::Gltf) {
            mesh::convert(input, from, output, to, self.resolution.unwrap_or(32), self.per_piece)
        } else {
            convert_files(from, to, input, output)
        }
    }
}

pub fn convert(options: &ConvertOptions, input: &str, output: &str) -> u8 {
    let Some(from) = options.from.or_else(|| Format::of(input)) else {
        eprintln!("error: {input}: give --from (sskb, ssk, json, jsonl) for this input");
        return 2;
    };
    let Some(to) = options.to.or_else(|| Format::of(output)) else {
        eprintln!("error: {output}: give --to (sskb, ssk, json, jsonl, glb, gltf) for this output");
        return 2;
    };
    if matches!(to, Format::Stl | Format::Obj) {
        eprintln!("error: {output}: STL and OBJ are input formats only (mesh a model into .glb or .gltf)");
        return 2;
    }
    if let Some(m) = options.misuse(Some(from), to) {
        eprintln!("error: {m}");
        return 2;
    }
    if to == Format::Gltf && output == "-" {
        eprintln!(
            "error: a .gltf output needs a file name: its buffer is written beside it (use .glb for standard output)"
        );
        return 2;
    }
    report(input, options.run(from, input, to, output))
}

/// `convert --out-dir DIR INPUT...`: each input into DIR, in parallel.
pub fn convert_into(options: &ConvertOptions, dir: &Path, jobs: usize, inputs: &[String]) -> u8 {
    // Meshes import into .ssk; models mesh into .glb.
    let meshes = options
        .from
        .or_else(|| Format::of(inputs.first()?))
        .is_some_and(Format::is_mesh_input)
        && inputs.iter().all(|i| {
            options
                .from
                .or_else(|| Format::of(i))
                .is_some_and(Format::is_mesh_input)
        });
    let to = options.to.unwrap_or(if meshes { Format::Ssk } else { Format::Glb });
    if let Some(m) = options.misuse(options.from, to) {
        eprintln!("error: {m}");
        return 2;
    }
    let extension = format!("{to:?}").to_lowercase();
    batch::into_dir(
        dir,
        jobs,
        inputs,
        options.from,
        &extension,
        "converted",
        |input, from, out| options.run(from, input, to, &out.to_string_lossy()),
    )
}

fn convert_files(from: Format, to: Format, input: &str, output: &str) -> Result<(), Failure> {
    match (from, to) {
        (Format::Sskb, Format::Sskb) => {
            // Event by event: constant memory per point.
            let src = open(input)?;
            let mut out = Output::create(output)?;
            {
                let mut w = SskbWriter::new(&mut out.writer);
                for ev in EventReader::with_options(src.reader, options(src.len)) {
                    w.write_event(&ev?)?;
                }
                w.finish()?;
            }
            Ok(out.commit()?)
        }
        (Format::Sskb, Format::Jsonl) => {
            let src = open(input)?;
            let mut out = Output::create(output)?;
            let mut w = JsonLinesWriter::new(&mut out.writer);
            for frame in SskbReader::with_options(src.reader, options(src.len)) {
                w.frame(&frame?)?;
            }
            Ok(out.commit()?)
        }
        (Format::Jsonl, Format::Sskb) => jsonl_to_sskb(input, output),
        (from, to) => {
            let doc = read_document(input, from)?;
            let bytes = match to {
                Format::Sskb => sskb::encode(&doc)?,
                Format::Ssk => sskb::to_ssk(&doc)?.into_bytes(),
                Format::Json => pretty(&document_json(&doc)?)?,
                Format::Jsonl => {
                    let mut w = JsonLinesWriter::new(Vec::new());
                    w.document(&doc)?;
                    w.into_inner()
                }
                // `ConvertOptions::run` sends glTF output to the mesher.
                Format::Glb | Format::Gltf | Format::Stl | Format::Obj => {
                    return Err(Failure::Usage("glTF output goes through the mesher".to_owned()))
                }
            };
            let mut out = Output::create(output)?;
            out.writer.write_all(&bytes)?;
            Ok(out.commit()?)
        }
    }
}

/// JSON Lines to `.sskb` in two streaming passes: the header needs the piece
/// count first. Standard input is spooled to a temporary file.
fn jsonl_to_sskb(input: &str, output: &str) -> Result<(), Failure> {
    let (mut file, spooled) = if input == "-" {
        let path = std::env::temp_dir().join(format!("sskb-stdin-{}.jsonl", std::process::id()));
        let mut f = File::options().read(true).write(true).create_new(true).open(&path)?;
        io::copy(&mut io::stdin().lock(), &mut f)?;
        f.rewind()?;
        (f, Some(path))
    } else {
        (File::open(input)?, None)
    };
    let result = (|| -> Result<(), Failure> {
        let mut lines = JsonLinesReader::new(BufReader::new(&mut file));
        lines.version()?;
        let mut count: u32 = 0;
        while lines.next_piece()?.is_some() {
            count = count
                .checked_add(1)
                .ok_or_else(|| Error::new(ErrorKind::Structure, "more than u32::MAX pieces"))?;
        }
        drop(lines);
        file.rewind()?;
        let mut lines = JsonLinesReader::new(BufReader::new(&mut file));
        let version = lines.version()?;
        let mut out = Output::create(output)?;
        {
            let mut w = SskbWriter::new(&mut out.writer);
            w.write_frame(&Frame::Header(sskb::Header {
                version,
                piece_count: count,
            }))?;
            while let Some(p) = lines.next_piece()? {
                w.write_frame(&Frame::Piece(p))?;
            }
            let properties = lines.take_properties();
            w.write_frame(&Frame::End(sskb::End { properties }))?;
            w.finish()?;
        }
        Ok(out.commit()?)
    })();
    if let Some(path) = spooled {
        let _ = std::fs::remove_file(path);
    }
    result
}
