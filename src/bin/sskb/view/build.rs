//! One model made ready for the page, on a blocking thread: read,
//! validated, its pieces listed, meshed at a resolution that fits the time
//! budget, and encoded for the page.
//!
//! The mesh goes to the page as one binary message: `SSKV`, a `u32`
//! (little-endian) giving the length of a JSON header padded with spaces
//! to a multiple of 4, the header (`parts`: `id`, `mode`, `kind` solid or
//! ghost, `vertices`, `triangles`; `bounds`; `resolution`), then for each
//! part its positions (`f32` × 3, millimetres) and its triangles (`u32` ×
//! 3), little-endian. Solid parts are the pieces' shares of the combined
//! solid (their union is what `sskb convert` writes); ghosts are the
//! subtract and intersect pieces' own shapes, drawn only on request.

use std::path::Path;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use serde_json::{json, Value as Json};
use sskb::mesh::{Mesh, Mesher};
use sskb::{Document, Mode, ResolvedDocument};

use crate::cli::Format;
use crate::inout::{error_json, read_document, Failure};

/// The lowest resolution drawn, and the first one tried.
pub const FIRST_RESOLUTION: u32 = 8;

/// A full mesh expected to take longer than this is preceded by a coarse
/// one on the page.
const PREVIEW_OVER: Duration = Duration::from_millis(300);

/// How models are meshed.
#[derive(Clone, Copy, Debug)]
pub struct Policy {
    /// The resolution asked for.
    pub resolution: u32,
    /// The longest a mesh may take before a lower resolution is drawn
    /// instead.
    pub budget: Duration,
}

/// A model ready for the page.
#[derive(Debug)]
pub struct Built {
    /// The build's generation (see `state`).
    pub version: u64,
    /// The piece list, JSON.
    pub model: Bytes,
    /// The mesh message.
    pub mesh: Bytes,
    /// The resolution it was meshed at.
    pub resolution: u32,
    /// Why it is not at the resolution asked for, when it is not.
    pub reduced: Option<String>,
    /// Triangles in its solid parts.
    pub triangles: usize,
    /// Seconds spent meshing it.
    pub seconds: f64,
}

/// What a build reports as it goes.
pub enum Stage {
    /// Work under way: what is being done.
    Working(String),
    /// A model to show; `last` when no finer one follows.
    Ready { built: Built, last: bool },
    /// Why the file cannot be shown (its error, as `sskb validate --json`
    /// gives it).
    Failed(Json),
}

/// Reads and validates a model.
///
/// # Errors
/// The file's failure: unreadable, malformed, invalid.
pub fn load(path: &Path) -> Result<(Document, ResolvedDocument), Failure> {
    let name = path.to_string_lossy();
    let format = Format::of(&name).ok_or_else(|| Failure::Usage("not a model file".into()))?;
    let doc = read_document(&name, format)?;
    sskb::validate(&doc)?;
    let resolved = sskb::resolve(&doc)?;
    Ok((doc, resolved))
}

fn v3(v: sskb::Vec3) -> Json {
    json!([v.x, v.y, v.z])
}

/// The piece list: what the page's tree shows.
pub fn model_json(resolved: &ResolvedDocument) -> Json {
    let properties = |p: Option<&sskb::Properties>| match p {
        None => Json::Null,
        Some(p) if p.is_empty() => Json::Null,
        Some(p) => match p.parse() {
            Ok(v) => sskb::json::value_json(&v),
            Err(e) => json!({ "error": e.message() }),
        },
    };
    let pieces: Vec<Json> = resolved
        .pieces
        .iter()
        .map(|p| {
            json!({
                "id": p.id,
                "from": p.from,
                "shape": p.shape.name(),
                "sides": p.sides,
                "mode": p.effective_mode().name(),
                "points": p.points.len(),
                "size": v3(p.size),
                "rotation": p.rotation.map(v3),
                "affects": p.affects,
                "properties": properties(p.properties.as_ref()),
            })
        })
        .collect();
    json!({
        "version": format!("{}.{}", resolved.version.0, resolved.version.1),
        "pieces": pieces,
        "properties": properties(resolved.properties.as_ref()),
    })
}

