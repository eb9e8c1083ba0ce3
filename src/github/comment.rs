//! The sticky pull request comment: one comment per pull request, found again by
//! [`COMMENT_MARKER`] (an HTML comment at the top of the body) and edited in place on every run,
//! so a pull request never collects a pile of reports.
//!
//! 1. List the pull request's issue comments (`GET /repos/{owner}/{repo}/issues/{n}/comments`,
//!    100 per page, following the `Link: rel="next"` header; at most [`MAX_PAGES`] pages).
//! 2. The first comment whose body starts with the marker *and whose author is the token's own
//!    identity* is ours: `PATCH
//!    /repos/{owner}/{repo}/issues/comments/{id}` with the new body (nothing is sent when the body
//!    is unchanged). None: `POST` one. Never a second one.
//!
//! Who the token is: resolved once with `GET /user` (a personal access token answers with its
//! login). The Actions `GITHUB_TOKEN` and GitHub App installation tokens cannot read `/user`;
//! then a comment is ours only when its author is a bot (`user.type == "Bot"`) that is
//! `github-actions[bot]`, or the app the comment was made through (`performed_via_github_app`,
//! login `<slug>[bot]`). A marker comment written by anyone else — a pull request author can
//! paste the marker — is never edited; mf posts its own instead.
//!
//! The body is cut to [`COMMENT_LIMIT`] characters (the renderer already keeps under it). The
//! token comes from the environment only, is held by octocrab as a secret and is never printed;
//! the API root comes from `GITHUB_API_URL`. A 403 or 404 means the token cannot write there —
//! what a fork pull request's read-only token gets — and is reported as [`Outcome::ReadOnly`],
//! not as an error.

use std::time::Duration;

use octocrab::Octocrab;
use serde::Deserialize;
use serde_json::json;

pub use crate::render::ci::{COMMENT_LIMIT, COMMENT_MARKER};

/// Most comment pages read (100 comments each).
pub const MAX_PAGES: usize = 100;

/// Where the comment goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// REST API root (`https://api.github.com`, or a GitHub Enterprise `…/api/v3`).
    pub api_url: String,
    /// `owner/repo`.
    pub repository: String,
    /// Pull request number.
    pub number: u64,
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A new comment was created.
    Created {
        /// Comment id.
        id: u64,
        /// Link to it, when the API gave one.
        url: Option<String>,
    },
    /// Our comment was edited in place.
    Updated {
        /// Comment id.
        id: u64,
        /// Link to it, when the API gave one.
        url: Option<String>,
    },
    /// Our comment already had this body.
    Unchanged {
        /// Comment id.
        id: u64,
    },
    /// The API answered 403 or 404: the token cannot write to this repository.
    ReadOnly {
        /// The HTTP status.
        status: u16,
    },
}

/// Why the comment could not be posted (other than a read-only token).
#[derive(Debug, thiserror::Error)]
pub enum CommentError {
    /// `GITHUB_REPOSITORY` is not `owner/repo`.
    #[error("the repository {0:?} is not owner/repo")]
    Repository(String),
    /// The API root is not a URL.
    #[error("GITHUB_API_URL {0:?} is not a URL")]
    ApiUrl(String),
    /// The async runtime could not start.
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
    /// The API answered with an error, or could not be reached.
    #[error("the GitHub API {what} failed: {detail}")]
    Api {
        /// What was being done.
        what: &'static str,
        /// What the API (or the connection) said.
        detail: String,
    },
    /// The comment pages kept coming.
    #[error("more than {MAX_PAGES} pages of comments; not looking further")]
    TooManyPages,
}

/// An issue comment, as much of it as mf reads.
#[derive(Debug, Clone, Deserialize)]
struct IssueComment {
    id: u64,
    #[serde(default)]
    body: Option<String>,
    #[serde(default)]
    html_url: Option<String>,
    #[serde(default)]
    user: Option<Account>,
    #[serde(default)]
    performed_via_github_app: Option<App>,
}

/// A comment's author (or `GET /user`'s answer).
#[derive(Debug, Clone, Deserialize)]
struct Account {
    login: String,
    #[serde(default, rename = "type")]
    kind: Option<String>,
}

/// The GitHub App a comment was made through.
#[derive(Debug, Clone, Deserialize)]
struct App {
    #[serde(default)]
    slug: Option<String>,
}

/// The login of the Actions `GITHUB_TOKEN`'s comments.
pub const ACTIONS_BOT: &str = "github-actions[bot]";

/// Who the token is, as far as mf can tell.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Identity {
    /// `GET /user` answered: a user (personal access token).
    Login(String),
    /// `GET /user` refused (Actions or app installation token): a bot.
    Bot,
}

