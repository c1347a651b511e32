//! The resolved experiment parses back to the same plan.

use std::path::Path;

#[test]
fn the_resolved_toml_parses_back_to_the_same_plan() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in [
        "quickstart",
        "breast_cancer",
        "spector",
        "lab_counts",
        "lab_incomes",
        "streaming",
    ] {
        let file = root.join("experiments").join(format!("{name}.toml"));
        let plan = crate::config::load(&file).unwrap();
        let text = plan.resolved_toml();
        let again = crate::config::parse(&text, &file).unwrap();
        assert_eq!(plan, again, "{name}:\n{text}");
        assert!(text.contains("calibration_bins = 10") || text.contains("calibration_bins = 20"));
        assert_eq!(
            text.contains("[[posterior]]"),
            name.starts_with("lab_"),
            "{text}"
        );
    }
}
