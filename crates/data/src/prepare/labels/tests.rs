//! Label parsing: the usual encodings, `positive`, multiclass names, and that distinct
//! values never share a class.

use super::binary::binary;
use super::*;
use crate::read::table::Labels;

#[test]
fn understands_the_usual_encodings() {
    let pm = Labels::Numeric(vec![Some(-1.0), Some(1.0), None]);
    assert_eq!(
        binary(&pm, None, None, "y").unwrap(),
        vec![Some(0.0), Some(1.0), None]
    );
    let tf = Labels::Text(vec![Some("TRUE".into()), Some("false".into())]);
    assert_eq!(
        binary(&tf, None, None, "y").unwrap(),
        vec![Some(1.0), Some(0.0)]
    );
    let b = Labels::Bool(vec![Some(true), Some(false)]);
    assert_eq!(
        binary(&b, None, Some("false"), "y").unwrap(),
        vec![Some(0.0), Some(1.0)]
    );
}

#[test]
fn positive_selects_class_one() {
    let t = Labels::Text(vec![Some("Yes".into()), Some("No".into())]);
    assert_eq!(
        binary(&t, None, Some("No"), "type").unwrap(),
        vec![Some(0.0), Some(1.0)]
    );
    let n = Labels::Numeric(vec![Some(2.0), Some(0.0), Some(1.0)]);
    assert_eq!(
        binary(&n, None, Some("2"), "y").unwrap(),
        vec![Some(1.0), Some(0.0), Some(0.0)]
    );
}

#[test]
fn many_labels_become_classes_in_sorted_order() {
    let n = Labels::Numeric(vec![Some(2.0), Some(0.0), None, Some(1.0), Some(2.0)]);
    let (y, names) = classes(&n, None, "y").unwrap();
    assert_eq!(names, vec!["0", "1", "2"]);
    assert_eq!(y, vec![Some(2.0), Some(0.0), None, Some(1.0), Some(2.0)]);
    let t = Labels::Text(vec![Some("virginica".into()), Some("setosa".into())]);
    let (y, names) = classes(&t, None, "species").unwrap();
    assert_eq!(names, vec!["setosa", "virginica"]);
    assert_eq!(y, vec![Some(1.0), Some(0.0)]);
    assert!(by_name(&t, &["setosa".to_string()], "species").is_err());
}

#[test]
fn unclear_labels_ask_for_positive() {
    let n = Labels::Numeric(vec![Some(0.0), Some(1.0), Some(2.0)]);
    let e = binary(&n, None, None, "y").unwrap_err();
    assert!(
        e.contains("0 (1), 1 (1), 2 (1)") && e.contains("positive"),
        "{e}"
    );
    let t = Labels::Text(vec![Some("Yes".into())]);
    let e = binary(&t, None, Some("yes"), "type").unwrap_err();
    assert!(e.contains("does not occur") && e.contains("Yes"), "{e}");
}

fn text(v: &[&str]) -> Labels {
    Labels::Text(v.iter().map(|s| Some(s.to_string())).collect())
}

#[test]
fn minus_one_zero_plus_one_as_text_are_three_classes() {
    // polars reads "+1" as text, so the whole column is text; "0" and "-1" used to be class 0 both
    let (y, names) = classes(&text(&["-1", "0", "+1", "0", "-1"]), None, "y").unwrap();
    assert_eq!(names, vec!["-1", "0", "+1"]);
    assert_eq!(
        y,
        vec![Some(0.0), Some(1.0), Some(2.0), Some(1.0), Some(0.0)]
    );
    // two spellings of one class are two labels, not one class
    let (_, names) = classes(&text(&["1", "+1"]), None, "y").unwrap();
    assert_eq!(names.len(), 2, "{names:?}");
    // the usual pairs are still understood
    let (y, names) = classes(&text(&["-1", "+1"]), None, "y").unwrap();
    assert_eq!(
        (y, names),
        (vec![Some(0.0), Some(1.0)], vec!["0".into(), "1".into()])
    );
}

#[test]
fn zero_and_minus_zero_are_one_class() {
    // 0.0 == -0.0: one value, one class, whichever comes first, named "0"
    for v in [[-0.0, 0.0, 2.0], [0.0, -0.0, 2.0]] {
        let n = Labels::Numeric(v.iter().copied().map(Some).collect());
        let (y, names) = classes(&n, None, "y").unwrap();
        assert_eq!(names, vec!["0", "2"]);
        assert_eq!(y, vec![Some(0.0), Some(0.0), Some(1.0)]);
        let named = vec!["0".to_string(), "2".to_string(), "5".to_string()];
        assert_eq!(
            by_name(&n, &named, "y").unwrap(),
            vec![Some(0.0), Some(0.0), Some(1.0)]
        );
    }
    let n = Labels::Numeric(vec![Some(-0.0), Some(1.0), Some(0.0)]);
    assert_eq!(
        binary(&n, None, None, "y").unwrap(),
        vec![Some(0.0), Some(1.0), Some(0.0)]
    );
}

