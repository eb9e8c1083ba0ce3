//! Neutralising untrusted text (tool names, descriptions, file names, server names and the error
//! messages that carry them) before it reaches a sink that something parses.
//!
//! The sink here is the CI log: the GitHub runner reads every line mf writes to stdout *and*
//! stderr and executes workflow commands in it — a line whose first non-blank characters are
//! `::` (`::error ...::`, `::add-mask::`, `::stop-commands::`, …) and the legacy form `##[cmd]`
//! anywhere in a line. It splits lines at `\n` and at a lone `\r`. So:
//!
//! - [`log_text`] is applied by the only stdout/stderr writers (`commands::print`,
//!   `commands::note`, the progress reporter, the binary's error line): on every line that
//!   starts with `::` after blanks, a zero-width joiner goes between the two colons, and every
//!   `##[` becomes `#\u{200D}#[`. A line of mf's output can therefore never be a workflow
//!   command, whatever the data held. mf's own annotations are the one exception, written with
//!   `commands::print_workflow_commands` after `github::annotations` escaped their data.
//! - [`inline`] is for one untrusted string embedded in a line: control characters (newlines,
//!   carriage returns, escape sequences), the Unicode line and paragraph separators and the
//!   bidirectional overrides are shown escaped (`\n`, `\u{1b}`), so the string cannot start a
//!   new line, move the cursor or recolour the terminal.
//!
//! Files mf writes (reports, the job summary) are not the log: their formats escape on their
//! own (JSON, XML, the Markdown renderer).

use std::borrow::Cow;
use std::fmt::Write as _;

/// Zero-width joiner: invisible, not whitespace (the runner's `TrimStart` keeps it).
const ZWJ: char = '\u{200D}';

/// `text` with no line that the runner would read as a workflow command.
pub fn log_text(text: &str) -> Cow<'_, str> {
    if !needs_guard(text) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut line_start = true;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if line_start {
            let blanks = rest.len() - rest.trim_start_matches([' ', '\t']).len();
            out.push_str(&rest[..blanks]);
            rest = &rest[blanks..];
            if rest.starts_with("::") {
                out.push(':');
                out.push(ZWJ);
                rest = &rest[1..];
            }
            line_start = false;
            continue;
        }
        if rest.starts_with("##[") {
            out.push('#');
            out.push(ZWJ);
            rest = &rest[1..];
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
        line_start = c == '\n' || c == '\r';
    }
    Cow::Owned(out)
}

fn needs_guard(text: &str) -> bool {
    text.contains("##[")
        || text
            .split(['\n', '\r'])
            .any(|line| line.trim_start_matches([' ', '\t']).starts_with("::"))
}

/// One untrusted string, safe to embed in a line of terminal or log output: control
/// characters and line separators escaped (a tab stays).
pub fn inline(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_hazard) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if is_hazard(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

fn is_hazard(c: char) -> bool {
    (c.is_control() && c != '\t')
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn starts_a_command(line: &str) -> bool {
        line.trim_start().starts_with("::") || line.contains("##[")
    }

    #[test]
    fn no_guarded_line_is_a_workflow_command() {
        let attacks = [
            "tool\n::error title=X::y",
            "::add-mask::secret",
            "  ::stop-commands::tok",
            "a\r::set-output name=x::1",
            "x ##[add-mask]secret",
            "\t::warning::w\n\n::",
        ];
        for a in attacks {
            let g = log_text(a);
            for line in g.split(['\n', '\r']) {
                assert!(!starts_a_command(line), "{a:?} → {g:?}");
            }
            // Only a zero-width joiner was added.
            assert_eq!(g.replace(ZWJ, ""), a);
        }
        assert!(matches!(
            log_text("std::fs is fine\nok: a::b"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn inline_strings_cannot_break_the_line() {
        assert_eq!(inline("a\n::error::x"), "a\\n::error::x");
        assert_eq!(inline("\u{1b}[31mred"), "\\u{1b}[31mred");
        assert_eq!(inline("x\u{2028}y\u{202E}"), "x\\u{2028}y\\u{202e}");
        assert_eq!(inline("tab\tok"), "tab\tok");
    }
}
