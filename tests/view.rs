//! `sskb view` over HTTP on loopback: every route, the paths, hosts,
//! methods and bodies it refuses, changes on disk reaching subscribers,
//! the lower resolution of a model over its time budget, and a bounded
//! load.

mod view_support;

use std::time::Duration;

use serde_json::Value as Json;
use view_support::{cylinder, example, save_by_rename, scratch, Server};

const WAIT: Duration = Duration::from_secs(60);

fn is_png(body: &[u8]) -> bool {
    body.starts_with(b"\x89PNG\r\n\x1a\n")
}

/// The mesh message's header and its parts' byte total.
fn mesh_header(body: &[u8]) -> Json {
    assert_eq!(&body[..4], b"SSKV");
    let n = u32::from_le_bytes(body[4..8].try_into().unwrap()) as usize;
    let header: Json = serde_json::from_slice(&body[8..8 + n]).unwrap();
    let total: u64 = header["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| 12 * p["vertices"].as_u64().unwrap() + 12 * p["triangles"].as_u64().unwrap())
        .sum();
    assert_eq!(8 + n as u64 + total, body.len() as u64);
    header
}

#[test]
fn every_route_for_one_file() {
    let dir = scratch("one");
    std::fs::write(dir.join("cube.ssk"), example("csg_cube")).unwrap();
    std::fs::write(dir.join("other.ssk"), cylinder(5.0, 10.0)).unwrap();
    let server = Server::start(&dir.join("cube.ssk"), &[]);

    let page = server.get("/");
    assert_eq!(page.status, 200);
    assert_eq!(page.header("content-type"), Some("text/html; charset=utf-8"));
    assert!(page.text().contains("/assets/viewer.js"));
    let csp = page.header("content-security-policy").unwrap();
    assert!(
        csp.contains("default-src 'self'") && csp.contains("script-src 'self'"),
        "{csp}"
    );
    assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(server.get("/view?path=cube.ssk").status, 200);

    for (name, kind) in [
        ("viewer.js", "text/javascript"),
        ("gallery.js", "text/javascript"),
        ("view.css", "text/css"),
        ("three.module.min.js", "text/javascript"),
        ("three.core.min.js", "text/javascript"),
        ("OrbitControls.js", "text/javascript"),
        ("three-LICENSE.txt", "text/plain"),
    ] {
        let r = server.get(&format!("/assets/{name}"));
        assert_eq!(r.status, 200, "{name}");
        assert!(r.header("content-type").unwrap().starts_with(kind), "{name}");
        assert!(r.header("content-security-policy").is_some());
    }
    assert!(!server.get("/assets/OrbitControls.js").text().contains("from 'three'"));
    assert_eq!(server.get("/assets/nothing.js").status, 404);
    assert_eq!(server.get("/nothing").status, 404);

    let info = server.get("/api/info").json();
    assert_eq!(info["mode"], "file");
    assert_eq!(info["name"], "cube.ssk");
    assert_eq!(info["resolution"], 32);

    let list = server.get("/api/list").json();
    assert_eq!(list["files"].as_array().unwrap().len(), 1);
    assert_eq!(list["files"][0]["path"], "cube.ssk");

    let summary = server.get("/api/summary?path=cube.ssk").json();
    assert_eq!(summary["valid"], true);
    assert_eq!(summary["pieces"], 5);

    // Without path=, one file's routes take that file.
    // The first answer may carry a quick preview (a slow debug build
    // makes one); the full build follows.
    let t = std::time::Instant::now();
    let model = loop {
        let r = server.get("/api/model");
        assert_eq!(r.status, 200);
        if r.json()["status"]["state"] != "meshing" || t.elapsed().as_secs() > 120 {
            break r;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let m = model.json();
    let pieces = m["model"]["pieces"].as_array().unwrap();
    assert_eq!(pieces.len(), 5);
    let modes: Vec<&str> = pieces.iter().map(|p| p["mode"].as_str().unwrap()).collect();
    assert_eq!(modes, ["intersect", "intersect", "subtract", "subtract", "subtract"]);
    assert_eq!(pieces[3]["from"], 2);
    assert_eq!(pieces[1]["sides"], 4);
    assert_eq!(m["status"]["state"], "ready");
    assert_eq!(m["status"]["resolution"], 32);

    let mesh = server.get("/api/mesh?path=cube.ssk");
    assert_eq!(mesh.status, 200);
    assert_eq!(mesh.header("x-sskb-version"), model.header("x-sskb-version"));
    let header = mesh_header(&mesh.body);
    let parts = header["parts"].as_array().unwrap();
    let solid: Vec<u64> = parts
        .iter()
        .filter(|p| p["kind"] == "solid")
        .map(|p| p["id"].as_u64().unwrap())
        .collect();
    let ghosts: Vec<u64> = parts
        .iter()
        .filter(|p| p["kind"] == "ghost")
        .map(|p| p["id"].as_u64().unwrap())
        .collect();
    assert!(!solid.is_empty());
    assert_eq!(
        ghosts,
        [0, 1, 2, 3, 4],
        "every subtract and intersect piece has its ghost"
    );
    // The intersection of a sphere of radius 50 and a box 50 across
    // rotated 45°: 2·25·√2 ≈ 70.7 mm across x and y.
    let b = &header["bounds"];
    let across = b[1][0].as_f64().unwrap() - b[0][0].as_f64().unwrap();
    assert!((across - 70.71).abs() < 0.5, "{across}");

    let thumb = server.get("/api/thumb?path=cube.ssk");
    assert_eq!(thumb.status, 200);
    assert_eq!(thumb.header("content-type"), Some("image/png"));
    assert!(is_png(&thumb.body));

    let events = server.events("/api/events?path=cube.ssk");
    let e = events.until(WAIT, |e| e["state"] == "ready");
    assert_eq!(e["built"], e["version"]);
    assert!(e["error"].is_null());

    // Only the named file is served.
    assert_eq!(server.get("/api/model?path=other.ssk").status, 404);
    assert_eq!(server.get("/api/thumb?path=other.ssk").status, 404);

    // HEAD: headers only.
    let head = view_support::request(&server.addr, &format!("HEAD / HTTP/1.1\r\nHost: {}\r\n", server.addr));
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn paths_that_lead_outside_are_refused() {
    let base = scratch("paths");
    let root = base.join("root");
    std::fs::create_dir_all(root.join("sub")).unwrap();
    std::fs::write(root.join("a.ssk"), cylinder(5.0, 10.0)).unwrap();
    std::fs::write(root.join("sub/b.ssk"), cylinder(3.0, 10.0)).unwrap();
    let secret = "pieces:\n- id: 0\n  points: [{x: 0, y: 0, z: 0}]\n  size: {x: 1, y: 1, z: 1}\n  shape: circle\n  \
                  properties: {secret: OUTSIDE-THE-ROOT}\n";
    std::fs::write(base.join("outside.ssk"), secret).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(base.join("outside.ssk"), root.join("link.ssk")).unwrap();
    let server = Server::start(&root, &[]);

    assert_eq!(server.get("/api/model?path=sub/b.ssk").status, 200);
    assert_eq!(server.get("/api/model?path=sub%2Fb.ssk").status, 200);
    let attempts = [
        "../outside.ssk",
        "%2e%2e/outside.ssk",
        "%2e%2e%2foutside.ssk",
        "..%2Foutside.ssk",
        "%2E%2E%2Foutside.ssk",
        "sub/../../outside.ssk",
        "sub%2f..%2f..%2foutside.ssk",
        "sub%5c..%5c..%5coutside.ssk",
        "..%5coutside.ssk",
        "%252e%252e%252foutside.ssk",
        "%2e%2e%252foutside.ssk",
        "/etc/passwd",
        "%2fetc%2fpasswd",
        "%2F..%2Foutside.ssk",
        "C:%5cwindows%5cwin.ini",
        "a.ssk%00",
        "./a.ssk",
        "sub//b.ssk",
        "link.ssk",
        "",
    ];
    let outside = base.join("outside.ssk").to_string_lossy().into_owned();
    let absolute = format!("/api/model?path={}", outside.replace('/', "%2F"));
    for route in ["model", "mesh", "summary", "thumb", "events"] {
        for a in &attempts {
            let r = server.get(&format!("/api/{route}?path={a}"));
            assert!(r.status == 400 || r.status == 404, "{route} {a}: {}", r.status);
            assert!(!r.text().contains("OUTSIDE-THE-ROOT"), "{route} {a}");
        }
    }
    let r = server.get(&absolute);
    assert!(r.status == 400 || r.status == 404, "{absolute}: {}", r.status);
    // A link inside that leads outside is refused as leading outside.
    #[cfg(unix)]
    assert_eq!(server.get("/api/model?path=link.ssk").status, 400);
    // The listing does not offer it either.
    let list = server.get("/api/list").json();
    let listed: Vec<&str> = list["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(listed, ["a.ssk", "sub/b.ssk"]);
    // Assets are a fixed set, not files.
    for a in ["..%2f..%2fCargo.toml", "..%2Fview.css", "%2e%2e"] {
        assert_eq!(server.get(&format!("/assets/{a}")).status, 404, "{a}");
    }
    let _ = std::fs::remove_dir_all(base);
}

#[test]
fn hosts_methods_bodies_and_long_targets_are_refused() {
    let dir = scratch("refuse");
    std::fs::write(dir.join("a.ssk"), cylinder(5.0, 10.0)).unwrap();
    let server = Server::start(&dir.join("a.ssk"), &[]);
    let port = server.addr.rsplit(':').next().unwrap();
    let with_host =
        |host: &str| view_support::request(&server.addr, &format!("GET /api/info HTTP/1.1\r\nHost: {host}\r\n"));
    // DNS rebinding: a page from another name that resolves here.
    for bad in [
        format!("evil.example:{port}"),
        format!("localhost.evil.example:{port}"),
        "127.0.0.1".to_owned(),
        format!("127.0.0.1:{}", port.parse::<u16>().unwrap().wrapping_add(1)),
        format!("10.1.2.3:{port}"),
    ] {
        let r = with_host(&bad);
        assert_eq!(r.status, 421, "{bad}");
        assert!(!r.text().contains("\"mode\""), "{bad}");
    }
    for good in [
        format!("localhost:{port}"),
        format!("127.0.0.1:{port}"),
        format!("[::1]:{port}"),
    ] {
        assert_eq!(with_host(&good).status, 200, "{good}");
    }
    let host = &server.addr;
    let post = view_support::request_with_body(
        host,
        &format!("POST /api/info HTTP/1.1\r\nHost: {host}\r\nContent-Length: 2\r\n"),
        b"{}",
    );
    assert_eq!(post.status, 405);
    assert_eq!(post.header("allow"), Some("GET, HEAD"));
    for m in ["PUT", "DELETE", "OPTIONS", "PATCH"] {
        assert_eq!(
            view_support::request(host, &format!("{m} / HTTP/1.1\r\nHost: {host}\r\n")).status,
            405,
            "{m}"
        );
    }
    let body = view_support::request_with_body(
        host,
        &format!("GET /api/info HTTP/1.1\r\nHost: {host}\r\nContent-Length: 5\r\n"),
        b"hello",
    );
    assert_eq!(body.status, 413);
    let long = format!("/api/model?path={}.ssk", "a".repeat(5000));
    assert_eq!(server.get(&long).status, 414);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn changes_on_disk_reach_every_subscriber() {
    let dir = scratch("live");
    let path = dir.join("part.ssk");
    std::fs::write(&path, cylinder(5.0, 10.0)).unwrap();
    let server = Server::start(&path, &[]);
    let one = server.events("/api/events?path=part.ssk");
    let two = server.events("/api/events?path=part.ssk");
    let first = one.until(WAIT, |e| e["state"] == "ready");
    two.until(WAIT, |e| e["state"] == "ready");
    let v1 = first["built"].as_u64().unwrap();
    let before = server.get("/api/model?path=part.ssk");
    assert_eq!(before.json()["model"]["pieces"].as_array().unwrap().len(), 1);

    // Saved by renaming a new file over it, as many editors do.
    let two_pieces = format!(
        "{}- id: 1\n  points: [{{x: 0, y: 0, z: 20}}]\n  size: {{x: 4, y: 4, z: 4}}\n  shape: circle\n",
        cylinder(5.0, 10.0)
    );
    save_by_rename(&path, &two_pieces);
    let ready = |e: &Json| e["state"] == "ready" && e["built"].as_u64() > Some(v1);
    let e1 = one.until(WAIT, ready);
    two.until(WAIT, ready);
    let after = server.get("/api/model?path=part.ssk");
    assert_eq!(after.json()["model"]["pieces"].as_array().unwrap().len(), 2);
    assert_eq!(after.header("x-sskb-version").unwrap(), e1["built"].to_string());
    let mesh = server.get("/api/mesh?path=part.ssk");
    let z_top = mesh_header(&mesh.body)["bounds"][1][2].as_f64().unwrap();
    assert!(z_top > 20.0, "{z_top}");

    // Written in place with an error: the error is told, the last good
    // model kept.
    std::fs::write(&path, "pieces:\n- id: 0\n  from: 3\n").unwrap();
    let bad = one.until(WAIT, |e| e["state"] == "error");
    assert_eq!(bad["error"]["kind"], "validation", "{bad}");
    assert!(bad["error"]["message"].as_str().unwrap().contains("from"), "{bad}");
    assert_eq!(bad["built"], e1["built"]);
    let kept = server.get("/api/model?path=part.ssk").json();
    assert_eq!(kept["model"]["pieces"].as_array().unwrap().len(), 2);
    assert_eq!(kept["status"]["state"], "error");

    // A syntax error names where.
    std::fs::write(&path, "pieces:\n- id: 0\n  points: [{x: 0, y: 0, z: 0}\n").unwrap();
    let bad = one.until(WAIT, |e| e["state"] == "error" && e["error"]["kind"] != "validation");
    assert!(bad["error"]["message"].as_str().is_some_and(|m| !m.is_empty()), "{bad}");

    // Fixed again.
    std::fs::write(&path, cylinder(8.0, 30.0)).unwrap();
    let fixed = one.until(WAIT, |e| {
        e["state"] == "ready" && e["error"].is_null() && e["built"].as_u64() > e1["built"].as_u64()
    });
    assert!(fixed["triangles"].as_u64().unwrap() > 0);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_model_over_its_budget_is_drawn_coarser_and_says_so() {
    let dir = scratch("budget");
    let path = dir.join("model.sskb");
    std::fs::copy("tests/data/mesh/random_02.sskb", &path).unwrap();
    let server = Server::start(&path, &["--resolution", "64", "--budget", "0.000001"]);
    let e = server
        .events("/api/events?path=model.sskb")
        .until(WAIT, |e| e["state"] == "ready");
    assert_eq!(e["resolution"], 8, "{e}");
    let why = e["reduced"].as_str().unwrap();
    assert!(
        why.contains("resolution 8") && why.contains("64") && why.contains("--budget"),
        "{why}"
    );
    assert_eq!(mesh_header(&server.get("/api/mesh").body)["resolution"], 8);

    // Within its budget, the resolution asked for.
    drop(server);
    let server = Server::start(&path, &["--resolution", "16", "--budget", "600"]);
    let e = server
        .events("/api/events?path=model.sskb")
        .until(WAIT, |e| e["state"] == "ready");
    assert_eq!(e["resolution"], 16, "{e}");
    assert!(e["reduced"].is_null());
    let _ = std::fs::remove_dir_all(dir);
}

fn gallery_dir(name: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    std::fs::create_dir_all(dir.join("parts")).unwrap();
    std::fs::write(dir.join("cube.ssk"), example("csg_cube")).unwrap();
    std::fs::write(dir.join("parts/tube.ssk"), example("tube")).unwrap();
    std::fs::copy("tests/data/mesh/random_01.sskb", dir.join("parts/random.sskb")).unwrap();
    std::fs::write(dir.join("broken.ssk"), "pieces:\n- id: 0\n  from: 3\n").unwrap();
    std::fs::write(dir.join("notes.txt"), "not a model").unwrap();
    dir
}

#[test]
fn a_directory_is_a_gallery() {
    let dir = gallery_dir("gallery");
    let server = Server::start(&dir, &[]);
    let page = server.get("/");
    assert_eq!(page.status, 200);
    assert!(page.text().contains("/assets/gallery.js"));
    assert_eq!(server.get("/api/info").json()["mode"], "dir");
    let list = server.get("/api/list").json();
    let paths: Vec<&str> = list["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["broken.ssk", "cube.ssk", "parts/random.sskb", "parts/tube.ssk"]);
    assert_eq!(server.get("/api/model").status, 400, "a directory's routes need path=");

    let broken = server.get("/api/summary?path=broken.ssk").json();
    assert_eq!(broken["valid"], false);
    assert_eq!(broken["error"]["kind"], "validation");
    let random = server.get("/api/summary?path=parts/random.sskb").json();
    assert_eq!(random["valid"], true);
    assert!(random["pieces"].as_u64().unwrap() > 1);
    assert_eq!(server.get("/api/summary?path=notes.txt").status, 404);

    let thumb = server.get("/api/thumb?path=parts/tube.ssk");
    assert_eq!(thumb.status, 200);
    assert!(is_png(&thumb.body));
    // Made once: the same bytes again.
    assert_eq!(server.get("/api/thumb?path=parts/tube.ssk").body, thumb.body);
    let bad = server.get("/api/thumb?path=broken.ssk");
    assert_eq!(bad.status, 422);
    assert_eq!(bad.json()["error"]["kind"], "validation");

    // A new model under the directory reaches the gallery.
    let events = server.events("/api/events");
    let first = events.until(WAIT, |_| true)["changes"].as_u64().unwrap();
    std::fs::write(dir.join("parts/new.ssk"), cylinder(2.0, 4.0)).unwrap();
    events.until(WAIT, |e| e["changes"].as_u64() > Some(first));
    let list = server.get("/api/list").json();
    assert!(list["files"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["path"] == "parts/new.ssk"));
    // A changed file gets a new picture.
    std::fs::write(dir.join("parts/tube.ssk"), cylinder(9.0, 2.0)).unwrap();
    std::thread::sleep(Duration::from_millis(50));
    let changed = server.get("/api/thumb?path=parts/tube.ssk");
    assert_eq!(changed.status, 200);
    assert_ne!(changed.body, thumb.body);
    let _ = std::fs::remove_dir_all(dir);
}

/// 50 clients at once, 2,000 requests over the model, mesh, gallery and
/// page routes: none fails, and the server's memory stays bounded.
#[test]
fn bounded_load_on_loopback() {
    let dir = gallery_dir("load");
    let server = Server::start(&dir, &[]);
    let targets = [
        "/api/model?path=cube.ssk",
        "/api/mesh?path=cube.ssk",
        "/api/mesh?path=parts/tube.ssk",
        "/api/model?path=parts/random.sskb",
        "/api/summary?path=parts/random.sskb",
        "/api/summary?path=broken.ssk",
        "/api/thumb?path=cube.ssk",
        "/api/thumb?path=parts/tube.ssk",
        "/api/list",
        "/api/info",
        "/",
        "/assets/viewer.js",
    ];
    let failures = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for client in 0..50 {
            let (server, failures, done) = (&server, &failures, &done);
            s.spawn(move || {
                for i in 0..40 {
                    let t = targets[(client * 7 + i) % targets.len()];
                    let r = server.get(t);
                    if r.status != 200 || r.body.is_empty() {
                        eprintln!("{t}: {}", r.status);
                        failures.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                    done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
            });
        }
    });
    assert_eq!(done.into_inner(), 2000);
    assert_eq!(failures.into_inner(), 0);
    if let Some(kb) = server.peak_kb() {
        eprintln!("peak memory of the server under load: {} MB", kb / 1024);
        assert!(kb < 512 * 1024, "peak {kb} kB");
    }
    // Still answering.
    assert_eq!(server.get("/api/info").status, 200);
    let _ = std::fs::remove_dir_all(dir);
}
