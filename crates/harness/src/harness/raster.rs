//! PNG copies of the report figures, rendered in this process from their SVG text by `resvg`
//! (pure Rust: no system tool, no system font). Text is set in DejaVu Sans, shipped in
//! `data/fonts/` (Bitstream Vera licence, `data/fonts/LICENSE-DejaVu.txt`) and embedded in the
//! binary, so a PNG reads the same on a bare machine. Cost: one rasterisation per figure, at
//! 1.5 times the SVG's size (about 10-50 ms for a report figure), plus parsing the font once.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};

use crate::harness::{write_atomically, HarnessError};

/// The font every figure's text is set in.
const FONT: &[u8] = include_bytes!("../../../../data/fonts/DejaVuSans.ttf");
/// Its family name, which the generic families (`sans-serif`, ...) are mapped to.
const FAMILY: &str = "DejaVu Sans";
/// Pixels per SVG unit: 1440 pixels across for a report figure, sharp on slides and wikis
/// (papers take the SVG) without making the committed PNGs heavy.
const SCALE: f32 = 1.5;

fn options() -> &'static usvg::Options<'static> {
    static OPTIONS: OnceLock<usvg::Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(|| {
        let mut fonts = usvg::fontdb::Database::new();
        fonts.load_font_data(FONT.to_vec());
        fonts.set_sans_serif_family(FAMILY);
        fonts.set_serif_family(FAMILY);
        fonts.set_monospace_family(FAMILY);
        usvg::Options {
            font_family: FAMILY.into(),
            fontdb: Arc::new(fonts),
            ..usvg::Options::default()
        }
    })
}

/// The PNG bytes of `svg`, at 1.5 times its size on a white background.
pub fn png_of(svg: &str) -> Result<Vec<u8>, String> {
    let tree = usvg::Tree::from_str(svg, options()).map_err(|e| format!("SVG: {e}"))?;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(SCALE)
        .ok_or("empty figure")?;
    let mut pixmap =
        tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("figure too large")?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(SCALE, SCALE),
        &mut pixmap.as_mut(),
    );
    encode(&pixmap).map_err(|e| format!("PNG: {e}"))
}

/// The opaque pixmap as an RGB PNG, compressed hard: a figure is mostly flat colour, so this
/// is several times smaller than the RGBA PNG tiny-skia writes (the PNGs are committed).
fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, png::EncodingError> {
    let rgb: Vec<u8> = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Best);
    encoder.set_adaptive_filter(png::AdaptiveFilterType::Adaptive);
    encoder.write_header()?.write_image_data(&rgb)?;
    Ok(out)
}

/// Writes `svg` to `file` and its PNG beside it (same name, `.png`), each atomically; returns
/// both paths.
pub fn write_figure(file: &Path, svg: &str) -> Result<Vec<PathBuf>, HarnessError> {
    let png = png_of(svg).map_err(|message| HarnessError::Plot {
        path: file.to_path_buf(),
        message,
    })?;
    write_atomically(file, svg.as_bytes())?;
    let png_file = file.with_extension("png");
    write_atomically(&png_file, &png)?;
    Ok(vec![file.to_path_buf(), png_file])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_figure_with_text_renders_to_a_png_scaled_up_with_ink_for_the_text() {
        let text = |t: &str| {
            format!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><text x="5" y="30" font-family="sans-serif" font-size="20">{t}</text></svg>"#
            )
        };
        let png = png_of(&text("10⁻³ s")).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        let decoded = tiny_skia::Pixmap::decode_png(&png).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (180, 60));
        let ink = |p: &tiny_skia::Pixmap| p.pixels().iter().filter(|c| c.red() < 128).count();
        // The text is drawn (the embedded font is found for "sans-serif"), and more text
        // means more ink.
        let blank = tiny_skia::Pixmap::decode_png(&png_of(&text("")).unwrap()).unwrap();
        assert_eq!(ink(&blank), 0);
        assert!(ink(&decoded) > 100, "{}", ink(&decoded));
    }

    #[test]
    fn a_malformed_svg_is_an_error_not_a_panic() {
        assert!(png_of("<svg").is_err());
    }
}
