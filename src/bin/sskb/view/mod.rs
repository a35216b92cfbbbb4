//! `sskb view PATH`: a local web server showing a model in 3D in the
//! browser, live while its file is edited; for a directory, a gallery of
//! its models. `safety` says what it refuses, `state` what it holds,
//! `build` how a model is made ready, `watch` how changes are seen,
//! `routes` what it answers, `assets` the page.

mod assets;
mod build;
mod routes;
mod safety;
mod state;
mod watch;

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Duration;

use build::Policy;
use safety::{Hosts, Root};
use state::App;

use crate::batch::MODEL_EXTENSIONS;

/// The ports tried in turn when none is given.
const PORTS: std::ops::RangeInclusive<u16> = 7700..=7719;

/// What `sskb view` was asked.
pub struct ViewArgs {
    pub path: String,
    pub port: Option<u16>,
    pub host: IpAddr,
    pub resolution: u32,
    pub budget: f64,
    pub jobs: usize,
    pub no_open: bool,
}

fn root_of(path: &str) -> Result<Root, String> {
    let real = Path::new(path)
        .canonicalize()
        .map_err(|e| format!("{path}: cannot open: {e}"))?;
    if real.is_dir() {
        return Ok(Root::Dir(real));
    }
    let model = real
        .extension()
        .and_then(|x| x.to_str())
        .is_some_and(|x| MODEL_EXTENSIONS.contains(&x));
    if !model {
        return Err(format!("{path}: not a model (expected .sskb, .ssk, .json or .jsonl)"));
    }
    match (real.parent(), real.file_name().and_then(|n| n.to_str())) {
        (Some(dir), Some(name)) => Ok(Root::File {
            dir: dir.to_path_buf(),
            name: name.to_owned(),
        }),
        _ => Err(format!("{path}: the file's name is not UTF-8")),
    }
}

async fn bind(host: IpAddr, port: Option<u16>) -> std::io::Result<tokio::net::TcpListener> {
    if let Some(p) = port {
        return tokio::net::TcpListener::bind((host, p)).await;
    }
    for p in PORTS {
        if let Ok(l) = tokio::net::TcpListener::bind((host, p)).await {
            return Ok(l);
        }
    }
    tokio::net::TcpListener::bind((host, 0)).await
}

/// Opens `url` in the user's browser (`$BROWSER`, else the system's
/// opener), not waiting for it.
fn open_browser(url: &str) {
    let opener = std::env::var("BROWSER")
        .ok()
        .filter(|b| !b.is_empty())
        .unwrap_or_else(|| {
            if cfg!(target_os = "macos") {
                "open".into()
            } else if cfg!(windows) {
                "explorer".into()
            } else {
                "xdg-open".into()
            }
        });
    let started = std::process::Command::new(&opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = started {
        eprintln!("note: could not open a browser ({opener}: {e}); open {url}");
    }
}

/// Runs the server until the process is stopped. Exit 2 when it cannot
/// start.
pub fn view(args: ViewArgs) -> u8 {
    // No progress bars of files read: the terminal shows the URL.
    crate::MANY.store(true, Ordering::Relaxed);
    let root = match root_of(&args.path) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(64)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the server: {e}");
            return 2;
        }
    };
    runtime.block_on(serve(root, args))
}

async fn serve(root: Root, args: ViewArgs) -> u8 {
    let listener = match bind(args.host, args.port).await {
        Ok(l) => l,
        Err(e) => {
            let port = args.port.map_or("7700-7719".to_owned(), |p| p.to_string());
            eprintln!("error: cannot listen on {} port {port}: {e}", args.host);
            return 2;
        }
    };
    let addr = match listener.local_addr() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: cannot listen: {e}");
            return 2;
        }
    };
    let shown = if addr.ip().is_unspecified() {
        SocketAddr::new(IpAddr::from([127, 0, 0, 1]), addr.port())
    } else {
        addr
    };
    if !addr.ip().is_loopback() {
        eprintln!(
            "warning: listening on {}, reachable from other machines: whoever reaches it can read the models under {}",
            addr.ip(),
            root.dir().display()
        );
    }
    let policy = Policy {
        resolution: args.resolution,
        budget: Duration::from_secs_f64(args.budget),
    };
    let what = match &root {
        Root::File { dir, name } => dir.join(name).display().to_string(),
        Root::Dir(dir) => format!("{}/", dir.display()),
    };
    let app = App::new(root, Hosts::for_addr(addr), policy, args.jobs);
    let _watcher = match watch::start(app.clone()) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("error: cannot watch {what} for changes: {e}");
            return 2;
        }
    };
    let url = format!("http://{shown}/");
    println!("sskb view: {what} at {url} (Ctrl-C to stop)");
    let _ = std::io::stdout().flush();
    if !args.no_open {
        open_browser(&url);
    }
    if let Err(e) = axum::serve(listener, routes::router(app)).await {
        eprintln!("error: the server stopped: {e}");
        return 2;
    }
    0
}