impl Identity {
    /// Whether `c` was written by this identity.
    fn wrote(&self, c: &IssueComment) -> bool {
        let Some(user) = &c.user else {
            return false;
        };
        match self {
            Identity::Login(login) => user.login.eq_ignore_ascii_case(login),
            Identity::Bot => {
                let is_bot = user.kind.as_deref() == Some("Bot");
                let via_app = c
                    .performed_via_github_app
                    .as_ref()
                    .and_then(|a| a.slug.as_deref())
                    .is_some_and(|slug| user.login.eq_ignore_ascii_case(&format!("{slug}[bot]")));
                is_bot && (user.login.eq_ignore_ascii_case(ACTIONS_BOT) || via_app)
            }
        }
    }
}

/// `GET /user` once: the login for a user token, [`Identity::Bot`] when the token cannot read it.
async fn identity(crab: &Octocrab) -> Identity {
    match crab.get::<Account, _, ()>("/user", None).await {
        Ok(a) if a.kind.as_deref() != Some("Bot") => Identity::Login(a.login),
        _ => Identity::Bot,
    }
}

/// `body` cut to [`COMMENT_LIMIT`] characters, with a note when cut.
pub fn fit(body: &str) -> String {
    if body.chars().count() <= COMMENT_LIMIT {
        return body.to_owned();
    }
    const NOTE: &str = "\n\n_… cut here: a pull request comment holds at most 60,000 characters; the job summary and the JSON report have everything._\n";
    let keep = COMMENT_LIMIT - NOTE.chars().count();
    let head: String = body.chars().take(keep).collect();
    let head = head.rfind('\n').map_or(head.as_str(), |i| &head[..i]);
    format!("{head}{NOTE}")
}

/// Create or update the sticky comment on `target` with `body` (which starts with
/// [`COMMENT_MARKER`]), authenticating with `token`.
pub fn upsert(target: &Target, token: String, body: &str) -> Result<Outcome, CommentError> {
    let (owner, repo) = target
        .repository
        .split_once('/')
        .filter(|(o, r)| !o.is_empty() && !r.is_empty() && !r.contains('/'))
        .ok_or_else(|| CommentError::Repository(target.repository.clone()))?;
    let body = fit(body);
    let secret = token.clone();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(CommentError::Runtime)?;
    runtime
        .block_on(async {
            let crab = Octocrab::builder()
                .set_connect_timeout(Some(Duration::from_secs(10)))
                .set_read_timeout(Some(Duration::from_secs(30)))
                .set_write_timeout(Some(Duration::from_secs(30)))
                .base_uri(target.api_url.as_str())
                .map_err(|_| CommentError::ApiUrl(target.api_url.clone()))?
                .personal_token(token)
                .build()
                .map_err(|e| api("client setup", &e))?;
            upsert_with(&crab, owner, repo, target.number, &body).await
        })
        .map_err(|e| scrub_error(e, &secret))
}

/// An error with the token, and anything shaped like a GitHub token, removed: the API (or a
/// proxy in front of it) may echo what it was sent.
fn scrub_error(e: CommentError, token: &str) -> CommentError {
    match e {
        CommentError::Api { what, detail } => CommentError::Api {
            what,
            detail: scrub(&detail, token),
        },
        other => other,
    }
}

/// `text` with `token` and GitHub-token-shaped words (`ghp_…`, `ghs_…`, `github_pat_…`,
/// `Bearer …`) replaced by `[redacted]`.
pub fn scrub(text: &str, token: &str) -> String {
    static TOKENS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r#"(?i)\b(?:gh[pousr]_[A-Za-z0-9_]{8,}|github_pat_[A-Za-z0-9_]{8,}|(?:bearer|token)\s+[^\s"',;]+)"#,
        )
        .expect("static regex")
    });
    let mut out = text.to_owned();
    if !token.is_empty() {
        out = out.replace(token, "[redacted]");
    }
    TOKENS.replace_all(&out, "[redacted]").into_owned()
}

async fn upsert_with(
    crab: &Octocrab,
    owner: &str,
    repo: &str,
    number: u64,
    body: &str,
) -> Result<Outcome, CommentError> {
    let ours = match find_ours(crab, owner, repo, number).await {
        Ok(found) => found,
        Err(Failure::ReadOnly(status)) => return Ok(Outcome::ReadOnly { status }),
        Err(Failure::Other(e)) => return Err(e),
    };
    let sent = match &ours {
        Some(c) if c.body.as_deref() == Some(body) => return Ok(Outcome::Unchanged { id: c.id }),
        Some(c) => {
            crab.patch::<IssueComment, _, _>(
                format!("/repos/{owner}/{repo}/issues/comments/{}", c.id),
                Some(&json!({ "body": body })),
            )
            .await
        }
        None => {
            crab.post::<_, IssueComment>(
                format!("/repos/{owner}/{repo}/issues/{number}/comments"),
                Some(&json!({ "body": body })),
            )
            .await
        }
    };
    let what = if ours.is_some() {
        "comment update"
    } else {
        "comment creation"
    };
    match sent {
        Ok(c) if ours.is_some() => Ok(Outcome::Updated {
            id: c.id,
            url: c.html_url,
        }),
        Ok(c) => Ok(Outcome::Created {
            id: c.id,
            url: c.html_url,
        }),
        Err(e) => match read_only(&e) {
            Some(status) => Ok(Outcome::ReadOnly { status }),
            None => Err(api(what, &e)),
        },
    }
}

