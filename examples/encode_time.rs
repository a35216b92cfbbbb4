//! The Rust encoder alone on a document: decodes FILE (untimed), then
//! encodes it into memory `RUNS` times and prints the best time in
//! seconds and the points per second. `python/scripts/bench_writer.py`
//! compares the Python `Writer` with it.
//!
//!     cargo run --release --example encode_time -- FILE.sskb [RUNS]

use std::time::Instant;

fn main() -> Result<(), sskb::Error> {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: encode_time FILE.sskb [RUNS]");
    let runs: usize = args.next().map_or(3, |s| s.parse().expect("a number of runs"));
    let doc = sskb::decode_slice(&std::fs::read(&path)?)?;
    let points: usize = doc.pieces.iter().map(|p| p.points.as_ref().map_or(0, Vec::len)).sum();
    let mut best = f64::INFINITY;
    let mut bytes = 0;
    for _ in 0..runs {
        let t = Instant::now();
        let out = sskb::encode(&doc)?;
        best = best.min(t.elapsed().as_secs_f64());
        bytes = out.len();
    }
    println!(
        "{best:.4} s for {points} points, {bytes} bytes ({:.1} M points/s)",
        points as f64 / best / 1e6
    );
    Ok(())
}
