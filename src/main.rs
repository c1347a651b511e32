mod cli;

fn main() {
    // A reader that stops early (`bayeslab man | head`) ends the process quietly, as it ends
    // `cat`: Rust ignores SIGPIPE, so the next print would otherwise panic on the closed pipe.
    #[cfg(unix)]
    // SAFETY: called before any thread starts; SIG_DFL is a valid disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    std::process::exit(cli::main());
}
