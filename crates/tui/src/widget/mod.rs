//! Reusable drawing pieces the screens compose: a log-scale line chart, a heatmap for
//! image-shaped weights, posterior whiskers, names shortened without losing what tells them
//! apart, text wrapped to a column, and the scrolling label table every results table is. Each
//! is a plain `Widget` over borrowed data.

pub mod heatmap;
pub mod log_chart;
pub mod names;
pub mod table;
pub mod whiskers;
pub mod wrap;
