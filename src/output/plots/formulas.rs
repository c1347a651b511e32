//! The predictive formulas as pictures (docs/maths.md §16): the logistic sigmoid against the
//! probit curve Phi(sqrt(pi/8) a) that approximates it, and the moderated predictive
//! E[sigma(a)], a ~ N(mu_a, s^2), against the activation variance s^2 at a fixed mu_a, each
//! approximation (probit, MacKay, Monte Carlo) beside the exact integral (1-D quadrature). Pure
//! functions of the experiment's seed: no run's numbers enter.

use plotters::prelude::*;
use rand_distr::{Distribution, StandardNormal};

use super::canvas::{draw_lines, look, marker, svg, Figure, FONT, TEXT, TITLE, WIDTH};
use super::legend::{self, line_keys, Key, Swatch};
use crate::model::predictive::{logistic_normal, mackay, probit_approx};
use crate::numeric::quadrature::GaussHermite;
use crate::numeric::special::{norm_cdf, sigmoid};

/// The fixed mean activation of the second figure, the variances it spans, and the draws of
/// each Monte-Carlo estimate (few, so that its noise shows).
pub const MU_A: f64 = 2.0;
pub const MAX_VAR: f64 = 16.0;
pub const MC_DRAWS: usize = 200;
const T: f64 = 0.626_657_068_657_750_1; // sqrt(pi / 8)

/// Both figures.
pub fn formulas(seed: u64) -> Vec<Figure> {
    vec![link(), moderated(seed)]
}

/// The largest |sigma(a) - Phi(sqrt(pi/8) a)| over a grid of a (about 0.018).
pub fn link_gap() -> f64 {
    (-1200..=1200)
        .map(|k| f64::from(k) / 100.0)
        .map(|a| (sigmoid(a) - norm_cdf(T * a)).abs())
        .fold(0.0, f64::max)
}

fn link() -> Figure {
    let xs: Vec<f64> = (-300..=300).map(|k| f64::from(k) / 50.0).collect();
    let series = vec![
        (
            "σ(a), the logistic sigmoid".to_string(),
            xs.iter().map(|&a| (a, sigmoid(a))).collect(),
        ),
        (
            "Φ(√(π/8)·a), the probit curve".to_string(),
            xs.iter().map(|&a| (a, norm_cdf(T * a))).collect(),
        ),
    ];
    let caption = "σ(a) against Φ(√(π/8)·a)".to_string();
    let keys = line_keys(&series);
    let text = svg((WIDTH, 520), |root| {
        root.fill(&WHITE)?;
        let area = legend::split(&root, &keys)?;
        let mut chart = ChartBuilder::on(&area)
            .caption(&caption, (FONT, TITLE))
            .margin(14)
            .x_label_area_size(55)
            .y_label_area_size(80)
            .build_cartesian_2d(-6.0..6.0, 0.0..1.0)?;
        chart
            .configure_mesh()
            .label_style((FONT, TEXT))
            .axis_desc_style((FONT, TEXT))
            .x_desc("activation a = xᵀw")
            .y_desc("p(y = 1)")
            .draw()?;
        draw_lines(&mut chart, &series)?;
        root.present()?;
        Ok(())
    });
    Figure {
        stem: "predictive-formulas-link".into(),
        caption,
        guide: format!(
            "The two curves never differ by more than {:.3}: the probit curve with slope √(π/8) \
             at 0 stands in for the sigmoid, and it can be integrated against a Gaussian in \
             closed form, which is where the probit and MacKay predictives come from.",
            link_gap()
        ),
        svg: text,
    }
}

/// (variance, Monte-Carlo estimate, its standard error) at each variance, from the seed.
pub fn monte_carlo(seed: u64, vars: &[f64]) -> Vec<(f64, f64, f64)> {
    let mut rng = crate::numeric::rng::stream(seed, "predictive-formulas/mc");
    vars.iter()
        .map(|&v| {
            let p: Vec<f64> = (0..MC_DRAWS)
                .map(|_| {
                    let z: f64 = StandardNormal.sample(&mut rng);
                    sigmoid(MU_A + v.sqrt() * z)
                })
                .collect();
            let mean = p.iter().sum::<f64>() / MC_DRAWS as f64;
            let var = p.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (MC_DRAWS - 1) as f64;
            (v, mean, (var / MC_DRAWS as f64).sqrt())
        })
        .collect()
}

