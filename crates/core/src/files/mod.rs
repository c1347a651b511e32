//! Writing outputs so that nothing is lost: a whole directory replaced atomically (atomic.rs),
//! the rules for what `--out` may replace (guard.rs for directories, owned.rs for files), and the hidden siblings beside an output
//! with their lock and the cleanup after a killed run (siblings.rs). Below every writer: the
//! runner (a streamed run's predictions file), the reports, `compare` and `bench`.

mod atomic;
mod guard;
mod owned;
mod siblings;

pub use atomic::{write_dir, write_dir_with_files, write_file};
pub use guard::check_out;
pub use owned::{check_ancestors, check_file_out, Own};
pub use siblings::Scratch;

/// One output file: its path inside the run directory and its bytes.
#[derive(Debug, Clone)]
pub struct Artifact {
    pub name: String,
    pub bytes: Vec<u8>,
}
