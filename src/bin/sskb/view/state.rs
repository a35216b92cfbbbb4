//! What the server holds: for each model a page has open, its latest
//! state on a watch channel (every page subscribed sees each change); the
//! gallery's summaries and thumbnails, made once per version of a file;
//! and the limits on work at once.
//!
//! Builds are numbered per model. A change to the file starts a new
//! number; a build whose number is no longer the latest stops at its next
//! stage and its results are dropped, so a change during a mesh
//! supersedes it.

use std::collections::HashMap;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use axum::body::Bytes;
use serde_json::{json, Value as Json};
use tokio::sync::{watch, OnceCell, Semaphore};

use super::build::{self, Built, Policy, Stage};
use super::safety::{Hosts, Root};
use crate::cli::Format;
use crate::inout::{error_json, Failure};

/// How long a change waits for the next one (an editor's write, then its
/// rename) before a build starts.
const SETTLE: Duration = Duration::from_millis(25);

/// Models kept open at once; beyond it, those no page watches are dropped.
const MAX_OPEN: usize = 64;

/// Summaries and thumbnails kept; beyond it, the cache starts again.
const MAX_CACHED: usize = 4096;

/// Thumbnails: pixels across, and the resolution they are meshed at.
pub const THUMB_SIZE: u32 = 256;
const THUMB_RESOLUTION: u32 = 16;

/// A model's state as its pages see it.
#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    /// The latest build's number.
    pub version: u64,
    /// `meshing`, `ready` or `error`.
    pub state: &'static str,
    /// What the build is doing, while meshing.
    pub stage: String,
    /// The latest model shown (kept through later errors).
    pub built: Option<Arc<Built>>,
    /// The latest build's error, if it failed.
    pub error: Option<Json>,
}

impl Snapshot {
    /// The event a page receives.
    pub fn json(&self) -> Json {
        let b = self.built.as_deref();
        json!({
            "version": self.version,
            "state": self.state,
            "stage": self.stage,
            "built": b.map(|b| b.version),
            "resolution": b.map(|b| b.resolution),
            "reduced": b.and_then(|b| b.reduced.clone()),
            "triangles": b.map(|b| b.triangles),
            "seconds": b.map(|b| b.seconds),
            "error": self.error,
        })
    }
}

/// One open model.
pub struct Entry {
    pub path: PathBuf,
    generation: AtomicU64,
    pub tx: watch::Sender<Snapshot>,
}

impl Entry {
    fn current(&self, version: u64) -> bool {
        self.generation.load(Ordering::SeqCst) == version
    }

    /// Applies a build's stage, unless a newer build has begun.
    fn publish(&self, version: u64, stage: Stage) {
        if !self.current(version) {
            return;
        }
        self.tx.send_modify(|s| match stage {
            Stage::Working(what) => s.stage = what,
            Stage::Ready { built, last } => {
                s.built = Some(Arc::new(built));
                s.error = None;
                if last {
                    s.state = "ready";
                    s.stage.clear();
                }
            }
            Stage::Failed(e) => {
                s.state = "error";
                s.stage.clear();
                s.error = Some(e);
            }
        });
    }
}

/// A file's version: its modification time and length.
type Stamp = (Option<SystemTime>, u64);

fn stamp(path: &Path) -> Stamp {
    std::fs::metadata(path).map_or((None, 0), |m| (m.modified().ok(), m.len()))
}

/// Something made once per version of a file, awaited by every request
/// that wants it meanwhile.
type Made = Arc<OnceCell<Result<Bytes, Json>>>;

struct Cache(Mutex<HashMap<String, (Stamp, Made)>>);

impl Cache {
    fn new() -> Cache {
        Cache(Mutex::new(HashMap::new()))
    }

