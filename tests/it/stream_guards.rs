//! What a streamed run refuses rather than reads wrong (issue 27): a data file that changes
//! between or during passes (rows appended, the file rewritten or replaced) and a design cache
//! cut short while a pass reads it; and a design too wide for its columns x columns matrices,
//! refused before any is made.

use std::path::{Path, PathBuf};

use crate::util::cli::bin;
use bayeslab_data::{Part, StreamedData};

/// 200 rows of a, b and y.
fn rows(n: usize, from: usize) -> String {
    (from..from + n)
        .map(|i| {
            format!(
                "{:.3},{:.3},{}\n",
                (i * 7 % 19) as f64 * 0.1,
                (i * 5 % 23) as f64 - 11.0,
                (i * 3 + i / 5) % 2
            )
        })
        .collect()
}

fn experiment(dir: &Path, data: &Path, cache: bool) -> PathBuf {
    let exp = dir.join("e.toml");
    std::fs::write(
        &exp,
        format!(
            "[data]\npath = {:?}\ntarget = \"y\"\nsplit = {{ every = 4, offset = 1 }}\nstreaming = true\nchunk_rows = 10\ncache = {cache}\n\n\
             [[method]]\nkind = \"logistic-map\"\n",
            data.display().to_string()
        ),
    )
    .unwrap();
    exp
}

fn open(dir: &Path, cache: bool) -> (PathBuf, StreamedData) {
    let data = dir.join("d.csv");
    std::fs::write(&data, format!("a,b,y\n{}", rows(200, 0))).unwrap();
    let plan = bayeslab_engine::config::load(&experiment(dir, &data, cache)).unwrap();
    let mut d = StreamedData::open(plan.data.as_ref().unwrap()).unwrap();
    if cache {
        d.keep_cache_in(dir);
    }
    (data, d)
}

fn pass(d: &StreamedData, part: Part) -> Result<usize, String> {
    let mut n = 0;
    d.pass(part, &mut |rows| {
        n += rows.y.len();
        Ok(())
    })
    .map(|_| n)
    .map_err(|e| e.to_string())
}

#[test]
fn a_data_file_that_changes_between_passes_is_refused() {
    // (what is done to the file, the words the message must hold)
    type Change = fn(&Path, &Path);
    let changes: [(Change, &str); 3] = [
        (
            |data, _| {
                let mut text = std::fs::read_to_string(data).unwrap();
                text.push_str(&rows(5, 200));
                std::fs::write(data, text).unwrap();
            },
            "length",
        ),
        (
            |data, dir| {
                // The same bytes under a new inode, with the old modification time (as
                // `cp -p` or rsync leave it, and as a copy made within one tick of a coarse
                // file-system clock does): only the inode tells it apart.
                let other = dir.join("new.csv");
                let before = std::fs::metadata(data).unwrap().modified().unwrap();
                std::fs::write(&other, std::fs::read(data).unwrap()).unwrap();
                let file = std::fs::File::options().write(true).open(&other).unwrap();
                file.set_modified(before).unwrap();
                std::fs::rename(&other, data).unwrap();
            },
            "replaced",
        ),
        (
            |data, _| {
                // The same length, another value and a later modification time. The time is
                // set two seconds on rather than waited for: a file system's clock may move
                // in coarser steps than any short sleep (CI once saw the same time).
                let text = std::fs::read_to_string(data).unwrap();
                let before = std::fs::metadata(data).unwrap().modified().unwrap();
                std::fs::write(data, text.replacen("0.000", "0.900", 1)).unwrap();
                let file = std::fs::File::options().write(true).open(data).unwrap();
                file.set_modified(before + std::time::Duration::from_secs(2))
                    .unwrap();
            },
            "modified",
        ),
    ];
    for cache in [false, true] {
        for (k, (change, words)) in changes.iter().enumerate() {
            let tmp = tempfile::tempdir().unwrap();
            let (data, d) = open(tmp.path(), cache);
            let first = pass(&d, Part::Train).unwrap();
            assert_eq!(first, d.rows_train);
            assert_eq!(
                pass(&d, Part::Train).unwrap(),
                first,
                "an untouched file passes"
            );
            change(&data, tmp.path());
            for part in [Part::Train, Part::Test] {
                let e = pass(&d, part).unwrap_err();
                assert!(
                    e.contains("d.csv")
                        && e.contains("changed during the run")
                        && e.contains(words),
                    "change {k}, cache {cache}: {e}"
                );
            }
        }
    }
}

#[test]
fn a_design_cache_cut_short_during_a_pass_stops_it_with_a_message() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, d) = open(tmp.path(), true);
    let rows = pass(&d, Part::Train).unwrap();
    let cache = d.cache_path().unwrap().to_path_buf();
    assert!(cache.exists());
    let len = std::fs::metadata(&cache).unwrap().len();
    // Cut at half while the fit holds the first block: the checking thread is at most two
    // blocks ahead of it, far from the cut, so the guard (not a SIGBUS) must find it.
    let mut seen = 0;
    let e = d
        .pass(Part::Train, &mut |c| {
            if seen == 0 {
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(&cache)
                    .unwrap()
                    .set_len(len / 2)
                    .unwrap();
            }
            seen += c.y.len();
            Ok(())
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("design cache") && e.contains("cut short"), "{e}");
    assert!(seen < rows);
    // The next pass finds no complete cache and reads the data file again, whole.
    assert_eq!(pass(&d, Part::Train).unwrap(), rows);
}

#[test]
fn a_design_wider_than_its_matrices_allow_is_refused_before_it_is_made() {
    let tmp = tempfile::tempdir().unwrap();
    for (cols, streamed) in [(8200, false), (8200, true), (20000, false)] {
        let mut text: String = (0..cols).map(|j| format!("f{j},")).collect();
        text.push_str("y\n");
        for i in 0..24 {
            let row: String = (0..cols)
                .map(|j| format!("{},", (i * 7 + j * 3) % 10))
                .collect();
            text.push_str(&format!("{row}{}\n", i % 2));
        }
        let data = tmp.path().join(format!("wide{cols}.csv"));
        std::fs::write(&data, text).unwrap();
        let exp = tmp.path().join("wide.toml");
        let stream = if streamed {
            "streaming = true\nchunk_rows = 8\n"
        } else {
            ""
        };
        std::fs::write(
            &exp,
            format!(
                "[data]\npath = {:?}\ntarget = \"y\"\nsplit = {{ every = 4, offset = 1 }}\n{stream}\n[[method]]\nkind = \"logistic-map\"\n",
                data.display().to_string()
            ),
        )
        .unwrap();
        let o = bin().arg("check").arg(&exp).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{cols} {streamed}: {err}");
        assert!(
            err.contains(&format!("{cols} columns"))
                && err.contains("8192")
                && err.contains("[data] features"),
            "{cols} {streamed}: {err}"
        );
    }
}
