//! Hostile inputs: absurd counts and lengths, deep or explosive YAML. Each
//! must end in a prompt, clean error that allocated next to nothing.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use bytes::BytesMut;
use sskb::{Decoder, ErrorKind, Event, EventDecoder, SskbDecoder};

/// Counts the bytes live and the peak, for the thread that asked.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
/// Tests in this file measure one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Runs `f` and returns its result and the peak of extra bytes it held.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let r = f();
    (r, PEAK.load(Ordering::Relaxed).saturating_sub(base))
}

const SMALL: usize = 64 * 1024;

fn header(piece_count: u32) -> Vec<u8> {
    let mut b = b"SSKB\x01\x00\x00\x00".to_vec();
    b.extend(piece_count.to_le_bytes());
    b
}

/// One non-inherited piece head with `points` points and nothing after.
fn piece_with_points(points: u32) -> Vec<u8> {
    let mut b = header(1);
    b.extend(0u32.to_le_bytes());
    b.push(0);
    b.extend(points.to_le_bytes());
    b
}

/// One piece with one point and an affects count, nothing after.
fn piece_with_affects(count: u32) -> Vec<u8> {
    let mut b = piece_with_points(1);
    b.extend([0; 12]);
    b.extend([0; 6]);
    b.push(0); // has_rotation
    b.extend([0; 12]); // size
    b.extend([0, 0, 0, 1]); // shape, has_sides, mode, has_affects
    b.extend(count.to_le_bytes());
    b
}

fn root_blob(len: u32) -> Vec<u8> {
    let mut b = header(0);
    b.extend(len.to_le_bytes());
    b
}

/// Every decoder, with and without the input length; the first error of
/// each, checked to be `count_exceeds_remaining` with the length and
/// `unknown_length` without.
fn errors(data: &[u8], unknown_length: ErrorKind) -> Vec<sskb::Error> {
    let all = errors_by_door(data);
    for (known, e) in &all {
        let want = if *known {
            ErrorKind::CountExceedsRemaining
        } else {
            unknown_length
        };
        assert_eq!(e.kind(), want, "known length {known}: {e}");
    }
    all.into_iter().map(|(_, e)| e).collect()
}

fn errors_by_door(data: &[u8]) -> Vec<(bool, sskb::Error)> {
    let mut out = Vec::new();
    let (r, peak) = peak_of(|| sskb::decode_slice(data));
    assert!(peak < SMALL, "decode_slice held {peak} bytes");
    out.push((true, r.unwrap_err()));
    for known in [false, true] {
        let mut d = SskbDecoder::new();
        if known {
            d = d.with_options(sskb::DecodeOptions::new().input_len(data.len() as u64));
        }
        let (r, peak) = peak_of(|| {
            let mut buf = BytesMut::from(data);
            loop {
                match d.decode_eof(&mut buf) {
                    Ok(Some(_)) => continue,
                    Ok(None) => return None,
                    Err(e) => return Some(e),
                }
            }
        });
        assert!(peak < SMALL, "SskbDecoder held {peak} bytes");
        out.push((known, r.expect("an error")));
    }
    out
}

#[test]
fn huge_piece_count() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let data = header(u32::MAX);
    errors(&data, ErrorKind::Truncated);
    assert_eq!(sskb::decode_slice(&data).unwrap_err().offset(), Some(8));
}

#[test]
fn huge_point_count() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let data = piece_with_points(u32::MAX);
    let mut padded = data.clone();
    padded.extend([0xff; 64]);
    for e in errors(&padded, ErrorKind::LimitExceeded) {
        assert_eq!(e.offset(), Some(17), "{e}");
        assert_eq!(e.field_path(), Some("pieces[0].points"));
        assert_eq!(e.piece_id(), Some(0));
    }
    // The event decoder holds no points, so streams them until the input ends.
    let mut d = EventDecoder::new();
    let mut buf = BytesMut::from(&data[..]);
    assert!(matches!(d.decode(&mut buf), Ok(Some(Event::Header(_)))));
    assert!(matches!(d.decode(&mut buf), Ok(Some(Event::PieceStart(_)))));
    assert!(matches!(d.decode(&mut buf), Ok(None)));
    assert_eq!(d.decode_eof(&mut buf).unwrap_err().kind(), ErrorKind::Truncated);
}

#[test]
fn huge_affects_count() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let mut data = piece_with_affects(u32::MAX);
    let at = data.len() as u64 - 4;
    // Enough bytes after it for the point count before it to fit.
    data.extend([0; 64]);
    for e in errors(&data, ErrorKind::LimitExceeded) {
        assert_eq!(e.field_path(), Some("pieces[0].affects"));
        assert_eq!(e.offset(), Some(at));
    }
}

#[test]
fn huge_blob_length() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let data = root_blob(u32::MAX);
    for e in errors(&data, ErrorKind::LimitExceeded) {
        assert_eq!(e.field_path(), Some("properties"));
    }
    // Under the limit but never delivered: truncated, with the blob reserved
    // only up to the limit.
    let mut data = root_blob(1 << 20);
    data.extend(b"a: 1\n");
    let mut d = SskbDecoder::new();
    let mut buf = BytesMut::from(&data[..]);
    assert!(matches!(d.decode(&mut buf), Ok(Some(sskb::Frame::Header(_)))));
    assert!(matches!(d.decode(&mut buf), Ok(None)));
    let e = d.decode_eof(&mut buf).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Truncated);
    assert_eq!(e.offset(), Some(data.len() as u64));
    assert!(e.message().contains("1048576-byte property blob"), "{e}");
}

