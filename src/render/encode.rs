//! PNG out, with the `png` crate.

use super::Picture;
use crate::error::{Error, ErrorKind, Result};

/// The PNG of `p`: RGB when every pixel is opaque, RGBA otherwise.
pub(super) fn png(p: &Picture) -> Result<Vec<u8>> {
    let opaque = p.rgba.chunks_exact(4).all(|px| px[3] == 255);
    let rgb: Vec<u8>;
    let (data, color) = if opaque {
        rgb = p.rgba.chunks_exact(4).flat_map(|px| [px[0], px[1], px[2]]).collect();
        (&rgb[..], png::ColorType::Rgb)
    } else {
        (&p.rgba[..], png::ColorType::Rgba)
    };
    let failed = |e: png::EncodingError| Error::new(ErrorKind::Io, format!("writing the PNG: {e}"));
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, p.width, p.height);
        encoder.set_color(color);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Fast);
        encoder
            .add_text_chunk("Software".to_owned(), "sskb".to_owned())
            .map_err(failed)?;
        let mut writer = encoder.write_header().map_err(failed)?;
        writer.write_image_data(data).map_err(failed)?;
        writer.finish().map_err(failed)?;
    }
    Ok(out)
}
