//! Documents for meshing: pieces of 1–4 points with sizes 1–8 mm on a grid
//! of nodes 20 mm apart, so that neighbours overlap; a fifth of them
//! subtract or intersect. The same documents on every machine.

use sskb::{Document, Mode, Piece, Point, Shape, Vec3};

#[path = "gen.rs"]
#[allow(dead_code)]
mod gen;

use gen::Rng;

/// `cols × rows` pieces, one per grid node.
pub fn grid_document(seed: u64, cols: u32, rows: u32) -> Document {
    let mut rng = Rng::new(seed);
    let mut pieces = Vec::new();
    for id in 0..cols * rows {
        let (gx, gy) = ((id % cols) as f32 * 20.0, (id / cols) as f32 * 20.0);
        let n = rng.range(1, 4);
        let mut at = Vec3::new(gx, gy, 0.0);
        let mut points = Vec::new();
        for k in 0..n {
            let mut p = Point::at(at);
            if k > 0 && rng.range(0, 2) == 0 {
                p.curve_in = Some(Vec3::new(at.x - 4.0 * rng.unit(), at.y + 4.0 * rng.unit(), at.z - 3.0));
            }
            if rng.range(0, 4) == 0 {
                p.size = Some(Vec3::new(
                    1.0 + 7.0 * rng.unit(),
                    1.0 + 7.0 * rng.unit(),
                    8.0 * rng.unit(),
                ));
            }
            points.push(p);
            at = Vec3::new(
                at.x + 12.0 * rng.unit() - 6.0,
                at.y + 12.0 * rng.unit() - 6.0,
                at.z + 5.0 + 10.0 * rng.unit(),
            );
        }
        let shape = if rng.range(0, 1) == 0 {
            Shape::Circle
        } else {
            Shape::Ngon
        };
        let mode = match rng.range(0, 9) {
            0 => Some(Mode::Subtract),
            1 => Some(Mode::Intersect),
            _ => None,
        };
        let affects = (mode.is_some() && id > 0 && rng.range(0, 2) == 0).then(|| vec![id - 1]);
        pieces.push(Piece {
            id,
            points: Some(points),
            rotation: (rng.range(0, 3) == 0).then(|| Vec3::new(0.0, 0.0, 90.0 * rng.unit())),
            size: Some(Vec3::new(
                1.0 + 7.0 * rng.unit(),
                1.0 + 7.0 * rng.unit(),
                8.0 * rng.unit(),
            )),
            shape: Some(shape),
            sides: (shape == Shape::Ngon).then(|| rng.range(3, 8)),
            mode,
            affects,
            ..Piece::default()
        });
    }
    Document {
        version: (1, 0),
        pieces,
        properties: None,
    }
}
