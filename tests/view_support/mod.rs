//! For the tests of `sskb view`: the server started on a free port and
//! stopped when dropped, plain HTTP/1.1 requests over a socket, and
//! server-sent events read as they come.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value as Json;

/// A running `sskb view`, killed when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// `http://127.0.0.1:PORT/`.
    pub url: String,
}

impl Server {
    /// `sskb view PATH --no-open --port 0 ARGS...`, once it prints its
    /// address.
    pub fn start(path: &Path, args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sskb"))
            .arg("view")
            .arg(path)
            .args(["--no-open", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("sskb view starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = match rx.recv_timeout(Duration::from_secs(30)) {
            Ok(l) => l,
            Err(_) => {
                let _ = child.kill();
                panic!("sskb view printed no address");
            }
        };
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in {line:?}"))
            .to_owned();
        let addr = url.trim_start_matches("http://").trim_end_matches('/').to_owned();
        Server { child, addr, url }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `GET target` with the right Host.
    pub fn get(&self, target: &str) -> Response {
        request(&self.addr, &format!("GET {target} HTTP/1.1\r\nHost: {}\r\n", self.addr))
    }

    /// Server-sent events from `target`.
    pub fn events(&self, target: &str) -> Events {
        Events::open(&self.addr, target)
    }

    /// The peak resident memory of the server, in kB (Linux).
    pub fn peak_kb(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A response: status, headers (names lower-cased), body.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Json {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Sends `head` (a request line and headers, each ending in CRLF; the
/// blank line and `Connection: close` are added) and reads the whole
/// response.
pub fn request(addr: &str, head: &str) -> Response {
    request_with_body(addr, head, b"")
}

pub fn request_with_body(addr: &str, head: &str, body: &[u8]) -> Response {
    try_request_with_body(addr, head, body).expect("sends the request and reads the response")
}

/// As [`request_with_body`], with the connection's errors returned (a
/// peer that is still starting may reset it).
pub fn try_request_with_body(addr: &str, head: &str, body: &[u8]) -> std::io::Result<Response> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(180)))?;
    s.write_all(format!("{head}Connection: close\r\n\r\n").as_bytes())?;
    s.write_all(body)?;
    read_response(&mut s, head.starts_with("HEAD "))
}

/// Reads one response, framed by its `Content-Length` or chunked
/// encoding (a peer may keep the connection open despite
/// `Connection: close`), or else by the end of the stream.
fn read_response(s: &mut TcpStream, no_body: bool) -> std::io::Result<Response> {
    let mut raw = Vec::new();
    let mut buf = [0u8; 16384];
    let done = |raw: &[u8]| -> bool {
        let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") else {
            return false;
        };
        let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
        let body = &raw[end + 4..];
        let status = head.split(' ').nth(1).unwrap_or("");
        if no_body || status == "204" || status == "304" {
            return true;
        }
        if let Some(n) = head
            .split("\r\n")
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse::<usize>().ok())
        {
            return body.len() >= n;
        }
        head.contains("transfer-encoding: chunked") && body.ends_with(b"0\r\n\r\n")
    };
    loop {
        let n = s.read(&mut buf)?;
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&buf[..n]);
        if done(&raw) {
            break;
        }
    }
    Ok(parse(&raw))
}

fn parse(raw: &[u8]) -> Response {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let mut body = raw[end + 4..].to_vec();
    if headers.iter().any(|(n, v)| n == "transfer-encoding" && v == "chunked") {
        body = dechunk(&body);
    }
    Response { status, headers, body }
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(i) = b.windows(2).position(|w| w == b"\r\n") {
        let n = usize::from_str_radix(String::from_utf8_lossy(&b[..i]).trim(), 16).unwrap_or(0);
        if n == 0 || b.len() < i + 2 + n {
            break;
        }
        out.extend_from_slice(&b[i + 2..i + 2 + n]);
        b = &b[(i + 4 + n).min(b.len())..];
    }
    out
}

/// An open event stream: its `data:` lines as JSON, as they arrive.
pub struct Events {
    rx: mpsc::Receiver<Json>,
    _stream: TcpStream,
}

impl Events {
    fn open(addr: &str, target: &str) -> Events {
        let mut s = TcpStream::connect(addr).unwrap();
        s.write_all(format!("GET {target} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n").as_bytes())
            .unwrap();
        let reader = s.try_clone().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(reader).lines() {
                let Ok(line) = line else { return };
                if let Some(data) = line.strip_prefix("data: ").or_else(|| line.strip_prefix("data:")) {
                    if let Ok(j) = serde_json::from_str(data) {
                        if tx.send(j).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Events { rx, _stream: s }
    }

    /// The first event within `wait` for which `want` holds.
    pub fn until(&self, wait: Duration, want: impl Fn(&Json) -> bool) -> Json {
        let deadline = Instant::now() + wait;
        let mut seen = Vec::new();
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.rx.recv_timeout(left) {
                Ok(e) if want(&e) => return e,
                Ok(e) => seen.push(e),
                Err(_) => break,
            }
        }
        panic!("no such event within {wait:?}; saw {seen:#?}");
    }
}

/// A fresh directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sskb-view-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `text` to `path` as editors that save by renaming do: a new
/// file beside it, renamed over it.
pub fn save_by_rename(path: &Path, text: &str) {
    let temp = path.with_extension("swp~");
    std::fs::write(&temp, text).unwrap();
    std::fs::rename(&temp, path).unwrap();
}

/// An upstream example model's text.
pub fn example(name: &str) -> String {
    std::fs::read_to_string(format!("tests/data/conformance/ssk/example_{name}.ssk")).unwrap()
}

/// A model of one cylinder, section size `r`, from z 0 to `h`.
pub fn cylinder(r: f64, h: f64) -> String {
    format!("pieces:\n- id: 0\n  points: [{{x: 0, y: 0, z: 0}}, {{x: 0, y: 0, z: {h}}}]\n  size: {{x: {r}, y: {r}, z: 0}}\n  shape: circle\n")
}