fn file_with_root_blob(blob: &[u8]) -> Vec<u8> {
    let mut data = root_blob(blob.len() as u32);
    data.extend(blob);
    data
}

#[test]
fn deep_yaml_nesting_is_a_clean_error() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let n = 100_000;
    let flow = format!("a: {}{}\n", "[".repeat(n), "]".repeat(n));
    let flow_map = format!("a: {}{}\n", "{a: ".repeat(n), "}".repeat(n));
    let mut block = String::new();
    for i in 0..n {
        // Block nesting needs indentation; 100,000 levels of one space each.
        block.push_str(&" ".repeat(i));
        block.push_str("a:\n");
        if block.len() > 15 << 20 {
            break;
        }
    }
    let mut dashes = String::from("a:\n");
    dashes.push_str(&"- ".repeat(n));
    dashes.push_str("x\n");
    for (name, yaml) in [
        ("flow", flow),
        ("flow mapping", flow_map),
        ("block", block),
        ("block sequence", dashes),
    ] {
        let data = file_with_root_blob(yaml.as_bytes());
        let e = sskb::decode_slice(&data).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::MalformedProperties, "{name}: {e}");
        assert_eq!(e.field_path(), Some("properties"), "{name}");
        // Raw mode does not look inside.
        assert!(
            sskb::DecodeOptions::new().raw_properties().decode_slice(&data).is_ok(),
            "{name}"
        );
    }
}

#[test]
fn alias_bomb_is_a_clean_error() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let mut yaml = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..40 {
        let prev = format!("*a{}", i - 1);
        yaml.push_str(&format!("a{i}: &a{i} [{}]\n", vec![prev; 10].join(", ")));
    }
    let data = file_with_root_blob(yaml.as_bytes());
    let (r, peak) = peak_of(|| sskb::decode_slice(&data));
    let e = r.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::MalformedProperties);
    assert!(e.message().contains("anchors"), "{e}");
    assert!(peak < SMALL * 4, "{peak}");
    // The offset points at the first anchor, inside the blob.
    assert_eq!(e.offset(), Some(16 + 4));
}

#[test]
fn limits_are_configurable() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let data = file_with_root_blob(b"a: {b: {c: 1}}\n");
    assert!(sskb::decode_slice(&data).is_ok());
    let tight = sskb::DecodeOptions::new().limits(sskb::Limits::new().max_yaml_depth(2));
    assert_eq!(
        tight.decode_slice(&data).unwrap_err().kind(),
        ErrorKind::MalformedProperties
    );
    let small = sskb::DecodeOptions::new().limits(sskb::Limits::new().max_property_bytes(4));
    let e = small.decode_slice(&data).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::LimitExceeded);
    assert_eq!(e.offset(), Some(12));
}

/// 150,000 pieces (a third inherited, derived pieces before their bases in
/// the file, four points each): validation keeps small records, not the
/// document.
#[test]
fn a_large_document_validates_in_bounded_memory() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    use sskb::{Frame, Header, Piece, Point, Shape, SskbWriter, Vec3};
    let n: u32 = 150_000;
    let mut w = SskbWriter::new(Vec::new());
    w.write_frame(&Frame::Header(Header {
        version: (1, 0),
        piece_count: n,
    }))
    .unwrap();
    // Ids in descending order: each derived piece comes before its base.
    for id in (0..n).rev() {
        let piece = if id % 3 == 2 {
            Piece {
                id,
                from: Some(id - 1),
                shape: Some(Shape::Circle),
                ..Piece::default()
            }
        } else {
            let points = (0..4).map(|k| Point::at(Vec3::new(k as f32, id as f32, 0.0))).collect();
            Piece {
                id,
                points: Some(points),
                size: Some(Vec3::new(1.0, 1.0, 1.0)),
                shape: Some(Shape::Ngon),
                sides: Some(6),
                affects: (id > 0).then(|| vec![id - 1]),
                ..Piece::default()
            }
        };
        w.write_frame(&Frame::Piece(piece)).unwrap();
    }
    w.write_frame(&Frame::End(sskb::End::default())).unwrap();
    let bytes = w.finish().unwrap();

    let (summary, validator_peak) = peak_of(|| sskb::validate_slice(&bytes).unwrap());
    assert_eq!(summary.pieces, n);
    let (doc, document_peak) = peak_of(|| sskb::decode_slice(&bytes).unwrap());
    assert_eq!(doc.pieces.len(), n as usize);
    drop(doc);
    let per_piece = validator_peak / n as usize;
    assert!(
        per_piece <= 64,
        "validation held {validator_peak} bytes ({per_piece} a piece)"
    );
    assert!(
        validator_peak * 3 < document_peak,
        "validator {validator_peak} vs document {document_peak}"
    );
    eprintln!(
        "{n} pieces, {} bytes: validation peak {validator_peak} bytes ({per_piece} a piece), whole document {document_peak}",
        bytes.len()
    );
}
