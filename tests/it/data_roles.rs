//! Which columns are features when `[data] features` is not set (issue 27): an index column
//! (empty or `Unnamed: N` header), an identifier (by name, or whole numbers strictly
//! increasing) and a date are left out with a note naming each and why, in memory and
//! streamed, by `check` and `run`; listed in `features`, each is used. The test data are sorted
//! by the target, so an index column would predict it perfectly (the leak the rule prevents):
//! the run without the suspicious column must equal, weight for weight, the run on a file that
//! never had it.

use std::path::{Path, PathBuf};

use crate::util::cli::bin;
use serde_json::Value;

/// 80 rows sorted by the target y: two noisy features a and b (an LCG, so no two rows agree),
/// and the suspicious column `name` whose values `value(i)` give for row i.
fn data(name: &str, value: &dyn Fn(usize) -> String) -> (String, String) {
    let (mut with, mut without) = (format!("{name},a,b,y\n"), String::from("a,b,y\n"));
    let mut s: u64 = 7;
    for i in 0..80 {
        let y = usize::from(i >= 40);
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 33) as f64 / (1u64 << 31) as f64
        };
        let (a, b) = (next() + 0.3 * y as f64, next() - 0.2 * y as f64);
        with.push_str(&format!("{},{a:.6},{b:.6},{y}\n", value(i)));
        without.push_str(&format!("{a:.6},{b:.6},{y}\n"));
    }
    (with, without)
}

fn experiment(dir: &Path, name: &str, csv: &str, extra: &str) -> PathBuf {
    let data = dir.join(format!("{name}.csv"));
    std::fs::write(&data, csv).unwrap();
    let exp = dir.join(format!("{name}.toml"));
    std::fs::write(
        &exp,
        format!(
            "seed = 1\n[data]\npath = {:?}\ntarget = \"y\"\nsplit = {{ every = 4, offset = 1 }}\n{extra}\n\n\
             [prior]\nprecision = 1.0\n\n[[method]]\nkind = \"logistic-map\"\n",
            data.display().to_string()
        ),
    )
    .unwrap();
    exp
}

/// An experiment in `dir` fitting `data` (any file, target `y`) with `extra` in `[data]`.
fn file_experiment(dir: &Path, data: &Path, extra: &str) -> PathBuf {
    let exp = dir.join("p.toml");
    std::fs::write(
        &exp,
        format!(
            "[data]\npath = {:?}\ntarget = \"y\"\nsplit = {{ every = 4, offset = 1 }}\n{extra}\n\n[[method]]\nkind = \"logistic-map\"\n",
            data.display().to_string()
        ),
    )
    .unwrap();
    exp
}

fn check(exp: &Path) -> String {
    let o = bin().arg("check").arg(exp).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).to_string()
}

fn run(exp: &Path) -> Value {
    let out = exp.with_extension("out");
    let o = bin()
        .arg("run")
        .arg(exp)
        .arg("--quiet")
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap()
}

