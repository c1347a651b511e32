//! `bayeslab export-figures`: every figure of a run directory's reports, one file each, as
//! standalone SVG and PNG for slides and handouts. The figures are the run's own plots/*.svg —
//! the same SVG elements report.html carries inline — so nothing is drawn twice; an SVG is
//! exported as it is at its native width, or with its root's width and height scaled (its
//! viewBox kept) at another, and a PNG is rasterised from it by resvg. A width at which the
//! smallest text would fall below [`MIN_TEXT_PX`] is refused.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use resvg::{tiny_skia, usvg};

use super::Artifact;
use bayeslab_core::error::Error;

/// The smallest text size an exported figure may have, in pixels at its exported width.
pub const MIN_TEXT_PX: f64 = 14.0;

/// Which files each figure becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Svg,
    Png,
    Both,
}

/// One report figure: its stem (the file name without .svg) and its SVG text.
pub struct Source {
    pub stem: String,
    pub svg: String,
}

fn bad(file: &Path, message: String) -> Error {
    Error::Config {
        file: file.to_path_buf(),
        message,
    }
}

/// The run directory of `path` (a run directory, or its results.json / sweep.json) and its
/// figures, in file-name order.
pub fn sources(path: &Path) -> Result<(PathBuf, Vec<Source>), Error> {
    let dir = match path.is_file() {
        true => path.parent().unwrap_or(Path::new(".")).to_path_buf(),
        false => path.to_path_buf(),
    };
    let plots = dir.join("plots");
    let entries = std::fs::read_dir(&plots).map_err(|_| {
        bad(
            path,
            "no plots/ folder here: give a run directory written by `bayeslab run` (or its \
             results.json)"
                .into(),
        )
    })?;
    let mut names: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "svg"))
        .collect();
    names.sort();
    if names.is_empty() {
        return Err(bad(&plots, "holds no .svg figure to export".into()));
    }
    let mut out = Vec::with_capacity(names.len());
    for p in names {
        let svg = std::fs::read_to_string(&p).map_err(|source| Error::Output {
            path: p.clone(),
            source,
        })?;
        let stem = p.file_stem().map(|s| s.to_string_lossy().into_owned());
        out.push(Source {
            stem: stem.unwrap_or_default(),
            svg,
        });
    }
    Ok((dir, out))
}

/// The value of attribute `name` of the SVG's root element.
fn root_attr(svg: &str, name: &str) -> Option<f64> {
    let root = &svg[svg.find("<svg")?..];
    let root = &root[..root.find('>')?];
    let at = root.find(&format!(" {name}=\""))? + name.len() + 3;
    root[at..].split('"').next()?.parse().ok()
}

/// The SVG's native (width, height) in pixels.
pub fn size(svg: &str) -> Option<(f64, f64)> {
    Some((root_attr(svg, "width")?, root_attr(svg, "height")?))
}

