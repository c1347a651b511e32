//! The `parquet` crate's decoding of plain columns of doubles against polars' reading of the
//! same files: values bit for bit, nulls as NaN, row groups, codecs, and the files it leaves alone.

use super::*;
use faer::Mat;
use polars::prelude::*;

/// A frame of doubles with nulls, NaN and infinities, an integer and a text column, written
/// in row groups of `group` rows with `codec`.
fn write(path: &Path, group: usize, codec: ParquetCompression) {
    let n = 1000;
    let a: Vec<Option<f64>> = (0..n)
        .map(|i| (i % 7 != 3).then(|| (i as f64 * 0.37).sin() * 1e3))
        .collect();
    let b: Vec<f64> = (0..n)
        .map(|i| match i % 97 {
            5 => f64::NAN,
            6 => f64::INFINITY,
            _ => i as f64 / 3.0,
        })
        .collect();
    let c: Vec<i64> = (0..n as i64).collect();
    let t: Vec<String> = (0..n).map(|i| format!("t{}", i % 3)).collect();
    let mut df = df!("a" => a, "b" => b, "c" => c, "t" => t).unwrap();
    ParquetWriter::new(File::create(path).unwrap())
        .with_row_group_size(Some(group))
        .with_compression(codec)
        .finish(&mut df)
        .unwrap();
}

/// polars' values of column `name`, a null as NaN.
fn polars_column(path: &Path, name: &str) -> Vec<f64> {
    let df = ParquetReader::new(File::open(path).unwrap())
        .finish()
        .unwrap();
    let ca = df.column(name).unwrap().f64().unwrap().clone();
    ca.iter().map(|v| v.unwrap_or(f64::NAN)).collect()
}

#[test]
fn columns_of_doubles_decode_to_polars_values_bit_for_bit() {
    let dir = tempfile::tempdir().unwrap();
    let codecs = [
        ParquetCompression::Uncompressed,
        ParquetCompression::Snappy,
        ParquetCompression::Zstd(None),
        ParquetCompression::Lz4Raw,
    ];
    for (case, codec) in codecs.into_iter().enumerate() {
        for group in [64, 1000] {
            let path = dir.path().join(format!("f{case}-{group}.parquet"));
            write(&path, group, codec);
            let names = ["b".to_string(), "a".to_string()];
            let placeable = Placeable::of(&path, &names).expect("two columns of doubles");
            assert_eq!(placeable.rows(), 1000);
            let mut x = Mat::<f64>::with_capacity(1000, 3);
            let out = SharedColumns::of(&mut x, 3);
            // SAFETY: room for 3 columns of 1000 rows; columns 1 and 2 written here.
            let found = unsafe { placeable.decode(&path, out, (1, 0), &mut |_| {}) }.unwrap();
            // SAFETY: columns 1 and 2 decoded above; column 0, never written, is never read.
            unsafe { x.set_dims(1000, 3) };
            for (k, name) in names.iter().enumerate() {
                let want = polars_column(&path, name);
                let got = x.col_as_slice(k + 1);
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                // polars' NaN and a null's NaN may differ in their payload: compare NaN as NaN.
                let canon = |v: &[f64]| {
                    bits(
                        &v.iter()
                            .map(|&x| if x.is_nan() { f64::NAN } else { x })
                            .collect::<Vec<_>>(),
                    )
                };
                assert_eq!(
                    canon(got),
                    canon(&want),
                    "{name}, codec {case}, groups of {group}"
                );
                let missing = want.iter().filter(|x| x.is_nan()).count();
                let infinite = want.iter().any(|x| x.is_infinite());
                assert_eq!(found[k], Found { missing, infinite }, "{name}");
            }
        }
    }
}

#[test]
fn decoding_from_a_row_writes_its_row_group_and_the_later_ones_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.parquet");
    write(&path, 64, ParquetCompression::Zstd(None));
    let placeable = Placeable::of(&path, &["a".to_string()]).unwrap();
    let (starts, want) = (&placeable.starts, polars_column(&path, "a"));
    for from in [200, starts[3], starts[4] - 1, 999, 1000] {
        // The row group holding row `from` starts at the last start not after it.
        let group_start = *starts.iter().rev().find(|&&s| s <= from).unwrap();
        let mut x = Mat::<f64>::full(1000, 1, -7.0);
        let out = SharedColumns::of(&mut x, 1);
        // SAFETY: room for one column of 1000 rows, written here alone.
        let found = unsafe { placeable.decode(&path, out, (0, from), &mut |_| {}) }.unwrap();
        let got = x.col_as_slice(0);
        assert!(got[..group_start].iter().all(|&v| v == -7.0), "from {from}");
        let same = |i: &usize| {
            got[*i].to_bits() == want[*i].to_bits() || got[*i].is_nan() && want[*i].is_nan()
        };
        assert_eq!((group_start..1000).find(|i| !same(i)), None, "from {from}");
        let missing = want[group_start..].iter().filter(|v| v.is_nan()).count();
        assert_eq!(found[0].missing, missing, "from {from}");
    }
}

#[test]
fn a_column_that_is_not_doubles_leaves_the_file_to_polars() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.parquet");
    write(&path, 100, ParquetCompression::Zstd(None));
    for names in [["a", "c"], ["a", "t"], ["a", "nowhere"]] {
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        assert!(Placeable::of(&path, &names).is_none(), "{names:?}");
    }
    let gzip = dir.path().join("g.parquet");
    write(&gzip, 100, ParquetCompression::Gzip(None));
    assert!(Placeable::of(&gzip, &["a".to_string()]).is_none());
}
