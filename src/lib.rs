//! # sskb
//!
//! A streaming, incremental reader for `.sskb`, the binary encoding of
//! SolidSKeleton solid models: pieces of points swept along Bézier paths,
//! combined by add, subtract and intersect.
//!
//! One resumable state machine reads the format from partial buffers, one
//! small unit at a time, in linear time however the bytes arrive. It serves
//! three doors:
//!
//! - [`decode_slice`] / [`decode_bytes`]: a whole [`Document`] from memory;
//! - [`SskbReader`] / [`EventReader`]: frames or events from any
//!   `std::io::Read`;
//! - [`SskbDecoder`] / [`EventDecoder`]: `tokio_util::codec::Decoder`s for
//!   `FramedRead` over any `AsyncRead`.
//!
//! [`Frame`]s carry one whole piece; [`Event`]s carry one point at a time, so
//! a piece larger than memory can be processed in constant memory.
//!
//! Speed comes from parsing each point in complete mode when its bytes are
//! all in the buffer (one nom parser for the whole point, every check folded
//! in), in runs straight into a piece's points or the validator; the
//! streaming units take over at a buffer's edge and give every error, so
//! every door reports the same error to the byte. Simple `key: value`
//! property blobs are checked without the YAML parser. `cargo bench --bench
//! ratios` prints each door's cost as a ratio to reading every byte.
//!
//! The same layers run the other way for writing ([`encode`],
//! [`SskbWriter`], [`SskbEncoder`]). [`resolve`] applies inheritance,
//! [`Validator`] / [`validate_slice`] check the geometry in one streaming
//! pass, [`parse_ssk`] / [`to_ssk`] read and write the `.ssk` text form, and
//! the `json` module (feature `json`, on by default) the JSON form.
//!
//! ## The byte layout (version 1.0, little-endian)
//!
//! ```text
//! header          "SSKB"  major u16 (1, or 0: the same layout)  minor u16 (any)
//! piece_count     u32
//! pieces          piece[piece_count]
//! root_properties blob
//!
//! piece           id u32, has_from u8,
//!                 [from u32, field_mask u16]          if has_from != 0
//!                 [point_count u32, point[..]]        if !has_from or mask bit 0
//!                 [has_rotation u8] [rotation vec3]   (presence byte only if !has_from; mask bit 1)
//!                 [size vec3]                          if !has_from or bit 2
//!                 [shape u8: 0 circle, 1 ngon]         if !has_from or bit 3
//!                 [has_sides u8] [sides u32]           (bit 4)
//!                 [mode u8: 0 add, 1 subtract, 2 intersect]  if !has_from or bit 5
//!                 [has_affects u8] [count u32, ids u32[..]]  (bit 6)
//!                 [properties blob]                    if !has_from or bit 7
//!                 field_mask bits 8-15 are reserved and must be zero
//! point           position vec3, then six presence bytes, each followed by
//!                 its value when non-zero: curve_in vec3, curve_out vec3,
//!                 size vec3, rotation vec3, transition_in vec2, transition_out vec2
//! vec3 / vec2     f32 x, y, z / f32 x, y (finite)
//! blob            byte_length u32, bytes (UTF-8 YAML mapping, or empty)
//! ```
//!
//! ## Checks
//!
//! While decoding: magic and version (majors 1 and 0, any minor, both with
//! the 1.0 layout: the reference stamps a document's own draft version,
//! `0.6` to `0.9`, into the 1.0 layout it writes; a major above 1 is
//! `unsupported_version`, and so is 0 under
//! [`DecodeOptions::major_one_only`]; an error in a major-0 file says that
//! drafts may use another layout),
//! finite f32s, enums in range, reserved bits zero, counts against the bytes
//! left (when the input length is known) and against [`Limits`], the
//! structure rules (non-empty points, sizes ≥ 0, sides ≥ 3, transition x in
//! [0, 1], unique affects), property blobs (strict by default, see
//! [`Properties`]), truncation and trailing bytes. Every failure is an
//! [`Error`] with a stable [`ErrorKind`] name, a byte offset, the piece id and
//! a field path.
//!
//! ```
//! let cut = b"SSKB\x01\x00\x00\x00\x01\x00\x00\x00";
//! let err = sskb::decode_slice(cut).unwrap_err();
//! assert_eq!(err.kind().name(), "count_exceeds_remaining");
//! assert_eq!(err.offset(), Some(8));
//! ```
//!
//! ## More
//!
//! Meshes and glTF are in [`mesh`] (feature `mesh`), pictures in
//! [`render`] (feature `render`). The repository's
//! `docs/` has the rest, one subject a file: `format.md` (more doors,
//! versions, errors, limits, property blobs, the `.ssk` form), `meshes.md`,
//! `rendering.md`, `python.md`, `cli.md`, `performance.md`, `testing.md`, and `docs/spec/`
//! the layout, rules and geometry this crate implements.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod codec;
mod diff;
mod encoder;
mod error;
mod event;
#[cfg(feature = "import")]
pub mod import;
mod input;
#[cfg(feature = "json")]
pub mod json;
mod limits;
#[cfg(feature = "mesh")]
pub mod mesh;
mod model;
mod options;
mod properties;
mod read;
#[cfg(feature = "render")]
pub mod render;
mod resolve;
mod rules;
mod state;
mod text;
mod validate;
mod wire;
mod write;

pub use codec::{EventDecoder, Frame, SskbDecoder};
pub use diff::{canonical_differences, canonical_document, document_differences, documents_equivalent, DiffOptions};
pub use encoder::{encode, SskbEncoder, SskbWriter};
pub use error::{Error, ErrorKind, Result};
pub use event::{End, Event, Header, PieceEnd, PieceStart};
pub use limits::Limits;
pub use model::{Document, Mode, Piece, Point, Shape, Vec2, Vec3};
pub use options::DecodeOptions;
pub use properties::{Properties, Value, DEFAULT_MAX_YAML_DEPTH, MAX_YAML_DEPTH_CAP};
pub use read::{decode_bytes, decode_slice, read_document, read_some, DecoderReader, EventReader, SskbReader};
pub use resolve::{resolve, resolve_tree, ResolvedDocument, ResolvedPiece};
pub use text::{parse_ssk, parse_ssk_value, to_ssk};
/// Re-exported so users need not depend on `tokio-util` to call `decode` and `encode`.
pub use tokio_util::codec::{Decoder, Encoder};
pub use validate::{validate, validate_reader, validate_resolved, validate_slice, Summary, Validator};
pub use wire::MAGIC;

#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

#[doc = include_str!("../docs/format.md")]
#[cfg(doctest)]
pub struct FormatDoctests;

#[cfg(all(doctest, feature = "mesh"))]
#[doc = include_str!("../docs/meshes.md")]
pub struct MeshesDoctests;

#[doc = include_str!("../docs/testing.md")]
#[cfg(doctest)]
pub struct TestingDoctests;

#[doc = include_str!("../docs/python.md")]
#[cfg(doctest)]
pub struct PythonDoctests;

#[doc = include_str!("../docs/cli.md")]
#[cfg(doctest)]
pub struct CliDoctests;

#[doc = include_str!("../docs/performance.md")]
#[cfg(doctest)]
pub struct PerformanceDoctests;

#[doc = include_str!("../docs/architecture.md")]
#[cfg(doctest)]
pub struct ArchitectureDoctests;
