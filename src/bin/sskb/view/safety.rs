//! What the server refuses: requests for another host (DNS rebinding),
//! methods other than GET and HEAD, bodies, long targets, and paths that
//! lead outside what it was asked to serve. Every response carries a
//! content security policy that lets the page load nothing from elsewhere.

use std::net::{IpAddr, SocketAddr};
use std::path::{Component, Path, PathBuf};

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::state::App;
use crate::batch::MODEL_EXTENSIONS;

/// The page's own scripts, styles and images only: no inline script, no
/// other origin, no frames, no plugins.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; \
                       connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; \
                       form-action 'none'";

/// The longest request target accepted (path and query).
pub const MAX_TARGET: usize = 4096;

/// Which `Host` headers name this server.
#[derive(Clone, Debug)]
pub struct Hosts {
    port: u16,
    /// Bound to every address (`0.0.0.0`, `::`): any IP literal is ours.
    any_ip: bool,
    ips: Vec<IpAddr>,
}

impl Hosts {
    pub fn for_addr(addr: SocketAddr) -> Hosts {
        let mut ips = vec![addr.ip()];
        if addr.ip().is_loopback() || addr.ip().is_unspecified() {
            ips.extend(
                ["127.0.0.1".parse::<IpAddr>(), "::1".parse::<IpAddr>()]
                    .into_iter()
                    .flatten(),
            );
        }
        Hosts {
            port: addr.port(),
            any_ip: addr.ip().is_unspecified(),
            ips,
        }
    }

    /// Whether `host` (a `Host` header: a name or IP literal and a port)
    /// names this server. A name other than `localhost` is refused: a page
    /// from elsewhere whose name was made to resolve to this machine must
    /// not read its files.
    pub fn allows(&self, host: &str) -> bool {
        let (name, port) = match host.rsplit_once(':') {
            Some((n, p)) if !n.is_empty() && (!n.contains(':') || n.starts_with('[')) => (n, p.parse::<u16>().ok()),
            _ => (host, Some(80)),
        };
        if port != Some(self.port) {
            return false;
        }
        if name.eq_ignore_ascii_case("localhost") {
            return self.ips.iter().any(IpAddr::is_loopback);
        }
        let literal = name.strip_prefix('[').and_then(|n| n.strip_suffix(']')).unwrap_or(name);
        match literal.parse::<IpAddr>() {
            Ok(ip) => self.any_ip || self.ips.contains(&ip),
            Err(_) => false,
        }
    }
}

fn refuse(status: StatusCode, message: &str) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        format!("{message}\n"),
    )
        .into_response()
}

/// The checks every request passes before its route, and the headers
/// every response gets.
pub async fn guard(State(app): State<App>, request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let mut response = if !app.hosts.allows(host) {
        refuse(
            StatusCode::MISDIRECTED_REQUEST,
            "this server answers only to the address it is bound to (check the Host header)",
        )
    } else if request.method() != Method::GET && request.method() != Method::HEAD {
        let mut r = refuse(StatusCode::METHOD_NOT_ALLOWED, "only GET and HEAD");
        r.headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        r
    } else if request.headers().contains_key(header::TRANSFER_ENCODING)
        || request
            .headers()
            .get(header::CONTENT_LENGTH)
            .is_some_and(|l| l.as_bytes() != b"0")
    {
        refuse(StatusCode::PAYLOAD_TOO_LARGE, "requests carry no body")
    } else if request.uri().to_string().len() > MAX_TARGET {
        refuse(StatusCode::URI_TOO_LONG, "the request target is too long")
    } else {
        next.run(request).await
    };
    let h = response.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert("cross-origin-resource-policy", HeaderValue::from_static("same-origin"));
    response
}

/// What was named on the command line.
#[derive(Clone, Debug)]
pub enum Root {
    /// One model: only it is served, under its file name.
    File { dir: PathBuf, name: String },
    /// A directory: the models under it.
    Dir(PathBuf),
}

/// Why a requested path is not served.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// Malformed or leading outside: 400.
    Bad(&'static str),
    /// Not there, or not a model: 404.
    Missing,
}

impl Root {
    /// The directory watched and searched, canonical.
    pub fn dir(&self) -> &Path {
        match self {
            Root::File { dir, .. } | Root::Dir(dir) => dir,
        }
    }

    /// The file a request's `path` names: a relative path of plain
    /// components (`/`-separated, no `.`, `..`, root, drive or backslash)
    /// to a model file whose real location, links followed, is inside the
    /// root; for one file, only its name.
    pub fn resolve(&self, rel: &str) -> Result<PathBuf, Refused> {
        if rel.is_empty() || rel.len() > 1024 {
            return Err(Refused::Bad("give a path (at most 1024 bytes)"));
        }
        if rel.contains('\\') || rel.contains('\0') || rel.contains(':') {
            return Err(Refused::Bad("a path has no backslash, colon or NUL"));
        }
        let path = Path::new(rel);
        if !path.components().all(|c| matches!(c, Component::Normal(_)))
            || rel.split('/').any(|s| s.is_empty() || s == ".")
        {
            return Err(Refused::Bad("a path is relative, with no `.`, `..` or empty parts"));
        }
        if !path
            .extension()
            .and_then(|x| x.to_str())
            .is_some_and(|x| MODEL_EXTENSIONS.contains(&x))
        {
            return Err(Refused::Missing);
        }
        if let Root::File { name, .. } = self {
            if rel != name {
                return Err(Refused::Missing);
            }
        }
        let real = self.dir().join(path).canonicalize().map_err(|_| Refused::Missing)?;
        if !real.starts_with(self.dir()) {
            return Err(Refused::Bad("the path leads outside the served directory"));
        }
        if !std::fs::metadata(&real).is_ok_and(|m| m.is_file()) {
            return Err(Refused::Missing);
        }
        Ok(self.dir().join(path))
    }

