//! Posterior mean ± 2 sd per weight as one text row each: the name, the numbers, and a
//! whisker `├──●──┤` on a scale shared by all rows with `│` marking zero, so a weight whose
//! interval crosses zero is visible at a glance. Point estimates without a posterior draw
//! only the dot.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::widgets::Widget;

pub struct Whisker<'a> {
    pub name: &'a str,
    pub mean: f64,
    /// Standard deviation; `None` for a point estimate.
    pub sd: Option<f64>,
}

pub struct Whiskers<'a> {
    pub rows: &'a [Whisker<'a>],
    /// Rows to skip at the top.
    pub offset: usize,
}

/// The shared scale: the smallest interval holding zero and every mean ± 2 sd.
pub fn extent(rows: &[Whisker]) -> (f64, f64) {
    rows.iter().fold((0.0_f64, 0.0_f64), |(lo, hi), w| {
        let r = 2.0 * w.sd.unwrap_or(0.0);
        (lo.min(w.mean - r), hi.max(w.mean + r))
    })
}

impl Widget for Whiskers<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let label = 12.min(area.width as usize / 4);
        let numbers = 20;
        let plot_x = area.x + (label + 1 + numbers + 1) as u16;
        let width = area.right().saturating_sub(plot_x) as usize;
        let (lo, hi) = extent(self.rows);
        let span = (hi - lo).max(f64::MIN_POSITIVE);
        let col = |v: f64| {
            let t = ((v - lo) / span).clamp(0.0, 1.0);
            plot_x + (t * (width.saturating_sub(1)) as f64).round() as u16
        };
        let dim = Style::new().fg(Color::DarkGray);
        for (i, w) in self.rows.iter().skip(self.offset).enumerate() {
            if i >= area.height as usize {
                break;
            }
            let y = area.y + i as u16;
            let name: String = w.name.chars().take(label).collect();
            buf.set_string(area.x, y, format!("{name:>label$}"), Style::new());
            let nums = match w.sd {
                Some(sd) => format!("{:>+9.3} ± {:<8.3}", w.mean, 2.0 * sd),
                None => format!("{:>+9.3}", w.mean),
            };
            buf.set_string(area.x + label as u16 + 1, y, nums, Style::new());
            if width < 3 {
                continue;
            }
            buf.set_string(col(0.0), y, "│", dim);
            if let Some(sd) = w.sd {
                let (a, b) = (col(w.mean - 2.0 * sd), col(w.mean + 2.0 * sd));
                for x in a..=b {
                    buf.set_string(x, y, "─", Style::new().fg(Color::Cyan));
                }
                buf.set_string(a, y, "├", Style::new().fg(Color::Cyan));
                buf.set_string(b, y, "┤", Style::new().fg(Color::Cyan));
            }
            buf.set_string(col(w.mean), y, "●", Style::new().fg(Color::Yellow));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whisker_spans_two_sd_and_zero_is_marked() {
        let rows = [
            Whisker {
                name: "a",
                mean: 1.0,
                sd: Some(0.5),
            },
            Whisker {
                name: "b",
                mean: -1.0,
                sd: None,
            },
        ];
        let mut buf = Buffer::empty(Rect::new(0, 0, 60, 2));
        Whiskers {
            rows: &rows,
            offset: 0,
        }
        .render(buf.area, &mut buf);
        let line: String = (0..60).map(|x| buf[(x, 0)].symbol().to_string()).collect();
        assert!(line.contains("+1.000 ± 1.000"), "{line}");
        // scale [-1, 2] over columns 34..=59: zero at 34 + 25/3 ≈ 42, mean 1 at 51.
        assert_eq!(buf[(42, 1)].symbol(), "│");
        assert_eq!(buf[(51, 0)].symbol(), "●");
        assert_eq!(buf[(59, 0)].symbol(), "┤");
        assert_eq!(buf[(34, 1)].symbol(), "●");
    }
}
