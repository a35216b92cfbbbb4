//! A supersampled depth buffer, drawn in bands of rows so that its memory
//! is a band's, whatever the picture's size: triangles filled at sample
//! centres (shared edges covered by both sides, so no cracks), the nearest
//! kept; outlines where the depth jumps or one piece's surface meets
//! another's; samples averaged into pixels (coverage into alpha).

/// A sample's colour: 0 is empty, else `tag << 24 | 0xRRGGBB` with a tag
/// of 1 to 255 telling pieces apart.
pub(crate) type Sample = u32;

/// How the depth keys of a buffer relate to distance.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Depth {
    /// Keys are distances; `unit` is the screen-plane size of a sample.
    Orthographic { unit: f64 },
    /// Keys are −1/distance; `unit` is the size of a sample in the
    /// screen plane at distance 1.
    Perspective { unit: f64 },
}

/// A jump in distance is an edge when the second difference across a
/// sample is larger than this many samples' width there.
const JUMP: f32 = 6.0;

/// How much of its shade an outline sample keeps, in 1/256ths.
const OUTLINE: u32 = 102;

/// Pixel rows drawn at once.
const BAND: usize = 32;

/// A triangle in sample space (x right, y down, depth key) and its shade.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tri {
    pub p: [[f64; 3]; 3],
    pub color: Sample,
}

/// How to draw: samples across and down, samples a pixel per axis,
/// depth keys, outline width, background (`None`: transparent).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    pub width: usize,
    pub height: usize,
    pub factor: usize,
    pub depth: Depth,
    pub radius: usize,
    pub background: Option<[u8; 3]>,
}

/// The picture's RGBA pixels: (width / factor) × (height / factor).
pub(crate) fn draw(tris: &[Tri], frame: Frame) -> Vec<u8> {
    let Frame {
        width: w,
        height: h,
        factor,
        radius,
        ..
    } = frame;
    let band = BAND * factor;
    // Rows around a band its outline needs: its neighbours, widened, and
    // theirs for closing cracks.
    let halo = radius + 2;
    let bands = h.div_ceil(band);
    let mut bins: Vec<Vec<u32>> = vec![Vec::new(); bands];
    for (k, t) in tris.iter().enumerate() {
        let lo = t.p.iter().map(|q| q[1]).fold(f64::INFINITY, f64::min);
        let hi = t.p.iter().map(|q| q[1]).fold(f64::NEG_INFINITY, f64::max);
        if !(lo.is_finite() && hi.is_finite()) || hi < 0.0 || lo > h as f64 {
            continue;
        }
        let first = ((lo - halo as f64 - 1.0).max(0.0) as usize / band).min(bands - 1);
        let last = ((hi + halo as f64 + 1.0).max(0.0) as usize / band).min(bands - 1);
        for bin in &mut bins[first..=last] {
            bin.push(k as u32);
        }
    }
    let mut target = Target::new(w, band + 2 * halo);
    let mut on = Vec::new();
    let mut out = Vec::with_capacity((w / factor) * (h / factor) * 4);
    for (b, bin) in bins.iter().enumerate() {
        let (start, end) = (b * band, ((b + 1) * band).min(h));
        let top = start.saturating_sub(halo);
        let bottom = (end + halo).min(h);
        target.reset(top, bottom - top);
        for &k in bin {
            target.fill(&tris[k as usize]);
        }
        target.close_cracks();
        target.outline(frame.depth, radius, h, &mut on);
        target.resolve(factor, &on, frame.background, start - top, end - top, &mut out);
    }
    out
}

/// The samples of one band of rows.
struct Target {
    width: usize,
    /// The picture row of the band's first row, and its rows.
    top: usize,
    rows: usize,
    depth: Vec<f32>,
    color: Vec<Sample>,
    /// The box of drawn samples (band rows): first and last column, first
    /// and last row; empty while the first is after the last.
    drawn: [usize; 4],
}