fn moderated(seed: u64) -> Figure {
    let gh = GaussHermite::new(64);
    let vars: Vec<f64> = (0..=160).map(|k| f64::from(k) * MAX_VAR / 160.0).collect();
    let curve =
        |f: &dyn Fn(f64) -> f64| -> Vec<(f64, f64)> { vars.iter().map(|&v| (v, f(v))).collect() };
    let series = vec![
        (
            "probit: Φ(μ/√(8/π + s²))".to_string(),
            curve(&|v| probit_approx(MU_A, v)),
        ),
        (
            "MacKay: σ(μ/√(1 + πs²/8))".to_string(),
            curve(&|v| mackay(MU_A, v)),
        ),
    ];
    let exact = curve(&|v| logistic_normal(MU_A, v, &gh));
    let coarse: Vec<f64> = (0..=16).map(|k| f64::from(k) * MAX_VAR / 16.0).collect();
    let mc = monte_carlo(seed, &coarse);
    let mut keys = line_keys(&series);
    keys.push(Key {
        label: format!("Monte Carlo, {MC_DRAWS} draws (± 2 MCSE)"),
        swatch: Swatch::Series(look(2)),
    });
    keys.push(Key {
        label: "plug-in σ(μ)".into(),
        swatch: Swatch::Guide,
    });
    keys.push(Key {
        label: "exact E[σ(a)] (quadrature; the truth)".into(),
        swatch: Swatch::Truth,
    });
    let caption =
        format!("The moderated predictive at μ_a = {MU_A} against the activation variance s²");
    let text = svg((WIDTH, 560), |root| {
        root.fill(&WHITE)?;
        let area = legend::split(&root, &keys)?;
        let mut chart = ChartBuilder::on(&area)
            .caption(&caption, (FONT, TITLE))
            .margin(14)
            .x_label_area_size(55)
            .y_label_area_size(80)
            .build_cartesian_2d(0.0..MAX_VAR, 0.5..0.9)?;
        chart
            .configure_mesh()
            .label_style((FONT, TEXT))
            .axis_desc_style((FONT, TEXT))
            .x_desc("variance s² of the activation a ~ N(μ_a, s²)")
            .y_desc("p(y = 1)")
            .draw()?;
        chart.draw_series(DashedLineSeries::new(
            [(0.0, sigmoid(MU_A)), (MAX_VAR, sigmoid(MU_A))],
            6,
            4,
            BLACK.mix(0.6).stroke_width(1),
        ))?;
        draw_lines(&mut chart, &series)?;
        let c = look(2).colour;
        chart.draw_series(mc.iter().map(|&(v, m, se)| {
            PathElement::new([(v, m - 2.0 * se), (v, m + 2.0 * se)], c.stroke_width(2))
        }))?;
        marker(
            &mut chart,
            look(2),
            &mc.iter().map(|&(v, m, _)| (v, m)).collect::<Vec<_>>(),
        )?;
        chart.draw_series(LineSeries::new(exact.clone(), BLACK.stroke_width(3)))?;
        root.present()?;
        Ok(())
    });
    Figure {
        stem: "predictive-formulas-moderated".into(),
        caption,
        guide: format!(
            "With no uncertainty in the activation (s² = 0) every predictive is the plug-in σ(μ_a); \
             as s² grows the exact predictive is pulled towards 1/2, and a point far from the data \
             (large s²) gets a moderated prediction. Probit and MacKay follow the exact curve within \
             0.02 (probit is furthest at small s², where σ and Φ(√(π/8)·a) differ most); Monte Carlo scatters around it by its standard error ({MC_DRAWS} draws, \
             the bars ± 2 MCSE, seeded from the experiment's seed)."
        ),
        svg: text,
    }
}
