//! Inheritance resolution (docs/spec/RULES.md §4.2) and the effective values a user of
//! the geometry needs.

use std::collections::HashMap;

use crate::error::{Error, ErrorKind, Result};
use crate::model::{Document, Mode, Piece, Point, Shape, Vec3};
use crate::properties::{Properties, Value};
use crate::rules::{check_from, NO_POINTS, NO_SHAPE, NO_SIZE};

/// A piece with every inheritable field filled in from its `from` chain.
#[derive(Clone, Debug, PartialEq)]
pub struct ResolvedPiece {
    /// The piece's id.
    pub id: u32,
    /// The piece it inherited from, as stated.
    pub from: Option<u32>,
    /// The path: at least one point.
    pub points: Vec<Point>,
    /// Piece rotation, when stated anywhere along the chain.
    pub rotation: Option<Vec3>,
    /// Cross-section size.
    pub size: Vec3,
    /// Cross-section shape.
    pub shape: Shape,
    /// Number of sides.
    pub sides: Option<u32>,
    /// Mode as stated (see [`ResolvedPiece::effective_mode`]).
    pub mode: Option<Mode>,
    /// Affected piece ids.
    pub affects: Option<Vec<u32>>,
    /// Properties (an explicit empty blob on a derived piece stays empty).
    pub properties: Option<Properties>,
}

impl ResolvedPiece {
    /// `p` with the fields it does not state taken from its resolved
    /// `base` (the piece its `from` names; `None` for a piece without
    /// `from`): what [`resolve`] does for each piece, for callers that see
    /// pieces one at a time.
    ///
    /// # Errors
    /// `validation` when the piece has no points, size or shape after
    /// inheritance.
    pub fn inherit(p: &Piece, base: Option<&ResolvedPiece>) -> Result<ResolvedPiece> {
        resolve_one(p, base).map_err(|m| Error::new(ErrorKind::Validation, format!("piece {}: {m}", p.id)).piece(p.id))
    }

    /// The mode, `add` when not stated.
    pub fn effective_mode(&self) -> Mode {
        self.mode.unwrap_or_default()
    }

    /// The piece rotation, zero when not stated.
    pub fn effective_piece_rotation(&self) -> Vec3 {
        self.rotation.unwrap_or_default()
    }

    /// Rotation of point `i`: its own, else the piece's, else zero. `None`
    /// when there is no such point.
    pub fn effective_rotation(&self, i: usize) -> Option<Vec3> {
        let p = self.points.get(i)?;
        Some(p.rotation.or(self.rotation).unwrap_or_default())
    }

    /// Size of point `i`: its own, else the piece's. `None` when there is no
    /// such point.
    pub fn effective_size(&self, i: usize) -> Option<Vec3> {
        let p = self.points.get(i)?;
        Some(p.size.unwrap_or(self.size))
    }
}

/// A document whose pieces are resolved, in ascending id order.
#[derive(Clone, Debug, PartialEq)]
pub struct ResolvedDocument {
    /// `(major, minor)`.
    pub version: (u16, u16),
    /// Resolved pieces in ascending id order.
    pub pieces: Vec<ResolvedPiece>,
    /// Root properties.
    pub properties: Option<Properties>,
}

fn invalid(id: u32, index: usize, message: String) -> Error {
    Error::new(ErrorKind::Validation, format!("piece {id}: {message}"))
        .piece(id)
        .path(format!("pieces[{index}]"))
}

