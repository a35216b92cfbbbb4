//! Pictures (feature `render`): a model's meshed solid drawn with a depth
//! buffer, shaded by a light fixed to the camera (Lambert plus ambient),
//! outlined, anti-aliased by supersampling, framed so its bounds fill the
//! picture with a margin, and written as PNG.
//!
//! The picture shows the solid as glTF viewers show the `.glb` that
//! `sskb convert` writes: the model's Z up on screen, orthographic unless
//! asked for a perspective. The union of the parts is never computed: a
//! depth buffer of the parts ([`Mesher::visible`]) shows the same surface.
//!
//! ```
//! use sskb::render::{RenderOptions, Scene, View};
//! let doc = sskb::parse_ssk("pieces:\n- id: 0\n  points: [{x: 0, y: 0, z: 0}, {x: 0, y: 0, z: 10}]\n  size: {x: 5, y: 5, z: 0}\n  shape: circle\n")?;
//! let mut mesher = sskb::mesh::Mesher::new(32);
//! for piece in &doc.pieces {
//!     mesher.push(piece)?;
//! }
//! let scene = Scene::from_mesher(&mesher)?;
//! let picture = scene.render(&RenderOptions { size: 64, view: View::Front, ..RenderOptions::default() })?;
//! assert_eq!((picture.width, picture.height), (64, 64));
//! let png = picture.to_png()?;
//! assert_eq!(&png[1..4], b"PNG");
//! # Ok::<(), sskb::Error>(())
//! ```

mod camera;
mod encode;
mod raster;

use std::str::FromStr;

pub use camera::View;

use camera::Camera;
use raster::{Depth, Frame, Tri};

use crate::error::{Error, ErrorKind, Result};
use crate::mesh::math::{cross, dot, sub, unit, V3};
use crate::mesh::{Mesh, Mesher};
use crate::Mode;

/// The smallest picture, in pixels across.
pub const MIN_SIZE: u32 = 16;
/// The largest picture, in pixels across.
pub const MAX_SIZE: u32 = 4096;
/// Samples a pixel across and down: 4 × 4 up to 256 pixels, 3 × 3 up to
/// 640, 2 × 2 up to 2,048, then 1 (at most 4,096² samples).
fn factor(size: u32) -> usize {
    match size {
        0..=256 => 4,
        257..=640 => 3,
        641..=2048 => 2,
        _ => 1,
    }
}
/// Empty space on each side, as a share of the picture.
pub const MARGIN: f64 = 0.05;
/// Light that reaches every face, as a share of full brightness.
const AMBIENT: f64 = 0.22;

/// What is behind the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Background {
    /// An opaque colour.
    Color([u8; 3]),
    /// Nothing: alpha 0 where the model is not.
    Transparent,
}

impl FromStr for Background {
    type Err = String;

    /// `white`, `black`, `transparent` or `#rrggbb`.
    fn from_str(s: &str) -> std::result::Result<Background, String> {
        match s {
            "white" => Ok(Background::Color([255; 3])),
            "black" => Ok(Background::Color([0; 3])),
            "transparent" => Ok(Background::Transparent),
            _ => {
                let hex = s
                    .strip_prefix('#')
                    .filter(|h| h.len() == 6 && h.bytes().all(|b| b.is_ascii_hexdigit()));
                let hex =
                    hex.ok_or_else(|| format!("`{s}` is not a background (white, black, transparent or #rrggbb)"))?;
                let ch = |k: usize| u8::from_str_radix(&hex[k..k + 2], 16).unwrap_or(0);
                Ok(Background::Color([ch(0), ch(2), ch(4)]))
            }
        }
    }
}

/// How faces are coloured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColorBy {
    /// One colour.
    #[default]
    None,
    /// A colour of each piece's own, the same for an id in every picture.
    Piece,
    /// By the piece's mode: add pieces blue, intersect pieces orange
    /// (subtract pieces are never drawn: they only cut).
    Mode,
}

impl FromStr for ColorBy {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<ColorBy, String> {
        match s {
            "none" => Ok(ColorBy::None),
            "piece" => Ok(ColorBy::Piece),
            "mode" => Ok(ColorBy::Mode),
            _ => Err(format!("`{s}` is not a colouring (none, piece or mode)")),
        }
    }
}

/// How to draw a picture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RenderOptions {
    /// Pixels across and down ([`MIN_SIZE`] to [`MAX_SIZE`]).
    pub size: u32,
    /// Where from.
    pub view: View,
    /// A perspective (30° field of view) instead of orthographic.
    pub perspective: bool,
    /// What is behind.
    pub background: Background,
    /// How faces are coloured.
    pub color_by: ColorBy,
}

