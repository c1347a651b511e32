//! The human view of a [`BenchRecord`]: one row per task, then the fit against the bound.

use super::{BenchRecord, TaskRecord};

const MIB: f64 = 1024.0 * 1024.0;

fn notes(t: &TaskRecord) -> String {
    if let Some(f) = &t.fit {
        let full = f.full_newton.as_ref().map_or(String::new(), |u| {
            format!(
                "; full Newton {:.3} s, {} Hessians (chord / full = {:.2})",
                u.median_seconds, u.hessians, u.chord_over_full
            )
        });
        format!(
            "{} Newton steps ({}) + Laplace: {} Hessian + {} gradient passes, {:.2} GFLOP/s{full}",
            f.newton_iterations, f.termination, f.hessians, f.gradient_passes, f.gflops
        )
    } else if let Some(b) = &t.bound {
        format!("faer X^T X, {:.2} GFLOP/s", b.gflops)
    } else if let Some(k) = &t.khat {
        format!(
            "S = {}: {:.1} M row-draws/s; faer X W {:.4} s, {:.2} GFLOP/s; k̂ / X W = {:.2}",
            k.draws,
            k.row_draws_per_second / 1e6,
            k.product_median_seconds,
            k.product_gflops,
            k.kernel_over_product
        )
    } else if let Some(p) = &t.predict {
        format!("S = {}, mean p = {:.4}", p.samples, p.mean_probability)
    } else if let Some(l) = t
        .load
        .as_ref()
        .filter(|l| l.polars_read_median_seconds.is_some())
    {
        format!(
            "loader {:.0} MB/s; plain polars read {:.3} s, {:.0} MB/s",
            l.loader_mb_per_second.unwrap_or(f64::NAN),
            l.polars_read_median_seconds.unwrap_or(f64::NAN),
            l.polars_mb_per_second.unwrap_or(f64::NAN)
        )
    } else {
        String::new()
    }
}

/// The table printed by `bayeslab bench` without `--json`.
pub fn table(r: &BenchRecord) -> String {
    let mut rows = vec![[
        "task".to_string(),
        "file".into(),
        "rows x cols".into(),
        "median s".into(),
        "min s".into(),
        "peak MiB".into(),
        "peak / input".into(),
        "notes".into(),
    ]];
    for t in &r.tasks {
        let min = t.seconds.iter().copied().fold(f64::INFINITY, f64::min);
        rows.push([
            t.task.name().into(),
            t.file.clone(),
            format!("{} x {}", t.rows, t.cols),
            format!("{:.4}", t.median_seconds),
            format!("{min:.4}"),
            t.peak_rss_bytes
                .map_or("-".into(), |p| format!("{:.0}", p as f64 / MIB)),
            t.peak_over_input.map_or("-".into(), |p| {
                format!("{p:.2}{}", if t.peak_reset { "" } else { "*" })
            }),
            notes(t),
        ]);
    }
    let widths: Vec<usize> = (0..8)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = format!(
        "bayeslab bench: {} thread(s) on {} core(s), lambda = {}, S = {}, median of {} repetition(s)\n\n",
        r.threads, r.cores, r.lambda, r.samples, r.reps
    );
    for row in &rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (c, w))| {
                if (3..7).contains(&i) {
                    format!("{c:>w$}")
                } else {
                    format!("{c:<w$}")
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    if let Some(ratio) = r.bound_over_fit {
        out.push_str(&format!(
            "\nfit vs bound: the fit ran at {:.0} % of the bound's GFLOP/s (bound / fit = {ratio:.2}; \
             work counted as 2(N D^2 + N D) flops per Hessian)\n",
            100.0 / ratio
        ));
    }
    if r.tasks.iter().any(|t| !t.peak_reset) {
        out.push_str("* the peak could not be reset before the step, so it includes loading\n");
    }
    out
}
