//! results.json against its JSON Schema, docs/reference/generated/results.schema.json, which
//! `bayeslab docs` derives from the record types (tests/it/generated_docs.rs keeps it current).
//! Every shipped experiment is run and its results.json (a sweep: every point's) must validate.
//! The validator below covers what schemars writes (type, properties, required, items, $ref,
//! anyOf, oneOf, allOf, enum, const, minimum, maximum, additionalProperties) and treats an
//! object schema with `properties` as closed, so a key the schema does not name is an error
//! too: the files and the schema must agree both ways.

use std::path::{Path, PathBuf};

use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The schema `s` resolved through `$ref` (`#/$defs/Name`) against the root schema `top`.
fn resolve<'a>(top: &'a Value, s: &'a Value) -> &'a Value {
    match s.get("$ref").and_then(Value::as_str) {
        Some(r) => {
            let pointer = r.strip_prefix('#').expect("local references only");
            let target = top
                .pointer(pointer)
                .unwrap_or_else(|| panic!("the schema has no {r}"));
            resolve(top, target)
        }
        None => s,
    }
}

fn type_matches(t: &str, v: &Value) -> bool {
    match t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64(),
        other => panic!("unknown type {other} in the schema"),
    }
}

/// Every way `v` fails schema `s`, as `path: reason`.
fn check(top: &Value, s: &Value, v: &Value, path: &str, errors: &mut Vec<String>) {
    check_in(top, s, v, path, &[], errors);
}

/// The keys the properties of `s` and of its allOf / anyOf / oneOf branches name: serde's
/// `flatten` of a tagged enum puts the variant's keys in the branches, the struct's beside them.
fn named(top: &Value, s: &Value) -> Vec<String> {
    let s = resolve(top, s);
    let mut keys: Vec<String> = s
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    for key in ["allOf", "anyOf", "oneOf"] {
        for branch in s.get(key).and_then(Value::as_array).into_iter().flatten() {
            let b = resolve(top, branch);
            if let Some(p) = b.get("properties").and_then(Value::as_object) {
                keys.extend(p.keys().cloned());
            }
        }
    }
    keys
}

/// `check`, where the keys in `inherited` (named beside a branch by its parent) are allowed too.
fn check_in(
    top: &Value,
    s: &Value,
    v: &Value,
    path: &str,
    inherited: &[String],
    errors: &mut Vec<String>,
) {
    let s = resolve(top, s);
    if s == &Value::Bool(true) {
        return;
    }
    if s == &Value::Bool(false) {
        errors.push(format!("{path}: no value is allowed here"));
        return;
    }
    if let Some(t) = s.get("type") {
        let types: Vec<&str> = match t {
            Value::String(one) => vec![one.as_str()],
            Value::Array(many) => many.iter().filter_map(Value::as_str).collect(),
            _ => panic!("a type is a string or a list"),
        };
        if !types.iter().any(|t| type_matches(t, v)) {
            errors.push(format!("{path}: {v} is not of type {types:?}"));
            return;
        }
    }
    if let Some(options) = s.get("enum").and_then(Value::as_array) {
        if !options.contains(v) {
            errors.push(format!("{path}: {v} is not one of {options:?}"));
        }
    }
    if let Some(c) = s.get("const") {
        if c != v {
            errors.push(format!("{path}: {v} is not {c}"));
        }
    }
    if let (Some(min), Some(x)) = (s.get("minimum").and_then(Value::as_f64), v.as_f64()) {
        if x < min {
            errors.push(format!("{path}: {x} is below the minimum {min}"));
        }
    }
    if let (Some(max), Some(x)) = (s.get("maximum").and_then(Value::as_f64), v.as_f64()) {
        if x > max {
            errors.push(format!("{path}: {x} is above the maximum {max}"));
        }
    }
    for all in s
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        check_in(top, all, v, path, &parent_keys(s, inherited), errors);
    }
    for (key, exactly_one) in [("anyOf", false), ("oneOf", true)] {
        if let Some(options) = s.get(key).and_then(Value::as_array) {
            let passing = options
                .iter()
                .filter(|o| {
                    let mut e = Vec::new();
                    check_in(top, o, v, path, &parent_keys(s, inherited), &mut e);
                    e.is_empty()
                })
                .count();
            if passing == 0 || (exactly_one && passing > 1) {
                errors.push(format!(
                    "{path}: {v} matches {passing} of the {key} options"
                ));
            }
        }
    }
    if let Value::Object(map) = v {
        let properties = s.get("properties").and_then(Value::as_object);
        for req in s
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let req = req.as_str().unwrap();
            if !map.contains_key(req) {
                errors.push(format!("{path}: the key {req} is missing"));
            }
        }
        for (key, value) in map {
            let at = format!("{path}.{key}");
            match (
                properties.and_then(|p| p.get(key)),
                s.get("additionalProperties"),
            ) {
                (Some(p), _) => check(top, p, value, &at, errors),
                (None, Some(extra)) => check(top, extra, value, &at, errors),
                (None, None)
                    if properties.is_some()
                        && !inherited.contains(key)
                        && !named(top, s).contains(key) =>
                {
                    errors.push(format!("{at}: a key the schema does not name"))
                }
                (None, None) => {}
            }
        }
    }
    if let (Value::Array(items), Some(each)) = (v, s.get("items")) {
        for (i, item) in items.iter().enumerate() {
            check(top, each, item, &format!("{path}[{i}]"), errors);
        }
    }
}