impl Default for RenderOptions {
    /// 512 pixels, iso, orthographic, white, one colour.
    fn default() -> RenderOptions {
        RenderOptions {
            size: 512,
            view: View::Iso,
            perspective: false,
            background: Background::Color([255; 3]),
            color_by: ColorBy::None,
        }
    }
}

/// An RGBA picture, rows from the top, 8 bits a channel, not premultiplied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// Pixels across.
    pub width: u32,
    /// Pixels down.
    pub height: u32,
    /// `width × height × 4` bytes.
    pub rgba: Vec<u8>,
}

impl Picture {
    /// The pixel at column `x`, row `y` (from the top).
    ///
    /// # Panics
    /// If `x` or `y` is outside the picture (as indexing a slice).
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        let i = (y as usize * self.width as usize + x as usize) * 4;
        [self.rgba[i], self.rgba[i + 1], self.rgba[i + 2], self.rgba[i + 3]]
    }

    /// The PNG file: RGB when every pixel is opaque, RGBA otherwise.
    ///
    /// # Errors
    /// `io` if the encoder fails (it does not on a well-formed picture).
    pub fn to_png(&self) -> Result<Vec<u8>> {
        encode::png(self)
    }

    /// Pictures of one size side by side, `columns` to a row, left to
    /// right and top to bottom; the cells left over take `background`.
    ///
    /// # Errors
    /// `usage` when there are none, their sizes differ, or one's bytes are
    /// not 4 a pixel.
    pub fn sheet(pictures: &[Picture], columns: u32, background: Background) -> Result<Picture> {
        let first = pictures
            .first()
            .ok_or_else(|| Error::new(ErrorKind::Usage, "a sheet needs at least one picture"))?;
        let (w, h) = (first.width as usize, first.height as usize);
        if pictures.iter().any(|p| (p.width as usize, p.height as usize) != (w, h)) {
            return Err(Error::new(
                ErrorKind::Usage,
                "the pictures of a sheet must be of one size",
            ));
        }
        let columns = (columns.max(1) as usize).min(pictures.len());
        let rows = pictures.len().div_ceil(columns);
        let (sw, sh) = (w * columns, h * rows);
        let fill = match background {
            Background::Color([r, g, b]) => [r, g, b, 255],
            Background::Transparent => [0; 4],
        };
        let mut rgba: Vec<u8> = std::iter::repeat_n(fill, sw * sh).flatten().collect();
        for (k, p) in pictures.iter().enumerate() {
            let (cx, cy) = ((k % columns) * w, (k / columns) * h);
            for y in 0..h {
                let from = &p.rgba[y * w * 4..(y + 1) * w * 4];
                let at = ((cy + y) * sw + cx) * 4;
                rgba[at..at + w * 4].copy_from_slice(from);
            }
        }
        Ok(Picture {
            width: sw as u32,
            height: sh as u32,
            rgba,
        })
    }
}

/// A part to draw: its piece's id and mode, and its mesh.
#[derive(Clone, Debug)]
pub struct Drawn {
    /// The piece's id.
    pub id: u32,
    /// The piece's mode.
    pub mode: Mode,
    /// The part, in model units.
    pub mesh: Mesh,
}

/// What a picture shows: meshed parts, drawn from any view.
#[derive(Clone, Debug, Default)]
pub struct Scene {
    parts: Vec<Drawn>,
}

impl Scene {
    /// A scene of these parts.
    pub fn new(parts: Vec<Drawn>) -> Scene {
        Scene { parts }
    }

    /// The combined solid of a mesher's pieces, as its parts.
    ///
    /// # Errors
    /// As [`Mesher::combined`].
    pub fn from_mesher(mesher: &Mesher) -> Result<Scene> {
        Ok(Scene::new(
            mesher
                .visible()?
                .into_iter()
                .map(|(id, mode, mesh)| Drawn { id, mode, mesh })
                .collect(),
        ))
    }

    /// Whether there is no triangle to draw.
    pub fn is_empty(&self) -> bool {
        self.parts.iter().all(|p| p.mesh.is_empty())
    }

    /// The triangles drawn.
    pub fn triangles(&self) -> usize {
        self.parts.iter().map(|p| p.mesh.triangles.len()).sum()
    }

    /// The box around every part, or `None` when empty.
    fn bounds(&self) -> Option<(V3, V3)> {
        self.parts
            .iter()
            .filter_map(|p| p.mesh.bounds())
            .reduce(|(lo, hi), (l, h)| ([0, 1, 2].map(|c| lo[c].min(l[c])), [0, 1, 2].map(|c| hi[c].max(h[c]))))
    }

