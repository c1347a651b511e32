//! The design decoded in place from a Parquet pair (issue 32) against the plain read's: the same
//! files with one column stored as integers (so that no column is decoded in place) give the
//! same design bit for bit, the same labels, summaries, scalings and notes.

use std::path::Path;

use faer::Mat;
use polars::prelude::*;

use super::*;
use crate::plan::EncodingPlan;
use crate::read::chunks::ChunkReader;

/// `rows` rows: three columns of doubles (one with a wide range, one a whole number held as a
/// double, or as an integer when `integers`) and a 0/1 target, in row groups of 64; `poison`
/// puts a value in column `a` at a row; `extra` adds columns that are not features by default.
fn write_with(
    path: &Path,
    rows: usize,
    seed: usize,
    (integers, extra): (bool, Extra),
    poison: Option<(usize, f64)>,
) {
    let x = |k: usize| -> Vec<f64> {
        (0..rows)
            .map(|i| ((i * 7 + seed * 13 + k * 5) as f64 * 0.731).sin() * 10f64.powi(k as i32))
            .collect()
    };
    let mut a = x(0);
    if let Some((row, v)) = poison {
        a[row] = v;
    }
    let whole: Vec<i64> = (0..rows as i64)
        .map(|i| (i * 31 + seed as i64) % 17)
        .collect();
    let y: Vec<i64> = (0..rows)
        .map(|i| i64::from((i * 11 + seed) % 5 < 2))
        .collect();
    let mut df = df!("a" => a, "b" => x(3), "y" => y).unwrap();
    let k = Series::new("k".into(), whole);
    let k = if integers {
        k
    } else {
        k.cast(&DataType::Float64).unwrap()
    };
    df.with_column(k.into_column()).unwrap();
    if extra != Extra::None {
        // Left out by their names: an identifier of doubles, pandas' index of integers.
        let id: Vec<f64> = (0..rows).map(|i| ((i * 37 + seed) % 101) as f64).collect();
        let index: Vec<i64> = (0..rows as i64).collect();
        df.with_column(Column::new("user_id".into(), id)).unwrap();
        df.with_column(Column::new("Unnamed: 0".into(), index))
            .unwrap();
    }
    if extra == Extra::NamedAndNumbered {
        // Left out by its first rows: row numbers held as doubles.
        let n: Vec<f64> = (0..rows).map(|i| (i + 1) as f64).collect();
        df.with_column(Column::new("n".into(), n)).unwrap();
    }
    ParquetWriter::new(std::fs::File::create(path).unwrap())
        .with_row_group_size(Some(64))
        .finish(&mut df)
        .unwrap();
}

/// The columns [`write_with`] adds that the default features leave out.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Extra {
    None,
    Named,
    NamedAndNumbered,
}

fn write(path: &Path, rows: usize, seed: usize, integers: bool) {
    write_with(path, rows, seed, (integers, Extra::None), None);
}

fn plan(dir: &Path, features: Option<&[&str]>, intercept: bool, standardize: bool) -> DataPlan {
    DataPlan {
        source: DataSource::TrainTest {
            train: dir.join("train.parquet"),
            test: dir.join("test.parquet"),
        },
        target: "y".into(),
        features: features.map(|f| f.iter().map(|s| s.to_string()).collect()),
        id: None,
        positive: None,
        standardize,
        intercept,
        missing: Missing::Error,
        encoding: EncodingPlan::default(),
        feature_map: FeatureMap::Identity,
        seed: 3,
        binary_method: None,
        streaming: None,
        separator: b',',
    }
}

fn bits(x: &Mat<f64>) -> Vec<Vec<u64>> {
    (0..x.ncols())
        .map(|j| x.col_as_slice(j).iter().map(|v| v.to_bits()).collect())
        .collect()
}

/// What a dataset holds, its directory's name taken out of the notes.
fn seen(d: &Dataset, dir: &Path) -> String {
    let text = format!(
        "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
        d.columns,
        d.features,
        d.classes,
        d.train.y,
        d.test.y,
        d.train.source_rows,
        d.test.source_rows,
        d.summaries,
        d.scaling,
        d.notes
    );
    text.replace(&dir.display().to_string(), "DIR")
}