/// Resolves inheritance: for each piece with `from`, the fields it does not
/// state are copied whole from its (resolved) base.
///
/// ```
/// # let bytes = std::fs::read("tests/data/conformance/valid/inherit_chain.sskb").unwrap();
/// let doc = sskb::decode_slice(&bytes)?;
/// let resolved = sskb::resolve(&doc)?;
/// for piece in &resolved.pieces {
///     println!("{}: {} points, {:?}", piece.id, piece.points.len(), piece.effective_mode());
/// }
/// # Ok::<(), sskb::Error>(())
/// ```
///
/// # Errors
/// `validation` when ids repeat, a `from` names a missing, higher or the
/// same id, or a resolved piece lacks points, size or shape.
pub fn resolve(doc: &Document) -> Result<ResolvedDocument> {
    let mut order: Vec<usize> = (0..doc.pieces.len()).collect();
    order.sort_by_key(|&i| doc.pieces[i].id);
    if let Some(w) = order.windows(2).find(|w| doc.pieces[w[0]].id == doc.pieces[w[1]].id) {
        let id = doc.pieces[w[1]].id;
        return Err(invalid(id, w[1], format!("id {id} is used by more than one piece")));
    }
    let index_of: HashMap<u32, usize> = order.iter().map(|&i| (doc.pieces[i].id, i)).collect();
    for &i in &order {
        let p = &doc.pieces[i];
        if let Some(f) = p.from {
            check_from(p.id, f, index_of.contains_key(&f)).map_err(|m| invalid(p.id, i, m))?;
        }
    }
    // Ascending id order: a base (lower id) is resolved before its children.
    let mut resolved: Vec<ResolvedPiece> = Vec::with_capacity(order.len());
    let mut slot: HashMap<u32, usize> = HashMap::with_capacity(order.len());
    for &i in &order {
        let p = &doc.pieces[i];
        let base = p.from.and_then(|f| slot.get(&f)).map(|&k| &resolved[k]);
        let r = resolve_one(p, base).map_err(|m| invalid(p.id, i, m))?;
        slot.insert(p.id, resolved.len());
        resolved.push(r);
    }
    Ok(ResolvedDocument {
        version: doc.version,
        pieces: resolved,
        properties: doc.properties.clone(),
    })
}

/// Inheritance on a document's tree (the form [`crate::parse_ssk_value`]
/// and [`Document::to_value`] give), in place: in ascending id order, a
/// piece with `from` takes each inheritable field it lacks from its
/// already resolved base, as the reference's `resolve` does. Values are
/// copied as they are, so integers stay integers. Pieces whose `id` or
/// `from` is not an integer, or whose base is missing, are left as they
/// are: run it on a tree that [`Document::from_value`] and
/// [`crate::validate`] accepted.
///
/// ```
/// let mut tree = sskb::parse_ssk_value(
///     "pieces:\n- {id: 0, points: [{x: 0, y: 0, z: 0}], size: {x: 1, y: 1, z: 1}, shape: circle}\n- {id: 1, from: 0, shape: ngon, sides: 5}\n",
/// )?;
/// sskb::resolve_tree(&mut tree);
/// let pieces = tree.get("pieces").unwrap();
/// let sskb::Value::Sequence(pieces) = pieces else { unreachable!() };
/// assert_eq!(pieces[1].get("size"), pieces[0].get("size"));
/// # Ok::<(), sskb::Error>(())
/// ```
pub fn resolve_tree(tree: &mut Value) {
    let int = |v: Option<&Value>| match v {
        Some(Value::Int(i)) => Some(*i),
        _ => None,
    };
    let Value::Mapping(root) = tree else { return };
    let Some((_, Value::Sequence(pieces))) = root.iter_mut().find(|(k, _)| k == "pieces") else {
        return;
    };
    let by_id: HashMap<i64, usize> = pieces
        .iter()
        .enumerate()
        .filter_map(|(i, p)| int(p.get("id")).map(|id| (id, i)))
        .collect();
    let mut order: Vec<(i64, usize)> = by_id.iter().map(|(id, i)| (*id, *i)).collect();
    order.sort_unstable();
    for (_, i) in order {
        let Some(base) = int(pieces[i].get("from")).and_then(|f| by_id.get(&f).copied()) else {
            continue;
        };
        let inherited: Vec<(String, Value)> = Piece::INHERITED_FIELDS
            .iter()
            .filter(|k| pieces[i].get(k).is_none())
            .filter_map(|k| pieces[base].get(k).map(|v| ((*k).to_owned(), v.clone())))
            .collect();
        if let Value::Mapping(m) = &mut pieces[i] {
            m.extend(inherited);
        }
    }
}

