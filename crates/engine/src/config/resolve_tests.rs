//! The resolved experiment parses back to the same plan.

use std::path::Path;

#[test]
fn the_resolved_toml_parses_back_to_the_same_plan() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
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

#[test]
fn the_encoding_keys_resolve_and_parse_back() {
    let file =
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("experiments/encoded.toml");
    let text = "[data]\npath = \"../datasets/penguins.csv\"\ntarget = \"sex\"\npositive = \"male\"\n\
        features = [\"species\", \"year\", \"delta_15n\"]\ncategorical = [\"year\"]\n\
        reference = { species = \"Gentoo\", year = 2008 }\nmax_levels = 9\nunseen_levels = \"zero\"\n\
        missing = \"median\"\nmissing_indicator = true\nstandardise_indicators = true\n\
        [[method]]\nkind = \"logistic-map\"\n";
    let plan = crate::config::parse(text, &file).unwrap();
    let e = &plan.data.as_ref().unwrap().encoding;
    assert_eq!(e.reference.get("year").map(String::as_str), Some("2008"));
    assert_eq!((e.max_levels, e.unseen), (9, crate::config::Unseen::Zero));
    let resolved = plan.resolved_toml();
    assert!(resolved.contains("missing = \"median\""), "{resolved}");
    assert_eq!(
        crate::config::parse(&resolved, &file).unwrap(),
        plan,
        "{resolved}"
    );
}