/// A part for the page: piece id, mode, whether it is a ghost, its mesh.
struct Shown {
    id: u32,
    mode: Mode,
    ghost: bool,
    mesh: Mesh,
}

/// The parts of `doc` meshed at `resolution`.
fn mesh(doc: &Document, resolution: u32) -> Result<Vec<Shown>, Failure> {
    let mut mesher = Mesher::new(resolution);
    for p in &doc.pieces {
        mesher.push(p)?;
    }
    let mut shown: Vec<Shown> = mesher
        .visible()?
        .into_iter()
        .filter(|(_, _, m)| !m.is_empty())
        .map(|(id, mode, mesh)| Shown {
            id,
            mode,
            ghost: false,
            mesh,
        })
        .collect();
    shown.extend(mesher.parts().iter().filter(|p| p.mode != Mode::Add).map(|p| Shown {
        id: p.id,
        mode: p.mode,
        ghost: true,
        mesh: p.mesh.clone(),
    }));
    Ok(shown)
}

fn bounds<'a>(meshes: impl Iterator<Item = &'a Mesh>) -> Option<([f64; 3], [f64; 3])> {
    meshes.filter_map(Mesh::bounds).reduce(|(lo, hi), (l, h)| {
        (
            [lo[0].min(l[0]), lo[1].min(l[1]), lo[2].min(l[2])],
            [hi[0].max(h[0]), hi[1].max(h[1]), hi[2].max(h[2])],
        )
    })
}

/// The mesh message (see the module docs).
fn encode(shown: &[Shown], version: u64, resolution: u32) -> Bytes {
    let parts: Vec<Json> = shown
        .iter()
        .map(|s| {
            json!({
                "id": s.id,
                "mode": s.mode.name(),
                "kind": if s.ghost { "ghost" } else { "solid" },
                "vertices": s.mesh.positions.len(),
                "triangles": s.mesh.triangles.len(),
            })
        })
        .collect();
    let solid = bounds(shown.iter().filter(|s| !s.ghost).map(|s| &s.mesh));
    let all = solid.or_else(|| bounds(shown.iter().map(|s| &s.mesh)));
    let mut header = json!({
        "version": version,
        "resolution": resolution,
        "parts": parts,
        "bounds": all.map(|(lo, hi)| json!([lo, hi])),
    })
    .to_string()
    .into_bytes();
    while header.len() % 4 != 0 {
        header.push(b' ');
    }
    let floats: usize = shown
        .iter()
        .map(|s| s.mesh.positions.len() * 3 + s.mesh.triangles.len() * 3)
        .sum();
    let mut out = Vec::with_capacity(8 + header.len() + floats * 4);
    out.extend_from_slice(b"SSKV");
    out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    out.extend_from_slice(&header);
    for s in shown {
        for p in &s.mesh.positions {
            for c in p {
                out.extend_from_slice(&(*c as f32).to_le_bytes());
            }
        }
        for t in &s.mesh.triangles {
            for i in t {
                out.extend_from_slice(&i.to_le_bytes());
            }
        }
    }
    Bytes::from(out)
}

/// The resolution to mesh at, when one at `first` took `took`: the one
/// asked for when it is expected to fit the budget (time grows with the
/// square of the resolution), else the highest multiple of 4 that is.
pub fn fitting(policy: Policy, first: u32, took: Duration) -> u32 {
    if policy.resolution <= first {
        return policy.resolution;
    }
    let scale = (policy.budget.as_secs_f64() / took.as_secs_f64().max(1e-6)).sqrt();
    let fits = f64::from(first) * scale;
    if fits >= f64::from(policy.resolution) {
        policy.resolution
    } else {
        ((fits as u32) / 4 * 4).max(first)
    }
}

