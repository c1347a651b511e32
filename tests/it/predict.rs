//! `bayeslab predict` end to end: a run's own test rows, scored from its run directory, give
//! back its predictions.csv exactly (every run and predictive, Monte Carlo included), through
//! categorical levels, filled gaps, missing-value indicators and standardisation; the joinable
//! columns of predictions.csv (`data_row`, the `[data] id` key) name each test row; and bad
//! input is refused with exit 2 naming the file and the fix.

use std::path::{Path, PathBuf};

use crate::util::cli::{bin, root, run_experiment};

fn experiment(dir: &Path) -> PathBuf {
    // A copy, so that a test may change it after the run.
    let data = dir.join("categorical.csv");
    std::fs::copy(root().join("tests/fixtures/categorical.csv"), &data).unwrap();
    let exp = dir.join("predict_back.toml");
    std::fs::write(
        &exp,
        format!(
            "name = \"predict_back\"\nseed = 11\n[data]\npath = {data:?}\ntarget = \"y\"\nid = \"id\"\n\
             features = [\"grp\", \"code\", \"num\", \"colour\"]\ncategorical = [\"code\"]\n\
             missing = \"mean\"\nmissing_indicator = true\nunseen_levels = \"zero\"\n\
             split = {{ every = 3, offset = 2 }}\n[prior]\nprecision = 1.0\n\
             [[method]]\nkind = \"logistic-laplace\"\npredictive = [\"plugin\", \"mc\", \"probit\", \"mackay\", \"exact\"]\n\
             [[method]]\nkind = \"logistic-map\"\n\
             [[method]]\nkind = \"probit-laplace\"\npredictive = [\"plugin\", \"mc\", \"exact\"]\n\
             [[method]]\nkind = \"ep-probit\"\n\
             [[method]]\nkind = \"vi-logistic\"\n\
             [[method]]\nkind = \"gibbs-logistic\"\ndraws = 200\nburn_in = 50\n\
             [[method]]\nkind = \"softmax-laplace\"\n\
             [[method]]\nkind = \"gaussian-naive-bayes\"\n"
        ),
    )
    .unwrap();
    exp
}

/// The CSV text as a header and rows of fields (no quoted commas in these files).
fn table(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut lines = text.lines();
    let header = lines.next().unwrap().split(',').map(String::from).collect();
    let rows = lines
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    (header, rows)
}

#[test]
fn predicting_the_test_rows_gives_back_predictions_csv_and_rows_join_back() {
    let tmp = tempfile::tempdir().unwrap();
    let exp = experiment(tmp.path());
    let out = tmp.path().join("run");
    let o = run_experiment(&exp, &out, true);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (header, rows) = table(&std::fs::read_to_string(out.join("predictions.csv")).unwrap());
    assert_eq!(&header[..4], ["row", "y", "data_row", "id"]);
    // Every test row names its place in the data file and its key: row i % 3 == 2, id p<row>.
    let data = std::fs::read_to_string(root().join("tests/fixtures/categorical.csv")).unwrap();
    let lines: Vec<&str> = data.lines().collect();
    let mut test_rows = vec![lines[0].to_string()];
    for r in &rows {
        let place: usize = r[2].parse().unwrap();
        assert_eq!(place % 3, 2);
        assert_eq!(r[3], format!("p{place:03}"));
        test_rows.push(lines[place + 1].to_string());
    }
    let new = tmp.path().join("test_rows.csv");
    std::fs::write(&new, test_rows.join("\n") + "\n").unwrap();
    let scored = tmp.path().join("scored.csv");
    let o = bin()
        .args(["predict"])
        .arg(&out)
        .arg(&new)
        .arg("--out")
        .arg(&scored)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (pheader, prow) = table(&std::fs::read_to_string(&scored).unwrap());
    assert_eq!(prow.len(), rows.len());
    let mut compared = 0;
    for (j, name) in pheader.iter().enumerate().skip(1) {
        let k = header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("{name} not in predictions.csv"));
        for (a, b) in rows.iter().zip(&prow) {
            assert_eq!(a[k], b[j], "{name}");
        }
        compared += 1;
    }
    // Every predictive of every run, the Gibbs sampler, softmax and the generative run (fitted
    // again from the stored experiment) included; not the Monte-Carlo errors.
    let expected = header
        .iter()
        .filter(|h| h.contains('/') && !h.ends_with("_mcse"))
        .count();
    assert_eq!(compared, expected);
    assert!(pheader.iter().any(|h| h.starts_with("gibbs-logistic/")));
    assert!(pheader
        .iter()
        .any(|h| h.starts_with("gaussian-naive-bayes/")));
    assert!(pheader.iter().any(|h| h.starts_with("softmax-laplace/")));
    assert!(compared >= 14);
    // Never overwritten: the same --out again is refused.
    let o = bin()
        .arg("predict")
        .arg(&out)
        .arg(&new)
        .arg("--out")
        .arg(&scored)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("never overwrites"));
    // Data changed since the run: the Gaussian runs still score, the refitted ones are listed
    // as skipped with why.
    let data = tmp.path().join("categorical.csv");
    let text = std::fs::read_to_string(&data).unwrap();
    std::fs::write(&data, text + &lines[1].replace("p000", "p999") + "\n").unwrap();
    let o = bin().arg("predict").arg(&out).arg(&new).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("gibbs-logistic") && stderr.contains("has changed since the run"),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("logistic-laplace/exact") && !stdout.contains("gibbs-logistic/"));
}

#[test]
fn unseen_levels_and_missing_columns_are_refused_with_the_fix() {
    let tmp = tempfile::tempdir().unwrap();
    let data = root().join("tests/fixtures/categorical.csv");
    let exp = tmp.path().join("strict.toml");
    std::fs::write(
        &exp,
        format!(
            "name = \"strict\"\nseed = 1\n[data]\npath = {data:?}\ntarget = \"y\"\n\
             features = [\"grp\", \"num\"]\nmissing = \"mean\"\nsplit = {{ every = 4, offset = 3 }}\n\
             [[method]]\nkind = \"logistic-laplace\"\n"
        ),
    )
    .unwrap();
    let out = tmp.path().join("run");
    assert!(run_experiment(&exp, &out, true).status.success());
    let refused = |csv: &str, want: &str| {
        let f = tmp.path().join("new.csv");
        std::fs::write(&f, csv).unwrap();
        let o = bin().arg("predict").arg(&out).arg(&f).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(want) && err.contains("new.csv"), "{err}");
    };
    refused(
        "grp,num\nz,1.0\n",
        "level \"z\" was not among the run's training levels",
    );
    refused("grp\na\n", "column \"num\" does not exist");
    let o = bin()
        .arg("predict")
        .arg(tmp.path())
        .arg(&data)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("RUN_DIR must be a directory written by `bayeslab run`"));
}