    /// The request path of a file under the root (its path below it,
    /// `/`-separated), or `None` when it is outside or not valid UTF-8.
    pub fn rel_of(&self, path: &Path) -> Option<String> {
        let below = path.strip_prefix(self.dir()).ok()?;
        let parts: Option<Vec<&str>> = below
            .components()
            .map(|c| match c {
                Component::Normal(s) => s.to_str(),
                _ => None,
            })
            .collect();
        let rel = parts?.join("/");
        match self {
            Root::File { name, .. } if &rel != name => None,
            _ if rel.is_empty() => None,
            _ => Some(rel),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_on_loopback() {
        let h = Hosts::for_addr("127.0.0.1:7700".parse().unwrap());
        for ok in ["127.0.0.1:7700", "localhost:7700", "LOCALHOST:7700", "[::1]:7700"] {
            assert!(h.allows(ok), "{ok}");
        }
        for bad in [
            "",
            "127.0.0.1",
            "127.0.0.1:7701",
            "evil.example:7700",
            "localhost.evil.example:7700",
            "10.0.0.1:7700",
            "127.0.0.1:7700:7700",
            "[::1:7700",
        ] {
            assert!(!h.allows(bad), "{bad}");
        }
    }

    #[test]
    fn hosts_on_every_address() {
        let h = Hosts::for_addr("0.0.0.0:80".parse().unwrap());
        assert!(h.allows("192.168.1.20"));
        assert!(h.allows("192.168.1.20:80"));
        assert!(h.allows("localhost"));
        assert!(!h.allows("rebound.example"));
        let h = Hosts::for_addr("192.168.1.20:9000".parse().unwrap());
        assert!(h.allows("192.168.1.20:9000"));
        assert!(!h.allows("localhost:9000"));
        assert!(!h.allows("127.0.0.1:9000"));
    }

    fn tree() -> (PathBuf, Root) {
        let base = std::env::temp_dir().join(format!("sskb-view-safety-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(base.join("root/sub")).unwrap();
        std::fs::write(base.join("root/a.ssk"), "pieces: []\n").unwrap();
        std::fs::write(base.join("root/sub/b.sskb"), b"").unwrap();
        std::fs::write(base.join("root/notes.txt"), "x").unwrap();
        std::fs::write(base.join("outside.ssk"), "pieces: []\n").unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(base.join("outside.ssk"), base.join("root/link.ssk")).unwrap();
            std::os::unix::fs::symlink(base.join("root/a.ssk"), base.join("root/sub/inside.ssk")).unwrap();
        }
        let root = base.join("root").canonicalize().unwrap();
        (base, Root::Dir(root))
    }

    #[test]
    fn paths_stay_inside() {
        let (base, root) = tree();
        assert!(root.resolve("a.ssk").is_ok());
        assert!(root.resolve("sub/b.sskb").is_ok());
        for bad in [
            "../outside.ssk",
            "sub/../a.ssk",
            "./a.ssk",
            "/etc/passwd.ssk",
            "sub//b.sskb",
            "sub\\b.sskb",
            "C:/x.ssk",
            "a.ssk\0",
            "",
        ] {
            assert!(matches!(root.resolve(bad), Err(Refused::Bad(_))), "{bad:?}");
        }
        assert_eq!(root.resolve("notes.txt"), Err(Refused::Missing));
        assert_eq!(root.resolve("missing.ssk"), Err(Refused::Missing));
        assert_eq!(root.resolve("sub"), Err(Refused::Missing));
        #[cfg(unix)]
        {
            assert!(matches!(root.resolve("link.ssk"), Err(Refused::Bad(_))));
            assert!(root.resolve("sub/inside.ssk").is_ok());
        }
        let one = Root::File {
            dir: root.dir().to_path_buf(),
            name: "a.ssk".into(),
        };
        assert!(one.resolve("a.ssk").is_ok());
        assert_eq!(one.resolve("sub/b.sskb"), Err(Refused::Missing));
        assert_eq!(one.rel_of(&root.dir().join("a.ssk")).as_deref(), Some("a.ssk"));
        assert_eq!(one.rel_of(&root.dir().join("sub/b.sskb")), None);
        assert_eq!(
            root.rel_of(&root.dir().join("sub/b.sskb")).as_deref(),
            Some("sub/b.sskb")
        );
        assert_eq!(root.rel_of(Path::new("/elsewhere/a.ssk")), None);
        std::fs::remove_dir_all(base).unwrap();
    }
}
