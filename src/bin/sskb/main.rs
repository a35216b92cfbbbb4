//! `sskb`: validate, dump, inspect and convert SolidSKeleton models
//! (`.sskb`, `.ssk`, JSON and JSON Lines), streaming wherever the operation
//! allows.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

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
    /// of each file in one streaming pass. Exit 0 when all are valid, 1 when
    /// any is invalid, 2 on usage or I/O errors.
    Validate {
        /// One JSON object per file on stdout.
        #[arg(long)]
        json: bool,
        /// Files (`.sskb`, or `.ssk` by extension); `-` is standard input (.sskb).
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
    /// A JSON summary: version, bytes, pieces, inherited pieces, points,
    /// stated shapes and modes, root properties, validity.
    Inspect {
        /// Input `.sskb` file; `-` is standard input.
        file: String,
    },
    /// Convert between `.sskb`, `.ssk`, `.json` (the dump form) and `.jsonl`
    /// (JSON Lines), by extension or by --from/--to; or mesh a valid model
    /// into glTF 2.0 (`.glb`, or `.gltf` with its buffer in a `.bin` beside
    /// it): every piece tessellated and combined by its mode.
    Convert {
        /// Input format (needed for `-`).
        #[arg(long, value_enum)]
        from: Option<Format>,
        /// Output format (needed for `-`).
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
        /// Input file, or `-` for standard input.
        input: String,
        /// Output file, or `-` for standard output.
        output: String,
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
    let reader: Box<dyn Read> = if len > PROGRESS_OVER && io::stderr().is_terminal() {
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
    let code = match cli.command {
        Command::Validate { json, files } => validate(json, &files),
        Command::Dump { lines, resolved, file } => report(&file, dump(&file, lines, resolved)),
        Command::Inspect { file } => inspect(&file),
        Command::Convert {
            from,
            to,
            resolution,
            per_piece,
            input,
            output,
        } => convert(from, to, resolution, per_piece, &input, &output),
    };
    ExitCode::from(code)
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

fn validate(as_json: bool, files: &[String]) -> u8 {
    let mut code = 0;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for file in files {
        let r = validate_one(file);
        let line = match &r {
            Ok(n) => {
                if as_json {
                    json!({"file": file, "valid": true, "pieces": n}).to_string()
                } else {
                    format!("valid  {file}  ({})", counted(*n as u64, "piece"))
                }
            }
            Err(e) => {
                code = code.max(code_of(e));
                if !as_json {
                    eprintln!("{}", error_line(file, e));
                    continue;
                }
                json!({"file": file, "valid": false, "error": error_json(e)}).to_string()
            }
        };
        if writeln!(out, "{line}").is_err() {
            return 2;
        }
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

fn inspect(file: &str) -> u8 {
    let mut c = Counts::default();
    let mut bytes = 0u64;
    let r = (|| -> Result<(), Error> {
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
                Event::PieceEnd(e) => {
                    match e.shape {
                        Some(sskb::Shape::Circle) => c.circle += 1,
                        Some(sskb::Shape::Ngon) => c.ngon += 1,
                        None => {}
                    }
                    match e.mode {
                        Some(sskb::Mode::Add) => c.add += 1,
                        None if !inherited => c.add += 1,
                        Some(sskb::Mode::Subtract) => c.subtract += 1,
                        Some(sskb::Mode::Intersect) => c.intersect += 1,
                        None => {}
                    }
                }
                Event::End(e) => {
                    c.root_properties = e.properties.is_some();
                    bytes = events.decoder().offset();
                    continue;
                }
            }
            v.push_event(&ev)?;
        }
        v.finish()
    })();
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
    let code = match &r {
        Ok(()) => 0,
        Err(e) => {
            summary["error"] = error_json(e);
            code_of(e)
        }
    };
    match serde_json::to_string_pretty(&summary) {
        Ok(text) if writeln!(io::stdout(), "{text}").is_ok() => code,
        _ => 2,
    }
}

fn convert(
    from: Option<Format>,
    to: Option<Format>,
    resolution: Option<u32>,
    per_piece: bool,
    input: &str,
    output: &str,
) -> u8 {
    let Some(from) = from.or_else(|| Format::of(input)) else {
        eprintln!("error: {input}: give --from (sskb, ssk, json, jsonl) for this input");
        return 2;
    };
    let Some(to) = to.or_else(|| Format::of(output)) else {
        eprintln!("error: {output}: give --to (sskb, ssk, json, jsonl, glb, gltf) for this output");
        return 2;
    };
    if matches!(from, Format::Glb | Format::Gltf) {
        eprintln!("error: {input}: glTF is an output format only");
        return 2;
    }
    let meshing = matches!(to, Format::Glb | Format::Gltf);
    if !meshing && (resolution.is_some() || per_piece) {
        eprintln!("error: --resolution and --per-piece apply to .glb and .gltf output");
        return 2;
    }
    if to == Format::Gltf && output == "-" {
        eprintln!(
            "error: a .gltf output needs a file name: its buffer is written beside it (use .glb for standard output)"
        );
        return 2;
    }
    if meshing {
        return report(
            input,
            mesh::convert(input, from, output, to, resolution.unwrap_or(32), per_piece),
        );
    }
    report(input, convert_files(from, to, input, output))
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