/// The design columns but the intercept (the features, under the identity map).
fn features(r: &Value) -> Vec<String> {
    r["dataset"]["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .filter(|c| c != "intercept")
        .collect()
}

fn weights(r: &Value) -> Vec<f64> {
    r["runs"][0]["weights"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_f64().unwrap())
        .collect()
}

/// A header, the values of its column by row, and the reason the note must give.
type Case = (&'static str, Box<dyn Fn(usize) -> String>, &'static str);

/// The family: each header and values that make a column suspicious, and the reason the
/// note must give.
fn cases() -> Vec<Case> {
    vec![
        ("", Box::new(|i| i.to_string()), "an index"),
        ("Unnamed: 0", Box::new(|i| i.to_string()), "an index"),
        // An identifier by name need not be ordered: a shuffled key.
        (
            "respondent_id",
            Box::new(|i| ((i * 37) % 80 + 1000).to_string()),
            "an identifier, by its name",
        ),
        (
            "customerID",
            Box::new(|i| ((i * 13) % 80).to_string()),
            "an identifier, by its name",
        ),
        (
            "row",
            Box::new(|i| (3 * i + 5).to_string()),
            "strictly increasing",
        ),
        (
            "visit",
            Box::new(|i| format!("2024-{:02}-{:02}", i / 28 + 1, i % 28 + 1)),
            "dates or times",
        ),
        (
            "signup_date",
            Box::new(|i| (20240101 + i).to_string()),
            "dates or times",
        ),
    ]
}

#[test]
fn suspicious_columns_are_left_out_with_a_note_in_memory_and_streamed() {
    let tmp = tempfile::tempdir().unwrap();
    for (k, (name, value, why)) in cases().into_iter().enumerate() {
        let (with, without) = data(name, &*value);
        for streamed in [false, true] {
            let extra = if streamed {
                "streaming = true\nchunk_rows = 32"
            } else {
                ""
            };
            let tag = format!("c{k}-{streamed}");
            let exp = experiment(tmp.path(), &tag, &with, extra);
            let said = check(&exp);
            let note = said
                .lines()
                .find(|l| l.contains("columns left out of the features"))
                .unwrap_or_else(|| panic!("{name:?}: no note in\n{said}"));
            assert!(
                note.contains(&format!("\"{name}\" (")) && note.contains(why),
                "{name:?}: {note}"
            );
            assert!(said.contains("a, b"), "{name:?}: design columns\n{said}");
            let r = run(&exp);
            assert_eq!(features(&r), ["a", "b"], "{name:?}");
            let clean = experiment(tmp.path(), &format!("{tag}-clean"), &without, extra);
            assert_eq!(
                weights(&r),
                weights(&run(&clean)),
                "{name:?} streamed {streamed}"
            );
        }
    }
}

#[test]
fn a_listed_suspicious_column_is_used() {
    let tmp = tempfile::tempdir().unwrap();
    for (k, (name, value, _)) in cases().into_iter().enumerate() {
        if name == "visit" {
            continue; // text: listed, it is a categorical column (tested in tests/it/categorical.rs)
        }
        let (with, _) = data(name, &*value);
        let exp = experiment(
            tmp.path(),
            &format!("l{k}"),
            &with,
            &format!("features = [{name:?}, \"a\", \"b\"]"),
        );
        let r = run(&exp);
        assert_eq!(features(&r)[0], name, "{name:?}");
        assert_eq!(weights(&r).len(), 4, "{name:?}");
    }
}

#[test]
fn the_leak_the_rule_prevents_is_real() {
    // Listed, the row number separates the classes of this sorted file: its weight dominates.
    // Left out by default, the fit is the one on a and b alone.
    let tmp = tempfile::tempdir().unwrap();
    let (with, _) = data("", &|i| i.to_string());
    let leak = run(&experiment(
        tmp.path(),
        "leak",
        &with,
        "features = [\"\", \"a\", \"b\"]",
    ));
    let honest = run(&experiment(tmp.path(), "honest", &with, ""));
    let loss = |r: &Value| {
        r["runs"][0]["predictives"][0]["metrics"]["log_loss"]
            .as_f64()
            .unwrap()
    };
    assert!(
        loss(&leak) < 0.5 * loss(&honest),
        "{} vs {}",
        loss(&leak),
        loss(&honest)
    );
}

#[test]
fn short_or_unordered_integer_columns_stay_features() {
    // Whole numbers but not a row number: repeated values, or distinct but not increasing.
    let tmp = tempfile::tempdir().unwrap();
    for (k, value) in [
        Box::new(|i: usize| (i % 5).to_string()) as Box<dyn Fn(usize) -> String>,
        Box::new(|i: usize| ((i * 37) % 80).to_string()),
        Box::new(|i: usize| (80 - i).to_string()),
    ]
    .into_iter()
    .enumerate()
    {
        let (with, _) = data("count", &*value);
        let r = run(&experiment(tmp.path(), &format!("k{k}"), &with, ""));
        assert_eq!(features(&r), ["count", "a", "b"], "case {k}");
    }
}

#[test]
fn a_byte_order_mark_does_not_hide_the_first_column() {
    // Excel's "CSV UTF-8": the target is the first column, and so is a listed feature.
    let tmp = tempfile::tempdir().unwrap();
    let (_, without) = data("", &|i| i.to_string());
    let mut moved = String::from("y,a,b\n");
    for line in without.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        moved.push_str(&format!("{},{},{}\n", f[2], f[0], f[1]));
    }
    for streamed in ["", "streaming = true\nchunk_rows = 16"] {
        // The same read of the file without the mark (a streamed fit sums by chunks).
        let plain = run(&experiment(tmp.path(), "plain", &moved, streamed));
        let bom = format!("\u{feff}{moved}");
        let r = run(&experiment(tmp.path(), "bom", &bom, streamed));
        assert_eq!(weights(&r), weights(&plain));
        // A listed feature first: found too.
        let first = format!("\u{feff}{without}");
        let listed = format!("features = [\"a\", \"b\"]\n{streamed}");
        let r = run(&experiment(tmp.path(), "bom2", &first, &listed));
        assert_eq!(features(&r), ["a", "b"]);
    }
}