impl Target {
    fn new(width: usize, rows: usize) -> Target {
        Target {
            width,
            top: 0,
            rows,
            depth: vec![f32::INFINITY; width * rows],
            color: vec![0; width * rows],
            drawn: [usize::MAX, usize::MAX, 0, 0],
        }
    }

    /// Empties the band and places it at picture rows `top..top + rows`.
    fn reset(&mut self, top: usize, rows: usize) {
        let n = self.width * rows;
        self.top = top;
        self.rows = rows;
        self.depth[..n].fill(f32::INFINITY);
        self.color[..n].fill(0);
        self.drawn = [usize::MAX, usize::MAX, 0, 0];
    }

    /// Fills the triangle's samples in this band, keeping the nearer sample
    /// where one is already drawn.
    fn fill(&mut self, t: &Tri) {
        let p = t.p;
        let area = edge(p[0], p[1], p[2][0], p[2][1]);
        if !area.is_finite() || area.abs() < 1e-12 {
            return;
        }
        let sign = area.signum();
        let lo = |c: usize| p.iter().map(|q| q[c]).fold(f64::INFINITY, f64::min);
        let hi = |c: usize| p.iter().map(|q| q[c]).fold(f64::NEG_INFINITY, f64::max);
        // Sample centres at i + 0.5 inside the triangle's box and the band.
        let x0 = (lo(0) - 0.5).ceil().max(0.0);
        let y0 = (lo(1) - 0.5).ceil().max(self.top as f64);
        let x1 = (hi(0) - 0.5).floor().min(self.width as f64 - 1.0);
        let y1 = (hi(1) - 0.5).floor().min((self.top + self.rows) as f64 - 1.0);
        if x0 > x1 || y0 > y1 {
            return;
        }
        let (x0, x1, y0, y1) = (x0 as usize, x1 as usize, y0 as usize, y1 as usize);
        // Edge functions w_k(x, y) = a_k·x + b_k·y + c_k, made non-negative
        // inside; each row's samples inside are one span, found from the
        // three constraints, and depth is affine too.
        let e = |a: [f64; 3], b: [f64; 3]| {
            let ka = -(b[1] - a[1]) * sign;
            let kb = (b[0] - a[0]) * sign;
            [ka, kb, -(ka * a[0] + kb * a[1])]
        };
        let w = [e(p[1], p[2]), e(p[2], p[0]), e(p[0], p[1])];
        let inv = sign / area;
        let za = (w[0][0] * p[0][2] + w[1][0] * p[1][2] + w[2][0] * p[2][2]) * inv;
        let zb = (w[0][1] * p[0][2] + w[1][1] * p[1][2] + w[2][1] * p[2][2]) * inv;
        let zc = (w[0][2] * p[0][2] + w[1][2] * p[1][2] + w[2][2] * p[2][2]) * inv;
        for y in y0..=y1 {
            let sy = y as f64 + 0.5;
            // Sample centres x + 0.5 with every a·x + (b·y + c) >= 0.
            let (mut lo, mut hi) = (x0 as f64, x1 as f64);
            for k in &w {
                let rest = k[1] * sy + k[2];
                if k[0] > 0.0 {
                    lo = lo.max((-rest / k[0] - 0.5).ceil());
                } else if k[0] < 0.0 {
                    hi = hi.min((-rest / k[0] - 0.5).floor());
                } else if rest < 0.0 {
                    hi = -1.0;
                }
            }
            if lo > hi {
                continue;
            }
            let (mut lo, mut hi) = (lo as usize, hi as usize);
            // The bounds above are rounded: settle each end by the exact
            // test the triangle's neighbours use too.
            let inside = |x: usize| {
                let sx = x as f64 + 0.5;
                w.iter().all(|k| k[0] * sx + k[1] * sy + k[2] >= 0.0)
            };
            while lo > x0 && inside(lo - 1) {
                lo -= 1;
            }
            while hi < x1 && inside(hi + 1) {
                hi += 1;
            }
            while lo <= hi && !inside(lo) {
                lo += 1;
            }
            while hi > lo && !inside(hi) {
                hi -= 1;
            }
            if lo > hi {
                continue;
            }
            let r = y - self.top;
            let d = &mut self.drawn;
            *d = [d[0].min(lo), d[1].min(r), d[2].max(hi), d[3].max(r)];
            let row = r * self.width;
            let mut z = za * (lo as f64 + 0.5) + zb * sy + zc;
            for x in lo..=hi {
                let i = row + x;
                let zf = z as f32;
                if zf < self.depth[i] {
                    self.depth[i] = zf;
                    self.color[i] = t.color;
                }
                z += za;
            }
        }
    }