/// The smallest `font-size` in the SVG (at its native width), if it has text.
pub fn smallest_text(svg: &str) -> Option<f64> {
    svg.split("font-size=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next()?.parse::<f64>().ok())
        .min_by(f64::total_cmp)
}

/// The narrowest width at which every text of `svg` is at least [`MIN_TEXT_PX`].
pub fn min_width(svg: &str) -> Option<u32> {
    let (w, _) = size(svg)?;
    let text = smallest_text(svg)?;
    Some((w * MIN_TEXT_PX / text - 1e-9).ceil() as u32)
}

/// `svg` at `width` pixels: unchanged at its native width, else its root's width and height
/// scaled (the viewBox, which plotters writes, keeps the drawing's coordinates).
pub fn scaled(svg: &str, width: u32) -> Option<(String, u32, u32)> {
    let (w, h) = size(svg)?;
    let height = (h * width as f64 / w).round() as u32;
    if (w - width as f64).abs() < 0.5 {
        return Some((svg.to_string(), width, height));
    }
    let head_end = svg.find("<svg")? + svg[svg.find("<svg")?..].find('>')?;
    let head = &svg[..head_end];
    let fmt = |v: f64| match v.fract() == 0.0 {
        true => format!("{v:.0}"),
        false => format!("{v}"),
    };
    let head = head
        .replacen(
            &format!(" width=\"{}\"", fmt(w)),
            &format!(" width=\"{width}\""),
            1,
        )
        .replacen(
            &format!(" height=\"{}\"", fmt(h)),
            &format!(" height=\"{height}\""),
            1,
        );
    Some((format!("{head}{}", &svg[head_end..]), width, height))
}

/// The fonts PNG text is drawn with: the system's, "sans-serif" mapped to the first of a few
/// common families present; a note when there is none (the PNG then has no text).
pub fn fonts() -> (Arc<usvg::fontdb::Database>, Option<String>) {
    let mut db = usvg::fontdb::Database::new();
    db.load_system_fonts();
    let families: Vec<String> = db
        .faces()
        .flat_map(|f| f.families.iter().map(|(n, _)| n.clone()))
        .collect();
    let preferred = [
        "DejaVu Sans",
        "Liberation Sans",
        "Noto Sans",
        "Arial",
        "FreeSans",
    ];
    let pick = preferred
        .iter()
        .find(|p| families.iter().any(|f| f == *p))
        .map(|p| p.to_string())
        .or_else(|| families.first().cloned());
    let note = match pick {
        Some(family) => {
            db.set_sans_serif_family(family);
            None
        }
        None => Some(
            "no system font found: the PNG figures have no text (install one, e.g. Debian's \
             fonts-dejavu-core, and export again)"
                .to_string(),
        ),
    };
    (Arc::new(db), note)
}

/// `svg` rasterised at `width` x `height` pixels on white, as PNG bytes.
pub fn png(
    svg: &str,
    width: u32,
    height: u32,
    fonts: &Arc<usvg::fontdb::Database>,
) -> Result<Vec<u8>, String> {
    let options = usvg::Options {
        fontdb: fonts.clone(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| e.to_string())?;
    let mut pixmap =
        tiny_skia::Pixmap::new(width, height).ok_or("a figure of zero size".to_string())?;
    pixmap.fill(tiny_skia::Color::WHITE);
    let s = tree.size();
    let transform =
        tiny_skia::Transform::from_scale(width as f32 / s.width(), height as f32 / s.height());
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| e.to_string())
}

/// figures.json: what was exported, from where; `schema_version` first, as every bayeslab
/// output's marker file has it (files/guard.rs).
#[derive(serde::Serialize)]
struct Manifest {
    schema_version: u32,
    source: String,
    min_text_px: f64,
    figures: Vec<Listed>,
}

#[derive(serde::Serialize)]
struct Listed {
    stem: String,
    width: u32,
    height: u32,
}

/// The files of every figure at `width` (its native width when `None`), and the manifest
/// figures.json that marks the directory as an export (so that the next export may replace
/// it); `Err` names the figure and the width that would make its text too small.
pub fn export(
    origin: &Path,
    figures: &[Source],
    format: Format,
    width: Option<u32>,
) -> Result<(Vec<Artifact>, Vec<String>), Error> {
    let (fonts, note) = match format {
        Format::Svg => (Arc::new(usvg::fontdb::Database::new()), None),
        _ => fonts(),
    };
    let mut artifacts = Vec::new();
    let mut listed = Vec::new();
    for f in figures {
        let (native, _) = size(&f.svg).ok_or_else(|| {
            bad(
                origin,
                format!("plots/{}.svg has no width and height", f.stem),
            )
        })?;
        let w = width.unwrap_or(native.round() as u32);
        if let Some(least) = min_width(&f.svg).filter(|least| w < *least) {
            return Err(bad(
                origin,
                format!(
                    "--width {w} would draw the smallest text of {} below {MIN_TEXT_PX} px; \
                     use --width {least} or more",
                    f.stem
                ),
            ));
        }
        let (svg, w, h) = scaled(&f.svg, w)
            .ok_or_else(|| bad(origin, format!("plots/{}.svg has no <svg> root", f.stem)))?;
        if format != Format::Png {
            artifacts.push(Artifact {
                name: format!("{}.svg", f.stem),
                bytes: svg.clone().into_bytes(),
            });
        }
        if format != Format::Svg {
            let bytes = png(&svg, w, h, &fonts).map_err(|e| {
                bad(
                    origin,
                    format!("plots/{}.svg could not be drawn: {e}", f.stem),
                )
            })?;
            artifacts.push(Artifact {
                name: format!("{}.png", f.stem),
                bytes,
            });
        }
        listed.push(Listed {
            stem: f.stem.clone(),
            width: w,
            height: h,
        });
    }
    let manifest = Manifest {
        schema_version: 1,
        source: origin.display().to_string(),
        min_text_px: MIN_TEXT_PX,
        figures: listed,
    };
    artifacts.push(Artifact {
        name: "figures.json".into(),
        bytes: serde_json::to_vec_pretty(&manifest).unwrap_or_default(),
    });
    Ok((artifacts, note.into_iter().collect()))
}

#[cfg(test)]
#[path = "export_tests.rs"]
mod tests;
