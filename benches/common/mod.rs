//! What the benches share: the file generators and the ways of feeding a
//! decoder.

#![allow(dead_code)]

pub mod gen;

use bytes::BytesMut;
use sskb::{Decoder, Event, Frame};

/// What a consumer looks at in each item: a point's `x`, a piece's point
/// count. The benches read every item this way, as a user would, so that
/// nothing is optimized away and nothing more is forced to memory.
pub trait Look {
    fn look(&self) -> f32;
}

impl Look for Event {
    fn look(&self) -> f32 {
        match self {
            Event::Point(p) => p.position.x,
            _ => 1.0,
        }
    }
}

impl Look for Frame {
    fn look(&self) -> f32 {
        match self {
            Frame::Piece(p) => p.points.as_ref().map_or(0.0, |v| v.len() as f32),
            _ => 1.0,
        }
    }
}

/// Feeds `data` to `d` in `chunk`-byte parts, as a socket would; counts what
/// comes out.
pub fn chunked<D>(mut d: D, data: &[u8], chunk: usize) -> usize
where
    D: Decoder<Error = sskb::Error>,
    D::Item: Look,
{
    let mut buf = BytesMut::with_capacity(chunk.max(64));
    let (mut items, mut sum) = (0, 0.0);
    for part in data.chunks(chunk) {
        buf.extend_from_slice(part);
        while let Some(item) = d.decode(&mut buf).unwrap() {
            sum += item.look();
            items += 1;
        }
    }
    while let Some(item) = d.decode_eof(&mut buf).unwrap() {
        sum += item.look();
        items += 1;
    }
    std::hint::black_box(sum);
    items
}

/// Decodes one buffer that already holds the whole file (made before the
/// clock starts, and dropped after it stops), as `FramedRead` drives a
/// decoder: `decode` until it has nothing, then `decode_eof`; counts what
/// comes out.
pub fn whole<D>(mut d: D, buf: &mut BytesMut) -> usize
where
    D: Decoder<Error = sskb::Error>,
    D::Item: Look,
{
    let (mut items, mut sum) = (0, 0.0);
    while let Some(item) = d.decode(buf).unwrap() {
        sum += item.look();
        items += 1;
    }
    while let Some(item) = d.decode_eof(buf).unwrap() {
        sum += item.look();
        items += 1;
    }
    std::hint::black_box(sum);
    items
}

/// The generated files, about `bytes` long each.
pub fn files(bytes: u64) -> [(&'static str, Vec<u8>); 3] {
    [
        ("single_piece", gen::single_piece(Vec::new(), bytes).unwrap()),
        ("small_pieces", gen::small_pieces(Vec::new(), bytes).unwrap()),
        ("mixed_points", gen::mixed_points(Vec::new(), bytes).unwrap()),
    ]
}