    /// Draws the scene.
    ///
    /// # Errors
    /// `limit_exceeded` for a size outside [`MIN_SIZE`]..=[`MAX_SIZE`]
    /// (checked before anything is allocated); `usage` for a triangle that
    /// names a vertex its mesh does not have, `non_finite` for a vertex
    /// that is not finite (a [`Scene::new`] of meshes made by hand);
    /// `mesh` when there is nothing to draw (the model's solid is empty).
    pub fn render(&self, options: &RenderOptions) -> Result<Picture> {
        let size = options.size;
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(Error::new(
                ErrorKind::LimitExceeded,
                format!("a picture of {size} pixels across: the size must be {MIN_SIZE} to {MAX_SIZE}"),
            ));
        }
        for part in &self.parts {
            let n = part.mesh.positions.len();
            if part.mesh.triangles.iter().flatten().any(|&i| i as usize >= n) {
                return Err(Error::new(
                    ErrorKind::Usage,
                    format!("part of piece {}: a triangle names a vertex it does not have", part.id),
                ));
            }
            if part.mesh.positions.iter().flatten().any(|x| !x.is_finite()) {
                return Err(Error::new(
                    ErrorKind::NonFinite,
                    format!("part of piece {}: a vertex is not finite", part.id),
                ));
            }
        }
        let (lo, hi) = self
            .bounds()
            .ok_or_else(|| Error::new(ErrorKind::Mesh, "nothing to draw: the model's solid is empty"))?;
        let center = [0, 1, 2].map(|c| (lo[c] + hi[c]) / 2.0);
        let radius = (0..3).map(|c| (hi[c] - lo[c]).powi(2)).sum::<f64>().sqrt() / 2.0;
        let camera = Camera::new(options.view, options.perspective, center, radius);
        // Every vertex on the screen plane, and their extent.
        let projected: Vec<Vec<[f64; 3]>> = self
            .parts
            .iter()
            .map(|p| p.mesh.positions.iter().map(|&q| camera.project(q, center)).collect())
            .collect();
        let mut ext = [f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY];
        for (part, points) in self.parts.iter().zip(&projected) {
            for &i in part.mesh.triangles.iter().flatten() {
                let q = points[i as usize];
                ext = [ext[0].min(q[0]), ext[1].min(q[1]), ext[2].max(q[0]), ext[3].max(q[1])];
            }
        }
        let factor = factor(size);
        let samples = size as usize * factor;
        let span = (ext[2] - ext[0]).max(ext[3] - ext[1]);
        let scale = if span > 0.0 {
            samples as f64 * (1.0 - 2.0 * MARGIN) / span
        } else {
            1.0
        };
        let (mx, my) = ((ext[0] + ext[2]) / 2.0, (ext[1] + ext[3]) / 2.0);
        let half = samples as f64 / 2.0;
        let light = camera.light();
        let mut tris = Vec::new();
        for (part, points) in self.parts.iter().zip(&projected) {
            let base = color_of(options.color_by, part.id, part.mode);
            let tag = tag_of(part.id);
            // A closed outward solid's faces turned away are hidden behind
            // its others: not drawn. A sheet is drawn from both sides.
            let cull = part.mesh.is_closed() && part.mesh.volume() > 0.0;
            for t in &part.mesh.triangles {
                let [a, b, c] = t.map(|i| part.mesh.positions[i as usize]);
                let Some(mut n) = unit(cross(sub(b, a), sub(c, a))) else {
                    continue;
                };
                let middle = [0, 1, 2].map(|k| (a[k] + b[k] + c[k]) / 3.0);
                if dot(n, camera.toward_eye(middle)) < 0.0 {
                    if cull {
                        continue;
                    }
                    n = n.map(|x| -x);
                }
                let shade = AMBIENT + (1.0 - AMBIENT) * dot(n, light).max(0.0);
                let rgb = base.map(|x| (x * shade * 255.0).round().clamp(0.0, 255.0) as u32);
                let color = tag << 24 | rgb[0] << 16 | rgb[1] << 8 | rgb[2];
                let p = t.map(|i| {
                    let q = points[i as usize];
                    [half + (q[0] - mx) * scale, half - (q[1] - my) * scale, q[2]]
                });
                tris.push(Tri { p, color });
            }
        }
        let unit = 1.0 / scale;
        let depth = if options.perspective {
            Depth::Perspective { unit }
        } else {
            Depth::Orthographic { unit }
        };
        let frame = Frame {
            width: samples,
            height: samples,
            factor,
            depth,
            radius: usize::from(factor > 2),
            background: match options.background {
                Background::Color(c) => Some(c),
                Background::Transparent => None,
            },
        };
        Ok(Picture {
            width: size,
            height: size,
            rgba: raster::draw(&tris, frame),
        })
    }
}

