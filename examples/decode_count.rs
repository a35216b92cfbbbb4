//! Decodes a generated file one way, for instruction counts that do not
//! drift on a shared machine (the README's callgrind table):
//!
//! ```text
//! cargo build --release --example decode_count
//! valgrind --tool=callgrind target/release/examples/decode_count single events 2
//! ```
//!
//! Arguments: the file (`single`, `small` or `mixed`, from
//! `benches/common/gen.rs`), the way (`events`, `frames`, `decode`,
//! `validate`, `read`, or `none`, which generates and copies the file and
//! decodes nothing: subtract its count from the others), and the size in
//! megabytes (default 2).

use bytes::BytesMut;

#[path = "../benches/common/mod.rs"]
mod common;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(file), Some(way)) = (args.next(), args.next()) else {
        return Err("usage: decode_count single|small|mixed events|frames|decode|validate|read|none [MB]".into());
    };
    let megabytes: u64 = args.next().map(|n| n.parse()).transpose()?.unwrap_or(2);
    let bytes = megabytes * 1_000_000;
    let data = match file.as_str() {
        "single" => common::gen::single_piece(Vec::new(), bytes)?,
        "small" => common::gen::small_pieces(Vec::new(), bytes)?,
        "mixed" => common::gen::mixed_points(Vec::new(), bytes)?,
        other => return Err(format!("unknown file {other:?}").into()),
    };
    let mut buf = BytesMut::from(&data[..]);
    let n = match way.as_str() {
        "events" => common::whole(sskb::EventDecoder::new(), &mut buf),
        "frames" => common::whole(sskb::SskbDecoder::new(), &mut buf),
        "decode" => sskb::decode_slice(&data)?.pieces.len(),
        "validate" => sskb::validate_slice(&data)?.pieces as usize,
        "read" => common::gen::read_every_byte(&data) as usize,
        "none" => buf.len(),
        other => return Err(format!("unknown way {other:?}").into()),
    };
    println!("{file} {way}: {n}");
    Ok(())
}
