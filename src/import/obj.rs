//! Wavefront OBJ in: `v` and `f` (polygons as fans, negative indices
//! counting back), everything else ignored. OBJ has no units or up axis;
//! it is read as the reference reads every mesh and as Blender and most
//! modelling tools write it, metres Y up: `(x, −z, y) · 1000`.

use super::{bad, Soup};
use crate::error::{ErrorKind, Result};
use crate::Error;

pub(super) fn read(bytes: &[u8], soup: &mut Soup) -> Result<()> {
    let text =
        std::str::from_utf8(bytes).map_err(|e| bad("an OBJ that is not UTF-8 text").at(e.valid_up_to() as u64))?;
    let base = soup.positions.len();
    let mut count = 0usize;
    let mut face: Vec<u32> = Vec::new();
    let (mut lines_ignored, mut points_ignored) = (false, false);
    for (ln, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        let mut words = line.split_ascii_whitespace();
        let Some(first) = words.next() else { continue };
        let here = |m: String| bad(format!("line {}: {m}", ln + 1));
        match first {
            "v" => {
                let mut p = [0.0f64; 3];
                for c in &mut p {
                    let w = words
                        .next()
                        .ok_or_else(|| here("a vertex with fewer than 3 numbers".into()))?;
                    *c = w.parse().map_err(|_| here(format!("'{w}' is not a number")))?;
                    if !c.is_finite() {
                        return Err(Error::new(
                            ErrorKind::NonFinite,
                            format!("line {}: a vertex that is not finite", ln + 1),
                        ));
                    }
                }
                soup.vertex([p[0] * 1000.0, -p[2] * 1000.0, p[1] * 1000.0])?;
                count += 1;
            }
            "f" => {
                face.clear();
                for w in words {
                    let v = w.split('/').next().unwrap_or("");
                    let i: i64 = v.parse().map_err(|_| here(format!("'{w}' is not a vertex index")))?;
                    let n = count as i64;
                    let k = match i {
                        1.. if i <= n => i - 1,
                        ..=-1 if -i <= n => n + i,
                        _ => {
                            return Err(here(format!(
                                "vertex index {i} is out of range: {count} vertices so far"
                            )))
                        }
                    };
                    let k = u32::try_from(base as i64 + k).map_err(|_| here("more than 2³² vertices".into()))?;
                    face.push(k);
                }
                if face.len() < 3 {
                    return Err(here(format!("a face with {} vertices", face.len())));
                }
                for i in 1..face.len() - 1 {
                    soup.triangles.push([face[0], face[i], face[i + 1]]);
                }
            }
            "l" => lines_ignored = true,
            "p" => points_ignored = true,
            _ => {}
        }
    }
    if lines_ignored {
        soup.note("lines (l) carry no volume and were ignored".into());
    }
    if points_ignored {
        soup.note("points (p) carry no volume and were ignored".into());
    }
    Ok(())
}
