//! report.md of the quickstart experiment as an insta snapshot, with the volatile parts (the
//! date, timings, machine paths and core count) redacted; and every inline SVG of report.html
//! parsed as XML.

use std::path::Path;

fn run(out: &Path) {
    let root = env!("CARGO_MANIFEST_DIR");
    let o = crate::util::cli::bin()
        .current_dir(root)
        .args(["run", "experiments/quickstart.toml", "--quiet", "--out"])
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Replace the fit-seconds and final-gradient columns of the convergence table (found by their
/// headers) and the provenance line.
fn redact(md: &str) -> String {
    let mut in_convergence = false;
    let mut volatile: Vec<usize> = Vec::new();
    md.lines()
        .map(|line| {
            if line.starts_with("## ") {
                in_convergence = line == "## Convergence";
            }
            if line.starts_with("- bayeslab ") && line.contains("created") {
                return "- bayeslab [version]; seed 42; created [date]; [cores] cores".to_string();
            }
            if in_convergence && line.starts_with("| run ") {
                volatile = line
                    .split(" | ")
                    .enumerate()
                    .filter(|(_, h)| *h == "final gradient norm" || *h == "fit seconds")
                    .map(|(i, _)| i)
                    .collect();
                assert_eq!(volatile.len(), 2, "convergence headers changed: {line}");
            } else if in_convergence && line.starts_with("| ") && !line.starts_with("|-") {
                let mut cells: Vec<&str> = line.split(" | ").collect();
                // the last Newton step leaves |g| at rounding level, which depends on the
                // CPU's SIMD width; the time depends on the machine
                for (&i, text) in volatile.iter().zip(["[rounding]", "[s]"]) {
                    cells[i] = text;
                }
                return cells.join(" | ");
            }
            line.to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn quickstart_report_md() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("qs");
    run(&out);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    insta::assert_snapshot!(redact(&md));
}

#[test]
fn every_inline_svg_is_well_formed_xml() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("qs");
    run(&out);
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    let mut n = 0;
    let mut rest = html.as_str();
    while let Some(start) = rest.find("<svg") {
        let end = rest[start..].find("</svg>").unwrap() + start + "</svg>".len();
        let doc = roxmltree::Document::parse(&rest[start..end])
            .unwrap_or_else(|e| panic!("SVG {n}: {e}"));
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        // every figure draws something: paths, polylines, rects or circles
        assert!(doc.descendants().filter(|d| d.is_element()).count() > 10);
        n += 1;
        rest = &rest[end..];
    }
    // one reliability diagram per run (its predictives overlaid), the gradient norms, the
    // objective E(w) and the weights; the pictures of the posterior: weight space, input space
    // and the two predictive formulas
    assert_eq!(n, 10);
}
