//! The guard of the mapped cache file: a file cut short while mapped makes the next read of a
//! page past its new end a SIGBUS, which would kill the run without a word. So the file's
//! length is checked (`fstat`) before each block is checked and again before the fit is lent
//! it, and a pass that finds it shorter stops with an error; and for the instant between that
//! check and the read, a SIGBUS handler installed before the first mapping writes what
//! happened and ends the process with exit code 2 (the runner's scratch directory is then
//! removed by the next run, as after any kill).

use std::fs::File;

/// Whether `file` still holds at least `end` bytes.
pub(super) fn holds(file: &File, end: usize) -> bool {
    file.metadata().is_ok_and(|m| m.len() >= end as u64)
}

/// Install the SIGBUS handler once per process (Linux; elsewhere a cut file still stops the
/// pass at the length checks).
pub(super) fn install() {
    crate::unchecked::exit_on_sigbus();
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use std::path::Path;
    use std::process::Command;

    /// Set in the child process this test starts: the folder for its mapped file.
    const CHILD: &str = "BAYESLAB_TEST_SIGBUS_CHILD";

    /// A SIGBUS ends the whole process, so the test runs itself again as a child (the test
    /// binary with this one test selected), which maps a file, cuts it to nothing and reads a
    /// page past the new end; the parent checks that the child said why and exited with 2.
    #[test]
    fn a_mapped_file_cut_short_under_a_read_ends_the_run_with_its_message_and_exit_code_2() {
        if let Some(dir) = std::env::var_os(CHILD) {
            super::install();
            let path = Path::new(&dir).join("cache.bin");
            let file = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(true)
                .open(&path)
                .unwrap();
            file.set_len(1 << 16).unwrap();
            // The point of the test: the mapped file is cut while mapped.
            let map = crate::unchecked::map(&file).unwrap();
            file.set_len(0).unwrap();
            let byte = std::hint::black_box(map[1 << 15]);
            panic!("read {byte} past the end of a cut file without a SIGBUS");
        }
        let dir = tempfile::tempdir().unwrap();
        let name = module_path!().split_once("::").unwrap().1.to_string()
            + "::a_mapped_file_cut_short_under_a_read_ends_the_run_with_its_message_and_exit_code_2";
        let out = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", &name, "--test-threads=1", "--nocapture"])
            .env(CHILD, dir.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("was cut short while a pass read it"),
            "{stderr}"
        );
        assert!(!stderr.contains("without a SIGBUS"), "{stderr}");
    }
}
