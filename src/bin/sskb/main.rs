//! `sskb`: validate, dump, inspect, diff, convert, render and view SolidSKeleton models
//! (`.sskb`, `.ssk`, JSON and JSON Lines), streaming wherever the operation
//! allows. One file per command; `cli` has the options, `io` the inputs,
//! outputs and failures, `batch` the work on many files at once.

use std::io::{self, IsTerminal};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

mod batch;
mod cli;
mod convert;
mod diff;
mod dump;
mod import;
mod inout;
mod inspect;
mod mesh;
mod render;
mod validate;
mod view;

use clap::Parser;

use cli::{Cli, Command};
use convert::ConvertOptions;
use inout::{code_of, error_line, Failure};

/// mimalloc rather than the system's allocator: meshing makes and frees
/// many large buffers on several threads, and glibc's arenas kept up to a
/// third more memory at the peak (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Set when many files are worked on at once: the bar is over files, and
/// no file has a bar or spinner of its own.
static MANY: AtomicBool = AtomicBool::new(false);

/// Whether a bar or spinner of one file's own may be shown.
fn own_progress() -> bool {
    !MANY.load(Ordering::Relaxed) && io::stderr().is_terminal()
}

/// "1 piece", "2 pieces".
fn counted(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let jobs = |j: Option<u32>| batch::jobs(j.map(|j| j as usize));
    let code = match cli.command {
        Command::Validate { json, many } => validate::validate(json, jobs(many.jobs), &many.files),
        Command::Dump { lines, resolved, file } => report(&file, dump::dump(&file, lines, resolved)),
        Command::Diff {
            rel_tol,
            abs_tol,
            max_diffs,
            json,
            left,
            right,
        } => {
            let options = sskb::DiffOptions {
                rel_tol,
                abs_tol,
                max_diffs: max_diffs as usize,
            };
            diff::diff(&left, &right, options, json)
        }
        Command::Inspect { json, many } => inspect::inspect(json, jobs(many.jobs), &many.files),
        Command::Convert {
            from,
            to,
            resolution,
            per_piece,
            pieces,
            max_pieces,
            infill_weight,
            outfill_weight,
            complexity_weight,
            out_dir,
            jobs: j,
            paths,
        } => {
            let defaults = sskb::import::Weights::default();
            let options = ConvertOptions {
                from,
                to,
                resolution,
                per_piece,
                import: import::ImportOptions {
                    pieces: pieces.map(|n| n as usize),
                    max_pieces: max_pieces.map(|n| n as usize),
                    weights: sskb::import::Weights {
                        infill: infill_weight.unwrap_or(defaults.infill),
                        outfill: outfill_weight.unwrap_or(defaults.outfill),
                        complexity: complexity_weight.unwrap_or(defaults.complexity),
                    },
                    given: pieces.is_some()
                        || max_pieces.is_some()
                        || infill_weight.is_some()
                        || outfill_weight.is_some()
                        || complexity_weight.is_some(),
                },
            };
            mesh::quiet_library_panics();
            match (out_dir, &paths[..]) {
                (Some(dir), inputs) => convert::convert_into(&options, &dir, jobs(j), inputs),
                (None, [input, output]) => convert::convert(&options, input, output),
                (None, _) => {
                    eprintln!("error: give INPUT OUTPUT, or --out-dir DIR and the inputs");
                    2
                }
            }
        }
        Command::Render {
            from,
            size,
            view,
            views,
            sheet,
            perspective,
            resolution,
            background,
            color_by,
            out_dir,
            jobs: j,
            paths,
        } => {
            let job = render::RenderJob {
                from,
                resolution,
                views: views.map_or_else(|| vec![view], |v| v.0),
                sheet,
                options: sskb::render::RenderOptions {
                    size,
                    view,
                    perspective,
                    background,
                    color_by,
                },
            };
            mesh::quiet_library_panics();
            match (out_dir, &paths[..]) {
                (Some(dir), inputs) => render::render_into(&job, &dir, jobs(j), inputs),
                (None, [input, output]) => render::render(&job, input, output),
                (None, _) => {
                    eprintln!("error: give MODEL OUT.png, or --out-dir DIR and the inputs");
                    2
                }
            }
        }
        Command::View {
            port,
            host,
            resolution,
            budget,
            jobs,
            no_open,
            path,
        } => {
            mesh::quiet_library_panics();
            view::view(view::ViewArgs {
                path,
                port,
                host,
                resolution,
                budget,
                jobs: jobs as usize,
                no_open,
            })
        }
    };
    ExitCode::from(code)
}

fn report(file: &str, r: Result<(), Failure>) -> u8 {
    match r {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("{}", error_line(file, &e));
            code_of(&e)
        }
    }
}
