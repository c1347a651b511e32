//! The plain-number CSV read ([`super`]) against polars' own read of the same text, value for
//! value and type for type, and the chunks it must leave to polars.

use std::io::Cursor;
use std::sync::Arc;

use polars::prelude::*;
use rand::{RngExt, SeedableRng};

use super::{infer, parse};

fn schema(target: DataType) -> Schema {
    [
        ("a", DataType::Float64),
        ("b", DataType::Float64),
        ("y", target),
    ]
    .into_iter()
    .map(|(n, t)| Field::new(n.into(), t))
    .collect()
}

/// polars' own read of `text` with `schema` and `columns`: the reference.
fn polars(schema: &Schema, columns: Option<&[String]>, text: &str) -> Option<DataFrame> {
    let columns: Option<Arc<[PlSmallStr]>> =
        columns.map(|c| c.iter().map(|n| PlSmallStr::from(n.as_str())).collect());
    crate::read::csv::options(b',')
        .with_columns(columns)
        .with_schema(Some(Arc::new(schema.clone())))
        .into_reader_with_file_handle(Cursor::new(text.as_bytes()))
        .finish()
        .ok()
}

/// polars' own read of `text` inferring every column's type, reading `columns`.
fn polars_inferring(columns: Option<&[String]>, text: &str) -> Option<DataFrame> {
    let columns: Option<Arc<[PlSmallStr]>> =
        columns.map(|c| c.iter().map(|n| PlSmallStr::from(n.as_str())).collect());
    crate::read::csv::options(b',')
        .with_columns(columns)
        .into_reader_with_file_handle(Cursor::new(text.as_bytes()))
        .finish()
        .ok()
}

/// A column's name and each value's bits (None for a null).
type NamedBits = (String, Vec<Option<u64>>);

/// Every column's name, type and each value's bits.
fn typed_bits(df: &DataFrame) -> Vec<(DataType, NamedBits)> {
    let types = df.columns().iter().map(|c| c.dtype().clone());
    types.zip(bits(df)).collect()
}

/// Every column's name and each value's bits.
fn bits(df: &DataFrame) -> Vec<(String, Vec<Option<u64>>)> {
    df.columns()
        .iter()
        .map(|c| {
            let c = c.cast(&DataType::Float64).unwrap();
            let v = c.f64().unwrap().iter().map(|x| x.map(f64::to_bits));
            (c.name().to_string(), v.collect())
        })
        .collect()
}

fn projections() -> [Option<Vec<String>>; 3] {
    let names = |n: &[&str]| Some(n.iter().map(|s| s.to_string()).collect());
    [None, names(&["y", "a", "b"]), names(&["y", "a"])]
}

#[test]
fn plain_numbers_read_as_polars_reads_them_bit_for_bit() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let mut text = String::from("a,b,y\n");
    let spellings = [
        "0",
        "-0",
        "1.",
        "007.50",
        "1e5",
        "2E-3",
        "-4.5e+2",
        "12345678901234567890",
        "0.1000000000000000055511151231257827",
        "9007199254740993",
        "1e-320",
        "1e400",
    ];
    for (i, s) in spellings.iter().enumerate() {
        text.push_str(&format!("{s},{},{}\n", -(i as f64) / 7.0, i % 2));
    }
    for _ in 0..2000 {
        let x: f64 = rng.random::<f64>() * 10f64.powi(rng.random_range(-30..30));
        let digits = rng.random_range(1..20);
        let y: i64 = rng.random_range(-1_000_000..1_000_000);
        text.push_str(&format!("{x:.digits$},{:e},{y}\n", -x / 3.0));
    }
    for target in [DataType::Int64, DataType::Float64] {
        let schema = schema(target);
        for columns in projections() {
            let fast = parse(&schema, columns.as_deref(), b',', text.as_bytes()).unwrap();
            let slow = polars(&schema, columns.as_deref(), &text).unwrap();
            assert_eq!(bits(&fast), bits(&slow), "{columns:?}");
        }
    }
}

