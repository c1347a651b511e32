//! A CSV chunk read in parts against the same chunk read whole: the same columns bit for bit,
//! whether the parts stood for the chunk or the chunk was read back whole.

use std::path::Path;

use crate::read::chunks::tables::{each_table, Cut};
use crate::read::table::{Cells, Labels};

/// Every column's cells (bits of numbers, text of levels) and the labels, in file order, and
/// the tables handed over (a part's or a chunk's each).
fn read(path: &Path, features: Option<Vec<String>>, part_rows: Option<usize>) -> (String, usize) {
    let (mut features, mut categorical, mut skipped) = (features, Vec::new(), Vec::new());
    let mut cols: Vec<Vec<String>> = Vec::new();
    let mut labels = Vec::new();
    let cut = Cut {
        chunk_rows: 20,
        csv_part_rows: part_rows,
        target_type: None,
        at_row_groups: false,
        place: false,
    };
    let mut gather = |_first: usize, t: crate::read::table::Table| {
        cols.resize(t.features.len(), Vec::new());
        for (col, (_, cells)) in cols.iter_mut().zip(&t.features) {
            match cells {
                Cells::Numbers(v) => {
                    col.extend(v.iter().map(|x: f64| format!("{:x}", x.to_bits())))
                }
                Cells::Levels(v) => col.extend(v.iter().map(|s| format!("{s:?}"))),
            }
        }
        match &t.target {
            Labels::Numeric(v) => labels.extend(v.iter().map(|x| format!("{x:?}"))),
            Labels::Text(v) => labels.extend(v.iter().map(|x| format!("{x:?}"))),
            Labels::Bool(v) => labels.extend(v.iter().map(|x| format!("{x:?}"))),
        }
        Ok(())
    };
    let count = each_table(
        path,
        cut,
        b',',
        "y",
        &mut features,
        &mut categorical,
        &mut skipped,
        2,
        &mut gather,
    )
    .unwrap();
    let read = format!("{features:?} {categorical:?} {skipped:?} {cols:?} {labels:?}");
    (read, count.chunks)
}

/// 50 rows: `a` integers, `b` floats but integers only in rows 0..7, `c` floats with gaps, the
/// target text; `d` and `e` as `odd` writes them.
fn write(path: &Path, odd: impl Fn(usize) -> (String, String)) {
    let mut text = String::from("a,b,c,d,e,y\n");
    for i in 0..50 {
        let b = if i < 7 {
            format!("{}", i * 3)
        } else {
            format!("{}.25", i)
        };
        let c = if i % 6 == 0 {
            String::new()
        } else {
            format!("{}.5", i % 9)
        };
        let (d, e) = odd(i);
        let y = if i % 3 == 0 { "yes" } else { "no" };
        text.push_str(&format!("{i},{b},{c},{d},{e},{y}\n"));
    }
    std::fs::write(path, text).unwrap();
}

#[test]
fn parts_that_agree_on_every_type_stand_for_their_chunk() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("numbers.csv");
    write(&path, |i| (format!("{}", i % 4), format!("{}e-1", i)));
    let whole = read(&path, None, None);
    // Three chunks of 20, 20 and 10 rows, in parts of at most 7: 3 + 3 + 2 tables.
    let parts = read(&path, None, Some(7));
    assert_eq!(parts.0, whole.0);
    assert_eq!((whole.1, parts.1), (3, 8), "the parts were used");
}

#[test]
fn a_chunk_whose_parts_disagree_is_read_back_whole() {
    let dir = tempfile::tempdir().unwrap();
    // `d` empty in rows 7..14 (a part of nothing but gaps reads as text); `e` integers with a
    // gap in rows 0..7 and floats after (integers with gaps could hide one too wide for i64).
    let path = dir.path().join("gaps.csv");
    write(&path, |i| {
        let d = if (7..14).contains(&i) {
            String::new()
        } else {
            format!("{i}")
        };
        let e = match i {
            3 => String::new(),
            0..7 => format!("{i}"),
            _ => format!("{i}.5"),
        };
        (d, e)
    });
    let features = Some(["a", "b", "c", "d", "e"].map(String::from).to_vec());
    let whole = read(&path, features.clone(), None);
    let parts = read(&path, features, Some(7));
    assert_eq!(parts.0, whole.0);
    // The first chunk (rows 0..20) is read back whole; the second and third stand in parts.
    assert_eq!((whole.1, parts.1), (3, 1 + 3 + 2));
    // Text feature columns: every chunk is read back whole.
    let text = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("tests/fixtures/categorical.csv");
    let features = Some(["grp", "rare", "colour", "num"].map(String::from).to_vec());
    let whole = read(&text, features.clone(), None);
    let parts = read(&text, features, Some(7));
    assert_eq!(parts.0, whole.0);
    assert_eq!(parts.1, whole.1);
}
