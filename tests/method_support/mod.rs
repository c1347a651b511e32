//! What the method tests share: an experiment parsed from text as if it sat in experiments/.

use std::path::Path;

pub fn plan(text: &str) -> bayeslab::config::Plan {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/_test.toml");
    bayeslab::config::parse(text, &file).unwrap()
}
