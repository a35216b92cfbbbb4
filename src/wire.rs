//! nom parsers for the small bounded units of the layout: the header, a
//! count, a piece head, one point, a piece's fixed tail. Each is at most 82
//! bytes, parsed in streaming mode (`Incomplete` when the unit is not all
//! there yet) and checked as it is read: f32 finite, enums in range,
//! reserved bits zero, and the per-field structure rules of docs/spec/RULES.md §2
//! (the checks and their messages are in `rules`).
//!
//! Errors carry the input at the offending field, so the state machine can
//! turn them into byte offsets; field names are relative (`curve_in.y`) and
//! the state machine adds the `pieces[i].points[j].` prefix.

use nom::bytes::streaming::tag;
use nom::IResult;

use crate::model::{Mode, PieceEnd, Point, Shape, Vec2, Vec3};
use crate::properties::Properties;
use crate::rules::{
    check_f32, check_sides, Names, Problem, Rule, CURVE_IN_NAMES, CURVE_OUT_NAMES, POSITION_NAMES, RESERVED_MASK,
    ROTATION_NAMES, SIZE_NAMES, TRANSITION_IN_NAMES, TRANSITION_OUT_NAMES,
};

pub(crate) type In<'a> = &'a [u8];
pub(crate) type PResult<'a, T> = IResult<In<'a>, T, WireError<'a>>;

/// The magic bytes at the start of every file.
pub const MAGIC: &[u8; 4] = b"SSKB";
/// The smallest encoding of a piece (id, has_from, from, field_mask).
pub(crate) const MIN_PIECE: u64 = 11;
/// The smallest encoding of a point (position and six presence bytes).
pub(crate) const MIN_POINT: u64 = 18;
/// Bytes of a non-inherited piece after its points, blob length included
/// (has_rotation, size, shape, has_sides, mode, has_affects, blob length).
pub(crate) const MIN_OWN_TAIL: u64 = 1 + 12 + 1 + 1 + 1 + 1 + 4;

/// Bits of `field_mask`.
pub(crate) mod bit {
    pub const POINTS: u16 = 1 << 0;
    pub const ROTATION: u16 = 1 << 1;
    pub const SIZE: u16 = 1 << 2;
    pub const SHAPE: u16 = 1 << 3;
    pub const SIDES: u16 = 1 << 4;
    pub const MODE: u16 = 1 << 5;
    pub const AFFECTS: u16 = 1 << 6;
    pub const PROPERTIES: u16 = 1 << 7;
}

/// The error of a unit parser: where (the input at the offending field) and what.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct WireError<'a> {
    pub input: In<'a>,
    pub problem: Problem,
}

impl<'a> nom::error::ParseError<In<'a>> for WireError<'a> {
    fn from_error_kind(input: In<'a>, kind: nom::error::ErrorKind) -> Self {
        WireError {
            input,
            problem: Problem::Nom(kind),
        }
    }
    fn append(_: In<'a>, _: nom::error::ErrorKind, other: Self) -> Self {
        other
    }
}

