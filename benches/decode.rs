//! Decoding throughput under criterion, on the generated files of
//! `benches/common/gen.rs` (20 MB each): every group holds the baseline that
//! reads every byte of the same buffer, so each figure reads as a ratio to
//! it. `cargo bench --bench ratios` prints those ratios from one run.
//!
//! `cargo bench --bench decode`

mod common;

use bytes::BytesMut;
use common::{chunked, gen, whole};
use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use sskb::{EventDecoder, SskbDecoder};

fn bench(c: &mut Criterion) {
    for (name, data) in common::files(20_000_000) {
        let mut g = c.benchmark_group(name);
        g.sample_size(10);
        g.throughput(Throughput::Bytes(data.len() as u64));
        g.bench_function("read_every_byte", |b| b.iter(|| gen::read_every_byte(&data)));
        g.bench_function("events_whole_buffer", |b| {
            b.iter_batched_ref(
                || BytesMut::from(&data[..]),
                |buf| whole(EventDecoder::new(), buf),
                BatchSize::PerIteration,
            )
        });
        g.bench_function("events_4KiB_chunks", |b| {
            b.iter(|| chunked(EventDecoder::new(), &data, 4096))
        });
        g.bench_function("frames_whole_buffer", |b| {
            b.iter_batched_ref(
                || BytesMut::from(&data[..]),
                |buf| whole(SskbDecoder::new(), buf),
                BatchSize::PerIteration,
            )
        });
        g.bench_function("frames_4KiB_chunks", |b| {
            b.iter(|| chunked(SskbDecoder::new(), &data, 4096))
        });
        g.bench_function("decode_slice", |b| b.iter(|| sskb::decode_slice(&data).unwrap()));
        g.bench_function("validate_slice", |b| b.iter(|| sskb::validate_slice(&data).unwrap()));
        let doc = sskb::decode_slice(&data).unwrap();
        g.bench_function("encode", |b| b.iter(|| sskb::encode(&doc).unwrap()));
        g.finish();
    }

    // 1-byte chunks must scale linearly: the same cost per byte at 1 MB and 10 MB.
    let mut g = c.benchmark_group("1_byte_chunks");
    g.sample_size(10);
    for bytes in [1_000_000, 10_000_000] {
        let data = gen::single_piece(Vec::new(), bytes).unwrap();
        g.throughput(Throughput::Bytes(data.len() as u64));
        g.bench_with_input(BenchmarkId::new("events", data.len()), &data, |b, d| {
            b.iter(|| chunked(EventDecoder::new(), d, 1))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
