//! The machine's errors: where the input ended and what was missing, a
//! unit's problem at its byte offset with the piece and field, counts
//! against the bytes left and the limits, and the note on drafts.

use super::{Count, Machine, Next};
use crate::error::{Error, ErrorKind, Result};
use crate::rules::Problem;

impl Machine {
    /// `Ok` when the input may end here with `buffered` bytes unread (the
    /// document is complete and nothing follows), else the error.
    ///
    /// # Errors
    /// As [`Machine::eof_error`].
    pub fn at_eof(&self, buffered: usize) -> Result<()> {
        self.eof_error(buffered).map_or(Ok(()), Err)
    }

    /// An error in a file whose header said major 0 says so: its bytes
    /// were read with the 1.0 layout, which a pre-1.0 draft may not have.
    /// Before the header is read nothing is known of the version.
    #[cold]
    #[inline(never)]
    pub(super) fn noted(&self, e: Error) -> Error {
        match self.version {
            Some((0, minor)) => e.note(format!(
                "the header says version 0.{minor}, read with the 1.0 layout; pre-1.0 drafts may use another layout"
            )),
            _ => e,
        }
    }

    /// The error for input that ends here before the document does. The
    /// machine is never done before `End`, so this is the truncation error;
    /// the fallback only keeps the function total.
    pub fn truncation(&self, buffered: usize) -> Error {
        self.eof_error(buffered)
            .unwrap_or_else(|| Error::new(ErrorKind::Truncated, "the input ended"))
    }

    /// The error for an input that ends here with `buffered` bytes unread,
    /// or `None` when the document is complete and nothing follows.
    pub fn eof_error(&self, buffered: usize) -> Option<Error> {
        if let Next::Failed(e) = &self.next {
            return Some(e.clone());
        }
        self.unfinished(buffered).map(|e| self.noted(e))
    }

    /// What is missing when the input ends here, `None` when nothing is.
    pub(super) fn unfinished(&self, buffered: usize) -> Option<Error> {
        let end = self.offset + buffered as u64;
        let i = self.index;
        let n = self.piece_count;
        let (what, path) = match self.next {
            Next::Header => ("the 8-byte header".to_owned(), None),
            Next::PieceCount => ("the piece count".to_owned(), Some("pieces".to_owned())),
            Next::PieceHead => (format!("the head of piece {} of {n}", i + 1), Some(self.piece_path())),
            Next::Point { index, count } => (
                format!("point {} of {count} of piece {} of {n}", index + 1, i + 1),
                Some(format!("{}.points[{index}]", self.piece_path())),
            ),
            Next::Tail => (
                format!("the fields after the points of piece {} of {n}", i + 1),
                Some(self.piece_path()),
            ),
            Next::Affects { .. } => {
                let k = self.affects.len();
                let total = self.tail.affects_count.unwrap_or(0);
                (
                    format!("affects id {} of {total} of piece {} of {n}", k + 1, i + 1),
                    Some(format!("{}.affects[{k}]", self.piece_path())),
                )
            }
            Next::BlobLen if i >= n => (
                "the root property blob length".to_owned(),
                Some("properties".to_owned()),
            ),
            Next::BlobLen => (
                format!("the property blob length of piece {} of {n}", i + 1),
                Some(self.blob_path()),
            ),
            Next::Blob(len) => (
                format!("the {len}-byte property blob ({buffered} bytes of it present)"),
                Some(self.blob_path()),
            ),
            Next::Done => return (buffered > 0).then(|| self.trailing()),
            Next::Failed(_) => return None,
        };
        let mut e = Error::new(
            ErrorKind::Truncated,
            format!(
                "the input ends at byte {end} inside {what}, which starts at byte {}",
                self.offset
            ),
        )
        .at(end);
        if let Some(p) = path {
            e = e.path(p);
        }
        if self.in_piece() && !matches!(self.next, Next::PieceHead) {
            e = e.piece(self.head.id);
        }
        Some(e)
    }

    pub(super) fn in_piece(&self) -> bool {
        matches!(
            self.next,
            Next::PieceHead | Next::Point { .. } | Next::Tail | Next::Affects { .. } | Next::BlobLen | Next::Blob(_)
        ) && self.index < self.piece_count
    }

    pub(super) fn piece_path(&self) -> String {
        format!("pieces[{}]", self.index)
    }

    pub(super) fn blob_path(&self) -> String {
        if self.index < self.piece_count {
            format!("pieces[{}].properties", self.index)
        } else {
            "properties".to_owned()
        }
    }

    /// Bytes after the document. The count is stated only when the input
    /// length is known, so that the message is the same however the input
    /// is chunked.
    pub(super) fn trailing(&self) -> Error {
        let end = self.offset;
        let message = match self.opts.input_len {
            Some(len) if len > end => format!(
                "{} byte(s) follow the root property blob, which ends the document at byte {end}",
                len - end
            ),
            _ => format!("bytes follow the root property blob, which ends the document at byte {end}"),
        };
        Error::new(ErrorKind::TrailingBytes, message).at(end)
    }

    pub(super) fn wire_error(&self, rel: u64, problem: Problem, head_id: Option<u32>) -> Error {
        let prefix = match self.next {
            Next::Header | Next::PieceCount => String::new(),
            Next::Point { index, .. } => format!("{}.points[{index}].", self.piece_path()),
            _ => format!("{}.", self.piece_path()),
        };
        let (kind, field, message) = problem.describe();
        let mut e = Error::new(kind, message).at(self.offset + rel);
        if !field.is_empty() {
            e = e.path(format!("{prefix}{field}"));
        }
        let id = match self.next {
            Next::PieceHead => head_id,
            Next::Header | Next::PieceCount => None,
            _ => Some(self.head.id),
        };
        if let Some(id) = id {
            e = e.piece(id);
        }
        e
    }

    /// The name and field path of a count, built only for an error.
    pub(super) fn count_names(&self, which: Count) -> (&'static str, String) {
        match which {
            Count::Pieces => ("piece_count", "pieces".into()),
            Count::Points => ("point_count", format!("{}.points", self.piece_path())),
            Count::Affects => ("affects_count", format!("{}.affects", self.piece_path())),
            Count::Blob => ("the property blob length", self.blob_path()),
        }
    }

    /// Checks a u32 count read at `at` against the input left after it:
    /// `count` items of at least `item` bytes, then at least `after` bytes.
    #[inline]
    pub(super) fn check_count(&self, count: u32, item: u64, after: u64, at: u64, which: Count) -> Result<()> {
        let Some(len) = self.opts.input_len else {
            return Ok(());
        };
        let left = len.saturating_sub(at + 4);
        let needed = u64::from(count).saturating_mul(item).saturating_add(after);
        if needed > left {
            let (what, path) = self.count_names(which);
            let mut e = Error::new(
                ErrorKind::CountExceedsRemaining,
                format!("{what} is {count}, which needs at least {needed} more bytes, but only {left} remain"),
            )
            .at(at)
            .path(path);
            if self.index < self.piece_count && !matches!(self.next, Next::PieceCount) {
                e = e.piece(self.head.id);
            }
            return Err(e);
        }
        Ok(())
    }

    #[inline]
    pub(super) fn limit(&self, value: u32, max: u32, at: u64, which: Count) -> Result<()> {
        if value > max {
            let (what, path) = self.count_names(which);
            let mut e = Error::new(
                ErrorKind::LimitExceeded,
                format!("{what} is {value}, above the limit of {max}"),
            )
            .at(at)
            .path(path);
            if self.index < self.piece_count {
                e = e.piece(self.head.id);
            }
            return Err(e);
        }
        Ok(())
    }
}
