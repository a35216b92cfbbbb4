//! The rules a value must follow, in one place: what may be stored in each
//! field (finite f32s, sizes, transition `x`, sides, reserved bits, unique
//! `affects`), the field names they report, what a piece must have after
//! inheritance, and the messages. Every door checks values with these:
//! the wire units while decoding (the fast point parser folds the same
//! checks and hands any failure to the unit, which reports it from here),
//! the encoder before it writes, the `.ssk` and JSON readers, and the
//! validator.

use crate::error::ErrorKind;
use crate::model::{Point, TailRef, Vec2, Vec3};

/// Reserved `field_mask` bits.
pub(crate) const RESERVED_MASK: u16 = 0xff00;

/// What a unit parser found wrong.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Problem {
    BadMagic,
    UnsupportedVersion(u16, u16),
    NonFinite(&'static str, f32),
    InvalidEnum(&'static str, u8),
    ReservedBits(u16),
    Structure(&'static str, String),
    /// A nom error that none of the parsers here produce; kept so the type is total.
    Nom(nom::error::ErrorKind),
}

impl Problem {
    /// The error kind, the relative field name and a message for people.
    pub fn describe(self) -> (ErrorKind, &'static str, String) {
        match self {
            Problem::BadMagic => (
                ErrorKind::BadMagic,
                "magic",
                "the input does not start with the magic bytes `SSKB`".to_owned(),
            ),
            Problem::UnsupportedVersion(major, minor) => (
                ErrorKind::UnsupportedVersion,
                "version",
                if major == 0 {
                    format!("version {major}.{minor} is a pre-1.0 draft, and only major version 1 was asked for")
                } else {
                    format!("version {major}.{minor} is not supported: this decoder reads major version 1")
                },
            ),
            Problem::NonFinite(f, v) => (
                ErrorKind::NonFinite,
                f,
                format!("`{f}` is {v}; every f32 must be finite"),
            ),
            Problem::InvalidEnum(f, b) => (
                ErrorKind::InvalidEnum,
                f,
                match f {
                    "shape" => format!("shape byte {b} is not 0 (circle) or 1 (ngon)"),
                    _ => format!("mode byte {b} is not 0 (add), 1 (subtract) or 2 (intersect)"),
                },
            ),
            Problem::ReservedBits(m) => (
                ErrorKind::ReservedBits,
                "field_mask",
                format!(
                    "field_mask {m:#06x} sets reserved bits {:#06x} (bits 8-15 must be zero)",
                    m & RESERVED_MASK
                ),
            ),
            Problem::Structure(f, m) => (ErrorKind::Structure, f, m),
            Problem::Nom(k) => (ErrorKind::Truncated, "", format!("unexpected parse failure: {k:?}")),
        }
    }
}

/// A check applied to one f32 after it is known to be finite.
#[derive(Clone, Copy)]
pub(crate) enum Rule {
    Any,
    /// Sizes: no negative component.
    NonNegative,
    /// Transition `x`: within [0, 1].
    ZeroToOne,
}

/// Whether `v` may stand in `field` under `rule` (finite, and the rule).
/// The encoder checks values with the same function.
#[inline]
pub(crate) fn check_f32(v: f32, field: &'static str, rule: Rule) -> Result<(), Problem> {
    if !v.is_finite() {
        return Err(Problem::NonFinite(field, v));
    }
    match rule {
        Rule::NonNegative if v < 0.0 => Err(Problem::Structure(field, negative(field, v))),
        Rule::ZeroToOne if !(0.0..=1.0).contains(&v) => Err(Problem::Structure(field, outside_zero_to_one(field, v))),
        _ => Ok(()),
    }
}

/// Whether `sides` may be stored.
#[inline]
pub(crate) fn check_sides(n: u32) -> Result<(), Problem> {
    if n < 3 {
        return Err(Problem::Structure("sides", too_few_sides(n)));
    }
    Ok(())
}

/// The message for a value below zero where sizes must be `>= 0`.
pub(crate) fn negative(field: &str, v: f32) -> String {
    format!("`{field}` is negative ({v}); sizes must be >= 0")
}

/// The message for a transition `x` outside [0, 1].
pub(crate) fn outside_zero_to_one(field: &str, v: f32) -> String {
    format!("`{field}` is {v}; a transition x must be within [0, 1]")
}

/// The message for `sides` below 3.
pub(crate) fn too_few_sides(n: u32) -> String {
    format!("`sides` is {n}; it must be at least 3")
}

/// The message for an id that `affects` names twice.
pub(crate) fn affects_twice(id: u32) -> String {
    format!("`affects` names piece {id} twice; affects ids must be unique")
}

/// The first id that `ids` names twice.
pub(crate) fn repeated(ids: &[u32]) -> Option<u32> {
    let mut seen = std::collections::HashSet::with_capacity(ids.len());
    ids.iter().copied().find(|id| !seen.insert(*id))
}

/// The rule for one piece's `from`: it names an existing piece, not the
/// piece itself, with a lower id.
pub(crate) fn check_from(id: u32, from: u32, exists: bool) -> Result<(), String> {
    if from == id {
        Err(format!("`from` {from} is the piece itself"))
    } else if !exists {
        Err(format!("`from` {from} names no piece"))
    } else if from > id {
        Err(format!("`from` {from} is not a lower id"))
    } else {
        Ok(())
    }
}

/// Whether an `affects` list may be stored: no id twice.
pub(crate) fn check_affects(ids: &[u32]) -> Result<(), Problem> {
    match repeated(ids) {
        Some(dup) => Err(Problem::Structure("affects", affects_twice(dup))),
        None => Ok(()),
    }
}

/// The value rules of a piece's fields after its points: finite rotation,
/// size >= 0, sides >= 3, unique affects.
pub(crate) fn check_tail(t: &TailRef<'_>) -> Result<(), Problem> {
    if let Some(r) = *t.rotation {
        check_vec3(r, &ROTATION_NAMES, Rule::Any)?;
    }
    if let Some(s) = *t.size {
        check_vec3(s, &SIZE_NAMES, Rule::NonNegative)?;
    }
    if let Some(n) = *t.sides {
        check_sides(n)?;
    }
    if let Some(ids) = t.affects {
        check_affects(ids)?;
    }
    Ok(())
}

/// What a resolved piece lacks, for the validator and the resolver.
pub(crate) const NO_POINTS: &str = "has no points after inheritance";
pub(crate) const NO_SIZE: &str = "has no `size` after inheritance";
pub(crate) const NO_SHAPE: &str = "has no `shape` after inheritance";

/// Field names of one vector field, e.g. `["size.x", "size.y", "size.z"]`.
pub(crate) type Names = [&'static str; 3];

pub(crate) const POSITION_NAMES: Names = ["x", "y", "z"];
pub(crate) const CURVE_IN_NAMES: Names = ["curve_in.x", "curve_in.y", "curve_in.z"];
pub(crate) const CURVE_OUT_NAMES: Names = ["curve_out.x", "curve_out.y", "curve_out.z"];
pub(crate) const SIZE_NAMES: Names = ["size.x", "size.y", "size.z"];
pub(crate) const ROTATION_NAMES: Names = ["rotation.x", "rotation.y", "rotation.z"];
pub(crate) const TRANSITION_IN_NAMES: Names = ["transition_in.x", "transition_in.y", ""];
pub(crate) const TRANSITION_OUT_NAMES: Names = ["transition_out.x", "transition_out.y", ""];

#[inline]
pub(crate) fn check_vec3(v: Vec3, names: &Names, rule: Rule) -> Result<(), Problem> {
    check_f32(v.x, names[0], rule)?;
    check_f32(v.y, names[1], rule)?;
    check_f32(v.z, names[2], rule)
}

#[inline]
fn check_transition(v: Vec2, names: &Names) -> Result<(), Problem> {
    check_f32(v.x, names[0], Rule::ZeroToOne)?;
    check_f32(v.y, names[1], Rule::Any)
}

/// Checks every value of a point (finite, sizes >= 0, transition x in [0, 1]).
#[inline]
pub(crate) fn check_point(p: &Point) -> Result<(), Problem> {
    check_vec3(p.position, &POSITION_NAMES, Rule::Any)?;
    let vectors = [
        (p.curve_in, &CURVE_IN_NAMES, Rule::Any),
        (p.curve_out, &CURVE_OUT_NAMES, Rule::Any),
        (p.size, &SIZE_NAMES, Rule::NonNegative),
        (p.rotation, &ROTATION_NAMES, Rule::Any),
    ];
    for (v, names, rule) in vectors {
        if let Some(v) = v {
            check_vec3(v, names, rule)?;
        }
    }
    for (v, names) in [
        (p.transition_in, &TRANSITION_IN_NAMES),
        (p.transition_out, &TRANSITION_OUT_NAMES),
    ] {
        if let Some(v) = v {
            check_transition(v, names)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_from_names_a_lower_existing_other_piece() {
        assert_eq!(check_from(3, 1, true), Ok(()));
        // The piece itself is named as such, even though it exists.
        assert!(check_from(3, 3, true).unwrap_err().contains("itself"));
        assert!(check_from(3, 1, false).unwrap_err().contains("names no piece"));
        assert!(check_from(3, 5, true).unwrap_err().contains("not a lower id"));
    }

    #[test]
    fn each_tail_rule_names_its_field() {
        let rotation = Some(Vec3::new(f32::NAN, 0.0, 0.0));
        let size = Some(Vec3::new(1.0, -1.0, 0.0));
        let sides = Some(2);
        let affects = Some(vec![4, 4]);
        let ok = TailRef {
            rotation: &None,
            size: &Some(Vec3::new(1.0, 1.0, 0.0)),
            shape: &None,
            sides: &Some(3),
            mode: &None,
            affects: &Some(vec![1, 2]),
            properties: &None,
        };
        assert_eq!(check_tail(&ok), Ok(()));
        let field = |t: TailRef<'_>| check_tail(&t).unwrap_err().describe().1;
        assert_eq!(
            field(TailRef {
                rotation: &rotation,
                ..ok
            }),
            "rotation.x"
        );
        assert_eq!(field(TailRef { size: &size, ..ok }), "size.y");
        assert_eq!(field(TailRef { sides: &sides, ..ok }), "sides");
        assert_eq!(
            field(TailRef {
                affects: &affects,
                ..ok
            }),
            "affects"
        );
    }
}
