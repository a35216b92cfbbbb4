//! The JSON Lines form: a version line (`{"version":"1.0"}`), one line per
//! piece in the dump form, then a properties line (`{"properties":...}`,
//! `null` for none). Written and read a line at a time, so a document of
//! any size streams through in the memory of one piece.

use std::io::{BufRead, Write};

use serde_json::Value as Json;

use super::{
    piece_from_json, piece_json, properties_from_json, resolved_piece_json, root_properties_json, version_from_json,
    version_json,
};
use crate::codec::Frame;
use crate::error::{Error, ErrorKind, Result};
use crate::model::{Document, Piece};
use crate::properties::Properties;
use crate::resolve::ResolvedPiece;

/// Writes the JSON Lines form, a line at a time.
///
/// ```
/// let doc = sskb::parse_ssk("pieces:\n- id: 0\n  points: [{x: 0, y: 0, z: 0}]\n  size: {x: 1, y: 1, z: 1}\n  shape: circle\n")?;
/// let mut w = sskb::json::JsonLinesWriter::new(Vec::new());
/// w.document(&doc)?;
/// let text = String::from_utf8(w.into_inner()).unwrap();
/// assert_eq!(text.lines().count(), 3);
/// assert_eq!(text.lines().next(), Some(r#"{"version":"1.0"}"#));
/// # Ok::<(), sskb::Error>(())
/// ```
pub struct JsonLinesWriter<W> {
    out: W,
    pieces: usize,
}

impl<W: Write> JsonLinesWriter<W> {
    /// A writer into `out`.
    pub fn new(out: W) -> JsonLinesWriter<W> {
        JsonLinesWriter { out, pieces: 0 }
    }

    fn line(&mut self, j: &Json) -> Result<()> {
        serde_json::to_writer(&mut self.out, j).map_err(|e| Error::new(ErrorKind::Io, e.to_string()))?;
        self.out.write_all(b"\n")?;
        Ok(())
    }

    /// The version line.
    ///
    /// # Errors
    /// `io` when writing fails.
    pub fn version(&mut self, version: (u16, u16)) -> Result<()> {
        self.line(&serde_json::json!({ "version": version_json(version) }))
    }

    /// A piece's line (its index, for error paths, is the count written).
    ///
    /// # Errors
    /// `malformed_properties` for a property blob that does not parse;
    /// `io` when writing fails.
    pub fn piece(&mut self, p: &Piece) -> Result<()> {
        let j = piece_json(p, self.pieces)?;
        self.pieces += 1;
        self.line(&j)
    }

    /// A resolved piece's line.
    ///
    /// # Errors
    /// As [`JsonLinesWriter::piece`].
    pub fn resolved_piece(&mut self, p: &ResolvedPiece) -> Result<()> {
        let j = resolved_piece_json(p)?;
        self.pieces += 1;
        self.line(&j)
    }

    /// The properties line, which ends the document.
    ///
    /// # Errors
    /// As [`JsonLinesWriter::piece`].
    pub fn properties(&mut self, p: Option<&Properties>) -> Result<()> {
        let props = match p {
            Some(p) => root_properties_json(Some(p))?,
            None => Json::Null,
        };
        self.line(&serde_json::json!({ "properties": props }))
    }

    /// A frame's line: the header's version, a piece, or the end's
    /// properties.
    ///
    /// # Errors
    /// As [`JsonLinesWriter::piece`].
    pub fn frame(&mut self, f: &Frame) -> Result<()> {
        match f {
            Frame::Header(h) => self.version(h.version),
            Frame::Piece(p) => self.piece(p),
            Frame::End(e) => self.properties(e.properties.as_ref()),
        }
    }

    /// A whole document.
    ///
    /// # Errors
    /// As [`JsonLinesWriter::piece`].
    pub fn document(&mut self, doc: &Document) -> Result<()> {
        self.version(doc.version)?;
        for p in &doc.pieces {
            self.piece(p)?;
        }
        self.properties(doc.properties.as_ref())
    }

    /// The writer given to [`JsonLinesWriter::new`].
    pub fn into_inner(self) -> W {
        self.out
    }
}

/// Reads the JSON Lines form a line at a time. Blank lines are skipped;
/// errors name the line.
pub struct JsonLinesReader<R> {
    reader: R,
    line: usize,
    pieces: usize,
    properties: Option<Option<Properties>>,
}

impl<R: BufRead> JsonLinesReader<R> {
    /// A reader of `reader`.
    pub fn new(reader: R) -> JsonLinesReader<R> {
        JsonLinesReader {
            reader,
            line: 0,
            pieces: 0,
            properties: None,
        }
    }

