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

/// The fields after a piece's points, as an event carries them: the end of
/// a piece (see [`Event::PieceEnd`](crate::Event)), and the part of a
/// [`Piece`] after its head and points.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PieceEnd {
    /// Piece rotation.
    pub rotation: Option<Vec3>,
    /// Cross-section size.
    pub size: Option<Vec3>,
    /// Cross-section shape.
    pub shape: Option<Shape>,
    /// Number of sides.
    pub sides: Option<u32>,
    /// Mode (`None` for a non-inherited `add`).
    pub mode: Option<Mode>,
    /// Affected piece ids.
    pub affects: Option<Vec<u32>>,
    /// The piece's property blob (see [`Piece::properties`]).
    pub properties: Option<Properties>,
}

/// Calls `$m!($args; <field>, ...)` with the fields after a piece's points,
/// in file order: the one list of them. [`Piece`] and [`PieceEnd`] declare
/// them, and every conversion between the types that carry them is written
/// over this list, below; a field added to the structs and not here makes
/// those conversions fail to compile. The rest of a new field is its wire
/// unit (`wire::tail` with `Tail::end`, `write::put_tail`), its value rule
/// (`rules::check_tail`) and its text and JSON syntax.
macro_rules! with_tail_fields {
    ($m:ident!($($args:tt)*)) => {
        $m!($($args)*; rotation, size, shape, sides, mode, affects, properties)
    };
}

/// The fields after a piece's points, borrowed from a [`Piece`] or a
/// [`PieceEnd`]: what the writer and the validator read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TailRef<'a> {
    pub rotation: &'a Option<Vec3>,
    pub size: &'a Option<Vec3>,
    pub shape: &'a Option<Shape>,
    pub sides: &'a Option<u32>,
    pub mode: &'a Option<Mode>,
    pub affects: &'a Option<Vec<u32>>,
    pub properties: &'a Option<Properties>,
}

macro_rules! borrow_tail {
    ($from:ident; $($f:ident),*) => {
        TailRef { $($f: &$from.$f),* }
    };
}

macro_rules! names {
    ($($first:literal),*; $($f:ident),*) => {
        [$($first,)* $(stringify!($f)),*]
    };
}

impl PieceEnd {
    /// Its fields, borrowed.
    pub(crate) fn tail(&self) -> TailRef<'_> {
        with_tail_fields!(borrow_tail!(self))
    }
}

impl Piece {
    /// Every key a piece may state, in file order.
    pub(crate) const KEYS: [&'static str; 10] = with_tail_fields!(names!("id", "from", "points"));

    /// The fields a piece with `from` may leave out and so inherit, in file
    /// order: `points` and every field after them (docs/spec/RULES.md §4.2).
    pub const INHERITED_FIELDS: [&'static str; 8] = with_tail_fields!(names!("points"));

    /// The fields after its points, borrowed.
    pub(crate) fn tail(&self) -> TailRef<'_> {
        with_tail_fields!(borrow_tail!(self))
    }

    /// Sets the fields after its points from a piece's end.
    pub(crate) fn set_end(&mut self, end: PieceEnd) {
        macro_rules! set {
            ($piece:ident, $end:ident; $($f:ident),*) => {
                $($piece.$f = $end.$f;)*
            };
        }
        with_tail_fields!(set!(self, end));
    }

    /// Takes each inheritable field it does not state from `base`: the
    /// inheritance rule (a stated field replaces the base's whole field, an
    /// unstated one is the base's), without the checks of what results.
    pub(crate) fn inherit(&mut self, base: Piece) {
        macro_rules! inherit {
            ($piece:ident, $base:ident; $($f:ident),*) => {
                $(if $piece.$f.is_none() {
                    $piece.$f = $base.$f;
                })*
            };
        }
        with_tail_fields!(inherit!(self, base));
        if self.points.is_none() {
            self.points = base.points;
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn full() -> Piece {
        Piece {
            id: 3,
            from: None,
            points: Some(vec![Point::at(Vec3::new(1.0, 2.0, 3.0))]),
            rotation: Some(Vec3::new(0.0, 0.0, 45.0)),
            size: Some(Vec3::new(1.0, 2.0, 0.0)),
            shape: Some(Shape::Ngon),
            sides: Some(5),
            mode: Some(Mode::Subtract),
            affects: Some(vec![0, 1]),
            properties: Some(Properties::from_raw(bytes::Bytes::from_static(b"a: 1"))),
        }
    }

    #[test]
    fn the_key_lists_follow_the_file_order() {
        assert_eq!(
            Piece::KEYS,
            [
                "id",
                "from",
                "points",
                "rotation",
                "size",
                "shape",
                "sides",
                "mode",
                "affects",
                "properties"
            ]
        );
        assert_eq!(Piece::INHERITED_FIELDS[..], Piece::KEYS[2..]);
    }

    #[test]
    fn an_end_moves_into_a_piece_and_is_borrowed_back_unchanged() {
        let want = full();
        let end = PieceEnd {
            rotation: want.rotation,
            size: want.size,
            shape: want.shape,
            sides: want.sides,
            mode: want.mode,
            affects: want.affects.clone(),
            properties: want.properties.clone(),
        };
        let mut piece = Piece {
            id: 3,
            points: want.points.clone(),
            ..Piece::default()
        };
        piece.set_end(end.clone());
        assert_eq!(piece, want);
        let (a, b) = (piece.tail(), end.tail());
        assert_eq!(
            (a.rotation, a.size, a.shape, a.sides, a.mode, a.affects, a.properties),
            (b.rotation, b.size, b.shape, b.sides, b.mode, b.affects, b.properties)
        );
    }

    #[test]
    fn inheriting_keeps_what_is_stated_and_takes_the_rest() {
        let base = full();
        let mut child = Piece {
            id: 4,
            from: Some(3),
            size: Some(Vec3::new(9.0, 9.0, 9.0)),
            properties: Some(Properties::from_raw(bytes::Bytes::new())),
            ..Piece::default()
        };
        child.inherit(base.clone());
        let want = Piece {
            id: 4,
            from: Some(3),
            size: Some(Vec3::new(9.0, 9.0, 9.0)),
            properties: Some(Properties::from_raw(bytes::Bytes::new())),
            ..base
        };
        assert_eq!(child, want, "an explicit empty blob is stated, so it stays");
    }
}
