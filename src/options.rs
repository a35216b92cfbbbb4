//! How to decode: [`DecodeOptions`], taken by every way in.

use bytes::Bytes;

use crate::error::Result;
use crate::input::SliceInput;
use crate::limits::Limits;
use crate::model::Document;
use crate::read::decode_document;

/// How to decode: limits, strict or raw properties, the input length when known.
///
/// Every way in ([`decode_slice`](crate::decode_slice), the readers, the
/// codecs) takes these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecodeOptions {
    pub(crate) limits: Limits,
    pub(crate) strict: bool,
    pub(crate) input_len: Option<u64>,
    pub(crate) major_one_only: bool,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions::new()
    }
}

impl DecodeOptions {
    /// Default limits, strict properties, unknown input length.
    pub const fn new() -> DecodeOptions {
        DecodeOptions {
            limits: Limits::new(),
            strict: true,
            input_len: None,
            major_one_only: false,
        }
    }

    /// Use these limits.
    #[must_use]
    pub const fn limits(mut self, limits: Limits) -> DecodeOptions {
        self.limits = limits;
        self
    }

    /// Keep property blobs raw and unchecked (only their length is checked).
    /// By default every non-empty blob is parsed and checked while decoding
    /// (`malformed_properties`).
    #[must_use]
    pub const fn raw_properties(mut self) -> DecodeOptions {
        self.strict = false;
        self
    }

    /// Refuse headers of major version 0 (`unsupported_version`), reading
    /// only major 1. By default major 0 is read with the 1.0 layout: the
    /// reference stamps the document's own version (`0.6`, `0.9`, ...)
    /// into the header of the 1.0 layout it writes, and reads such files
    /// back itself.
    #[must_use]
    pub const fn major_one_only(mut self) -> DecodeOptions {
        self.major_one_only = true;
        self
    }

    /// The total input length, when known: every count is then checked
    /// against the bytes left the moment it is read
    /// (`count_exceeds_remaining`).
    #[must_use]
    pub const fn input_len(mut self, len: u64) -> DecodeOptions {
        self.input_len = Some(len);
        self
    }

    /// Decodes a whole document from a slice with these options (the input
    /// length is the slice's).
    ///
    /// # Errors
    /// As [`decode_slice`](crate::decode_slice).
    pub fn decode_slice(&self, data: &[u8]) -> Result<Document> {
        let opts = self.input_len(data.len() as u64);
        decode_document(opts, SliceInput(data))
    }

    /// Decodes a whole document from `Bytes`; property blobs share its memory.
    ///
    /// # Errors
    /// As [`decode_slice`](crate::decode_slice).
    pub fn decode_bytes(&self, data: Bytes) -> Result<Document> {
        let opts = self.input_len(data.len() as u64);
        decode_document(opts, data)
    }
}