    fn slot(&self, rel: &str, stamp: Stamp) -> Made {
        let mut map = lock(&self.0);
        if let Some((s, made)) = map.get(rel) {
            if *s == stamp {
                return made.clone();
            }
        }
        if map.len() >= MAX_CACHED {
            map.clear();
        }
        let made = Made::default();
        map.insert(rel.to_owned(), (stamp, made.clone()));
        made
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

pub struct Inner {
    pub root: Root,
    pub hosts: Hosts,
    pub policy: Policy,
    entries: Mutex<HashMap<String, Arc<Entry>>>,
    /// Mesh jobs at once (models and thumbnails).
    meshing: Arc<Semaphore>,
    /// Summaries being read at once.
    reading: Arc<Semaphore>,
    summaries: Cache,
    thumbs: Cache,
    /// Counts changes under the root, for the gallery.
    pub listing: watch::Sender<u64>,
}

/// The server's state, shared by every request.
#[derive(Clone)]
pub struct App(Arc<Inner>);

impl Deref for App {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

impl App {
    pub fn new(root: Root, hosts: Hosts, policy: Policy, jobs: usize) -> App {
        App(Arc::new(Inner {
            root,
            hosts,
            policy,
            entries: Mutex::new(HashMap::new()),
            meshing: Arc::new(Semaphore::new(jobs)),
            reading: Arc::new(Semaphore::new(jobs)),
            summaries: Cache::new(),
            thumbs: Cache::new(),
            listing: watch::Sender::new(0),
        }))
    }

    /// The open model `rel` (at `path`), opened and built if it was not.
    pub fn entry(&self, rel: &str, path: &Path) -> Arc<Entry> {
        let (entry, new) = {
            let mut entries = lock(&self.entries);
            match entries.get(rel) {
                Some(e) => (e.clone(), false),
                None => {
                    if entries.len() >= MAX_OPEN {
                        entries.retain(|_, e| e.tx.receiver_count() > 0);
                    }
                    let e = Arc::new(Entry {
                        path: path.to_path_buf(),
                        generation: AtomicU64::new(0),
                        tx: watch::Sender::new(Snapshot::default()),
                    });
                    entries.insert(rel.to_owned(), e.clone());
                    (e, true)
                }
            }
        };
        if new {
            self.rebuild(&entry);
        }
        entry
    }

    /// A file under the root changed (written, renamed, removed).
    pub fn changed(&self, rel: &str) {
        self.listing.send_modify(|n| *n += 1);
        let entry = lock(&self.entries).get(rel).cloned();
        if let Some(e) = entry {
            self.rebuild(&e);
        }
    }

    /// Starts a new build of `entry`, superseding any under way.
    fn rebuild(&self, entry: &Arc<Entry>) {
        let version = entry.generation.fetch_add(1, Ordering::SeqCst) + 1;
        entry.tx.send_modify(|s| {
            s.version = version;
            s.state = "meshing";
            s.stage = "waiting".into();
        });
        let (entry, meshing, policy) = (entry.clone(), self.meshing.clone(), self.policy);
        tokio::spawn(async move {
            tokio::time::sleep(SETTLE).await;
            if !entry.current(version) {
                return;
            }
            let Ok(permit) = meshing.acquire_owned().await else {
                return;
            };
            let job = entry.clone();
            let done = tokio::task::spawn_blocking(move || {
                let _permit = permit;
                build::run(
                    &job.path,
                    policy,
                    version,
                    || job.current(version),
                    |stage| job.publish(version, stage),
                );
            })
            .await;
            if done.is_err() {
                let e = json!({"kind": "mesh", "offset": null, "piece": null, "path": null,
                               "message": "the mesher stopped unexpectedly"});
                entry.publish(version, Stage::Failed(e));
            }
        });
    }

    /// Whether a file is valid, with its piece count: `{valid, pieces,
    /// points, version, error}`.
    pub async fn summary(&self, rel: &str, path: &Path) -> Result<Bytes, Json> {
        let made = self.summaries.slot(rel, stamp(path));
        let (path, reading) = (path.to_path_buf(), self.reading.clone());
        made.get_or_init(|| async move {
            let _permit = reading.acquire_owned().await.map_err(|_| json!(null))?;
            let s = tokio::task::spawn_blocking(move || summarize(&path))
                .await
                .map_err(|_| json!({"message": "the reader stopped unexpectedly"}))?;
            Ok(Bytes::from(s.to_string()))
        })
        .await
        .clone()
    }

    /// A file's picture, PNG; its error when it cannot be drawn.
    pub async fn thumb(&self, rel: &str, path: &Path) -> Result<Bytes, Json> {
        let made = self.thumbs.slot(rel, stamp(path));
        let (path, meshing, resolution) = (
            path.to_path_buf(),
            self.meshing.clone(),
            self.policy.resolution.min(THUMB_RESOLUTION),
        );
        made.get_or_init(|| async move {
            let _permit = meshing.acquire_owned().await.map_err(|_| json!(null))?;
            tokio::task::spawn_blocking(move || thumbnail(&path, resolution).map_err(|e| error_json(&e)))
                .await
                .map_err(|_| json!({"message": "the mesher stopped unexpectedly"}))?
        })
        .await
        .clone()
    }
}

fn summarize(path: &Path) -> Json {
    let name = path.to_string_lossy();
    // A binary file is validated streaming, in little memory however big.
    let summary = if Format::of(&name) == Some(Format::Sskb) {
        crate::inout::open(&name)
            .and_then(|input| sskb::validate_reader(input.reader, crate::inout::options(input.len)))
            .map(|s| (s.pieces as u64, s.points, s.version))
            .map_err(Failure::from)
    } else {
        build::load(path).map(|(doc, _)| {
            let points = doc
                .pieces
                .iter()
                .map(|p| p.points.as_ref().map_or(0, Vec::len) as u64)
                .sum();
            (doc.pieces.len() as u64, points, doc.version)
        })
    };
    match summary {
        Ok((pieces, points, version)) => json!({
            "valid": true,
            "pieces": pieces,
            "points": points,
            "version": format!("{}.{}", version.0, version.1),
            "error": null,
        }),
        Err(e) => json!({"valid": false, "pieces": null, "points": null, "version": null, "error": error_json(&e)}),
    }
}

fn thumbnail(path: &Path, resolution: u32) -> Result<Bytes, Failure> {
    use sskb::render::{ColorBy, RenderOptions, Scene};
    let (doc, _) = build::load(path)?;
    let mut mesher = sskb::mesh::Mesher::new(resolution);
    for p in &doc.pieces {
        mesher.push(p)?;
    }
    let picture = Scene::from_mesher(&mesher)?.render(&RenderOptions {
        size: THUMB_SIZE,
        color_by: ColorBy::Mode,
        ..RenderOptions::default()
    })?;
    Ok(Bytes::from(picture.to_png()?))
}
