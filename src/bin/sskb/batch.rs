//! Many files at once: the inputs named on the command line (files,
//! directories searched for models, `-`), a pool of workers running one
//! task per file, results written in argument order as they complete, a
//! progress bar over files on a terminal, and the summary line.

use std::collections::{BTreeMap, HashMap};
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use sskb::{Error, ErrorKind};

use crate::cli::Format;
use crate::inout::{code_of, Failure};
use crate::MANY;

/// The extensions searched for in a directory.
pub const MODEL_EXTENSIONS: [&str; 4] = ["sskb", "ssk", "json", "jsonl"];

/// One input to work on: a file to open (or `-`), or what went wrong in
/// finding files where an argument pointed.
pub struct Found {
    /// The path as it is reported and opened.
    pub path: String,
    /// For a file found inside a directory argument, its path below that
    /// directory (`convert --out-dir` keeps it).
    pub below: Option<PathBuf>,
    /// Why the argument gave no file (an unreadable directory, one with no
    /// models): reported for `path` like a file's error.
    pub failed: Option<Failure>,
}

/// An input's format and output, or why it has none.
type Planned = Result<(Format, PathBuf), Failure>;

/// Each input's format (`from`, or by extension; glTF refused) and its
/// output in `dir`: its name, or its path below a directory argument,
/// with `extension`. Two inputs may not share an output: the second is
/// refused, naming the first.
fn plan<'a>(found: &'a [Found], dir: &Path, from: Option<Format>, extension: &str) -> Vec<(&'a Found, Planned)> {
    let mut taken: HashMap<PathBuf, String> = HashMap::new();
    found
        .iter()
        .map(|f| {
            let plan = (|| {
                if let Some(e) = &f.failed {
                    return Err(e.clone());
                }
                let from = from.or_else(|| Format::of(&f.path)).ok_or_else(|| {
                    Failure::Usage(
                        "unknown extension (expected .sskb, .ssk, .json or .jsonl; or give --from)".to_owned(),
                    )
                })?;
                let name = f
                    .below
                    .clone()
                    .unwrap_or_else(|| PathBuf::from(Path::new(&f.path).file_name().unwrap_or_default()));
                let out = dir.join(name).with_extension(extension);
                if let Some(first) = taken.get(&out) {
                    return Err(Failure::Usage(format!(
                        "its output {} is already {first}'s",
                        out.display()
                    )));
                }
                taken.insert(out.clone(), f.path.clone());
                Ok((from, out))
            })();
            (f, plan)
        })
        .collect()
}

/// `--out-dir DIR`: every input (files, directories searched) into `dir`
/// as `task(input, its format, its output)` with `extension`, in
/// parallel, each failure reported and skipped, then the summary line
/// (`done` counts the good ones). Exit 0, 1 if any failed, 2 on usage.
pub fn into_dir(
    dir: &Path,
    jobs: usize,
    inputs: &[String],
    from: Option<Format>,
    extension: &str,
    done: &str,
    task: impl Fn(&str, Format, &Path) -> Result<(), Failure> + Sync,
) -> u8 {
    if inputs.iter().any(|i| i == "-") {
        eprintln!("error: with --out-dir, every input needs a name (`-` has none)");
        return 2;
    }
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("error: {}: cannot create the directory: {e}", dir.display());
        return 2;
    }
    let found = collect(inputs);
    MANY.store(found.len() > 1, Ordering::Relaxed);
    let planned = plan(&found, dir, from, extension);
    share_cores(jobs, found.len());
    let mut code = 0;
    let mut summary = Summary::start();
    run(
        &planned,
        jobs,
        |(f, plan)| {
            let r = plan.clone().and_then(|(from, out)| {
                if let Some(parent) = out.parent() {
                    std::fs::create_dir_all(parent).map_err(Error::from)?;
                }
                task(&f.path, from, &out)
            });
            (r, size_of(&f.path))
        },
        |(f, _), (r, bytes)| {
            summary.add(r.as_ref().err(), bytes);
            if let Err(e) = r {
                code = 1;
                eprintln!("{}", crate::inout::error_line(&f.path, &e));
            }
        },
    );
    eprintln!("{}", summary.line(done, "failed"));
    code
}

