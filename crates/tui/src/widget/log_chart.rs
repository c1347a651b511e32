//! A line chart with a base-10 logarithmic y axis. ratatui's `Chart` only has linear axes,
//! so the series are plotted as log10(y) and the axis is labelled at whole decades
//! (`1e-8`, `1e-4`, `1e0`). ratatui puts label i of n on row i·(h−1)/(n−1) of a plot h rows
//! high, rounded down: so that each label sits exactly on its decade and none overwrites
//! another on a short chart, the count is one that divides the rows evenly with a blank row
//! between labels ([`label_count`]), and the bounds are snapped to that many decade steps.
//! The series' names are not drawn inside the chart (ratatui hides its legend whenever it
//! would cover a quarter of the plot): the screen draws one legend for all its charts.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::symbols::Marker;
use ratatui::text::Line;
use ratatui::widgets::{Axis, Block, Chart, Dataset, GraphType, Widget};

pub const MAX_LABELS: usize = 5;

/// One named series of (x, y) points with y > 0; other points are skipped (log undefined).
pub struct Series<'a> {
    pub name: &'a str,
    pub color: Color,
    pub points: Vec<(f64, f64)>,
}

pub struct LogChart<'a> {
    pub title: &'a str,
    /// The x range and the labels at its two ends.
    pub x_bounds: [f64; 2],
    pub x_labels: [String; 2],
    pub series: Vec<Series<'a>>,
    /// What the chart says when no series has a point.
    pub empty: &'a str,
}

/// How many y labels a plot `rows` high takes: at most [`MAX_LABELS`], spaced by the same
/// whole number of rows (at least two, so a blank row separates them); two (top and bottom)
/// when no larger count divides the rows evenly.
pub fn label_counts(rows: u16) -> Vec<usize> {
    let gaps = usize::from(rows.saturating_sub(1));
    let mut counts: Vec<usize> = (3..=MAX_LABELS)
        .rev()
        .filter(|n| gaps % (n - 1) == 0 && gaps / (n - 1) >= 2)
        .collect();
    counts.push(2);
    counts
}

/// The y bounds in log10 units and `n` decade labels, evenly spaced by a whole number of
/// decades, covering data spanning `lo..=hi` (log10); the bounds start at a multiple of the
/// step where that still covers the data.
pub fn decades(lo: f64, hi: f64, n: usize) -> ([f64; 2], Vec<String>) {
    let (lo, hi) = (lo.floor() as i64, hi.ceil() as i64);
    let hi = hi.max(lo + 1);
    let gaps = (n.max(2) - 1) as i64;
    let least = ((hi - lo) + gaps - 1) / gaps;
    // A start at a multiple of the step, with the step grown by at most a third; past that
    // (or when no multiple works, as for -1..1 in one gap) the data's own floor.
    let (start, step) = (least..=least + (least + 2) / 3)
        .map(|step| (lo.div_euclid(step) * step, step))
        .find(|&(start, step)| start + gaps * step >= hi)
        .unwrap_or((lo, least));
    let labels = (0..=gaps)
        .map(|k| format!("1e{}", start + k * step))
        .collect();
    ([start as f64, (start + gaps * step) as f64], labels)
}

/// Of the label counts a plot `rows` high takes, the one whose decades fit the data most
/// tightly (more labels on a tie).
pub fn fitted_decades(lo: f64, hi: f64, rows: u16) -> ([f64; 2], Vec<String>) {
    label_counts(rows)
        .into_iter()
        .map(|n| decades(lo, hi, n))
        .min_by(|a, b| {
            let span = |d: &([f64; 2], Vec<String>)| d.0[1] - d.0[0];
            span(a).total_cmp(&span(b)).then(b.1.len().cmp(&a.1.len()))
        })
        .unwrap_or_else(|| decades(lo, hi, 2))
}

/// Keep at most `max` points by taking every k-th (and always the last), so a 20,000-step
/// gradient-descent trace costs no more per frame than the chart has cells to show it.
pub fn thin(points: &[(f64, f64)], max: usize) -> Vec<(f64, f64)> {
    let k = points.len().div_ceil(max.max(1)).max(1);
    let mut out: Vec<_> = points.iter().copied().step_by(k).collect();
    if let Some(&last) = points.last() {
        if out.last() != Some(&last) {
            out.push(last);
        }
    }
    out
}