/// The shade of full light, 0 to 1 a channel.
fn color_of(by: ColorBy, id: u32, mode: Mode) -> V3 {
    const BLUE: V3 = [0.62, 0.72, 0.86];
    const ORANGE: V3 = [0.95, 0.68, 0.32];
    match by {
        ColorBy::None => BLUE,
        ColorBy::Mode if mode == Mode::Intersect => ORANGE,
        ColorBy::Mode => BLUE,
        // Hues a golden angle apart: neighbouring ids far apart in hue.
        ColorBy::Piece => hsv((0.13 + f64::from(id) * 0.618_033_988_75).fract(), 0.55, 0.95),
    }
}

fn hsv(h: f64, s: f64, v: f64) -> V3 {
    let f = |n: f64| {
        let k = (n + h * 6.0) % 6.0;
        v - v * s * k.min(4.0 - k).clamp(0.0, 1.0)
    };
    [f(5.0), f(3.0), f(1.0)]
}

/// A piece's tag in the depth buffer, 1 to 255: where tags change, one
/// piece's surface meets another's.
fn tag_of(id: u32) -> u32 {
    1 + (id.wrapping_mul(0x9E37_79B1) >> 24) % 255
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backgrounds_and_colourings_parse() {
        assert_eq!("#1a2B3c".parse(), Ok(Background::Color([0x1a, 0x2b, 0x3c])));
        assert_eq!("transparent".parse(), Ok(Background::Transparent));
        assert!("#12345".parse::<Background>().is_err());
        assert!("#12345g".parse::<Background>().is_err());
        assert!("red".parse::<Background>().is_err());
        assert_eq!("piece".parse(), Ok(ColorBy::Piece));
        assert!("pieces".parse::<ColorBy>().is_err());
    }

    #[test]
    fn piece_colours_are_stable_and_apart() {
        let a = color_of(ColorBy::Piece, 7, Mode::Add);
        assert_eq!(a, color_of(ColorBy::Piece, 7, Mode::Intersect));
        let b = color_of(ColorBy::Piece, 8, Mode::Add);
        assert!((0..3).map(|c| (a[c] - b[c]).abs()).sum::<f64>() > 0.2);
        for id in 0..1000 {
            assert!(color_of(ColorBy::Piece, id, Mode::Add)
                .iter()
                .all(|x| (0.0..=1.0).contains(x)));
            assert!((1..=255).contains(&tag_of(id)));
        }
    }

    #[test]
    fn sizes_outside_the_limits_are_refused_before_drawing() {
        let scene = Scene::default();
        for size in [0, MIN_SIZE - 1, MAX_SIZE + 1, u32::MAX] {
            let e = scene
                .render(&RenderOptions {
                    size,
                    ..RenderOptions::default()
                })
                .unwrap_err();
            assert_eq!(e.kind(), ErrorKind::LimitExceeded);
        }
        let e = scene.render(&RenderOptions::default()).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Mesh);
        assert!(e.to_string().contains("nothing to draw"), "{e}");
    }

    #[test]
    fn meshes_made_wrong_by_hand_are_refused() {
        let part = |positions: Vec<[f64; 3]>, triangles| Drawn {
            id: 3,
            mode: Mode::Add,
            mesh: Mesh { positions, triangles },
        };
        let ok = vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        let e = Scene::new(vec![part(ok.clone(), vec![[0, 1, 7]])])
            .render(&RenderOptions::default())
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Usage);
        let mut bad = ok.clone();
        bad[1][2] = f64::NAN;
        let e = Scene::new(vec![part(bad, vec![[0, 1, 2]])])
            .render(&RenderOptions::default())
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::NonFinite);
        // A lone flat triangle is drawn (from both sides).
        let p = Scene::new(vec![part(ok, vec![[0, 1, 2]])])
            .render(&RenderOptions {
                size: 32,
                view: View::Top,
                ..RenderOptions::default()
            })
            .unwrap();
        assert!(p.rgba.chunks_exact(4).any(|px| px != [255, 255, 255, 255]));
    }

    #[test]
    fn a_sheet_places_pictures_in_rows() {
        let one = |v: u8| Picture {
            width: 2,
            height: 2,
            rgba: vec![v; 16],
        };
        let s = Picture::sheet(&[one(1), one(2), one(3)], 2, Background::Transparent).unwrap();
        assert_eq!((s.width, s.height), (4, 4));
        assert_eq!(s.pixel(0, 0), [1; 4]);
        assert_eq!(s.pixel(3, 1), [2; 4]);
        assert_eq!(s.pixel(1, 3), [3; 4]);
        assert_eq!(s.pixel(3, 3), [0; 4]);
        assert!(Picture::sheet(
            &[
                one(1),
                Picture {
                    width: 1,
                    height: 1,
                    rgba: vec![0; 4]
                }
            ],
            2,
            Background::Transparent
        )
        .is_err());
    }
}