/// Gives each of `jobs` meshings at once (of `files`) its share of the
/// cores, so that files in parallel do not compete with each meshing's
/// own threads.
fn share_cores(jobs: usize, files: usize) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let at_once = jobs.min(files).max(1);
    sskb::mesh::set_threads((cores / at_once).max(1));
}

/// The files the arguments name, in argument order: a file (or `-`) as
/// given, whatever its extension; a directory's models (regular files, by
/// extension) found recursively, in path order, without following links to
/// directories. An argument that names nothing readable is kept, to be
/// reported as that file's error.
pub fn collect(args: &[String]) -> Vec<Found> {
    let mut out = Vec::new();
    for arg in args {
        let path = Path::new(arg);
        if arg != "-" && path.is_dir() {
            let before = out.len();
            walk(path, path, &mut out);
            if out.len() == before {
                out.push(Found {
                    path: arg.clone(),
                    below: None,
                    failed: Some(Failure::Model(Error::new(
                        ErrorKind::Io,
                        "a directory with no .sskb, .ssk, .json or .jsonl files",
                    ))),
                });
            }
        } else {
            out.push(Found {
                path: arg.clone(),
                below: None,
                failed: None,
            });
        }
    }
    out
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<Found>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            out.push(Found {
                path: dir.to_string_lossy().into_owned(),
                below: None,
                failed: Some(Failure::Model(Error::new(
                    ErrorKind::Io,
                    format!("cannot read the directory: {e}"),
                ))),
            });
            return;
        }
    };
    let mut paths: Vec<(PathBuf, bool)> = entries
        .filter_map(|e| e.ok())
        .map(|e| {
            // A link is followed for a file, never into a directory (no
            // cycles).
            let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
            (e.path(), is_dir)
        })
        .collect();
    paths.sort();
    for (path, is_dir) in paths {
        if is_dir {
            walk(root, &path, out);
        } else if path
            .extension()
            .and_then(|x| x.to_str())
            .is_some_and(|x| MODEL_EXTENSIONS.contains(&x))
            // A regular file, or a link that cannot be followed (reported as
            // unreadable); never a pipe, socket or device, which could block.
            && std::fs::metadata(&path).map_or(true, |m| m.is_file())
        {
            out.push(Found {
                path: path.to_string_lossy().into_owned(),
                below: path.strip_prefix(root).ok().map(Path::to_path_buf),
                failed: None,
            });
        }
    }
}

