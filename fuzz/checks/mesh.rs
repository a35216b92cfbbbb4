//! The mesh fuzz target's checks, shared with `tests/fuzz_seeds.rs`.
//!
//! Any bytes that decode to a valid document: meshing at a low resolution
//! never panics, every piece's mesh is closed, and the booleans succeed
//! with a closed solid (or an empty one) of no negative volume.

use sskb::mesh::{tessellate, Mesher};

/// Runs every check on `data`; panics on a failure.
pub fn check(data: &[u8]) {
    let Ok(doc) = sskb::decode_slice(data) else { return };
    if sskb::validate(&doc).is_err() || doc.pieces.len() > 64 {
        return;
    }
    let n = 3 + u32::from(data.last().copied().unwrap_or(0) % 6);
    let resolved = sskb::resolve(&doc).expect("a valid document resolves");
    for p in &resolved.pieces {
        if p.points.len() > 256 {
            return;
        }
        match tessellate(p, n) {
            Ok(Some(m)) => assert!(m.is_closed(), "piece {} is not closed", p.id),
            Ok(None) => {}
            // Too many sides for the mesher: a limit, never an allocation.
            Err(e) => {
                assert_eq!(e.kind(), sskb::ErrorKind::LimitExceeded, "{e}");
                return;
            }
        }
    }
    let mut mesher = Mesher::new(n);
    for p in &doc.pieces {
        mesher.push(p).expect("a valid document's pieces resolve");
    }
    let m = mesher.combined().expect("a valid document meshes");
    assert!(m.is_empty() || m.is_closed(), "the combined solid is not closed");
    // A sheet (a zero radius) has no volume, and its signed volume is only
    // what its overlapping faces leave, of either sign: the rest are solids.
    let sheets = mesher.parts().iter().any(|p| p.sheet);
    if let (Some((lo, hi)), false) = (m.bounds(), sheets) {
        let size = (0..3).map(|c| hi[c] - lo[c]).fold(0.0f64, f64::max);
        assert!(m.volume() >= -1e-9 * size.powi(3), "negative volume {}", m.volume());
    }
}
