//! One odd cell does not change a column's type (issue 27): a padded number, a NaN spelling and
//! an infinity get one verdict in the in-memory loader, the streamed loader (the odd cell in the
//! first chunk or a later one), `check` and `run`, with the features listed or defaulted: a
//! documented parse (the number; a missing value) or an error naming the column, the line and
//! the value. A streamed chunk where a numeric column is all empty is a chunk of missing values.
//! And a train/test pair whose column holds numbers in one file and text in the other is refused
//! naming the column and both files.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::util::cli::bin;

/// 40 rows of x, z and y; `cell` replaces x in row `at` (0-based; line at + 2).
fn csv(cell: &str, at: usize) -> String {
    let mut text = String::from("x,z,y\n");
    for i in 0..40 {
        let x = if i == at {
            cell.to_string()
        } else {
            format!("{:.2}", (i * 7 % 11) as f64 * 0.5)
        };
        text.push_str(&format!(
            "{x},{:.2},{}\n",
            (i * 5 % 13) as f64 - 6.0,
            (i * 3 + i / 7) % 2
        ));
    }
    text
}

fn experiment(dir: &Path, name: &str, data: &str, extra: &str) -> PathBuf {
    let path = dir.join(format!("{name}.csv"));
    std::fs::write(&path, data).unwrap();
    let exp = dir.join(format!("{name}.toml"));
    let text = format!(
        "seed = 1\n[data]\npath = {:?}\ntarget = \"y\"\nmissing = \"drop\"\nsplit = {{ every = 4, offset = 1 }}\n{extra}\n\n\
         [[method]]\nkind = \"logistic-map\"\n",
        path.display().to_string()
    );
    std::fs::write(&exp, text).unwrap();
    exp
}

fn cmd(what: &str, exp: &Path) -> Output {
    let mut c = bin();
    c.arg(what).arg(exp);
    if what == "run" {
        c.arg("--quiet").arg("--out").arg(exp.with_extension("out"));
    }
    c.output().unwrap()
}

