#[path = "../benches/common/grid.rs"]
mod grid;
fn main() {
    let doc = grid::grid_document(1, 40, 25);
    let r = sskb::resolve(&doc).unwrap();
    let mut bad = 0;
    for p in &r.pieces {
        if let Some(m) = sskb::mesh::tessellate(p, 32) {
            if !m.is_closed() || m.volume() <= 0.0 {
                bad += 1;
                if bad < 5 {
                    eprintln!("piece {} closed {} volume {} {:?}", p.id, m.is_closed(), m.volume(), p);
                }
            }
        }
    }
    eprintln!("bad {bad}");
    let mut mesher = sskb::mesh::Mesher::new(32);
    for p in &doc.pieces {
        mesher.push(p).unwrap();
    }
    let t = std::time::Instant::now();
    let r = mesher.combined();
    eprintln!(
        "{:?} {:?}",
        r.as_ref().map(|m| (m.triangles.len(), m.is_closed(), m.volume())),
        t.elapsed()
    );
}
#[allow(dead_code)]
fn unused() {}