    /// Fills empty samples between two drawn ones (left and right, or above
    /// and below) with the nearer of the two: the hairline cracks where a
    /// vertex of one triangle lies on another's edge (the booleans leave
    /// such T-junctions), which would show the background through the
    /// solid and draw outlines along it. A real gap a sample wide is less
    /// than a pixel.
    fn close_cracks(&mut self) {
        let (w, h) = (self.width, self.rows);
        let [x0, y0, x1, y1] = self.drawn;
        if x0 > x1 || y0 > y1 {
            return;
        }
        let mut fills = Vec::new();
        for y in y0.max(1)..=y1.min(h.saturating_sub(2)) {
            for x in x0.max(1)..=x1.min(w.saturating_sub(2)) {
                let i = y * w + x;
                if self.color[i] != 0 {
                    continue;
                }
                let nearer = |a: usize, b: usize| {
                    (self.color[a] != 0 && self.color[b] != 0)
                        .then(|| if self.depth[a] <= self.depth[b] { a } else { b })
                };
                if let Some(from) = nearer(i - 1, i + 1).or_else(|| nearer(i - w, i + w)) {
                    fills.push((i, from));
                }
            }
        }
        for (i, from) in fills {
            self.color[i] = self.color[from];
            self.depth[i] = self.depth[from];
        }
    }

    /// Samples on an outline, into `on`: drawn samples next to an empty one
    /// or the picture's border (the silhouette), next to a jump in depth
    /// (one surface in front of another), or next to another piece's
    /// surface of another shade (where pieces meet, not where their faces
    /// merely lie in one plane); then widened by `radius` samples over
    /// drawn ones. The band's first and last rows have no neighbours here:
    /// they only serve their neighbours.
    fn outline(&self, depth: Depth, radius: usize, picture_rows: usize, on: &mut Vec<bool>) {
        let (w, h) = (self.width, self.rows);
        on.clear();
        on.resize(w * h, false);
        let [x0, y0, x1, y1] = self.drawn;
        if x0 > x1 || y0 > y1 {
            return;
        }
        let (unit, perspective) = match depth {
            Depth::Orthographic { unit } => (unit as f32, false),
            Depth::Perspective { unit } => (unit as f32, true),
        };
        for y in y0..=y1 {
            let picture_y = self.top + y;
            let border_row = picture_y == 0 || picture_y + 1 == picture_rows;
            let row = &mut on[y * w..(y + 1) * w];
            if border_row {
                for (o, &c) in row.iter_mut().zip(&self.color[y * w..(y + 1) * w]) {
                    *o = c != 0;
                }
                continue;
            }
            if y == 0 || y + 1 == h {
                continue;
            }
            let cz = |k: usize| &self.color[k * w..(k + 1) * w];
            let (cu, cc, cd) = (cz(y - 1), cz(y), cz(y + 1));
            let dz = |k: usize| &self.depth[k * w..(k + 1) * w];
            let (du, dc, dd) = (dz(y - 1), dz(y), dz(y + 1));
            if perspective {
                edges_in_row::<true>(row, [cu, cc, cd], [du, dc, dd], x0, x1, unit);
            } else {
                edges_in_row::<false>(row, [cu, cc, cd], [du, dc, dd], x0, x1, unit);
            }
        }
        dilate(on, w, h, radius);
        for (o, &c) in on.iter_mut().zip(&self.color) {
            *o &= c != 0;
        }
    }