/// The next `N` bytes, or `Incomplete` with how many more are needed. The
/// fixed-width primitives below are nom parsers built on it (the generic
/// ones in `nom::number` assemble integers a byte at a time).
#[inline]
fn array<const N: usize>(i: In<'_>) -> PResult<'_, [u8; N]> {
    match i.split_first_chunk::<N>() {
        Some((a, rest)) => Ok((rest, *a)),
        None => Err(nom::Err::Incomplete(nom::Needed::new(N - i.len()))),
    }
}

#[inline]
fn le_u8(i: In<'_>) -> PResult<'_, u8> {
    let (rest, [b]) = array::<1>(i)?;
    Ok((rest, b))
}

#[inline]
fn le_u16(i: In<'_>) -> PResult<'_, u16> {
    let (rest, a) = array::<2>(i)?;
    Ok((rest, u16::from_le_bytes(a)))
}

#[inline]
fn le_u32(i: In<'_>) -> PResult<'_, u32> {
    let (rest, a) = array::<4>(i)?;
    Ok((rest, u32::from_le_bytes(a)))
}

#[inline]
fn le_f32(i: In<'_>) -> PResult<'_, f32> {
    let (rest, a) = array::<4>(i)?;
    Ok((rest, f32::from_le_bytes(a)))
}

fn fail<T>(input: In<'_>, problem: Problem) -> PResult<'_, T> {
    Err(nom::Err::Failure(WireError { input, problem }))
}

fn f32_field<'a>(i: In<'a>, field: &'static str, rule: Rule) -> PResult<'a, f32> {
    let (rest, v) = le_f32(i)?;
    match check_f32(v, field, rule) {
        Ok(()) => Ok((rest, v)),
        Err(p) => fail(i, p),
    }
}

fn vec3<'a>(i: In<'a>, names: &Names, rule: Rule) -> PResult<'a, Vec3> {
    let (i, x) = f32_field(i, names[0], rule)?;
    let (i, y) = f32_field(i, names[1], rule)?;
    let (i, z) = f32_field(i, names[2], rule)?;
    Ok((i, Vec3 { x, y, z }))
}

fn transition<'a>(i: In<'a>, names: &Names) -> PResult<'a, Vec2> {
    let (i, x) = f32_field(i, names[0], Rule::ZeroToOne)?;
    let (i, y) = f32_field(i, names[1], Rule::Any)?;
    Ok((i, Vec2 { x, y }))
}

/// A presence byte and, when it is non-zero, the value it guards.
fn optional<'a, T>(i: In<'a>, value: impl FnOnce(In<'a>) -> PResult<'a, T>) -> PResult<'a, Option<T>> {
    let (i, present) = le_u8(i)?;
    if present == 0 {
        return Ok((i, None));
    }
    let (i, v) = value(i)?;
    Ok((i, Some(v)))
}

/// The 8-byte header: magic, major, minor. Majors 0 and 1 are accepted with
/// any minor (every major-0 file the reference writes has the 1.0 layout;
/// the machine refuses major 0 when asked to, see
/// [`DecodeOptions::major_one_only`](crate::DecodeOptions::major_one_only));
/// a major above 1 is `unsupported_version`.
pub(crate) fn header(i: In<'_>) -> PResult<'_, (u16, u16)> {
    // `tag` fails on a wrong byte however little input there is, but on a
    // right prefix asks for the whole rest of the magic: ask for one byte,
    // so that a caller honouring the hint sees a wrong next byte at once
    // (and reports `bad_magic`, not truncation).
    let (rest, _) = tag(&MAGIC[..])(i).map_err(|e| match e {
        nom::Err::Error(_) => nom::Err::Failure(WireError {
            input: i,
            problem: Problem::BadMagic,
        }),
        nom::Err::Incomplete(_) => nom::Err::Incomplete(nom::Needed::new(1)),
        other => other,
    })?;
    let (rest, major) = le_u16(rest)?;
    let (rest, minor) = le_u16(rest)?;
    if major > 1 {
        return fail(&i[4..], Problem::UnsupportedVersion(major, minor));
    }
    Ok((rest, (major, minor)))
}

/// A bare u32: piece count, affects id, blob length.
pub(crate) fn u32_le(i: In<'_>) -> PResult<'_, u32> {
    le_u32(i)
}

/// A piece's head: id, has_from, from, field_mask, and point_count when the
/// piece states its points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Head {
    pub id: u32,
    pub from: Option<u32>,
    pub mask: Option<u16>,
    pub point_count: Option<u32>,
}

impl Head {
    /// Whether the piece states field `bit` (always, for a piece without `from`).
    pub fn has(&self, bit: u16) -> bool {
        self.mask.is_none_or(|m| m & bit != 0)
    }

    /// Smallest number of bytes the piece still needs after its points,
    /// before any affects ids (for checking counts against the input left).
    pub fn min_after_points(&self) -> u64 {
        let Some(m) = self.mask else {
            return MIN_OWN_TAIL;
        };
        [
            (bit::ROTATION, 12),
            (bit::SIZE, 12),
            (bit::SHAPE, 1),
            (bit::SIDES, 4),
            (bit::MODE, 1),
            (bit::AFFECTS, 4),
            (bit::PROPERTIES, 4),
        ]
        .iter()
        .filter(|(b, _)| m & b != 0)
        .map(|(_, n)| n)
        .sum()
    }

    /// Whether a property blob length follows the affects.
    pub fn has_blob(&self) -> bool {
        self.has(bit::PROPERTIES)
    }
}

/// Where, inside the head unit, the point count starts (for error offsets).
pub(crate) fn point_count_offset(head: &Head) -> usize {
    if head.from.is_some() {
        11
    } else {
        5
    }
}

pub(crate) fn piece_head(i: In<'_>) -> PResult<'_, Head> {
    let (i, id) = le_u32(i)?;
    let (i, has_from) = le_u8(i)?;
    let (i, from, mask) = if has_from != 0 {
        let (i, from) = le_u32(i)?;
        let at = i;
        let (i, mask) = le_u16(i)?;
        if mask & RESERVED_MASK != 0 {
            return fail(at, Problem::ReservedBits(mask));
        }
        (i, Some(from), Some(mask))
    } else {
        (i, None, None)
    };
    let mut head = Head {
        id,
        from,
        mask,
        point_count: None,
    };
    if head.has(bit::POINTS) {
        let at = i;
        let (i, n) = le_u32(i)?;
        if n == 0 {
            return fail(
                at,
                Problem::Structure(
                    "points",
                    "`points` is present but empty; a piece needs at least one point".into(),
                ),
            );
        }
        head.point_count = Some(n);
        return Ok((i, head));
    }
    Ok((i, head))
}

/// One point: position and six presence-guarded fields (18 to 78 bytes).
pub(crate) fn point(i: In<'_>) -> PResult<'_, Point> {
    let (i, position) = vec3(i, &POSITION_NAMES, Rule::Any)?;
    let (i, curve_in) = optional(i, |i| vec3(i, &CURVE_IN_NAMES, Rule::Any))?;
    let (i, curve_out) = optional(i, |i| vec3(i, &CURVE_OUT_NAMES, Rule::Any))?;
    let (i, size) = optional(i, |i| vec3(i, &SIZE_NAMES, Rule::NonNegative))?;
    let (i, rotation) = optional(i, |i| vec3(i, &ROTATION_NAMES, Rule::Any))?;
    let (i, transition_in) = optional(i, |i| transition(i, &TRANSITION_IN_NAMES))?;
    let (i, transition_out) = optional(i, |i| transition(i, &TRANSITION_OUT_NAMES))?;
    Ok((
        i,
        Point {
            position,
            curve_in,
            curve_out,
            size,
            rotation,
            transition_in,
            transition_out,
        },
    ))
}

/// The most bytes one point takes: position and every optional field.
pub(crate) const MAX_POINT: usize = 82;

/// How many bytes `p` takes on the wire.
pub(crate) fn point_len(p: &Point) -> u64 {
    let vec3 = |v: Option<Vec3>| if v.is_some() { 12 } else { 0 };
    let vec2 = |v: Option<Vec2>| if v.is_some() { 8 } else { 0 };
    MIN_POINT
        + vec3(p.curve_in)
        + vec3(p.curve_out)
        + vec3(p.size)
        + vec3(p.rotation)
        + vec2(p.transition_in)
        + vec2(p.transition_out)
}

/// The error of the complete-mode units: only "not here". The streaming
/// unit, run on the same uncommitted bytes, then says what is wrong and
/// where (or that more input is needed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reject;

impl<'a> nom::error::ParseError<In<'a>> for Reject {
    fn from_error_kind(_: In<'a>, _: nom::error::ErrorKind) -> Self {
        Reject
    }
    fn append(_: In<'a>, _: nom::error::ErrorKind, other: Self) -> Self {
        other
    }
}

type CResult<'a, T> = IResult<In<'a>, T, Reject>;

/// The next `N` bytes in complete mode: too few is a rejection, not `Incomplete`.
#[inline(always)]
fn c_array<const N: usize>(i: In<'_>) -> CResult<'_, [u8; N]> {
    match i.split_first_chunk::<N>() {
        Some((a, rest)) => Ok((rest, *a)),
        None => Err(nom::Err::Error(Reject)),
    }
}

#[inline(always)]
fn f32_at(a: &[u8; 12], k: usize) -> f32 {
    f32::from_le_bytes([a[k], a[k + 1], a[k + 2], a[k + 3]])
}

/// A vec3 in complete mode, with every check of [`vec3`] folded into one test.
#[inline(always)]
fn c_vec3(i: In<'_>, non_negative: bool) -> CResult<'_, Vec3> {
    let (rest, a) = c_array::<12>(i)?;
    let v = Vec3 {
        x: f32_at(&a, 0),
        y: f32_at(&a, 4),
        z: f32_at(&a, 8),
    };
    let finite = v.x.is_finite() & v.y.is_finite() & v.z.is_finite();
    let signs = !non_negative | ((v.x >= 0.0) & (v.y >= 0.0) & (v.z >= 0.0));
    if finite & signs {
        Ok((rest, v))
    } else {
        Err(nom::Err::Error(Reject))
    }
}

/// A transition in complete mode: `x` within [0, 1], `y` finite.
#[inline(always)]
fn c_transition(i: In<'_>) -> CResult<'_, Vec2> {
    let (rest, a) = c_array::<8>(i)?;
    let x = f32::from_le_bytes([a[0], a[1], a[2], a[3]]);
    let y = f32::from_le_bytes([a[4], a[5], a[6], a[7]]);
    if (0.0..=1.0).contains(&x) & y.is_finite() {
        Ok((rest, Vec2 { x, y }))
    } else {
        Err(nom::Err::Error(Reject))
    }
}

/// A presence byte and, when it is non-zero, the value it guards.
#[inline(always)]
fn c_optional<'a, T>(i: In<'a>, value: impl FnOnce(In<'a>) -> CResult<'a, T>) -> CResult<'a, Option<T>> {
    let (i, [present]) = c_array::<1>(i)?;
    if present == 0 {
        return Ok((i, None));
    }
    let (i, v) = value(i)?;
    Ok((i, Some(v)))
}

/// One point in complete mode: the fast path for a point whose bytes are all
/// in the buffer. It accepts exactly what [`point`] accepts, with the same
/// value and length, and rejects everything else (too few bytes, or a bad
/// value); the caller then runs [`point`] for the precise answer.
#[inline(always)]
pub(crate) fn point_complete(i: In<'_>) -> CResult<'_, Point> {
    let (i, position) = c_vec3(i, false)?;
    let (i, curve_in) = c_optional(i, |i| c_vec3(i, false))?;
    let (i, curve_out) = c_optional(i, |i| c_vec3(i, false))?;
    let (i, size) = c_optional(i, |i| c_vec3(i, true))?;
    let (i, rotation) = c_optional(i, |i| c_vec3(i, false))?;
    let (i, transition_in) = c_optional(i, c_transition)?;
    let (i, transition_out) = c_optional(i, c_transition)?;
    Ok((
        i,
        Point {
            position,
            curve_in,
            curve_out,
            size,
            rotation,
            transition_in,
            transition_out,
        },
    ))
}

/// A piece's fields between its points and its affects ids.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Tail {
    pub rotation: Option<Vec3>,
    pub size: Option<Vec3>,
    pub shape: Option<Shape>,
    pub sides: Option<u32>,
    pub mode: Option<Mode>,
    pub affects_count: Option<u32>,
    /// Offset of `affects_count` within the tail unit.
    pub affects_count_at: usize,
}

impl Tail {
    /// The end of the piece, with the `affects` ids and blob that follow
    /// the tail as their own units.
    #[inline]
    pub fn end(self, affects: Option<Vec<u32>>, properties: Option<Properties>) -> PieceEnd {
        PieceEnd {
            rotation: self.rotation,
            size: self.size,
            shape: self.shape,
            sides: self.sides,
            mode: self.mode,
            affects,
            properties,
        }
    }
}

fn shape(i: In<'_>) -> PResult<'_, Shape> {
    let (rest, b) = le_u8(i)?;
    match Shape::from_byte(b) {
        Some(s) => Ok((rest, s)),
        None => fail(i, Problem::InvalidEnum("shape", b)),
    }
}

fn mode(i: In<'_>) -> PResult<'_, Mode> {
    let (rest, b) = le_u8(i)?;
    match Mode::from_byte(b) {
        Some(m) => Ok((rest, m)),
        None => fail(i, Problem::InvalidEnum("mode", b)),
    }
}

fn sides(i: In<'_>) -> PResult<'_, u32> {
    let (rest, n) = le_u32(i)?;
    match check_sides(n) {
        Ok(()) => Ok((rest, n)),
        Err(p) => fail(i, p),
    }
}

/// The fixed fields after the points: for a piece without `from`,
/// has_rotation, rotation?, size, shape, has_sides, sides?, mode,
/// has_affects, affects_count?; for an inherited piece, the fields its mask
/// names, with no presence bytes. A non-inherited `add` decodes as no mode.
pub(crate) fn tail(input: In<'_>, head: Head) -> PResult<'_, Tail> {
    let mut t = Tail::default();
    let i = input;
    let i = match head.mask {
        None => {
            let (i, rotation) = optional(i, |i| vec3(i, &ROTATION_NAMES, Rule::Any))?;
            let (i, size) = vec3(i, &SIZE_NAMES, Rule::NonNegative)?;
            let (i, shape) = shape(i)?;
            let (i, sides) = optional(i, sides)?;
            let (i, mode) = mode(i)?;
            let (i, has_affects) = le_u8(i)?;
            t.rotation = rotation;
            t.size = Some(size);
            t.shape = Some(shape);
            t.sides = sides;
            t.mode = (mode != Mode::Add).then_some(mode);
            if has_affects != 0 {
                t.affects_count_at = input.len() - i.len();
                let (i, n) = le_u32(i)?;
                t.affects_count = Some(n);
                i
            } else {
                i
            }
        }
        Some(mask) => {
            let mut i = i;
            if mask & bit::ROTATION != 0 {
                let (r, v) = vec3(i, &ROTATION_NAMES, Rule::Any)?;
                (i, t.rotation) = (r, Some(v));
            }
            if mask & bit::SIZE != 0 {
                let (r, v) = vec3(i, &SIZE_NAMES, Rule::NonNegative)?;
                (i, t.size) = (r, Some(v));
            }
            if mask & bit::SHAPE != 0 {
                let (r, v) = shape(i)?;
                (i, t.shape) = (r, Some(v));
            }
            if mask & bit::SIDES != 0 {
                let (r, v) = sides(i)?;
                (i, t.sides) = (r, Some(v));
            }
            if mask & bit::MODE != 0 {
                let (r, v) = mode(i)?;
                (i, t.mode) = (r, Some(v));
            }
            if mask & bit::AFFECTS != 0 {
                t.affects_count_at = input.len() - i.len();
                let (r, v) = le_u32(i)?;
                (i, t.affects_count) = (r, Some(v));
            }
            i
        }
    };
    Ok((i, t))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(v: f32) -> [u8; 4] {
        v.to_le_bytes()
    }

    fn problem<T: std::fmt::Debug>(r: PResult<'_, T>) -> (usize, Problem) {
        match r {
            Err(nom::Err::Failure(e)) => (e.input.len(), e.problem),
            other => panic!("expected a failure, got {other:?}"),
        }
    }

    #[test]
    fn header_accepts_majors_0_and_1_any_minor() {
        assert_eq!(header(b"SSKB\x01\x00\x4d\x00rest"), Ok((&b"rest"[..], (1, 77))));
        assert_eq!(header(b"SSKB\x00\x00\x06\x00rest"), Ok((&b"rest"[..], (0, 6))));
        assert!(matches!(header(b"SSK"), Err(nom::Err::Incomplete(_))));
        assert!(matches!(header(b"SSKB\x01"), Err(nom::Err::Incomplete(_))));
        assert_eq!(problem(header(b"SSKX\x01\x00\x00\x00")).1, Problem::BadMagic);
        assert_eq!(problem(header(b"XS")).1, Problem::BadMagic);
        // A wrong byte fails at once, however little input there is; a
        // right prefix asks for one more byte at a time.
        assert_eq!(problem(header(b"\x00")).1, Problem::BadMagic);
        assert_eq!(problem(header(b"SX")).1, Problem::BadMagic);
        assert_eq!(header(b""), Err(nom::Err::Incomplete(nom::Needed::new(1))));
        assert_eq!(header(b"SSK"), Err(nom::Err::Incomplete(nom::Needed::new(1))));
        assert_eq!(
            problem(header(b"SSKB\x02\x00\x00\x00")).1,
            Problem::UnsupportedVersion(2, 0)
        );
        assert_eq!(
            problem(header(b"SSKB\xff\xff\x00\x00")).1,
            Problem::UnsupportedVersion(65535, 0)
        );
    }

    #[test]
    fn piece_head_forms() {
        let own = [7, 0, 0, 0, 0, 2, 0, 0, 0];
        assert_eq!(
            piece_head(&own).unwrap().1,
            Head {
                id: 7,
                from: None,
                mask: None,
                point_count: Some(2)
            }
        );
        let inherited = [1, 0, 0, 0, 0xff, 0, 0, 0, 0, 0x02, 0x00];
        let (rest, h) = piece_head(&inherited).unwrap();
        assert!(rest.is_empty());
        assert_eq!((h.from, h.mask, h.point_count), (Some(0), Some(2), None));
        assert_eq!(h.min_after_points(), 12);
        assert!(matches!(piece_head(&inherited[..10]), Err(nom::Err::Incomplete(_))));
        let reserved = [1, 0, 0, 0, 1, 0, 0, 0, 0, 0x00, 0x01];
        assert_eq!(problem(piece_head(&reserved)), (2, Problem::ReservedBits(0x0100)));
        let empty = [1, 0, 0, 0, 0, 0, 0, 0, 0];
        assert!(matches!(problem(piece_head(&empty)).1, Problem::Structure("points", _)));
    }

    #[test]
    fn point_with_every_field() {
        let mut b = Vec::new();
        for v in [1.0, 2.0, 3.0] {
            b.extend(f(v));
        }
        for presence in [1, 2, 3, 4] {
            b.push(presence);
            for v in [0.5, 0.25, 0.0] {
                b.extend(f(v));
            }
        }
        for presence in [9, 10] {
            b.push(presence);
            b.extend(f(0.75));
            b.extend(f(-3.5));
        }
        assert_eq!(b.len(), 82);
        let (rest, p) = point(&b).unwrap();
        assert!(rest.is_empty());
        assert_eq!(p.position, Vec3::new(1.0, 2.0, 3.0));
        assert_eq!(p.size, Some(Vec3::new(0.5, 0.25, 0.0)));
        assert_eq!(p.transition_out, Some(Vec2::new(0.75, -3.5)));
        for cut in 0..b.len() {
            assert!(matches!(point(&b[..cut]), Err(nom::Err::Incomplete(_))), "cut {cut}");
        }
    }

    #[test]
    fn point_checks() {
        let mut b = Vec::new();
        b.extend(f(0.0));
        b.extend(f(f32::NAN));
        b.extend(f(0.0));
        b.extend([0; 6]);
        assert_eq!(problem(point(&b)).0, b.len() - 4);
        assert!(matches!(problem(point(&b)).1, Problem::NonFinite("y", _)));

        let mut b = vec![0; 12];
        b.extend([0, 0, 1]);
        b.extend(f(1.0));
        b.extend(f(-1.0));
        b.extend(f(1.0));
        b.extend([0, 0, 0]);
        assert!(matches!(problem(point(&b)).1, Problem::Structure("size.y", _)));

        let mut b = vec![0; 12];
        b.extend([0, 0, 0, 0, 1]);
        b.extend(f(1.5));
        b.extend(f(0.0));
        b.push(0);
        assert!(matches!(problem(point(&b)).1, Problem::Structure("transition_in.x", _)));
    }

    #[test]
    fn tails() {
        let head = Head::default();
        let mut b = vec![0];
        for v in [1.0, 1.0, 1.0] {
            b.extend(f(v));
        }
        b.extend([1, 1, 6, 0, 0, 0, 0, 1, 2, 0, 0, 0]);
        let (rest, t) = tail(&b, head).unwrap();
        assert!(rest.is_empty());
        assert_eq!(t.shape, Some(Shape::Ngon));
        assert_eq!(t.sides, Some(6));
        assert_eq!(t.mode, None, "add decodes as no mode");
        assert_eq!((t.affects_count, t.affects_count_at), (Some(2), b.len() - 4));

        let mut bad = b.clone();
        bad[13] = 2;
        assert!(matches!(problem(tail(&bad, head)).1, Problem::InvalidEnum("shape", 2)));
        let mut bad = b.clone();
        bad[19] = 3;
        assert!(matches!(problem(tail(&bad, head)).1, Problem::InvalidEnum("mode", 3)));
        let mut bad = b.clone();
        bad[15] = 2;
        assert!(matches!(problem(tail(&bad, head)).1, Problem::Structure("sides", _)));

        let inherited = Head {
            mask: Some(bit::SIDES | bit::MODE),
            from: Some(0),
            ..Head::default()
        };
        let (rest, t) = tail(&[5, 0, 0, 0, 1, 0xAA], inherited).unwrap();
        assert_eq!(rest, &[0xAA]);
        assert_eq!((t.sides, t.mode, t.size), (Some(5), Some(Mode::Subtract), None));
    }

    /// Random points, mostly well formed, with hostile values and cuts mixed
    /// in: the complete-mode fast path accepts exactly what the streaming
    /// unit accepts, with the same value and length, whenever the buffer
    /// holds the whole point.
    #[test]
    fn the_fast_point_agrees_with_the_streaming_unit() {
        let specials = [
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            0.5,
            1.0000001,
            -1e-30,
            f32::MAX,
            f32::MIN_POSITIVE,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::from_bits(0x7fc0_0001),
        ];
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let (mut accepted, mut rejected) = (0, 0);
        for _ in 0..300_000 {
            let mut b = Vec::with_capacity(100);
            let float = |b: &mut Vec<u8>, next: &mut dyn FnMut(u64) -> u64| {
                let v = if next(4) == 0 {
                    specials[next(specials.len() as u64) as usize]
                } else {
                    next(2000) as f32 / 1000.0 - 0.2
                };
                b.extend(v.to_le_bytes());
            };
            for _ in 0..3 {
                float(&mut b, &mut next);
            }
            for width in [3, 3, 3, 3, 2, 2] {
                let present = match next(3) {
                    0 => 0,
                    1 => 1,
                    _ => next(256) as u8,
                };
                b.push(present);
                if present != 0 {
                    for _ in 0..width {
                        float(&mut b, &mut next);
                    }
                }
            }
            // Sometimes random trailing bytes, sometimes a cut.
            for _ in 0..next(90) {
                b.push(next(256) as u8);
            }
            if next(5) == 0 {
                b.truncate(next(b.len() as u64 + 1) as usize);
            }
            let slow = point(&b);
            match point_complete(&b) {
                Ok((rest, p)) => {
                    accepted += 1;
                    let Ok((slow_rest, slow_p)) = slow else {
                        panic!("fast path accepted what the unit rejects: {b:?}");
                    };
                    assert_eq!(rest.len(), slow_rest.len(), "{b:?}");
                    assert_eq!(point_len(&p), (b.len() - rest.len()) as u64, "{b:?}");
                    assert_eq!(format!("{p:?}"), format!("{slow_p:?}"), "{b:?}");
                }
                Err(_) => {
                    rejected += 1;
                    assert!(slow.is_err(), "fast path rejected a whole, valid point: {b:?}");
                }
            }
        }
        assert!(accepted > 10_000 && rejected > 10_000, "{accepted} / {rejected}");
    }
}
