//! A train/test pair read the same way: a column of numbers in one file and of text in the
//! other is refused, naming the column and both files (otherwise the test file's text would be
//! read as levels the training file never had, or as numbers it is not); and labels spelled
//! differently in the two files are named as such, rather than as a `positive` that one file or
//! the other lacks.

use std::path::Path;

use bayeslab_core::error::{Error, Result};

/// Refuse a feature read as levels in exactly one of the two files: `train_levels` and
/// `test_levels` are the columns each file's read took as levels (text, booleans, or listed in
/// `[data] categorical`).
pub(crate) fn check_same_kinds(
    train: &Path,
    test: &Path,
    features: &[String],
    train_levels: &[String],
    test_levels: &[String],
) -> Result<()> {
    for name in features {
        let (a, b) = (train_levels.contains(name), test_levels.contains(name));
        if a == b {
            continue;
        }
        let kind = |levels: bool| if levels { "text (levels)" } else { "numbers" };
        return Err(Error::data(
            train,
            format!(
                "feature column \"{name}\" holds {} in the training file {} but {} in the test file {}: \
                 the two files must hold the same kind of value in each column; fix the file whose values are \
                 wrong, or list \"{name}\" in [data] categorical to read both as levels",
                kind(a),
                train.display(),
                kind(b),
                test.display()
            ),
        ));
    }
    Ok(())
}

/// When the test file's labels cannot be resolved against the training file's classes because
/// the two files spell them differently (`Yes` and `yes`), the error saying so; `None` when
/// every test label is one of the training classes (the original error then stands).
pub(crate) fn label_mismatch(
    train: &Path,
    test: &Path,
    target: &str,
    classes: &[String],
    test_labels: &[String],
) -> Option<Error> {
    // "not yes" gathers every other label of the training file: any test label fits it.
    if classes.iter().any(|c| c.starts_with("not ")) {
        return None;
    }
    let foreign: Vec<&str> = test_labels
        .iter()
        .filter(|l| !classes.contains(l))
        .map(String::as_str)
        .collect();
    if foreign.is_empty() {
        return None;
    }
    Some(Error::data(
        test,
        format!(
            "target column \"{target}\" is spelled differently in the two files: the test file has the label(s) {}, \
             which the training file {} does not (its classes: {}); labels are compared exactly, case included, so \
             write each label the same way in both files",
            foreign.join(", "),
            train.display(),
            classes.join(", ")
        ),
    ))
}
