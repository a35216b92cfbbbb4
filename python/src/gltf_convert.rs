//! `sskb.convert(src, dst, resolution=32, per_piece=False)`, as `ssk
//! convert`: `.glb` and `.gltf` (meshed), `.sskb` and `.ssk`, by the
//! destination's extension, from `.sskb` or `.ssk`. The document is
//! validated first; nothing is written when anything fails, and files are
//! replaced atomically.

use std::path::{Path, PathBuf};

use sskb::mesh::{Gltf, Mesher};
use sskb::{Document, Error, ErrorKind, Result};

fn ext(p: &Path) -> String {
    p.extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase()
}

fn read(src: &Path) -> Result<Document> {
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

/// Writes `bytes` to `path` through a temporary file beside it.
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let r = std::fs::write(&temp, bytes).and_then(|()| std::fs::rename(&temp, path));
    if r.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    Ok(r?)
}

/// What was written.
pub struct Converted {
    pub output: PathBuf,
    pub format: String,
    pub pieces: usize,
    pub triangles: Option<usize>,
    pub bytes: usize,
}

pub fn convert(src: &Path, dst: &Path, resolution: u32, per_piece: bool) -> Result<Converted> {
    if !(sskb::mesh::MIN_RESOLUTION..=sskb::mesh::MAX_RESOLUTION).contains(&resolution) {
        return Err(Error::new(
            ErrorKind::Io,
            format!("resolution must be 3 to 1024, not {resolution}"),
        ));
    }
    let doc = read(src)?;
    sskb::validate(&doc)?;
    let format = ext(dst);
    let (bytes, triangles) = match format.as_str() {
        "sskb" => (sskb::encode(&doc)?, None),
        "ssk" => (sskb::to_ssk(&doc)?.into_bytes(), None),
        "glb" | "gltf" => {
            let mut mesher = Mesher::new(resolution);
            for p in &doc.pieces {
                mesher.push(p)?;
            }
            let gltf = Gltf::new(&mesher.scene(per_piece)?)?;
            if format == "glb" {
                (gltf.to_glb()?, Some(gltf.triangles))
            } else {
                let bin_path = dst.with_extension("bin");
                let bin_name = bin_path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let json = gltf.to_gltf(&bin_name)?;
                write_atomic(&bin_path, gltf.bin())?;
                (json, Some(gltf.triangles))
            }
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
        output: dst.to_owned(),
        format,
        pieces: doc.pieces.len(),
        triangles,
        bytes: bytes.len(),
    })
}
