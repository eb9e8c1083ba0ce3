//! `mf ci` end to end, as the GitHub Action runs it: a real git repository with a base and a
//! head commit, the `GITHUB_*` variables pointing at files in a temporary folder, and a local
//! server (wiremock) playing the GitHub REST API for the sticky comment.
//!
//! Pinned: the first run creates exactly one comment and a second run edits that same comment
//! in place; the job summary, step outputs, annotations and reports are written; the exit code
//! follows the gates (a lint error, a planted regression under `--fail-on-regression`); the
//! offline eval runs head and base and reuses the stored base scorecard; a fork pull request is
//! free-only and a read-only token (403) is a logged skip, not a failure; the token never
//! appears in any output.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};
use wiremock::matchers::{method, path, query_param, query_param_is_missing};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

use crate::support::git::git;
use crate::support::{
    fixture_json, fixture_text, github_outputs, machine_ci_vars, read_json, show, write_json,
};

/// A planted, fake token: it must reach the API in the Authorization header and nowhere else.
const FAKE_TOKEN: &str = "ghs_mfTESTtokenNEVERprintED0123456789abcd";
const MARKER: &str = "<!-- mf:ci-comment -->";
const COMMENTS: &str = "/repos/acme/tools/issues/7/comments";

/// A repository with a base commit (the fixture surface and suite) and a head commit made by
/// `edit`, plus a folder for the GitHub files and a cache folder, all in one temporary folder.
struct Repo {
    _root: tempfile::TempDir,
    repo: PathBuf,
    gh: PathBuf,
    cache: PathBuf,
    script: PathBuf,
    base_sha: String,
    head_sha: String,
}

impl Repo {
    fn new(edit: impl FnOnce(&Path)) -> Repo {
        Repo::with_base(|_| {}, edit)
    }

    /// [`Repo::new`] with `base` applied to the fixture before the base commit.
    fn with_base(base: impl FnOnce(&Path), edit: impl FnOnce(&Path)) -> Repo {
        let root = tempfile::tempdir().expect("tmp");
        let repo = root.path().join("repo");
        let gh = root.path().join("gh");
        let cache = root.path().join("cache");
        for d in [&repo, &gh, &cache] {
            std::fs::create_dir_all(d).expect("mkdir");
        }
        let script = root.path().join("script.json");
        std::fs::write(&script, fixture_text("ci/script.json")).expect("script");
        git(&repo, &["init", "-q", "-b", "main"]);
        std::fs::write(repo.join("tools.json"), fixture_text("ci/tools.json")).expect("tools");
        std::fs::write(repo.join("mf.suite.json"), fixture_text("ci/mf.suite.json"))
            .expect("suite");
        base(&repo);
        git(&repo, &["add", "-A"]);
        git(&repo, &["commit", "-q", "-m", "base"]);
        let base_sha = git(&repo, &["rev-parse", "HEAD"]);
        edit(&repo);
        git(&repo, &["add", "-A"]);
        git(&repo, &["commit", "-q", "--allow-empty", "-m", "head"]);
        let head_sha = git(&repo, &["rev-parse", "HEAD"]);
        Repo {
            _root: root,
            repo,
            gh,
            cache,
            script,
            base_sha,
            head_sha,
        }
    }

    /// A second push to the pull request: `edit` on top of head, committed.
    fn push(&mut self, edit: impl FnOnce(&Path)) {
        edit(&self.repo);
        git(&self.repo, &["add", "-A"]);
        git(&self.repo, &["commit", "-q", "-m", "push"]);
        self.head_sha = git(&self.repo, &["rev-parse", "HEAD"]);
    }

    /// The `pull_request` payload of PR #7, from `eve/tools` when `fork`.
    fn pull_request_event(&self, fork: bool) -> PathBuf {
        let (owner, repo) = if fork {
            ("eve", "eve/tools")
        } else {
            ("acme", "acme/tools")
        };
        let text = fixture_text("ci/event.pull_request.json")
            .replace("@@BASE_SHA@@", &self.base_sha)
            .replace("@@HEAD_SHA@@", &self.head_sha)
            .replace("@@HEAD_OWNER@@", owner)
            .replace("@@HEAD_REPO@@", repo)
            .replace("@@AUTHOR@@", owner)
            .replace("@@IS_FORK@@", if fork { "true" } else { "false" });
        let path = self.gh.join("event.json");
        std::fs::write(&path, text).expect("event");
        path
    }

