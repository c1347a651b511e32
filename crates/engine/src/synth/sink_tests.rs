//! Tests of the Parquet row groups: their size whatever the writes, every row kept.

use super::*;
use bayeslab_data::parquet_sink::row_group_rows;

#[test]
fn row_groups_have_their_size_whatever_the_writes_and_keep_every_row() {
    // 1,000 rows in groups of 64, written in uneven pieces that cross the group
    // boundaries at different offsets: 15 full groups and one of 40, and every value
    // where it was written.
    let dir = tempfile::tempdir().unwrap();
    let stem = dir.path().join("t");
    let (n, d) = (1000, 3);
    let names: Vec<String> = (1..=d).map(|j| format!("x{j}")).collect();
    let x: Vec<f64> = (0..n * d).map(|k| (k as f64 * 0.37).sin()).collect();
    let y: Vec<f64> = (0..n).map(|i| f64::from(u8::from(i % 3 == 0))).collect();
    let mut writer = PartWriter::create(&stem, n, &names, (true, false), 64).unwrap();
    let mut start = 0;
    for step in [37, 100, 5, 64, 1, 300].into_iter().cycle() {
        let end = (start + step).min(n);
        writer
            .write(&x[start * d..end * d], &y[start..end], d)
            .unwrap();
        start = end;
        if start == n {
            break;
        }
    }
    let (pending, _) = writer.finish().unwrap();
    for p in pending {
        p.commit().unwrap();
    }
    let parquet = with_suffix(&stem, ".parquet");
    let mut groups = vec![64; n / 64];
    groups.push(n % 64);
    assert_eq!(row_group_rows(&parquet), groups);
    let back = bayeslab_data::dense::read_dense(&parquet, "y").unwrap();
    // and the .npy written beside it holds the same rows
    let npy = bayeslab_data::npy::read_matrix(&with_suffix(&stem, ".X.npy")).unwrap();
    assert_eq!(back.names, names);
    for i in 0..n {
        for j in 0..d {
            assert_eq!(
                back.x[(i, j)].to_bits(),
                x[i * d + j].to_bits(),
                "({i}, {j})"
            );
            assert_eq!(
                npy[(i, j)].to_bits(),
                x[i * d + j].to_bits(),
                "npy ({i}, {j})"
            );
        }
    }
    assert_eq!(back.y, y);
}
