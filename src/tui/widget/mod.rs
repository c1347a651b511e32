//! Reusable drawing pieces the screens compose: a log-scale line chart, a heatmap for
//! image-shaped weights, posterior whiskers, and names shortened without losing what tells
//! them apart, and text wrapped to a column. Each is a plain `Widget` over borrowed data.

pub mod heatmap;
pub mod log_chart;
pub mod names;
pub mod whiskers;
pub mod wrap;
