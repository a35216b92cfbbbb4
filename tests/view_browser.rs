//! `sskb view` in a real browser: headless Chromium (software WebGL)
//! driven by ChromeDriver over the WebDriver protocol. The page must draw
//! the model (its pixels are counted in a screenshot), name every piece,
//! follow edits of the file, show an invalid file's error while keeping
//! the last good model, and the gallery must show every model.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs
//! them; `CHROMIUM` and `CHROMEDRIVER` name others). Without them the
//! tests say so and pass, unless `SSKB_REQUIRE_BROWSER=1` (set by CI).
//! `SSKB_VIEW_SCREENSHOT=PATH` keeps the viewer's screenshot (the one in
//! docs/view.md is made so).

#[path = "common/png.rs"]
mod png_pixels;
mod view_support;

use png_pixels::decode_png;
use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value as Json};
use view_support::{cylinder, example, save_by_rename, scratch, Server};

struct Browser {
    driver: Child,
    addr: String,
    session: String,
}

fn program(var: &str, default: &str) -> Option<String> {
    let p = std::env::var(var).unwrap_or_else(|_| default.to_owned());
    Path::new(&p).exists().then_some(p)
}

impl Browser {
    /// A headless Chromium session, or `None` (with a message) when
    /// Chromium or ChromeDriver is not installed and not required.
    fn start() -> Option<Browser> {
        let (Some(chromium), Some(driver)) = (
            program("CHROMIUM", "/usr/bin/chromium"),
            program("CHROMEDRIVER", "/usr/bin/chromedriver"),
        ) else {
            assert!(
                std::env::var("SSKB_REQUIRE_BROWSER").is_err(),
                "SSKB_REQUIRE_BROWSER is set but chromium or chromedriver is missing"
            );
            eprintln!("skipped: no chromium and chromedriver (apt-get install chromium chromium-driver)");
            return None;
        };
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let mut b = Browser {
            driver: child,
            addr: format!("127.0.0.1:{port}"),
            session: String::new(),
        };
        let t = Instant::now();
        while std::net::TcpStream::connect(&b.addr).is_err() {
            assert!(t.elapsed() < Duration::from_secs(30), "chromedriver does not answer");
            std::thread::sleep(Duration::from_millis(50));
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                         "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
                         "--window-size=1280,800", "--hide-scrollbars", "--force-device-scale-factor=1"]
            }
        }}});
        // A chromedriver that answers may still reset the first session
        // request while it starts (seen with three browsers starting at
        // once on two cores): tried again, a few times.
        let body = caps.to_string();
        let head = format!(
            "POST /session HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
            b.addr,
            body.len()
        );
        let mut tries = 0;
        let r = loop {
            match view_support::try_request_with_body(&b.addr, &head, body.as_bytes()) {
                Ok(r) => break r,
                Err(e) if tries < 5 => {
                    eprintln!("starting a session: {e}; trying again");
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(500));
                }
                Err(e) => panic!("no session after {tries} tries: {e}"),
            }
        };
        let j = r.json();
        assert_eq!(r.status, 200, "POST /session: {j}");
        b.session = j["value"]["sessionId"].as_str().expect("a session").to_owned();
        Some(b)
    }

    fn call(&self, method: &str, path: &str, body: Option<Json>) -> Json {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
            self.addr,
            body.len()
        );
        let r = view_support::request_with_body(&self.addr, &head, body.as_bytes());
        let j = r.json();
        assert_eq!(r.status, 200, "{method} {path}: {j}");
        j["value"].clone()
    }

    fn at(&self, rest: &str) -> String {
        format!("/session/{}{rest}", self.session)
    }

    fn goto(&self, url: &str) {
        self.call("POST", &self.at("/url"), Some(json!({ "url": url })));
    }

    fn js(&self, script: &str) -> Json {
        self.call(
            "POST",
            &self.at("/execute/sync"),
            Some(json!({"script": script, "args": []})),
        )
    }

    /// Waits until `script` returns something other than null, false or
    /// an empty string, and returns it.
    fn wait(&self, script: &str, what: &str) -> Json {
        let t = Instant::now();
        loop {
            let v = self.js(script);
            if !(v.is_null() || v == json!(false) || v == json!("")) {
                return v;
            }
            if t.elapsed() > Duration::from_secs(90) {
                let status = self.js("return document.getElementById('status')?.textContent");
                panic!("waited 90 s for {what}; status: {status}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The page's picture: width, height, RGBA.
    fn screenshot(&self) -> (u32, u32, Vec<u8>, Vec<u8>) {
        let b64 = self.call("GET", &self.at("/screenshot"), None);
        let png = base64(b64.as_str().unwrap());
        let (w, h, rgba) = decode_png(&png);
        (w, h, rgba, png)
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let head = format!("DELETE /session/{} HTTP/1.1\r\nHost: {}\r\n", self.session, self.addr);
            let _ = std::panic::catch_unwind(|| view_support::request(&self.addr, &head));
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn base64(s: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let bytes: Vec<u8> = s.bytes().filter(|&c| c != b'=' && !c.is_ascii_whitespace()).collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= u32::from(value(c)) << (18 - 6 * i);
        }
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// The canvas's rectangle in the page: x, y, width, height.
fn canvas_rect(b: &Browser) -> [u32; 4] {
    let r = b.js("const r = document.querySelector('#view canvas').getBoundingClientRect(); return [r.x, r.y, r.width, r.height];");
    let v: Vec<u32> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap() as u32)
        .collect();
    [v[0], v[1], v[2], v[3]]
}

/// The share of the canvas's pixels for which `test` holds.
fn share(shot: &(u32, u32, Vec<u8>, Vec<u8>), rect: [u32; 4], test: impl Fn([u8; 4]) -> bool) -> f64 {
    let (w, h, rgba, _) = shot;
    let (mut n, mut all) = (0u64, 0u64);
    for y in rect[1]..(rect[1] + rect[3]).min(*h) {
        for x in rect[0]..(rect[0] + rect[2]).min(*w) {
            let i = ((y * w + x) * 4) as usize;
            all += 1;
            if test([rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]]) {
                n += 1;
            }
        }
    }
    n as f64 / all.max(1) as f64
}

/// The model's blue (lit or in shade); the background and grid are grey.
fn model_blue(p: [u8; 4]) -> bool {
    i32::from(p[2]) - i32::from(p[0]) > 24
}

/// A subtract ghost's red.
fn ghost_red(p: [u8; 4]) -> bool {
    i32::from(p[0]) - i32::from(p[2]) > 30
}

fn differing(a: &(u32, u32, Vec<u8>, Vec<u8>), b: &(u32, u32, Vec<u8>, Vec<u8>), rect: [u32; 4]) -> f64 {
    let (w, _, pa, _) = a;
    let pb = &b.2;
    let (mut n, mut all) = (0u64, 0u64);
    for y in rect[1]..rect[1] + rect[3] {
        for x in rect[0]..rect[0] + rect[2] {
            let i = ((y * w + x) * 4) as usize;
            all += 1;
            if (0..3).any(|c| pa[i + c].abs_diff(pb[i + c]) > 40) {
                n += 1;
            }
        }
    }
    n as f64 / all.max(1) as f64
}

const READY: &str = "return document.body.dataset.ready";

fn wait_version_after(b: &Browser, before: &str) -> String {
    let script = format!("const r = document.body.dataset.ready; return r && r !== '{before}' ? r : null");
    b.wait(&script, "a newer model drawn").as_str().unwrap().to_owned()
}

#[test]
fn the_viewer_draws_lists_follows_edits_and_shows_errors() {
    let Some(browser) = Browser::start() else { return };
    let dir = scratch("browser-viewer");
    let path = dir.join("cube.ssk");
    std::fs::write(&path, example("csg_cube")).unwrap();
    let server = Server::start(&path, &[]);
    browser.goto(&server.url);
    let v1 = browser.wait(READY, "the model drawn").as_str().unwrap().to_owned();
    let rect = canvas_rect(&browser);
    assert!(rect[2] > 300 && rect[3] > 300, "{rect:?}");

    let shot = browser.screenshot();
    if let Ok(keep) = std::env::var("SSKB_VIEW_SCREENSHOT") {
        std::fs::write(keep, &shot.3).unwrap();
    }
    let blue = share(&shot, rect, model_blue);
    assert!(blue > 0.05, "model pixels: {:.1}%", blue * 100.0);

    let items = browser.js("return [...document.querySelectorAll('#pieces li')].map(li => li.textContent)");
    let items: Vec<String> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(items.len(), 5, "{items:?}");
    for (i, mode) in ["intersect", "intersect", "subtract", "subtract", "subtract"]
        .iter()
        .enumerate()
    {
        assert!(
            items[i].starts_with(&format!("#{i}")) && items[i].contains(mode),
            "{items:?}"
        );
    }
    assert!(items[3].contains("from 2"), "{items:?}");
    let status = browser.js("return document.getElementById('status').textContent");
    assert!(status.as_str().unwrap().contains("resolution 32"), "{status}");
    let dims = browser.js("return document.getElementById('dims').textContent");
    assert!(dims.as_str().unwrap().contains("70.7 × 70.7 × 70.7 mm"), "{dims}");

    // The subtract pieces as ghosts: red where there was none.
    assert!(share(&shot, rect, ghost_red) < 0.002);
    browser.js("document.getElementById('ghosts').click()");
    std::thread::sleep(Duration::from_millis(300));
    let ghosts = browser.screenshot();
    assert!(share(&ghosts, rect, ghost_red) > 0.02, "ghost pixels");
    browser.js("document.getElementById('ghosts').click()");

    // Hiding every piece leaves no model pixels; showing them brings them back.
    browser.js("document.querySelectorAll('#pieces input').forEach(b => b.click())");
    std::thread::sleep(Duration::from_millis(300));
    assert!(share(&browser.screenshot(), rect, model_blue) < 0.002);
    browser.js("document.getElementById('showAll').click()");
    std::thread::sleep(Duration::from_millis(300));
    assert!(share(&browser.screenshot(), rect, model_blue) > 0.05);

    // An edit, saved by renaming: a new picture, a new list.
    save_by_rename(&path, &cylinder(10.0, 120.0));
    let v2 = wait_version_after(&browser, &v1);
    std::thread::sleep(Duration::from_millis(200));
    let edited = browser.screenshot();
    assert!(differing(&shot, &edited, rect) > 0.05, "the picture changed");
    assert!(share(&edited, rect, model_blue) > 0.005);
    let n = browser.js("return document.querySelectorAll('#pieces li').length");
    assert_eq!(n, 1);

    // Broken: the error in the page, the last good model kept.
    std::fs::write(&path, "pieces:\n- id: 0\n  from: 3\n").unwrap();
    browser.wait("return document.body.dataset.state === 'error'", "the error shown");
    let error = browser.js("const e = document.getElementById('error'); return e.hidden ? null : e.textContent");
    let error = error.as_str().expect("the error box is shown");
    assert!(error.contains("validation") && error.contains("from"), "{error}");
    assert!(error.contains("last good model"), "{error}");
    assert!(
        share(&browser.screenshot(), rect, model_blue) > 0.005,
        "the last model stays"
    );
    assert_eq!(browser.js(READY).as_str().unwrap(), v2);

    // Fixed: the error goes.
    std::fs::write(&path, example("csg_cube")).unwrap();
    wait_version_after(&browser, &v2);
    browser.wait("return document.getElementById('error').hidden", "the error hidden");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_gallery_shows_every_model_and_opens_each() {
    let Some(browser) = Browser::start() else { return };
    let dir = scratch("browser-gallery");
    for name in ["csg_cube", "tube", "ladder"] {
        std::fs::write(dir.join(format!("{name}.ssk")), example(name)).unwrap();
    }
    std::fs::write(dir.join("broken.ssk"), "pieces:\n- id: 0\n  from: 3\n").unwrap();
    let server = Server::start(&dir, &[]);
    browser.goto(&server.url);
    browser.wait(READY, "the list");
    let badges = browser.wait(
        "const b = [...document.querySelectorAll('.card .badge')].map(b => b.textContent); \
         return b.length === 4 && !b.includes('…') ? b : null",
        "every badge",
    );
    assert_eq!(badges, json!(["invalid", "valid", "valid", "valid"]));
    browser.wait(
        "return [...document.querySelectorAll('.card img')].filter(i => i.complete && i.naturalWidth === 256).length === 3",
        "three pictures",
    );
    let none = browser.wait(
        "const n = document.querySelector('.card[data-path=\"broken.ssk\"] .nopic'); return n && !n.hidden ? n.textContent : null",
        "the broken model's placeholder",
    );
    assert_eq!(none, "no picture");
    if let Ok(keep) = std::env::var("SSKB_GALLERY_SCREENSHOT") {
        std::fs::write(keep, browser.screenshot().3).unwrap();
    }
    let info = browser.js("return document.querySelector('.card .info').textContent");
    assert!(info.as_str().unwrap().contains("validation"), "{info}");
    browser.js("document.querySelector('.card[data-path=\"tube.ssk\"]').click()");
    browser.wait(READY, "the viewer");
    let url = browser.js("return location.pathname + location.search");
    assert_eq!(url, "/view?path=tube.ssk");
    let _ = std::fs::remove_dir_all(dir);
}

/// The time from a save to the new model drawn in the page, for each
/// upstream example (printed; `cargo test --release --test view_browser
/// -- --nocapture save_to_drawn`).
#[test]
fn save_to_drawn() {
    let Some(browser) = Browser::start() else { return };
    let dir = scratch("browser-latency");
    let path = dir.join("model.ssk");
    std::fs::write(&path, cylinder(1.0, 1.0)).unwrap();
    let server = Server::start(&path, &[]);
    browser.goto(&server.url);
    let mut version = browser.wait(READY, "the model drawn").as_str().unwrap().to_owned();
    let mut times = Vec::new();
    for round in 0..3 {
        for name in [
            "csg_cube",
            "cylinder",
            "hemisphere",
            "ladder",
            "triangular_prism",
            "tube",
        ] {
            browser.js("window.sskbSavedAt = performance.now()");
            save_by_rename(&path, &example(name));
            version = wait_version_after(&browser, &version);
            let ms = browser
                .js("return window.sskbDrawnAt - window.sskbSavedAt")
                .as_f64()
                .unwrap();
            if round > 0 {
                times.push(ms);
            }
            println!("save to drawn: example_{name}: {ms:.0} ms");
        }
    }
    times.sort_by(f64::total_cmp);
    println!(
        "save to drawn over {} saves: median {:.0} ms, slowest {:.0} ms",
        times.len(),
        times[times.len() / 2],
        times[times.len() - 1]
    );
    let _ = std::fs::remove_dir_all(dir);
}
