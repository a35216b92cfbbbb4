//! Decodes `.sskb` from a TCP stream on 127.0.0.1: a second task writes a
//! file in small pieces with pauses, the main task decodes pieces as they
//! arrive. The length is unknown, so the limits guard the counts.
//!
//! ```text
//! cargo run --example tcp_stream -- tests/data/conformance/valid/trefoil_400_points.sskb
//! ```

use std::time::Duration;

use futures::StreamExt;
use sskb::{Frame, SskbDecoder};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::FramedRead;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "tests/data/conformance/valid/trefoil_400_points.sskb".into());
    let data = tokio::fs::read(&path).await?;

    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let writer = tokio::spawn(async move {
        let mut stream = TcpStream::connect(addr).await?;
        for chunk in data.chunks(500) {
            stream.write_all(chunk).await?;
            stream.flush().await?;
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        stream.shutdown().await
    });

    let (socket, peer) = listener.accept().await?;
    println!("decoding from {peer}");
    let mut frames = FramedRead::new(socket, SskbDecoder::new());
    let mut points = 0usize;
    while let Some(frame) = frames.next().await {
        match frame? {
            Frame::Header(h) => println!(
                "header: version {}.{}, {} pieces",
                h.version.0, h.version.1, h.piece_count
            ),
            Frame::Piece(p) => {
                let n = p.points.as_ref().map_or(0, Vec::len);
                points += n;
                println!(
                    "piece {} arrived with {n} points (offset {})",
                    p.id,
                    frames.decoder().offset()
                );
            }
            Frame::End(_) => println!("end of document: {points} points in all"),
        }
    }
    writer.await??;
    Ok(())
}
