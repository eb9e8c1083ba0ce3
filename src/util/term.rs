//! The width terminal text is laid out for, the way clap and most CLIs pick it: `$COLUMNS` when
//! it holds a number, else the width of the terminal stdout is on, else [`DEFAULT_WIDTH`] (a
//! pipe or a CI log). Never under [`MIN_WIDTH`].

/// The width when stdout is not a terminal and `$COLUMNS` is unset (clap's choice too).
pub const DEFAULT_WIDTH: usize = 100;
/// Narrower than this and nothing fits; lay out for this instead.
pub const MIN_WIDTH: usize = 40;

/// The width to lay out for (see the module docs).
pub fn width() -> usize {
    let columns = std::env::var("COLUMNS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&w| w > 0);
    columns
        .or_else(tty_width)
        .unwrap_or(DEFAULT_WIDTH)
        .max(MIN_WIDTH)
}

#[cfg(unix)]
fn tty_width() -> Option<usize> {
    let stdout = std::io::stdout();
    let size = rustix::termios::tcgetwinsize(&stdout).ok()?;
    (size.ws_col > 0).then_some(usize::from(size.ws_col))
}

#[cfg(not(unix))]
fn tty_width() -> Option<usize> {
    None
}

/// `text` cut to at most `max` characters, with `…` when cut.
pub fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let cut: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{}…", cut.trim_end())
}

/// `text` wrapped at word boundaries to lines of at most `width` characters (a longer word
/// stands alone), each line after the first starting with `indent`.
pub fn wrap(text: &str, width: usize, indent: &str) -> String {
    let width = width.max(indent.chars().count() + 10);
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let room = if out.is_empty() {
            width
        } else {
            width - indent.chars().count()
        };
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > room {
            if !out.is_empty() {
                out.push('\n');
                out.push_str(indent);
            }
            out.push_str(&line);
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        if !out.is_empty() {
            out.push('\n');
            out.push_str(indent);
        }
        out.push_str(&line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_the_indent_and_the_width() {
        let text = "src/tools.ts:12 · params: order_id, customer_email, reason · 120 tokens";
        let w = wrap(text, 30, "    ");
        for (i, l) in w.lines().enumerate() {
            assert!(l.chars().count() <= 30, "{l:?}");
            if i > 0 {
                assert!(l.starts_with("    "), "{l:?}");
            }
        }
        assert_eq!(w.split_whitespace().collect::<Vec<_>>().join(" "), text);
    }

    #[test]
    fn truncate_marks_the_cut() {
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("abc", 4), "abc");
    }
}
