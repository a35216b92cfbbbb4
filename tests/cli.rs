//! The `sskb` command over the conformance corpus: validate, dump, inspect,
//! convert; stdin and stdout; exit codes.

mod common;
#[path = "common/png.rs"]
mod png_pixels;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::*;
use png_pixels::decode_png;
use serde_json::Value as Json;

fn sskb(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sskb")).args(args).output().unwrap()
}

fn sskb_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sskb"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

fn path_of(case: &Case) -> String {
    corpus_dir().join(&case.file).to_string_lossy().into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sskb-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Numbers equal after rounding to f32, integers and floats alike (the text
/// cases' expected files keep numbers as written).
fn loose_eq(a: &Json, b: &Json, path: &str) -> Result<(), String> {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => {
            if x.as_f64().map(|v| v as f32) == y.as_f64().map(|v| v as f32) {
                Ok(())
            } else {
                Err(format!("{path}: {x} != {y}"))
            }
        }
        (Json::Array(x), Json::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .try_for_each(|(i, (a, b))| loose_eq(a, b, &format!("{path}[{i}]"))),
        (Json::Object(x), Json::Object(y)) if x.len() == y.len() => x.iter().try_for_each(|(k, v)| {
            y.get(k)
                .ok_or_else(|| format!("{path}: no {k}"))
                .and_then(|w| loose_eq(v, w, &format!("{path}.{k}")))
        }),
        _ if a == b => Ok(()),
        _ => Err(format!("{path}: {a} != {b}")),
    }
}

#[test]
fn validate_json_gives_every_reference_verdict() {
    let cases = binary_cases();
    let paths: Vec<String> = cases.iter().map(path_of).collect();
    let mut args = vec!["validate", "--json"];
    args.extend(paths.iter().map(String::as_str));
    let out = sskb(&args);
    assert_eq!(out.status.code(), Some(1), "some cases are invalid");
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<Json> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), cases.len(), "one line per file, in order");
    for (case, line) in cases.iter().zip(&lines) {
        assert_eq!(line["file"], path_of(case));
        assert_eq!(line["valid"], case.valid, "{}: {line}", case.file);
        let want = match (case.decode.as_str(), case.valid) {
            ("ok", true) => None,
            ("ok", false) => Some("validation"),
            (k, _) => Some(k),
        };
        match want {
            None => assert!(line["pieces"].is_u64(), "{line}"),
            Some(kind) => {
                let got = line["error"]["kind"].as_str().unwrap();
                assert!(same_outcome(kind, got), "{}: want {kind}, got {line}", case.file);
                for key in ["offset", "piece", "path", "message"] {
                    assert!(line["error"].get(key).is_some(), "{line}");
                }
            }
        }
    }
    // Plain output: valid lines on stdout, errors on stderr.
    let valid = cases.iter().find(|c| c.valid).unwrap();
    let invalid = cases.iter().find(|c| c.decode == "non_finite").unwrap();
    let out = sskb(&["validate", &path_of(valid), &path_of(invalid)]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.starts_with(&format!("valid  {}  (", path_of(valid))), "{stdout}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with(&format!("error: {}: offset ", path_of(invalid))),
        "{stderr}"
    );
    assert!(stderr.contains("(non_finite)"), "{stderr}");
    assert_eq!(sskb(&["validate", &path_of(valid)]).status.code(), Some(0));
}

#[test]
fn dump_matches_every_expected_document() {
    let mut n = 0;
    for case in binary_cases().into_iter().filter(|c| c.json.is_some()) {
        let out = sskb(&["dump", &path_of(&case)]);
        assert_eq!(out.status.code(), Some(0), "{}", case.file);
        let got: Json = serde_json::from_slice(&out.stdout).unwrap();
        json_eq(&got, &case.expected_json().unwrap(), "doc").unwrap_or_else(|e| panic!("{}: {e}", case.file));
        // The lines form carries the same pieces.
        let out = sskb(&["dump", "--lines", &path_of(&case)]);
        let text = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<Json> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines.first().unwrap()["version"], got["version"]);
        assert_eq!(
            &lines[1..lines.len() - 1],
            got["pieces"].as_array().unwrap().as_slice(),
            "{}",
            case.file
        );
        assert!(lines.last().unwrap().get("properties").is_some());
        n += 1;
    }
    assert_eq!(n, 102);
}

#[test]
fn dump_prints_nothing_for_invalid_input() {
    for case in binary_cases().into_iter().filter(|c| c.decode != "ok").take(80) {
        let out = sskb(&["dump", &path_of(&case)]);
        assert_eq!(out.status.code(), Some(1), "{}", case.file);
        assert!(out.stdout.is_empty(), "{}: half-written output", case.file);
        assert!(String::from_utf8(out.stderr).unwrap().starts_with("error: "));
    }
}

