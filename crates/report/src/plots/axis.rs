//! Axis ticks every figure shares: "nice" steps (1, 2 or 5 × 10^k) that are whole numbers on
//! an axis of whole numbers (iterations, sweeps), so that no two ticks read the same, and the
//! width a label takes.

/// Ticks over [lo, hi]: at most `max` multiples of a step 1, 2 or 5 × 10^k; with `integer`,
/// the step is at least 1, so an axis of iterations 0..5 reads 0 1 2 3 4 5 and never
/// "0 0 1 2 2 2 3" (plotters' decimal ticks formatted without decimals).
pub(crate) fn nice_ticks(lo: f64, hi: f64, max: usize, integer: bool) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo || max < 2 {
        return vec![lo];
    }
    let step = step(lo, hi, max, integer);
    let (first, last) = (
        (lo / step - 1e-9).ceil() as i64,
        (hi / step + 1e-9).floor() as i64,
    );
    (first..=last).map(|n| n as f64 * step).collect()
}

/// The step of [`nice_ticks`].
fn step(lo: f64, hi: f64, max: usize, integer: bool) -> f64 {
    let raw = (hi - lo) / (max.max(2) - 1) as f64;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * magnitude);
    if integer {
        step.max(1.0).round()
    } else {
        step
    }
}

/// The label of a tick on an axis of whole numbers: plotters places as many ticks as
/// [`nice_ticks`] counts (`x_labels(n)`), which with its own 1-2-5 steps are the same whole
/// numbers; a tick between whole numbers, should it ever come, stays blank rather than repeat
/// its neighbour's label.
pub(crate) fn whole(v: &f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{:.0}", v.round())
    } else {
        String::new()
    }
}

/// Pixels a label of `chars` characters takes at `size` (about 0.55 em a character in a
/// sans-serif face).
pub(crate) fn text_width(chars: usize, size: u32) -> u32 {
    (chars as f64 * size as f64 * 0.55).ceil() as u32
}
