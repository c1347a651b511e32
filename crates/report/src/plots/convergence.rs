//! Convergence curves of the optimisers from the trace: gradient norms and objectives (the
//! samplers' chains are drawn by [`super::chains`]).

use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

use super::axis::{nice_ticks, whole};
use super::canvas::{draw_lines, svg, DrawResult, Figure, FONT, TEXT, TITLE, WIDTH};
use super::legend::{self, line_keys};
use bayeslab_core::record::ExperimentRecord;

/// What a convergence chart's axes say and draw, whichever scale its x axis has.
struct Axes<'s> {
    x_desc: &'s str,
    y_desc: &'s str,
    ticks: usize,
    series: &'s [(String, Vec<(f64, f64)>)],
}

impl Axes<'_> {
    fn draw<X, Y>(
        &self,
        builder: &mut ChartBuilder<'_, '_, SVGBackend<'_>>,
        x: X,
        y: Y,
        x_format: &dyn Fn(&f64) -> String,
        y_format: Option<&dyn Fn(&f64) -> String>,
    ) -> DrawResult
    where
        X: AsRangedCoord<Value = f64>,
        Y: AsRangedCoord<Value = f64>,
        X::CoordDescType: ValueFormatter<f64>,
        Y::CoordDescType: ValueFormatter<f64>,
    {
        let mut chart = builder.build_cartesian_2d(x, y)?;
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(self.x_desc)
            .label_style((FONT, TEXT))
            .axis_desc_style((FONT, TEXT))
            .x_labels(self.ticks)
            .x_label_formatter(x_format)
            .y_desc(self.y_desc);
        if let Some(format) = y_format {
            mesh.y_label_formatter(format);
        }
        mesh.draw()?;
        draw_lines(&mut chart, self.series)
    }
}

/// A log axis's key points (1, 2, 5, 10, …) as they are.
fn plain(v: &f64) -> String {
    format!("{}", v.round())
}

/// Which trace figure: the optimisers' gradient norms, EP's site distances (its trace's
/// `grad_norm`: a different quantity, so a chart of its own) or objectives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trace {
    Gradient,
    /// EP's and ADF's largest site change per sweep.
    SiteDistance,
    /// The objectives of one kind only: E(w), −ln Z_EP, −ELBO and the JJ bound are different
    /// quantities and never share an axis.
    Objective(Objective),
}

/// What a run's trace calls its objective, from its kind's catalogue row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Objective {
    /// E(w), the negative log joint (the negative log-likelihood for an MLE).
    Energy,
    /// −ln Z_EP per sweep (EP and ADF).
    Ep,
    /// −ELBO of the KL-optimal Gaussian.
    Elbo,
    /// −(the Jaakkola–Jordan bound).
    JjBound,
}

impl Objective {
    pub fn of(run: &bayeslab_core::record::RunRecord) -> Objective {
        Objective::of_kind(run.kind)
    }

    /// What a run of `kind` minimises, from its catalogue row.
    pub fn of_kind(kind: bayeslab_core::catalog::MethodKind) -> Objective {
        use bayeslab_core::catalog::LogEvidence;
        match kind.log_evidence() {
            Some(LogEvidence::Ep | LogEvidence::Adf) => Objective::Ep,
            Some(LogEvidence::Elbo) => Objective::Elbo,
            Some(LogEvidence::JjBound) => Objective::JjBound,
            Some(LogEvidence::Laplace | LogEvidence::Exact) | None => Objective::Energy,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Objective::Energy => "E(w)",
            Objective::Ep => "−ln Z_EP",
            Objective::Elbo => "−ELBO",
            Objective::JjBound => "−JJ bound",
        }
    }

    fn stem(self) -> &'static str {
        match self {
            Objective::Energy => "convergence-objective",
            Objective::Ep => "convergence-objective-ep",
            Objective::Elbo => "convergence-objective-elbo",
            Objective::JjBound => "convergence-objective-jj",
        }
    }
}

