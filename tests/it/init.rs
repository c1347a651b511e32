//! `bayeslab init` then `bayeslab run`, with no edit, on three tables of our own making (written
//! by the test from a seeded generator): a survey exported by pandas (an unnamed index column,
//! text categories), a clinic table (a yes/no text target with gaps, a date, an id column, gaps in
//! the features), and a `;`-separated file with a free-text notes column. Each runs; the
//! index, the id, the date and the notes are never features; init never overwrites a file.

use std::path::Path;

use crate::util::cli::{bin, run_experiment};

/// A small linear congruential generator: the tables are the same on every run.
struct Lcg(u64);

impl Lcg {
    fn unit(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn survey(path: &Path) {
    let mut g = Lcg(1);
    let regions = ["north", "south", "east", "west"];
    let mut s = String::from(",age,region,smoker,income,outcome\n");
    for i in 0..150 {
        let age = 20.0 + (g.unit() * 50.0).floor();
        let region = regions[(g.unit() * 4.0) as usize];
        let smoker = if g.unit() < 0.3 { "yes" } else { "no" };
        let income = (20.0 + g.unit() * 60.0).round();
        let a =
            0.04 * (age - 45.0) + if smoker == "yes" { 0.8 } else { -0.3 } + 0.02 * (income - 50.0);
        let y = u8::from(g.unit() < 1.0 / (1.0 + (-a).exp()));
        s += &format!("{i},{age},{region},{smoker},{income},{y}\n");
    }
    std::fs::write(path, s).unwrap();
}

fn clinic(path: &Path) {
    let mut g = Lcg(2);
    let mut s = String::from("patient_id,visit_date,age,bmi,smoker,disease\n");
    for i in 0..160 {
        let age = 30.0 + (g.unit() * 40.0).floor();
        let bmi = 18.0 + g.unit() * 15.0;
        let smoker = if g.unit() < 0.4 { "yes" } else { "no" };
        let a =
            0.05 * (age - 50.0) + 0.15 * (bmi - 25.0) + if smoker == "yes" { 0.7 } else { -0.2 };
        let y = if g.unit() < 1.0 / (1.0 + (-a).exp()) {
            "yes"
        } else {
            "no"
        };
        let y = if i % 17 == 5 { "" } else { y };
        let bmi = if i % 23 == 7 {
            String::new()
        } else {
            format!("{bmi:.1}")
        };
        s += &format!(
            "P{:04},2024-{:02}-{:02},{age},{bmi},{smoker},{y}\n",
            1000 + i,
            1 + i % 12,
            1 + i % 28
        );
    }
    std::fs::write(path, s).unwrap();
}

fn semicolon(path: &Path) {
    let mut g = Lcg(3);
    let words = [
        "late", "tired", "keen", "absent", "new", "quiet", "loud", "early",
    ];
    let mut s = String::from("score;group;hours;notes;label\n");
    for i in 0..140 {
        let score = (40.0 + g.unit() * 60.0).round();
        let group = ["A", "B", "C"][(g.unit() * 3.0) as usize];
        let hours = (g.unit() * 10.0 * 10.0).round() / 10.0;
        let a = 0.05 * (score - 70.0) + 0.3 * (hours - 5.0);
        let y = u8::from(g.unit() < 1.0 / (1.0 + (-a).exp()));
        let note = format!(
            "{} and {} (visit {i})",
            words[i % 8],
            words[(i * 3 + 1) % 8]
        );
        s += &format!("{score};{group};{hours};{note};{y}\n");
    }
    std::fs::write(path, s).unwrap();
}

/// `init` (with `args`) then `run` on `table`: the design columns of the run.
fn init_and_run(dir: &Path, table: &str, args: &[&str]) -> Vec<String> {
    let data = dir.join(table);
    let o = bin().arg("init").arg(&data).args(args).output().unwrap();
    assert!(
        o.status.success(),
        "init {table}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let exp = data.with_extension("toml");
    let text = std::fs::read_to_string(&exp).unwrap();
    let out = dir.join(format!("run-{table}"));
    let r = run_experiment(&exp, &out, true);
    assert!(
        r.status.success(),
        "run {table}:\n{text}\n{}",
        String::from_utf8_lossy(&r.stderr)
    );
    // Never overwritten: init again is refused, and the file is unchanged.
    let again = bin().arg("init").arg(&data).args(args).output().unwrap();
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("never overwrites"));
    assert_eq!(std::fs::read_to_string(&exp).unwrap(), text);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    json["dataset"]["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn three_tables_run_from_init_without_an_edit() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    survey(&dir.join("survey.csv"));
    clinic(&dir.join("clinic.csv"));
    semicolon(&dir.join("marks.csv"));
    let cols = init_and_run(dir, "survey.csv", &[]);
    assert!(cols.iter().any(|c| c.starts_with("region=")), "{cols:?}");
    assert!(cols.iter().any(|c| c == "smoker=yes"), "{cols:?}");
    assert!(
        !cols
            .iter()
            .any(|c| c.is_empty() || c.starts_with("Unnamed") || c == "column_1"),
        "the index is never a feature: {cols:?}"
    );
    let cols = init_and_run(dir, "clinic.csv", &["--target", "disease"]);
    assert!(
        !cols
            .iter()
            .any(|c| c.contains("patient_id") || c.contains("visit_date")),
        "{cols:?}"
    );
    assert!(cols.iter().any(|c| c == "bmi"), "{cols:?}");
    let text = std::fs::read_to_string(dir.join("clinic.toml")).unwrap();
    assert!(
        text.contains("positive = \"yes\"") && text.contains("missing = \"mean\""),
        "{text}"
    );
    let cols = init_and_run(dir, "marks.csv", &[]);
    assert!(!cols.iter().any(|c| c.contains("notes")), "{cols:?}");
    let text = std::fs::read_to_string(dir.join("marks.toml")).unwrap();
    assert!(
        text.contains("separator = \";\"") && text.contains("#   notes"),
        "{text}"
    );
}

#[test]
fn an_unguessable_target_is_asked_for() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("t.csv");
    std::fs::write(&data, "a,b,c\n1,0,x\n2,1,y\n3,0,x\n4,1,y\n").unwrap();
    let o = bin().arg("init").arg(&data).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--target COLUMN") && err.contains("b, c"),
        "{err}"
    );
}
