//! The GitHub Actions context of a run: the event, its pull request, base and head commits,
//! whether the pull request comes from a fork, the run's URL, and where the step summary and
//! step outputs go — read once from `GITHUB_*` variables and the event payload
//! (`GITHUB_EVENT_PATH`). Everything is optional: outside Actions the context is empty.
//!
//! Events understood:
//! - `pull_request`, `pull_request_target` (and other events whose payload has a
//!   `pull_request` object): number, `base.sha`, `head.sha`; a fork when `head.repo.full_name`
//!   differs from `base.repo.full_name` (or the head repository is gone).
//! - `workflow_run` (the fork pattern: a privileged workflow reporting on an unprivileged
//!   one): `workflow_run.pull_requests[0]` for the number and base, `workflow_run.head_sha` for
//!   the head; a fork when `workflow_run.head_repository` differs from `workflow_run.repository`.
//!   GitHub leaves `pull_requests` empty for fork pull requests: pass the number yourself then.
//! - anything else (`push`, `schedule`, …): no pull request, head = `GITHUB_SHA`.

use std::path::PathBuf;

use serde_json::Value;

use crate::report::ci::CiEvent;

/// The API GitHub.com serves; `GITHUB_API_URL` overrides it (GitHub Enterprise, tests).
pub const DEFAULT_API_URL: &str = "https://api.github.com";

/// What a run knows about where it runs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Context {
    /// The event as the CI report records it.
    pub event: CiEvent,
    /// The pull request's base commit as the event names it (the base branch tip when the event
    /// fired); the merge base is computed from it.
    pub pr_base_sha: Option<String>,
    /// REST API root, without a trailing `/`.
    pub api_url: String,
    /// `$GITHUB_STEP_SUMMARY`: the job summary file (append).
    pub step_summary: Option<PathBuf>,
    /// `$GITHUB_OUTPUT`: the step outputs file (append).
    pub output: Option<PathBuf>,
    /// `GITHUB_ACTIONS=true`: annotations on stdout reach the log viewer.
    pub in_actions: bool,
    /// Problems reading the payload; the run goes on without what they would have told.
    pub warnings: Vec<String>,
    /// The event payload was read and parsed.
    pub payload_read: bool,
}

impl Context {
    /// Read the context from the process environment.
    pub fn from_env() -> Context {
        Context::from_vars(|k| std::env::var(k).ok().filter(|v| !v.is_empty()))
    }

    /// Read the context through `var` (a variable's non-empty value), reading the payload file
    /// it names.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Context {
        let mut warnings = Vec::new();
        let payload =
            var("GITHUB_EVENT_PATH").and_then(|path| match std::fs::read_to_string(&path) {
                Ok(text) => match serde_json::from_str::<Value>(&text) {
                    Ok(v) => Some(v),
                    Err(e) => {
                        warnings.push(format!(
                            "{path}: the event payload is not JSON ({e}); going on without it"
                        ));
                        None
                    }
                },
                Err(e) => {
                    warnings.push(format!(
                        "cannot read the event payload {path}: {e}; going on without it"
                    ));
                    None
                }
            });
        let payload_read = payload.is_some();
        let name = var("GITHUB_EVENT_NAME");
        let repository = var("GITHUB_REPOSITORY");
        let facts = payload
            .as_ref()
            .map(|p| read_payload(name.as_deref(), p))
            .unwrap_or_default();
        let run_url = match (var("GITHUB_SERVER_URL"), &repository, var("GITHUB_RUN_ID")) {
            (Some(server), Some(repo), Some(id)) => Some(format!(
                "{}/{repo}/actions/runs/{id}",
                server.trim_end_matches('/')
            )),
            _ => None,
        };
        Context {
            event: CiEvent {
                name,
                repository,
                pull_request: facts.number,
                base_sha: facts.base_sha.clone(),
                head_sha: facts.head_sha.or_else(|| var("GITHUB_SHA")),
                fork: facts.fork,
                run_url,
            },
            pr_base_sha: facts.base_sha,
            api_url: var("GITHUB_API_URL")
                .unwrap_or_else(|| DEFAULT_API_URL.to_owned())
                .trim_end_matches('/')
                .to_owned(),
            step_summary: var("GITHUB_STEP_SUMMARY").map(PathBuf::from),
            output: var("GITHUB_OUTPUT").map(PathBuf::from),
            in_actions: var("GITHUB_ACTIONS").as_deref() == Some("true"),
            warnings,
            payload_read,
        }
    }

    /// Why tool implementations must not run in this run (`mf exec`, `mf eval --execute`):
    /// a fork's pull request (`pull_request`, `pull_request_target`, `workflow_run` from a fork),
    /// or such an event whose payload could not be read, so mf cannot tell. `None` = allowed.
    pub fn execution_refusal(&self) -> Option<String> {
        let name = self.event.name.as_deref().unwrap_or_default();
        let pr_event = matches!(
            name,
            "pull_request" | "pull_request_target" | "workflow_run"
        );
        let why = if self.event.fork {
            "the pull request comes from a fork"
        } else if pr_event && !self.payload_read {
            "the event payload (GITHUB_EVENT_PATH) cannot be read, so mf cannot tell whether the \
             pull request comes from a fork"
        } else {
            return None;
        };
        Some(format!(
            "this is a GitHub Actions `{name}` run and {why}; mf never executes a fork's tool \
             implementations (run the free checks, or execute on your own branches)"
        ))
    }
}

