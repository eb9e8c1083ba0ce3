//! Adding cases to a suite (`mf case add`, and `add_cases` of `mf mcp`): one engine for both.
//!
//! The suite is read, its tools loaded (its `tools[]`, else its `surface`), and every new case
//! checked the way `mf eval` checks a suite before it spends anything ([`super::check_suite`]):
//! the expected tool must be one of the suite's tools and every `expectedArgs` key one of its
//! parameters (closest names suggested), `expectedArgs` must be valid assertion syntax, ids
//! unique, the input not blank. Every problem of every case is reported at once and nothing is
//! written unless all pass. Then [`crate::suite::author`] appends the cases as text (see there
//! for what is kept byte for byte), reads the result back, and writes it atomically.
//!
//! The check lives in `eval/` because it is eval's own check: a case `add` accepts is a case
//! `mf eval` will run.

use std::path::{Path, PathBuf};

use crate::report::cases_added::{AddedCase, CASES_ADDED_VERSION, CasesAdded};
use crate::suite::author::{self, AuthorError, Marking, NewCase};
use crate::suite::input::suite_surface;
use crate::suite::read::{parse_suite_text, read_suite_and_text};

/// What to add, and where.
#[derive(Debug, Clone)]
pub struct AddRequest {
    /// The suite file (JSON or YAML suite, or task set).
    pub suite: PathBuf,
    /// The cases, in order.
    pub cases: Vec<NewCase>,
    /// `source` and `reviewed` of every new case.
    pub marking: Marking,
    /// Check and show, write nothing.
    pub dry_run: bool,
}

/// Check `request.cases` against the suite's surface and append them (unless a dry run).
pub fn add_cases(request: &AddRequest) -> Result<CasesAdded, AuthorError> {
    let path: &Path = &request.suite;
    let display = path.to_string_lossy().replace('\\', "/");
    let (suite, text) = read_suite_and_text(path, &display)?;
    let invalid = |problems: Vec<String>| AuthorError::Invalid {
        file: display.clone(),
        problems,
    };
    if request.cases.is_empty() {
        return Err(invalid(vec!["no cases given; give at least one".into()]));
    }
    let (surface, _warnings, label) = suite_surface(&suite, path, &display)?;
    if surface.tools.is_empty() {
        return Err(invalid(vec![format!(
            "the suite names no tools ({label} has no tools[] and no surface with tools), so a \
             case cannot be checked; add tools[] or a `surface` path to the suite first"
        )]));
    }
    let cases = author::build(&request.cases, &request.marking);
    let mut problems = author::shape_problems(&suite, &cases);
    let offered = format!("the suite's surface ({label})");
    for (i, case) in cases.iter().enumerate() {
        let name = format!("case {} (id {:?})", i + 1, case.id);
        if let Some(args) = &case.expected_args {
            if !args.is_object() {
                problems.push(format!(
                    "{name}: expectedArgs must be an object of parameter → assertion"
                ));
                continue;
            }
            if let Err(e) = super::args::validate_expected_args(args) {
                problems.push(format!("{name}: expectedArgs: {e}"));
            }
        }
        for p in super::check_suite::case_problems(case, &surface.tools, &offered, suite.format) {
            problems.push(format!("{name}: {p}"));
        }
    }
    if !problems.is_empty() {
        return Err(invalid(problems));
    }
    let out = author::appended(&display, &text, &suite, &cases)?;
    if !request.dry_run {
        author::write(path, &display, &out)?;
    }
    // Lines of the new cases, from the text as written.
    let reread = parse_suite_text(&out, &display, &suite.name, suite.format.is_yaml())?;
    let first = reread.cases.len() - cases.len();
    let cases = reread.cases[first..]
        .iter()
        .map(|c| AddedCase {
            line: c.line,
            case: c.clone(),
        })
        .collect();
    Ok(CasesAdded {
        version: CASES_ADDED_VERSION,
        kind: "cases-added".to_owned(),
        file: display,
        written: !request.dry_run,
        checked_against_tools: surface.tools.len(),
        cases,
    })
}