#[test]
fn a_pair_decoded_in_place_loads_as_the_plain_read_does() {
    let root = tempfile::tempdir().unwrap();
    let (placed, plain) = (root.path().join("placed"), root.path().join("plain"));
    for (dir, integers) in [(&placed, false), (&plain, true)] {
        std::fs::create_dir(dir).unwrap();
        write(&dir.join("train.parquet"), 700, 1, integers);
        write(&dir.join("test.parquet"), 130, 2, integers);
    }
    let every: &[&str] = &["k", "a", "b"];
    for (features, intercept, standardize) in [
        (None, true, true),
        (Some(every), true, true),
        (Some(every), false, true),
        (Some(&["b", "k"][..]), true, false),
    ] {
        let a = load(&plan(&placed, features, intercept, standardize)).unwrap();
        let b = load(&plan(&plain, features, intercept, standardize)).unwrap();
        let case = format!("{features:?}, intercept {intercept}, standardize {standardize}");
        assert_eq!(bits(&a.train.x), bits(&b.train.x), "{case}");
        assert_eq!(bits(&a.test.x), bits(&b.test.x), "{case}");
        assert_eq!(seen(&a, &placed), seen(&b, &plain), "{case}");
    }
}

#[test]
fn the_placed_files_features_are_decoded_in_place_and_the_others_are_not() {
    let root = tempfile::tempdir().unwrap();
    for integers in [false, true] {
        let dir = root.path().join(format!("{integers}"));
        std::fs::create_dir(&dir).unwrap();
        write(&dir.join("train.parquet"), 200, 1, integers);
        write(&dir.join("test.parquet"), 50, 2, integers);
        let p = plan(&dir, None, true, true);
        let read = crate::load::loaded::read_whole(
            &dir.join("train.parquet"),
            &p,
            None,
            &[],
            1000,
            None,
            &mut |_, _, _| {},
        )
        .unwrap();
        assert_eq!(read.2.is_some(), !integers, "integers: {integers}");
    }
}

#[test]
fn a_missing_or_infinite_cell_reads_the_pair_the_plain_way() {
    let root = tempfile::tempdir().unwrap();
    // Row 130 is decoded in place, row 10 is in the first chunks, which are copied.
    let poisons = [
        (130, f64::NAN),
        (130, f64::INFINITY),
        (10, f64::NAN),
        (10, f64::INFINITY),
    ];
    for (case, (row, value)) in poisons.into_iter().enumerate() {
        let (placed, plain) = (
            root.path().join(format!("p{case}")),
            root.path().join(format!("q{case}")),
        );
        for (dir, integers) in [(&placed, false), (&plain, true)] {
            std::fs::create_dir(dir).unwrap();
            write_with(
                &dir.join("train.parquet"),
                300,
                1,
                (integers, Extra::None),
                Some((row, value)),
            );
            write(&dir.join("test.parquet"), 60, 2, integers);
        }
        for missing in [Missing::Error, Missing::Drop, Missing::Median] {
            let with = |dir: &Path| {
                let mut p = plan(dir, None, true, true);
                p.missing = missing;
                load(&p)
            };
            match (with(&placed), with(&plain)) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(bits(&a.train.x), bits(&b.train.x), "{value} {missing:?}");
                    assert_eq!(seen(&a, &placed), seen(&b, &plain), "{value} {missing:?}");
                }
                (Err(a), Err(b)) => {
                    let a = a.to_string().replace(&placed.display().to_string(), "DIR");
                    assert_eq!(
                        a,
                        b.to_string().replace(&plain.display().to_string(), "DIR")
                    );
                }
                (a, b) => panic!(
                    "{value} {missing:?}: {:?} against {:?}",
                    a.is_ok(),
                    b.is_ok()
                ),
            }
        }
    }
}

