//! `[data] streaming = true`: the keys that read the data file in chunks (`chunk_rows`,
//! `max_memory`, `cache`). What a streamed experiment cannot do is in [`super::streaming_rules`].

use super::ctx::Ctx;
use super::raw::RawData;
use bayeslab_core::error::Result;
pub use bayeslab_data::plan::{Streaming, DEFAULT_CHUNK_ROWS};

/// `streaming`, `chunk_rows`, `max_memory` and `cache` of `[data]`.
pub(super) fn streaming(ctx: &Ctx<'_>, raw: &RawData) -> Result<Option<Streaming>> {
    if raw.streaming != Some(true) {
        for (key, set) in [
            ("chunk_rows", raw.chunk_rows.is_some()),
            ("max_memory", raw.max_memory.is_some()),
            ("cache", raw.cache.is_some()),
        ] {
            if set {
                return Err(ctx.err(format!(
                    "[data] {key} only applies with streaming = true; add `streaming = true` to [data] or remove `{key}`"
                )));
            }
        }
        return Ok(None);
    }
    let chunk_rows = ctx.bounded(
        "[data] chunk_rows",
        raw.chunk_rows.unwrap_or(DEFAULT_CHUNK_ROWS as u64),
        1,
        super::limits::chunk_rows(),
    )?;
    let max_memory = match &raw.max_memory {
        None => None,
        Some(text) => Some(parse_size(text).ok_or_else(|| {
            ctx.err(format!(
                "[data] max_memory = \"{text}\": expected a size such as \"512MiB\", \"1GiB\" or \"2GB\" \
                 (a number followed by B, KB, MB, GB, TB, KiB, MiB, GiB or TiB)"
            ))
        })?),
    };
    Ok(Some(Streaming {
        chunk_rows,
        max_memory,
        cache: raw.cache.unwrap_or(true),
    }))
}

/// Bytes in a size written like "1GiB", "1.5 GB", "512mib" or "1000000" (bytes). KB, MB, ...
/// are powers of 1000, KiB, MiB, ... powers of 1024.
pub fn parse_size(text: &str) -> Option<u64> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let number: f64 = number.parse().ok()?;
    let factor: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "kb" => 1e3,
        "mb" => 1e6,
        "gb" => 1e9,
        "tb" => 1e12,
        "kib" => 1024.0,
        "mib" => 1024.0 * 1024.0,
        "gib" => 1024.0 * 1024.0 * 1024.0,
        "tib" => 1024.0f64.powi(4),
        _ => return None,
    };
    let bytes = (number * factor).round();
    (number.is_finite() && bytes >= 1.0 && bytes < u64::MAX as f64).then_some(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes_parse_with_decimal_and_binary_units() {
        assert_eq!(parse_size("1GiB"), Some(1 << 30));
        assert_eq!(parse_size("1.5 GB"), Some(1_500_000_000));
        assert_eq!(parse_size("512mib"), Some(512 << 20));
        assert_eq!(parse_size("4096"), Some(4096));
        assert_eq!(parse_size("2 KB"), Some(2000));
        for bad in ["", "GiB", "1 gigs", "-1GiB", "0", "1e3MB", "1..2GB"] {
            assert_eq!(parse_size(bad), None, "{bad}");
        }
    }
}
