//! `bayeslab export-figures RUN [--out DIR] [--format svg|png|both] [--width PX]`: every
//! figure of a run's reports as its own file (library: output/export.rs).

use std::path::PathBuf;

use bayeslab_core::Error;
use bayeslab_report as output;
use bayeslab_report::export::{self, Format};

/// The long help: what is written, at what size, and what is refused.
pub const HELP: &str = "\
What it does:
  Reads RUN/plots/*.svg, the figures of report.html and report.md (report.html carries the same
  SVG inline), and writes each as its own file: NAME.svg, NAME.png, or both, plus figures.json
  (what was exported, from where, at what size). At the figures' native width (1000 px) the SVG
  is the report's figure byte for byte; --width scales the SVG's width and height (its drawing
  is vector) and rasterises the PNG at that width (resvg, the system's fonts).

Readable size:
  The smallest text of a figure is at least 14 px at the exported width; a narrower --width is
  refused with the least width that keeps it (exit 2). Wider is fine: 2000 for a projector.

Refused, with the fix (exit 2):
  RUN without plots/; an --out that exists and is neither empty nor a previous export or run
  (no files of yours are replaced), or that holds RUN's figures.

Examples:
  bayeslab export-figures runs/pictures_penguins
  bayeslab export-figures runs/pictures_penguins/results.json --out slides --format png --width 2000";

/// The file kinds, as --format spells them.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum FormatArg {
    Svg,
    Png,
    Both,
}

#[derive(clap::Args)]
pub struct FiguresArgs {
    /// A run directory written by `bayeslab run` (or the workbench's `e`), or its results.json.
    run: PathBuf,
    /// Where to write the figures [default: RUN/figures]. Replaced atomically: only an empty
    /// directory or a previous export may be replaced.
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// Which files each figure becomes.
    #[arg(long, value_enum, default_value = "both")]
    format: FormatArg,
    /// The figures' width in pixels [default: their native width, 1000]; at least the width
    /// that keeps text at 14 px.
    #[arg(long)]
    width: Option<u32>,
}

pub fn run(args: FiguresArgs) -> Result<i32, Error> {
    let (dir, figures) = export::sources(&args.run)?;
    let out = args.out.unwrap_or_else(|| dir.join("figures"));
    let inputs = vec![dir.join("plots")];
    output::check_out(&out, &inputs)?;
    let format = match args.format {
        FormatArg::Svg => Format::Svg,
        FormatArg::Png => Format::Png,
        FormatArg::Both => Format::Both,
    };
    let (artifacts, notes) = export::export(&args.run, &figures, format, args.width)?;
    output::write_dir_with_files(&out, &artifacts, &[], &inputs)?;
    for note in notes {
        eprintln!("note: {note}");
    }
    eprintln!(
        "wrote {} figures ({} files) to {}/",
        figures.len(),
        artifacts.len(),
        out.display()
    );
    Ok(0)
}