/// Builds `path` as generation `version`, reporting each stage, and
/// stopping between stages once `current` says a newer build has begun.
pub fn run(path: &Path, policy: Policy, version: u64, current: impl Fn() -> bool, mut report: impl FnMut(Stage)) {
    report(Stage::Working("reading".into()));
    let (doc, resolved) = match load(path) {
        Ok(d) => d,
        Err(e) => return report(Stage::Failed(error_json(&e))),
    };
    let model = Bytes::from(model_json(&resolved).to_string());
    let first = policy.resolution.min(FIRST_RESOLUTION);
    let mut resolution = first;
    loop {
        if !current() {
            return;
        }
        report(Stage::Working(format!("meshing at resolution {resolution}")));
        let start = Instant::now();
        let shown = match mesh(&doc, resolution) {
            Ok(s) => s,
            Err(e) => return report(Stage::Failed(error_json(&e))),
        };
        let took = start.elapsed();
        let next = if resolution == first {
            fitting(policy, first, took)
        } else {
            resolution
        };
        let scale = f64::from(next) / f64::from(first);
        let expected = took.mul_f64(scale * scale);
        let last = next == resolution;
        let reduced = (resolution < policy.resolution).then(|| {
            if last {
                format!(
                    "drawn at resolution {resolution}, not {}: the full mesh would take about {:.0} s, over the {:.0} s \
                     budget (--budget)",
                    policy.resolution,
                    took.as_secs_f64() * (f64::from(policy.resolution) / f64::from(resolution)).powi(2),
                    policy.budget.as_secs_f64()
                )
            } else {
                format!("a first look at resolution {resolution}; resolution {next} follows")
            }
        });
        // A quick full mesh is not preceded by a coarse one on the page.
        if last || expected > PREVIEW_OVER {
            let triangles = shown.iter().filter(|s| !s.ghost).map(|s| s.mesh.triangles.len()).sum();
            let built = Built {
                version,
                model: model.clone(),
                mesh: encode(&shown, version, resolution),
                resolution,
                reduced,
                triangles,
                seconds: took.as_secs_f64(),
            };
            report(Stage::Ready { built, last });
        }
        if last {
            return;
        }
        resolution = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(resolution: u32, budget: f64) -> Policy {
        Policy {
            resolution,
            budget: Duration::from_secs_f64(budget),
        }
    }

    #[test]
    fn resolution_fits_the_budget() {
        // Time grows with the square of the resolution.
        assert_eq!(fitting(policy(32, 4.0), 8, Duration::from_millis(10)), 32);
        assert_eq!(fitting(policy(32, 4.0), 8, Duration::from_millis(250)), 32);
        assert_eq!(fitting(policy(32, 4.0), 8, Duration::from_millis(260)), 28);
        assert_eq!(fitting(policy(32, 4.0), 8, Duration::from_secs(1)), 16);
        assert_eq!(fitting(policy(32, 4.0), 8, Duration::from_secs(30)), 8);
        assert_eq!(fitting(policy(6, 4.0), 6, Duration::from_secs(30)), 6);
        assert_eq!(fitting(policy(32, 4.0), 8, Duration::ZERO), 32);
    }

    #[test]
    fn mesh_message_layout() {
        let doc = sskb::parse_ssk(
            "pieces:\n- id: 0\n  points: [{x: 0, y: 0, z: 0}, {x: 0, y: 0, z: 10}]\n  size: {x: 5, y: 5, z: 0}\n  \
             shape: circle\n- id: 1\n  points: [{x: 0, y: 0, z: 5}]\n  size: {x: 3, y: 3, z: 3}\n  shape: circle\n  \
             mode: subtract\n",
        )
        .unwrap();
        let shown = mesh(&doc, 8).unwrap();
        assert_eq!(
            shown.iter().map(|s| (s.id, s.ghost)).collect::<Vec<_>>(),
            [(0, false), (1, true)]
        );
        let bytes = encode(&shown, 7, 8);
        assert_eq!(&bytes[..4], b"SSKV");
        let n = u32::from_le_bytes(bytes[4..8].try_into().unwrap()) as usize;
        assert_eq!(n % 4, 0);
        let header: Json = serde_json::from_slice(&bytes[8..8 + n]).unwrap();
        assert_eq!(header["version"], 7);
        let body: usize = header["parts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| 12 * p["vertices"].as_u64().unwrap() as usize + 12 * p["triangles"].as_u64().unwrap() as usize)
            .sum();
        assert_eq!(8 + n + body, bytes.len());
        assert_eq!(header["parts"][1]["kind"], "ghost");
        assert_eq!(header["parts"][1]["mode"], "subtract");
        let b = &header["bounds"];
        assert!((b[1][2].as_f64().unwrap() - 10.0).abs() < 1e-6);
    }
}
