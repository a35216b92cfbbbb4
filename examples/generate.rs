//! Writes a large `.sskb` file point by point with the event encoder, in
//! constant memory: one helix piece of N points plus a few small pieces.
//!
//! ```text
//! cargo run --release --example generate -- big.sskb 5000000
//! ```

use std::io::BufWriter;

use sskb::{End, Event, Header, PieceEnd, PieceStart, Point, Shape, SskbWriter, Vec3};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "big.sskb".into());
    let points: u32 = args.next().map(|n| n.parse()).transpose()?.unwrap_or(1_000_000);
    let file = BufWriter::new(std::fs::File::create(&path)?);
    let mut w = SskbWriter::new(file);
    w.write_event(&Event::Header(Header {
        version: (1, 0),
        piece_count: 2,
    }))?;
    w.write_event(&Event::PieceStart(PieceStart {
        index: 0,
        id: 0,
        from: None,
        field_mask: None,
        point_count: Some(points),
    }))?;
    for i in 0..points {
        let t = i as f32 * 0.01;
        w.write_event(&Event::Point(Point::at(Vec3::new(t.cos() * 50.0, t.sin() * 50.0, t))))?;
    }
    w.write_event(&Event::PieceEnd(PieceEnd {
        rotation: None,
        size: Some(Vec3::new(2.0, 2.0, 0.0)),
        shape: Some(Shape::Circle),
        sides: None,
        mode: None,
        affects: None,
        properties: None,
    }))?;
    // A derived piece that inherits everything but its mode.
    w.write_event(&Event::PieceStart(PieceStart {
        index: 1,
        id: 1,
        from: Some(0),
        field_mask: Some(1 << 5),
        point_count: None,
    }))?;
    w.write_event(&Event::PieceEnd(PieceEnd {
        rotation: None,
        size: None,
        shape: None,
        sides: None,
        mode: Some(sskb::Mode::Subtract),
        affects: None,
        properties: None,
    }))?;
    w.write_event(&Event::End(End::default()))?;
    w.finish()?;
    println!("wrote {path}: {points} points");
    Ok(())
}