    fn summary(&self) -> PathBuf {
        self.gh.join("step_summary.md")
    }

    fn output(&self) -> PathBuf {
        self.gh.join("github_output.txt")
    }

    /// `mf ci ARGS` in the repository, as a GitHub Actions step of `event_name` would run it.
    async fn ci(&self, api: &str, event_name: &str, event: &Path, args: &[&str]) -> Output {
        let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("mf"));
        cmd.current_dir(&self.repo).arg("ci").args(args);
        // Nothing from the machine running the tests may leak in: no real GitHub context, no
        // provider key, no mf settings.
        for k in machine_ci_vars() {
            cmd.env_remove(k);
        }
        cmd.env("GITHUB_ACTIONS", "true")
            .env("GITHUB_EVENT_NAME", event_name)
            .env("GITHUB_EVENT_PATH", event)
            .env("GITHUB_REPOSITORY", "acme/tools")
            .env("GITHUB_API_URL", api)
            .env("GITHUB_SERVER_URL", "https://github.com")
            .env("GITHUB_RUN_ID", "4242")
            .env("GITHUB_SHA", &self.head_sha)
            .env("GITHUB_STEP_SUMMARY", self.summary())
            .env("GITHUB_OUTPUT", self.output())
            .env("GITHUB_TOKEN", FAKE_TOKEN)
            .env("RUNNER_TEMP", &self.gh)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("NO_COLOR", "1");
        tokio::task::spawn_blocking(move || cmd.output().expect("mf runs"))
            .await
            .expect("join")
    }

    /// Every file mf may have written, for the token check.
    fn written_files(&self) -> Vec<PathBuf> {
        let mut out = Vec::new();
        let mut stack = vec![self.gh.clone(), self.cache.clone(), self.repo.clone()];
        while let Some(dir) = stack.pop() {
            for e in std::fs::read_dir(&dir).expect("read dir").flatten() {
                let p = e.path();
                if p.file_name().is_some_and(|n| n == ".git") {
                    continue;
                }
                if p.is_dir() {
                    stack.push(p);
                } else {
                    out.push(p);
                }
            }
        }
        out
    }
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The token never appears in stdout, stderr or any file mf wrote.
fn assert_no_token(repo: &Repo, out: &Output) {
    assert!(!show(out).contains(FAKE_TOKEN), "token in the output");
    for f in repo.written_files() {
        let bytes = std::fs::read(&f).expect("read");
        assert!(
            !String::from_utf8_lossy(&bytes).contains(FAKE_TOKEN),
            "token in {}",
            f.display()
        );
    }
}

/// The step outputs mf wrote.
fn outputs(path: &Path) -> BTreeMap<String, String> {
    github_outputs(&std::fs::read_to_string(path).expect("GITHUB_OUTPUT written"))
}

fn report(path: &str) -> Value {
    read_json(path)
}

/// An issue comment as the GitHub API returns it.
fn comment(api: &str, id: u64, login: &str, body: &str) -> Value {
    let text = fixture_text("ci/comment.json")
        .replace("@@API@@", api)
        .replace("@@ID@@", &id.to_string())
        .replace("@@LOGIN@@", login);
    let mut v: Value = serde_json::from_str(&text).expect("comment fixture");
    v["id"] = json!(id);
    v["body"] = json!(body);
    v
}

fn page_link(api: &str, page: u32, rel: &str) -> String {
    format!("<{api}{COMMENTS}?per_page=100&page={page}>; rel=\"{rel}\"")
}