fn resolve_one(p: &Piece, base: Option<&ResolvedPiece>) -> std::result::Result<ResolvedPiece, String> {
    let mut piece = p.clone();
    if let Some(base) = base {
        piece.inherit(Piece::from(base));
    }
    let points = piece.points.filter(|p| !p.is_empty()).ok_or(NO_POINTS)?;
    Ok(ResolvedPiece {
        id: piece.id,
        from: piece.from,
        points,
        rotation: piece.rotation,
        size: piece.size.ok_or(NO_SIZE)?,
        shape: piece.shape.ok_or(NO_SHAPE)?,
        sides: piece.sides,
        mode: piece.mode,
        affects: piece.affects,
        properties: piece.properties,
    })
}

/// The piece as stored with every field it resolved to stated.
impl From<&ResolvedPiece> for Piece {
    fn from(r: &ResolvedPiece) -> Piece {
        Piece {
            id: r.id,
            from: r.from,
            points: Some(r.points.clone()),
            rotation: r.rotation,
            size: Some(r.size),
            shape: Some(r.shape),
            sides: r.sides,
            mode: r.mode,
            affects: r.affects.clone(),
            properties: r.properties.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Document {
        crate::parse_ssk(text).unwrap()
    }

    /// A piece takes each field it does not state from its resolved base,
    /// whole; what it states wins; the base may come later in the file.
    #[test]
    fn inheritance_fills_what_is_not_stated() {
        let d = doc("pieces:\n- id: 5\n  from: 2\n  size: {x: 9, y: 9, z: 0}\n- id: 2\n  from: 1\n  mode: subtract\n  affects: [1]\n- id: 1\n  points: [{x: 0, y: 0, z: 0}, {x: 0, y: 0, z: 3}]\n  size: {x: 1, y: 2, z: 0}\n  rotation: {x: 0, y: 0, z: 45}\n  shape: ngon\n  sides: 5\n");
        let r = resolve(&d).unwrap();
        let ids: Vec<u32> = r.pieces.iter().map(|p| p.id).collect();
        assert_eq!(ids, [1, 2, 5]);
        let (base, mid, top) = (&r.pieces[0], &r.pieces[1], &r.pieces[2]);
        assert_eq!(base.effective_mode(), Mode::Add);
        assert_eq!(mid.effective_mode(), Mode::Subtract);
        assert_eq!(top.effective_mode(), Mode::Subtract, "mode is inherited");
        assert_eq!(top.affects.as_deref(), Some(&[1][..]));
        assert_eq!(top.points, base.points);
        assert_eq!((top.shape, top.sides), (base.shape, Some(5)));
        assert_eq!(top.size, crate::Vec3 { x: 9.0, y: 9.0, z: 0.0 });
        assert_eq!(top.rotation, base.rotation);
        assert_eq!(top.effective_size(1), Some(top.size));
        assert_eq!(top.effective_rotation(2), None);
    }

    /// Every refusal names the piece.
    #[test]
    fn refusals_name_the_piece() {
        for (text, piece, words) in [
            ("pieces:\n- id: 1\n  from: 7\n", 1, "7"),
            ("pieces:\n- id: 1\n  from: 1\n", 1, "itself"),
            (
                "pieces:\n- id: 3\n  points: [{x: 0, y: 0, z: 0}]\n  size: {x: 1, y: 1, z: 1}\n  shape: circle\n- id: 3\n  from: 3\n",
                3,
                "more than one piece",
            ),
        ] {
            let e = resolve(&doc(text)).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Validation, "{text}");
            assert_eq!(e.piece_id(), Some(piece), "{text}: {e}");
            assert!(e.message().contains(words), "{text}: {e}");
        }
    }
}
