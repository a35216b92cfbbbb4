//! The async and blocking doors: `FramedRead` over a trickling `AsyncRead`
//! and over `tokio::fs::File`, and the blocking readers over a trickling
//! `std::io::Read`; all must agree with `decode_slice`.

mod common;

use std::io::Read;
use std::pin::Pin;
use std::task::{Context, Poll};

use common::*;
use futures::StreamExt;
use sskb::{DecodeOptions, Document, Event, EventDecoder, EventReader, Frame, SskbDecoder, SskbReader};
use tokio::io::{AsyncRead, ReadBuf};
use tokio_util::codec::FramedRead;

/// Hands out one byte, then `Poll::Pending`, alternately.
struct Trickle {
    data: Vec<u8>,
    pos: usize,
    pending: bool,
}

impl Trickle {
    fn new(data: Vec<u8>) -> Self {
        Trickle {
            data,
            pos: 0,
            pending: true,
        }
    }
}

impl AsyncRead for Trickle {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        if self.pending {
            self.pending = false;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        self.pending = true;
        if self.pos < self.data.len() && buf.remaining() > 0 {
            let b = self.data[self.pos];
            buf.put_slice(&[b]);
            self.pos += 1;
        }
        Poll::Ready(Ok(()))
    }
}

/// A blocking reader that returns one byte per call.
struct OneByte<'a>(&'a [u8]);

impl Read for OneByte<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match (self.0.split_first(), buf.is_empty()) {
            (Some((b, rest)), false) => {
                buf[0] = *b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

async fn collect<R: AsyncRead + Unpin>(mut frames: FramedRead<R, SskbDecoder>) -> Result<Document, sskb::Error> {
    let mut doc = Document::default();
    let mut ended = false;
    while let Some(frame) = frames.next().await {
        match frame? {
            Frame::Header(h) => doc.version = h.version,
            Frame::Piece(p) => doc.pieces.push(p),
            Frame::End(e) => {
                doc.properties = e.properties;
                ended = true;
            }
        }
    }
    assert!(ended);
    Ok(doc)
}

#[tokio::test(flavor = "current_thread")]
async fn framed_read_over_a_trickle_agrees_with_decode_slice() {
    let mut n = 0;
    for case in binary_cases() {
        let data = case.bytes();
        let want = sskb::decode_slice(&data);
        let decoder = SskbDecoder::new().with_options(sskb::DecodeOptions::new().input_len(data.len() as u64));
        let got = collect(FramedRead::new(Trickle::new(data.clone()), decoder)).await;
        assert_eq!(outcome(&got), outcome(&want), "{}", case.file);
        assert!(same_outcome(&case.decode, &outcome(&got)), "{}", case.file);
        if let (Ok(g), Ok(w)) = (&got, &want) {
            assert_eq!(g, w, "{}", case.file);
        }
        n += 1;
    }
    assert_eq!(n, 609);
}

#[tokio::test(flavor = "current_thread")]
async fn events_over_a_trickle_count_points() {
    let case = binary_cases()
        .into_iter()
        .find(|c| c.file.ends_with("trefoil_400_points.sskb"))
        .unwrap();
    let data = case.bytes();
    let mut events = FramedRead::new(Trickle::new(data.clone()), EventDecoder::new());
    let (mut points, mut pieces, mut ends) = (0, 0, 0);
    while let Some(ev) = events.next().await {
        match ev.unwrap() {
            Event::Point(_) => points += 1,
            Event::PieceEnd(_) => pieces += 1,
            Event::End(_) => ends += 1,
            _ => {}
        }
    }
    let doc = sskb::decode_slice(&data).unwrap();
    let want: usize = doc.pieces.iter().map(|p| p.points.as_ref().map_or(0, Vec::len)).sum();
    assert_eq!((points, pieces, ends), (want, doc.pieces.len(), 1));
    assert!(points >= 400);
}

#[tokio::test(flavor = "current_thread")]
async fn framed_read_over_tokio_files() {
    let dir = std::env::temp_dir().join(format!("sskb-async-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for case in binary_cases()
        .into_iter()
        .filter(|c| c.file.starts_with("valid/") || c.decode != "ok")
        .take(200)
    {
        let data = case.bytes();
        let path = dir.join(case.file.replace('/', "_"));
        std::fs::write(&path, &data).unwrap();
        let file = tokio::fs::File::open(&path).await.unwrap();
        let len = file.metadata().await.unwrap().len();
        let got = collect(FramedRead::new(
            file,
            SskbDecoder::new().with_options(sskb::DecodeOptions::new().input_len(len)),
        ))
        .await;
        assert!(
            same_outcome(&case.decode, &outcome(&got)),
            "{}: {:?}",
            case.file,
            got.err()
        );
        if let Ok(doc) = got {
            assert_eq!(doc, sskb::decode_slice(&data).unwrap(), "{}", case.file);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn blocking_readers_agree_with_decode_slice() {
    for case in binary_cases() {
        let data = case.bytes();
        let want = sskb::decode_slice(&data);
        let opts = DecodeOptions::new().input_len(data.len() as u64);
        let got = sskb::read_document(OneByte(&data), opts);
        assert_eq!(outcome(&got), outcome(&want), "{}", case.file);
        if let (Ok(g), Ok(w)) = (&got, &want) {
            assert_eq!(g, w, "{}", case.file);
        }
        // Unknown length, large reads.
        let got = sskb::read_document(&data[..], DecodeOptions::new());
        assert_eq!(got.is_ok(), want.is_ok(), "{}", case.file);

        // Events: the reader stops after the first error.
        let mut events = EventReader::new(OneByte(&data));
        let mut errors = 0;
        for ev in events.by_ref() {
            if ev.is_err() {
                errors += 1;
            }
        }
        assert_eq!(errors, usize::from(want.is_err()), "{}", case.file);
        assert!(events.next().is_none());
    }
}

#[test]
fn sskb_reader_opens_files_with_their_length() {
    let case = binary_cases()
        .into_iter()
        .find(|c| c.file.contains("huge_point_count"))
        .unwrap();
    let path = corpus_dir().join(&case.file);
    let err = SskbReader::open(&path).unwrap().find_map(Result::err).unwrap();
    assert_eq!(err.kind(), sskb::ErrorKind::CountExceedsRemaining, "{err}");
    let missing = SskbReader::open(corpus_dir().join("no/such/file.sskb")).unwrap_err();
    assert_eq!(missing.kind(), sskb::ErrorKind::Io);
}
