//! Whether a suite's cases can be evaluated as written: every case states its expected tool
//! (or `null`), has a non-empty message and an id of its own. Every problem is reported at
//! once, each with its line, case id and field.

use super::{Suite, SuiteError};

/// One case that cannot be evaluated as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseProblem {
    /// 1-based line of the case, when known.
    pub line: Option<u32>,
    /// The case id.
    pub case: String,
    /// The key at fault, as the file names it (`expectedTool` / `expected`, `input` / `prompt`,
    /// `id`).
    pub field: String,
    /// What is wrong and what to do.
    pub message: String,
}

impl Suite {
    /// Check that every case can be evaluated: `expectedTool` stated (a tool name, or `null`
    /// for must-not-call), `input` not blank, `id` not blank and not used by an earlier case.
    /// Returns one [`SuiteError::NotReady`] listing every problem, or
    /// [`SuiteError::Reference`] when the suite has no cases at all.
    pub fn validate_for_eval(&self, display: &str) -> Result<(), SuiteError> {
        if self.cases.is_empty() {
            return Err(SuiteError::Reference {
                file: display.to_owned(),
                message: format!(
                    "no cases to evaluate; write {}[] (each with id, {} and {})",
                    self.format.cases_key(),
                    self.format.input_field(),
                    self.format.expected_field()
                ),
            });
        }
        let input = self.format.input_field();
        let expected = self.format.expected_field();
        let mut problems = Vec::new();
        for (i, case) in self.cases.iter().enumerate() {
            let mut problem = |field: &str, message: String| {
                problems.push(CaseProblem {
                    line: case.line,
                    case: case.id.clone(),
                    field: field.to_owned(),
                    message,
                });
            };
            if case.id.trim().is_empty() {
                problem(
                    "id",
                    "is blank; give the case a stable, unique id".to_owned(),
                );
            } else if let Some(first) = self.cases[..i].iter().find(|c| c.id == case.id) {
                let at = first
                    .line
                    .map_or_else(String::new, |l| format!(" at line {l}"));
                problem(
                    "id",
                    format!("is also the id of the case{at}; ids must be unique"),
                );
            }
            if case.input.trim().is_empty() {
                problem(
                    input,
                    "is blank; write the user message the model should answer".to_owned(),
                );
            }
            if case.expected_tool.is_none() {
                problem(
                    expected,
                    format!(
                        "is not stated; name the tool the model should call, or write \
                         `{expected}: null` when it should call none"
                    ),
                );
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(SuiteError::NotReady {
                file: display.to_owned(),
                problems,
            })
        }
    }
}

/// The text of [`SuiteError::NotReady`]: a count, then one `file:line: case "id", field `f`:
/// message` line per problem.
pub(super) fn describe(file: &str, problems: &[CaseProblem]) -> String {
    // Problems come in case order, so one case's problems are adjacent.
    let mut cases: Vec<(Option<u32>, &str)> =
        problems.iter().map(|p| (p.line, p.case.as_str())).collect();
    cases.dedup();
    let count = match cases.len() {
        1 => "1 case".to_owned(),
        n => format!("{n} cases"),
    };
    let mut out = format!("{file}: {count} cannot be evaluated as written:");
    for p in problems {
        let at = p.line.map_or_else(String::new, |l| format!(":{l}"));
        out.push_str(&format!(
            "\n  {file}{at}: case {:?}, field `{}`: {}",
            p.case, p.field, p.message
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{Case, SuiteFormat};
    use super::*;

    fn case(id: &str, input: &str, expected: Option<Option<&str>>, line: u32) -> Case {
        Case {
            id: id.to_owned(),
            input: input.to_owned(),
            expected_tool: expected.map(|e| e.map(str::to_owned)),
            expected_args: None,
            tool_input: None,
            expect: None,
            tags: vec![],
            source: None,
            reviewed: true,
            mutated_from: None,
            mutation: None,
            line: Some(line),
        }
    }

    #[test]
    fn every_problem_is_listed_with_line_case_and_field() {
        let suite = Suite {
            name: "s".into(),
            cases: vec![
                case("a", "hello", Some(Some("t")), 3),
                case("b", "  ", None, 7),
                case("a", "again", Some(None), 11),
            ],
            ..Suite::default()
        };
        let err = suite
            .validate_for_eval("s.json")
            .expect_err("three problems");
        let SuiteError::NotReady { problems, .. } = &err else {
            panic!("{err:?}");
        };
        assert_eq!(problems.len(), 3);
        assert_eq!(
            err.to_string(),
            "s.json: 2 cases cannot be evaluated as written:\n  \
             s.json:7: case \"b\", field `input`: is blank; write the user message the model should answer\n  \
             s.json:7: case \"b\", field `expectedTool`: is not stated; name the tool the model should call, or write `expectedTool: null` when it should call none\n  \
             s.json:11: case \"a\", field `id`: is also the id of the case at line 3; ids must be unique"
        );
    }

    #[test]
    fn task_sets_are_told_in_their_own_field_names() {
        let suite = Suite {
            name: "t".into(),
            format: SuiteFormat::TaskSetYaml,
            cases: vec![case("a", "", Some(None), 2)],
            ..Suite::default()
        };
        let err = suite.validate_for_eval("t.yaml").expect_err("blank prompt");
        assert!(
            err.to_string()
                .contains("case \"a\", field `prompt`: is blank"),
            "{err}"
        );
    }

    #[test]
    fn a_suite_without_cases_is_not_ready() {
        let err = Suite::default()
            .validate_for_eval("s.json")
            .expect_err("no cases");
        assert!(
            err.to_string().starts_with("s.json: no cases to evaluate"),
            "{err}"
        );
    }

    #[test]
    fn a_ready_suite_passes() {
        let suite = Suite {
            cases: vec![
                case("a", "hi", Some(None), 1),
                case("b", "x", Some(Some("t")), 2),
            ],
            ..Suite::default()
        };
        assert!(suite.validate_for_eval("s.json").is_ok());
    }
}