#[test]
fn dump_resolved_validates_and_resolves() {
    let case = binary_cases()
        .into_iter()
        .find(|c| c.file.ends_with("from_before_base_in_file.sskb"))
        .unwrap();
    let out = sskb(&["dump", "--resolved", &path_of(&case)]);
    assert_eq!(out.status.code(), Some(0));
    let doc: Json = serde_json::from_slice(&out.stdout).unwrap();
    let pieces = doc["pieces"].as_array().unwrap();
    let ids: Vec<u64> = pieces.iter().map(|p| p["id"].as_u64().unwrap()).collect();
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(ids, sorted, "id order");
    for p in pieces {
        for key in ["points", "size", "shape", "mode"] {
            assert!(p.get(key).is_some(), "{p}");
        }
    }
    let bad = binary_cases()
        .into_iter()
        .find(|c| c.file.ends_with("geometry_from_self.sskb"))
        .unwrap();
    let out = sskb(&["dump", "--resolved", &path_of(&bad)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
}

#[test]
fn text_cases_parse_as_the_reference_does() {
    let mut n = 0;
    for case in cases().into_iter().filter(|c| c.file.starts_with("ssk/")) {
        let text = std::fs::read_to_string(corpus_dir().join(&case.file)).unwrap();
        let r = sskb::parse_ssk(&text);
        assert_eq!(r.is_ok(), case.decode == "ok", "{}: {r:?}", case.file);
        let out = sskb(&["dump", &path_of(&case)]);
        if case.decode != "ok" {
            assert_eq!(out.status.code(), Some(1), "{}", case.file);
            continue;
        }
        let mut got: Json = serde_json::from_slice(&out.stdout).unwrap();
        let expected = case.expected_json().unwrap();
        if expected.get("version").is_none() {
            // A text file without `version` is read as 1.0.
            assert_eq!(got["version"], "1.0");
            got.as_object_mut().unwrap().remove("version");
        }
        loose_eq(&got, &expected, "doc").unwrap_or_else(|e| panic!("{}: {e}", case.file));
        assert_eq!(
            sskb(&["validate", &path_of(&case)]).status.code(),
            Some(if case.valid { 0 } else { 1 })
        );
        n += 1;
    }
    assert_eq!(n, 18);
}

#[test]
fn text_to_binary_matches_the_reference_converter() {
    let dir = scratch("refconv");
    let refs = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/reference_convert");
    let mut n = 0;
    for entry in std::fs::read_dir(&refs).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("sskb") {
            continue;
        }
        let stem = path.file_stem().unwrap().to_str().unwrap();
        let src = corpus_dir().join("ssk").join(format!("{stem}.ssk"));
        let dst = dir.join(format!("{stem}.sskb"));
        let out = sskb(&["convert", src.to_str().unwrap(), dst.to_str().unwrap()]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{stem}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let ours = std::fs::read(&dst).unwrap();
        let theirs = std::fs::read(&path).unwrap();
        // The same bytes, header included: the document's version (0.6 to
        // 0.9 for the upstream examples) over the 1.0 layout.
        assert_eq!(ours, theirs, "{stem}");
        n += 1;
    }
    assert_eq!(n, 10);
    std::fs::remove_dir_all(dir).unwrap();
}

/// The JSON form with empty properties of non-inherited pieces and of the
/// root dropped: `.sskb` does not tell them from absent ones.
fn normalized(data: &[u8]) -> Json {
    let mut j = doc_json(&sskb::decode_slice(data).unwrap());
    let empty = |v: &Json| v.as_object().is_some_and(|m| m.is_empty());
    if j.get("properties").is_some_and(empty) {
        j.as_object_mut().unwrap().remove("properties");
    }
    for p in j["pieces"].as_array_mut().unwrap() {
        if p.get("from").is_none() && p.get("properties").is_some_and(empty) {
            p.as_object_mut().unwrap().remove("properties");
        }
    }
    j
}

fn has_properties(data: &[u8]) -> bool {
    let doc = sskb::decode_slice(data).unwrap();
    doc.properties.is_some() || doc.pieces.iter().any(|p| p.properties.is_some())
}

#[test]
fn conversions_round_trip_byte_for_byte() {
    let dir = scratch("roundtrip");
    let mut n = 0;
    for case in binary_cases().into_iter().filter(|c| {
        c.file.starts_with("valid/")
            && !c.file.ends_with("presence_bytes_not_one.sskb")
            && !c.file.ends_with("has_from_not_one.sskb")
    }) {
        let data = case.bytes();
        let src = path_of(&case);
        // .sskb -> .sskb is byte-exact for every canonical file.
        let copy = dir.join("copy.sskb");
        assert_eq!(sskb(&["convert", &src, copy.to_str().unwrap()]).status.code(), Some(0));
        assert_eq!(std::fs::read(&copy).unwrap(), data, "{}: sskb -> sskb", case.file);
        let formats: &[&str] = if has_properties(&data) {
            &["jsonl", "json"]
        } else {
            &["ssk", "json", "jsonl"]
        };
        for ext in formats {
            let mid = dir.join(format!("mid.{ext}"));
            let back = dir.join(format!("back-{ext}.sskb"));
            let o = sskb(&["convert", &src, mid.to_str().unwrap()]);
            assert_eq!(
                o.status.code(),
                Some(0),
                "{}: to {ext}: {}",
                case.file,
                String::from_utf8_lossy(&o.stderr)
            );
            let o = sskb(&["convert", mid.to_str().unwrap(), back.to_str().unwrap()]);
            assert_eq!(
                o.status.code(),
                Some(0),
                "{}: from {ext}: {}",
                case.file,
                String::from_utf8_lossy(&o.stderr)
            );
            let got = std::fs::read(&back).unwrap();
            if has_properties(&data) {
                // Blobs are re-serialized: the same document, not the same bytes.
                assert_eq!(normalized(&got), normalized(&data), "{}: via {ext}", case.file);
            } else {
                assert_eq!(got, data, "{}: via {ext}", case.file);
            }
        }
        n += 1;
    }
    assert_eq!(n, 87);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn stdin_and_stdout() {
    let case = binary_cases()
        .into_iter()
        .find(|c| c.file.ends_with("example_tube.sskb"))
        .unwrap();
    let data = case.bytes();
    let out = sskb_stdin(&["convert", "--from", "sskb", "--to", "jsonl", "-", "-"], &data);
    assert_eq!(out.status.code(), Some(0));
    let back = sskb_stdin(&["convert", "--from", "jsonl", "--to", "sskb", "-", "-"], &out.stdout);
    assert_eq!(back.status.code(), Some(0), "{}", String::from_utf8_lossy(&back.stderr));
    assert_eq!(back.stdout, data);
    let ssk = sskb_stdin(&["convert", "--to", "ssk", "--from", "sskb", "-", "-"], &data);
    let back = sskb_stdin(&["convert", "--from", "ssk", "--to", "sskb", "-", "-"], &ssk.stdout);
    assert_eq!(back.stdout, data);
    let v = sskb_stdin(&["validate", "--json", "-"], &data);
    assert_eq!(v.status.code(), Some(0));
    let line: Json = serde_json::from_slice(&v.stdout).unwrap();
    assert_eq!(line["file"], "-");
    let d = sskb_stdin(&["dump", "-"], &data);
    let pieces = sskb::decode_slice(&data).unwrap().pieces.len();
    assert_eq!(
        serde_json::from_slice::<Json>(&d.stdout).unwrap()["pieces"]
            .as_array()
            .unwrap()
            .len(),
        pieces
    );
    let i = sskb_stdin(&["inspect", "-"], &data);
    let summary: Json = serde_json::from_slice(&i.stdout).unwrap();
    assert_eq!(summary["bytes"], data.len());
    assert_eq!(summary["valid"], true);
}

#[test]
fn exit_codes_and_io_errors() {
    let out = sskb(&["validate", "--json", "/no/such/file.sskb"]);
    assert_eq!(out.status.code(), Some(2));
    let line: Json = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["error"]["kind"], "io");
    let dir = corpus_dir();
    assert_eq!(sskb(&["dump", dir.to_str().unwrap()]).status.code(), Some(2));
    assert_eq!(sskb(&["validate"]).status.code(), Some(2), "usage");
    assert_eq!(sskb(&["frobnicate"]).status.code(), Some(2), "usage");
    assert_eq!(
        sskb(&["convert", "-", "-"]).status.code(),
        Some(2),
        "formats of - must be given"
    );
    // A failed conversion leaves no output file behind.
    let bad = binary_cases().into_iter().find(|c| c.decode == "truncated").unwrap();
    let dst = scratch("failed").join("out.sskb");
    assert_eq!(
        sskb(&["convert", &path_of(&bad), dst.to_str().unwrap()]).status.code(),
        Some(1)
    );
    assert!(!dst.exists());
    assert_eq!(
        std::fs::read_dir(dst.parent().unwrap()).unwrap().count(),
        0,
        "no temporary file left"
    );
}

#[test]
fn inspect_counts() {
    let case = binary_cases()
        .into_iter()
        .find(|c| c.file.ends_with("example_csg_cube.sskb"))
        .unwrap();
    let out = sskb(&["inspect", &path_of(&case)]);
    assert_eq!(out.status.code(), Some(0));
    let s: Json = serde_json::from_slice(&out.stdout).unwrap();
    let doc = sskb::decode_slice(&case.bytes()).unwrap();
    assert_eq!(s["pieces"], doc.pieces.len());
    assert_eq!(
        s["inherited_pieces"],
        doc.pieces.iter().filter(|p| p.from.is_some()).count()
    );
    let points: usize = doc.pieces.iter().map(|p| p.points.as_ref().map_or(0, Vec::len)).sum();
    assert_eq!(s["points"], points);
    assert_eq!(s["bytes"], case.bytes().len());
    assert_eq!(s["valid"], true);
    let bad = binary_cases()
        .into_iter()
        .find(|c| c.file.ends_with("geometry_affects_self.sskb"))
        .unwrap();
    let out = sskb(&["inspect", &path_of(&bad)]);
    assert_eq!(out.status.code(), Some(1));
    let s: Json = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["valid"], false);
    assert_eq!(s["error"]["kind"], "validation");
}

/// The upstream examples as the reference writes them (header 0.6 to 0.9):
/// validated, counted in the singular where there is one piece, converted
/// to glTF, dumped with their version, and refused by nothing.
#[test]
fn drafts_validate_and_convert() {
    let dir = scratch("drafts");
    let drafts = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/drafts");
    let mut n = 0;
    for entry in std::fs::read_dir(&drafts).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("sskb") {
            continue;
        }
        let file = path.to_str().unwrap();
        let out = sskb(&["validate", file]);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{file}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let pieces = sskb::decode_slice(&std::fs::read(&path).unwrap()).unwrap().pieces.len();
        let count = if pieces == 1 {
            "(1 piece)".to_owned()
        } else {
            format!("({pieces} pieces)")
        };
        assert!(text.trim_end().ends_with(&count), "{text}");
        let glb = dir.join(format!("{}.glb", path.file_stem().unwrap().to_str().unwrap()));
        let out = sskb(&["convert", file, glb.to_str().unwrap(), "--resolution", "8"]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{file}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(std::fs::read(&glb).unwrap().starts_with(b"glTF"));
        let out = sskb(&["dump", file]);
        let doc: Json = serde_json::from_slice(&out.stdout).unwrap();
        assert!(doc["version"].as_str().unwrap().starts_with("0."), "{doc}");
        n += 1;
    }
    assert_eq!(n, 6);
    std::fs::remove_dir_all(dir).unwrap();
}

/// A tree of models as a user has them: valid `.sskb`, `.ssk` and `.json`
/// files, invalid ones, one that cannot be read (a link to nothing), a
/// file of another kind, nested folders. Returns the root and the model
/// files in the order they are reported, with whether each is valid.
fn model_tree(name: &str) -> (PathBuf, Vec<(String, bool)>) {
    let root = scratch(name).join("models");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("b/deeper")).unwrap();
    std::fs::create_dir_all(root.join("a")).unwrap();
    let cases = binary_cases();
    let take = |suffix: &str| cases.iter().find(|c| c.file.ends_with(suffix)).unwrap().bytes();
    let files: Vec<(&str, Vec<u8>, bool)> = vec![
        ("a/cube.sskb", take("valid/example_csg_cube.sskb"), true),
        ("a/ladder.sskb", take("valid/example_ladder.sskb"), true),
        (
            "a/short.sskb",
            cases.iter().find(|c| c.decode == "truncated").unwrap().bytes(),
            false,
        ),
        ("b/affects_self.sskb", take("geometry_affects_self.sskb"), false),
        (
            "b/deeper/cube.json",
            std::fs::read(corpus_dir().join("valid/example_csg_cube.json")).unwrap(),
            true,
        ),
        (
            "b/deeper/tube.ssk",
            sskb::to_ssk(&sskb::decode_slice(&take("valid/example_tube.sskb")).unwrap())
                .unwrap()
                .into_bytes(),
            true,
        ),
        ("top.sskb", take("valid/example_cylinder.sskb"), true),
    ];
    for (f, bytes, _) in &files {
        std::fs::write(root.join(f), bytes).unwrap();
    }
    std::fs::write(root.join("b/notes.txt"), "not a model").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("/no/such/model.sskb", root.join("b/gone.sskb")).unwrap();
    // A named pipe is not a model file: reading it would wait forever.
    #[cfg(unix)]
    assert!(Command::new("mkfifo")
        .arg(root.join("b/pipe.sskb"))
        .status()
        .unwrap()
        .success());
    let mut listed: Vec<(String, bool)> = files
        .iter()
        .map(|(f, _, ok)| (root.join(f).to_string_lossy().into_owned(), *ok))
        .collect();
    #[cfg(unix)]
    listed.push((root.join("b/gone.sskb").to_string_lossy().into_owned(), false));
    listed.sort();
    (root, listed)
}

