//! Tests of the synthetic data: rows independent of the chunking, and the --out name.

use super::*;

#[test]
fn rows_do_not_depend_on_where_a_chunk_starts() {
    let w = true_weights(7, 3);
    let mut x = vec![0.0; 30];
    let mut y = vec![0.0; 10];
    fill(7, Part::Train, &w, 0, &mut x, &mut y);
    let mut x2 = vec![0.0; 12];
    let mut y2 = vec![0.0; 4];
    fill(7, Part::Train, &w, 5, &mut x2, &mut y2);
    assert_eq!(&x[15..27], &x2[..]);
    assert_eq!(&y[5..9], &y2[..]);
    let mut xt = vec![0.0; 30];
    fill(7, Part::Test, &w, 0, &mut xt, &mut [0.0; 10]);
    assert_ne!(x, xt, "the test rows are not the training rows");
}

#[test]
fn out_must_be_a_parquet_file() {
    assert_eq!(
        stem(Path::new("d/train.parquet")).unwrap(),
        PathBuf::from("d/train")
    );
    for bad in ["d/train.csv", ".parquet", "d/.parquet", "train"] {
        let e = stem(Path::new(bad)).unwrap_err().to_string();
        assert!(
            e.contains("must name the training Parquet file"),
            "{bad}: {e}"
        );
    }
}
