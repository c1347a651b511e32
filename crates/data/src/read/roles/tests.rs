use super::*;

#[test]
fn index_headers_are_empty_or_pandas_unnamed() {
    for h in ["", " ", "Unnamed: 0", "Unnamed: 12"] {
        assert!(index_header(h), "{h:?}");
    }
    for h in ["Unnamed", "Unnamed: x", "index_value", "x"] {
        assert!(!index_header(h), "{h:?}");
    }
}

#[test]
fn identifier_names_end_in_an_id_word_not_in_the_letters() {
    for h in [
        "id",
        "ID",
        "Id",
        "respondent_id",
        "row-id",
        "user.id",
        "customer ID",
    ] {
        assert!(identifier_name(h), "{h:?}");
    }
    for h in ["customerId", "PassengerId", "CUSTOMERID", "userID"] {
        assert!(identifier_name(h), "{h:?}");
    }
    for h in ["paid", "valid", "fluid", "idle", "Idaho", "width", "x"] {
        assert!(!identifier_name(h), "{h:?}");
    }
}

#[test]
fn dates_and_times_in_the_usual_spellings() {
    for s in [
        "2024-03-01",
        "2024/3/1",
        "01/03/2024",
        "1.3.24",
        "2024-03-01T13:45:10",
        "2024-03-01 13:45",
        "2024-03-01T13:45:10.123Z",
        "13:45",
        "13:45:10",
    ] {
        assert!(looks_like_date(s), "{s:?}");
    }
    for s in ["2024", "1.5", "3-4", "a-b-c", "12:3x", "20240301", "-1.5e3"] {
        assert!(!looks_like_date(s), "{s:?}");
    }
}

fn write(text: &str) -> tempfile::NamedTempFile {
    let f = tempfile::Builder::new().suffix(".csv").tempfile().unwrap();
    std::fs::write(f.path(), text).unwrap();
    f
}

#[test]
fn a_profile_gives_each_column_its_role_reason_and_counts() {
    // 30 rows: a pandas index, an id by name, a row number, a date, a padded numeric column
    // with one INF-free odd spelling, a categorical, a free-text id, a constant, an empty one.
    let mut text = String::from(",user_id,row,day,x,city,name,k,gap,flag,y\n");
    for i in 0..30 {
        let x = if i == 4 {
            " 2.5".to_string()
        } else {
            format!("{}", i % 7)
        };
        let city = ["a", "b", "c"][i % 3];
        let x = if i == 9 { "NaN".to_string() } else { x };
        text.push_str(&format!(
            "{i},{},{},2024-01-{:02},{x},{city},n{i},5,,{},{}\n",
            (i * 37) % 101,
            i + 100,
            i % 28 + 1,
            i % 2 == 0,
            i % 2
        ));
    }
    let f = write(&text);
    let p = profile(f.path(), b',').unwrap();
    let role = |n: &str| p.iter().find(|c| c.name == n).unwrap().role.clone();
    assert_eq!(role(""), Role::Index);
    assert_eq!(role("user_id"), Role::Identifier(IdentifierBy::Name));
    assert_eq!(role("row"), Role::Identifier(IdentifierBy::Sequence));
    assert_eq!(role("day"), Role::Date);
    assert_eq!(role("x"), Role::Numeric);
    assert_eq!(role("city"), Role::Categorical { levels: 3 });
    assert_eq!(role("name"), Role::Identifier(IdentifierBy::DistinctText));
    assert_eq!(role("k"), Role::Constant);
    assert_eq!(role("gap"), Role::Empty);
    assert_eq!(role("flag"), Role::Boolean);
    let x = p.iter().find(|c| c.name == "x").unwrap();
    assert_eq!((x.rows, x.missing, x.position), (30, 1, 5));
    let city = p.iter().find(|c| c.name == "city").unwrap();
    assert_eq!(
        city.levels,
        [
            ("a".to_string(), 10),
            ("b".to_string(), 10),
            ("c".to_string(), 10)
        ]
    );
    assert!(p.iter().all(|c| !c.role.reason().is_empty()));
    let suspicious: Vec<&str> = p
        .iter()
        .filter(|c| c.role.is_suspicious())
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(suspicious, ["", "user_id", "row", "day", "name"]);
}

#[test]
fn a_short_or_unordered_integer_column_is_a_number() {
    let mut text = String::from("a,b,y\n");
    for i in 0..30 {
        // b: distinct but not increasing (a shuffled key would be caught by its name, not this)
        text.push_str(&format!("{i},{},{}\n", (i * 7) % 30, i % 2));
    }
    let f = write(&text);
    let p = profile(f.path(), b',').unwrap();
    assert_eq!(p[0].role, Role::Identifier(IdentifierBy::Sequence));
    assert_eq!(p[1].role, Role::Numeric);
    let short = write("a,y\n1,0\n2,1\n3,0\n");
    assert_eq!(profile(short.path(), b',').unwrap()[0].role, Role::Numeric);
}

#[test]
fn a_row_number_is_one_whether_written_as_integers_or_as_whole_decimals() {
    use polars::prelude::Column;
    let n = super::values::MIN_SEQUENCE_ROWS as i64;
    let ints = Column::new("i".into(), (0..n).collect::<Vec<i64>>());
    let floats = Column::new("f".into(), (1..=n).map(|v| v as f64).collect::<Vec<f64>>());
    assert!(super::values::is_sequence(&ints));
    assert!(
        super::values::is_sequence(&floats),
        "1.0, 2.0, … is a float index"
    );
    // A measurement that happens to increase is not whole; a repeat is not a sequence.
    let measured = Column::new(
        "m".into(),
        (0..n).map(|v| v as f64 + 0.5).collect::<Vec<f64>>(),
    );
    let repeated = Column::new(
        "r".into(),
        (0..n).map(|v| (v / 2) as f64).collect::<Vec<f64>>(),
    );
    assert!(!super::values::is_sequence(&measured));
    assert!(!super::values::is_sequence(&repeated));
}