/// `validate` and `inspect` on a directory: every model found, in path
/// order, the same bytes on 1 and 4 threads, a summary on stderr, exit
/// codes as for a list of files.
#[test]
fn directories_in_parallel() {
    let (root, listed) = model_tree("dirs");
    let root_s = root.to_str().unwrap();
    let one = sskb(&["validate", "--json", "--jobs", "1", root_s]);
    let four = sskb(&["validate", "--json", "-j", "4", root_s]);
    assert_eq!(one.stdout, four.stdout, "the same output on any number of threads");
    // An unreadable file is an I/O error: exit 2.
    assert_eq!(one.status.code(), Some(if cfg!(unix) { 2 } else { 1 }));
    let lines: Vec<Json> = String::from_utf8(one.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let got: Vec<(String, bool)> = lines
        .iter()
        .map(|l| (l["file"].as_str().unwrap().to_owned(), l["valid"].as_bool().unwrap()))
        .collect();
    assert_eq!(got, listed);
    let gone = lines
        .iter()
        .find(|l| l["file"].as_str().unwrap().ends_with("gone.sskb"));
    if let Some(g) = gone {
        assert_eq!(g["error"]["kind"], "io");
    }
    let summary = String::from_utf8(four.stderr).unwrap();
    let valid = listed.iter().filter(|(_, ok)| *ok).count();
    assert!(
        summary.starts_with(&format!(
            "{} files: {valid} valid, {} invalid (",
            listed.len(),
            listed.len() - valid
        )),
        "{summary}"
    );
    // The errors by kind.
    let mut kinds = std::collections::BTreeMap::<String, usize>::new();
    for l in lines.iter().filter(|l| l["valid"] == false) {
        *kinds
            .entry(l["error"]["kind"].as_str().unwrap().to_owned())
            .or_default() += 1;
    }
    let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
    assert!(summary.contains(&format!("({})", kinds.join(", "))), "{summary}");
    // Text: valid files on stdout, errors on stderr, both in order.
    let text = sskb(&["validate", "-j", "3", root_s, &listed[0].0]);
    let out = String::from_utf8(text.stdout).unwrap();
    let want: Vec<String> = listed
        .iter()
        .chain(&listed[..1])
        .filter(|(_, ok)| *ok)
        .map(|(f, _)| format!("valid  {f}"))
        .collect();
    let starts: Vec<String> = out.lines().map(|l| l.split("  (").next().unwrap().to_owned()).collect();
    assert_eq!(starts, want);
    // Without the unreadable file: exit 1.
    let readable: Vec<&str> = listed
        .iter()
        .filter(|(f, _)| !f.ends_with("gone.sskb"))
        .map(|(f, _)| f.as_str())
        .collect();
    let out = sskb(&[&["validate", "-j", "2"][..], &readable[..]].concat());
    assert_eq!(out.status.code(), Some(1));
    // One valid file alone: exit 0 and no summary, as before.
    let out = sskb(&["validate", readable[0]]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty());
    // A file the command cannot tell the format of is a usage error.
    let notes = root.join("b/notes.txt");
    let out = sskb(&["inspect", "--json", notes.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let line: Json = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["error"]["kind"], "usage");
    // A directory with no models is reported, not passed over.
    let empty = scratch("dirs").join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = sskb(&["validate", "--json", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let line: Json = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["error"]["kind"], "io");

    // inspect: one line each, equal to inspecting each file alone.
    let one = sskb(&["inspect", "--json", "-j", "1", root_s]);
    let four = sskb(&["inspect", "--json", "-j", "4", root_s]);
    assert_eq!(one.stdout, four.stdout);
    assert_eq!(one.status.code(), four.status.code());
    let lines: Vec<Json> = String::from_utf8(one.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), listed.len());
    for (line, (file, ok)) in lines.iter().zip(&listed) {
        assert_eq!(line["file"], file.as_str());
        assert_eq!(line["valid"], *ok, "{file}");
        let alone: Json = serde_json::from_slice(&sskb(&["inspect", file]).stdout).unwrap();
        assert_eq!(&alone, line);
    }
    // The text forms count the same pieces as the binary original.
    let cube = |suffix: &str| {
        lines
            .iter()
            .find(|l| l["file"].as_str().unwrap().ends_with(suffix))
            .unwrap()
    };
    assert_eq!(cube("a/cube.sskb")["pieces"], cube("deeper/cube.json")["pieces"]);
    assert_eq!(cube("a/cube.sskb")["modes"], cube("deeper/cube.json")["modes"]);
    assert_eq!(cube("a/cube.sskb")["points"], cube("deeper/cube.json")["points"]);
}

/// `convert --out-dir`: every input converted with its name and folder
/// kept, the same bytes on 1 and 4 threads; a failing input is reported,
/// skipped, and leaves nothing behind; exit 1.
#[test]
fn convert_into_a_directory() {
    let (root, listed) = model_tree("convert");
    let base = scratch("convert");
    for (to, ext) in [("sskb", "sskb"), ("glb", "glb")] {
        let mut trees = Vec::new();
        for jobs in ["1", "4"] {
            let out_dir = base.join(format!("out-{to}-{jobs}"));
            let _ = std::fs::remove_dir_all(&out_dir);
            let mut args = vec![
                "convert",
                "--out-dir",
                out_dir.to_str().unwrap(),
                "--to",
                to,
                "-j",
                jobs,
            ];
            if to == "glb" {
                args.extend(["--resolution", "8"]);
            }
            args.push(root.to_str().unwrap());
            let out = sskb(&args);
            assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
            let err = String::from_utf8(out.stderr).unwrap();
            // A format conversion needs a document that decodes; a mesh, a
            // valid one.
            let converts = |f: &str, ok: bool| ok || (to == "sskb" && f.ends_with("affects_self.sskb"));
            let failed = listed.iter().filter(|(f, ok)| !converts(f, *ok)).count();
            assert!(
                err.lines().last().unwrap().starts_with(&format!(
                    "{} files: {} converted, {failed} failed",
                    listed.len(),
                    listed.len() - failed
                )),
                "{err}"
            );
            let mut files = Vec::new();
            let mut stack = vec![out_dir.clone()];
            while let Some(d) = stack.pop() {
                for e in std::fs::read_dir(&d).unwrap() {
                    let p = e.unwrap().path();
                    if p.is_dir() {
                        stack.push(p);
                    } else {
                        files.push(p);
                    }
                }
            }
            files.sort();
            let names: Vec<String> = files
                .iter()
                .map(|p| p.strip_prefix(&out_dir).unwrap().to_string_lossy().into_owned())
                .collect();
            let want: Vec<String> = listed
                .iter()
                .filter(|(f, ok)| converts(f, *ok))
                .map(|(f, _)| {
                    Path::new(f)
                        .strip_prefix(&root)
                        .unwrap()
                        .with_extension(ext)
                        .to_string_lossy()
                        .into_owned()
                })
                .collect();
            let mut want_sorted = want.clone();
            want_sorted.sort();
            assert_eq!(
                names, want_sorted,
                "only the good inputs' outputs, no partial or temporary file"
            );
            let contents: Vec<Vec<u8>> = files.iter().map(|p| std::fs::read(p).unwrap()).collect();
            if to == "sskb" {
                // Each output decodes to its input's document.
                for (name, bytes) in names.iter().zip(&contents) {
                    let src = listed
                        .iter()
                        .find(|(f, _)| {
                            Path::new(f).strip_prefix(&root).unwrap().with_extension("sskb") == Path::new(name)
                        })
                        .unwrap();
                    let got = sskb::decode_slice(bytes).unwrap();
                    let conv = base.join("single.sskb");
                    assert_eq!(
                        sskb(&["convert", &src.0, conv.to_str().unwrap()]).status.code(),
                        Some(0)
                    );
                    assert_eq!(
                        got,
                        sskb::decode_slice(&std::fs::read(&conv).unwrap()).unwrap(),
                        "{name}"
                    );
                }
            }
            trees.push((names, contents));
        }
        assert_eq!(trees[0], trees[1], "{to}: the same files and bytes on 1 and 4 threads");
    }
    // Two inputs that would write the same output: the second is refused.
    let out_dir = base.join("clash");
    let a = listed.iter().find(|(f, _)| f.ends_with("a/cube.sskb")).unwrap();
    let b = listed.iter().find(|(f, _)| f.ends_with("deeper/cube.json")).unwrap();
    let out = sskb(&[
        "convert",
        "--out-dir",
        out_dir.to_str().unwrap(),
        "--to",
        "ssk",
        &a.0,
        &b.0,
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is already"));
    assert!(out_dir.join("cube.ssk").exists());
    // Usage: `-` has no name; options that do not apply.
    let out = sskb(&["convert", "--out-dir", out_dir.to_str().unwrap(), "-"]);
    assert_eq!(out.status.code(), Some(2));
    let out = sskb(&[
        "convert",
        "--out-dir",
        out_dir.to_str().unwrap(),
        "--to",
        "ssk",
        "--resolution",
        "8",
        &a.0,
    ]);
    assert_eq!(out.status.code(), Some(2));
    let out = sskb(&["convert", &a.0, "x.sskb", "y.sskb"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `sskb diff` says what the reference's `document_differences` says, line
/// for line, on the recorded pairs of tests/data/api/reference.json (made
/// by python/scripts/record_reference.py with `ssk` 1.5.0); exit 0 when
/// equivalent, 1 when not, 2 where the reference raised.
#[test]
fn diff_gives_the_reference_differences() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/api/reference.json");
    let record: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let dir = scratch("diff");
    let (mut checked, mut differing) = (0, 0);
    for (i, pair) in record["pairs"].as_array().unwrap().iter().enumerate() {
        let kwargs = &pair["kwargs"];
        let max = kwargs.get("max_diffs").and_then(Json::as_u64).unwrap_or(20);
        if max == 0 {
            continue; // the command asks for at least one
        }
        let (left, right) = (dir.join(format!("{i}_a.json")), dir.join(format!("{i}_b.json")));
        std::fs::write(&left, pair["left"].to_string()).unwrap();
        std::fs::write(&right, pair["right"].to_string()).unwrap();
        let mut args = vec!["diff".to_owned(), "--max-diffs".to_owned(), max.to_string()];
        for k in ["rel_tol", "abs_tol"] {
            if let Some(v) = kwargs.get(k) {
                args.push(format!("--{}", k.replace('_', "-")));
                args.push(v.to_string());
            }
        }
        args.push(left.to_string_lossy().into_owned());
        args.push(right.to_string_lossy().into_owned());
        let out = sskb(&args.iter().map(String::as_str).collect::<Vec<_>>());
        let stdout = String::from_utf8(out.stdout).unwrap();
        match pair["differences"].get("value").and_then(Json::as_array) {
            None => assert_eq!(out.status.code(), Some(2), "pair {i}: the reference raised"),
            Some(want) => {
                let want: Vec<&str> = want.iter().map(|d| d.as_str().unwrap()).collect();
                let got: Vec<&str> = stdout.lines().collect();
                assert_eq!(got, want, "pair {i}");
                assert_eq!(out.status.code(), Some(i32::from(!want.is_empty())), "pair {i}");
                differing += usize::from(!want.is_empty());
            }
        }
        checked += 1;
    }
    assert!(
        checked >= 150 && differing > 50 && differing < checked,
        "{checked} {differing}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// Every valid case equals itself in every format it converts to; a
/// changed number is one difference, in JSON too; an invalid model is an
/// error naming it.
#[test]
fn diff_across_formats() {
    let dir = scratch("diff-formats");
    let mut compared = 0;
    for case in cases().iter().filter(|c| c.decode == "ok" && c.valid) {
        let src = path_of(case);
        for ext in ["ssk", "json", "jsonl", "sskb"] {
            let out = dir.join(format!("m.{ext}"));
            let out = out.to_str().unwrap();
            assert!(sskb(&["convert", &src, out]).status.success(), "{src} to .{ext}");
            let d = sskb(&["diff", &src, out]);
            assert_eq!(
                d.status.code(),
                Some(0),
                "{src} against .{ext}: {}",
                String::from_utf8_lossy(&d.stdout)
            );
            assert!(d.stdout.is_empty());
            compared += 1;
        }
    }
    assert!(compared > 100);
    let a = dir.join("a.ssk");
    let b = dir.join("b.json");
    std::fs::write(
        &a,
        "pieces:\n- {id: 0, points: [{x: 0, y: 0, z: 0}], size: {x: 1, y: 1, z: 1}, shape: circle}\n",
    )
    .unwrap();
    std::fs::write(&b, r#"{"pieces": [{"id": 0, "points": [{"x": 0, "y": 0, "z": 0.5}], "size": {"x": 1, "y": 1, "z": 1}, "shape": "circle"}]}"#).unwrap();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let d = sskb(&["diff", a, b]);
    assert_eq!(d.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(d.stdout).unwrap(),
        "$.pieces[0].points[0].z: 0 != 0.5\n"
    );
    let d = sskb(&["diff", "--json", a, b]);
    let j: Json = serde_json::from_slice(&d.stdout).unwrap();
    assert_eq!(j["equivalent"], Json::Bool(false));
    assert_eq!(j["differences"][0], "$.pieces[0].points[0].z: 0 != 0.5");
    assert_eq!(sskb(&["diff", "--abs-tol", "1", a, b]).status.code(), Some(0));
    assert_eq!(sskb(&["diff", "--abs-tol", "-1", a, b]).status.code(), Some(2));
    let bad = corpus_dir().join("invalid/geometry_ids_gap.sskb");
    let d = sskb(&["diff", a, bad.to_str().unwrap()]);
    assert_eq!(d.status.code(), Some(2));
    let err = String::from_utf8(d.stderr).unwrap();
    assert!(
        err.contains("geometry_ids_gap.sskb") && err.contains("(validation)"),
        "{err}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// Every file under `dir`, relative, sorted.
fn files_under(dir: &Path) -> Vec<String> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                files.push(p.strip_prefix(dir).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    files.sort();
    files
}

/// `render`: one model to PNG, its options, several views, standard
/// input and output, and the refusals.
#[test]
fn render_one_model() {
    let dir = scratch("render");
    let cube = corpus_dir().join("valid/example_csg_cube.sskb");
    let cube = cube.to_str().unwrap();
    let out = dir.join("cube.png");
    let o = sskb(&["render", "--size", "96", cube, out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let (w, h, px) = decode_png(&std::fs::read(&out).unwrap());
    assert_eq!((w, h), (96, 96));
    // White corners, the model in the middle.
    assert_eq!(&px[0..4], &[255, 255, 255, 255]);
    let drawn = px.chunks_exact(4).filter(|p| p != &[255, 255, 255, 255]).count();
    assert!(drawn > 96 * 96 / 3, "{drawn} pixels drawn");

    // Transparent, coloured by piece, from the top in perspective: alpha
    // 0 in the corners.
    let o = sskb(&[
        "render",
        "--size",
        "64",
        "--background",
        "transparent",
        "--color-by",
        "piece",
        "--view",
        "top",
        "--perspective",
        cube,
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let (_, _, px) = decode_png(&std::fs::read(&out).unwrap());
    assert_eq!(&px[0..4], &[0, 0, 0, 0]);
    assert!(px.chunks_exact(4).any(|p| p[3] == 255));

    // Several views: a file each beside OUT, or one sheet.
    let many = dir.join("views.png");
    let o = sskb(&[
        "render",
        "--size",
        "32",
        "--views",
        "iso,front,30,20",
        cube,
        many.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    for v in ["iso", "front", "az30el20"] {
        let (w, _, _) = decode_png(&std::fs::read(dir.join(format!("views.{v}.png"))).unwrap());
        assert_eq!(w, 32);
    }
    assert!(!many.exists());
    let o = sskb(&[
        "render",
        "--size",
        "32",
        "--views",
        "iso,front,top",
        "--sheet",
        cube,
        many.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let (w, h, _) = decode_png(&std::fs::read(&many).unwrap());
    assert_eq!((w, h), (64, 64), "three views on a 2 x 2 sheet");

    // Standard input and output.
    let o = sskb_stdin(&["render", "--size", "16", "-", "-"], &std::fs::read(cube).unwrap());
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(decode_png(&o.stdout).0, 16);

    // Refused: a size over the limit (before anything is drawn), a bad
    // view, several views to standard output, an empty model (no file).
    for (args, code) in [
        (vec!["--size", "5000"], 2),
        (vec!["--view", "sideways"], 2),
        (vec!["--view", "0,95"], 2),
        (vec!["--background", "#12"], 2),
    ] {
        let mut a = vec!["render"];
        a.extend(args.iter());
        a.extend([cube, out.to_str().unwrap()]);
        assert_eq!(sskb(&a).status.code(), Some(code), "{args:?}");
    }
    let o = sskb(&["render", "--views", "iso,top", cube, "-"]);
    assert_eq!(o.status.code(), Some(2));
    let empty = corpus_dir().join("valid/empty_document.sskb");
    let nothing = dir.join("nothing.png");
    let o = sskb(&["render", empty.to_str().unwrap(), nothing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("nothing to draw"), "{err}");
    assert!(!nothing.exists());
    assert!(
        files_under(&dir).iter().all(|f| !f.ends_with(".tmp")),
        "no temporary file left"
    );
}

/// `render --out-dir`: every model's picture with its name and folder, bad
/// ones reported and skipped with no partial file, the same pictures on 1
/// and 3 threads.
#[test]
fn render_into_a_directory() {
    let (root, listed) = model_tree("render");
    let base = scratch("render-out");
    let mut trees = Vec::new();
    for jobs in ["1", "3"] {
        let out_dir = base.join(format!("out-{jobs}"));
        let _ = std::fs::remove_dir_all(&out_dir);
        let o = sskb(&[
            "render",
            "--out-dir",
            out_dir.to_str().unwrap(),
            "--size",
            "24",
            "--resolution",
            "8",
            "-j",
            jobs,
            root.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stderr));
        let err = String::from_utf8(o.stderr).unwrap();
        let failed = listed.iter().filter(|(_, ok)| !ok).count();
        assert!(
            err.lines().last().unwrap().starts_with(&format!(
                "{} files: {} rendered, {failed} failed",
                listed.len(),
                listed.len() - failed
            )),
            "{err}"
        );
        let mut want: Vec<String> = listed
            .iter()
            .filter(|(_, ok)| *ok)
            .map(|(f, _)| {
                Path::new(f)
                    .strip_prefix(&root)
                    .unwrap()
                    .with_extension("png")
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        want.sort();
        let names = files_under(&out_dir);
        assert_eq!(
            names, want,
            "only the good inputs' pictures, no partial or temporary file"
        );
        let pictures: Vec<Vec<u8>> = names.iter().map(|n| std::fs::read(out_dir.join(n)).unwrap()).collect();
        for p in &pictures {
            assert_eq!(decode_png(p).0, 24);
        }
        trees.push(pictures);
    }
    assert_eq!(trees[0], trees[1], "the same pictures on 1 and 3 threads");
    // Several views: NAME.VIEW.png each.
    let out_dir = base.join("views");
    let _ = std::fs::remove_dir_all(&out_dir);
    let top = root.join("top.sskb");
    let o = sskb(&[
        "render",
        "--out-dir",
        out_dir.to_str().unwrap(),
        "--size",
        "16",
        "--views",
        "front,top",
        top.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(files_under(&out_dir), ["top.front.png", "top.top.png"]);
}

/// `convert MESH MODEL`: a mesh made from a model comes back as a model
/// that fills it, the line says how well; a bad mesh leaves no output;
/// options that do not apply are refused.
#[test]
fn convert_imports_a_mesh_into_a_model() {
    let dir = scratch("import");
    let model = dir.join("capsule.ssk");
    std::fs::write(
        &model,
        "version: \"1.0\"\npieces:\n  - id: 0\n    points: [{x: 0, y: 0, z: 0}, {x: 30, y: -20, z: 10}]\n    size: {x: 6, y: 6, z: 6}\n    shape: circle\n",
    )
    .unwrap();
    let glb = dir.join("capsule.glb");
    let out = sskb(&["convert", model.to_str().unwrap(), glb.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for (ext, extra) in [
        ("ssk", &[][..]),
        ("sskb", &["--max-pieces", "3", "--complexity-weight", "2"][..]),
    ] {
        let back = dir.join(format!("back.{ext}"));
        let mut args = vec!["convert", glb.to_str().unwrap(), back.to_str().unwrap()];
        args.extend_from_slice(extra);
        let out = sskb(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{err}");
        assert!(
            err.contains("imported") && err.contains("1 piece, 2 points; coverage"),
            "{err}"
        );
        let cov: f64 = err
            .split("coverage ")
            .nth(1)
            .unwrap()
            .split('%')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(cov > 97.0, "{err}");
        let v = sskb(&["validate", back.to_str().unwrap()]);
        assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stdout));
    }
    // Many meshes into a directory: .ssk each.
    let out_dir = dir.join("models");
    let out = sskb(&["convert", "--out-dir", out_dir.to_str().unwrap(), glb.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out_dir.join("capsule.ssk").exists());
    // And the mesh drawn as it is.
    let png = dir.join("capsule.png");
    let out = sskb(&["render", glb.to_str().unwrap(), png.to_str().unwrap(), "--size", "64"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    // A mesh that cannot be read: exit 1, a message naming the file, no output.
    let bad = dir.join("bad.obj");
    std::fs::write(&bad, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n").unwrap();
    let target = dir.join("bad.ssk");
    let out = sskb(&["convert", bad.to_str().unwrap(), target.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.obj") && err.contains("mesh_input") && err.contains("line 4"),
        "{err}"
    );
    assert!(!target.exists());
    assert!(std::fs::read_dir(&dir)
        .unwrap()
        .all(|e| !e.unwrap().file_name().to_string_lossy().ends_with(".tmp")));
    // Import options on a model, a mesh into glTF, STL as an output.
    for args in [
        vec!["convert", model.to_str().unwrap(), "x.sskb", "--max-pieces", "2"],
        vec!["convert", glb.to_str().unwrap(), "x.glb"],
        vec!["convert", model.to_str().unwrap(), "x.stl"],
    ] {
        let out = sskb(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}