enum Failure {
    ReadOnly(u16),
    Other(CommentError),
}

/// The first comment by the token's identity whose body starts with the marker, over every
/// page. The identity is resolved once, when the first marker comment turns up.
async fn find_ours(
    crab: &Octocrab,
    owner: &str,
    repo: &str,
    number: u64,
) -> Result<Option<IssueComment>, Failure> {
    let mut me: Option<Identity> = None;
    let fail = |e: octocrab::Error| match read_only(&e) {
        Some(status) => Failure::ReadOnly(status),
        None => Failure::Other(api("comment listing", &e)),
    };
    let mut page: octocrab::Page<IssueComment> = crab
        .get(
            format!("/repos/{owner}/{repo}/issues/{number}/comments"),
            Some(&json!({ "per_page": 100 })),
        )
        .await
        .map_err(fail)?;
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..MAX_PAGES {
        for c in page.items.drain(..) {
            if !c.body.as_deref().is_some_and(is_ours) {
                continue;
            }
            if me.is_none() {
                me = Some(identity(crab).await);
            }
            if me.as_ref().is_some_and(|m| m.wrote(&c)) {
                return Ok(Some(c));
            }
        }
        let Some(next) = page.next.take() else {
            return Ok(None);
        };
        // A server repeating a page link would loop forever.
        if !seen.insert(next.to_string()) {
            return Ok(None);
        }
        match crab.get_page(&Some(next)).await.map_err(fail)? {
            Some(p) => page = p,
            None => return Ok(None),
        }
    }
    Err(Failure::Other(CommentError::TooManyPages))
}

/// Whether a comment body is mf's sticky comment.
pub fn is_ours(body: &str) -> bool {
    body.trim_start().starts_with(COMMENT_MARKER)
}

/// The status of a 403 or 404 answer.
fn read_only(e: &octocrab::Error) -> Option<u16> {
    match e {
        octocrab::Error::GitHub { source, .. } => {
            let status = source.status_code.as_u16();
            matches!(status, 403 | 404).then_some(status)
        }
        _ => None,
    }
}

fn api(what: &'static str, e: &octocrab::Error) -> CommentError {
    let detail = match e {
        octocrab::Error::GitHub { source, .. } => {
            format!("HTTP {}: {}", source.status_code.as_u16(), source.message)
        }
        // Other variants' Display includes a backtrace; the first line says what happened.
        other => other
            .to_string()
            .lines()
            .next()
            .unwrap_or_default()
            .to_owned(),
    };
    CommentError::Api { what, detail }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_body_is_cut_to_the_limit_at_a_line_end() {
        let body = format!(
            "{COMMENT_MARKER}\n{}",
            "a row of the table é\n".repeat(5000)
        );
        let cut = fit(&body);
        assert!(cut.chars().count() <= COMMENT_LIMIT);
        assert!(cut.starts_with(COMMENT_MARKER));
        assert!(cut.contains("cut here"));
        assert_eq!(fit("short"), "short");
    }

    #[test]
    fn api_errors_are_scrubbed_of_the_token() {
        let e = CommentError::Api {
            what: "comment update",
            detail:
                "HTTP 401: Bad credentials for SeCrEt-123 (Authorization: token ghs_abcdefghij0123)"
                    .into(),
        };
        let shown = scrub_error(e, "SeCrEt-123").to_string();
        assert!(
            !shown.contains("SeCrEt-123") && !shown.contains("ghs_abc"),
            "{shown}"
        );
        assert!(shown.contains("HTTP 401: Bad credentials"), "{shown}");
    }

    #[test]
    fn only_the_tokens_own_comments_are_ours() {
        let c = |login: &str, kind: &str, app: Option<&str>| IssueComment {
            id: 1,
            body: Some(COMMENT_MARKER.into()),
            html_url: None,
            user: Some(Account {
                login: login.into(),
                kind: Some(kind.into()),
            }),
            performed_via_github_app: app.map(|s| App {
                slug: Some(s.into()),
            }),
        };
        let pat = Identity::Login("mf-bot".into());
        assert!(pat.wrote(&c("mf-bot", "User", None)));
        assert!(!pat.wrote(&c("mallory", "User", None)));
        assert!(Identity::Bot.wrote(&c(ACTIONS_BOT, "Bot", None)));
        assert!(Identity::Bot.wrote(&c("acme-ci[bot]", "Bot", Some("acme-ci"))));
        assert!(!Identity::Bot.wrote(&c(ACTIONS_BOT, "User", None)));
        assert!(!Identity::Bot.wrote(&c("mallory", "User", Some("acme-ci"))));
        assert!(!Identity::Bot.wrote(&c("other[bot]", "Bot", None)));
    }

    #[test]
    fn ours_starts_with_the_marker() {
        assert!(is_ours(&format!("\n{COMMENT_MARKER}\n## mf")));
        assert!(!is_ours(&format!("> quoting {COMMENT_MARKER}")));
    }
}
