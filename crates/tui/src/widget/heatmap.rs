//! A square image of values (an 8x8 grid of pixel weights) drawn as two-cell-wide blocks,
//! coloured on a scale and shaded with ` ░▒▓█` so the picture survives a monochrome
//! terminal and a text snapshot. Diverging scales (weights' posterior mean) centre on 0;
//! sequential ones (variance) run from the minimum to the maximum.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::widgets::Widget;

const SHADES: [&str; 5] = [" ", "░", "▒", "▓", "█"];

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scale {
    /// Blue for negative, red for positive, intensity by |v| / max |v|.
    Diverging,
    /// Dark to bright yellow from min to max.
    Sequential,
}

pub struct Heatmap<'a> {
    pub values: &'a [f64],
    pub side: usize,
    pub scale: Scale,
}

impl Heatmap<'_> {
    /// Intensity in [0, 1] and colour of one value.
    pub fn shade(&self, v: f64) -> (f64, Color) {
        let finite = || self.values.iter().copied().filter(|x| x.is_finite());
        match self.scale {
            Scale::Diverging => {
                let m = finite().fold(0.0_f64, |a, x| a.max(x.abs()));
                let t = if m > 0.0 { (v.abs() / m).min(1.0) } else { 0.0 };
                let c = (55.0 + 200.0 * t) as u8;
                (
                    t,
                    if v < 0.0 {
                        Color::Rgb(40, 80, c)
                    } else {
                        Color::Rgb(c, 50, 40)
                    },
                )
            }
            Scale::Sequential => {
                let lo = finite().fold(f64::INFINITY, f64::min);
                let hi = finite().fold(f64::NEG_INFINITY, f64::max);
                let t = if hi > lo {
                    ((v - lo) / (hi - lo)).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let c = (40.0 + 215.0 * t) as u8;
                (t, Color::Rgb(c, c, 30))
            }
        }
    }
}

impl Widget for Heatmap<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        for row in 0..self.side.min(area.height as usize) {
            for col in 0..self.side.min(area.width as usize / 2) {
                let Some(&v) = self.values.get(row * self.side + col) else {
                    continue;
                };
                let (t, color) = self.shade(v);
                let glyph = SHADES[((t * 4.0).round() as usize).min(4)];
                let x = area.x + 2 * col as u16;
                let y = area.y + row as u16;
                buf.set_string(x, y, glyph.repeat(2), Style::new().fg(color));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extremes_are_full_blocks_and_zero_is_blank() {
        let values = [0.0, 1.0, -2.0, 0.5];
        let mut buf = Buffer::empty(Rect::new(0, 0, 4, 2));
        Heatmap {
            values: &values,
            side: 2,
            scale: Scale::Diverging,
        }
        .render(buf.area, &mut buf);
        assert_eq!(buf[(0, 0)].symbol(), " ");
        assert_eq!(buf[(2, 0)].symbol(), "▒");
        assert_eq!(buf[(2, 1)].symbol(), "░");
        assert_eq!(buf[(0, 1)].symbol(), "█");
        assert_eq!(buf[(1, 1)].symbol(), "█");
        assert!(matches!(buf[(0, 1)].fg, Color::Rgb(40, 80, 255)));
    }

    #[test]
    fn sequential_scale_runs_min_to_max() {
        let values = [1.0, 2.0, 3.0, 5.0];
        let h = Heatmap {
            values: &values,
            side: 2,
            scale: Scale::Sequential,
        };
        assert_eq!(h.shade(1.0).0, 0.0);
        assert_eq!(h.shade(5.0).0, 1.0);
        assert_eq!(h.shade(3.0).0, 0.5);
    }
}
