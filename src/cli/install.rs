//! What an installed command-line tool offers besides its commands: shell completions
//! (`bayeslab completions SHELL`), man pages (`bayeslab man`) and a `--version` that says which
//! commit was built and which vector code it carries.

use std::path::PathBuf;

use bayeslab_core::Error;

#[derive(clap::Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    shell: clap_complete::Shell,
}

#[derive(clap::Args)]
pub struct ManArgs {
    /// Write bayeslab.1 and one bayeslab-<command>.1 per command into this folder instead of
    /// printing bayeslab.1.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Print the completion script for `args.shell` on stdout.
pub fn completions(args: CompletionsArgs, mut cli: clap::Command) -> Result<i32, Error> {
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut cli, "bayeslab", &mut out);
    print_all(&out);
    Ok(0)
}

/// Print the man page, or write every page into `args.out`.
pub fn man(args: ManArgs, cli: clap::Command) -> Result<i32, Error> {
    let Some(dir) = args.out else {
        let mut out = Vec::new();
        render(&cli, &mut out);
        print_all(&out);
        return Ok(0);
    };
    let mut cli = cli;
    cli.build();
    let mut written = vec![write_page(&dir, "bayeslab", &cli)?];
    for sub in cli.get_subcommands().filter(|c| c.get_name() != "help") {
        // clap takes a command's name as a `&'static str`; a few short strings, once per process.
        let name: &'static str = format!("bayeslab-{}", sub.get_name()).leak();
        let sub = sub.clone().name(name);
        written.push(write_page(&dir, name, &sub)?);
    }
    eprintln!("wrote {} to {}/", written.join(", "), dir.display());
    Ok(0)
}

/// Write `bytes` to stdout; a reader that stops early (`| head`) is not an error.
fn print_all(bytes: &[u8]) {
    use std::io::Write;
    let _ = std::io::stdout().write_all(bytes);
}

fn render(cmd: &clap::Command, out: &mut Vec<u8>) {
    clap_mangen::Man::new(cmd.clone())
        .render(out)
        .expect("rendering into memory cannot fail");
}

fn write_page(dir: &std::path::Path, name: &str, cmd: &clap::Command) -> Result<String, Error> {
    let mut out = Vec::new();
    render(cmd, &mut out);
    let file = format!("{name}.1");
    bayeslab_core::files::write_file(&dir.join(&file), &out)?;
    Ok(file)
}

/// `bayeslab --version`: the version, the commit it was built from (build.rs; "unknown" outside
/// a git checkout) and the vector code compiled in, with the path this CPU takes.
pub fn long_version() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        format!(
            "{}\ncommit: {}\nsimd: {}\ntarget: {}",
            env!("CARGO_PKG_VERSION"),
            env!("BAYESLAB_COMMIT"),
            simd(),
            env!("BAYESLAB_TARGET"),
        )
    })
}

/// The vector kernels compiled in and the one this CPU runs.
fn simd() -> String {
    #[cfg(target_arch = "x86_64")]
    {
        let now = if std::arch::is_x86_feature_detected!("avx512f") {
            "AVX-512F"
        } else if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("fma")
        {
            "AVX2+FMA"
        } else {
            "SSE2"
        };
        format!(
            "x86_64 kernels for AVX-512F, AVX2+FMA and SSE2, chosen at run time; this CPU: {now}"
        )
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        "portable kernels only (the AVX-512F and AVX2 kernels are x86_64 code)".to_string()
    }
}
