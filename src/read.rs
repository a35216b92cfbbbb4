//! The blocking doors: whole documents from slices, and frame or event
//! readers over any `std::io::Read`. All run the same state machine as the
//! async codecs.

use std::io::Read;
use std::path::Path;

use bytes::{Bytes, BytesMut};
use tokio_util::codec::Decoder;

use crate::codec::{Assembler, EventDecoder, Frame, SskbDecoder};
use crate::error::Result;
use crate::input::Input;
use crate::model::Document;
use crate::options::DecodeOptions;
use crate::state::Machine;
use crate::wire::MIN_PIECE;

/// Decodes a whole document from a slice, with strict properties and default
/// limits; counts are checked against the slice's length as they are read.
///
/// ```
/// let empty = b"SSKB\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00";
/// let doc = sskb::decode_slice(empty)?;
/// assert_eq!(doc.version, (1, 0));
/// assert!(doc.pieces.is_empty());
/// # Ok::<(), sskb::Error>(())
/// ```
///
/// # Errors
/// Any decoding error, e.g. `truncated` for a cut file, `trailing_bytes` for
/// bytes after the document.
pub fn decode_slice(data: &[u8]) -> Result<Document> {
    DecodeOptions::new().decode_slice(data)
}

/// As [`decode_slice`], but property blobs are zero-copy slices of `data`.
///
/// # Errors
/// As [`decode_slice`].
pub fn decode_bytes(data: Bytes) -> Result<Document> {
    DecodeOptions::new().decode_bytes(data)
}

/// One `read` into `buf`, retried while it is interrupted. A reader that
/// claims more than `buf` holds is not believed: the count is at most
/// `buf.len()`. (Every reading loop of the crate and its Python module
/// reads through this.)
///
/// # Errors
/// The reader's, but `Interrupted`.
#[doc(hidden)]
pub fn read_some<R: Read + ?Sized>(reader: &mut R, buf: &mut [u8]) -> std::io::Result<usize> {
    loop {
        match reader.read(buf) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            r => return r.map(|n| n.min(buf.len())),
        }
    }
}

pub(crate) fn decode_document<I: Input>(opts: DecodeOptions, mut input: I) -> Result<Document> {
    let mut machine = Machine::new(opts, true);
    let mut assembler = Assembler::default();
    let mut doc = Document::default();
    loop {
        let Some(frame) = assembler.next_frame(&mut machine, &mut input)? else {
            return Err(machine.truncation(input.chunk().len()));
        };
        if let Frame::Header(h) = &frame {
            let fits = input.chunk().len() as u64 / MIN_PIECE;
            doc.pieces.reserve(u64::from(h.piece_count).min(fits) as usize);
        }
        if add_frame(&mut doc, frame) {
            // Anything left is trailing bytes.
            machine.step(&mut input)?;
            return Ok(doc);
        }
    }
}

/// How many bytes a reader asks for at a time.
const READ_CHUNK: usize = 64 * 1024;

/// A blocking reader's bytes as the machine's input: one reusable buffer
/// that reads go straight into (no copy through a scratch buffer), holding
/// the unconsumed bytes and room for the next read. It grows only with the
/// bytes actually read (a property blob waits whole in it), never on the
/// word of a length field.
pub(crate) struct Window<R> {
    reader: R,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    eof: bool,
}

impl<R: Read> Window<R> {
    pub fn new(reader: R) -> Window<R> {
        Window {
            reader,
            buf: Vec::new(),
            start: 0,
            end: 0,
            eof: false,
        }
    }

    /// Whether the reader has reported its end.
    pub fn at_eof(&self) -> bool {
        self.eof
    }

    /// Reads once more (retrying interrupted reads), after moving the
    /// unconsumed bytes to the front.
    ///
    /// # Errors
    /// `io` from the reader.
    pub fn fill(&mut self) -> Result<()> {
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        if self.buf.len() - self.end < READ_CHUNK {
            self.buf.resize(self.end + READ_CHUNK, 0);
        }
        let n = read_some(&mut self.reader, &mut self.buf[self.end..])?;
        self.end += n;
        self.eof = n == 0;
        Ok(())
    }
}

impl<R> Input for Window<R> {
    #[inline]
    fn chunk(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }
    #[inline]
    fn advance(&mut self, n: usize) {
        self.start = (self.start + n).min(self.end);
    }
    fn take_bytes(&mut self, n: usize) -> Bytes {
        let n = n.min(self.end - self.start);
        let b = Bytes::copy_from_slice(&self.buf[self.start..self.start + n]);
        self.start += n;
        b
    }
}

