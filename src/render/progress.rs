//! Eval progress on stderr for people: a bar on a terminal, a line per 10% otherwise; silent
//! for runs with no paid model (offline answers take microseconds).

use std::io::Write;

use crate::eval::Observer;
use crate::eval::run::Progress;

/// The progress reporter of `mf eval` and `mf ci`.
#[derive(Debug)]
pub struct Reporter {
    bar: Option<indicatif::ProgressBar>,
    enabled: bool,
    total: usize,
    next_line: usize,
    /// A bar is wanted (stderr is a terminal and `--no-progress` was not given).
    tty: bool,
    /// `--quiet`: no progress and no notes, only warnings and errors.
    quiet: bool,
}

impl Reporter {
    /// A reporter; `tty` asks for a bar instead of lines.
    pub fn new(tty: bool) -> Reporter {
        Reporter {
            bar: None,
            enabled: false,
            total: 0,
            next_line: 0,
            tty,
            quiet: false,
        }
    }

    /// Under `--quiet`: no progress lines, and of the notes only warnings and errors.
    pub fn quiet(mut self, quiet: bool) -> Reporter {
        self.quiet = quiet;
        self
    }
}

impl Observer for Reporter {
    fn note(&mut self, line: &str) {
        if self.quiet && !(line.starts_with("warning") || line.starts_with("error")) {
            return;
        }
        let write = || {
            let mut err = std::io::stderr().lock();
            let _ = writeln!(err, "{}", crate::util::untrusted::log_text(line));
        };
        match &self.bar {
            Some(bar) => bar.suspend(write),
            None => write(),
        }
    }

    fn started(&mut self, total: usize, paid: bool) {
        self.total = total;
        self.enabled = paid;
        self.next_line = 0;
        self.bar = (paid && self.tty).then(|| {
            let bar = indicatif::ProgressBar::new(total as u64);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{bar:30} {pos}/{len} trials {msg} [{elapsed_precise}]",
            ) {
                bar.set_style(style);
            }
            bar
        });
    }

    fn progress(&mut self, p: Progress) {
        if !self.enabled || self.quiet {
            return;
        }
        if let Some(bar) = &self.bar {
            bar.set_position(p.done as u64);
            bar.set_message(format!("({} cached, {} errors)", p.cached, p.errors));
            return;
        }
        if p.done >= self.next_line || p.done == p.total {
            let mut err = std::io::stderr().lock();
            let _ = writeln!(
                err,
                "eval: {}/{} trials ({} cached, {} errors)",
                p.done, p.total, p.cached, p.errors
            );
            self.next_line = p.done + (self.total / 10).max(1);
        }
    }

    fn finished(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}