    fn next_json(&mut self) -> Result<Option<Json>> {
        let mut buf = String::new();
        loop {
            buf.clear();
            if self.reader.read_line(&mut buf)? == 0 {
                return Ok(None);
            }
            self.line += 1;
            if buf.trim().is_empty() {
                continue;
            }
            return serde_json::from_str(&buf)
                .map(Some)
                .map_err(|e| Error::new(ErrorKind::Structure, format!("line {}: not JSON: {e}", self.line)));
        }
    }

    /// The version line, read first.
    ///
    /// # Errors
    /// `truncated` for empty input; `structure` for a line that is not a
    /// version; `io` when reading fails.
    pub fn version(&mut self) -> Result<(u16, u16)> {
        match self.next_json()? {
            Some(j) => version_from_json(&j),
            None => Err(Error::new(ErrorKind::Truncated, "empty input: expected a version line")),
        }
    }

    /// The next piece, `None` after the properties line.
    ///
    /// # Errors
    /// `truncated` when the input ends before the properties line;
    /// `trailing_bytes` for a line after it; the dump form's errors for a
    /// piece, with its line.
    pub fn next_piece(&mut self) -> Result<Option<Piece>> {
        if self.properties.is_some() {
            return Ok(None);
        }
        let Some(j) = self.next_json()? else {
            let pieces = match self.pieces {
                1 => "1 piece".to_owned(),
                n => format!("{n} pieces"),
            };
            return Err(Error::new(
                ErrorKind::Truncated,
                format!("the input ends after {pieces} without a properties line"),
            ));
        };
        if let (Some(props), Json::Object(m)) = (j.get("properties"), &j) {
            if m.len() == 1 {
                self.properties = Some(properties_from_json(props)?);
                if self.next_json()?.is_some() {
                    return Err(Error::new(
                        ErrorKind::TrailingBytes,
                        format!("line {}: nothing may follow the properties line", self.line),
                    ));
                }
                return Ok(None);
            }
        }
        let p = piece_from_json(&j, self.pieces)
            .map_err(|e| Error::new(e.kind(), format!("line {}: {}", self.line, e.message())))?;
        self.pieces += 1;
        Ok(Some(p))
    }

    /// The root properties, once the properties line has been read.
    pub fn take_properties(&mut self) -> Option<Properties> {
        self.properties.take().flatten()
    }

    /// A whole document.
    ///
    /// # Errors
    /// As [`JsonLinesReader::version`] and [`JsonLinesReader::next_piece`].
    pub fn document(mut self) -> Result<Document> {
        let mut doc = Document {
            version: self.version()?,
            ..Document::default()
        };
        while let Some(p) = self.next_piece()? {
            doc.pieces.push(p);
        }
        doc.properties = self.take_properties();
        Ok(doc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "pieces:\n- id: 0\n  points: [{x: 0, y: 0, z: 0}]\n  size: {x: 1, y: 1, z: 1}\n  shape: circle\n- id: 1\n  from: 0\n  points: [{x: 1, y: 2, z: 3}]\nproperties: {units: mm}\n";

    #[test]
    fn written_lines_read_back() {
        let doc = crate::parse_ssk(DOC).unwrap();
        let mut w = JsonLinesWriter::new(Vec::new());
        w.document(&doc).unwrap();
        let bytes = w.into_inner();
        assert!(bytes.ends_with(b"}\n"));
        assert_eq!(JsonLinesReader::new(&bytes[..]).document().unwrap(), doc);
    }

    #[test]
    fn errors_name_the_line() {
        let doc = crate::parse_ssk(DOC).unwrap();
        let mut w = JsonLinesWriter::new(Vec::new());
        w.document(&doc).unwrap();
        let text = String::from_utf8(w.into_inner()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // Cut before the properties line.
        let cut = lines[..3].join("\n");
        let e = JsonLinesReader::new(cut.as_bytes()).document().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Truncated);
        assert!(e.message().contains("after 2 pieces"), "{}", e.message());
        let extra = format!("{text}{}\n", lines[1]);
        let e = JsonLinesReader::new(extra.as_bytes()).document().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::TrailingBytes);
        assert!(e.message().starts_with("line 5:"), "{}", e.message());
        let bad = format!("{}\n{{\"id\": 0\n", lines[0]);
        let e = JsonLinesReader::new(bad.as_bytes()).document().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Structure);
        assert!(e.message().starts_with("line 2: not JSON"), "{}", e.message());
        let e = JsonLinesReader::new(&b"\n\n"[..]).document().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Truncated);
    }
}
