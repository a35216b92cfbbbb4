//! Decodes a `.sskb` file with `FramedRead` over `tokio::fs::File`, one piece
//! at a time, and prints a summary.
//!
//! ```text
//! cargo run --example async_summary -- tests/data/conformance/valid/example_csg_cube.sskb
//! ```

use futures::StreamExt;
use sskb::{Frame, SskbDecoder};
use tokio_util::codec::FramedRead;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "tests/data/conformance/valid/example_csg_cube.sskb".into());
    let file = tokio::fs::File::open(&path).await?;
    let len = file.metadata().await?.len();
    // Knowing the length lets the decoder check each count as it is read.
    let mut frames = FramedRead::new(
        file,
        SskbDecoder::new().with_options(sskb::DecodeOptions::new().input_len(len)),
    );

    let (mut pieces, mut points, mut inherited) = (0u64, 0u64, 0u64);
    while let Some(frame) = frames.next().await {
        match frame? {
            Frame::Header(h) => println!(
                "{path}: version {}.{}, {} pieces",
                h.version.0, h.version.1, h.piece_count
            ),
            Frame::Piece(p) => {
                pieces += 1;
                inherited += u64::from(p.from.is_some());
                let n = p.points.as_ref().map_or(0, Vec::len);
                points += n as u64;
                let shape = p.shape.map_or("inherited", |s| s.name());
                let mode = p.mode.map_or("add/inherited", |m| m.name());
                println!("  piece {:>3}: {n:>5} points, {shape}, {mode}", p.id);
            }
            Frame::End(end) => {
                let props = end.properties.map_or(0, |p| p.raw().len());
                println!("{pieces} pieces ({inherited} inherited), {points} points, root properties {props} bytes");
            }
        }
    }
    Ok(())
}