#[test]
fn a_pair_decoded_in_place_is_the_same_on_one_thread_and_on_two() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("train.parquet"), 700, 1, false);
    write(&dir.path().join("test.parquet"), 130, 2, false);
    let p = plan(dir.path(), None, true, true);
    let on = |threads| {
        bayeslab_core::threads::on_threads(threads, || {
            let d = load(&p).unwrap();
            (bits(&d.train.x), bits(&d.test.x), seen(&d, dir.path()))
        })
    };
    assert_eq!(on(1), on(2));
}

#[test]
fn columns_left_out_by_name_or_as_row_numbers_are_left_out_as_the_plain_read_does() {
    let root = tempfile::tempdir().unwrap();
    for extra in [Extra::Named, Extra::NamedAndNumbered] {
        let (placed, plain) = (
            root.path().join(format!("placed{extra:?}")),
            root.path().join(format!("plain{extra:?}")),
        );
        for (dir, integers) in [(&placed, false), (&plain, true)] {
            std::fs::create_dir(dir).unwrap();
            write_with(&dir.join("train.parquet"), 1500, 1, (integers, extra), None);
            write_with(&dir.join("test.parquet"), 130, 2, (integers, extra), None);
        }
        let a = load(&plan(&placed, None, true, true)).unwrap();
        let b = load(&plan(&plain, None, true, true)).unwrap();
        assert_eq!(bits(&a.train.x), bits(&b.train.x), "{extra:?}");
        assert_eq!(bits(&a.test.x), bits(&b.test.x), "{extra:?}");
        assert_eq!(seen(&a, &placed), seen(&b, &plain), "{extra:?}");
        assert_eq!(a.features, ["a", "b", "k"], "{extra:?}");
        let notes = a.notes.join(" ");
        let said = ["\"user_id\"", "\"Unnamed: 0\""]
            .iter()
            .all(|n| notes.contains(n));
        let numbered = extra == Extra::NamedAndNumbered;
        assert!(said && notes.contains("\"n\"") == numbered, "{notes}");
        // Listed, they are read, in place.
        let mut every = vec!["a", "user_id"];
        every.extend(numbered.then_some("n"));
        let a = load(&plan(&placed, Some(&every), true, true)).unwrap();
        let b = load(&plan(&plain, Some(&every), true, true)).unwrap();
        assert_eq!(bits(&a.train.x), bits(&b.train.x), "{extra:?}");
        assert_eq!(seen(&a, &placed), seen(&b, &plain), "{extra:?}");
    }
}

#[test]
fn a_schema_of_doubles_places_the_features_before_any_row_is_read() {
    let root = tempfile::tempdir().unwrap();
    for (integers, listed_as_levels) in [(false, false), (true, false), (false, true)] {
        let dir = root.path().join(format!("{integers}{listed_as_levels}"));
        std::fs::create_dir(&dir).unwrap();
        let path = dir.join("train.parquet");
        write_with(&path, 200, 1, (integers, Extra::NamedAndNumbered), None);
        let mut reader = ChunkReader::open(&path, 64, b',', Some("y"), None).unwrap();
        let (mut features, mut skipped) = (None, Vec::new());
        let categorical = match listed_as_levels {
            true => vec!["b".to_string()],
            false => Vec::new(),
        };
        let early = crate::place::from_schema(
            &path,
            &mut reader,
            "y",
            &mut features,
            &categorical,
            &mut skipped,
        );
        let case = format!("integers {integers}, levels {listed_as_levels}");
        let expected = !integers && !listed_as_levels;
        assert_eq!(early.is_some(), expected, "{case}");
        if expected {
            assert!(early.unwrap().defaulted);
            // The columns named as identifier and index (one of integers) are left out now; the
            // row numbers once decoded.
            assert_eq!(features.unwrap(), ["a", "b", "k", "n"]);
            assert_eq!(skipped.len(), 2, "{skipped:?}");
            assert!(skipped[0].starts_with("\"user_id\""), "{skipped:?}");
            assert!(skipped[1].starts_with("\"Unnamed: 0\""), "{skipped:?}");
            assert_eq!(reader.columns().unwrap(), ["y"]);
        } else {
            assert_eq!((features, skipped.len()), (None, 0), "{case}");
            assert_eq!(reader.columns().unwrap().len(), 7, "{case}");
        }
    }
}
