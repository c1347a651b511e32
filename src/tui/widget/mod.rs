//! Reusable drawing pieces the screens compose: a log-scale line chart, a heatmap for
//! image-shaped weights, and posterior whiskers. Each is a plain `Widget` over borrowed data.

pub mod heatmap;
pub mod log_chart;
pub mod whiskers;