/// What `check` says, without the names of the experiment and data files.
fn design(o: &Output) -> String {
    let text = String::from_utf8_lossy(&o.stdout);
    text.lines()
        .map(|l| match (l.find(".toml: ok"), l.strip_prefix("note: ")) {
            (Some(i), _) => l[i + ".toml: ok".len()..].to_string(),
            (_, Some(note)) => format!(
                "note: FILE{}",
                &note[note.find(".csv:").map_or(0, |i| i + 4)..]
            ),
            _ => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The ways the same file is read: in memory with defaulted or listed features, streamed in
/// chunks of 8 rows (the odd cell in the first chunk at row 3, or a later one at row 29).
const READS: [&str; 4] = [
    "",
    "features = [\"x\", \"z\"]",
    "streaming = true\nchunk_rows = 8",
    "streaming = true\nchunk_rows = 8\nfeatures = [\"x\", \"z\"]",
];

#[test]
fn padded_numbers_and_nan_spellings_read_as_their_number_or_missing() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        (" 2.5", "2.5"),
        ("2.5 ", "2.5"),
        ("  2.5  ", "2.5"),
        ("+2.5", "2.5"),
        ("NaN", ""),
        ("nan", ""),
        ("NAN", ""),
        ("-nan", ""),
        ("NULL", ""),
        ("N/A", ""),
        ("None", ""),
        ("#N/A", ""),
    ];
    for at in [3, 29] {
        for (k, (odd, plain)) in cases.iter().enumerate() {
            for (r, read) in READS.iter().enumerate() {
                let name = format!("p{at}-{k}-{r}");
                let want = experiment(tmp.path(), &format!("{name}-plain"), &csv(plain, at), read);
                let got = experiment(tmp.path(), &name, &csv(odd, at), read);
                let (w, g) = (cmd("check", &want), cmd("check", &got));
                assert!(
                    g.status.success(),
                    "{odd:?} ({read}): {}",
                    String::from_utf8_lossy(&g.stderr)
                );
                assert_eq!(design(&g), design(&w), "{odd:?} at {at} ({read})");
                assert!(design(&g).contains("intercept, x, z"), "{}", design(&g));
            }
            // And a run fits the same weights as the plain file's.
            let want = experiment(tmp.path(), &format!("r{at}-{k}-plain"), &csv(plain, at), "");
            let got = experiment(tmp.path(), &format!("r{at}-{k}"), &csv(odd, at), "");
            assert!(cmd("run", &got).status.success());
            assert!(cmd("run", &want).status.success());
            let weights = |e: &Path| {
                let r: serde_json::Value = serde_json::from_str(
                    &std::fs::read_to_string(e.with_extension("out").join("results.json")).unwrap(),
                )
                .unwrap();
                r["runs"][0]["weights"].clone()
            };
            assert_eq!(weights(&got), weights(&want), "{odd:?}");
        }
    }
}

#[test]
fn an_infinity_in_any_spelling_is_refused_naming_column_line_and_value() {
    let tmp = tempfile::tempdir().unwrap();
    for at in [3, 29] {
        for (k, odd) in [
            "inf",
            "INF",
            "Infinity",
            "-inf",
            "+Infinity",
            "1e999",
            " -INF ",
        ]
        .iter()
        .enumerate()
        {
            for (r, read) in READS.iter().enumerate() {
                for what in ["check", "run"] {
                    let exp =
                        experiment(tmp.path(), &format!("i{at}-{k}-{r}"), &csv(odd, at), read);
                    let o = cmd(what, &exp);
                    let err = String::from_utf8_lossy(&o.stderr);
                    assert_eq!(o.status.code(), Some(2), "{odd:?} {what} ({read}): {err}");
                    // Data rows count from 0 after the header (line 1).
                    let line = format!("data row {at} (line {})", at + 2);
                    assert!(
                        err.contains("feature column \"x\"")
                            && err.contains(&line)
                            && err.contains("infinite")
                            && err.contains(&format!("\"{}\"", odd.trim())),
                        "{odd:?} {what} ({read}): {err}"
                    );
                }
            }
        }
    }
}

#[test]
fn a_stray_word_is_still_refused_wherever_it_falls() {
    let tmp = tempfile::tempdir().unwrap();
    for at in [3, 29] {
        for (r, read) in READS.iter().enumerate() {
            let exp = experiment(tmp.path(), &format!("w{at}-{r}"), &csv("abc", at), read);
            let o = cmd("check", &exp);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{read}: {err}");
            assert!(
                err.contains("feature column \"x\"") && err.contains("\"abc\" is not a number"),
                "{read}: {err}"
            );
        }
    }
}

#[test]
fn a_streamed_chunk_where_a_numeric_column_is_all_empty_is_missing_values() {
    let tmp = tempfile::tempdir().unwrap();
    let base = csv("1.0", 0);
    let mut gap = String::from("x,z,y\n");
    for (i, line) in base.lines().skip(1).enumerate() {
        // A leading gap: x empty in the first 8 rows (the whole first chunk).
        let line = if i < 8 {
            line.replacen(line.split(',').next().unwrap(), "", 1)
        } else {
            line.to_string()
        };
        gap.push_str(&line);
        gap.push('\n');
    }
    let blank_line = format!("{base}\n");
    let files = [
        ("gap", gap.as_str(), 8),
        ("blank", blank_line.as_str(), 40),
        ("one", base.as_str(), 1),
    ];
    let one_gap = csv("", 17);
    let files = files.into_iter().chain([("one-gap", one_gap.as_str(), 1)]);
    for (name, text, chunk_rows) in files {
        let memory = cmd(
            "check",
            &experiment(tmp.path(), &format!("{name}-m"), text, ""),
        );
        assert!(
            memory.status.success(),
            "{}",
            String::from_utf8_lossy(&memory.stderr)
        );
        for listed in ["", "features = [\"x\", \"z\"]"] {
            let extra = format!("streaming = true\nchunk_rows = {chunk_rows}\n{listed}");
            let streamed = cmd(
                "check",
                &experiment(tmp.path(), &format!("{name}-s"), text, &extra),
            );
            assert!(
                streamed.status.success(),
                "{name}: {}",
                String::from_utf8_lossy(&streamed.stderr)
            );
            let (s, m) = (design(&streamed), design(&memory));
            // The same rows and design columns as in memory (the first line also names the chunks).
            assert_eq!(
                s.lines().skip(1).collect::<Vec<_>>(),
                m.lines().skip(1).collect::<Vec<_>>(),
                "{name}"
            );
            assert!(s.contains("intercept, x, z"), "{name}: {s}");
        }
    }
}

#[test]
fn train_and_test_files_must_agree_on_each_column_kind() {
    let tmp = tempfile::tempdir().unwrap();
    let train = tmp.path().join("train.csv");
    std::fs::write(&train, csv("1.0", 0)).unwrap();
    // x holds words in the test file: numbers in one, text in the other.
    let words = csv("1.0", 0)
        .lines()
        .enumerate()
        .map(|(i, l)| match i {
            0 => l.to_string(),
            _ => format!("w{}{}", i % 3, &l[l.find(',').unwrap()..]),
        })
        .collect::<Vec<_>>()
        .join("\n");
    let test = tmp.path().join("test.csv");
    std::fs::write(&test, words + "\n").unwrap();
    for (k, read) in [
        "",
        "streaming = true\nchunk_rows = 8",
        "features = [\"x\", \"z\"]",
    ]
    .iter()
    .enumerate()
    {
        let exp = tmp.path().join(format!("pair{k}.toml"));
        std::fs::write(
            &exp,
            format!(
                "[data]\ntrain = {:?}\ntest = {:?}\ntarget = \"y\"\n{read}\n\n[[method]]\nkind = \"logistic-map\"\n",
                train.display().to_string(),
                test.display().to_string()
            ),
        )
        .unwrap();
        for what in ["check", "run"] {
            let o = cmd(what, &exp);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{what} ({read}): {err}");
            assert!(
                err.contains("feature column \"x\"")
                    && err.contains("train.csv")
                    && err.contains("test.csv")
                    && err.contains("numbers in the training file"),
                "{what} ({read}): {err}"
            );
        }
    }
}

#[test]
fn a_folder_or_a_fifo_as_the_data_file_says_what_it_is() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder.csv");
    std::fs::create_dir(&folder).unwrap();
    let fifo = tmp.path().join("pipe.csv");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    let mut cases = vec![(folder, "this is a folder, not a file")];
    if made.is_ok_and(|s| s.success()) {
        cases.push((fifo, "this is a FIFO (a named pipe), not a regular file"));
    }
    for (path, said) in cases {
        for key in ["path", "train"] {
            let exp = tmp.path().join("e.toml");
            let test = match key {
                "train" => format!("test = {:?}\n", path.display().to_string()),
                _ => String::new(),
            };
            std::fs::write(
                &exp,
                format!(
                    "[data]\n{key} = {:?}\n{test}target = \"y\"\n\n[[method]]\nkind = \"logistic-map\"\n",
                    path.display().to_string()
                ),
            )
            .unwrap();
            let o = cmd("check", &exp);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{err}");
            assert!(err.contains(said) && !err.contains("no such file"), "{err}");
        }
    }
}

#[test]
fn levels_that_differ_only_in_surrounding_spaces_are_one_level_and_the_note_says_so() {
    // " red" (quoted), "red " and red are one level: the note names the column and a value.
    let tmp = tempfile::tempdir().unwrap();
    let mut text = String::from("a,colour,y\n");
    for i in 0..40 {
        let colour = ["\" red\"", "red ", "red", "blue", "\"blue\""][i % 5];
        text.push_str(&format!(
            "{:.2},{colour},{}\n",
            (i * 7 % 11) as f64 * 0.5,
            (i * 3 + i / 7) % 2
        ));
    }
    for read in ["", "streaming = true\nchunk_rows = 8"] {
        let extra = format!("features = [\"a\", \"colour\"]\n{read}");
        let o = cmd("check", &experiment(tmp.path(), "padded", &text, &extra));
        let said = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(
            said.contains("column \"colour\": levels are read without the spaces around them"),
            "{said}"
        );
        assert!(said.contains("colour, 2 levels"), "{said}");
    }
}
