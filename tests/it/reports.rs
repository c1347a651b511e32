//! report.md and report.html end to end: what results.json knows, both reports show (k-hat and
//! its verdict, the evidence-chosen lambda, every class's weights), and every figure draws.

use std::path::{Path, PathBuf};

use crate::util::method::small_design;
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The three reports of `bayeslab run EXPERIMENT`: (results.json, report.md, report.html).
struct Reports {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    json: Value,
    md: String,
    html: String,
}

fn run(experiment: &Path) -> Reports {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out");
    let o = crate::util::cli::bin()
        .args(["run", "--quiet", "--out"])
        .arg(&dir)
        .arg(experiment)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    Reports {
        json: serde_json::from_str(&read("results.json")).unwrap(),
        md: read("report.md"),
        html: read("report.html"),
        dir,
        _tmp: tmp,
    }
}

#[test]
fn khat_and_its_verdict_are_in_both_reports_with_bad_in_bold() {
    let tmp = tempfile::tempdir().unwrap();
    let data = small_design(tmp.path());
    let exp = tmp.path().join("small.toml");
    std::fs::write(
        &exp,
        format!(
            "name = \"small\"\nseed = 3\n[data]\npath = {data:?}\ntarget = \"y\"\n\
             split = {{ every = 5, offset = 4 }}\n[prior]\nprecision = 0.01\n\
             [[method]]\nid = \"weak\"\nkind = \"logistic-laplace\"\n\
             [[method]]\nid = \"map\"\nkind = \"logistic-map\"\n"
        ),
    )
    .unwrap();
    let r = run(&exp);
    let weak = r.json["runs"][0]["khat"].as_f64().unwrap();
    assert!(weak > 0.7, "k-hat {weak}");
    let bad = format!("{weak:.2} BAD");
    // report.md: the convergence table's k-hat column, BAD in bold
    assert!(r.md.contains("| log evidence | k-hat |"), "{}", r.md);
    assert!(r.md.contains(&format!("| **{bad}** |")), "{}", r.md);
    // the MAP run has no posterior: a dash
    let map_row =
        r.md.lines()
            .find(|l| l.starts_with("| map | logistic-map |"))
            .unwrap();
    assert!(map_row.ends_with("| – |"), "{map_row}");
    // report.html: the same cells, the BAD one bold and red
    assert!(r.html.contains("<th>k-hat</th>"));
    assert!(
        r.html
            .contains(&format!("<td class=\"num warn\">{bad}</td>")),
        "{}",
        r.html
    );
    assert!(r.md.contains("BAD beyond (bold)") && r.html.contains("BAD beyond (bold)"));
}

#[test]
fn the_evidence_chosen_lambda_is_said_and_highlighted_in_both_reports() {
    let r = run(&root().join("experiments/evidence_prior.toml"));
    for (i, id) in ["logistic", "probit"].iter().enumerate() {
        let run = &r.json["runs"][i];
        let lambda = run["prior_precision"].as_f64().unwrap();
        let evidence = run["posterior"]["log_evidence"].as_f64().unwrap();
        let row = format!("{lambda:.3e} (chosen)");
        let words = format!(
            "lambda = {lambda:.3} maximises the Laplace evidence (log evidence {evidence:.4})"
        );
        assert!(r.md.contains(&format!("`{id}`: {words}")), "{}", r.md);
        assert!(r.md.contains(&format!("| **{row}** | **{evidence:.4}** |")));
        assert!(r
            .html
            .contains(&format!("<h3>{id}: lambda = {lambda:.4e}</h3>")));
        assert!(
            r.html.contains(&format!("<code>{id}</code>: {words}")),
            "{}",
            r.html
        );
        assert!(r.html.contains(&format!(
            "<td class=\"num best\">{row}</td><td class=\"num best\">{evidence:.4}</td>"
        )));
    }
}

#[test]
fn iris_weights_are_labelled_by_class_in_both_reports_and_drawn_per_class() {
    let r = run(&root().join("experiments/iris_multiclass.toml"));
    let classes: Vec<&str> = r.json["dataset"]["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(classes.len(), 3);
    assert!(!r.md.contains("[block"), "{}", r.md);
    assert!(r
        .md
        .contains("| class | column | softmax | softmax-reference |"));
    // softmax-reference's block 0 is class 1: it sits beside softmax's class-1 weights
    let softmax = &r.json["runs"][0]["posterior"];
    let reference = &r.json["runs"][1]["posterior"];
    let cell = |p: &Value, i: usize| {
        format!(
            "{:.4} ± {:.4}",
            p["mean"][i].as_f64().unwrap(),
            2.0 * p["cov_diag"][i].as_f64().unwrap().sqrt()
        )
    };
    let d = r.json["dataset"]["columns"].as_array().unwrap().len();
    assert_eq!(d, 5);
    let row = format!(
        "| y = {} | intercept | {} | {} |",
        classes[1],
        cell(softmax, d),
        cell(reference, 0)
    );
    assert!(r.md.contains(&row), "no {row} in\n{}", r.md);
    let row0 = format!(
        "| y = {} | intercept | {} | 0 (reference) |",
        classes[0],
        cell(softmax, 0)
    );
    assert!(r.md.contains(&row0), "no {row0}");
    // the figure: a panel per class, a mark per weight (15 + 10) and a legend swatch per run
    let svg = std::fs::read_to_string(r.dir.join("plots/weights.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let text = |n: &roxmltree::Node| n.text().unwrap_or("").trim().to_string();
    let texts: Vec<String> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| text(&n))
        .collect();
    for c in &classes {
        assert!(
            texts.iter().any(|t| t.starts_with(&format!("y = {c}"))),
            "no panel for class {c}"
        );
    }
    assert!(texts.iter().any(|t| t == "softmax-reference"));
    // softmax (first run with weights) in circles, the reference run in triangles
    assert_eq!(
        doc.descendants()
            .filter(|n| n.has_tag_name("circle"))
            .count(),
        15 + 1
    );
    assert_eq!(
        doc.descendants()
            .filter(|n| n.has_tag_name("polygon"))
            .count(),
        10 + 1
    );
    // report.html draws the same figure inline
    assert!(r.html.contains("id=\"weights\""));
    assert!(r.html.contains(&format!("<td>y = {}</td>", classes[0])));
}