    /// Pixels of `factor` × `factor` samples from band rows `from..to`
    /// onto `out`: RGBA, outline samples darkened, over `background`
    /// (`None`: transparent, colour unpremultiplied and coverage in alpha).
    fn resolve(
        &self,
        factor: usize,
        outline: &[bool],
        background: Option<[u8; 3]>,
        from: usize,
        to: usize,
        out: &mut Vec<u8>,
    ) {
        let pw = self.width / factor;
        let n = (factor * factor) as u32;
        // Sums of one row of pixels: red, green, blue (in 1/256ths, outline
        // samples scaled down) and samples covered.
        let mut sums = vec![[0u32; 4]; pw];
        for first in (from..to).step_by(factor) {
            sums.fill([0; 4]);
            for sy in first..first + factor {
                let row = sy * self.width;
                let colors = &self.color[row..row + self.width];
                let lines = &outline[row..row + self.width];
                for (k, (block, edge)) in colors.chunks_exact(factor).zip(lines.chunks_exact(factor)).enumerate() {
                    let sum = &mut sums[k];
                    for (&c, &e) in block.iter().zip(edge) {
                        if c != 0 {
                            let keep = if e { OUTLINE } else { 256 };
                            sum[0] += ((c >> 16) & 0xff) * keep;
                            sum[1] += ((c >> 8) & 0xff) * keep;
                            sum[2] += (c & 0xff) * keep;
                            sum[3] += 1;
                        }
                    }
                }
            }
            for sum in &sums {
                let covered = sum[3];
                match background {
                    Some(bg) => {
                        for ch in 0..3 {
                            let rest = (n - covered) * u32::from(bg[ch]) * 256;
                            out.push(((sum[ch] + rest + n * 128) / (n * 256)) as u8);
                        }
                        out.push(255);
                    }
                    None if covered == 0 => out.extend_from_slice(&[0, 0, 0, 0]),
                    None => {
                        for &s in &sum[..3] {
                            out.push(((s + covered * 128) / (covered * 256)) as u8);
                        }
                        out.push(((255 * covered + n / 2) / n) as u8);
                    }
                }
            }
        }
    }
}

/// Whether two neighbouring samples are different pieces' surfaces of
/// different shades.
#[inline]
fn differs(a: Sample, b: Sample) -> bool {
    if (a ^ b) >> 24 == 0 {
        return false;
    }
    let ch = |c: Sample, k: u32| ((c >> k) & 0xff) as i32;
    (0..3).map(|k| (ch(a, 8 * k) - ch(b, 8 * k)).abs()).sum::<i32>() > 24
}

/// The outline samples of one row inside the band (its rows above and
/// below at hand), columns `x0..=x1`: see [`Target::outline`].
#[inline]
fn edges_in_row<const PERSPECTIVE: bool>(
    on: &mut [bool],
    [cu, cc, cd]: [&[Sample]; 3],
    [du, dc, dd]: [&[f32]; 3],
    x0: usize,
    x1: usize,
    unit: f32,
) {
    let w = cc.len();
    let dist = |k: f32| if PERSPECTIVE { -1.0 / k } else { k };
    for x in x0..=x1 {
        let c = cc[x];
        if c == 0 {
            continue;
        }
        if x == 0 || x + 1 == w {
            on[x] = true;
            continue;
        }
        let near = [cc[x - 1], cc[x + 1], cu[x], cd[x]];
        if near.iter().any(|&n| n == 0 || differs(c, n)) {
            on[x] = true;
            continue;
        }
        let z = dist(dc[x]);
        let jump = if PERSPECTIVE { JUMP * unit * z } else { JUMP * unit };
        on[x] = (dist(dc[x - 1]) - 2.0 * z + dist(dc[x + 1])).abs() > jump
            || (dist(du[x]) - 2.0 * z + dist(dd[x])).abs() > jump;
    }
}

