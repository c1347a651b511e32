//! `bayeslab export-figures` end to end on experiments/pictures_gibbs.toml: every report figure
//! becomes its own SVG (the report's inline figure byte for byte) and PNG (decoding at the
//! figure's size, not blank); a second export replaces the first, a directory of the user's is
//! refused and left alone, and a width that shrinks text below 14 px is refused, all exit 2.

use std::path::Path;
use std::process::Output;

use resvg::tiny_skia::Pixmap;

fn bayeslab(args: &[&str], paths: &[&Path]) -> Output {
    crate::util::cli::bin()
        .args(args)
        .args(paths)
        .output()
        .unwrap()
}

/// The SVG element report.html carries inline for figure `stem`.
fn inline(html: &str, stem: &str) -> String {
    let at = html.find(&format!("id=\"{stem}\"")).expect("the figure");
    let svg = &html[at..];
    let start = svg.find("<svg").unwrap();
    let end = svg.find("</svg>").unwrap() + "</svg>".len();
    svg[start..end].to_string()
}

#[test]
fn every_figure_is_exported_as_the_reports_svg_and_a_png() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    let exp = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/experiments/pictures_gibbs.toml"
    );
    let o = bayeslab(&["run", "--quiet", exp, "--out"], &[&run]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = tmp.path().join("figs");
    let results = run.join("results.json");
    let o = bayeslab(&["export-figures", "--out"], &[&out, &results]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(run.join("report.html")).unwrap();
    let mut stems: Vec<String> = std::fs::read_dir(run.join("plots"))
        .unwrap()
        .map(|e| {
            e.unwrap()
                .path()
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    stems.sort();
    assert!(stems.iter().any(|s| s.starts_with("weight-space-")));
    for stem in &stems {
        let svg = std::fs::read_to_string(out.join(format!("{stem}.svg"))).unwrap();
        // the file ends with plotters' newline after </svg>; the report inlines the element
        assert_eq!(
            svg.trim_end(),
            inline(&html, stem),
            "{stem}: the report's inline figure"
        );
        let png =
            Pixmap::decode_png(&std::fs::read(out.join(format!("{stem}.png"))).unwrap()).unwrap();
        let (w, h) = bayeslab_report::export::size(&svg).unwrap();
        assert_eq!((png.width(), png.height()), (w as u32, h as u32), "{stem}");
        let lum: Vec<f64> = png
            .pixels()
            .iter()
            .map(|p| (p.red() as f64 + p.green() as f64 + p.blue() as f64) / 3.0)
            .collect();
        let mean = lum.iter().sum::<f64>() / lum.len() as f64;
        let var = lum.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / lum.len() as f64;
        assert!(var > 50.0, "{stem}: pixel variance {var}");
    }
    // again, wider and PNG only: the previous export is replaced
    let o = bayeslab(
        &[
            "export-figures",
            "--format",
            "png",
            "--width",
            "2000",
            "--out",
        ],
        &[&out, &run],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!out.join("weights.svg").exists());
    let png = Pixmap::decode_png(&std::fs::read(out.join("weights.png")).unwrap()).unwrap();
    assert_eq!(png.width(), 2000);
    // too narrow: refused with the least width, nothing written
    let o = bayeslab(
        &["export-figures", "--width", "500", "--out"],
        &[&out, &run],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("below 14 px") && err.contains("use --width"),
        "{err}"
    );
    assert!(out.join("weights.png").exists());
    // a directory of the user's is never replaced
    let mine = tmp.path().join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::write(mine.join("notes.txt"), "mine").unwrap();
    let o = bayeslab(&["export-figures", "--out"], &[&mine, &run]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(mine.join("notes.txt")).unwrap(),
        "mine"
    );
    // a folder without figures: a clear error naming it
    let o = bayeslab(&["export-figures"], &[tmp.path()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no plots/ folder"));
}
