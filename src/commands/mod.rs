//! One thin file per command: flags → validated config (`cli/`) → the engine → renderings
//! (`render/`) → files and stdout → the exit code. No engine logic lives here; the shared
//! helpers below are the only I/O primitives commands use.

mod ablate;
mod case;
mod check;
mod ci;
mod cluster;
mod compare;
mod coverage;
mod eval;
mod exec;
mod lint;
mod mcp;
mod merge;
mod report;
mod scan;
mod snapshot;
mod tasks;

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU8, Ordering};

use crate::cli::{Cli, ColorChoice, Command};
use crate::render::terminal::Style;
use crate::util::atomic::write_atomic;
use crate::util::untrusted;
use crate::{Error, Exit};

/// How much goes to stderr: 0 `--quiet`, 1 normal, 2 `--verbose`.
static VERBOSITY: AtomicU8 = AtomicU8::new(1);

/// Whether `--quiet` was given.
pub(crate) fn quiet() -> bool {
    VERBOSITY.load(Ordering::Relaxed) == 0
}

/// Whether `--verbose` was given.
pub(crate) fn verbose() -> bool {
    VERBOSITY.load(Ordering::Relaxed) >= 2
}

/// Run the parsed command.
pub fn dispatch(cli: Cli) -> Result<Exit, Error> {
    let level = if cli.quiet {
        0
    } else if cli.verbose {
        2
    } else {
        1
    };
    VERBOSITY.store(level, Ordering::Relaxed);
    let style = Style {
        color: use_color(cli.color),
    };
    match cli.command {
        Command::Completions(args) => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            let mut out = Vec::new();
            clap_complete::generate(args.shell, &mut cmd, "mf", &mut out);
            print(&String::from_utf8_lossy(&out))?;
            Ok(Exit::Ok)
        }
        Command::Scan(args) => scan::run(&args, style),
        Command::Lint(args) => lint::run(&args, style),
        Command::Cluster(args) => cluster::run(&args, style),
        Command::Check(args) => check::run(&args, style),
        Command::Coverage(args) => coverage::run(&args, style),
        Command::Case(args) => case::run(&args, style),
        Command::Eval(args) => eval::run(&args, style),
        Command::Ablate(args) => ablate::run(&args, style),
        Command::Cache(args) => eval::cache_cmd(&args),
        Command::Exec(args) => exec::run(&args, style),
        Command::Sandbox(args) => exec::sandbox(&args, style),
        Command::Merge(args) => merge::run(&args, style),
        Command::Compare(args) => compare::run(&args, style),
        Command::Report(args) => report::run(&args, style),
        Command::Ci(args) => ci::run(&args, style),
        Command::Snapshot(args) => snapshot::run(&args, style),
        Command::Tasks(args) => tasks::run(&args, style),
        Command::Mcp(args) => mcp::run(&args),
    }
}

fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
            // https://no-color.org wins over FORCE_COLOR / CLICOLOR_FORCE
            // (https://force-color.org, https://bixense.com/clicolors); `FORCE_COLOR=0` and
            // `CLICOLOR_FORCE=0` force nothing.
            let forced = |name: &str| std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0");
            !set("NO_COLOR")
                && (forced("FORCE_COLOR")
                    || forced("CLICOLOR_FORCE")
                    || std::io::stdout().is_terminal())
        }
    }
}

/// Write to stdout; a closed pipe (`mf … | head`) is not an error worth a message. No line of
/// it can be a workflow command ([`untrusted::log_text`]): the runner parses stdout.
pub(crate) fn print(text: &str) -> Result<(), Error> {
    write_stdout(&untrusted::log_text(text))
}

/// Write mf's own workflow commands (annotations) to stdout, as they are: the one writer that
/// may start a line with `::`. Their data was escaped by `github::annotations`.
pub(crate) fn print_workflow_commands(lines: &str) -> Result<(), Error> {
    write_stdout(lines)
}

fn write_stdout(text: &str) -> Result<(), Error> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Error::Write {
            path: "<stdout>".into(),
            source: e,
        }),
        _ => Ok(()),
    }
}

/// Write to stderr (progress notes and warnings for people), neutralised like [`print`] (the
/// runner parses stderr too). `--quiet` keeps only warnings.
pub(crate) fn note(text: &str) {
    if quiet() && !text.starts_with("warning") {
        return;
    }
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{}", untrusted::log_text(text));
}

/// Write an output file atomically (write, then rename), and say so on stderr (`wrote FILE`).
pub(crate) fn write_file(path: &Path, text: &str) -> Result<(), Error> {
    write_atomic(path, text.as_bytes()).map_err(|source| Error::Write {
        path: path.to_path_buf(),
        source,
    })?;
    note(&format!("wrote {}", path.display()));
    Ok(())
}

/// What a scan of source looks for, said when it finds nothing.
pub(crate) const LOOKED_FOR: &str = "MCP tools/list snapshots (`*.tools.json`), OpenAI/Anthropic tool JSON, `function.json`, suites, SKILL.md files, MCP client configs, and MCP servers in TypeScript/JavaScript (`server.tool`, `registerTool`, `addTool`, `setRequestHandler(ListToolsRequestSchema, …)`) and Python (`@mcp.tool`, `@server.list_tools()`)";

/// A free command's input that holds no tool and no skill: say what was looked for (and what
/// could not be read) on stderr, and exit 3 like `mf scan`, so "nothing found" is never a pass.
pub(crate) fn nothing_to_check(label: &str, surface: &crate::surface::Surface) -> Option<Exit> {
    if !surface.tools.is_empty() || !surface.skills.is_empty() {
        return None;
    }
    let what = if label.is_empty() { "the input" } else { label };
    note(&format!(
        "warning: no tool or skill found in {what}: nothing was checked. mf looked for {LOOKED_FOR}."
    ));
    note_unread(surface);
    Some(Exit::NothingFound)
}

/// Say each `server-unread` of the input on stderr (commands whose report has no findings:
/// `cluster`, `check`), so a server the scan could not read is never passed over in silence.
pub(crate) fn note_unread(surface: &crate::surface::Surface) {
    for u in &surface.unread {
        let at = u
            .line
            .map_or_else(|| u.file.clone(), |l| format!("{}:{l}", u.file));
        note(&format!(
            "warning: {at}: server-unread: {} Fix: {}",
            u.message, u.fix
        ));
    }
}