/// Twice the signed area of (a, b, (x, y)): positive when counter-clockwise
/// in a y-up frame.
#[inline]
fn edge(a: [f64; 3], b: [f64; 3], x: f64, y: f64) -> f64 {
    (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0])
}

/// Sets every sample within `r` (a square) of a set one: along rows,
/// then whole rows at once (no walks down columns).
fn dilate(on: &mut [bool], w: usize, h: usize, r: usize) {
    if r == 0 || w == 0 {
        return;
    }
    let mut across = vec![false; w * h];
    for (src, dst) in on.chunks_exact(w).zip(across.chunks_exact_mut(w)) {
        dst.copy_from_slice(src);
        for d in 1..=r.min(w - 1) {
            for (o, &s) in dst[d..].iter_mut().zip(src) {
                *o |= s;
            }
            for (o, &s) in dst.iter_mut().zip(&src[d..]) {
                *o |= s;
            }
        }
    }
    on.fill(false);
    for y in 0..h {
        for from in y.saturating_sub(r)..(y + r + 1).min(h) {
            let (src, dst) = (&across[from * w..(from + 1) * w], &mut on[y * w..(y + 1) * w]);
            for (o, &s) in dst.iter_mut().zip(src) {
                *o |= s;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(w: usize, h: usize, factor: usize) -> Frame {
        Frame {
            width: w,
            height: h,
            factor,
            depth: Depth::Orthographic { unit: 1.0 },
            radius: 0,
            background: None,
        }
    }

    /// The samples a drawing covers, by drawing at one sample a pixel with
    /// no outline and reading alpha.
    fn covered(tris: &[Tri], w: usize, h: usize) -> Vec<bool> {
        draw(tris, frame(w, h, 1))
            .chunks_exact(4)
            .map(|p| p[3] == 255)
            .collect()
    }

    #[test]
    fn two_triangles_sharing_an_edge_leave_no_crack() {
        let a = [1.3, 1.7, 0.0];
        let b = [74.6, 2.1, 0.0];
        let c = [73.2, 94.9, 0.0];
        let d = [2.2, 93.4, 0.0];
        let tris = [
            Tri {
                p: [a, b, c],
                color: 0x01ff0000,
            },
            Tri {
                p: [a, c, d],
                color: 0x0200ff00,
            },
        ];
        let inside = |x: f64, y: f64| {
            let q = [a, b, c, d];
            (0..4).all(|k| edge(q[k], q[(k + 1) % 4], x, y) >= 0.0)
        };
        // Drawn in several bands: every sample centre inside the quad.
        let on = covered(&tris, 80, 100);
        for y in 0..100 {
            for x in 0..80 {
                assert_eq!(on[y * 80 + x], inside(x as f64 + 0.5, y as f64 + 0.5), "({x}, {y})");
            }
        }
    }

    #[test]
    fn the_nearer_triangle_wins_either_order() {
        for near_first in [true, false] {
            let tri = |z: f64, color| Tri {
                p: [[0.0, 0.0, z], [4.0, 0.0, z], [0.0, 4.0, z]],
                color,
            };
            let (near, far) = (tri(1.0, 0x0100_00ff), tri(2.0, 0x02ff_0000));
            let order = if near_first { [near, far] } else { [far, near] };
            let px = draw(&order, frame(4, 4, 1));
            // The corner sample is on the border: outlined, 40% of 255.
            assert_eq!(&px[0..4], &[0, 0, 102, 255]);
        }
    }

    #[test]
    fn a_crack_of_one_sample_is_closed_and_a_wider_gap_is_not() {
        // Two rectangles 1 sample apart (x in 0..4 and 5..9), then 2 apart.
        let rect = |x0: f64, x1: f64, color| {
            [
                Tri {
                    p: [[x0, 0.0, 1.0], [x1, 0.0, 1.0], [x1, 8.0, 1.0]],
                    color,
                },
                Tri {
                    p: [[x0, 0.0, 1.0], [x1, 8.0, 1.0], [x0, 8.0, 1.0]],
                    color,
                },
            ]
        };
        let mut tris = rect(0.0, 4.0, 0x0100_00ff).to_vec();
        tris.extend(rect(5.0, 9.0, 0x0100_00ff));
        let on = covered(&tris, 12, 8);
        assert!((1..7).all(|y| on[y * 12 + 4]), "the crack at x = 4 is closed");
        let mut tris = rect(0.0, 4.0, 0x0100_00ff).to_vec();
        tris.extend(rect(6.0, 9.0, 0x0100_00ff));
        let on = covered(&tris, 12, 8);
        assert!((0..8).all(|y| !on[y * 12 + 4] && !on[y * 12 + 5]), "a gap of two stays");
    }

    #[test]
    fn dilation_reaches_the_square_around() {
        let mut on = vec![false; 49];
        on[3 * 7 + 3] = true;
        dilate(&mut on, 7, 7, 2);
        for y in 0..7usize {
            for x in 0..7usize {
                let near = x.abs_diff(3) <= 2 && y.abs_diff(3) <= 2;
                assert_eq!(on[y * 7 + x], near, "({x}, {y})");
            }
        }
    }

    #[test]
    fn coverage_becomes_alpha() {
        // x from 0 to 1 sample, all rows: the left half of the first
        // column of 2 x 2 pixels.
        let white = 0x01ff_ffff;
        let tris = [
            Tri {
                p: [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 4.0, 0.0]],
                color: white,
            },
            Tri {
                p: [[0.0, 0.0, 0.0], [1.0, 4.0, 0.0], [0.0, 4.0, 0.0]],
                color: white,
            },
        ];
        // Both samples lie on the picture's border: outlined, 40% of 255.
        let px = draw(&tris, frame(4, 4, 2));
        assert_eq!(&px[0..4], &[102, 102, 102, 128]);
        assert_eq!(&px[4..8], &[0, 0, 0, 0]);
        let px = draw(
            &tris,
            Frame {
                background: Some([0, 0, 0]),
                ..frame(4, 4, 2)
            },
        );
        assert_eq!(&px[0..4], &[51, 51, 51, 255]);
    }

    #[test]
    fn bands_draw_what_one_band_draws() {
        // A fan of triangles over many bands, with outlines: the same
        // pixels as drawn with one band (the height within BAND rows).
        let tris: Vec<Tri> = (0..40)
            .map(|k| {
                let a = f64::from(k) * 0.157;
                let b = a + 0.157;
                let c = [150.0, 150.0, 0.0];
                let r = 140.0;
                let z = f64::from(k % 7);
                Tri {
                    p: [
                        [c[0], c[1], z],
                        [c[0] + r * a.cos(), c[1] + r * a.sin(), z],
                        [c[0] + r * b.cos(), c[1] + r * b.sin(), z],
                    ],
                    color: (0x0100_0000 * (1 + k % 3)) | 0x80_8080,
                }
            })
            .collect();
        let f = Frame {
            radius: 1,
            ..frame(300, 300, 3)
        };
        let banded = draw(&tris, f);
        // One band: the same triangles drawn into a target as tall as the
        // picture.
        let mut t = Target::new(300, 300);
        t.reset(0, 300);
        for tri in &tris {
            t.fill(tri);
        }
        t.close_cracks();
        let mut on = Vec::new();
        t.outline(f.depth, 1, 300, &mut on);
        let mut whole = Vec::new();
        t.resolve(3, &on, None, 0, 300, &mut whole);
        assert_eq!(banded, whole);
    }
}
