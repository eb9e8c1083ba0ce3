//! The job summary: append markdown to `$GITHUB_STEP_SUMMARY`, keeping the file under GitHub's
//! per-step limit ([`SUMMARY_LIMIT`], 1 MiB). The renderer already keeps its text under the
//! limit; this checks again against what the file already holds (earlier steps of the same job
//! step may have written to it), cutting at a line end with a note rather than letting GitHub
//! drop the whole summary.

use std::io::Write;
use std::path::Path;

pub use crate::render::ci::SUMMARY_LIMIT;

/// The note that ends a cut summary.
pub const CUT_NOTE: &str = "\n\n_… cut here: GitHub keeps at most 1 MiB of job summary per step; the JSON report has everything._\n";

/// What [`append`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Appended {
    /// Everything was written.
    Whole,
    /// The text was cut to fit.
    Cut,
    /// The file was already full; nothing was written.
    Full,
}

/// `text`, cut so that it fits in `room` bytes: at the last line end that leaves space for
/// [`CUT_NOTE`], never inside a UTF-8 character. `None` when not even the note fits.
pub fn fit(text: &str, room: usize) -> Option<std::borrow::Cow<'_, str>> {
    if text.len() <= room {
        return Some(text.into());
    }
    let budget = room.checked_sub(CUT_NOTE.len())?;
    let mut end = budget.min(text.len());
    while end > 0 && !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = &text[..end];
    let head = head.rfind('\n').map_or(head, |i| &text[..i]);
    Some(format!("{head}{CUT_NOTE}").into())
}

/// Append `markdown` to the summary file at `path`, within [`SUMMARY_LIMIT`] bytes in total.
pub fn append(path: &Path, markdown: &str) -> std::io::Result<Appended> {
    append_within(path, markdown, SUMMARY_LIMIT)
}

/// [`append`] with an explicit limit (tests).
pub fn append_within(path: &Path, markdown: &str, limit: usize) -> std::io::Result<Appended> {
    let existing = match std::fs::metadata(path) {
        Ok(m) => usize::try_from(m.len()).unwrap_or(usize::MAX),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
        Err(e) => return Err(e),
    };
    // A separating blank line when the file already holds another step's text.
    let separator = if existing > 0 { "\n" } else { "" };
    let room = limit.saturating_sub(existing + separator.len());
    let Some(text) = fit(markdown, room) else {
        return Ok(Appended::Full);
    };
    let outcome = if text.len() == markdown.len() {
        Appended::Whole
    } else {
        Appended::Cut
    };
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    file.write_all(separator.as_bytes())?;
    file.write_all(text.as_bytes())?;
    file.flush()?;
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_that_fits_is_kept_whole() {
        assert_eq!(fit("a\nb\n", 10).as_deref(), Some("a\nb\n"));
    }

    #[test]
    fn a_long_text_is_cut_at_a_line_end_with_the_note_and_within_the_room() {
        let text = "line one\n".repeat(100) + &"é".repeat(500);
        let room = CUT_NOTE.len() + 95;
        let cut = fit(&text, room).expect("room for the note");
        assert!(cut.len() <= room, "{} > {room}", cut.len());
        assert!(cut.ends_with(CUT_NOTE));
        assert!(cut.starts_with("line one\n"));
        assert!(fit(&text, CUT_NOTE.len() - 1).is_none());
    }

    #[test]
    fn appending_respects_what_the_file_already_holds() {
        let dir = tempfile::tempdir().expect("tmp");
        let path = dir.path().join("summary.md");
        std::fs::write(&path, "x".repeat(900)).expect("w");
        let text = "row\n".repeat(100);
        let limit = 900 + CUT_NOTE.len() + 50;
        assert_eq!(
            append_within(&path, &text, limit).expect("append"),
            Appended::Cut
        );
        let len = std::fs::metadata(&path).expect("meta").len() as usize;
        assert!(len <= limit, "{len} > {limit}");
        assert_eq!(
            append_within(&path, &text, len).expect("append"),
            Appended::Full
        );
        let fresh = dir.path().join("new.md");
        assert_eq!(
            append_within(&fresh, "ok\n", 100).expect("append"),
            Appended::Whole
        );
        assert_eq!(std::fs::read_to_string(&fresh).expect("r"), "ok\n");
    }
}
