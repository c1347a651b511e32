//! What a comparison may conclude: ECE only on the same bins (identical predictions scored
//! with different `calibration_bins` never differ), and no verdict from too few resamples.

use serde_json::Value;

use super::{bin, fake_run, refused, GOOD};

/// 200 binary predictions with their labels, deterministic.
fn many_rows() -> String {
    let mut s = String::from("row,y,m/plugin\n");
    for i in 0..200 {
        let p = 0.05 + 0.9 * ((i * 37 % 200) as f64 / 200.0);
        let y = u8::from((i * 53 % 100) as f64 / 100.0 < p);
        s.push_str(&format!("{i},{y},{p:.4}\n"));
    }
    s
}

#[test]
fn identical_predictions_never_differ_in_ece_whatever_bins_each_run_used() {
    let rows = many_rows();
    for (bins, binning) in [
        ("3", "equal-width"),
        ("20", "equal-width"),
        ("10", "equal-mass"),
        ("57", "equal-mass"),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let a = fake_run(&tmp.path().join("a"), "10", &rows);
        let b = fake_run(&tmp.path().join("b"), bins, &rows);
        let json = std::fs::read_to_string(b.join("results.json")).unwrap();
        std::fs::write(b.join("results.json"), json.replace("equal-width", binning)).unwrap();
        let o = bin().arg("compare").arg(&a).arg(&b).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let out: Value =
            serde_json::from_str(&std::fs::read_to_string(b.join("comparison.json")).unwrap())
                .unwrap();
        for r in out.as_array().unwrap() {
            assert_eq!(r["diff"].as_f64(), Some(0.0), "{bins} {binning}: {r}");
            assert_eq!(r["verdict"], "within-noise", "{bins} {binning}: {r}");
            if r["metric"] == "ece" {
                let note = r["note"].as_str().unwrap_or_default();
                assert!(
                    note.contains("rescored on A's 10 equal-width bins")
                        && note.contains(&format!("used {bins} {binning}")),
                    "{note}"
                );
            } else {
                assert!(r.get("note").is_none(), "{r}");
            }
        }
        let md = std::fs::read_to_string(b.join("comparison.md")).unwrap();
        assert!(
            md.contains("| note |") && md.contains("rescored on A's"),
            "{md}"
        );
    }
}

#[test]
fn too_few_resamples_for_a_verdict_are_refused() {
    for v in ["1", "2", "50", "99"] {
        let e = refused(GOOD, "10", &["--resamples", v]);
        assert!(e.contains("--resamples") && e.contains("too few"), "{e}");
        assert!(e.contains("at least 100"), "{e}");
    }
    // the smallest count allowed gives a verdict
    let tmp = tempfile::tempdir().unwrap();
    let a = fake_run(&tmp.path().join("a"), "10", GOOD);
    let b = fake_run(&tmp.path().join("b"), "10", GOOD);
    let o = bin()
        .arg("compare")
        .arg(&a)
        .arg(&b)
        .args(["--resamples", "100"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}
