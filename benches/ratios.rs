//! Decoder cost as a ratio to reading every byte, measured in one run.
//!
//! `cargo bench --bench ratios` prints, for a 20 MB single-piece file and
//! 20 MB of small pieces (generated, see `benches/common/gen.rs`), the median
//! time of each way of decoding over interleaved rounds, its throughput, and
//! its ratio to a loop that reads every byte of the same buffer (summing
//! little-endian u32 words). `SSKB_BENCH_MB` changes the file size,
//! `SSKB_BENCH_ROUNDS` the number of rounds. The README's table comes from
//! this command; `benches/decode.rs` has the same cases under criterion.

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use bytes::BytesMut;
use common::{chunked, gen, whole};
use sskb::{EventDecoder, Point, SskbDecoder};

type Case<'a> = (&'static str, Box<dyn Fn() -> Duration + 'a>);

fn timed(f: impl FnOnce() -> usize) -> Duration {
    let start = Instant::now();
    black_box(f());
    start.elapsed()
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    // `cargo bench` passes `--bench`; a filter word selects files.
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let mb = env("SSKB_BENCH_MB", 20);
    let rounds = env("SSKB_BENCH_ROUNDS", 15).max(1) as usize;
    for (name, data) in common::files(mb * 1_000_000) {
        if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let data = &data[..];
        let fresh = || BytesMut::from(data);
        // The floor under frames: a fresh `Vec` of each piece's length
        // (counted before the clock), filled with one point, as the frames'
        // `Vec`s are filled, but with nothing decoded.
        let decoded = sskb::decode_slice(data).unwrap();
        let lengths: Vec<usize> = decoded
            .pieces
            .iter()
            .filter_map(|p| p.points.as_ref().map(Vec::len))
            .collect();
        let point = decoded.pieces[0]
            .points
            .as_ref()
            .and_then(|v| v.first())
            .copied()
            .unwrap_or_default();
        let cases: Vec<Case<'_>> = vec![
            (
                "read every byte",
                Box::new(|| timed(|| gen::read_every_byte(data) as usize)),
            ),
            (
                "EventDecoder, whole buffer",
                Box::new(|| {
                    let mut buf = fresh();
                    timed(|| whole(EventDecoder::new(), &mut buf))
                }),
            ),
            (
                "EventDecoder, fed whole (one copy)",
                Box::new(|| timed(|| chunked(EventDecoder::new(), data, data.len()))),
            ),
            (
                "EventDecoder, fed 4 KiB chunks",
                Box::new(|| timed(|| chunked(EventDecoder::new(), data, 4096))),
            ),
            (
                "SskbDecoder frames, whole buffer",
                Box::new(|| {
                    let mut buf = fresh();
                    timed(|| whole(SskbDecoder::new(), &mut buf))
                }),
            ),
            (
                "the frames' Vec<Point>s written, nothing decoded",
                Box::new(|| {
                    timed(|| {
                        lengths
                            .iter()
                            .map(|&n| {
                                let mut v: Vec<Point> = Vec::with_capacity(n);
                                v.extend(std::iter::repeat_n(black_box(point), n));
                                black_box(&v).len()
                            })
                            .sum()
                    })
                }),
            ),
            (
                "SskbDecoder frames, fed whole (one copy)",
                Box::new(|| timed(|| chunked(SskbDecoder::new(), data, data.len()))),
            ),
            (
                "SskbDecoder frames, fed 4 KiB chunks",
                Box::new(|| timed(|| chunked(SskbDecoder::new(), data, 4096))),
            ),
            (
                "decode_slice (Document)",
                Box::new(|| timed(|| sskb::decode_slice(data).unwrap().pieces.len())),
            ),
            (
                "validate_slice",
                Box::new(|| timed(|| sskb::validate_slice(data).unwrap().pieces as usize)),
            ),
        ];
        let mut times: Vec<Vec<Duration>> = vec![Vec::with_capacity(rounds); cases.len()];
        for _ in 0..rounds {
            for (t, (_, case)) in times.iter_mut().zip(&cases) {
                t.push(case());
            }
        }
        let medians: Vec<Duration> = times.iter_mut().map(|t| median(t)).collect();
        println!("\n{name}: {} bytes, median of {rounds} interleaved rounds", data.len());
        println!("| what | time | throughput | × read loop |");
        println!("|---|---:|---:|---:|");
        for ((what, _), t) in cases.iter().zip(&medians) {
            let mbs = data.len() as f64 / t.as_secs_f64() / 1e6;
            let ratio = t.as_secs_f64() / medians[0].as_secs_f64();
            println!(
                "| {what} | {:.2} ms | {mbs:.0} MB/s | {ratio:.1}× |",
                t.as_secs_f64() * 1e3
            );
        }
    }

    // 1-byte chunks stay linear: ten times the input in about ten times the time.
    if filter.is_empty() || filter.iter().any(|f| "one_byte".contains(f.as_str())) {
        let small = gen::single_piece(Vec::new(), mb * 50_000).unwrap();
        let large = gen::single_piece(Vec::new(), mb * 500_000).unwrap();
        let r = rounds.div_ceil(3);
        let mut a: Vec<Duration> = (0..r)
            .map(|_| timed(|| chunked(EventDecoder::new(), &small, 1)))
            .collect();
        let mut b: Vec<Duration> = (0..r)
            .map(|_| timed(|| chunked(EventDecoder::new(), &large, 1)))
            .collect();
        let (a, b) = (median(&mut a), median(&mut b));
        println!("\nEventDecoder fed 1-byte chunks (single piece), median of {r}:");
        println!(
            "{} bytes: {:.1} ms; {} bytes: {:.1} ms; {:.1}× the input in {:.1}× the time",
            small.len(),
            a.as_secs_f64() * 1e3,
            large.len(),
            b.as_secs_f64() * 1e3,
            large.len() as f64 / small.len() as f64,
            b.as_secs_f64() / a.as_secs_f64()
        );
    }
}
