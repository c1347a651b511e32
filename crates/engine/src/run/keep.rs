//! Whether a streamed run keeps every test prediction: AUC ranks them all, so p(y = 1) per row
//! and predictive, and the labels, are kept when that fits beside the chunk's working set
//! (binary targets only; without them the metrics come from running sums and AUC is `null`).

use crate::config::Plan;
use bayeslab_core::model::method::Fitted;
use bayeslab_data::StreamedData;

/// (keep, bytes kept), adding a note when `max_memory` leaves no room for them.
pub fn streamed(
    plan: &Plan,
    data: &StreamedData,
    fitted: &[Option<Fitted>],
    notes: &mut Vec<String>,
) -> (bool, u64) {
    if data.classes.len() != 2 {
        return (false, 0);
    }
    let columns = plan
        .methods
        .iter()
        .zip(fitted)
        .filter(|(_, f)| f.is_some())
        .map(|(m, _)| m.predictives.len())
        .sum::<usize>() as u64;
    let bytes = 8 * data.rows_test as u64 * (columns + 1);
    match data.streaming.max_memory {
        Some(budget) if data.working_set + bytes > budget && bytes > 0 => {
            notes.push(format!(
                "AUC not computed: it ranks every test prediction, and keeping the {} test rows' predictions ({:.1} MiB) \
                 beside the working set would exceed [data] max_memory; raise max_memory to get AUC",
                data.rows_test,
                bytes as f64 / (1u64 << 20) as f64
            ));
            (false, 0)
        }
        _ => (true, bytes),
    }
}