/// Drives a [`Decoder`] from a blocking [`Read`]: an iterator of items.
///
/// Use [`SskbReader`] for frames and [`EventReader`] for events.
#[derive(Debug)]
pub struct DecoderReader<R, D> {
    reader: R,
    decoder: D,
    buf: BytesMut,
    scratch: Box<[u8]>,
    eof: bool,
    finished: bool,
}

/// Frames ([`Frame`]) from a blocking reader.
///
/// ```
/// let empty: &[u8] = b"SSKB\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00";
/// for frame in sskb::SskbReader::new(empty) {
///     println!("{:?}", frame?);
/// }
/// # Ok::<(), sskb::Error>(())
/// ```
pub type SskbReader<R> = DecoderReader<R, SskbDecoder>;

/// Events ([`Event`](crate::Event)) from a blocking reader: constant memory
/// per point.
pub type EventReader<R> = DecoderReader<R, EventDecoder>;

impl<R: Read> DecoderReader<R, SskbDecoder> {
    /// Frames from `reader` with default options.
    pub fn new(reader: R) -> Self {
        Self::with_decoder(reader, SskbDecoder::new())
    }

    /// Frames from `reader` with `options`.
    pub fn with_options(reader: R, options: DecodeOptions) -> Self {
        Self::with_decoder(reader, SskbDecoder::new().with_options(options))
    }
}

impl DecoderReader<std::fs::File, SskbDecoder> {
    /// Opens a file; its length is given to the decoder.
    ///
    /// # Errors
    /// `io` when the file cannot be opened.
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        let file = std::fs::File::open(path)?;
        let len = file.metadata()?.len();
        Ok(Self::with_options(file, DecodeOptions::new().input_len(len)))
    }
}

impl<R: Read> DecoderReader<R, EventDecoder> {
    /// Events from `reader` with default options.
    pub fn new(reader: R) -> Self {
        Self::with_decoder(reader, EventDecoder::new())
    }

    /// Events from `reader` with `options`.
    pub fn with_options(reader: R, options: DecodeOptions) -> Self {
        Self::with_decoder(reader, EventDecoder::new().with_options(options))
    }
}

impl<R: Read, D: Decoder<Error = crate::Error>> DecoderReader<R, D> {
    /// Items of `decoder` from `reader`.
    pub fn with_decoder(reader: R, decoder: D) -> Self {
        DecoderReader {
            reader,
            decoder,
            buf: BytesMut::new(),
            scratch: vec![0; READ_CHUNK].into_boxed_slice(),
            eof: false,
            finished: false,
        }
    }

    /// The decoder.
    pub fn decoder(&self) -> &D {
        &self.decoder
    }

    /// The next item, `Ok(None)` after the end of the document.
    ///
    /// # Errors
    /// Any decoding error, or `io` from the reader; after an error the
    /// reader is finished.
    pub fn next_item(&mut self) -> Result<Option<D::Item>> {
        if self.finished {
            return Ok(None);
        }
        let r = self.advance();
        if !matches!(r, Ok(Some(_))) {
            self.finished = true;
        }
        r
    }

    fn advance(&mut self) -> Result<Option<D::Item>> {
        loop {
            if self.eof {
                return self.decoder.decode_eof(&mut self.buf);
            }
            if let Some(item) = self.decoder.decode(&mut self.buf)? {
                return Ok(Some(item));
            }
            let n = read_some(&mut self.reader, &mut self.scratch)?;
            self.buf.extend_from_slice(&self.scratch[..n]);
            if n == 0 {
                self.eof = true;
            }
        }
    }
}

impl<R: Read, D: Decoder<Error = crate::Error>> Iterator for DecoderReader<R, D> {
    type Item = Result<D::Item>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_item().transpose()
    }
}

/// Reads a whole document from a blocking reader (frames gathered into a
/// [`Document`]).
///
/// # Errors
/// As [`DecoderReader::next_item`].
pub fn read_document<R: Read>(reader: R, options: DecodeOptions) -> Result<Document> {
    let mut doc = Document::default();
    for frame in SskbReader::with_options(reader, options) {
        add_frame(&mut doc, frame?);
    }
    Ok(doc)
}

/// Adds a frame to a document being gathered; `true` at the end.
fn add_frame(doc: &mut Document, frame: Frame) -> bool {
    match frame {
        Frame::Header(h) => doc.version = h.version,
        Frame::Piece(p) => doc.pieces.push(p),
        Frame::End(end) => {
            doc.properties = end.properties;
            return true;
        }
    }
    false
}
