//! Tests of the bench harness's helpers: the median and the task names.

use super::*;

#[test]
fn median_of_odd_and_even_samples() {
    assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
    assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
    assert_eq!(median(&[5.0]), 5.0);
}

#[test]
fn task_names_round_trip() {
    for t in Task::ALL {
        assert_eq!(Task::parse(t.name()), Some(t));
        assert_eq!(
            serde_json::to_string(&t).unwrap(),
            format!("\"{}\"", t.name())
        );
    }
    assert_eq!(Task::parse("fitt"), None);
}
