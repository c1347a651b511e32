//! Reusable drawing pieces the screens compose: a log-scale line chart, a heatmap for
//! image-shaped weights, posterior whiskers, and the scrolling label table every results table is. Each is a plain `Widget` over borrowed data.

pub mod heatmap;
pub mod log_chart;
pub mod table;
pub mod whiskers;
