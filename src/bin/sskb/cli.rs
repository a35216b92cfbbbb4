//! The command line: commands, options, formats.

use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand, ValueEnum};
use sskb::render::{Background, ColorBy, View};

use crate::inout::Failure;

#[derive(Parser)]
#[command(
    name = "sskb",
    version,
    about = "Validate, dump, inspect and convert SolidSKeleton models (.sskb, .ssk, JSON)"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Decode (strict properties, structure rules) and validate the geometry
    /// of each file in one streaming pass, files in parallel, reported in
    /// argument order; for more than one file a summary line follows on
    /// stderr. Exit 0 when all are valid, 1 when any is invalid, 2 on usage
    /// or I/O errors.
    Validate {
        /// One JSON object per file on stdout.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        many: Many,
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
        #[command(flatten)]
        many: Many,
    },
    /// Convert between `.sskb`, `.ssk`, `.json` (the dump form) and `.jsonl`
    /// (JSON Lines), by extension or by --from/--to; or mesh a valid model
    /// into glTF 2.0 (`.glb`, or `.gltf` with its buffer in a `.bin` beside
    /// it): every piece tessellated and combined by its mode; or import a
    /// triangle mesh (`.glb`, `.gltf`, `.stl`, `.obj`) into a model of
    /// swept pieces, printing its coverage, overfill and score. With
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
        /// Mesh import: the number of pieces the model should have (the
        /// score rewards it, as the reference's expected piece count).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        pieces: Option<u32>,
        /// Mesh import: at most this many pieces.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        max_pieces: Option<u32>,
        /// Mesh import: weight of coverage in the score (default 1.18).
        #[arg(long, value_name = "W", value_parser = weight)]
        infill_weight: Option<f64>,
        /// Mesh import: weight of containment, 1 − overfill (default 1.05).
        #[arg(long, value_name = "W", value_parser = weight)]
        outfill_weight: Option<f64>,
        /// Mesh import: weight of the complexity penalty (default 1).
        #[arg(long, value_name = "W", value_parser = weight)]
        complexity_weight: Option<f64>,
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
    /// Compare two models by what they mean, in any input formats: both
    /// validated and resolved, pieces in id order, defaults filled in,
    /// numbers compared within tolerances (as `math.isclose`). Prints one
    /// line per difference (`$.pieces[0].points[1].x: 1.0 != 1.5`), the
    /// same lines as the Python module's `document_differences`. Exit 0
    /// when equivalent, 1 when they differ, 2 on errors (as `diff`).
    Diff {
        /// Relative tolerance for numbers.
        #[arg(long, default_value_t = 1e-6, value_parser = tolerance)]
        rel_tol: f64,
        /// Absolute tolerance for numbers.
        #[arg(long, default_value_t = 1e-5, value_parser = tolerance)]
        abs_tol: f64,
        /// Stop after this many differences.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
        max_diffs: u32,
        /// One JSON object on stdout: `equivalent` and `differences`.
        #[arg(long)]
        json: bool,
        /// The first model (`.sskb`, `.ssk`, `.json`, `.jsonl`; `-` is standard input, .sskb).
        left: String,
        /// The second model.
        right: String,
    },
    /// Draw each model to PNG: meshed as `convert` meshes it (a mesh
    /// file, `.glb`, `.gltf`, `.stl`, `.obj`, as it is), with a depth
    /// buffer, lit by a light fixed to the camera, outlined and
    /// anti-aliased, framed so its bounds fill the picture with a margin,
    /// the model's Z up as glTF viewers show it. With `--out-dir`, every
    /// input (files, directories searched recursively) is drawn into that
    /// directory as `NAME.png` (names and the layout below a directory
    /// argument kept); a file that fails is reported and skipped, never
    /// leaving a partial picture. Exit 1 when any failed.
    Render {
        /// Input format (needed for `-`).
        #[arg(long, value_enum)]
        from: Option<Format>,
        /// Pixels across and down (16 to 4096).
        #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u32).range(16..=4096))]
        size: u32,
        /// iso, front, back, left, right, top, bottom, or AZ,EL in degrees
        /// (azimuth from the front toward the right, elevation up).
        #[arg(long, default_value = "iso", value_parser = crate::render::parse_view, conflicts_with = "views")]
        view: View,
        /// Several views, comma-separated (`iso,front,top`, `iso,30,20`):
        /// `NAME.VIEW.png` each, or one picture with --sheet.
        #[arg(long, value_parser = crate::render::parse_views)]
        views: Option<crate::render::Views>,
        /// The views side by side in one picture (left to right, then down).
        #[arg(long)]
        sheet: bool,
        /// A perspective (30° field of view) instead of orthographic.
        #[arg(long)]
        perspective: bool,
        /// Mesh resolution: vertices around a circle cross-section (3 to 1024).
        #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(3..=1024))]
        resolution: u32,
        /// white, black, transparent or #rrggbb.
        #[arg(long, default_value = "white", value_parser = crate::render::parse_background)]
        background: Background,
        /// none (one colour), piece (a stable colour per piece), mode (add
        /// pieces blue, intersect pieces orange).
        #[arg(long, default_value = "none", value_parser = crate::render::parse_color_by)]
        color_by: ColorBy,
        /// Draw every input into this directory (created if need be)
        /// instead of one input to one output.
        #[arg(long, value_name = "DIR")]
        out_dir: Option<PathBuf>,
        /// Files at once with --out-dir (default: one per core).
        #[arg(long, short = 'j', value_parser = clap::value_parser!(u32).range(1..=1024))]
        jobs: Option<u32>,
        /// MODEL OUT.png (`-` for standard input or output); with
        /// --out-dir, the inputs: files and directories.
        #[arg(required = true, value_name = "MODEL OUT.png | INPUT...")]
        paths: Vec<String>,
    },
    /// Show a model in the browser, live: a local web server meshes it
    /// and serves a page with the model in 3D, its pieces as a list that
    /// shows, hides and highlights each one, subtract and intersect pieces
    /// as ghosts on request, and a clipping plane; when the file changes
    /// (saved by an editor, renamed over), every open page is updated. For
    /// a directory, a gallery of its models (pictures, valid or not, piece
    /// counts), each opening in the viewer. Serves nothing but the named
    /// file or the models under the named directory. Runs until stopped.
    View {
        /// Port (default: the first free of 7700-7719; 0: any free port).
        #[arg(long)]
        port: Option<u16>,
        /// Address to listen on. Anything but a loopback address makes the
        /// models readable from other machines (a warning says so).
        #[arg(long, default_value = "127.0.0.1")]
        host: std::net::IpAddr,
        /// Mesh resolution: vertices around a circle cross-section (3 to 1024).
        #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(3..=1024))]
        resolution: u32,
        /// Seconds a mesh may take: a model expected to take longer is
        /// drawn at the highest resolution that fits (the page says so).
        #[arg(long, default_value_t = 4.0, value_parser = seconds)]
        budget: f64,
        /// Mesh jobs at once (models and gallery pictures).
        #[arg(long, short = 'j', default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=64))]
        jobs: u32,
        /// Print the address without opening a browser.
        #[arg(long)]
        no_open: bool,
        /// A model file (`.sskb`, `.ssk`, `.json`, `.jsonl`) or a directory
        /// of them.
        path: String,
    },
}