/// The number of workers: `--jobs`, or one per core.
pub fn jobs(given: Option<usize>) -> usize {
    given.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Runs `task` on every item on `jobs` threads and hands each result to
/// `emit` in the items' order, each as soon as it and all before it are
/// done (results that finish before an earlier one wait for it; each is
/// small, a line's worth). A bar over the items shows progress when stderr
/// is a terminal and there is more than one item.
pub fn run<T: Sync, R: Send>(items: &[T], jobs: usize, task: impl Fn(&T) -> R + Sync, mut emit: impl FnMut(&T, R)) {
    let bar = (items.len() > 1 && io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(items.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template("[{bar:40}] {pos}/{len} files ({eta})")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    });
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            let tx = tx.clone();
            let (next, task) = (&next, &task);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                if tx.send((i, task(item))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut waiting: BTreeMap<usize, R> = BTreeMap::new();
        let mut due = 0;
        for (i, r) in rx {
            waiting.insert(i, r);
            while let Some(r) = waiting.remove(&due) {
                if let Some(b) = &bar {
                    b.suspend(|| emit(&items[due], r));
                    b.inc(1);
                } else {
                    emit(&items[due], r);
                }
                due += 1;
            }
        }
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
}

/// A command's work on every file the arguments name: `task` on `jobs`
/// threads (a file whose argument named nothing readable comes with
/// `failed` set), `emit` writing each file's result to stdout in argument
/// order (with its failure, if any), then the summary line on stderr when
/// there is more than one file. Returns the exit status: the worst failure's (0
/// for none), 2 when stdout cannot be written.
pub fn each_file<R: Send>(
    files: &[String],
    jobs: usize,
    task: impl Fn(&Found) -> (R, Option<Failure>) + Sync,
    mut emit: impl FnMut(&Found, R, Option<&Failure>, &mut dyn Write) -> io::Result<()>,
) -> u8 {
    let found = collect(files);
    MANY.store(found.len() > 1, Ordering::Relaxed);
    let mut code = 0;
    let mut summary = Summary::start();
    let mut out = io::stdout().lock();
    let mut broken = false;
    run(
        &found,
        jobs,
        |f| (task(f), size_of(&f.path)),
        |f, ((r, failure), bytes)| {
            summary.add(failure.as_ref(), bytes);
            if let Some(e) = &failure {
                code = code.max(code_of(e));
            }
            broken |= emit(f, r, failure.as_ref(), &mut out).is_err();
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

/// Whether the files are reported with a summary line: more than one, or
/// any found in a directory.
fn summarized(found: &[Found]) -> bool {
    found.len() != 1 || found.iter().any(|f| f.below.is_some() || f.failed.is_some())
}

/// The counts behind the summary line.
pub struct Summary {
    started: Instant,
    files: u64,
    good: u64,
    errors: BTreeMap<&'static str, u64>,
    bytes: u64,
}

impl Summary {
    pub fn start() -> Summary {
        Summary {
            started: Instant::now(),
            files: 0,
            good: 0,
            errors: BTreeMap::new(),
            bytes: 0,
        }
    }

    /// One file's outcome and the bytes it holds.
    pub fn add(&mut self, error: Option<&Failure>, bytes: u64) {
        self.files += 1;
        self.bytes = self.bytes.saturating_add(bytes);
        match error {
            None => self.good += 1,
            Some(e) => *self.errors.entry(e.kind()).or_default() += 1,
        }
    }

    /// "7 files: 4 valid, 3 invalid (io 1, truncated 2); 12.3 kB in
    /// 0.01 s", with `good`/`bad` naming the two outcomes.
    pub fn line(&self, good: &str, bad: &str) -> String {
        let bad_count = self.files - self.good;
        let mut s = format!(
            "{}: {} {good}, {bad_count} {bad}",
            super::counted(self.files, "file"),
            self.good
        );
        if !self.errors.is_empty() {
            let kinds: Vec<String> = self.errors.iter().map(|(k, n)| format!("{k} {n}")).collect();
            s.push_str(&format!(" ({})", kinds.join(", ")));
        }
        s.push_str(&format!(
            "; {} in {:.2} s",
            human_bytes(self.bytes),
            self.started.elapsed().as_secs_f64()
        ));
        s
    }
}

/// The size of a file (0 for `-` or one that cannot be read).
pub fn size_of(path: &str) -> u64 {
    if path == "-" {
        return 0;
    }
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// "950 bytes", "12.3 kB", "4.6 GB" (powers of 1000).
fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["kB", "MB", "GB", "TB", "PB"];
    if n < 1000 {
        return super::counted(n, "byte");
    }
    let mut v = n as f64 / 1000.0;
    let mut unit = 0;
    while v >= 999.95 && unit + 1 < UNITS.len() {
        v /= 1000.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_read_as_people_write_them() {
        assert_eq!(human_bytes(0), "0 bytes");
        assert_eq!(human_bytes(1), "1 byte");
        assert_eq!(human_bytes(999), "999 bytes");
        assert_eq!(human_bytes(1000), "1.0 kB");
        assert_eq!(human_bytes(12_345), "12.3 kB");
        assert_eq!(human_bytes(999_960), "1.0 MB");
        assert_eq!(human_bytes(4_600_000_000), "4.6 GB");
    }

    #[test]
    fn results_come_out_in_order_on_any_number_of_threads() {
        let items: Vec<u64> = (0..200).collect();
        for jobs in [1, 2, 7] {
            let mut seen = Vec::new();
            run(
                &items,
                jobs,
                |&i| {
                    // Later items finish first now and then.
                    std::thread::sleep(std::time::Duration::from_micros((200 - i) % 7 * 50));
                    i * 2
                },
                |&i, r| seen.push((i, r)),
            );
            assert_eq!(seen, items.iter().map(|&i| (i, i * 2)).collect::<Vec<_>>());
        }
    }
}
