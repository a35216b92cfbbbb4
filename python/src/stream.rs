//! `sskb.iter_pieces`: one piece at a time from a path or any binary file
//! object, through the streaming decoder. The source is read in chunks and
//! decoded with the GIL released; memory holds one piece and one chunk.

use std::fs::File;

use bytes::BytesMut;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};
use sskb::{Decoder, Frame, SskbDecoder};

use crate::arrays::{self, Columns};
use crate::errors::{error, to_py};
use crate::topy::Keys;

/// Where the bytes come from.
enum Source {
    File(File),
    /// A Python object with `read(n)`.
    Object(Py<PyAny>),
}

/// Iterates the pieces of an `.sskb` document: each `next()` gives one
/// piece (a dict, or with `arrays=True` a dict of NumPy arrays). The header
/// is read when the iterator is made: `version` and `piece_count` are there
/// at once; `properties` (the root properties, `{}` when there are none)
/// once the last piece is out and the end of the document checked.
#[pyclass(module = "sskb._sskb")]
pub struct PieceIter {
    source: Source,
    decoder: SskbDecoder,
    buf: BytesMut,
    chunk: usize,
    eof: bool,
    finished: bool,
    arrays: bool,
    index: usize,
    version: (u16, u16),
    piece_count: u32,
    properties: Option<Py<PyAny>>,
}

impl PieceIter {
    pub fn open(
        py: Python<'_>,
        file: &Bound<'_, PyAny>,
        arrays: bool,
        chunk_size: usize,
        length: Option<u64>,
    ) -> PyResult<PieceIter> {
        if chunk_size == 0 {
            return Err(error("io", "chunk_size must be at least 1"));
        }
        let mut decoder = SskbDecoder::new();
        let source = if file.hasattr("read")? {
            if let Some(len) = length {
                decoder = decoder.with_options(sskb::DecodeOptions::new().input_len(len));
            }
            Source::Object(file.clone().unbind())
        } else {
            let path: std::path::PathBuf = file.extract()?;
            let opened = py.detach(|| File::open(&path).and_then(|f| Ok((f.metadata()?.len(), f))));
            let (len, f) = opened.map_err(|e| to_py(&sskb::Error::from(e)))?;
            decoder = decoder.with_options(sskb::DecodeOptions::new().input_len(len));
            Source::File(f)
        };
        if arrays {
            py.import("numpy")?;
        }
        let mut it = PieceIter {
            source,
            decoder,
            buf: BytesMut::new(),
            chunk: chunk_size,
            eof: false,
            finished: false,
            arrays,
            index: 0,
            version: (0, 0),
            piece_count: 0,
            properties: None,
        };
        match it.frame(py)? {
            Some(Frame::Header(h)) => {
                it.version = h.version;
                it.piece_count = h.piece_count;
                Ok(it)
            }
            _ => Err(error("structure", "the document has no header")),
        }
    }

    /// Reads more of the source into the buffer; `eof` at its end.
    fn fill(&mut self, py: Python<'_>) -> PyResult<()> {
        let chunk = self.chunk;
        match &mut self.source {
            Source::File(f) => {
                let buf = &mut self.buf;
                let read = py.detach(|| {
                    let start = buf.len();
                    buf.resize(start + chunk, 0);
                    let r = sskb::read_some(f, &mut buf[start..]);
                    buf.truncate(start + *r.as_ref().unwrap_or(&0));
                    r
                });
                let n = read.map_err(|e| to_py(&sskb::Error::from(e)))?;
                self.eof = n == 0;
            }
            Source::Object(obj) => {
                let data = obj.bind(py).call_method1("read", (chunk,))?;
                if let Ok(b) = data.cast::<PyBytes>() {
                    self.buf.extend_from_slice(b.as_bytes());
                    self.eof = b.as_bytes().is_empty();
                } else if let Ok(b) = data.cast::<PyByteArray>() {
                    let v = b.to_vec();
                    self.buf.extend_from_slice(&v);
                    self.eof = v.is_empty();
                } else if data.is_none() {
                    return Err(error(
                        "io",
                        "read() returned None: a non-blocking stream with no data ready cannot be iterated",
                    ));
                } else {
                    return Err(error(
                        "io",
                        &format!(
                            "read() must return bytes (open the file in binary mode), not {}",
                            data.get_type().name()?
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The next frame, reading as needed; `None` once the document is done
    /// and nothing follows it.
    fn frame(&mut self, py: Python<'_>) -> PyResult<Option<Frame>> {
        loop {
            if self.finished {
                return Ok(None);
            }
            let eof = self.eof;
            let (decoder, buf) = (&mut self.decoder, &mut self.buf);
            let r = py.detach(|| {
                if eof {
                    decoder.decode_eof(buf)
                } else {
                    decoder.decode(buf)
                }
            });
            match r {
                Err(e) => {
                    self.finished = true;
                    return Err(to_py(&e));
                }
                Ok(Some(f)) => return Ok(Some(f)),
                Ok(None) if eof => {
                    self.finished = true;
                    return Ok(None);
                }
                Ok(None) => self.fill(py)?,
            }
        }
    }
}

#[pymethods]
impl PieceIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        loop {
            match self.frame(py)? {
                None => return Ok(None),
                Some(Frame::Header(_)) => {}
                Some(Frame::Piece(p)) => {
                    let keys = Keys::new(py);
                    let index = self.index;
                    self.index += 1;
                    let d = if self.arrays {
                        let columns = p.points.as_deref().map(|pts| py.detach(|| Columns::new(pts)));
                        arrays::piece(&keys, &py.import("numpy")?, &p, index, columns)?
                    } else {
                        keys.piece(&p, index)?
                    };
                    return Ok(Some(d.into_any().unbind()));
                }
                Some(Frame::End(e)) => {
                    // Kept until the end of input is checked: trailing
                    // bytes are still an error.
                    let keys = Keys::new(py);
                    let props = match &e.properties {
                        Some(p) => keys.properties(p, "properties")?,
                        None => pyo3::types::PyDict::new(py).into_any(),
                    };
                    self.properties = Some(props.unbind());
                }
            }
        }
    }

    /// The header's version, `"major.minor"`.
    #[getter]
    fn version(&self) -> String {
        format!("{}.{}", self.version.0, self.version.1)
    }

    /// How many pieces the header announces.
    #[getter]
    fn piece_count(&self) -> u32 {
        self.piece_count
    }

    /// The root properties (`{}` when there are none) once the iteration
    /// is over; `None` before.
    #[getter]
    fn properties(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        if self.finished {
            self.properties.as_ref().map(|p| p.clone_ref(py))
        } else {
            None
        }
    }

    /// Bytes of the input decoded so far.
    #[getter]
    fn offset(&self) -> u64 {
        self.decoder.offset()
    }
}
