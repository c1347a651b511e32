//! The weight-space picture's exact contours without a quadrature run, end to end
//! (experiments/pictures_gibbs.toml, five weights): from the Gibbs run's draws, and with the
//! Gibbs run removed from a slice through the mode, each named in results.json, on the figure
//! and in both reports.

use serde_json::Value;

/// Run `toml` (text) written beside nothing: its data path is made absolute.
fn run(toml: &str) -> (tempfile::TempDir, std::path::PathBuf, Value) {
    let tmp = tempfile::tempdir().unwrap();
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/datasets/penguins.csv");
    let exp = tmp.path().join("e.toml");
    std::fs::write(&exp, toml.replace("../datasets/penguins.csv", data)).unwrap();
    let out = tmp.path().join("p");
    let o = crate::util::cli::bin()
        .args(["run", "--quiet", "--out"])
        .arg(&out)
        .arg(&exp)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    (tmp, out, r)
}

fn shipped() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/experiments/pictures_gibbs.toml"
    ))
    .unwrap()
}

/// The weight-space figure's file in `out`'s plots/.
fn weight_space_svg(out: &std::path::Path) -> String {
    let dir = std::fs::read_dir(out.join("plots")).unwrap();
    let path = dir
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains("weight-space-"))
        .expect("a weight-space figure");
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn the_gibbs_draws_give_the_contours_when_there_is_no_quadrature_run() {
    let (_t, out, r) = run(&shipped());
    let e = &r["exact_contours"];
    assert_eq!(e["source"], "draws");
    assert_eq!(e["run"], "gibbs");
    // five weights: all ten pairs kept, each with its three levels from the draws, decreasing
    let pairs = e["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 10);
    for p in pairs {
        assert_eq!(p["source"], "draws");
        let l: Vec<f64> = p["levels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert!(l[0] > l[1] && l[1] > l[2] && l[2] > 0.0, "{l:?}");
        let mass = p["mass"].as_f64().unwrap();
        assert!(
            (mass - 1.0).abs() < 0.02,
            "the estimate's mass in its box: {mass}"
        );
    }
    let svg = weight_space_svg(&out);
    assert!(
        svg.contains("marginal of gibbs"),
        "the legend names the source"
    );
}

#[test]
fn without_gibbs_the_contours_are_a_slice_and_say_so_everywhere() {
    let toml = shipped();
    let cut = toml.find("[[method]]\nid = \"gibbs\"").unwrap();
    let (_t, out, r) = run(&toml[..cut]);
    let e = &r["exact_contours"];
    assert_eq!(e["source"], "slice");
    assert_eq!(e["run"], "laplace");
    // the slice goes through Laplace's mode
    let laplace = r["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == "laplace")
        .unwrap();
    assert_eq!(e["mode"], laplace["weights"]);
    let label = "slice through the mode, not a marginal";
    assert!(weight_space_svg(&out).contains(label));
    for report in ["report.html", "report.md"] {
        let text = std::fs::read_to_string(out.join(report)).unwrap();
        assert!(text.contains(label), "{report} names the slice");
    }
}