/// What a branch of `s` may hold besides its own keys: the keys `s` names, and what `s` inherited.
fn parent_keys(s: &Value, inherited: &[String]) -> Vec<String> {
    let mut keys = inherited.to_vec();
    keys.extend(
        s.get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|p| p.keys().cloned()),
    );
    keys
}

fn errors(schema: &Value, v: &Value) -> Vec<String> {
    let mut e = Vec::new();
    check(schema, schema, v, "$", &mut e);
    e
}

fn schema() -> Value {
    let text = std::fs::read_to_string(root().join("docs/reference/generated/results.schema.json"))
        .unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn the_validator_finds_what_it_should() {
    let schema: Value = serde_json::json!({
        "type": "object",
        "required": ["a", "kind"],
        "properties": {
            "a": {"type": "integer", "minimum": 0},
            "b": {"type": ["number", "null"]},
            "kind": {"$ref": "#/$defs/Kind"},
            "xs": {"type": "array", "items": {"type": "string"}},
            "m": {"type": "object", "additionalProperties": {"type": "boolean"}},
            "one": {"oneOf": [{"type": "string", "const": "x"}, {"type": "integer"}]}
        },
        "$defs": {"Kind": {"type": "string", "enum": ["laplace", "ep"]}}
    });
    let good = serde_json::json!({"a": 3, "b": null, "kind": "ep", "xs": ["p"], "m": {"k": true}, "one": "x"});
    assert_eq!(errors(&schema, &good), Vec::<String>::new());
    let cases = [
        (serde_json::json!({"kind": "ep"}), "$: the key a is missing"),
        (
            serde_json::json!({"a": -1, "kind": "ep"}),
            "$.a: -1 is below the minimum 0",
        ),
        (
            serde_json::json!({"a": 1.5, "kind": "ep"}),
            "$.a: 1.5 is not of type [\"integer\"]",
        ),
        (
            serde_json::json!({"a": 1, "kind": "vb"}),
            "$.kind: \"vb\" is not one of",
        ),
        (
            serde_json::json!({"a": 1, "kind": "ep", "c": 1}),
            "$.c: a key the schema does not name",
        ),
        (
            serde_json::json!({"a": 1, "kind": "ep", "xs": [1]}),
            "$.xs[0]: 1 is not of type",
        ),
        (
            serde_json::json!({"a": 1, "kind": "ep", "m": {"k": 1}}),
            "$.m.k: 1 is not of type",
        ),
        (
            serde_json::json!({"a": 1, "kind": "ep", "one": "y"}),
            "$.one: \"y\" matches 0 of the oneOf options",
        ),
    ];
    for (value, expected) in cases {
        let e = errors(&schema, &value);
        assert!(
            e.len() == 1 && e[0].starts_with(expected),
            "{value}: expected {expected}, got {e:?}"
        );
    }
}

/// Every results.json under `dir`, a sweep's points included.
fn results_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() {
            results_files(&p, out);
        } else if p.file_name().is_some_and(|n| n == "results.json") {
            out.push(p);
        }
    }
}

#[test]
fn every_shipped_experiments_results_json_matches_the_schema() {
    let schema = schema();
    assert_eq!(
        schema["$schema"], "https://json-schema.org/draft/2020-12/schema",
        "schemars writes draft 2020-12"
    );
    let tmp = tempfile::tempdir().unwrap();
    let mut experiments: Vec<PathBuf> = std::fs::read_dir(root().join("experiments"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    experiments.sort();
    assert!(experiments.len() >= 19, "{experiments:?}");
    let mut checked = 0;
    let mut bad = Vec::new();
    for exp in &experiments {
        let name = exp.file_stem().unwrap().to_string_lossy().to_string();
        let out = tmp.path().join(&name);
        let o = crate::util::cli::bin()
            .args(["run", "--quiet", "--out"])
            .arg(&out)
            .arg(exp)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let mut files = Vec::new();
        results_files(&out, &mut files);
        assert!(!files.is_empty(), "{name} wrote no results.json");
        for f in files {
            let v: Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
            checked += 1;
            for e in errors(&schema, &v) {
                bad.push(format!(
                    "{}: {e}",
                    f.strip_prefix(tmp.path()).unwrap().display()
                ));
            }
        }
    }
    assert!(
        checked > experiments.len(),
        "a sweep's points are checked too"
    );
    assert!(
        bad.is_empty(),
        "results.json against its schema:\n{}",
        bad.join("\n")
    );
}
