//! Pieces in, meshes out, as they are decoded: each piece is resolved
//! against its base and tessellated on arrival; what is kept is its mesh,
//! and the resolved piece only when a later piece may inherit from it.

use std::collections::{HashMap, HashSet};

use super::tessellate::tessellate_with_rings;
use super::{combine, contributions, visible_parts, Mesh, Part, SceneNode};
use crate::error::{Error, ErrorKind, Result};
use crate::{Piece, ResolvedPiece};

/// Tessellates pieces as they come and combines them at the end.
///
/// ```
/// let doc = sskb::parse_ssk("pieces:\n- id: 0\n  points: [{x: 0, y: 0, z: 0}, {x: 0, y: 0, z: 10}]\n  size: {x: 5, y: 5, z: 0}\n  shape: circle\n")?;
/// let mut mesher = sskb::mesh::Mesher::new(16);
/// for piece in &doc.pieces {
///     mesher.push(piece)?;
/// }
/// let solid = mesher.combined()?;
/// assert!(solid.volume() > 700.0 && solid.is_closed());
/// # Ok::<(), sskb::Error>(())
/// ```
#[derive(Debug)]
pub struct Mesher {
    resolution: u32,
    /// Ids whose resolved piece a later piece inherits from (`None`: keep
    /// every piece, not knowing).
    bases: Option<HashSet<u32>>,
    kept: HashMap<u32, ResolvedPiece>,
    /// Pieces whose base has not arrived yet, by base id.
    waiting: HashMap<u32, Vec<Piece>>,
    parts: Vec<Part>,
    properties: HashMap<u32, Option<crate::Properties>>,
}

impl Mesher {
    /// A mesher at `resolution` (3 to 1024; circle sections have that
    /// many vertices).
    pub fn new(resolution: u32) -> Mesher {
        Mesher {
            resolution,
            bases: None,
            kept: HashMap::new(),
            waiting: HashMap::new(),
            parts: Vec::new(),
            properties: HashMap::new(),
        }
    }

    /// Keeps the resolved pieces (their points) only of these ids: the
    /// `from` of every piece, collected by an earlier pass.
    #[must_use]
    pub fn keeping_bases(mut self, ids: HashSet<u32>) -> Mesher {
        self.bases = Some(ids);
        self
    }

    /// Resolves `piece` against its base (or waits for the base) and
    /// tessellates it.
    ///
    /// # Errors
    /// `validation` when inheritance leaves it without points, size or
    /// shape; `limit_exceeded` for an n-gon of more sides than
    /// [`MAX_SIDES`](super::MAX_SIDES).
    pub fn push(&mut self, piece: &Piece) -> Result<()> {
        if let Some(f) = piece.from {
            if !self.kept.contains_key(&f) {
                self.waiting.entry(f).or_default().push(piece.clone());
                return Ok(());
            }
        }
        let resolved = ResolvedPiece::inherit(piece, piece.from.and_then(|f| self.kept.get(&f)))?;
        self.push_resolved(resolved)
    }

    /// Tessellates an already resolved piece, then the pieces that were
    /// waiting for it (a worklist, not recursion: a long chain of pieces
    /// listed before their bases must not exhaust the stack).
    ///
    /// # Errors
    /// As [`Mesher::push`], for pieces that were waiting for this one.
    pub fn push_resolved(&mut self, piece: ResolvedPiece) -> Result<()> {
        let mut ready = vec![piece];
        while let Some(piece) = ready.pop() {
            let id = piece.id;
            self.take(piece)?;
            for child in self.waiting.remove(&id).unwrap_or_default() {
                let base = self.kept.get(&id);
                ready.push(ResolvedPiece::inherit(&child, base)?);
            }
        }
        Ok(())
    }

    fn take(&mut self, piece: ResolvedPiece) -> Result<()> {
        if let Some(t) = tessellate_with_rings(&piece, self.resolution)? {
            self.parts.push(Part {
                id: piece.id,
                mode: piece.effective_mode(),
                affects: piece.affects.clone(),
                mesh: t.mesh,
                ring: t.ring,
                sheet: t.sheet,
                resolution: self.resolution,
            });
            self.properties.insert(piece.id, piece.properties.clone());
        }
        let id = piece.id;
        if self.bases.as_ref().is_none_or(|b| b.contains(&id)) {
            self.kept.insert(id, piece);
        }
        Ok(())
    }

    /// The tessellated pieces so far (ignored pieces have none).
    pub fn parts(&self) -> &[Part] {
        &self.parts
    }

    /// The resolved properties of a tessellated piece.
    pub fn properties(&self, id: u32) -> Option<&crate::Properties> {
        self.properties.get(&id).and_then(Option::as_ref)
    }

    fn check_done(&self) -> Result<()> {
        match self.waiting.keys().min() {
            Some(f) => Err(Error::new(
                ErrorKind::Validation,
                format!("`from` {f} names no piece that was given"),
            )),
            None => Ok(()),
        }
    }

    /// The combined solid.
    ///
    /// # Errors
    /// `validation` when a piece waits for a base never given; `mesh`
    /// when the booleans fail.
    pub fn combined(&self) -> Result<Mesh> {
        self.check_done()?;
        combine(&self.parts)
    }

    /// The glTF scene: one node `sskb` with the combined solid, or with
    /// `per_piece` one node per contributing piece (`piece <id>`, its
    /// resolved properties as JSON `extras`).
    ///
    /// # Errors
    /// As [`Mesher::combined`]; `malformed_properties` for a blob that
    /// does not parse (raw properties).
    pub fn scene(&self, per_piece: bool) -> Result<Vec<SceneNode>> {
        if !per_piece {
            return Ok(vec![SceneNode {
                name: "sskb".into(),
                mesh: self.combined()?,
                extras: None,
            }]);
        }
        self.contributions()?
            .into_iter()
            .map(|(id, mesh)| {
                let extras = match self.properties(id) {
                    Some(p) if !p.is_empty() => {
                        let v = p.parse().map_err(|e| e.path(format!("pieces[{id}].properties")))?;
                        Some(crate::json::value_json(&v).to_string())
                    }
                    _ => None,
                };
                Ok(SceneNode {
                    name: format!("piece {id}"),
                    mesh,
                    extras,
                })
            })
            .collect()
    }

    /// The parts whose union is [`Mesher::combined`], each with its
    /// piece's id and mode, in ascending id (see [`visible_parts`]).
    ///
    /// # Errors
    /// As [`Mesher::combined`].
    pub fn visible(&self) -> Result<Vec<(u32, crate::Mode, Mesh)>> {
        self.check_done()?;
        let modes: HashMap<u32, crate::Mode> = self.parts.iter().map(|p| (p.id, p.mode)).collect();
        Ok(visible_parts(&self.parts)?
            .into_iter()
            .map(|(id, m)| (id, modes.get(&id).copied().unwrap_or_default(), m))
            .collect())
    }

    /// Each contributing piece's final part, by id.
    ///
    /// # Errors
    /// As [`Mesher::combined`].
    pub fn contributions(&self) -> Result<Vec<(u32, Mesh)>> {
        self.check_done()?;
        contributions(&self.parts)
    }
}