mod injective {
    use super::*;
    use proptest::prelude::*;

    /// Label spellings that look alike: numbers in several forms, booleans in two cases, words.
    const POOL: &[&str] = &[
        "-1", "0", "+1", "1", "1.0", "-0", "0.0", "2", "true", "TRUE", "false", "False", "yes",
        "no", "a", "A", " 1", "01",
    ];

    /// Every row's class, if the labels were accepted without `positive`.
    fn assert_injective(rows: &[Option<String>], keys: &[Option<u64>], labels: &Labels) {
        let Ok((y, names)) = classes(labels, None, "y") else {
            return;
        };
        let distinct: std::collections::BTreeSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), names.len(), "class names repeat: {names:?}");
        for i in 0..rows.len() {
            for j in 0..rows.len() {
                let same_value = keys[i] == keys[j];
                let same_class = y[i] == y[j];
                assert_eq!(
                    same_value, same_class,
                    "rows {:?} and {:?} -> {:?} and {:?} ({names:?})",
                    rows[i], rows[j], y[i], y[j]
                );
            }
        }
    }

    proptest! {
        #[test]
        fn distinct_text_labels_get_distinct_classes(
            picks in proptest::collection::vec(0..POOL.len(), 1..12)
        ) {
            let rows: Vec<Option<String>> = picks.iter().map(|&k| Some(POOL[k].to_string())).collect();
            let keys: Vec<Option<u64>> = picks.iter().map(|&k| Some(k as u64)).collect();
            assert_injective(&rows, &keys, &Labels::Text(rows.clone()));
        }

        #[test]
        fn distinct_numbers_get_distinct_classes(
            values in proptest::collection::vec(
                prop_oneof![Just(0.0), Just(-0.0), Just(1.0), Just(-1.0), Just(2.0), Just(0.5), -1e3..1e3f64],
                1..12,
            )
        ) {
            let rows: Vec<Option<String>> = values.iter().map(|x| Some(x.to_string())).collect();
            // equal numbers are one value (+0.0 == -0.0)
            let keys: Vec<Option<u64>> = values.iter().map(|x| Some((x + 0.0).to_bits())).collect();
            let labels = Labels::Numeric(values.into_iter().map(Some).collect());
            assert_injective(&rows, &keys, &labels);
        }
    }
}

#[test]
fn messages_count_every_value_of_the_whole_column() {
    // the first "no" after 2,054 "yes": a scan of the first rows would name "yes" alone
    let mut v = vec!["yes"; 2054];
    v.extend(["no", "yes", "no"]);
    let e = binary(&text(&v), None, Some("Yes"), "y").unwrap_err();
    assert!(e.ends_with("its values are: no (2), yes (2055)"), "{e}");
    // a streamed column passes each distinct value once, with the rows it stands for
    let e = binary(&text(&["yes", "no"]), Some(&[2055, 2]), Some("Yes"), "y").unwrap_err();
    assert!(e.ends_with("its values are: no (2), yes (2055)"), "{e}");
    let many = Labels::Numeric((0..30).map(|i| Some(f64::from(i % 12))).collect());
    let e = binary(&many, None, None, "y").unwrap_err();
    assert!(
        e.contains("has the labels 0 (3), 1 (3), 2 (3), 3 (3), 4 (3), 5 (3), 6 (2), 7 (2), 8 (2), 9 (2), … and 2 more: "),
        "{e}"
    );
    assert!(e.ends_with("positive = \"9\""), "{e}");
}

#[test]
fn two_text_labels_name_both_classes() {
    let (y, names) = classes(&text(&["yes", "no", "yes"]), Some("yes"), "y").unwrap();
    assert_eq!(names, vec!["no", "yes"]);
    assert_eq!(y, vec![Some(1.0), Some(0.0), Some(1.0)]);
    // class 1 is still the positive one, whatever the sorted order
    let (y, names) = classes(&text(&["yes", "no"]), Some("no"), "y").unwrap();
    assert_eq!(names, vec!["yes", "no"]);
    assert_eq!(y, vec![Some(0.0), Some(1.0)]);
    // three labels: class 0 gathers the others, as before
    let (_, names) = classes(&text(&["yes", "no", "maybe"]), Some("yes"), "y").unwrap();
    assert_eq!(names, vec!["not yes", "yes"]);
    // numeric 0/1 keep their names, and a numeric positive keeps today's
    let n = Labels::Numeric(vec![Some(0.0), Some(1.0)]);
    assert_eq!(classes(&n, None, "y").unwrap().1, vec!["0", "1"]);
    assert_eq!(classes(&n, Some("1"), "y").unwrap().1, vec!["not 1", "1"]);
}
