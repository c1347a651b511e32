//! `[features]`: the validated feature map.

use super::ctx::Ctx;
use super::limits::design_columns;
use super::suggest::did_you_mean;
use bayeslab_core::error::Result;
pub use bayeslab_data::plan::{Centres, FeatureMap};

pub const DEFAULT_POLY_DEGREE: usize = 2;
pub const DEFAULT_RBF_CENTRES: usize = 20;
pub const DEFAULT_RBF_GRID_POINTS: usize = 5;
pub const DEFAULT_RBF_WIDTH: f64 = 1.0;

pub(super) fn feature_map(ctx: &Ctx<'_>, raw: super::raw::RawFeatures) -> Result<FeatureMap> {
    let map = raw.map.as_deref().unwrap_or("none");
    let misplaced = |key: &str, used: &str| {
        ctx.err(format!(
            "[features] {key} only applies with {used}; remove it or change the map"
        ))
    };
    if map != "poly" && raw.degree.is_some() {
        return Err(misplaced("degree", "map = \"poly\""));
    }
    if map != "rbf" {
        for (key, set) in [
            ("centres", raw.centres.is_some()),
            ("k", raw.k.is_some()),
            ("grid_points", raw.grid_points.is_some()),
            ("width", raw.width.is_some()),
        ] {
            if set {
                return Err(misplaced(key, "map = \"rbf\""));
            }
        }
    }
    match map {
        "none" => Ok(FeatureMap::Identity),
        "poly" => Ok(FeatureMap::Poly {
            degree: ctx.bounded(
                "[features] degree",
                raw.degree.unwrap_or(DEFAULT_POLY_DEGREE as u64),
                1,
                design_columns("degree d makes d columns from a single feature", 0),
            )?,
        }),
        "rbf" => {
            let width = ctx.positive_f64(
                "[features] width",
                raw.width.unwrap_or(DEFAULT_RBF_WIDTH),
                false,
            )?;
            let centres = match raw.centres.as_deref().unwrap_or("sample") {
                "sample" => {
                    if raw.grid_points.is_some() {
                        return Err(misplaced("grid_points", "centres = \"grid\""));
                    }
                    Centres::Sample {
                        k: ctx.bounded(
                            "[features] k",
                            raw.k.unwrap_or(DEFAULT_RBF_CENTRES as u64),
                            1,
                            design_columns("each centre makes a column", 0),
                        )?,
                    }
                }
                "grid" => {
                    if raw.k.is_some() {
                        return Err(misplaced("k", "centres = \"sample\""));
                    }
                    Centres::Grid {
                        points: ctx.bounded(
                            "[features] grid_points",
                            raw.grid_points.unwrap_or(DEFAULT_RBF_GRID_POINTS as u64),
                            1,
                            design_columns("p points make at least p centres, a column each", 0),
                        )?,
                    }
                }
                other => {
                    return Err(ctx.err(format!(
                        "[features] centres = \"{other}\": expected \"sample\" (k seeded training rows) or \"grid\"{}",
                        did_you_mean(other, ["sample", "grid"])
                    )))
                }
            };
            Ok(FeatureMap::Rbf { centres, width })
        }
        other => Err(ctx.err(format!(
            "[features] map = \"{other}\": expected \"none\", \"poly\" or \"rbf\"{}",
            did_you_mean(other, ["none", "poly", "rbf"])
        ))),
    }
}

/// The RBF width checked against [`super::limits::WIDTH_RANGE`].
pub(super) fn checked_width(ctx: &Ctx<'_>, map: FeatureMap) -> Result<FeatureMap> {
    if let FeatureMap::Rbf { width, .. } = map {
        ctx.in_range(
            "[features] width",
            width,
            super::limits::WIDTH_RANGE,
            "it is in the design's units (standard deviations with [data] standardize = true); below the range \
             every column is 0 off its own centre, above it every column is 1",
        )?;
    }
    Ok(map)
}
