//! Posterior mean ± 2 sd per weight as one text row each: the name, the numbers, and a
//! whisker `├──●──┤` on a scale given by the caller (the Posterior screen shares one between
//! all runs, so EP's 0.6 and logistic's 1.0 are drawn where they are) with `│` marking zero,
//! so a weight whose interval crosses zero is visible at a glance. The first row labels the
//! columns and the scale. Point estimates without a posterior draw only the dot; heading rows
//! (a multiclass run's class blocks) span the line.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::Widget;

/// Width of the numbers column: `   +1.234 ± 0.567   `.
const NUMBERS: usize = 20;

pub struct Whisker {
    pub name: String,
    pub mean: f64,
    /// Standard deviation; `None` for a point estimate.
    pub sd: Option<f64>,
}

pub enum WhiskerRow {
    Heading(String),
    Weight(Whisker),
}

pub struct Whiskers<'a> {
    pub rows: &'a [WhiskerRow],
    /// Rows to skip at the top.
    pub offset: usize,
    /// The scale: `[lo, hi]`, holding zero.
    pub extent: (f64, f64),
    /// Characters for the names (their longest, already fitted).
    pub label: usize,
}

/// The smallest interval holding zero and every mean ± 2 sd.
pub fn extent<'a>(rows: impl IntoIterator<Item = &'a Whisker>) -> (f64, f64) {
    rows.into_iter()
        .filter(|w| w.mean.is_finite())
        .fold((0.0_f64, 0.0_f64), |(lo, hi), w| {
            let r = 2.0 * w.sd.filter(|s| s.is_finite()).unwrap_or(0.0);
            (lo.min(w.mean - r), hi.max(w.mean + r))
        })
}

/// An axis label with as many decimals as its size needs.
fn tick(v: f64) -> String {
    match v.abs() {
        a if a >= 100.0 => format!("{v:.0}"),
        a if a >= 10.0 => format!("{v:.1}"),
        _ => format!("{v:.2}"),
    }
}

/// Rows the widget draws in `height` rows: all but the scale's.
pub fn visible(height: u16) -> usize {
    height.saturating_sub(1) as usize
}

impl Widget for Whiskers<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.height == 0 {
            return;
        }
        let label = self.label.min(area.width as usize / 3);
        let plot_x = area.x + (label + 1 + NUMBERS + 1) as u16;
        let width = area.right().saturating_sub(plot_x) as usize;
        let (lo, hi) = self.extent;
        let span = (hi - lo).max(f64::MIN_POSITIVE);
        let col = |v: f64| {
            let t = ((v - lo) / span).clamp(0.0, 1.0);
            plot_x + (t * (width.saturating_sub(1)) as f64).round() as u16
        };
        let bold = Style::new().add_modifier(Modifier::BOLD);
        let dim = Style::new().fg(Color::DarkGray);
        buf.set_string(area.x, area.y, format!("{:>label$}", "weight"), bold);
        let head = format!("{:>9} ± {:<8}", "mean", "2 sd");
        buf.set_string(area.x + label as u16 + 1, area.y, head, bold);
        if width >= 12 {
            let (l, h) = (tick(lo), tick(hi));
            buf.set_string(plot_x, area.y, &l, dim);
            let h_x = area.right() - h.chars().count() as u16;
            buf.set_string(h_x, area.y, &h, dim);
            let z = col(0.0);
            if z > plot_x + l.chars().count() as u16 && z + 1 < h_x {
                buf.set_string(z, area.y, "0", dim);
            }
        }
        let rows = self.rows.iter().skip(self.offset);
        for (i, row) in rows.take(visible(area.height)).enumerate() {
            let y = area.y + 1 + i as u16;
            let w = match row {
                WhiskerRow::Heading(text) => {
                    let line = format!("── {text} ");
                    buf.set_stringn(area.x, y, line, area.width as usize, bold);
                    continue;
                }
                WhiskerRow::Weight(w) => w,
            };
            buf.set_string(area.x, y, format!("{:>label$}", w.name), Style::new());
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

    fn line(buf: &Buffer, y: u16) -> String {
        (0..buf.area.width)
            .map(|x| buf[(x, y)].symbol().to_string())
            .collect()
    }

    #[test]
    fn whisker_spans_two_sd_on_the_given_scale_and_zero_is_marked() {
        let rows = [
            WhiskerRow::Weight(Whisker {
                name: "a".into(),
                mean: 1.0,
                sd: Some(0.5),
            }),
            WhiskerRow::Heading("class b".into()),
            WhiskerRow::Weight(Whisker {
                name: "b".into(),
                mean: -1.0,
                sd: None,
            }),
        ];
        let mut buf = Buffer::empty(Rect::new(0, 0, 60, 4));
        let extent = extent(rows.iter().filter_map(|r| match r {
            WhiskerRow::Weight(w) => Some(w),
            WhiskerRow::Heading(_) => None,
        }));
        assert_eq!(extent, (-1.0, 2.0));
        Whiskers {
            rows: &rows,
            offset: 0,
            extent,
            label: 6,
        }
        .render(buf.area, &mut buf);
        // The scale row: its ends at the plot's ends, zero where zero is drawn below.
        let scale = line(&buf, 0);
        assert!(scale.starts_with("weight      mean ± 2 sd"), "{scale}");
        assert!(
            scale.contains("-1.00") && scale.ends_with("2.00"),
            "{scale}"
        );
        assert!(line(&buf, 1).contains("+1.000 ± 1.000"));
        assert!(line(&buf, 2).starts_with("── class b"));
        // scale [-1, 2] over columns 28..=59: zero at 28 + 31/3 ≈ 38, mean 1 at 49.
        assert_eq!(buf[(38, 0)].symbol(), "0");
        assert_eq!(buf[(38, 3)].symbol(), "│");
        assert_eq!(buf[(49, 1)].symbol(), "●");
        assert_eq!(buf[(59, 1)].symbol(), "┤");
        assert_eq!(buf[(28, 3)].symbol(), "●");
    }

    #[test]
    fn a_wider_shared_scale_draws_the_same_weight_shorter() {
        let rows = [WhiskerRow::Weight(Whisker {
            name: "a".into(),
            mean: 0.6,
            sd: None,
        })];
        let at = |extent| {
            let mut buf = Buffer::empty(Rect::new(0, 0, 60, 2));
            Whiskers {
                rows: &rows,
                offset: 0,
                extent,
                label: 1,
            }
            .render(buf.area, &mut buf);
            (0..60).position(|x| buf[(x, 1)].symbol() == "●")
        };
        // Alone, 0.6 is the right end; on a scale reaching 1.2 it is halfway.
        assert_eq!(at((0.0, 0.6)), Some(59));
        assert_eq!(at((0.0, 1.2)), Some(23 + 18));
    }
}
