//! Each piece of a document as the mesher sees it, one line each: its
//! tessellated triangles, signed volume, whether the mesh is closed and
//! whether its surface crosses itself (a sweep that folds, which the
//! mesher rebuilds before the booleans). Used by
//! `tests/data/mesh/differential.py` to explain where the reference's
//! volume differs.
//!
//!     cargo run --release --example mesh_pieces -- MODEL.ssk|MODEL.sskb [RESOLUTION]

fn main() -> Result<(), sskb::Error> {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: mesh_pieces MODEL [RESOLUTION]");
    let n: u32 = args.next().map_or(32, |s| s.parse().expect("a resolution"));
    let data = std::fs::read(&path)?;
    let doc = if path.ends_with(".sskb") {
        sskb::decode_slice(&data)?
    } else {
        sskb::parse_ssk(&String::from_utf8_lossy(&data))?
    };
    for p in &sskb::resolve(&doc)?.pieces {
        let Some(m) = sskb::mesh::tessellate(p, n)? else {
            println!("{} ignored", p.id);
            continue;
        };
        let folds = m.volume() > 0.0 && sskb::mesh::crosses_itself(&m)?;
        println!(
            "{} triangles {} volume {:.4} closed {} folds {folds}",
            p.id,
            m.triangles.len(),
            m.volume(),
            m.is_closed(),
        );
    }
    Ok(())
}
