//! The encoder's units, the mirror of `wire`: checks on values before any
//! byte is written, and writers for the header, a piece head, a point, a
//! piece tail and a blob.

use bytes::BufMut;

use crate::model::{Point, Shape, TailRef, Vec2, Vec3};
use crate::wire::bit;

impl TailRef<'_> {
    /// The field_mask bits 1-7 this tail states.
    pub fn mask(&self) -> u16 {
        [
            (self.rotation.is_some(), bit::ROTATION),
            (self.size.is_some(), bit::SIZE),
            (self.shape.is_some(), bit::SHAPE),
            (self.sides.is_some(), bit::SIDES),
            (self.mode.is_some(), bit::MODE),
            (self.affects.is_some(), bit::AFFECTS),
            (self.properties.is_some(), bit::PROPERTIES),
        ]
        .iter()
        .filter(|(present, _)| *present)
        .fold(0, |m, (_, b)| m | b)
    }
}

impl crate::model::PieceEnd {
    /// The `field_mask` an inherited piece with these fields after its
    /// points states (bit 0 when it states its points too): what a
    /// [`PieceStart`](crate::PieceStart) written as an event needs.
    ///
    /// ```
    /// let end = sskb::PieceEnd { size: Some(sskb::Vec3::new(1.0, 1.0, 1.0)), ..Default::default() };
    /// assert_eq!(end.field_mask(true), 0b101);
    /// ```
    pub fn field_mask(&self, points: bool) -> u16 {
        self.tail().mask() | if points { bit::POINTS } else { 0 }
    }
}

pub(crate) fn put_header<B: BufMut + ?Sized>(out: &mut B, version: (u16, u16), piece_count: u32) {
    out.put_slice(crate::wire::MAGIC);
    out.put_u16_le(version.0);
    out.put_u16_le(version.1);
    out.put_u32_le(piece_count);
}

/// id, has_from, [from, field_mask], [point_count].
pub(crate) fn put_head<B: BufMut + ?Sized>(
    out: &mut B,
    id: u32,
    from: Option<u32>,
    mask: u16,
    point_count: Option<u32>,
) {
    out.put_u32_le(id);
    match from {
        Some(f) => {
            out.put_u8(1);
            out.put_u32_le(f);
            out.put_u16_le(mask);
        }
        None => out.put_u8(0),
    }
    if let Some(n) = point_count {
        out.put_u32_le(n);
    }
}

fn put_vec3<B: BufMut + ?Sized>(out: &mut B, v: Vec3) {
    out.put_f32_le(v.x);
    out.put_f32_le(v.y);
    out.put_f32_le(v.z);
}

fn put_vec2<B: BufMut + ?Sized>(out: &mut B, v: Vec2) {
    out.put_f32_le(v.x);
    out.put_f32_le(v.y);
}

fn put_opt<B: BufMut + ?Sized, T: Copy>(out: &mut B, v: Option<T>, put: impl Fn(&mut B, T)) {
    match v {
        Some(v) => {
            out.put_u8(1);
            put(out, v);
        }
        None => out.put_u8(0),
    }
}

pub(crate) fn put_point<B: BufMut + ?Sized>(out: &mut B, p: &Point) {
    put_vec3(out, p.position);
    for v in [p.curve_in, p.curve_out, p.size, p.rotation] {
        put_opt(out, v, |o, v| put_vec3(o, v));
    }
    for v in [p.transition_in, p.transition_out] {
        put_opt(out, v, |o, v| put_vec2(o, v));
    }
}

pub(crate) fn put_blob<B: BufMut + ?Sized>(out: &mut B, raw: &[u8]) {
    out.put_u32_le(raw.len() as u32);
    out.put_slice(raw);
}

/// Everything after the points. For a piece without `from`: presence bytes,
/// mode always (absent = add), a blob always (absent = empty); for an
/// inherited piece, exactly the fields it states.
pub(crate) fn put_tail<B: BufMut + ?Sized>(out: &mut B, inherited: bool, t: &TailRef<'_>) {
    let put_affects = |out: &mut B, ids: &[u32]| {
        out.put_u32_le(ids.len() as u32);
        for id in ids {
            out.put_u32_le(*id);
        }
    };
    if !inherited {
        put_opt(out, *t.rotation, |o, v| put_vec3(o, v));
        put_vec3(out, t.size.unwrap_or_default());
        out.put_u8(t.shape.unwrap_or(Shape::Circle).to_byte());
        put_opt(out, *t.sides, |o, n| o.put_u32_le(n));
        out.put_u8(t.mode.unwrap_or_default().to_byte());
        match t.affects {
            Some(ids) => {
                out.put_u8(1);
                put_affects(out, ids);
            }
            None => out.put_u8(0),
        }
        put_blob(out, t.properties.as_ref().map_or(&[][..], |p| p.raw()));
        return;
    }
    if let Some(r) = *t.rotation {
        put_vec3(out, r);
    }
    if let Some(s) = *t.size {
        put_vec3(out, s);
    }
    if let Some(s) = *t.shape {
        out.put_u8(s.to_byte());
    }
    if let Some(n) = *t.sides {
        out.put_u32_le(n);
    }
    if let Some(m) = *t.mode {
        out.put_u8(m.to_byte());
    }
    if let Some(ids) = t.affects {
        put_affects(out, ids);
    }
    if let Some(p) = t.properties {
        put_blob(out, p.raw());
    }
}

#[cfg(test)]
mod tests {
    use crate::model::Piece;

    /// The one list of tail fields and the field mask agree: stating only
    /// the k-th inheritable field sets bit k.
    #[test]
    fn each_tail_field_sets_its_own_mask_bit() {
        let values = [
            ("rotation", "{x: 0, y: 0, z: 1}"),
            ("size", "{x: 1, y: 1, z: 1}"),
            ("shape", "ngon"),
            ("sides", "5"),
            ("mode", "subtract"),
            ("affects", "[0]"),
            ("properties", "{a: 1}"),
        ];
        for (k, field) in Piece::INHERITED_FIELDS.iter().enumerate().skip(1) {
            let value = values.iter().find(|(name, _)| name == field).map(|(_, v)| v);
            let value = value.unwrap_or_else(|| panic!("no test value for {field}"));
            let text = format!(
                "pieces:\n- id: 0\n  points: [{{x: 0, y: 0, z: 0}}]\n  size: {{x: 1, y: 1, z: 1}}\n  shape: circle\n- id: 1\n  from: 0\n  {field}: {value}\n"
            );
            let doc = crate::parse_ssk(&text).unwrap();
            assert_eq!(doc.pieces[1].tail().mask(), 1 << k, "{field}");
        }
    }
}
