//! Markdown for GitHub: the job summary and the sticky PR comment of an `mf ci` run.
//! (Placeholder implementation; the template-based one replaces it.)

use crate::report::ci::CiReport;

/// The hidden marker that identifies mf's sticky PR comment.
pub const COMMENT_MARKER: &str = "<!-- mf:ci-comment -->";
/// `$GITHUB_STEP_SUMMARY` limit (GitHub refuses more than 1 MiB per step).
pub const SUMMARY_LIMIT: usize = 1024 * 1024;
/// PR comment limit (GitHub refuses bodies over 65,536 characters; we keep a margin).
pub const COMMENT_LIMIT: usize = 60_000;

/// The job summary, at most [`SUMMARY_LIMIT`] bytes.
pub fn summary(ci: &CiReport) -> String {
    format!("## mf: {:?}\n", ci.status)
}

/// The sticky PR comment, starting with [`COMMENT_MARKER`], at most [`COMMENT_LIMIT`] characters.
pub fn comment(ci: &CiReport) -> String {
    format!("{COMMENT_MARKER}\n## mf: {:?}\n", ci.status)
}