/// What a payload says about the pull request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PayloadFacts {
    /// Pull request number.
    pub number: Option<u64>,
    /// Base commit named by the event.
    pub base_sha: Option<String>,
    /// Head commit named by the event.
    pub head_sha: Option<String>,
    /// The head repository is not the base repository.
    pub fork: bool,
}

/// The pull request facts of an event payload (see the module docs for the shapes read).
pub fn read_payload(event: Option<&str>, payload: &Value) -> PayloadFacts {
    let text = |v: &Value, path: &[&str]| {
        path.iter()
            .try_fold(v, |v, k| v.get(k))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    if event == Some("workflow_run")
        && let Some(run) = payload.get("workflow_run")
    {
        let pr = run
            .get("pull_requests")
            .and_then(Value::as_array)
            .and_then(|a| a.first());
        let head_repo = text(run, &["head_repository", "full_name"]);
        let repo = text(run, &["repository", "full_name"]);
        return PayloadFacts {
            number: pr.and_then(|p| p.get("number")).and_then(Value::as_u64),
            base_sha: pr.and_then(|p| text(p, &["base", "sha"])),
            head_sha: text(run, &["head_sha"])
                .or_else(|| pr.and_then(|p| text(p, &["head", "sha"]))),
            fork: matches!((&head_repo, &repo), (Some(h), Some(r)) if !h.eq_ignore_ascii_case(r)),
        };
    }
    let Some(pr) = payload.get("pull_request").filter(|p| p.is_object()) else {
        return PayloadFacts::default();
    };
    let head_repo = text(pr, &["head", "repo", "full_name"]);
    let base_repo = text(pr, &["base", "repo", "full_name"]);
    PayloadFacts {
        number: pr
            .get("number")
            .and_then(Value::as_u64)
            .or_else(|| payload.get("number").and_then(Value::as_u64)),
        base_sha: text(pr, &["base", "sha"]),
        head_sha: text(pr, &["head", "sha"]),
        // A deleted fork leaves `head.repo` null: treat it as a fork (no secrets either way).
        fork: match (&head_repo, &base_repo) {
            (Some(h), Some(b)) => !h.eq_ignore_ascii_case(b),
            (None, Some(_)) => true,
            _ => false,
        },
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn execution_is_refused_for_a_fork_and_when_the_payload_cannot_tell() {
        let dir = tempfile::tempdir().expect("tmp");
        let fork = dir.path().join("fork.json");
        std::fs::write(
            &fork,
            r#"{"pull_request": {"number": 1, "head": {"sha": "a", "repo": {"full_name": "x/fork"}},
                "base": {"sha": "b", "repo": {"full_name": "o/r"}}}}"#,
        )
        .expect("write");
        let own = dir.path().join("own.json");
        std::fs::write(
            &own,
            r#"{"pull_request": {"number": 1, "head": {"sha": "a", "repo": {"full_name": "o/r"}},
                "base": {"sha": "b", "repo": {"full_name": "o/r"}}}}"#,
        )
        .expect("write");
        let ctx = |event: &str, path: &std::path::Path| {
            let path = path.to_string_lossy().into_owned();
            let event = event.to_owned();
            super::Context::from_vars(move |k| match k {
                "GITHUB_EVENT_NAME" => Some(event.clone()),
                "GITHUB_EVENT_PATH" => Some(path.clone()),
                _ => None,
            })
        };
        assert!(ctx("pull_request", &fork).execution_refusal().is_some());
        assert!(
            ctx("pull_request_target", &fork)
                .execution_refusal()
                .is_some()
        );
        assert!(
            ctx("pull_request", &dir.path().join("missing.json"))
                .execution_refusal()
                .is_some()
        );
        assert!(ctx("pull_request", &own).execution_refusal().is_none());
        assert!(
            ctx("push", &dir.path().join("missing.json"))
                .execution_refusal()
                .is_none()
        );
        assert!(
            super::Context::from_vars(|_| None)
                .execution_refusal()
                .is_none()
        );
    }

    use std::collections::BTreeMap;

    use serde_json::json;

    use super::*;

    fn pr(head_repo: Value) -> Value {
        json!({
            "action": "synchronize",
            "number": 7,
            "pull_request": {
                "number": 7,
                "base": {"sha": "b".repeat(40), "repo": {"full_name": "acme/tools"}},
                "head": {"sha": "h".repeat(40), "repo": head_repo},
            }
        })
    }

    #[test]
    fn a_same_repository_pull_request_is_not_a_fork() {
        let f = read_payload(
            Some("pull_request"),
            &pr(json!({"full_name": "acme/tools"})),
        );
        assert_eq!(f.number, Some(7));
        assert_eq!(f.base_sha.as_deref(), Some("b".repeat(40).as_str()));
        assert_eq!(f.head_sha.as_deref(), Some("h".repeat(40).as_str()));
        assert!(!f.fork);
    }

    #[test]
    fn a_pull_request_from_another_repository_or_a_deleted_one_is_a_fork() {
        let f = read_payload(Some("pull_request"), &pr(json!({"full_name": "eve/tools"})));
        assert!(f.fork);
        let f = read_payload(Some("pull_request"), &pr(Value::Null));
        assert!(f.fork);
    }

    #[test]
    fn workflow_run_takes_the_first_pull_request_and_the_run_head() {
        let payload = json!({
            "workflow_run": {
                "head_sha": "c".repeat(40),
                "pull_requests": [{"number": 12, "base": {"sha": "a".repeat(40)}, "head": {"sha": "x"}}],
                "head_repository": {"full_name": "eve/tools"},
                "repository": {"full_name": "acme/tools"},
            }
        });
        let f = read_payload(Some("workflow_run"), &payload);
        assert_eq!(f.number, Some(12));
        assert_eq!(f.base_sha.as_deref(), Some("a".repeat(40).as_str()));
        assert_eq!(f.head_sha.as_deref(), Some("c".repeat(40).as_str()));
        assert!(f.fork);
    }

    #[test]
    fn push_has_no_pull_request() {
        let f = read_payload(Some("push"), &json!({"after": "c", "before": "b"}));
        assert_eq!(f, PayloadFacts::default());
    }

    #[test]
    fn the_context_names_the_run_and_defaults_the_api() {
        let dir = tempfile::tempdir().expect("tmp");
        let event = dir.path().join("event.json");
        std::fs::write(&event, pr(json!({"full_name": "acme/tools"})).to_string()).expect("w");
        let vars: BTreeMap<&str, String> = [
            ("GITHUB_EVENT_PATH", event.to_string_lossy().into_owned()),
            ("GITHUB_EVENT_NAME", "pull_request".to_owned()),
            ("GITHUB_REPOSITORY", "acme/tools".to_owned()),
            ("GITHUB_SERVER_URL", "https://github.com/".to_owned()),
            ("GITHUB_RUN_ID", "42".to_owned()),
            ("GITHUB_ACTIONS", "true".to_owned()),
        ]
        .into_iter()
        .collect();
        let ctx = Context::from_vars(|k| vars.get(k).cloned());
        assert_eq!(ctx.api_url, DEFAULT_API_URL);
        assert!(ctx.in_actions);
        assert_eq!(ctx.event.pull_request, Some(7));
        assert_eq!(
            ctx.event.run_url.as_deref(),
            Some("https://github.com/acme/tools/actions/runs/42")
        );
        assert!(ctx.warnings.is_empty());
    }

    #[test]
    fn an_unreadable_payload_is_a_warning_not_a_failure() {
        let ctx = Context::from_vars(|k| {
            (k == "GITHUB_EVENT_PATH").then(|| "/nonexistent/event.json".to_owned())
        });
        assert_eq!(ctx.event.pull_request, None);
        assert_eq!(ctx.warnings.len(), 1);
    }
}
