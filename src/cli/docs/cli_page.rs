//! cli.md: every command's full help, as `bayeslab <command> --help` prints it.

use super::header;

pub fn page(cli: &clap::Command) -> String {
    let mut cli = cli.clone().term_width(100);
    cli.build();
    let mut s = header("Command line", "the clap definitions in src/cli/");
    s.push_str(
        "Every command's `--help`, in full. The exit codes, the `--out` rules and what each \
         command writes are explained in [The command line](../cli.md).\n",
    );
    section(&mut s, "bayeslab", &mut cli);
    let names: Vec<String> = cli
        .get_subcommands()
        .filter(|c| !c.is_hide_set() && c.get_name() != "help")
        .map(|c| c.get_name().to_string())
        .collect();
    for name in names {
        let sub = cli.find_subcommand_mut(&name).expect("a listed subcommand");
        section(&mut s, &format!("bayeslab {name}"), sub);
    }
    s
}

fn section(s: &mut String, title: &str, cmd: &mut clap::Command) {
    let help = cmd.render_long_help().to_string();
    let help: Vec<&str> = help.lines().map(str::trim_end).collect();
    s.push_str(&format!(
        "\n## `{title}`\n\n```text\n{}\n```\n",
        help.join("\n").trim_end()
    ));
}
