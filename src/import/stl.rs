//! STL in, binary and ASCII, in the file's own units: millimetres, Z up,
//! as slicers and CAD programs write it. Facet normals are ignored (the
//! winding gives the side).

use super::{bad, Soup};
use crate::error::{ErrorKind, Result};
use crate::Error;

/// Whether the bytes are binary STL: 84 + 50 × count bytes exactly, which
/// an ASCII file (`solid …`) practically never is.
fn is_binary(bytes: &[u8]) -> bool {
    if bytes.len() < 84 {
        return false;
    }
    let n = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as u64;
    n.checked_mul(50).and_then(|x| x.checked_add(84)) == Some(bytes.len() as u64)
        || !bytes.trim_ascii_start().starts_with(b"solid")
}

pub(super) fn read(bytes: &[u8], soup: &mut Soup) -> Result<()> {
    if is_binary(bytes) {
        binary(bytes, soup)
    } else {
        ascii(bytes, soup)
    }
}

fn binary(bytes: &[u8], soup: &mut Soup) -> Result<()> {
    if bytes.len() < 84 {
        return Err(Error::new(ErrorKind::Truncated, "a binary STL shorter than its 84-byte header").at(0));
    }
    let n = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as usize;
    let have = (bytes.len() - 84) / 50;
    if n > have {
        return Err(Error::new(
            ErrorKind::CountExceedsRemaining,
            format!("the header counts {n} triangles but the file holds {have}"),
        )
        .at(80));
    }
    soup.positions.reserve(3 * n);
    soup.triangles.reserve(n);
    for t in 0..n {
        let at = 84 + 50 * t + 12;
        let mut tri = [0u32; 3];
        for (k, slot) in tri.iter_mut().enumerate() {
            let f = |c: usize| {
                let o = at + 12 * k + 4 * c;
                f64::from(f32::from_le_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]]))
            };
            let p = [f(0), f(1), f(2)];
            if p.iter().any(|x| !x.is_finite()) {
                return Err(Error::new(
                    ErrorKind::NonFinite,
                    format!("triangle {t} has a vertex that is not finite"),
                )
                .at((at + 12 * k) as u64));
            }
            *slot = soup.vertex(p)?;
        }
        soup.triangles.push(tri);
    }
    Ok(())
}

fn ascii(bytes: &[u8], soup: &mut Soup) -> Result<()> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        bad("an STL that is neither binary (84 + 50 × count bytes) nor ASCII text").at(e.valid_up_to() as u64)
    })?;
    let mut corners: Vec<u32> = Vec::with_capacity(3);
    let mut in_loop = false;
    for (ln, line) in text.lines().enumerate() {
        let mut words = line.split_ascii_whitespace();
        let Some(first) = words.next() else { continue };
        let here = |m: String| bad(format!("line {}: {m}", ln + 1));
        match first {
            "vertex" => {
                if !in_loop {
                    return Err(here("a vertex outside 'outer loop'".into()));
                }
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
                corners.push(soup.vertex(p)?);
            }
            "outer" => {
                in_loop = true;
                corners.clear();
            }
            "endloop" => {
                in_loop = false;
                // A loop of more than three corners (some writers): a fan.
                if corners.len() < 3 {
                    return Err(here(format!("a facet with {} vertices", corners.len())));
                }
                for i in 1..corners.len() - 1 {
                    soup.triangles.push([corners[0], corners[i], corners[i + 1]]);
                }
            }
            "solid" | "facet" | "endfacet" | "endsolid" => {}
            other => return Err(here(format!("unexpected '{other}' in an ASCII STL"))),
        }
    }
    if in_loop {
        return Err(Error::new(ErrorKind::Truncated, "the ASCII STL ends inside a facet"));
    }
    Ok(())
}
