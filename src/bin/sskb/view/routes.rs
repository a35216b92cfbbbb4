//! The routes. Pages: `/` (the viewer for one file, the gallery for a
//! directory), `/view?path=` (the viewer), `/assets/NAME`. Data, all with
//! `path=` the file's path below the served directory: `/api/info`,
//! `/api/list`, `/api/summary`, `/api/model`, `/api/mesh`, `/api/events`
//! (server-sent events), `/api/thumb`.

use std::collections::HashMap;
use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use axum::extract::{FromRequestParts, Path as UrlPath, Query, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde_json::{json, Value as Json};

use super::build::Built;
use super::safety::{self, Refused, Root};
use super::state::{App, Entry};

type Params = Query<HashMap<String, String>>;

/// How long a request for a model waits for its first build.
const FIRST_BUILD: Duration = Duration::from_secs(120);

/// Models listed in the gallery at most.
const MAX_LISTED: usize = 10_000;

pub fn router(app: App) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/view", get(viewer))
        .route("/assets/{name}", get(asset))
        .route("/api/info", get(info))
        .route("/api/list", get(list))
        .route("/api/summary", get(summary))
        .route("/api/model", get(model))
        .route("/api/mesh", get(mesh))
        .route("/api/events", get(events))
        .route("/api/thumb", get(thumb))
        .fallback(not_found)
        .layer(axum::middleware::from_fn_with_state(app.clone(), safety::guard))
        .with_state(app)
}

fn typed(status: StatusCode, kind: &'static str, body: impl Into<axum::body::Body>) -> Response {
    let mut r = (status, body.into()).into_response();
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

fn json_response(status: StatusCode, j: &Json) -> Response {
    typed(status, "application/json", j.to_string())
}

fn problem(status: StatusCode, message: &str) -> Response {
    Problem::new(status, message).into_response()
}

/// A refusal: its status and JSON body.
struct Problem(StatusCode, Json);

impl Problem {
    fn new(status: StatusCode, message: &str) -> Problem {
        Problem(status, json!({ "message": message }))
    }
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        json_response(self.0, &self.1)
    }
}

async fn not_found() -> Response {
    problem(StatusCode::NOT_FOUND, "no such page")
}

/// The file a request names, or the response refusing it.
fn file_of(app: &App, q: &HashMap<String, String>) -> Result<(String, PathBuf), Problem> {
    let rel = match (q.get("path"), &app.root) {
        (Some(p), _) => p.clone(),
        (None, Root::File { name, .. }) => name.clone(),
        (None, Root::Dir(_)) => return Err(Problem::new(StatusCode::BAD_REQUEST, "give path=")),
    };
    match app.root.resolve(&rel) {
        Ok(path) => Ok((rel, path)),
        Err(Refused::Bad(why)) => Err(Problem::new(StatusCode::BAD_REQUEST, why)),
        Err(Refused::Missing) => Err(Problem::new(StatusCode::NOT_FOUND, "no such model here")),
    }
}

/// The model file a request names (`path=`, or the one file served), as
/// an extractor: a handler that takes it never runs for a refused path.
struct ModelFile {
    rel: String,
    path: PathBuf,
}

impl FromRequestParts<App> for ModelFile {
    type Rejection = Problem;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, Problem> {
        let Query(q) =
            Params::try_from_uri(&parts.uri).map_err(|_| Problem::new(StatusCode::BAD_REQUEST, "a malformed query"))?;
        let (rel, path) = file_of(app, &q)?;
        Ok(ModelFile { rel, path })
    }
}

async fn index(State(app): State<App>) -> Response {
    match app.root {
        Root::File { .. } => page(super::assets::VIEWER_HTML),
        Root::Dir(_) => page(super::assets::GALLERY_HTML),
    }
}

async fn viewer() -> Response {
    page(super::assets::VIEWER_HTML)
}

fn page(html: &'static str) -> Response {
    typed(StatusCode::OK, "text/html; charset=utf-8", html)
}

async fn asset(UrlPath(name): UrlPath<String>) -> Response {
    match super::assets::get(&name) {
        Some((kind, body)) => {
            let mut r = typed(StatusCode::OK, kind, body);
            r.headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            r
        }
        None => problem(StatusCode::NOT_FOUND, "no such asset"),
    }
}

async fn info(State(app): State<App>) -> Response {
    let (mode, name) = match &app.root {
        Root::File { name, .. } => ("file", name.clone()),
        Root::Dir(d) => (
            "dir",
            d.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        ),
    };
    json_response(
        StatusCode::OK,
        &json!({
            "mode": mode,
            "name": name,
            "resolution": app.policy.resolution,
            "budget": app.policy.budget.as_secs_f64(),
            "sskb": env!("CARGO_PKG_VERSION"),
        }),
    )
}