#[test]
fn parquet_columns_of_types_bayeslab_cannot_read_are_left_out_by_name() {
    // Small integers and a pandas category column (tests/fixtures/small_ints.py): named in the
    // note with their types, in memory and streamed; the fit uses x alone.
    let tmp = tempfile::tempdir().unwrap();
    let data = crate::util::cli::root().join("tests/fixtures/small_ints.parquet");
    for streamed in ["", "streaming = true\nchunk_rows = 8"] {
        let said = check(&file_experiment(tmp.path(), &data, streamed));
        for (column, dtype) in [
            ("i8", "int8"),
            ("i16", "int16"),
            ("u8", "uint8"),
            ("u16", "uint16"),
            ("colour", "dictionary (categorical)"),
        ] {
            assert!(
                said.contains(&format!(
                    "\"{column}\" (the Parquet type {dtype}, which bayeslab cannot read)"
                )),
                "{column}: {said}"
            );
        }
        assert!(said.contains("intercept, x\n"), "{said}");
    }
}

#[test]
fn a_parquet_files_row_numbers_are_judged_on_its_first_thousand_rows_however_it_is_cut() {
    // 1,200 rows: `row` counts up through the first 1,000 and then starts again, `late` counts
    // up from row 0 but repeats a value at row 500. The sample is the first 1,000 rows, so `row`
    // is a row number and `late` a feature, whether the first chunk holds the sample (one row
    // group: it is judged on that chunk's first rows) or not (row groups of 64 rows: a
    // sample is read), in memory and streamed.
    use polars::prelude::*;
    let n = 1_200;
    let mut s: u64 = 11;
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 33) as f64 / (1u64 << 31) as f64
    };
    let y: Vec<i64> = (0..n).map(|i| (i % 2) as i64).collect();
    let a: Vec<f64> = y.iter().map(|&y| next() + 0.3 * y as f64).collect();
    let row: Vec<i64> = (0..n).map(|i| (i % 1_000) as i64).collect();
    let late: Vec<i64> = (0..n).map(|i| i as i64 - i64::from(i > 500)).collect();
    let tmp = tempfile::tempdir().unwrap();
    for group in [n, 64] {
        let mut df = df!("row" => &row, "late" => &late, "a" => &a, "y" => &y).unwrap();
        let data = tmp.path().join(format!("g{group}.parquet"));
        ParquetWriter::new(std::fs::File::create(&data).unwrap())
            .with_row_group_size(Some(group))
            .finish(&mut df)
            .unwrap();
        for streamed in ["", "streaming = true\nchunk_rows = 300"] {
            let said = check(&file_experiment(tmp.path(), &data, streamed));
            let note = said
                .lines()
                .find(|l| l.contains("columns left out of the features"))
                .unwrap_or_else(|| panic!("row groups of {group}: no note in\n{said}"));
            assert!(
                note.contains("\"row\" (") && !note.contains("\"late\""),
                "row groups of {group}, {streamed:?}: {note}"
            );
            assert!(
                said.contains("intercept, late, a\n"),
                "row groups of {group}, {streamed:?}: {said}"
            );
        }
    }
}