/// Gradient norm (log scale: it falls over many decades under Newton) or objective per
/// iteration, one line per run.
pub fn convergence(r: &ExperimentRecord, which: Trace) -> Figure {
    let gradient = matches!(which, Trace::Gradient | Trace::SiteDistance);
    let caption = match which {
        Trace::Gradient => "Convergence: gradient norm".to_string(),
        Trace::SiteDistance => "Convergence: EP's largest site change".to_string(),
        Trace::Objective(o) => format!("Convergence: objective {}", o.label()),
    };
    let series: Vec<(String, Vec<(f64, f64)>)> = r
        .runs
        .iter()
        .filter(|run| run.diagnostics.is_none())
        .filter(|run| match which {
            Trace::Objective(o) => Objective::of(run) == o,
            Trace::Gradient => Objective::of(run) != Objective::Ep,
            Trace::SiteDistance => Objective::of(run) == Objective::Ep,
        })
        .map(|run| {
            let pts = r
                .trace
                .iter()
                .filter(|t| t.run == run.id)
                .map(|t| {
                    (
                        t.iterate.iteration as f64,
                        if gradient {
                            t.iterate.grad_norm
                        } else {
                            t.iterate.objective
                        },
                    )
                })
                .filter(|(_, v)| v.is_finite() && (!gradient || *v > 0.0))
                .collect();
            let name = match run.flag() {
                Some(f) => format!("{} ({f})", run.id),
                None => run.id.clone(),
            };
            (name, pts)
        })
        .filter(|(_, pts): &(String, Vec<(f64, f64)>)| !pts.is_empty())
        .collect();
    let all = series.iter().flat_map(|(_, p)| p.iter());
    let x_max = all.clone().map(|p| p.0).fold(1.0, f64::max);
    let (lo, hi) = all
        .map(|p| p.1)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
    let keys = line_keys(&series);
    // Newton's five steps beside ten thousand gradient steps would be one column at x = 0 on a
    // linear axis: when the runs' lengths differ that much, x is iteration + 1 on a log scale.
    let lengths = series
        .iter()
        .map(|(_, p)| p.iter().map(|q| q.0).fold(1.0, f64::max));
    let shortest = lengths.clone().fold(f64::INFINITY, f64::min);
    let log_x = series.len() > 1 && x_max > 20.0 && x_max > 20.0 * shortest;
    let series: Vec<(String, Vec<(f64, f64)>)> = if log_x {
        let shift = |p: &Vec<(f64, f64)>| p.iter().map(|&(x, y)| (x + 1.0, y)).collect();
        series.iter().map(|(n, p)| (n.clone(), shift(p))).collect()
    } else {
        series
    };
    // EP's site distances are one per sweep over the sites, not per optimiser iteration
    let unit = match which {
        Trace::SiteDistance => "sweep over the sites",
        _ => "iteration",
    };
    let x_desc = if log_x {
        format!("{unit} + 1 (log scale)")
    } else {
        unit.to_string()
    };
    // iterations and sweeps are whole numbers: whole ticks, never a label twice
    let x_max = x_max.max(1.0);
    let ticks = nice_ticks(0.0, x_max, 11, true).len();
    let text = svg((WIDTH, 480), |root| {
        root.fill(&WHITE)?;
        let area = legend::split(&root, &keys)?;
        let mut builder = ChartBuilder::on(&area);
        builder
            .caption(&caption, (FONT, TITLE))
            .margin(14)
            .x_label_area_size(50)
            .y_label_area_size(90);
        let axes = Axes {
            x_desc: &x_desc,
            y_desc: match which {
                Trace::Gradient => "‖g‖ (log scale)",
                Trace::SiteDistance => "site change (log scale)",
                Trace::Objective(o) => o.label(),
            },
            ticks,
            series: &series,
        };
        let x_log = (1.0..x_max + 1.0).log_scale();
        if gradient {
            let y = (lo.max(1e-300) / 2.0..hi * 2.0).log_scale();
            let decade = |v: &f64| format!("{v:.0e}");
            match log_x {
                true => axes.draw(&mut builder, x_log, y, &plain, Some(&decade)),
                false => axes.draw(&mut builder, 0.0..x_max, y, &whole, Some(&decade)),
            }
        } else {
            let pad = ((hi - lo) * 0.05).max(1e-9);
            let y = (lo - pad)..(hi + pad);
            match log_x {
                true => axes.draw(&mut builder, x_log, y, &plain, None),
                false => axes.draw(&mut builder, 0.0..x_max, y, &whole, None),
            }
        }?;
        root.present()?;
        Ok(())
    });
    let guide = match which {
        Trace::Gradient => "One line per optimising run but EP's; iteration 0 is the start w = 0. Newton's norm falls by orders of magnitude in its last steps.",
        Trace::SiteDistance => "EP's largest change of a site's parameters in each sweep (its convergence test), apart from the gradient norms: a different quantity.",
        Trace::Objective(Objective::Energy) => "E(w), the negative log joint each run minimises (the negative log-likelihood for an MLE), per iteration.",
        Trace::Objective(Objective::Ep) => "−ln Z_EP per sweep of EP (one pass for ADF).",
        Trace::Objective(Objective::Elbo) => "−ELBO of the KL-optimal Gaussian per iteration: a bound, not E(w).",
        Trace::Objective(Objective::JjBound) => "The negative Jaakkola–Jordan bound per iteration: a bound, not E(w).",
    }
    .to_string();
    Figure {
        stem: match which {
            Trace::Gradient => "convergence-gradient".into(),
            Trace::SiteDistance => "convergence-site-distance".into(),
            Trace::Objective(o) => o.stem().into(),
        },
        caption,
        guide,
        svg: text,
    }
}
