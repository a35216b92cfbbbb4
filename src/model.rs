//! The decoded data model: documents, pieces, points and vectors.

use crate::properties::Properties;

/// Three f32 components (`x y z`): positions, curve controls, sizes, rotations.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vec3 {
    /// x component.
    pub x: f32,
    /// y component.
    pub y: f32,
    /// z component.
    pub z: f32,
}

impl Vec3 {
    /// A vector from its components.
    pub const fn new(x: f32, y: f32, z: f32) -> Vec3 {
        Vec3 { x, y, z }
    }
}

/// Two f32 components (`x y`): transitions.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vec2 {
    /// x component (for transitions, the position along the segment, in [0, 1]).
    pub x: f32,
    /// y component.
    pub y: f32,
}

impl Vec2 {
    /// A vector from its components.
    pub const fn new(x: f32, y: f32) -> Vec2 {
        Vec2 { x, y }
    }
}

/// A piece's cross-section shape (`shape` byte: 0 circle, 1 ngon).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// `circle` (0).
    Circle,
    /// `ngon` (1); needs `sides`.
    Ngon,
}

impl Shape {
    /// The text format's name: `circle` or `ngon`.
    pub fn name(self) -> &'static str {
        match self {
            Shape::Circle => "circle",
            Shape::Ngon => "ngon",
        }
    }

    /// The byte stored in `.sskb`.
    pub fn to_byte(self) -> u8 {
        self as u8
    }

    /// The shape for a stored byte, or `None` when out of range.
    pub fn from_byte(b: u8) -> Option<Shape> {
        match b {
            0 => Some(Shape::Circle),
            1 => Some(Shape::Ngon),
            _ => None,
        }
    }
}

/// How a piece combines with others (`mode` byte: 0 add, 1 subtract, 2 intersect).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// `add` (0), the default.
    #[default]
    Add,
    /// `subtract` (1).
    Subtract,
    /// `intersect` (2).
    Intersect,
}

impl Mode {
    /// The text format's name.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Add => "add",
            Mode::Subtract => "subtract",
            Mode::Intersect => "intersect",
        }
    }

    /// The byte stored in `.sskb`.
    pub fn to_byte(self) -> u8 {
        self as u8
    }

    /// The mode for a stored byte, or `None` when out of range.
    pub fn from_byte(b: u8) -> Option<Mode> {
        match b {
            0 => Some(Mode::Add),
            1 => Some(Mode::Subtract),
            2 => Some(Mode::Intersect),
            _ => None,
        }
    }
}

/// One point of a piece's path.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Point {
    /// `x y z`, millimetres.
    pub position: Vec3,
    /// Bézier control coming into this point.
    pub curve_in: Option<Vec3>,
    /// Bézier control leaving this point.
    pub curve_out: Option<Vec3>,
    /// Cross-section size at this point (else the piece's).
    pub size: Option<Vec3>,
    /// Rotation at this point in degrees (else the piece's, else zero).
    pub rotation: Option<Vec3>,
    /// Transition into this point (`x` in [0, 1]; default 2/3).
    pub transition_in: Option<Vec2>,
    /// Transition out of this point (`x` in [0, 1]; default 1/3).
    pub transition_out: Option<Vec2>,
}

impl Point {
    /// A point at `position` with no optional fields.
    pub fn at(position: Vec3) -> Point {
        Point {
            position,
            ..Point::default()
        }
    }
}

/// One piece, as stored: every field a piece with `from` may omit is an `Option`.
///
/// A piece without `from` always has `points`, `size` and `shape` after
/// decoding. Its `mode` is `None` when the file says `add` (the reference does
/// the same; the meaning is unchanged). For a piece with `from`, `None` means
/// "inherited", and `properties: Some(empty)` means explicitly empty
/// properties that replace the inherited ones.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Piece {
    /// The piece's id; valid documents use exactly `0..n`.
    pub id: u32,
    /// The id of the piece this one inherits from.
    pub from: Option<u32>,
    /// The path, at least one point when present.
    pub points: Option<Vec<Point>>,
    /// Piece rotation in degrees.
    pub rotation: Option<Vec3>,
    /// Cross-section size.
    pub size: Option<Vec3>,
    /// Cross-section shape.
    pub shape: Option<Shape>,
    /// Number of sides (ngon).
    pub sides: Option<u32>,
    /// Combination mode; `None` means `add` unless inherited.
    pub mode: Option<Mode>,
    /// Ids of the pieces a non-add piece acts on.
    pub affects: Option<Vec<u32>>,
    /// The piece's property blob.
    pub properties: Option<Properties>,
}

/// A whole decoded document.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// `(major, minor)` from the header.
    pub version: (u16, u16),
    /// Pieces in file order.
    pub pieces: Vec<Piece>,
    /// Root properties; `None` for an empty root blob.
    pub properties: Option<Properties>,
}

impl Default for Document {
    fn default() -> Self {
        Document {
            version: (1, 0),
            pieces: Vec::new(),
            properties: None,
        }
    }
}