impl Widget for LogChart<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let budget = 2 * area.width as usize;
        let logged: Vec<Vec<(f64, f64)>> = self
            .series
            .iter()
            .map(|s| {
                let pts: Vec<_> = s
                    .points
                    .iter()
                    .filter(|(x, y)| x.is_finite() && y.is_finite() && *y > 0.0)
                    .map(|&(x, y)| (x, y.log10()))
                    .collect();
                thin(&pts, budget)
            })
            .collect();
        let all = || logged.iter().flatten();
        let block = Block::bordered().title(self.title);
        let Some(first) = all().next() else {
            let inner = block.inner(area);
            block.render(area, buf);
            Line::from(self.empty).render(inner, buf);
            return;
        };
        let (mut ylo, mut yhi) = (first.1, first.1);
        for &(_, y) in all() {
            ylo = ylo.min(y);
            yhi = yhi.max(y);
        }
        // The plot's rows: the chart's less the borders, the x axis and its labels.
        let rows = area.height.saturating_sub(4);
        let (ybounds, mut ylabels) = fitted_decades(ylo, yhi, rows);
        // One row cannot hold two labels apart: the range goes in the title instead.
        let block = match rows {
            0 | 1 => {
                let range = format!(" y: {} to {} ", ylabels[0], ylabels[ylabels.len() - 1]);
                ylabels.clear();
                block.title(range)
            }
            _ => block,
        };
        let datasets = self
            .series
            .iter()
            .zip(&logged)
            .map(|(s, pts)| {
                Dataset::default()
                    .marker(Marker::Braille)
                    .graph_type(GraphType::Line)
                    .style(Style::new().fg(s.color))
                    .data(pts)
            })
            .collect();
        Chart::new(datasets)
            .block(block)
            .legend_position(None)
            .x_axis(Axis::default().bounds(self.x_bounds).labels(self.x_labels))
            .y_axis(Axis::default().bounds(ybounds).labels(ylabels))
            .render(area, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decades_cover_the_data_with_evenly_spaced_exact_labels() {
        for (lo, hi) in [
            (-7.3, 2.4),
            (-15.2, 4.9),
            (2.1, 2.5),
            (-0.5, 0.5),
            (-3.0, -1.0),
        ] {
            for n in 2..=MAX_LABELS {
                let (b, l) = decades(lo, hi, n);
                assert!(b[0] <= lo && b[1] >= hi, "{lo} {hi} {n}: {b:?}");
                assert_eq!(l.len(), n);
                assert_eq!(l.first().unwrap(), &format!("1e{}", b[0]));
                assert_eq!(l.last().unwrap(), &format!("1e{}", b[1]));
                // every label one whole step of decades from the last
                let steps: Vec<i64> = l.iter().map(|s| s[2..].parse().unwrap()).collect();
                assert!(steps.windows(2).all(|w| w[1] - w[0] == steps[1] - steps[0]));
            }
        }
        assert_eq!(
            decades(2.1, 2.5, 2),
            ([2.0, 3.0], vec!["1e2".to_string(), "1e3".to_string()])
        );
        assert_eq!(
            decades(-15.2, 4.9, 5).1,
            ["1e-18", "1e-12", "1e-6", "1e0", "1e6"]
        );
    }

    #[test]
    fn labels_divide_the_rows_evenly_with_a_blank_row_between() {
        for rows in 0..40u16 {
            for n in label_counts(rows) {
                let gaps = usize::from(rows.saturating_sub(1));
                if n > 2 {
                    assert_eq!(gaps % (n - 1), 0, "{rows} rows, {n} labels");
                    assert!(gaps / (n - 1) >= 2, "{rows} rows, {n} labels");
                }
            }
        }
        assert_eq!(label_counts(13), [5, 4, 3, 2]);
        assert_eq!(label_counts(6), [2]);
        // a short chart never gets more labels than it has rows to separate them
        assert_eq!(fitted_decades(-15.0, 5.0, 4).1.len(), 2);
        // a one-decade series is not squashed into a four-decade axis
        assert_eq!(fitted_decades(2.1, 2.9, 13).0, [2.0, 3.0]);
    }

    /// The text of `chart` drawn `w` x `h`.
    fn drawn(chart: LogChart, w: u16, h: u16) -> Vec<String> {
        let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
        chart.render(buf.area, &mut buf);
        (0..h)
            .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect())
            .collect()
    }

    #[test]
    fn a_short_chart_keeps_its_end_labels_apart() {
        let chart = || LogChart {
            title: " t ",
            x_bounds: [0.0, 1.0],
            x_labels: ["0".into(), "100 %".into()],
            series: vec![Series {
                name: "a",
                color: Color::Yellow,
                points: (0..=6)
                    .map(|k| (k as f64 / 6.0, 10f64.powi(3 - 3 * k)))
                    .collect(),
            }],
            empty: "nothing",
        };
        // 4 plot rows: two labels (five would have overwritten each other), top and bottom
        let text = drawn(chart(), 30, 8);
        let labelled: Vec<&String> = text.iter().filter(|l| l.contains("│1e")).collect();
        assert_eq!(labelled.len(), 2, "{text:#?}");
        assert!(text[1].starts_with("│1e3"), "{text:#?}");
        assert!(text[4].starts_with("│1e-15"), "{text:#?}");
        // 9 plot rows: of 5, 3 or 2 labels evenly spaced, the 3 that fit 1e-15..1e3 most
        // tightly, each on its decade
        let text = drawn(chart(), 30, 13);
        for (row, label) in [(1, "1e3"), (5, "1e-6"), (9, "1e-15")] {
            assert!(text[row].starts_with(&format!("│{label}")), "{text:#?}");
        }
        // one plot row: the range in the title
        let text = drawn(chart(), 40, 5);
        assert!(text[0].contains("y: 1e-15 to 1e3"), "{text:#?}");
        // nothing to plot: the caller's words
        let mut empty = chart();
        empty.series.clear();
        assert!(drawn(empty, 30, 8)[1].contains("nothing"));
    }

    #[test]
    fn thinning_keeps_the_last_point() {
        let pts: Vec<_> = (0..1000).map(|i| (i as f64, 1.0)).collect();
        let t = thin(&pts, 100);
        assert!(t.len() <= 101);
        assert_eq!(t.last(), Some(&(999.0, 1.0)));
        assert_eq!(thin(&pts[..3], 100).len(), 3);
    }
}
