//! The exported figures: the SVG at its native width is the report's figure byte for byte, a
//! scaled one keeps its drawing, a width that shrinks text below 14 px is refused, and the PNG
//! decodes at the asked size with a drawing on it (its pixels vary).

use super::*;
use crate::{fixture, plots};

/// A report figure: the weights forest of a fixture record (text at plotters' font sizes).
fn figure() -> plots::Figure {
    let r = fixture::record(
        &["(intercept)", "bill", "depth"],
        &["0", "1"],
        vec![fixture::run("laplace", &[0.1, -0.5, 0.8], Some(1.0), None)],
    );
    plots::figures(&r)
        .into_iter()
        .find(|f| f.stem == "weights")
        .expect("the weights figure")
}

#[test]
fn the_native_svg_is_the_reports_figure_and_a_scaled_one_keeps_its_view_box() {
    let f = figure();
    let src = [Source {
        stem: f.stem.clone(),
        svg: f.svg.clone(),
    }];
    let (files, _) = export(Path::new("r"), &src, Format::Svg, None).unwrap();
    assert_eq!(files[0].name, "weights.svg");
    assert_eq!(
        files[0].bytes,
        f.svg.as_bytes(),
        "the report's figure, unchanged"
    );
    let (w, h) = size(&f.svg).unwrap();
    let (big, bw, bh) = scaled(&f.svg, 1500).unwrap();
    assert_eq!(bw, 1500);
    assert_eq!(bh, (h * 1500.0 / w).round() as u32);
    assert_eq!(size(&big), Some((1500.0, bh as f64)));
    assert!(big.contains(&format!("viewBox=\"0 0 {w} {h}\"")));
    // only the root changed
    assert_eq!(
        big.split_once('>').unwrap().1,
        f.svg.split_once('>').unwrap().1
    );
}

#[test]
fn a_width_that_shrinks_text_below_14_px_is_refused() {
    let f = figure();
    let least = min_width(&f.svg).unwrap();
    let text = smallest_text(&f.svg).unwrap();
    let (w, _) = size(&f.svg).unwrap();
    // at the least width the smallest text is 14 px, one pixel narrower it is not
    assert!(text * least as f64 / w >= MIN_TEXT_PX - 1e-9);
    assert!(text * (least - 1) as f64 / w < MIN_TEXT_PX);
    let src = [Source {
        stem: f.stem.clone(),
        svg: f.svg.clone(),
    }];
    let e = export(Path::new("r"), &src, Format::Svg, Some(least - 1))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains(&format!("--width {least}")), "{e}");
    assert!(export(Path::new("r"), &src, Format::Svg, Some(least)).is_ok());
}

#[test]
fn the_png_decodes_at_the_asked_size_and_is_not_blank() {
    let f = figure();
    let src = [Source {
        stem: f.stem.clone(),
        svg: f.svg.clone(),
    }];
    let (files, _) = export(Path::new("r"), &src, Format::Both, Some(1200)).unwrap();
    let png = files.iter().find(|a| a.name == "weights.png").unwrap();
    let img = tiny_skia::Pixmap::decode_png(&png.bytes).unwrap();
    let (w, h) = size(&f.svg).unwrap();
    assert_eq!(img.width(), 1200);
    assert_eq!(img.height(), (h * 1200.0 / w).round() as u32);
    // luminance variance: a white page has none; the axes, whiskers and text give plenty
    let lum: Vec<f64> = img
        .pixels()
        .iter()
        .map(|p| (p.red() as f64 + p.green() as f64 + p.blue() as f64) / 3.0)
        .collect();
    let mean = lum.iter().sum::<f64>() / lum.len() as f64;
    let var = lum.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / lum.len() as f64;
    assert!(var > 100.0, "pixel variance {var}");
    let dark = lum.iter().filter(|l| **l < 128.0).count();
    assert!(dark > 1000, "{dark} dark pixels");
    assert!(files.iter().any(|a| a.name == "figures.json"));
}
