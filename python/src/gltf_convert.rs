//! `sskb.convert(src, dst, resolution=32, per_piece=False)`, as `ssk
//! convert`: `.glb` and `.gltf` (meshed), `.sskb` and `.ssk`, by the
//! destination's extension, from `.sskb` or `.ssk`. The document is
//! validated first; nothing is written when anything fails, and files are
//! replaced atomically.

use std::path::Path;

use sskb::mesh::{Gltf, Mesher};
use sskb::{Document, Error, ErrorKind, Result};

use crate::compat::{write_atomic, write_gltf_files};

fn ext(p: &Path) -> String {
    p.extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase()
}

pub fn read(src: &Path) -> Result<Document> {
    let data = std::fs::read(src)?;
    match ext(src).as_str() {
        "sskb" => sskb::decode_slice(&data),
        "ssk" => {
            let text = String::from_utf8(data)
                .map_err(|e| Error::new(ErrorKind::Structure, format!("input is not valid UTF-8: {e}")))?;
            sskb::parse_ssk(&text)
        }
        other => Err(Error::new(
            ErrorKind::Io,
            format!("unsupported input extension: .{other} (expected .ssk or .sskb)"),
        )),
    }
}

/// What was written.
pub struct Converted {
    pub format: String,
    pub pieces: usize,
    /// Vertices and triangles of the mesh, for glTF output.
    pub vertices: Option<usize>,
    pub triangles: Option<usize>,
    /// Bytes written, for `.sskb` and `.ssk` output.
    pub bytes: Option<usize>,
}

pub fn convert(src: &Path, dst: &Path, resolution: u32, per_piece: bool) -> Result<Converted> {
    if !(sskb::mesh::MIN_RESOLUTION..=sskb::mesh::MAX_RESOLUTION).contains(&resolution) {
        return Err(Error::new(
            ErrorKind::Usage,
            format!("resolution must be 3 to 1024, not {resolution}"),
        ));
    }
    let doc = read(src)?;
    sskb::validate(&doc)?;
    let format = ext(dst);
    let (bytes, mesh) = match format.as_str() {
        "sskb" => (sskb::encode(&doc)?, None),
        "ssk" => (sskb::to_ssk(&doc)?.into_bytes(), None),
        "glb" | "gltf" => {
            let mut mesher = Mesher::new(resolution);
            for p in &doc.pieces {
                mesher.push(p)?;
            }
            let scene = mesher.scene(per_piece)?;
            let gltf = Gltf::new(&scene)?;
            if gltf.triangles == 0 {
                // As the reference: nothing to write is an error.
                return Err(Error::new(ErrorKind::Mesh, "conversion produced empty geometry"));
            }
            let vertices: usize = scene.iter().map(|n| n.mesh.positions.len()).sum();
            let mesh = Some((vertices, gltf.triangles));
            if format == "gltf" {
                write_gltf_files(&gltf, dst)?;
                return Ok(Converted {
                    pieces: doc.pieces.len(),
                    vertices: mesh.map(|m| m.0),
                    triangles: mesh.map(|m| m.1),
                    bytes: None,
                    format,
                });
            }
            (gltf.to_glb()?, mesh)
        }
        other => {
            return Err(Error::new(
                ErrorKind::Io,
                format!("unsupported output extension: .{other} (expected .glb, .gltf, .sskb or .ssk)"),
            ))
        }
    };
    write_atomic(dst, &bytes)?;
    Ok(Converted {
        pieces: doc.pieces.len(),
        vertices: mesh.map(|m| m.0),
        triangles: mesh.map(|m| m.1),
        bytes: mesh.is_none().then_some(bytes.len()),
        format,
    })
}
