//! The free surface diff between real surfaces: server-filesystem's `tools/list` against a copy
//! with one description edited and one tool removed, and a tools file at an earlier git commit
//! against the working tree.

use std::path::Path;

use mf::compare::surface_diff::diff;
use mf::report::compare::SurfaceDiff;
use mf::surface::Surface;
use mf::surface::formats::load_path;
use mf::surface::git::surface_at_ref;
use mf::surface::scan::{ScanOptions, scan};
use mf::surface::tokens::tool_tokens;

use crate::support::git::git;

const BASE: &str = "tests/fixtures/servers/filesystem.tools.json";
const HEAD: &str = "tests/fixtures/compare/filesystem.edited.tools.json";

/// The sentence the edited copy rewrites in `search_files`.
const OLD_SENTENCE: &str = "Great for finding files when you don't know their exact location.";
const NEW_SENTENCE: &str = "Use it to find files by name when you don't know their exact location; for one path's size and dates, use get_file_info instead.";

fn load(path: &str) -> Surface {
    load_path(Path::new(path), path).expect("load").surface
}

fn tokens(s: &Surface, name: &str) -> i64 {
    let t = s.tools.iter().find(|t| t.name == name).expect("tool");
    i64::try_from(tool_tokens(t).total).expect("fits")
}

#[test]
fn the_edited_copy_is_the_original_with_exactly_two_edits() {
    let original = std::fs::read_to_string(BASE).expect("base");
    let edited = std::fs::read_to_string(HEAD).expect("head");
    let start = original
        .find("    {\n      \"name\": \"read_file\",")
        .expect("read_file");
    let end = original
        .find("    {\n      \"name\": \"read_text_file\",")
        .expect("read_text_file");
    let expected = format!("{}{}", &original[..start], &original[end..]).replacen(
        OLD_SENTENCE,
        NEW_SENTENCE,
        1,
    );
    assert_eq!(original.matches(OLD_SENTENCE).count(), 1);
    assert!(
        edited == expected,
        "the copy differs in more than two edits"
    );
}

#[test]
fn filesystem_diff_lists_exactly_the_removed_and_the_redescribed_tool() {
    let base = load(BASE);
    let head = load(HEAD);
    assert_eq!(base.tools.len(), 14);
    assert_eq!(head.tools.len(), 13);
    let d = diff(&base, &head);

    assert!(d.added.is_empty(), "{:?}", d.added);
    assert!(d.reschemed.is_empty(), "{:?}", d.reschemed);
    assert_eq!(d.removed.len(), 1, "{:?}", d.removed);
    assert_eq!(d.redescribed.len(), 1, "{:?}", d.redescribed);

    let removed = &d.removed[0];
    assert_eq!(removed.name, "read_file");
    assert_eq!(
        removed.origin.as_deref(),
        Some("tests/fixtures/servers/filesystem.tools.json:3")
    );
    assert_eq!(
        removed.tokens_before.map(|n| n as i64),
        Some(tokens(&base, "read_file"))
    );
    assert_eq!(removed.tokens_after, None);

    let changed = &d.redescribed[0];
    assert_eq!(changed.name, "search_files");
    let [before, after] = changed.description.clone().expect("both descriptions");
    let (before, after) = (before.expect("old"), after.expect("new"));
    assert!(before.contains(OLD_SENTENCE) && !before.contains(NEW_SENTENCE));
    assert_eq!(before.replacen(OLD_SENTENCE, NEW_SENTENCE, 1), after);
    assert!(changed.schema_changes.is_empty());
    let origin = head
        .tools
        .iter()
        .find(|t| t.name == "search_files")
        .map(|t| t.origin.display());
    assert_eq!(changed.origin, origin);
    assert!(
        changed
            .origin
            .as_deref()
            .is_some_and(|o| o.starts_with(HEAD))
    );
    let (tb, ta) = (
        changed.tokens_before.expect("before") as i64,
        changed.tokens_after.expect("after") as i64,
    );
    assert_eq!(tb, tokens(&base, "search_files"));
    assert_eq!(ta, tokens(&head, "search_files"));
    assert!(ta > tb, "the new sentence is longer");

    // The whole delta is the removed tool plus the description change.
    assert_eq!(d.tokens.delta, -tokens(&base, "read_file") + (ta - tb));
    assert_eq!(
        d.tokens.delta,
        d.tokens.after as i64 - d.tokens.before as i64
    );

    // Nothing new is about the removed deprecated alias. (It used to have findings to resolve:
    // the old lexical pair rules flagged it against `read_text_file`; the surface pair scorer
    // does not, since its description names its replacement — a stated boundary.)
    assert!(
        d.new_findings
            .iter()
            .all(|f| f.tool.as_deref() != Some("read_file")
                && !f
                    .pair
                    .as_ref()
                    .is_some_and(|p| p.contains(&"read_file".to_owned()))),
        "{:?}",
        d.new_findings
    );
    // No tool was added, so a newly confusable pair can only be one whose score rose.
    assert!(d.newly_confusable.iter().all(|p| p.before.is_some()));
}

#[test]
fn the_diff_json_is_byte_identical_across_runs() {
    let (base, head) = (load(BASE), load(HEAD));
    let runs: Vec<String> = (0..3)
        .map(|_| serde_json::to_string_pretty(&diff(&base, &head)).expect("json"))
        .collect();
    assert!(runs.windows(2).all(|w| w[0] == w[1]));
    // Round-trips through the report type.
    let back: SurfaceDiff = serde_json::from_str(&runs[0]).expect("parse");
    assert_eq!(back, diff(&base, &head));
}

#[test]
fn a_description_edited_in_the_last_commit_is_one_redescribed_tool() {
    let repo = tempfile::tempdir().expect("tempdir");
    let dir = repo.path();
    let original = std::fs::read_to_string(BASE).expect("fixture");
    git(dir, &["init", "-q"]);
    std::fs::write(dir.join("tools.json"), &original).expect("write");
    git(dir, &["add", "tools.json"]);
    git(dir, &["commit", "-q", "-m", "tools"]);
    std::fs::write(
        dir.join("tools.json"),
        original.replacen(OLD_SENTENCE, NEW_SENTENCE, 1),
    )
    .expect("write");
    git(dir, &["commit", "-q", "-am", "reword search_files"]);

    let (base, warnings) = surface_at_ref(dir, "HEAD~1", "tools.json").expect("at HEAD~1");
    assert!(warnings.is_empty(), "{warnings:?}");
    let head = load_path(&dir.join("tools.json"), "tools.json")
        .expect("working tree")
        .surface;
    let d = diff(&base, &head);
    assert!(d.added.is_empty() && d.removed.is_empty() && d.reschemed.is_empty());
    assert_eq!(d.redescribed.len(), 1, "{:?}", d.redescribed);
    assert_eq!(d.redescribed[0].name, "search_files");
    assert!(
        d.redescribed[0]
            .origin
            .as_deref()
            .is_some_and(|o| o.starts_with("tools.json:")),
        "{:?}",
        d.redescribed[0].origin
    );
    // Origins at the revision read like the working tree's: the file did not move.
    let origins =
        |s: &Surface| -> Vec<String> { s.tools.iter().map(|t| t.origin.display()).collect() };
    assert_eq!(origins(&base), origins(&head));

    // The folder at HEAD is the working tree's scan, tool for tool.
    let (at_head, _) = surface_at_ref(dir, "HEAD", ".").expect("at HEAD");
    let now = scan(dir, &ScanOptions::default()).expect("scan");
    assert_eq!(at_head.tools, now.tools);
    assert_eq!(diff(&at_head, &head).redescribed.len(), 0);
}
