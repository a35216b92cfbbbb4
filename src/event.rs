//! The decoder's events: the natural output of the state machine.

pub use crate::model::PieceEnd;
use crate::model::Point;
use crate::properties::Properties;

/// The header and the piece count, the first thing a file says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// `(major, minor)`.
    pub version: (u16, u16),
    /// How many pieces follow.
    pub piece_count: u32,
}

/// The start of a piece: what comes before its points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceStart {
    /// Position of the piece in the file, from 0.
    pub index: u32,
    /// The piece's id.
    pub id: u32,
    /// The base piece, for an inherited piece.
    pub from: Option<u32>,
    /// The field mask, for an inherited piece.
    pub field_mask: Option<u16>,
    /// How many [`Event::Point`]s follow; `None` when an inherited piece
    /// does not state its points.
    pub point_count: Option<u32>,
}

/// The end of the document.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct End {
    /// Root properties; `None` for an empty root blob.
    pub properties: Option<Properties>,
}

/// One step of a document, in file order: `Header`, then for each piece
/// `PieceStart`, its `Point`s and `PieceEnd`, then `End`.
///
/// Processing events holds one point at a time, so a piece with more points
/// than fit in memory can be handled in constant memory.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// Header and piece count.
    Header(Header),
    /// A piece begins.
    PieceStart(PieceStart),
    /// The next point of the current piece.
    Point(Point),
    /// The current piece ends.
    PieceEnd(PieceEnd),
    /// The document ends; nothing may follow.
    End(End),
}
