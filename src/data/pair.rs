//! A train/test pair read column by column the same way: a column of numbers in one file and
//! of text in the other is refused, naming the column and both files (otherwise the test
//! file's text would be read as levels the training file never had, or as numbers it is not).

use std::path::Path;

use crate::error::{Error, Result};

/// Refuse a feature read as levels in exactly one of the two files: `train_levels` and
/// `test_levels` are the columns each file's read took as levels (text, booleans, or listed in
/// `[data] categorical`).
pub(super) fn check_same_kinds(
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
