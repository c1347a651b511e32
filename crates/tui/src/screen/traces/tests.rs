//! Tests of the trace panel's header packing.

use super::*;

#[test]
fn packing_breaks_between_chunks_and_fits_the_width() {
    let chunk = |s: &str| vec![Span::from(s.to_string())];
    let text = |l: &Line| {
        l.spans
            .iter()
            .map(|s| s.content.to_string())
            .collect::<String>()
    };
    let lines = pack(
        vec![
            vec![chunk("split-R-hat"), chunk("glu 1.002"), chunk("bmi 1.040")],
            vec![chunk("all weights:")],
        ],
        24,
    );
    let rows: Vec<String> = lines.iter().map(text).collect();
    assert_eq!(
        rows,
        ["split-R-hat  glu 1.002", "bmi 1.040", "all weights:"]
    );
    // A chunk wider than the row still gets a row of its own.
    let lines = pack(vec![vec![chunk("ab"), chunk("a-very-long-chunk")]], 8);
    assert_eq!(
        lines.iter().map(text).collect::<Vec<_>>(),
        ["ab", "a-very-long-chunk"]
    );
}
