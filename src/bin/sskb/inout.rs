//! Inputs and outputs: opening files and standard input, reading a whole
//! document in any input format, writing outputs atomically, and the
//! failures of one file with how they are reported.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::PathBuf;

use serde_json::{json, Value as Json};
use sskb::json::{document_from_json, JsonLinesReader};
use sskb::{DecodeOptions, Document, Error, ErrorKind};

use crate::cli::Format;
use crate::own_progress;

/// What went wrong with one file: the library's error, or a usage error
/// (an unknown extension, a glTF input, two inputs for one output), which
/// is reported with the kind `usage` and exit status 2.
#[derive(Clone, Debug)]
pub enum Failure {
    Model(Error),
    Usage(String),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        Failure::Model(e)
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Model(e.into())
    }
}

impl Failure {
    /// The stable snake_case name of its kind.
    pub fn kind(&self) -> &'static str {
        match self {
            Failure::Model(e) => e.kind().name(),
            Failure::Usage(_) => "usage",
        }
    }
}

/// Files larger than this get a progress bar when stderr is a terminal.
const PROGRESS_OVER: u64 = 16 << 20;

/// An input: its reader and, for a file, its length.
pub struct Input {
    pub reader: Box<dyn Read>,
    pub len: Option<u64>,
}

pub fn open(path: &str) -> Result<Input, Error> {
    if path == "-" {
        return Ok(Input {
            reader: Box::new(io::stdin().lock()),
            len: None,
        });
    }
    let file = File::open(path).map_err(Error::from)?;
    let meta = file.metadata().map_err(Error::from)?;
    if meta.is_dir() {
        return Err(Error::new(ErrorKind::Io, format!("{path} is a directory")));
    }
    let len = meta.len();
    let reader: Box<dyn Read> = if len > PROGRESS_OVER && own_progress() {
        let bar = indicatif::ProgressBar::new(len);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{msg} [{bar:40}] {bytes}/{total_bytes} ({eta})")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_message(path.to_owned());
        Box::new(bar.wrap_read(file))
    } else {
        Box::new(file)
    };
    Ok(Input { reader, len: Some(len) })
}

pub fn options(len: Option<u64>) -> DecodeOptions {
    match len {
        Some(n) => DecodeOptions::new().input_len(n),
        None => DecodeOptions::new(),
    }
}

pub fn error_json(f: &Failure) -> Json {
    match f {
        Failure::Model(e) => json!({
            "kind": e.kind().name(),
            "offset": e.offset(),
            "piece": e.piece_id(),
            "path": e.field_path(),
            "message": e.message(),
        }),
        Failure::Usage(m) => json!({"kind": "usage", "offset": null, "piece": null, "path": null, "message": m}),
    }
}

pub fn error_line(file: &str, f: &Failure) -> String {
    let e = match f {
        Failure::Model(e) => e,
        Failure::Usage(m) => return format!("error: {file}: {m} (usage)"),
    };
    let mut s = format!("error: {file}: ");
    if let Some(o) = e.offset() {
        s.push_str(&format!("offset {o}: "));
    }
    if let Some(p) = e.field_path() {
        s.push_str(&format!("{p}: "));
    }
    s.push_str(&format!("{} ({})", e.message(), e.kind().name()));
    s
}

/// Exit codes: 0 all good, 1 invalid input, 2 usage or I/O.
pub fn code_of(f: &Failure) -> u8 {
    match f {
        Failure::Model(e) if e.kind() != ErrorKind::Io => 1,
        _ => 2,
    }
}

pub fn read_to_string(input: Input) -> Result<String, Error> {
    let mut text = String::new();
    let mut r = input.reader;
    r.read_to_string(&mut text).map_err(Error::from)?;
    Ok(text)
}

/// A whole document from any input format.
pub fn read_document(path: &str, format: Format) -> Result<Document, Failure> {
    let input = open(path)?;
    match format {
        Format::Sskb => Ok(sskb::read_document(input.reader, options(input.len))?),
        Format::Ssk => Ok(sskb::parse_ssk(&read_to_string(input)?)?),
        Format::Json => {
            let text = read_to_string(input)?;
            let j: Json =
                serde_json::from_str(&text).map_err(|e| Error::new(ErrorKind::Structure, format!("not JSON: {e}")))?;
            Ok(document_from_json(&j)?)
        }
        Format::Jsonl => Ok(JsonLinesReader::new(BufReader::new(input.reader)).document()?),
        Format::Glb | Format::Gltf | Format::Stl | Format::Obj => Err(Failure::Usage(
            "a mesh is not a model: import it first with `sskb convert MESH MODEL.ssk` (expected .sskb, .ssk, .json or .jsonl)"
                .to_owned(),
        )),
    }
}

/// Writes to a file through a temporary sibling renamed on success, or to
/// stdout.
pub struct Output {
    target: Option<PathBuf>,
    temp: Option<PathBuf>,
    pub writer: BufWriter<Box<dyn Write>>,
}

impl Output {
    pub fn create(path: &str) -> Result<Output, Error> {
        if path == "-" {
            return Ok(Output {
                target: None,
                temp: None,
                writer: BufWriter::new(Box::new(io::stdout().lock())),
            });
        }
        let target = PathBuf::from(path);
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let temp = target.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
        let file = File::create(&temp).map_err(Error::from)?;
        Ok(Output {
            target: Some(target),
            temp: Some(temp),
            writer: BufWriter::new(Box::new(file)),
        })
    }

    pub fn commit(mut self) -> Result<(), Error> {
        self.writer.flush()?;
        if let (Some(temp), Some(target)) = (self.temp.take(), &self.target) {
            std::fs::rename(&temp, target).map_err(Error::from)?;
        }
        Ok(())
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take() {
            let _ = std::fs::remove_file(temp);
        }
    }
}
