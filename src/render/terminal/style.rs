//! Terminal styling shared by every terminal renderer: the [`Style`] switch (colour only when the
//! caller asks: a TTY without `NO_COLOR`), bold/dim/yellow, and the padded, coloured severity
//! label.

use crate::report::lint::Severity;

/// Styling switch for terminal output.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// Emit ANSI colour codes.
    pub color: bool,
}

impl Style {
    pub(crate) fn bold(self, s: &str) -> String {
        if self.color {
            format!("\x1b[1m{s}\x1b[0m")
        } else {
            s.to_owned()
        }
    }
    pub(crate) fn dim(self, s: &str) -> String {
        if self.color {
            format!("\x1b[2m{s}\x1b[0m")
        } else {
            s.to_owned()
        }
    }
    pub(crate) fn yellow(self, s: &str) -> String {
        if self.color {
            format!("\x1b[33m{s}\x1b[0m")
        } else {
            s.to_owned()
        }
    }
}

pub(crate) fn paint(style: Style, code: &str, text: &str) -> String {
    if style.color {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_owned()
    }
}

/// The severity label padded to one width, coloured when asked: red `error`, yellow `warn`,
/// cyan `info`.
/// A severity label, padded to one width and coloured when `style.color`.
pub(crate) fn label(style: Style, severity: Severity) -> String {
    let padded = format!("{:<5}", severity.as_str());
    match severity {
        Severity::Error => paint(style, "1;31", &padded),
        Severity::Warn => paint(style, "1;33", &padded),
        Severity::Info => paint(style, "1;36", &padded),
    }
}
