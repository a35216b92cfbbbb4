//! Writes the meshing benches' grid documents (`benches/common/grid.rs`)
//! as `.sskb`, for timing other tools on the same input:
//!
//! ```text
//! cargo run --release --example mesh_grid -- OUT.sskb [SEED] [COLS] [ROWS]
//! ```
//!
//! The defaults (seed 1, 40 × 25) make the 1,000-piece document of
//! `cargo bench --bench mesh`.

#[path = "../benches/common/grid.rs"]
mod grid;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "grid.sskb".into());
    let seed = args.next().map(|s| s.parse()).transpose()?.unwrap_or(1);
    let cols = args.next().map(|s| s.parse()).transpose()?.unwrap_or(40);
    let rows = args.next().map(|s| s.parse()).transpose()?.unwrap_or(25);
    let doc = grid::grid_document(seed, cols, rows);
    sskb::validate(&doc)?;
    std::fs::write(&path, sskb::encode(&doc)?)?;
    eprintln!("{path}: {} pieces", doc.pieces.len());
    Ok(())
}