#[test]
fn inferred_types_and_numbers_are_polars_own() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    // a: integers only; b: integers then floats of every form the float expression takes;
    // c: floats; y: integers up to 18 digits.
    let mut text = String::from("a,b,c,y\n");
    let floats = [
        "1.",
        "2.50",
        "3e4",
        "-5E-2",
        "0.5e+3",
        "7",
        "-0.0",
        "123456789012345678",
    ];
    for i in 0..500 {
        let a: i64 = rng.random_range(-1_000_000..1_000_000);
        let b = if i < 300 {
            format!("{}", i as i64 * 7 - 900)
        } else {
            floats[i % floats.len()].into()
        };
        let c: f64 = rng.random::<f64>() * 10f64.powi(rng.random_range(-20..20));
        let y: i64 = rng.random_range(-999_999_999_999_999_999..999_999_999_999_999_999);
        text.push_str(&format!("{a},{b},{c},{y}\n"));
    }
    let names = |n: &[&str]| Some(n.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    for columns in [None, names(&["y", "a", "b", "c"]), names(&["y", "b"])] {
        let fast = infer(columns.as_deref(), b',', text.as_bytes()).unwrap();
        let slow = polars_inferring(columns.as_deref(), &text).unwrap();
        assert_eq!(typed_bits(&fast), typed_bits(&slow), "{columns:?}");
    }
    let types: Vec<_> = infer(None, b',', text.as_bytes()).unwrap().dtypes();
    assert_eq!(
        types,
        [
            DataType::Int64,
            DataType::Float64,
            DataType::Float64,
            DataType::Int64
        ]
    );
    // What polars' float expression does not take, and -0 (0 as an integer, -0.0 as a
    // float), are polars' to read.
    for odd in ["a\n1\n1.e5\n", "a\n1\n-0\n2.5\n"] {
        assert!(infer(None, b',', odd.as_bytes()).is_none(), "{odd}");
    }
}

#[test]
fn anything_but_plain_numbers_is_left_to_polars() {
    let int = schema(DataType::Int64);
    let left = [
        ("a space", "a,b,y\n 1.5,2,0\n"),
        ("a trailing space", "a,b,y\n1.5 ,2,0\n"),
        ("a missing cell", "a,b,y\n,2,0\n"),
        ("NA", "a,b,y\nNA,2,0\n"),
        ("a plus sign", "a,b,y\n+1,2,0\n"),
        ("a leading point", "a,b,y\n.5,2,0\n"),
        ("inf", "a,b,y\ninf,2,0\n"),
        ("-inf", "a,b,y\n-inf,2,0\n"),
        ("nan", "a,b,y\nnan,2,0\n"),
        ("a quoted number", "a,b,y\n\"1\",2,0\n"),
        ("a Windows line end", "a,b,y\n1,2,0\r\n"),
        ("a short line", "a,b,y\n1,2\n"),
        ("a long line", "a,b,y\n1,2,0,4\n"),
        ("an empty line", "a,b,y\n1,2,0\n\n"),
        ("no last newline", "a,b,y\n1,2,0"),
        ("a float label", "a,b,y\n1,2,1.0\n"),
        ("a 19-digit label", "a,b,y\n1,2,1234567890123456789\n"),
        ("a number run into a word", "a,b,y\n1x,2,0\n"),
        ("two points", "a,b,y\n1.5.3,2,0\n"),
        ("a quoted header", "\"a\",b,y\n1,2,0\n"),
    ];
    for (what, text) in left {
        assert!(parse(&int, None, b',', text.as_bytes()).is_none(), "{what}");
        if what != "a float label" {
            assert!(infer(None, b',', text.as_bytes()).is_none(), "{what}");
        }
    }
    // A column that is not read may hold text, but no quote.
    let ya = Some(vec!["y".to_string(), "a".to_string()]);
    let text = "a,b,y\n1,word,0\n";
    let fast = parse(&int, ya.as_deref(), b',', text.as_bytes()).unwrap();
    assert_eq!(
        bits(&fast),
        bits(&polars(&int, ya.as_deref(), text).unwrap())
    );
    // Not UTF-8 in a column that is not read: polars refuses the chunk, so it reads it.
    let latin1 = b"a,b,y\n1,caf\xe9,0\n";
    assert!(parse(&int, ya.as_deref(), b',', latin1).is_none());
    assert!(infer(ya.as_deref(), b',', latin1).is_none());
    // A byte order mark is not part of the first name.
    let bom = "\u{feff}a,b,y\n1,2,0\n";
    let fast = infer(None, b',', bom.as_bytes()).unwrap();
    let slow = polars_inferring(None, bom).unwrap();
    assert_eq!(typed_bits(&fast), typed_bits(&slow));
    assert_eq!(fast.get_column_names()[0].as_str(), "a");
    // A name with spaces around it, a column that is not in the file, a separator that can be
    // part of a number.
    assert!(infer(None, b',', b"a, b,y\n1,2,0\n").is_none());
    let missing = Some(vec!["y".to_string(), "z".to_string()]);
    assert!(infer(missing.as_deref(), b',', b"a,b,y\n1,2,0\n").is_none());
    assert!(infer(None, b'.', b"a.b.y\n1.2.0\n").is_none());
    assert!(infer(None, b'e', b"aeb\n1e2\n").is_none());
    let semicolons = infer(None, b';', b"a;b;y\n1.5;2;0\n").unwrap();
    assert_eq!(semicolons.width(), 3);
    let quoted = "a,b,y\n1,\"a,b\",0\n";
    assert!(parse(&int, ya.as_deref(), b',', quoted.as_bytes()).is_none());
    // A read column that is not a number, and a text target.
    assert!(parse(&schema(DataType::String), None, b',', b"a,b,y\n1,2,0\n").is_none());
}
