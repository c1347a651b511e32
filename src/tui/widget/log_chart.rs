//! A line chart with a base-10 logarithmic y axis. ratatui's `Chart` only has linear axes,
//! so the series are plotted as log10(y) and the axis is labelled at whole decades
//! (`1e-8`, `1e-4`, `1e0`): the bounds are snapped to multiples of a decade step chosen so
//! that at most [`MAX_LABELS`] labels fit, which keeps the evenly spaced labels exact.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::symbols::Marker;
use ratatui::text::Line;
use ratatui::widgets::{Axis, Block, Chart, Dataset, GraphType, LegendPosition, Widget};

pub const MAX_LABELS: usize = 5;

/// One named series of (x, y) points with y > 0; other points are skipped (log undefined).
pub struct Series<'a> {
    pub name: &'a str,
    pub color: Color,
    pub points: Vec<(f64, f64)>,
}

pub struct LogChart<'a> {
    pub title: &'a str,
    pub x_title: &'a str,
    pub series: Vec<Series<'a>>,
}

/// The y bounds in log10 units and the decade labels for data spanning `lo..=hi` (log10).
pub fn decades(lo: f64, hi: f64) -> ([f64; 2], Vec<String>) {
    let (lo, hi) = (lo.floor() as i64, hi.ceil() as i64);
    let hi = hi.max(lo + 1);
    let span = (hi - lo) as usize;
    let step = span.div_ceil(MAX_LABELS - 1).max(1) as i64;
    let lo = lo.div_euclid(step) * step;
    let hi = lo + (hi - lo + step - 1) / step * step;
    let labels = (0..=(hi - lo) / step)
        .map(|k| format!("1e{}", lo + k * step))
        .collect();
    ([lo as f64, hi as f64], labels)
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
            Line::from("no iterations yet").render(inner, buf);
            return;
        };
        let (mut ylo, mut yhi, mut xhi) = (first.1, first.1, first.0);
        for &(x, y) in all() {
            ylo = ylo.min(y);
            yhi = yhi.max(y);
            xhi = xhi.max(x);
        }
        let (ybounds, ylabels) = decades(ylo, yhi);
        let xhi = xhi.max(1.0);
        let datasets = self
            .series
            .iter()
            .zip(&logged)
            .map(|(s, pts)| {
                Dataset::default()
                    .name(s.name)
                    .marker(Marker::Braille)
                    .graph_type(GraphType::Line)
                    .style(Style::new().fg(s.color))
                    .data(pts)
            })
            .collect();
        Chart::new(datasets)
            .block(block)
            .legend_position(Some(LegendPosition::TopRight))
            .x_axis(
                Axis::default()
                    .title(self.x_title)
                    .bounds([0.0, xhi])
                    .labels(["0".to_string(), format!("{xhi}")]),
            )
            .y_axis(Axis::default().bounds(ybounds).labels(ylabels))
            .render(area, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decades_cover_the_data_with_exact_labels() {
        let (b, l) = decades(-7.3, 2.4);
        assert!(b[0] <= -7.3 && b[1] >= 2.4);
        assert!(l.len() <= MAX_LABELS);
        assert_eq!(l.first().unwrap(), &format!("1e{}", b[0]));
        assert_eq!(l.last().unwrap(), &format!("1e{}", b[1]));
        let (b, l) = decades(2.1, 2.5);
        assert_eq!(
            (b, l),
            ([2.0, 3.0], vec!["1e2".to_string(), "1e3".to_string()])
        );
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