async fn list(State(app): State<App>) -> Response {
    let root = app.root.clone();
    let listed = tokio::task::spawn_blocking(move || {
        let dir = root.dir().to_string_lossy().into_owned();
        let found = match &root {
            Root::File { name, .. } => vec![name.clone()],
            Root::Dir(_) => crate::batch::collect(&[dir])
                .into_iter()
                .filter(|f| f.failed.is_none())
                .filter_map(|f| root.rel_of(std::path::Path::new(&f.path)))
                .collect(),
        };
        let truncated = found.len() > MAX_LISTED;
        let files: Vec<Json> = found
            .into_iter()
            .filter_map(|rel| {
                let path = root.resolve(&rel).ok()?;
                let meta = std::fs::metadata(path).ok()?;
                let modified = meta
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                    .map(|d| d.as_millis() as u64);
                Some(json!({"path": rel, "bytes": meta.len(), "modified": modified}))
            })
            .take(MAX_LISTED)
            .collect();
        json!({ "files": files, "truncated": truncated })
    })
    .await;
    match listed {
        Ok(j) => json_response(StatusCode::OK, &j),
        Err(_) => problem(StatusCode::INTERNAL_SERVER_ERROR, "listing failed"),
    }
}

async fn summary(State(app): State<App>, ModelFile { rel, path }: ModelFile) -> Response {
    match app.summary(&rel, &path).await {
        Ok(body) => typed(StatusCode::OK, "application/json", body),
        Err(e) => json_response(StatusCode::INTERNAL_SERVER_ERROR, &e),
    }
}

/// The model's latest build, waiting for the first when there is none.
async fn latest(entry: &Arc<Entry>) -> Result<Arc<Built>, Problem> {
    let mut rx = entry.tx.subscribe();
    let wait = async {
        loop {
            {
                let s = rx.borrow_and_update();
                if let Some(b) = &s.built {
                    return Ok(b.clone());
                }
                if let Some(e) = &s.error {
                    return Err(Problem(StatusCode::UNPROCESSABLE_ENTITY, json!({ "error": e })));
                }
            }
            if rx.changed().await.is_err() {
                return Err(Problem::new(StatusCode::SERVICE_UNAVAILABLE, "the model was closed"));
            }
        }
    };
    tokio::time::timeout(FIRST_BUILD, wait).await.unwrap_or_else(|_| {
        Err(Problem::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "still meshing; try again",
        ))
    })
}

fn versioned(mut r: Response, built: &Built) -> Response {
    if let Ok(v) = HeaderValue::from_str(&built.version.to_string()) {
        r.headers_mut().insert("x-sskb-version", v);
    }
    r
}

async fn model(State(app): State<App>, ModelFile { rel, path }: ModelFile) -> Response {
    let entry = app.entry(&rel, &path);
    match latest(&entry).await {
        Ok(b) => {
            let status = entry.tx.borrow().json();
            let mut body = Vec::with_capacity(b.model.len() + 512);
            body.extend_from_slice(br#"{"status":"#);
            body.extend_from_slice(status.to_string().as_bytes());
            body.extend_from_slice(br#","model":"#);
            body.extend_from_slice(&b.model);
            body.push(b'}');
            versioned(typed(StatusCode::OK, "application/json", body), &b)
        }
        Err(p) => p.into_response(),
    }
}

async fn mesh(State(app): State<App>, ModelFile { rel, path }: ModelFile) -> Response {
    let entry = app.entry(&rel, &path);
    match latest(&entry).await {
        Ok(b) => versioned(typed(StatusCode::OK, "application/octet-stream", b.mesh.clone()), &b),
        Err(p) => p.into_response(),
    }
}

/// Server-sent events from a watch channel: its value now, then at each
/// change, as `data(value)`.
fn watch_events<T: Send + Sync + 'static>(rx: tokio::sync::watch::Receiver<T>, data: fn(&T) -> String) -> Response {
    let stream = futures_util::stream::unfold((rx, true), move |(mut rx, first)| async move {
        if !first && rx.changed().await.is_err() {
            return None;
        }
        let event = Event::default().data(data(&rx.borrow_and_update()));
        Some((Ok::<_, Infallible>(event), (rx, false)))
    });
    let mut r = Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response();
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

async fn events(State(app): State<App>, Query(q): Params) -> Response {
    if !q.contains_key("path") && matches!(app.root, Root::Dir(_)) {
        // The gallery: one event per change under the directory.
        return watch_events(app.listing.subscribe(), |n| json!({ "changes": n }).to_string());
    }
    match file_of(&app, &q) {
        Ok((rel, path)) => watch_events(app.entry(&rel, &path).tx.subscribe(), |s| s.json().to_string()),
        Err(p) => p.into_response(),
    }
}

async fn thumb(State(app): State<App>, ModelFile { rel, path }: ModelFile) -> Response {
    match app.thumb(&rel, &path).await {
        Ok(png) => typed(StatusCode::OK, "image/png", png),
        Err(e) => json_response(StatusCode::UNPROCESSABLE_ENTITY, &json!({ "error": e })),
    }
}
