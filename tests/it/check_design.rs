//! `bayeslab check` ends with the design columns the run would fit, in weight order, as their
//! own section: what the encodings made of each raw column (one line per categorical or imputed
//! column, from `output::tables::design_listing`, unit-tested on a fixture with levels and
//! imputations) and, for plain numeric columns, the names packed onto lines.

use std::path::PathBuf;

fn check(experiment: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(experiment);
    let out = crate::util::cli::bin()
        .arg("check")
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The section's lines, without their indent.
fn section(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("design columns ("))
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn check_lists_the_design_columns_in_weight_order() {
    let s = check("experiments/quickstart.toml");
    assert!(s.contains("8 design columns"), "{s}");
    assert_eq!(
        section(&s),
        [
            "design columns (8), in weight order:",
            "intercept, npreg, glu, bp, skin, bmi, ped, age"
        ]
    );
    // The same listing when the data are streamed (one statistics pass).
    assert_eq!(section(&check("experiments/streaming.toml")), section(&s));
}

#[test]
fn many_plain_columns_are_packed_on_lines_and_each_listed_once() {
    let s = check("experiments/digits_1v8.toml");
    let lines = section(&s);
    assert_eq!(lines[0], "design columns (65), in weight order:");
    let body = &lines[1..];
    assert!(body.len() > 1, "{s}");
    assert!(body.iter().all(|l| l.chars().count() <= 96), "{s}");
    // Every line but the last ends in a comma: the list goes on.
    assert!(
        body[..body.len() - 1].iter().all(|l| l.ends_with(',')),
        "{s}"
    );
    let names: Vec<&str> = body
        .iter()
        .flat_map(|l| l.trim_end_matches(',').split(", "))
        .collect();
    let expected: Vec<String> = std::iter::once("intercept".to_string())
        .chain((0..64).map(|i| format!("p{i}")))
        .collect();
    assert_eq!(names, expected);
}
