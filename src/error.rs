//! The crate's one error type.

use std::fmt;
use std::sync::Arc;

/// What went wrong, with stable snake_case names (see [`ErrorKind::name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input does not start with `SSKB`.
    BadMagic,
    /// The header's major version is not supported (above 1, or a pre-1.0 draft).
    UnsupportedVersion,
    /// The input ends before the layout is complete.
    Truncated,
    /// A count or length needs more bytes than the input has left (known input length).
    CountExceedsRemaining,
    /// A `shape` or `mode` byte outside its range.
    InvalidEnum,
    /// An f32 that is NaN or infinite.
    NonFinite,
    /// A reserved `field_mask` bit (8–15) is set.
    ReservedBits,
    /// Bytes after the root property blob.
    TrailingBytes,
    /// A property blob that is not a valid YAML mapping under the format's rules.
    MalformedProperties,
    /// A structure rule of the data model is broken (docs/spec/RULES.md §2).
    Structure,
    /// Geometry validation failed (docs/spec/RULES.md §4).
    Validation,
    /// A configured [`Limits`](crate::Limits) value was exceeded.
    LimitExceeded,
    /// An I/O error from the underlying reader.
    Io,
    /// Meshing failed: the boolean library could not combine the pieces'
    /// meshes (feature `mesh`).
    Mesh,
    /// An argument outside its range (a negative tolerance, a resolution
    /// out of bounds): the call was wrong, not the document.
    Usage,
    /// A mesh file to import (glTF, STL, OBJ) that cannot be read: not of
    /// its format, an index out of range, no triangles (feature `import`).
    MeshInput,
}

impl ErrorKind {
    /// The stable snake_case name of the kind, e.g. `"count_exceeds_remaining"`.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::BadMagic => "bad_magic",
            ErrorKind::UnsupportedVersion => "unsupported_version",
            ErrorKind::Truncated => "truncated",
            ErrorKind::CountExceedsRemaining => "count_exceeds_remaining",
            ErrorKind::InvalidEnum => "invalid_enum",
            ErrorKind::NonFinite => "non_finite",
            ErrorKind::ReservedBits => "reserved_bits",
            ErrorKind::TrailingBytes => "trailing_bytes",
            ErrorKind::MalformedProperties => "malformed_properties",
            ErrorKind::Structure => "structure",
            ErrorKind::Validation => "validation",
            ErrorKind::LimitExceeded => "limit_exceeded",
            ErrorKind::Io => "io",
            ErrorKind::Mesh => "mesh",
            ErrorKind::Usage => "usage",
            ErrorKind::MeshInput => "mesh_input",
        }
    }

    /// Every kind, in declaration order.
    pub const ALL: [ErrorKind; 16] = [
        ErrorKind::BadMagic,
        ErrorKind::UnsupportedVersion,
        ErrorKind::Truncated,
        ErrorKind::CountExceedsRemaining,
        ErrorKind::InvalidEnum,
        ErrorKind::NonFinite,
        ErrorKind::ReservedBits,
        ErrorKind::TrailingBytes,
        ErrorKind::MalformedProperties,
        ErrorKind::Structure,
        ErrorKind::Validation,
        ErrorKind::LimitExceeded,
        ErrorKind::Io,
        ErrorKind::Mesh,
        ErrorKind::Usage,
        ErrorKind::MeshInput,
    ];
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Clone, Debug)]
struct Inner {
    kind: ErrorKind,
    offset: Option<u64>,
    piece: Option<u32>,
    path: Option<String>,
    message: String,
    io: Option<Arc<std::io::Error>>,
}

/// An error from decoding, encoding or validating: a [kind](ErrorKind), the
/// byte offset where it was found, the piece id when known, a field path such
/// as `pieces[3].points[7].curve_in.y`, and a message for people.
///
/// Displayed as `kind at offset N (path): message`.
#[derive(Clone, thiserror::Error)]
#[error("{}", DisplayError(self))]
pub struct Error(Box<Inner>);

struct DisplayError<'a>(&'a Error);

impl fmt::Display for DisplayError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = &self.0 .0;
        write!(f, "{}", e.kind)?;
        if let Some(o) = e.offset {
            write!(f, " at offset {o}")?;
        }
        if let Some(p) = &e.path {
            write!(f, " ({p})")?;
        }
        write!(f, ": {}", e.message)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.0.kind)
            .field("offset", &self.0.offset)
            .field("piece", &self.0.piece)
            .field("path", &self.0.path)
            .field("message", &self.0.message)
            .finish()
    }
}

impl Error {
    /// A new error of `kind` with a message; offset, piece and path unset.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error(Box::new(Inner {
            kind,
            offset: None,
            piece: None,
            path: None,
            message: message.into(),
            io: None,
        }))
    }

    /// Sets the byte offset.
    #[must_use]
    pub fn at(mut self, offset: u64) -> Error {
        self.0.offset = Some(offset);
        self
    }

    /// Sets the piece id.
    #[must_use]
    pub fn piece(mut self, id: u32) -> Error {
        self.0.piece = Some(id);
        self
    }

    /// Sets the field path.
    #[must_use]
    pub fn path(mut self, path: impl Into<String>) -> Error {
        self.0.path = Some(path.into());
        self
    }

    /// Appends a sentence to the message.
    #[must_use]
    pub(crate) fn note(mut self, note: impl AsRef<str>) -> Error {
        self.0.message.push_str(" (");
        self.0.message.push_str(note.as_ref());
        self.0.message.push(')');
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }

    /// The byte offset in the input where the problem was found, when known.
    pub fn offset(&self) -> Option<u64> {
        self.0.offset
    }

    /// The id of the piece concerned, when known.
    pub fn piece_id(&self) -> Option<u32> {
        self.0.piece
    }

    /// The field path, e.g. `pieces[3].points[7].curve_in.y`, when known.
    pub fn field_path(&self) -> Option<&str> {
        self.0.path.as_deref()
    }

    /// The message, without kind, offset or path.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The underlying I/O error, for kind [`ErrorKind::Io`].
    pub fn io_error(&self) -> Option<&std::io::Error> {
        self.0.io.as_deref()
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        let mut err = Error::new(ErrorKind::Io, e.to_string());
        err.0.io = Some(Arc::new(e));
        err
    }
}

/// `Result` with the crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_snake_case_and_distinct() {
        let names: std::collections::HashSet<_> = ErrorKind::ALL.iter().map(|k| k.name()).collect();
        assert_eq!(names.len(), ErrorKind::ALL.len());
        for n in names {
            assert!(n.chars().all(|c| c.is_ascii_lowercase() || c == '_'), "{n}");
        }
    }

    #[test]
    fn display_names_everything() {
        let e = Error::new(ErrorKind::NonFinite, "y is NaN")
            .at(40)
            .piece(3)
            .path("pieces[3].points[0].y");
        assert_eq!(
            e.to_string(),
            "non_finite at offset 40 (pieces[3].points[0].y): y is NaN"
        );
        assert_eq!(e.piece_id(), Some(3));
        let io: Error = std::io::Error::other("boom").into();
        assert_eq!(io.kind(), ErrorKind::Io);
        assert!(io.io_error().is_some());
    }
}
