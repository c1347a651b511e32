//! The sizes a machine can write, checked before anything is generated.

use super::spec::{Spec, CHUNK_BYTES};
use bayeslab_core::error::{Error, Result};

/// The bytes of x one part may take (N D 8 for its .npy): 1 PiB, beyond any disk, which also
/// keeps every size product inside a u64.
const MAX_PART_BYTES: u64 = 1 << 50;

/// Refuse sizes the machine cannot write, naming the option, its value and the largest that
/// works: a row of x must fit the chunk budget, a chunk (of at most the larger part's rows)
/// the memory budget, a part 1 PiB.
pub(super) fn check_sizes(spec: &Spec) -> Result<()> {
    let refuse = |option: &str, value: usize, max: u64, why: String| {
        Err(Error::config(
            &spec.out,
            format!("{option} {value} is too large; at most {max}, as {why}"),
        ))
    };
    let max_features = (CHUNK_BYTES / 8) as u64;
    if spec.features as u64 > max_features {
        let why = format!(
            "a row of x (8 bytes per feature) must fit the {} MiB a chunk holds",
            CHUNK_BYTES >> 20
        );
        return refuse("--features", spec.features, max_features, why);
    }
    let row_bytes = 8 * (spec.features as u64 + 1);
    let max_rows = MAX_PART_BYTES / row_bytes;
    for (option, rows) in [("--rows", Some(spec.rows)), ("--test-rows", spec.test_rows)] {
        match rows {
            Some(n) if n as u64 > max_rows => {
                let why = format!(
                    "{} features make {row_bytes} bytes a row and a file of over {} TiB holds no disk",
                    spec.features,
                    MAX_PART_BYTES >> 40
                );
                return refuse(option, n, max_rows, why);
            }
            _ => {}
        }
    }
    // A chunk never holds more rows than the larger part.
    let budget = crate::config::limits::MEMORY_BUDGET_BYTES;
    let max_chunk = budget / (8 * spec.features as u64).max(1);
    let most = spec.rows.max(spec.test_rows.unwrap_or(0));
    match spec.chunk_rows {
        Some(c) if c.min(most) as u64 > max_chunk => {
            let why = format!(
                "a chunk of x ({} features, 8 bytes each) must fit the memory budget of {} MiB",
                spec.features,
                budget >> 20
            );
            refuse("--chunk-rows", c, max_chunk, why)
        }
        _ => Ok(()),
    }
}
