//! Writes a large `.sskb` file event by event with the event encoder, in
//! constant memory, with the benches' generators (`benches/common/gen.rs`):
//!
//! ```text
//! cargo run --release --example generate -- OUT.sskb MEGABYTES [single|small|mixed]
//! ```
//!
//! `single`: one piece whose points carry curve controls and sizes;
//! `small` (the default): pieces of 2–64 points, every 4th inherited, a third
//! with a property blob; `mixed`: as `small`, each point with random fields.

use std::io::BufWriter;

#[path = "../benches/common/gen.rs"]
mod gen;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "big.sskb".into());
    let megabytes: f64 = args.next().map(|n| n.parse()).transpose()?.unwrap_or(20.0);
    let kind = args.next().unwrap_or_else(|| "small".into());
    let bytes = (megabytes * 1e6) as u64;
    let file = BufWriter::new(std::fs::File::create(&path)?);
    let file = match kind.as_str() {
        "single" => gen::single_piece(file, bytes)?,
        "small" => gen::small_pieces(file, bytes)?,
        "mixed" => gen::mixed_points(file, bytes)?,
        other => return Err(format!("unknown kind `{other}` (single, small or mixed)").into()),
    };
    let len = file.into_inner().map_err(|e| e.into_error())?.metadata()?.len();
    println!("wrote {path}: {len} bytes ({kind})");
    Ok(())
}
