//! `[sweep]`: run one experiment once per value of one numeric key, e.g.
//! `[sweep] prior.precision = [0.01, 0.1, 1, 10]`. Each value is written into the experiment's
//! TOML and validated like a hand-written file, so a sweep can set any numeric key and every
//! value gets the same checks. Under `method.<key>` the value is set on every `[[method]]`.

use std::path::Path;

use toml::{Table, Value};

use super::plan::Plan;
pub use super::plan::Sweep;
use super::raw::RawExperiment;
use bayeslab_core::error::{Error, Result};

/// Dotted paths of the leaves of `t` (a TOML dotted key `prior.precision = [...]` is a nested table).
fn leaves(prefix: &str, t: &Table, out: &mut Vec<(String, Value)>) {
    for (k, v) in t {
        let path = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            Value::Table(inner) => leaves(&path, inner, out),
            other => out.push((path, other.clone())),
        }
    }
}

fn set(doc: &mut Table, path: &[&str], value: &Value) -> std::result::Result<(), String> {
    let (first, rest) = path.split_first().ok_or("empty key")?;
    if rest.is_empty() {
        doc.insert(first.to_string(), value.clone());
        return Ok(());
    }
    match doc
        .entry(first.to_string())
        .or_insert_with(|| Value::Table(Table::new()))
    {
        Value::Table(t) => set(t, rest, value),
        Value::Array(items) => {
            for item in items.iter_mut() {
                match item {
                    Value::Table(t) => set(t, rest, value)?,
                    _ => return Err(format!("`{first}` is not a list of tables")),
                }
            }
            Ok(())
        }
        _ => Err(format!("`{first}` is not a table")),
    }
}

/// Take `[sweep]` out of `doc` and build one plan per value.
pub fn extract(doc: &mut Table, file: &Path) -> Result<Option<Sweep>> {
    let Some(sweep) = doc.remove("sweep") else {
        return Ok(None);
    };
    let err = |m: String| Error::config(file, m);
    let Value::Table(sweep) = sweep else {
        return Err(err(
            "[sweep] must be a table such as `[sweep]\nprior.precision = [0.1, 1, 10]`".into(),
        ));
    };
    let mut keys = Vec::new();
    leaves("", &sweep, &mut keys);
    let [(key, values)] = keys.as_slice() else {
        return Err(err(format!(
            "[sweep] must set exactly one key (found {}): sweep one numeric key at a time, e.g. prior.precision = [0.1, 1, 10]",
            keys.len()
        )));
    };
    let Value::Array(values) = values else {
        return Err(err(format!(
            "[sweep] {key} must be a list of numbers, e.g. [0.1, 1, 10]"
        )));
    };
    if values.is_empty() {
        return Err(err(format!("[sweep] {key} = []: give at least one value")));
    }
    let mut points = Vec::with_capacity(values.len());
    let mut labels: Vec<String> = Vec::with_capacity(values.len());
    for v in values {
        let x = match v {
            Value::Integer(i) => *i as f64,
            Value::Float(f) => *f,
            other => return Err(err(format!("[sweep] {key}: {other} is not a number"))),
        };
        let name = label(v);
        let earlier = &values[..labels.len()];
        if let Some(j) = (0..labels.len()).position(|j| labels[j] == name || same(v, &earlier[j])) {
            return Err(err(format!(
                "[sweep] {key}: the value {name} is listed twice (values #{} and #{}); each value is one run directory, \
                 so list every value once",
                j + 1,
                labels.len() + 1
            )));
        }
        labels.push(name.clone());
        let mut copy = doc.clone();
        let parts: Vec<&str> = key.split('.').collect();
        set(&mut copy, &parts, v).map_err(|m| err(format!("[sweep] {key}: {m}")))?;
        let raw: RawExperiment = Value::Table(copy)
            .try_into()
            .map_err(|e: toml::de::Error| {
                err(format!(
                    "[sweep] {key} = {name}: {}",
                    super::suggest::enrich_unknown_field(&e.to_string(), doc)
                ))
            })?;
        let plan = Plan::from_raw(raw, file).map_err(|e| match e {
            Error::Config { file, message } => Error::Config {
                file,
                message: format!("[sweep] {key} = {name}: {message}"),
            },
            other => other,
        })?;
        points.push((x, plan));
    }
    Ok(Some(Sweep {
        key: key.clone(),
        points,
        labels,
    }))
}

/// The name of a swept value in its run directory `<key>=<label>`: an integer as written, a
/// float in Rust's shortest round-trip form (so distinct floats never share a name), in
/// exponent form when the plain one would be long (1e-300 is "1e-300", not 302 digits).
pub fn label(v: &Value) -> String {
    match v {
        Value::Integer(i) => i.to_string(),
        Value::Float(f) => {
            let plain = format!("{f}");
            if plain.len() <= 12 {
                plain
            } else {
                format!("{f:e}")
            }
        }
        other => other.to_string(),
    }
}

/// Whether two swept values are the same number (1 and 1.0), so the same run.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Integer(x), Value::Integer(y)) => x == y,
        (Value::Float(x), Value::Float(y)) => x == y,
        (Value::Integer(i), Value::Float(f)) | (Value::Float(f), Value::Integer(i)) => {
            *f == *i as f64 && f.fract() == 0.0 && (*f as i64) == *i
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "[data]\npath = \"../datasets/pima.csv\"\ntarget = \"y\"\n\n[[method]]\nkind = \"logistic-laplace\"\n\n[[method]]\nid = \"b\"\nkind = \"logistic-laplace\"\n";

    fn file() -> std::path::PathBuf {
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("experiments/x.toml")
    }

    fn sweep(extra: &str) -> Result<Option<Sweep>> {
        let mut doc: Table = toml::from_str(&format!("{BASE}\n{extra}")).unwrap();
        extract(&mut doc, &file())
    }

    #[test]
    fn sets_the_key_in_each_plan() {
        let s = sweep("[sweep]\nprior.precision = [0.1, 1, 10]")
            .unwrap()
            .unwrap();
        assert_eq!(s.key, "prior.precision");
        let got: Vec<(f64, f64)> = s
            .points
            .iter()
            .map(|(v, p)| (*v, p.prior.precision))
            .collect();
        assert_eq!(got, vec![(0.1, 0.1), (1.0, 1.0), (10.0, 10.0)]);
    }

    #[test]
    fn method_keys_apply_to_every_method() {
        let s = sweep("[sweep]\n\"method.mc_samples\" = [10, 20]")
            .unwrap()
            .unwrap();
        assert!(s.points[1].1.methods.iter().all(|m| m.mc_samples == 20));
    }

    #[test]
    fn bad_sweeps_say_why() {
        let e = sweep("[sweep]\nprior.precison = [1]")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("[sweep] prior.precison = 1") && e.contains("did you mean `precision`?"),
            "{e}"
        );
        let e = sweep("[sweep]\nprior.precision = [-1]")
            .unwrap_err()
            .to_string();
        assert!(e.contains("must be a finite number >= 0"), "{e}");
        let e = sweep("[sweep]\nprior.precision = 1")
            .unwrap_err()
            .to_string();
        assert!(e.contains("must be a list of numbers"), "{e}");
        let e = sweep("[sweep]\nprior.precision = [1]\nseed = [1, 2]")
            .unwrap_err()
            .to_string();
        assert!(e.contains("exactly one key"), "{e}");
    }
}