/// The files of a command that takes many, and how many at once.
#[derive(Args)]
pub struct Many {
    /// Files at once (default: one per core).
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub jobs: Option<u32>,
    /// Files (`.sskb`; `.ssk`, `.json`, `.jsonl` by extension) and
    /// directories (searched recursively for those); `-` is standard
    /// input (.sskb).
    #[arg(required = true)]
    pub files: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Sskb,
    Ssk,
    Json,
    Jsonl,
    Glb,
    Gltf,
    Stl,
    Obj,
}

impl Format {
    /// A triangle mesh (input only: imported into a model).
    pub fn is_mesh_input(self) -> bool {
        matches!(self, Format::Glb | Format::Gltf | Format::Stl | Format::Obj)
    }

    pub fn of(path: &str) -> Option<Format> {
        match Path::new(path).extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "sskb" => Some(Format::Sskb),
            "ssk" => Some(Format::Ssk),
            "json" => Some(Format::Json),
            "jsonl" | "ndjson" => Some(Format::Jsonl),
            "glb" => Some(Format::Glb),
            "gltf" => Some(Format::Gltf),
            "stl" => Some(Format::Stl),
            "obj" => Some(Format::Obj),
            _ => None,
        }
    }
}

/// A score weight: a finite number, at least 0.
fn weight(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(w) if w.is_finite() && w >= 0.0 => Ok(w),
        _ => Err(format!("'{s}' is not a weight (a number, at least 0)")),
    }
}

pub fn input_format(file: &str) -> Result<Format, Failure> {
    if file == "-" {
        return Ok(Format::Sskb);
    }
    Format::of(file)
        .ok_or_else(|| Failure::Usage("unknown extension (expected .sskb, .ssk, .json or .jsonl)".to_owned()))
}

/// A tolerance: a finite number, zero or more.
fn tolerance(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if t.is_finite() && t >= 0.0 => Ok(t),
        _ => Err(format!("`{s}` is not a tolerance (a finite number, zero or more)")),
    }
}

/// A time in seconds: finite, more than zero, at most a day.
fn seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if t.is_finite() && t > 0.0 && t <= 86_400.0 => Ok(t),
        _ => Err(format!("`{s}` is not a time in seconds (more than 0, at most 86400)")),
    }
}
