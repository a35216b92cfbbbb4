//! Deterministic generators for the benchmark files, written event by event
//! (constant memory, so the same code makes a 300 MB file):
//!
//! - `single_piece`: one piece whose points all carry `curve_in`,
//!   `curve_out` and `size` (54 bytes a point);
//! - `small_pieces`: pieces of 2–64 points, every 4th piece inherited from
//!   the one before, a third of the pieces with a short property blob. The
//!   points of a piece share their optional fields, as the paths a tool
//!   draws do (each piece picks a mix of curve controls, sizes, rotations
//!   and transitions), and one point in eight adds a size of its own;
//! - `mixed_points`: the same, but every point picks its optional fields at
//!   random: the worst case for a CPU's branch prediction.
//!
//! All are valid documents. Shared by `benches/` and `examples/generate.rs`.

use std::io::Write;

use sskb::{End, Event, Header, Mode, PieceEnd, PieceStart, Point, Properties, Shape, SskbWriter, Vec2, Vec3};

/// A small xorshift generator: the same files on every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next() % u64::from(hi - lo + 1)) as u32
    }

    /// A float in [0, 1).
    pub fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }

    pub fn vec3(&mut self, scale: f32) -> Vec3 {
        Vec3::new(self.unit() * scale, self.unit() * scale, self.unit() * scale)
    }
}

/// Bytes of one point of [`single_piece`].
pub const SINGLE_POINT_BYTES: u64 = 54;

/// One piece of points with `curve_in`, `curve_out` and `size`, about
/// `bytes` long.
pub fn single_piece<W: Write>(out: W, bytes: u64) -> sskb::Result<W> {
    let points = u32::try_from((bytes.saturating_sub(40) / SINGLE_POINT_BYTES).max(1)).unwrap_or(u32::MAX);
    let mut w = SskbWriter::new(out);
    w.write_event(&Event::Header(Header {
        version: (1, 0),
        piece_count: 1,
    }))?;
    w.write_event(&Event::PieceStart(PieceStart {
        index: 0,
        id: 0,
        from: None,
        field_mask: None,
        point_count: Some(points),
    }))?;
    let mut rng = Rng::new(7);
    for i in 0..points {
        let t = i as f32 * 0.01;
        let position = Vec3::new(t.cos() * 50.0, t.sin() * 50.0, t);
        w.write_event(&Event::Point(Point {
            position,
            curve_in: Some(rng.vec3(10.0)),
            curve_out: Some(rng.vec3(10.0)),
            size: Some(rng.vec3(5.0)),
            ..Point::default()
        }))?;
    }
    w.write_event(&Event::PieceEnd(PieceEnd {
        rotation: None,
        size: Some(Vec3::new(2.0, 2.0, 2.0)),
        shape: Some(Shape::Circle),
        sides: None,
        mode: None,
        affects: None,
        properties: None,
    }))?;
    w.write_event(&Event::End(End::default()))?;
    w.finish()
}

/// Pieces of 2–64 points, about `bytes` long in all: every 4th piece
/// inherits from the piece before it (a new mode, sometimes new points),
/// a third of the pieces carry a short property blob.
pub fn small_pieces<W: Write>(out: W, bytes: u64) -> sskb::Result<W> {
    pieces(out, bytes, false)
}

/// As [`small_pieces`], but each point picks its optional fields at random.
pub fn mixed_points<W: Write>(out: W, bytes: u64) -> sskb::Result<W> {
    pieces(out, bytes, true)
}

fn pieces<W: Write>(out: W, bytes: u64, mixed: bool) -> sskb::Result<W> {
    // Each piece is about 1360 bytes: 33 points of about 40 bytes, its tail and blob.
    let pieces = u32::try_from((bytes / 1360).max(1)).unwrap_or(u32::MAX);
    let mut w = SskbWriter::new(out);
    w.write_event(&Event::Header(Header {
        version: (1, 0),
        piece_count: pieces,
    }))?;
    let mut rng = Rng::new(11);
    for id in 0..pieces {
        let inherited = id % 4 == 3;
        let points = if inherited && rng.range(0, 1) == 0 {
            None
        } else {
            Some(rng.range(2, 64))
        };
        let properties = (id % 3 == 0).then(|| {
            Properties::from_raw(format!("name: piece {id}\nmaterial: oak\nweight: {}\n", id % 97).into_bytes())
        });
        w.write_event(&Event::PieceStart(PieceStart {
            index: id,
            id,
            from: inherited.then(|| id - 1),
            field_mask: inherited
                .then(|| (1 << 5) | u16::from(points.is_some()) | if properties.is_some() { 1 << 7 } else { 0 }),
            point_count: points,
        }))?;
        let piece_kind = rng.range(0, 7);
        for k in 0..points.unwrap_or(0) {
            let kind = if mixed {
                rng.range(0, 7)
            } else if rng.range(0, 7) == 0 {
                piece_kind | 2
            } else {
                piece_kind
            };
            w.write_event(&Event::Point(Point {
                position: Vec3::new(id as f32, k as f32, rng.unit() * 100.0),
                curve_in: (kind & 1 != 0).then(|| rng.vec3(4.0)),
                curve_out: (kind & 1 != 0).then(|| rng.vec3(4.0)),
                size: (kind & 2 != 0).then(|| rng.vec3(3.0)),
                rotation: (kind == 7).then(|| rng.vec3(90.0)),
                transition_in: (kind & 4 != 0).then(|| Vec2::new(0.75, rng.unit())),
                transition_out: (kind & 4 != 0).then(|| Vec2::new(0.25, rng.unit())),
            }))?;
        }
        let end = if inherited {
            PieceEnd {
                rotation: None,
                size: None,
                shape: None,
                sides: None,
                mode: Some(Mode::Subtract),
                affects: None,
                properties,
            }
        } else {
            let ngon = rng.range(0, 1) == 1;
            PieceEnd {
                rotation: (id % 5 == 0).then(|| Vec3::new(0.0, 45.0, 0.0)),
                size: Some(Vec3::new(2.0, 2.0, 1.0)),
                shape: Some(if ngon { Shape::Ngon } else { Shape::Circle }),
                sides: ngon.then_some(6),
                mode: None,
                affects: None,
                properties,
            }
        };
        w.write_event(&Event::PieceEnd(end))?;
    }
    w.write_event(&Event::End(End {
        properties: Some(Properties::from_raw(&b"generator: sskb benches\n"[..])),
    }))?;
    w.finish()
}

/// Reads every byte once: the sum of the buffer's little-endian u32 words
/// (and its last bytes). The baseline every decoder figure is a ratio to.
#[allow(dead_code)]
pub fn read_every_byte(data: &[u8]) -> u32 {
    let mut words = data.chunks_exact(4);
    let mut sum = 0u32;
    for w in &mut words {
        sum = sum.wrapping_add(u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
    }
    words.remainder().iter().fold(sum, |s, &b| s.wrapping_add(u32::from(b)))
}
