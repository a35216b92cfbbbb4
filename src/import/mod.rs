//! Meshes into models (feature `import`): glTF, STL and OBJ triangle
//! meshes read into one welded triangle soup in model units (millimetres,
//! Z up), fitted with swept pieces, and scored the way the reference
//! scores an import: coverage, overfill and its weighted score
//! (docs/import.md).

mod cells;
mod fit;
mod gltf;
mod obj;
mod score;
mod search;
mod simplify;
mod stl;
mod voxels;

use std::path::Path;

use crate::error::{ErrorKind, Result};
use crate::mesh::Mesh;
use crate::Error;

pub use fit::{fit, score_model, FitOptions, Fitted};
pub use score::{quality_score, Inside, Score, Scorer, Weights};

/// A mesh file's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeshFormat {
    /// glTF 2.0, binary (`.glb`) or JSON (`.gltf`).
    Gltf,
    /// STL, binary or ASCII.
    Stl,
    /// Wavefront OBJ.
    Obj,
}

impl MeshFormat {
    /// The format named by a file's extension (`glb`, `gltf`, `stl`, `obj`,
    /// any case).
    pub fn of(path: &Path) -> Option<MeshFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "glb" | "gltf" => Some(MeshFormat::Gltf),
            "stl" => Some(MeshFormat::Stl),
            "obj" => Some(MeshFormat::Obj),
            _ => None,
        }
    }
}

/// A mesh read from a file: its triangles in model units, vertices welded
/// (equal positions are one vertex) and triangles that collapse to a line
/// or a point dropped; and what was ignored on the way.
#[derive(Clone, Debug, Default)]
pub struct SourceMesh {
    /// The triangles, millimetres, Z up.
    pub mesh: Mesh,
    /// What was read but not used (lines, points), one sentence each.
    pub notes: Vec<String>,
}

/// Triangles as they are read, before welding.
#[derive(Default)]
pub(crate) struct Soup {
    positions: Vec<[f64; 3]>,
    triangles: Vec<[u32; 3]>,
    notes: Vec<String>,
}

impl Soup {
    fn vertex(&mut self, p: [f64; 3]) -> Result<u32> {
        let i = u32::try_from(self.positions.len()).map_err(|_| bad("more than 2³² vertices"))?;
        self.positions.push(p);
        Ok(i)
    }

    fn note(&mut self, n: String) {
        if !self.notes.contains(&n) {
            self.notes.push(n);
        }
    }
}

/// A mesh file that cannot be read.
fn bad(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::MeshInput, message)
}

/// Reads a mesh from bytes. `external` loads a `.gltf` buffer named by a
/// relative `uri` (give one that refuses when there is no directory).
///
/// # Errors
/// `mesh_input` for a file that is not of the format or uses what cannot
/// be read (compressed meshes, sparse accessors), an index out of range,
/// or no triangles; `truncated` and `count_exceeds_remaining` (with the
/// byte offset or JSON path) where a count claims more bytes than there
/// are; `non_finite` for a NaN or infinite position.
pub fn read_mesh(
    bytes: &[u8],
    format: MeshFormat,
    external: &mut dyn FnMut(&str) -> Result<Vec<u8>>,
) -> Result<SourceMesh> {
    welded(soup_of(bytes, format, external)?)
}

/// The triangles of a mesh file, not yet welded.
fn soup_of(bytes: &[u8], format: MeshFormat, external: &mut dyn FnMut(&str) -> Result<Vec<u8>>) -> Result<Soup> {
    let mut soup = Soup::default();
    match format {
        MeshFormat::Gltf => gltf::read(bytes, external, &mut soup)?,
        MeshFormat::Stl => stl::read(bytes, &mut soup)?,
        MeshFormat::Obj => obj::read(bytes, &mut soup)?,
    }
    Ok(soup)
}

/// The soup welded; an error if no triangle has area.
fn welded(soup: Soup) -> Result<SourceMesh> {
    let mesh = weld(soup.positions, &soup.triangles);
    if mesh.triangles.is_empty() {
        return Err(bad("the file has no triangles with area (nothing to fill)"));
    }
    Ok(SourceMesh {
        mesh,
        notes: soup.notes,
    })
}

/// Reads a mesh file, its format from its extension (or its first bytes
/// for a `.glb`), a `.gltf`'s buffers from beside it.
///
/// # Errors
/// As [`read_mesh`]; `io` when a file cannot be read; `usage` when the
/// extension names no mesh format.
pub fn read_mesh_file(path: &Path) -> Result<SourceMesh> {
    let bytes = std::fs::read(path).map_err(|e| Error::from(e).note(format!("reading {}", path.display())))?;
    let format = if gltf::is_glb(&bytes) {
        MeshFormat::Gltf
    } else {
        MeshFormat::of(path).ok_or_else(|| {
            Error::new(
                ErrorKind::Usage,
                format!("{}: not a mesh file name (.glb, .gltf, .stl, .obj)", path.display()),
            )
        })?
    };
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut external = |uri: &str| -> Result<Vec<u8>> {
        // Only files beside the .gltf or below it: no absolute paths, no
        // climbing out, no schemes.
        let rel = Path::new(uri);
        if uri.contains("://")
            || rel.is_absolute()
            || rel.components().any(|c| !matches!(c, std::path::Component::Normal(_)))
        {
            return Err(bad(format!("buffer uri '{uri}' is not a file name beside the .gltf")));
        }
        std::fs::read(dir.join(rel)).map_err(|e| bad(format!("buffer '{uri}' cannot be read: {e}")))
    };
    let soup = soup_of(&bytes, format, &mut external)?;
    // The file's bytes are let go before the soup is welded.
    drop(bytes);
    welded(soup)
}

/// One vertex per distinct position (`-0.0` and `0.0` alike), in order of
/// first use; triangles that use a vertex twice dropped.
fn weld(positions: Vec<[f64; 3]>, triangles: &[[u32; 3]]) -> Mesh {
    let key = |p: &[f64; 3]| p.map(|x| if x == 0.0 { 0u64 } else { x.to_bits() });
    let mut order: Vec<u32> = (0..positions.len() as u32).collect();
    order.sort_by_key(|&i| key(&positions[i as usize]));
    // Each vertex's representative: the least index of its position.
    let mut rep: Vec<u32> = (0..positions.len() as u32).collect();
    for run in order.chunk_by(|&a, &b| key(&positions[a as usize]) == key(&positions[b as usize])) {
        let least = run.iter().copied().min().unwrap_or(run[0]);
        for &i in run {
            rep[i as usize] = least;
        }
    }
    let mut new = vec![u32::MAX; positions.len()];
    let mut out = Mesh::default();
    for t in triangles {
        let t = t.map(|i| rep[i as usize]);
        if t[0] == t[1] || t[1] == t[2] || t[0] == t[2] {
            continue;
        }
        let t = t.map(|i| {
            let slot = &mut new[i as usize];
            if *slot == u32::MAX {
                *slot = out.positions.len() as u32;
                out.positions.push(positions[i as usize]);
            }
            *slot
        });
        out.triangles.push(t);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn welding_joins_equal_positions_and_drops_collapsed_triangles() {
        let p = vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [-0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
        ];
        let m = weld(p, &[[0, 1, 2], [3, 2, 4], [0, 3, 1]]);
        assert_eq!(m.positions.len(), 3);
        assert_eq!(m.triangles, vec![[0, 1, 2], [0, 2, 1]]);
    }
}
