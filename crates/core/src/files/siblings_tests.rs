//! Tests of the hidden sibling names.

use super::*;

#[test]
fn a_sibling_names_its_output_and_process() {
    let s = sibling(Path::new("runs/exp"), "tmp");
    let name = s.file_name().unwrap().to_str().unwrap();
    assert_eq!(owner(name, "exp"), Some(std::process::id()));
    assert_eq!(owner(name, "ex"), None);
    assert_eq!(owner(".exp.tmp-12-34", "exp"), Some(12));
    assert_eq!(owner(".exp.old-12-34", "exp"), Some(12));
    assert_eq!(owner(".exp.scratch-7-1", "exp"), Some(7));
    for other in [
        ".exp.tmp-12",
        ".exp.tmp-x-1",
        ".exp.keep-12-34",
        "exp.tmp-1-2",
        ".exp.tmp--1",
    ] {
        assert_eq!(owner(other, "exp"), None, "{other}");
    }
    assert_ne!(
        sibling(Path::new("a"), "tmp"),
        sibling(Path::new("a"), "tmp")
    );
}
