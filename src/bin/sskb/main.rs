//! `sskb`: validate, dump, inspect and convert SolidSKeleton models
//! (`.sskb`, `.ssk`, JSON and JSON Lines), streaming wherever the operation
//! allows.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

mod batch;
mod mesh;

use clap::{Parser, Subcommand, ValueEnum};
use serde_json::{json, Map, Value as Json};
use sskb::json::{
    document_from_json, document_json, piece_from_json, piece_json, properties_from_json, resolved_piece_json,
    root_properties_json, version_from_json, version_json,
};
use sskb::{DecodeOptions, Document, Error, ErrorKind, Event, EventReader, Frame, SskbReader, SskbWriter, Validator};

#[derive(Parser)]
#[command(
    name = "sskb",
    version,
    about = "Validate, dump, inspect and convert SolidSKeleton models (.sskb, .ssk, JSON)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Decode (strict properties, structure rules) and validate the geometry
    /// of each file in one streaming pass, files in parallel, reported in
    /// argument order; for more than one file a summary line follows on
    /// stderr. Exit 0 when all are valid, 1 when any is invalid, 2 on usage
    /// or I/O errors.
    Validate {
        /// One JSON object per file on stdout.
        #[arg(long)]
        json: bool,
        /// Files at once (default: one per core).
        #[arg(long, short = 'j', value_parser = clap::value_parser!(u32).range(1..=1024))]
        jobs: Option<u32>,
        /// Files (`.sskb`; `.ssk`, `.json`, `.jsonl` by extension) and
        /// directories (searched recursively for those); `-` is standard
        /// input (.sskb).
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Print the decoded document as JSON (the dump form).
    Dump {
        /// JSON Lines: the version, one line per piece as it is decoded, then
        /// the root properties; for files larger than memory.
        #[arg(long)]
        lines: bool,
        /// Validate, then print the resolved pieces in id order.
        #[arg(long)]
        resolved: bool,
        /// Input file (`.sskb`, `.ssk`, `.json`, `.jsonl`); `-` is standard input (.sskb).
        file: String,
    },
    /// A JSON summary of each file: version, bytes, pieces, inherited
    /// pieces, points, stated shapes and modes, root properties, validity.
    /// Files in parallel, reported in argument order; for more than one
    /// file a summary line follows on stderr. Exit codes as `validate`.
    Inspect {
        /// One JSON object per line instead of pretty-printed ones.
        #[arg(long)]
        json: bool,
        /// Files at once (default: one per core).
        #[arg(long, short = 'j', value_parser = clap::value_parser!(u32).range(1..=1024))]
        jobs: Option<u32>,
        /// Files (`.sskb`; `.ssk`, `.json`, `.jsonl` by extension) and
        /// directories (searched recursively for those); `-` is standard
        /// input (.sskb).
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Convert between `.sskb`, `.ssk`, `.json` (the dump form) and `.jsonl`
    /// (JSON Lines), by extension or by --from/--to; or mesh a valid model
    /// into glTF 2.0 (`.glb`, or `.gltf` with its buffer in a `.bin` beside
    /// it): every piece tessellated and combined by its mode. With
    /// `--out-dir`, every input (files, directories searched recursively)
    /// is converted into that directory, names and the layout below a
    /// directory argument kept; a file that fails is reported and skipped,
    /// never leaving a partial output. Exit 1 when any failed.
    Convert {
        /// Input format (needed for `-`).
        #[arg(long, value_enum)]
        from: Option<Format>,
        /// Output format (needed for `-`; with --out-dir, default glb).
        #[arg(long, value_enum)]
        to: Option<Format>,
        /// Mesh resolution for glTF output: vertices around a circle
        /// cross-section (3 to 1024).
        #[arg(long, value_parser = clap::value_parser!(u32).range(3..=1024))]
        resolution: Option<u32>,
        /// glTF output: one node per contributing piece (`piece <id>`, its
        /// resolved properties as the node's extras) instead of one mesh.
        #[arg(long)]
        per_piece: bool,
        /// Write every input's conversion into this directory (created if
        /// need be) instead of one input to one output.
        #[arg(long, value_name = "DIR")]
        out_dir: Option<PathBuf>,
        /// Files at once with --out-dir (default: one per core).
        #[arg(long, short = 'j', value_parser = clap::value_parser!(u32).range(1..=1024))]
        jobs: Option<u32>,
        /// INPUT OUTPUT (`-` for standard input or output); with
        /// --out-dir, the inputs: files and directories.
        #[arg(required = true, value_name = "INPUT OUTPUT | INPUT...")]
        paths: Vec<String>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Sskb,
    Ssk,
    Json,
    Jsonl,
    Glb,
    Gltf,
}

impl Format {
    fn of(path: &str) -> Option<Format> {
        match Path::new(path).extension()?.to_str()? {
            "sskb" => Some(Format::Sskb),
            "ssk" => Some(Format::Ssk),
            "json" => Some(Format::Json),
            "jsonl" | "ndjson" => Some(Format::Jsonl),
            "glb" => Some(Format::Glb),
            "gltf" => Some(Format::Gltf),
            _ => None,
        }
    }
}

/// Files larger than this get a progress bar when stderr is a terminal.
const PROGRESS_OVER: u64 = 16 << 20;

/// Set when many files are worked on at once: the bar is over files, and
/// no file has a bar or spinner of its own.
static MANY: AtomicBool = AtomicBool::new(false);

/// Whether a bar or spinner of one file's own may be shown.
fn own_progress() -> bool {
    !MANY.load(Ordering::Relaxed) && io::stderr().is_terminal()
}

/// An input: its reader and, for a file, its length.
struct Input {
    reader: Box<dyn Read>,
    len: Option<u64>,
}

fn open(path: &str) -> Result<Input, Error> {
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

/// "1 piece", "2 pieces".
fn counted(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

fn options(len: Option<u64>) -> DecodeOptions {
    match len {
        Some(n) => DecodeOptions::new().input_len(n),
        None => DecodeOptions::new(),
    }
}

fn error_json(e: &Error) -> Json {
    json!({
        "kind": e.kind().name(),
        "offset": e.offset(),
        "piece": e.piece_id(),
        "path": e.field_path(),
        "message": e.message(),
    })
}

fn error_line(file: &str, e: &Error) -> String {
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
fn code_of(e: &Error) -> u8 {
    if e.kind() == ErrorKind::Io {
        2
    } else {
        1
    }
}

fn read_to_string(input: Input) -> Result<String, Error> {
    let mut text = String::new();
    let mut r = input.reader;
    r.read_to_string(&mut text).map_err(Error::from)?;
    Ok(text)
}

/// A whole document from any input format.
fn read_document(path: &str, format: Format) -> Result<Document, Error> {
    let input = open(path)?;
    match format {
        Format::Sskb => sskb::read_document(input.reader, options(input.len)),
        Format::Ssk => sskb::parse_ssk(&read_to_string(input)?),
        Format::Json => {
            let text = read_to_string(input)?;
            let j: Json =
                serde_json::from_str(&text).map_err(|e| Error::new(ErrorKind::Structure, format!("not JSON: {e}")))?;
            document_from_json(&j)
        }
        Format::Jsonl => {
            let mut doc = Document::default();
            let mut lines = JsonLines::new(BufReader::new(input.reader));
            doc.version = lines.version()?;
            while let Some(p) = lines.next_piece()? {
                doc.pieces.push(p);
            }
            doc.properties = lines.properties.take().flatten();
            Ok(doc)
        }
        Format::Glb | Format::Gltf => Err(Error::new(
            ErrorKind::Io,
            format!("{path}: glTF is an output format only (expected .sskb, .ssk, .json or .jsonl)"),
        )),
    }
}

/// The JSON Lines form: a version line, piece lines, a properties line.
struct JsonLines<R> {
    reader: R,
    line: usize,
    pieces: usize,
    properties: Option<Option<sskb::Properties>>,
}

impl<R: BufRead> JsonLines<R> {
    fn new(reader: R) -> Self {
        JsonLines {
            reader,
            line: 0,
            pieces: 0,
            properties: None,
        }
    }

    fn next_json(&mut self) -> Result<Option<Json>, Error> {
        let mut buf = String::new();
        loop {
            buf.clear();
            let n = self.reader.read_line(&mut buf).map_err(Error::from)?;
            if n == 0 {
                return Ok(None);
            }
            self.line += 1;
            if buf.trim().is_empty() {
                continue;
            }
            return serde_json::from_str(&buf)
                .map(Some)
                .map_err(|e| Error::new(ErrorKind::Structure, format!("line {}: not JSON: {e}", self.line)));
        }
    }

    fn version(&mut self) -> Result<(u16, u16), Error> {
        match self.next_json()? {
            Some(j) => version_from_json(&j),
            None => Err(Error::new(ErrorKind::Truncated, "empty input: expected a version line")),
        }
    }

    /// The next piece, `None` after the properties line.
    fn next_piece(&mut self) -> Result<Option<sskb::Piece>, Error> {
        if self.properties.is_some() {
            return Ok(None);
        }
        let Some(j) = self.next_json()? else {
            return Err(Error::new(
                ErrorKind::Truncated,
                format!(
                    "the input ends after {} without a properties line",
                    counted(self.pieces as u64, "piece")
                ),
            ));
        };
        if let (Some(props), Json::Object(m)) = (j.get("properties"), &j) {
            if m.len() == 1 {
                self.properties = Some(properties_from_json(props)?);
                if self.next_json()?.is_some() {
                    return Err(Error::new(
                        ErrorKind::TrailingBytes,
                        format!("line {}: nothing may follow the properties line", self.line),
                    ));
                }
                return Ok(None);
            }
        }
        let p = piece_from_json(&j, self.pieces)
            .map_err(|e| Error::new(e.kind(), format!("line {}: {}", self.line, e.message())))?;
        self.pieces += 1;
        Ok(Some(p))
    }
}

/// Writes to a file through a temporary sibling renamed on success, or to
/// stdout.
struct Output {
    target: Option<PathBuf>,
    temp: Option<PathBuf>,
    writer: BufWriter<Box<dyn Write>>,
}

impl Output {
    fn create(path: &str) -> Result<Output, Error> {
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

    fn commit(mut self) -> Result<(), Error> {
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    let jobs = |j: Option<u32>| batch::jobs(j.map(|j| j as usize));
    let code = match cli.command {
        Command::Validate { json, jobs: j, files } => validate(json, jobs(j), &files),
        Command::Dump { lines, resolved, file } => report(&file, dump(&file, lines, resolved)),
        Command::Inspect { json, jobs: j, files } => inspect(json, jobs(j), &files),
        Command::Convert {
            from,
            to,
            resolution,
            per_piece,
            out_dir,
            jobs: j,
            paths,
        } => {
            let options = ConvertOptions {
                from,
                to,
                resolution,
                per_piece,
            };
            mesh::quiet_library_panics();
            match (out_dir, &paths[..]) {
                (Some(dir), inputs) => convert_into(&options, &dir, jobs(j), inputs),
                (None, [input, output]) => convert(&options, input, output),
                (None, _) => {
                    eprintln!("error: give INPUT OUTPUT, or --out-dir DIR and the inputs");
                    2
                }
            }
        }
    };
    ExitCode::from(code)
}

/// Whether the files are reported with a summary line: more than one, or
/// any found in a directory.
fn summarized(found: &[batch::Found]) -> bool {
    found.len() != 1 || found.iter().any(|f| f.below.is_some() || f.failed.is_some())
}

fn report(file: &str, r: Result<(), Error>) -> u8 {
    match r {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("{}", error_line(file, &e));
            code_of(&e)
        }
    }
}

fn validate_one(file: &str) -> Result<u32, Error> {
    let format = if file == "-" {
        Format::Sskb
    } else {
        Format::of(file).unwrap_or(Format::Sskb)
    };
    match format {
        Format::Sskb => {
            let input = open(file)?;
            sskb::validate_reader(input.reader, options(input.len)).map(|s| s.pieces)
        }
        other => {
            let doc = read_document(file, other)?;
            sskb::validate(&doc)?;
            Ok(doc.pieces.len() as u32)
        }
    }
}

fn validate(as_json: bool, jobs: usize, files: &[String]) -> u8 {
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

fn input_format(file: &str) -> Result<Format, Error> {
    if file == "-" {
        return Ok(Format::Sskb);
    }
    Format::of(file).ok_or_else(|| {
        Error::new(
            ErrorKind::Io,
            format!("{file}: unknown extension (expected .sskb, .ssk, .json or .jsonl)"),
        )
    })
}

fn dump(file: &str, lines: bool, resolved: bool) -> Result<(), Error> {
    let format = input_format(file)?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if lines && !resolved && format == Format::Sskb {
        // Streaming: one line per piece as it is decoded.
        let input = open(file)?;
        frames_to_lines(SskbReader::with_options(input.reader, options(input.len)), &mut out)?;
        out.flush()?;
        return Ok(());
    }
    let doc = read_document(file, format)?;
    let body = if resolved {
        sskb::validate(&doc)?;
        let r = sskb::resolve(&doc)?;
        let pieces = r
            .pieces
            .iter()
            .map(resolved_piece_json)
            .collect::<Result<Vec<_>, _>>()?;
        if lines {
            let mut text = json!({"version": version_json(r.version)}).to_string();
            for p in pieces {
                text.push('\n');
                text.push_str(&p.to_string());
            }
            text.push('\n');
            text.push_str(&json!({"properties": root_properties_json(r.properties.as_ref())?}).to_string());
            text
        } else {
            let mut m = Map::new();
            m.insert("version".into(), version_json(r.version));
            m.insert("pieces".into(), Json::Array(pieces));
            if let Some(p) = r.properties.as_ref().filter(|p| !p.is_empty()) {
                m.insert("properties".into(), root_properties_json(Some(p))?);
            }
            serde_json::to_string_pretty(&Json::Object(m)).map_err(|e| Error::new(ErrorKind::Io, e.to_string()))?
        }
    } else if lines {
        jsonl_text(&doc)?
    } else {
        serde_json::to_string_pretty(&document_json(&doc)?).map_err(|e| Error::new(ErrorKind::Io, e.to_string()))?
    };
    // Nothing reaches stdout before the whole document is known to be good.
    writeln!(out, "{body}")?;
    out.flush()?;
    Ok(())
}

/// Streams frames out as JSON Lines, one line per piece as it is decoded.
fn frames_to_lines(frames: impl Iterator<Item = Result<Frame, Error>>, out: &mut impl Write) -> Result<(), Error> {
    let mut index = 0;
    for frame in frames {
        let line = match frame? {
            Frame::Header(h) => json!({"version": version_json(h.version)}),
            Frame::Piece(p) => {
                index += 1;
                piece_json(&p, index - 1)?
            }
            Frame::End(e) => json!({"properties": root_properties_json(e.properties.as_ref())?}),
        };
        writeln!(out, "{line}")?;
    }
    Ok(())
}

fn jsonl_text(doc: &Document) -> Result<String, Error> {
    let mut text = json!({"version": version_json(doc.version)}).to_string();
    for (i, p) in doc.pieces.iter().enumerate() {
        text.push('\n');
        text.push_str(&piece_json(p, i)?.to_string());
    }
    text.push('\n');
    text.push_str(&json!({"properties": root_properties_json(doc.properties.as_ref())?}).to_string());
    Ok(text)
}

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
    /// `add`; an inherited one's is its base's, not counted).
    fn stated(&mut self, shape: Option<sskb::Shape>, mode: Option<sskb::Mode>, inherited: bool) {
        match shape {
            Some(sskb::Shape::Circle) => self.circle += 1,
            Some(sskb::Shape::Ngon) => self.ngon += 1,
            None => {}
        }
        match mode {
            Some(sskb::Mode::Add) => self.add += 1,
            None if !inherited => self.add += 1,
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

fn inspect(as_json: bool, jobs: usize, files: &[String]) -> u8 {
    let found = batch::collect(files);
    MANY.store(found.len() > 1, Ordering::Relaxed);
    let mut code = 0;
    let mut summary = batch::Summary::start();
    let mut out = io::stdout().lock();
    let mut broken = false;
    batch::run(
        &found,
        jobs,
        |f| (inspect_one(&f.path, f.failed.clone()), batch::size_of(&f.path)),
        |_, ((j, r), bytes)| {
            summary.add(r.as_ref().err(), bytes);
            if let Err(e) = &r {
                code = code.max(code_of(e));
            }
            let text = if as_json {
                Ok(j.to_string())
            } else {
                serde_json::to_string_pretty(&j)
            };
            broken |= text.map_or(true, |t| writeln!(out, "{t}").is_err());
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

/// One file's inspect summary, and whether it is valid.
fn inspect_one(file: &str, failed: Option<Error>) -> (Json, Result<(), Error>) {
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
                    sskb::validate(&doc)
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
fn inspect_events(file: &str, c: &mut Counts, bytes: &mut u64) -> Result<(), Error> {
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
    v.finish()
}

/// The conversion options every input shares.
struct ConvertOptions {
    from: Option<Format>,
    to: Option<Format>,
    resolution: Option<u32>,
    per_piece: bool,
}

impl ConvertOptions {
    /// The usage error of these options for a glTF output or not.
    fn misuse(&self, to: Format) -> Option<&'static str> {
        let meshing = matches!(to, Format::Glb | Format::Gltf);
        (!meshing && (self.resolution.is_some() || self.per_piece))
            .then_some("--resolution and --per-piece apply to .glb and .gltf output")
    }

    /// Converts one input to one output of known formats.
    fn run(&self, from: Format, input: &str, to: Format, output: &str) -> Result<(), Error> {
        if matches!(to, Format::Glb | Format::Gltf) {
            mesh::convert(input, from, output, to, self.resolution.unwrap_or(32), self.per_piece)
        } else {
            convert_files(from, to, input, output)
        }
    }
}

fn convert(options: &ConvertOptions, input: &str, output: &str) -> u8 {
    let Some(from) = options.from.or_else(|| Format::of(input)) else {
        eprintln!("error: {input}: give --from (sskb, ssk, json, jsonl) for this input");
        return 2;
    };
    let Some(to) = options.to.or_else(|| Format::of(output)) else {
        eprintln!("error: {output}: give --to (sskb, ssk, json, jsonl, glb, gltf) for this output");
        return 2;
    };
    if matches!(from, Format::Glb | Format::Gltf) {
        eprintln!("error: {input}: glTF is an output format only");
        return 2;
    }
    if let Some(m) = options.misuse(to) {
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

/// An input's format and output, or why it has none.
type Planned = Result<(Format, PathBuf), Error>;

/// `convert --out-dir DIR INPUT...`: each input into DIR, in parallel.
fn convert_into(options: &ConvertOptions, dir: &Path, jobs: usize, inputs: &[String]) -> u8 {
    let to = options.to.unwrap_or(Format::Glb);
    if let Some(m) = options.misuse(to) {
        eprintln!("error: {m}");
        return 2;
    }
    if inputs.iter().any(|i| i == "-") {
        eprintln!("error: with --out-dir, every input needs a name (`-` has none)");
        return 2;
    }
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("error: {}: cannot create the directory: {e}", dir.display());
        return 2;
    }
    let found = batch::collect(inputs);
    MANY.store(found.len() > 1, Ordering::Relaxed);
    let extension = format!("{to:?}").to_lowercase();
    // Each output, or why there is none; two inputs may not share one.
    let mut taken: std::collections::HashMap<PathBuf, String> = std::collections::HashMap::new();
    let planned: Vec<(&batch::Found, Planned)> = found
        .iter()
        .map(|f| {
            let plan = (|| {
                if let Some(e) = &f.failed {
                    return Err(e.clone());
                }
                let from = options.from.or_else(|| Format::of(&f.path)).ok_or_else(|| {
                    Error::new(
                        ErrorKind::Io,
                        "unknown extension (expected .sskb, .ssk, .json or .jsonl; or give --from)",
                    )
                })?;
                if matches!(from, Format::Glb | Format::Gltf) {
                    return Err(Error::new(ErrorKind::Io, "glTF is an output format only"));
                }
                let name = f
                    .below
                    .clone()
                    .unwrap_or_else(|| PathBuf::from(Path::new(&f.path).file_name().unwrap_or_default()));
                let out = dir.join(name).with_extension(&extension);
                if let Some(first) = taken.get(&out) {
                    return Err(Error::new(
                        ErrorKind::Io,
                        format!("its output {} is already {first}'s", out.display()),
                    ));
                }
                taken.insert(out.clone(), f.path.clone());
                Ok((from, out))
            })();
            (f, plan)
        })
        .collect();
    let mut code = 0;
    let mut summary = batch::Summary::start();
    batch::run(
        &planned,
        jobs,
        |(f, plan)| {
            let r = plan.clone().and_then(|(from, out)| {
                if let Some(parent) = out.parent() {
                    std::fs::create_dir_all(parent).map_err(Error::from)?;
                }
                options.run(from, &f.path, to, &out.to_string_lossy())
            });
            (r, batch::size_of(&f.path))
        },
        |(f, _), (r, bytes)| {
            summary.add(r.as_ref().err(), bytes);
            if let Err(e) = r {
                code = 1;
                eprintln!("{}", error_line(&f.path, &e));
            }
        },
    );
    eprintln!("{}", summary.line("converted", "failed"));
    code
}

fn convert_files(from: Format, to: Format, input: &str, output: &str) -> Result<(), Error> {
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
            out.commit()
        }
        (Format::Sskb, Format::Jsonl) => {
            let src = open(input)?;
            let mut out = Output::create(output)?;
            frames_to_lines(SskbReader::with_options(src.reader, options(src.len)), &mut out.writer)?;
            out.commit()
        }
        (Format::Jsonl, Format::Sskb) => jsonl_to_sskb(input, output),
        (from, to) => {
            let doc = read_document(input, from)?;
            let bytes = match to {
                Format::Sskb => sskb::encode(&doc)?,
                Format::Ssk => sskb::to_ssk(&doc)?.into_bytes(),
                Format::Json => {
                    let mut t = serde_json::to_string_pretty(&document_json(&doc)?)
                        .map_err(|e| Error::new(ErrorKind::Io, e.to_string()))?;
                    t.push('\n');
                    t.into_bytes()
                }
                Format::Jsonl => {
                    let mut t = jsonl_text(&doc)?;
                    t.push('\n');
                    t.into_bytes()
                }
                // `convert` sends glTF output to the mesher.
                Format::Glb | Format::Gltf => {
                    return Err(Error::new(ErrorKind::Io, "glTF output goes through the mesher"))
                }
            };
            let mut out = Output::create(output)?;
            out.writer.write_all(&bytes)?;
            out.commit()
        }
    }
}

/// JSON Lines to `.sskb` in two streaming passes: the header needs the piece
/// count first. Standard input is spooled to a temporary file.
fn jsonl_to_sskb(input: &str, output: &str) -> Result<(), Error> {
    let (mut file, spooled) = if input == "-" {
        let path = std::env::temp_dir().join(format!("sskb-stdin-{}.jsonl", std::process::id()));
        let mut f = File::options()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(Error::from)?;
        io::copy(&mut io::stdin().lock(), &mut f)?;
        f.rewind()?;
        (f, Some(path))
    } else {
        (File::open(input).map_err(Error::from)?, None)
    };
    let result = (|| {
        let mut lines = JsonLines::new(BufReader::new(&mut file));
        lines.version()?;
        let mut count: u32 = 0;
        while lines.next_piece()?.is_some() {
            count = count
                .checked_add(1)
                .ok_or_else(|| Error::new(ErrorKind::Structure, "more than u32::MAX pieces"))?;
        }
        drop(lines);
        file.rewind()?;
        let mut lines = JsonLines::new(BufReader::new(&mut file));
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
            let properties = lines.properties.take().flatten();
            w.write_frame(&Frame::End(sskb::End { properties }))?;
            w.finish()?;
        }
        out.commit()
    })();
    if let Some(path) = spooled {
        let _ = std::fs::remove_file(path);
    }
    result
}