/// Two pages of comments: page 1 holds someone's review note (and links page 2), page 2 holds
/// `page2` (a comment quoting the marker mid-text is not ours).
async fn mount_comment_pages(server: &MockServer, page2: Vec<Value>) {
    let api = server.uri();
    Mock::given(method("GET"))
        .and(path(COMMENTS))
        .and(query_param_is_missing("page"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!([comment(&api, 11, "alice", "Looks good to me.")]))
                .insert_header(
                    "link",
                    format!(
                        "{}, {}",
                        page_link(&api, 2, "next"),
                        page_link(&api, 2, "last")
                    )
                    .as_str(),
                ),
        )
        .mount(server)
        .await;
    let mut items = vec![comment(
        &api,
        12,
        "bob",
        &format!("The bot writes {MARKER} at the top of its comment."),
    )];
    items.extend(page2);
    Mock::given(method("GET"))
        .and(path(COMMENTS))
        .and(query_param("page", "2"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(Value::Array(items))
                .insert_header(
                    "link",
                    format!(
                        "{}, {}",
                        page_link(&api, 1, "prev"),
                        page_link(&api, 1, "first")
                    )
                    .as_str(),
                ),
        )
        .mount(server)
        .await;
}

async fn requests(server: &MockServer) -> Vec<Request> {
    server.received_requests().await.expect("recording on")
}

fn count(reqs: &[Request], verb: &str) -> usize {
    reqs.iter().filter(|r| r.method.as_str() == verb).count()
}

fn sent_body(r: &Request) -> String {
    let v: Value = serde_json::from_slice(&r.body).expect("JSON body");
    v["body"].as_str().expect("body field").to_owned()
}

/// Head: `get_invoice` now claims to be read-only *and* destructive (a lint error), and a new
/// tool `cancel_order` is added.
fn head_with_lint_error(repo: &Path) {
    let mut tools = fixture_json("ci/tools.json");
    let list = tools["tools"].as_array_mut().expect("tools");
    for t in list.iter_mut() {
        if t["name"] == "get_invoice" {
            t["annotations"]["destructiveHint"] = json!(true);
        }
    }
    list.push(json!({
        "name": "cancel_order",
        "description": "Cancel an order that has not shipped yet. Not for refunds of delivered orders: use issue_refund.",
        "inputSchema": {
            "type": "object",
            "properties": {"order_id": {"type": "string", "description": "The order to cancel."}},
            "required": ["order_id"]
        },
        "annotations": {"readOnlyHint": false, "destructiveHint": true, "idempotentHint": true, "openWorldHint": true}
    }));
    write_json(&repo.join("tools.json"), &tools);
}

/// Head: `issue_refund` renamed to `refund_payment` (and the suite follows). The scripted
/// model keeps answering `issue_refund`, a name head no longer serves: every refund case
/// regresses.
fn head_with_renamed_refund_tool(repo: &Path) {
    let mut tools = fixture_json("ci/tools.json");
    for t in tools["tools"].as_array_mut().expect("tools") {
        if t["name"] == "issue_refund" {
            t["name"] = json!("refund_payment");
        }
    }
    write_json(&repo.join("tools.json"), &tools);
    let mut suite = fixture_json("ci/mf.suite.json");
    for c in suite["cases"].as_array_mut().expect("cases") {
        if c["expectedTool"] == "issue_refund" {
            c["expectedTool"] = json!("refund_payment");
        }
    }
    write_json(&repo.join("mf.suite.json"), &suite);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pull_request_gets_one_sticky_comment_created_then_edited_in_place() {
    let repo = Repo::new(head_with_lint_error);
    let event = repo.pull_request_event(false);
    let server = MockServer::start().await;
    let api = server.uri();

    // Run 1: no comment of ours on either page → exactly one POST.
    mount_comment_pages(&server, Vec::new()).await;
    Mock::given(method("POST"))
        .and(path(COMMENTS))
        .respond_with(ResponseTemplate::new(201).set_body_json(comment(
            &api,
            1001,
            "github-actions[bot]",
            MARKER,
        )))
        .mount(&server)
        .await;
    let sarif = repo.gh.join("out/mf.sarif");
    let html = repo.gh.join("out/mf.html");
    let badge = repo.gh.join("out/badge.json");
    let out = repo
        .ci(
            &api,
            "pull_request",
            &event,
            &[
                "--sarif",
                sarif.to_str().expect("utf-8"),
                "--html",
                html.to_str().expect("utf-8"),
                "--badge",
                badge.to_str().expect("utf-8"),
            ],
        )
        .await;
    // The lint error fails the default `--fail-on error` gate.
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let reqs = requests(&server).await;
    assert_eq!(count(&reqs, "GET"), 2, "both comment pages are read");
    assert_eq!(count(&reqs, "POST"), 1, "one comment is created");
    assert_eq!(count(&reqs, "PATCH"), 0);
    let post = reqs
        .iter()
        .find(|r| r.method.as_str() == "POST")
        .expect("POST");
    assert!(sent_body(post).starts_with(MARKER), "{}", sent_body(post));
    for r in &reqs {
        let auth = r
            .headers
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        assert_eq!(auth, format!("Bearer {FAKE_TOKEN}"));
    }

    // The job summary, the outputs, the annotations and the reports.
    let summary = std::fs::read_to_string(repo.summary()).expect("summary written");
    assert!(!summary.trim().is_empty());
    assert!(summary.len() <= 1024 * 1024);
    let o = outputs(&repo.output());
    for key in [
        "status",
        "mode",
        "free-reason",
        "reasons",
        "verdict",
        "accuracy",
        "p-value",
        "lint-errors",
        "lint-warnings",
        "report-json",
        "sarif",
        "html",
        "badge",
        "comment-url",
    ] {
        assert!(o.contains_key(key), "output {key} missing: {o:?}");
    }
    assert_eq!(o["status"], "fail");
    assert_eq!(o["mode"], "free");
    assert!(
        o["free-reason"].starts_with("no models"),
        "{}",
        o["free-reason"]
    );
    assert_eq!(o["lint-errors"], "1");
    assert_eq!(o["verdict"], "");
    assert_eq!(o["accuracy"], "");
    assert!(
        o["reasons"].contains("lint: 1 new finding at error"),
        "{}",
        o["reasons"]
    );
    assert_eq!(
        o["comment-url"],
        "https://github.com/acme/tools/pull/7#issuecomment-1001"
    );
    // Without --json-out the report goes to $RUNNER_TEMP.
    assert_eq!(
        o["report-json"],
        repo.gh.join("mf-ci.json").to_string_lossy()
    );
    for file in [&sarif, &html, &badge] {
        assert!(file.is_file(), "{} written", file.display());
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let annotation = stdout
        .lines()
        .find(|l| l.starts_with("::error ") && l.contains("title=mf annotations-conflicting"))
        .unwrap_or_else(|| panic!("no annotation for the lint error:\n{stdout}"));
    assert!(
        annotation.starts_with("::error file=tools.json,line="),
        "{annotation}"
    );

    let ci = report(&o["report-json"]);
    assert_eq!(ci["kind"], "ci");
    assert_eq!(ci["status"], "fail");
    assert_eq!(ci["mode"], "free");
    assert_eq!(ci["event"]["pullRequest"], 7);
    assert_eq!(ci["event"]["baseSha"], repo.base_sha.as_str());
    assert_eq!(ci["event"]["headSha"], repo.head_sha.as_str());
    assert_eq!(
        ci["event"]["runUrl"],
        "https://github.com/acme/tools/actions/runs/4242"
    );
    let added: Vec<&str> = ci["surface"]["added"]
        .as_array()
        .expect("surface diff")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(added, ["cancel_order"]);
    assert!(ci.get("head").is_none() && ci.get("compare").is_none());
    assert_no_token(&repo, &out);

    // Run 2: page 2 now holds our comment → one PATCH of that id, no POST.
    server.reset().await;
    mount_comment_pages(
        &server,
        vec![comment(
            &api,
            1001,
            "github-actions[bot]",
            &format!("{MARKER}\n## mf: an older report"),
        )],
    )
    .await;
    Mock::given(method("PATCH"))
        .and(path("/repos/acme/tools/issues/comments/1001"))
        .respond_with(ResponseTemplate::new(200).set_body_json(comment(
            &api,
            1001,
            "github-actions[bot]",
            MARKER,
        )))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(201).set_body_json(comment(&api, 9999, "x", MARKER)))
        .mount(&server)
        .await;
    let out = repo.ci(&api, "pull_request", &event, &[]).await;
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let reqs = requests(&server).await;
    assert_eq!(count(&reqs, "POST"), 0, "never a second comment");
    assert_eq!(count(&reqs, "PATCH"), 1);
    let patch = reqs
        .iter()
        .find(|r| r.method.as_str() == "PATCH")
        .expect("PATCH");
    assert_eq!(patch.url.path(), "/repos/acme/tools/issues/comments/1001");
    assert!(sent_body(patch).starts_with(MARKER));
    assert!(
        stderr(&out).contains("updated the PR comment 1001"),
        "{}",
        show(&out)
    );
    // Both runs appended to the same summary file.
    let summary_after = std::fs::read_to_string(repo.summary()).expect("summary");
    assert!(summary_after.len() > summary.len());
    assert_no_token(&repo, &out);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_offline_eval_compares_head_with_base_and_a_planted_regression_fails_the_gate() {
    let repo = Repo::new(head_with_renamed_refund_tool);
    let event = repo.pull_request_event(false);
    let server = MockServer::start().await;
    let api = server.uri();
    let models = format!("scripted:{}", repo.script.display());
    let json_out = repo.gh.join("reports/mf-ci.json");
    let junit = repo.gh.join("reports/mf.junit.xml");
    let args = |extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = [
            "--models",
            models.as_str(),
            "--cache-dir",
            repo.cache.to_str().expect("utf-8"),
            "--json-out",
            json_out.to_str().expect("utf-8"),
            "--junit",
            junit.to_str().expect("utf-8"),
            "--comment",
            "off",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        v.extend(extra.iter().map(|s| (*s).to_owned()));
        v
    };
    let run = |extra: &'static [&'static str]| {
        let a = args(extra);
        let api = api.clone();
        let event = event.clone();
        let repo = &repo;
        async move {
            let refs: Vec<&str> = a.iter().map(String::as_str).collect();
            repo.ci(&api, "pull_request", &event, &refs).await
        }
    };

    let out = run(&["--fail-on-regression"]).await;
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let o = outputs(&repo.output());
    assert_eq!(o["status"], "fail");
    assert_eq!(o["mode"], "full");
    assert_eq!(o["verdict"], "regressed");
    assert_eq!(
        o["accuracy"], "0.5000",
        "10 of 20 cases now call a name head does not serve"
    );
    let p: f64 = o["p-value"].parse().expect("p-value is a number");
    assert!(p < 0.01, "10 of 10 discordant cases regressed: p = {p}");
    assert_eq!(o["base-reused"], "false");
    assert!(
        o["reasons"].contains("regression: selection-accuracy"),
        "{}",
        o["reasons"]
    );
    assert_eq!(o["junit"], junit.to_string_lossy());
    let xml = std::fs::read_to_string(&junit).expect("JUnit written");
    assert!(xml.contains("<testsuites"), "{xml}");
    let ci = report(&o["report-json"]);
    assert_eq!(ci["base"]["status"], "pass");
    assert_eq!(ci["head"]["status"], "pass");
    assert_eq!(ci["compare"]["verdict"], "regressed");
    assert!(ci.get("baseReused").is_none());
    assert_eq!(
        ci["head"]["models"][0]["metrics"]["selectionAccuracy"]["value"],
        json!(0.5)
    );
    assert_eq!(
        ci["base"]["models"][0]["metrics"]["selectionAccuracy"]["value"],
        json!(1.0)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("::error ")
                && l.contains("title=mf%3A selection-accuracy regressed")),
        "{stdout}"
    );

    // The base scorecard is stored: the next run against the same base reuses it.
    let out = run(&["--fail-on-regression"]).await;
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let ci = report(json_out.to_str().expect("utf-8"));
    assert_eq!(ci["baseReused"], true);
    assert_eq!(ci["compare"]["verdict"], "regressed");
    assert_eq!(outputs(&repo.output())["base-reused"], "true");

    // Without --fail-on-regression the regression is reported, not gated.
    let out = run(&[]).await;
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let o = outputs(&repo.output());
    assert_eq!(o["status"], "pass");
    assert_eq!(o["verdict"], "regressed");

    // A min-accuracy the head misses fails the gate.
    let out = run(&["--min-accuracy", "0.9"]).await;
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    assert!(
        outputs(&repo.output())["reasons"].contains("min-accuracy"),
        "{}",
        show(&out)
    );
    assert!(
        requests(&server).await.is_empty(),
        "--comment off calls nothing"
    );
    assert_no_token(&repo, &out);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fork_pull_request_is_free_and_a_read_only_token_is_a_logged_skip() {
    let repo =
        Repo::new(|r| std::fs::write(r.join("README.md"), "a fork's change\n").expect("write"));
    let event = repo.pull_request_event(true);
    let server = MockServer::start().await;
    let api = server.uri();
    Mock::given(wiremock::matchers::any())
        .respond_with(ResponseTemplate::new(403).set_body_json(json!({
            "message": "Resource not accessible by integration",
            "documentation_url": "https://docs.github.com/rest/issues/comments#create-an-issue-comment",
            "status": "403"
        })))
        .mount(&server)
        .await;
    let models = format!("scripted:{}", repo.script.display());

    // `--comment on`: mf tries, GitHub says 403, mf says why in one line and goes on.
    let out = repo
        .ci(
            &api,
            "pull_request",
            &event,
            &[
                "--models",
                &models,
                "--comment",
                "on",
                "--fail-on-regression",
            ],
        )
        .await;
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let lines: Vec<String> = stderr(&out)
        .lines()
        .filter(|l| l.contains("skipping the PR comment"))
        .map(str::to_owned)
        .collect();
    assert_eq!(
        lines,
        [
            "note: skipping the PR comment: the token cannot write to acme/tools#7 (HTTP 403); \
          fork pull requests get a read-only token"
        ],
        "{}",
        show(&out)
    );
    let reqs = requests(&server).await;
    assert_eq!(count(&reqs, "POST") + count(&reqs, "PATCH"), 0);
    let o = outputs(&repo.output());
    assert_eq!(o["status"], "pass");
    assert_eq!(o["mode"], "free");
    assert!(
        o["free-reason"].starts_with("fork pull request"),
        "{}",
        o["free-reason"]
    );
    assert_eq!(o["accuracy"], "");
    let ci = report(&o["report-json"]);
    assert_eq!(ci["event"]["fork"], true);
    assert!(ci.get("head").is_none(), "no model is called for a fork");
    assert!(
        ci["surface"].is_object(),
        "the free surface diff still runs"
    );
    assert!(std::fs::read_to_string(repo.summary()).is_ok_and(|s| !s.is_empty()));
    assert_no_token(&repo, &out);

    // `--comment auto` (the default) does not even try on a fork's pull_request run.
    server.reset().await;
    let out = repo
        .ci(&api, "pull_request", &event, &["--models", &models])
        .await;
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    assert!(requests(&server).await.is_empty());
    assert!(
        stderr(&out).contains("skipping the PR comment: acme/tools#7 comes from a fork"),
        "{}",
        show(&out)
    );
    assert_no_token(&repo, &out);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_push_has_no_base_and_no_comment() {
    let repo = Repo::new(|_| {});
    let event = repo.gh.join("push.json");
    write_json(
        &event,
        &json!({"ref": "refs/heads/main", "before": repo.base_sha, "after": repo.head_sha,
                "repository": {"full_name": "acme/tools"}}),
    );
    let server = MockServer::start().await;
    let out = repo.ci(&server.uri(), "push", &event, &[]).await;
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    assert!(
        requests(&server).await.is_empty(),
        "no pull request, no comment"
    );
    let o = outputs(&repo.output());
    let ci = report(&o["report-json"]);
    assert!(ci.get("surface").is_none());
    assert!(
        ci["notes"].as_array().is_some_and(|n| n.iter().any(|n| n
            .as_str()
            .is_some_and(|s| s.starts_with("no base revision")))),
        "{ci}"
    );
    assert_eq!(ci["event"]["headSha"], repo.head_sha.as_str());
    assert_no_token(&repo, &out);
}

fn edit_tools(repo: &Path, edit: impl FnOnce(&mut Vec<Value>)) {
    let text = std::fs::read_to_string(repo.join("tools.json")).expect("tools");
    let mut tools: Value = serde_json::from_str(&text).expect("json");
    edit(tools["tools"].as_array_mut().expect("tools"));
    write_json(&repo.join("tools.json"), &tools);
}

/// The acceptance run: a base with a lint error; a first push adds one clean tool
/// (exit 0, and the comment names the tool); a second push adds a near-duplicate of an existing
/// tool (exit 2, and the comment and an annotation name it); the one sticky comment is edited,
/// never duplicated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reviewer_reads_what_the_pull_request_changed_by_name() {
    let mut repo = Repo::with_base(
        // The base already has a lint error: get_invoice claims read-only and destructive.
        |r| {
            edit_tools(r, |list| {
                for t in list.iter_mut() {
                    if t["name"] == "get_invoice" {
                        t["annotations"]["destructiveHint"] = json!(true);
                    }
                }
            })
        },
        |r| {
            edit_tools(r, |list| {
                list.push(json!({
                    "name": "cancel_order",
                    "description": "Cancel an order that has not shipped yet. Not for refunds of delivered orders: use issue_refund.",
                    "inputSchema": {
                        "type": "object",
                        "properties": {"order_id": {"type": "string", "description": "The order to cancel."}},
                        "required": ["order_id"]
                    },
                    "annotations": {"readOnlyHint": false, "destructiveHint": true, "idempotentHint": true, "openWorldHint": true}
                }))
            })
        },
    );
    let server = MockServer::start().await;
    let api = server.uri();

    // Push 1: a clean tool. The pre-existing error does not fail the run.
    mount_comment_pages(&server, Vec::new()).await;
    Mock::given(method("POST"))
        .and(path(COMMENTS))
        .respond_with(ResponseTemplate::new(201).set_body_json(comment(
            &api,
            1001,
            "github-actions[bot]",
            MARKER,
        )))
        .mount(&server)
        .await;
    let event = repo.pull_request_event(false);
    let out = repo.ci(&api, "pull_request", &event, &[]).await;
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let reqs = requests(&server).await;
    assert_eq!(count(&reqs, "POST"), 1, "one comment is created");
    let body = sent_body(
        reqs.iter()
            .find(|r| r.method.as_str() == "POST")
            .expect("POST"),
    );
    assert!(body.starts_with(MARKER), "{body}");
    assert!(body.contains("added `cancel_order`"), "{body}");
    assert!(
        body.contains("pre-existing findings already at the base")
            && body.contains("`annotations-conflicting`"),
        "the base's error is counted and folded:\n{body}"
    );
    let verdict = body.lines().nth(1).unwrap_or_default();
    assert!(verdict.contains("PASS"), "verdict first: {verdict}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        !stdout.lines().any(|l| l.starts_with("::error ")),
        "a pre-existing finding is never annotated:\n{stdout}"
    );
    // A small PR's comment fits one screen.
    assert!(
        body.lines().count() <= 40,
        "{} lines:\n{body}",
        body.lines().count()
    );

    // Push 2: a near-duplicate of get_ticket (the same description under another name).
    repo.push(|r| {
        edit_tools(r, |list| {
            let mut dup = list
                .iter()
                .find(|t| t["name"] == "get_ticket")
                .expect("get_ticket")
                .clone();
            dup["name"] = json!("fetch_ticket");
            list.push(dup);
        })
    });
    server.reset().await;
    mount_comment_pages(
        &server,
        vec![comment(&api, 1001, "github-actions[bot]", &body)],
    )
    .await;
    Mock::given(method("PATCH"))
        .and(path("/repos/acme/tools/issues/comments/1001"))
        .respond_with(ResponseTemplate::new(200).set_body_json(comment(
            &api,
            1001,
            "github-actions[bot]",
            MARKER,
        )))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(201).set_body_json(comment(&api, 9999, "x", MARKER)))
        .mount(&server)
        .await;
    let event = repo.pull_request_event(false);
    let out = repo.ci(&api, "pull_request", &event, &[]).await;
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let reqs = requests(&server).await;
    assert_eq!(count(&reqs, "POST"), 0, "never a second comment");
    assert_eq!(count(&reqs, "PATCH"), 1, "the sticky comment is updated");
    let body = sent_body(
        reqs.iter()
            .find(|r| r.method.as_str() == "PATCH")
            .expect("PATCH"),
    );
    assert!(body.contains("FAIL"), "{body}");
    assert!(body.contains("added `fetch_ticket`"), "{body}");
    assert!(
        body.lines()
            .any(|l| l.starts_with("| ❌ error") && l.contains("fetch_ticket")),
        "the new error names the duplicate:\n{body}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("::error ") && l.contains("fetch_ticket")),
        "an annotation names the duplicate:\n{stdout}"
    );
    assert_no_token(&repo, &out);
}

/// The scorecard without its timing (the only fields a merged scorecard may differ in).
fn without_timing(mut card: Value) -> Value {
    card.as_object_mut().expect("scorecard").remove("timing");
    for m in card["models"].as_array_mut().expect("models") {
        m["metrics"]
            .as_object_mut()
            .expect("metrics")
            .remove("latencyMs");
        for t in m["trials"].as_array_mut().expect("trials") {
            t.as_object_mut().expect("trial").remove("latencyMs");
        }
    }
    card
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_matrix_of_three_shards_merges_into_one_comment() {
    let mut repo = Repo::new(head_with_renamed_refund_tool);
    let event = repo.pull_request_event(false);
    let server = MockServer::start().await;
    let api = server.uri();
    mount_comment_pages(&server, Vec::new()).await;
    Mock::given(method("POST"))
        .and(path(COMMENTS))
        .respond_with(ResponseTemplate::new(201).set_body_json(comment(
            &api,
            1001,
            "github-actions[bot]",
            MARKER,
        )))
        .mount(&server)
        .await;
    let models = format!("scripted:{}", repo.script.display());
    let cache = repo.cache.to_str().expect("utf-8").to_owned();
    let artifacts = repo.gh.join("artifacts");

    // Three matrix jobs, each writing its parts where its artifact will be downloaded.
    for k in 1..=3 {
        let dir = artifacts.join(format!("mf-parts-{k}"));
        let shard = format!("{k}/3");
        let out = repo
            .ci(
                &api,
                "pull_request",
                &event,
                &[
                    "--models",
                    &models,
                    "--cache-dir",
                    &cache,
                    "--shard",
                    &shard,
                    "--parts-dir",
                    dir.to_str().expect("utf-8"),
                    "--fail-on-regression",
                ],
            )
            .await;
        assert_eq!(out.status.code(), Some(0), "{}", show(&out));
        for side in ["head", "base"] {
            let part: Value = read_json(dir.join(format!("mf-{side}-{k}-of-3.json")));
            assert_eq!(part["shard"]["index"], k, "{side}");
        }
    }
    assert!(
        requests(&server).await.is_empty(),
        "a shard job posts no comment"
    );

    // The final job: merge, compare, one comment; the regression fails the gate.
    let json_out = repo.gh.join("merged-ci.json");
    let merge_args = [
        "--merge".to_owned(),
        artifacts.to_string_lossy().into_owned(),
        "--json-out".to_owned(),
        json_out.to_string_lossy().into_owned(),
        "--fail-on-regression".to_owned(),
    ];
    let merge_args: Vec<&str> = merge_args.iter().map(String::as_str).collect();
    let out = repo.ci(&api, "pull_request", &event, &merge_args).await;
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let reqs = requests(&server).await;
    assert_eq!(count(&reqs, "POST"), 1, "one comment for the whole matrix");
    assert_eq!(count(&reqs, "PATCH"), 0);
    let o = outputs(&repo.output());
    assert_eq!(o["mode"], "full");
    assert_eq!(o["verdict"], "regressed");
    assert_eq!(o["accuracy"], "0.5000");
    let merged = report(json_out.to_str().expect("utf-8"));
    assert!(merged["head"].get("shard").is_none());
    assert_eq!(merged["compare"]["verdict"], "regressed");

    // The same run unsharded: the merged head and base are its scorecards but for timing.
    let single_out = repo.gh.join("single-ci.json");
    let out = repo
        .ci(
            &api,
            "pull_request",
            &event,
            &[
                "--models",
                &models,
                "--cache-dir",
                &cache,
                "--comment",
                "off",
                "--json-out",
                single_out.to_str().expect("utf-8"),
                "--fail-on-regression",
            ],
        )
        .await;
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let single = report(single_out.to_str().expect("utf-8"));
    for side in ["head", "base"] {
        assert_eq!(
            without_timing(merged[side].clone()),
            without_timing(single[side].clone()),
            "{side}"
        );
    }
    assert!(merged["compare"]["eval"].is_object());
    assert_eq!(merged["compare"]["eval"], single["compare"]["eval"]);

    // No part at all (the shard jobs had no key): a free run that says why.
    let empty = repo.gh.join("no-parts");
    std::fs::create_dir_all(&empty).expect("mkdir");
    let out = repo
        .ci(
            &api,
            "pull_request",
            &event,
            &[
                "--merge",
                empty.to_str().expect("utf-8"),
                "--comment",
                "off",
            ],
        )
        .await;
    assert_ne!(out.status.code(), Some(1), "{}", show(&out));
    let o = outputs(&repo.output());
    assert_eq!(o["mode"], "free");
    assert!(
        o["free-reason"].contains("no eval parts"),
        "{}",
        o["free-reason"]
    );

    // Parts of an older commit (stale artifacts) do not judge a new push.
    repo.push(|dir| {
        edit_tools(dir, |tools| {
            tools[0]["description"] = json!("Search tickets, now with a different description.");
        });
    });
    let before = requests(&server).await.len();
    let out = repo.ci(&api, "pull_request", &event, &merge_args).await;
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(stderr(&out).contains("stale artifacts"), "{}", stderr(&out));
    assert_eq!(requests(&server).await.len(), before);

    // A shard's artifact missing: refused, naming it; no comment is touched.
    std::fs::remove_dir_all(artifacts.join("mf-parts-2")).expect("rm");
    let before = requests(&server).await.len();
    let out = repo.ci(&api, "pull_request", &event, &merge_args).await;
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(stderr(&out).contains("2/3"), "{}", stderr(&out));
    assert_eq!(requests(&server).await.len(), before);
    assert_no_token(&repo, &out);
}
