//! Decoding throughput: a 20 MB single piece whole, in 4 KiB chunks and in
//! 1-byte chunks; a 100,000-piece document; encoding and validation.
//!
//! `cargo bench --bench decode`

use bytes::BytesMut;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use sskb::{Decoder, Document, EventDecoder, Piece, Point, Shape, SskbDecoder, Vec2, Vec3};

/// One piece of `points` points with curve controls and a transition (50 bytes each).
fn big_piece(points: usize) -> Vec<u8> {
    let pts = (0..points)
        .map(|i| {
            let t = i as f32 * 0.001;
            Point {
                position: Vec3::new(t.cos(), t.sin(), t),
                curve_in: Some(Vec3::new(t, 0.5, 0.25)),
                curve_out: Some(Vec3::new(0.25, t, 0.5)),
                transition_out: Some(Vec2::new(0.3, 1.0)),
                ..Point::default()
            }
        })
        .collect();
    let doc = Document {
        pieces: vec![Piece {
            id: 0,
            points: Some(pts),
            size: Some(Vec3::new(1.0, 2.0, 3.0)),
            shape: Some(Shape::Circle),
            ..Piece::default()
        }],
        ..Document::default()
    };
    sskb::encode(&doc).unwrap()
}

/// `n` small pieces, a third of them inherited.
fn many_pieces(n: u32) -> Vec<u8> {
    let pieces = (0..n)
        .map(|id| {
            if id % 3 == 2 {
                Piece {
                    id,
                    from: Some(id - 1),
                    mode: Some(sskb::Mode::Subtract),
                    ..Piece::default()
                }
            } else {
                Piece {
                    id,
                    points: Some(vec![
                        Point::at(Vec3::new(id as f32, 0.0, 0.0)),
                        Point::at(Vec3::new(0.0, 1.0, 0.0)),
                    ]),
                    size: Some(Vec3::new(1.0, 1.0, 1.0)),
                    shape: Some(Shape::Ngon),
                    sides: Some(6),
                    ..Piece::default()
                }
            }
        })
        .collect();
    sskb::encode(&Document {
        pieces,
        ..Document::default()
    })
    .unwrap()
}

/// Feeds `data` in `chunk`-byte pieces; counts what comes out.
fn chunked<D: Decoder<Error = sskb::Error>>(mut d: D, data: &[u8], chunk: usize) -> usize {
    let mut buf = BytesMut::with_capacity(chunk.max(64));
    let mut items = 0;
    for part in data.chunks(chunk) {
        buf.extend_from_slice(part);
        while d.decode(&mut buf).unwrap().is_some() {
            items += 1;
        }
    }
    while d.decode_eof(&mut buf).unwrap().is_some() {
        items += 1;
    }
    items
}

fn bench(c: &mut Criterion) {
    let big = big_piece(20_000_000 / 50);
    let mut g = c.benchmark_group("20MB_piece");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(big.len() as u64));
    g.bench_function("decode_slice", |b| b.iter(|| sskb::decode_slice(&big).unwrap()));
    g.bench_function("frames_whole_buffer", |b| {
        b.iter(|| chunked(SskbDecoder::new(), &big, big.len()))
    });
    g.bench_function("frames_4KiB_chunks", |b| {
        b.iter(|| chunked(SskbDecoder::new(), &big, 4096))
    });
    g.bench_function("events_4KiB_chunks", |b| {
        b.iter(|| chunked(EventDecoder::new(), &big, 4096))
    });
    g.bench_function("validate_slice", |b| b.iter(|| sskb::validate_slice(&big).unwrap()));
    let doc = sskb::decode_slice(&big).unwrap();
    g.bench_function("encode", |b| b.iter(|| sskb::encode(&doc).unwrap()));
    g.finish();

    // 1-byte chunks must scale linearly: the same cost per byte at 1 MB and 4 MB.
    let mut g = c.benchmark_group("1_byte_chunks");
    g.sample_size(10);
    for points in [1_000_000 / 50, 4_000_000 / 50] {
        let data = big_piece(points);
        g.throughput(Throughput::Bytes(data.len() as u64));
        g.bench_with_input(BenchmarkId::new("events", data.len()), &data, |b, d| {
            b.iter(|| chunked(EventDecoder::new(), d, 1))
        });
    }
    g.finish();

    let many = many_pieces(100_000);
    let mut g = c.benchmark_group("100k_pieces");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(many.len() as u64));
    g.bench_function("decode_slice", |b| b.iter(|| sskb::decode_slice(&many).unwrap()));
    g.bench_function("frames_4KiB_chunks", |b| {
        b.iter(|| chunked(SskbDecoder::new(), &many, 4096))
    });
    g.bench_function("validate_slice", |b| b.iter(|| sskb::validate_slice(&many).unwrap()));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
