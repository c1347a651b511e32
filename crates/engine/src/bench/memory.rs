//! Resident memory of this process from /proc/self/status (Linux). The peak (VmHWM) can be
//! reset to the current resident size by writing 5 to /proc/self/clear_refs (Linux >= 4.0), so
//! a measurement's peak excludes whatever was allocated and freed before it started.

/// A field of /proc/self/status given in kB, as bytes.
fn status_bytes(field: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kib| kib * 1024)
}

/// The peak resident set size (VmHWM) since the start or the last [`reset_peak`].
pub fn peak_bytes() -> Option<u64> {
    status_bytes("VmHWM")
}

/// The current resident set size (VmRSS).
pub fn resident_bytes() -> Option<u64> {
    status_bytes("VmRSS")
}

/// Reset VmHWM to the current resident size; false where the kernel does not allow it.
pub fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_peak_and_the_resident_size_on_linux() {
        if !std::path::Path::new("/proc/self/status").exists() {
            return;
        }
        let (rss, peak) = (resident_bytes().unwrap(), peak_bytes().unwrap());
        assert!(rss > 0 && peak >= rss, "VmRSS {rss}, VmHWM {peak}");
    }
}
