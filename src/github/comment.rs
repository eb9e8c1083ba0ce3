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
//! token comes from the environment only, is sent only to the API root's origin (a `next` page
//! link elsewhere is not followed) and is never printed; the API root comes from
//! `GITHUB_API_URL`. A 403 or 404 means the token cannot write there —
//! what a fork pull request's read-only token gets — and is reported as [`Outcome::ReadOnly`],
//! not as an error.

use std::time::Duration;

use reqwest::{Method, Url, header};
use serde::Deserialize;
use serde::de::DeserializeOwned;
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
async fn identity(gh: &Api) -> Identity {
    match gh.get::<Account>(gh.url("/user")).await {
        Ok((a, _)) if a.kind.as_deref() != Some("Bot") => Identity::Login(a.login),
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
            let gh = Api::new(&target.api_url, &token)?;
            upsert_with(&gh, owner, repo, target.number, &body).await
        })
        .map_err(|e| scrub_error(e, &secret))
}

/// The few REST calls mf makes, over the one HTTP client (reqwest, rustls with ring).
struct Api {
    client: reqwest::Client,
    base: Url,
    token: String,
}

/// What a call got back instead of the JSON it wanted.
#[derive(Debug)]
enum ApiFailure {
    /// The API answered with an error status (and its `message`, when it gave one).
    Status { status: u16, message: String },
    /// The API could not be reached, or its answer could not be read.
    Transport(String),
}

impl Api {
    fn new(api_url: &str, token: &str) -> Result<Api, CommentError> {
        let base = Url::parse(api_url.trim_end_matches('/'))
            .ok()
            .filter(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some())
            .ok_or_else(|| CommentError::ApiUrl(api_url.to_owned()))?;
        let client = crate::util::http::client_builder()
            .connect_timeout(Duration::from_secs(10))
            .read_timeout(Duration::from_secs(30))
            .user_agent(concat!("mf/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| CommentError::Api {
                what: "client setup",
                detail: first_line(&e.to_string()),
            })?;
        Ok(Api {
            client,
            base,
            token: token.to_owned(),
        })
    }

    /// `path` (starting with `/`) under the API root.
    fn url(&self, path: &str) -> Url {
        let mut u = self.base.clone();
        let joined = format!("{}{path}", self.base.path().trim_end_matches('/'));
        u.set_path(&joined);
        u
    }

    fn request(&self, method: Method, url: Url) -> reqwest::RequestBuilder {
        self.client
            .request(method, url)
            .bearer_auth(&self.token)
            .header(header::ACCEPT, "application/vnd.github+json")
            .header("X-GitHub-Api-Version", "2022-11-28")
    }

    /// GET `url`: the JSON answer and the `Link: rel="next"` page, when it is on the API's own
    /// origin (the token is never sent anywhere else).
    async fn get<T: DeserializeOwned>(&self, url: Url) -> Result<(T, Option<Url>), ApiFailure> {
        let answer = self.request(Method::GET, url).send().await;
        let answer = answer.map_err(|e| ApiFailure::Transport(first_line(&e.to_string())))?;
        let next = answer
            .headers()
            .get_all(header::LINK)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find_map(next_link)
            .and_then(|u| Url::parse(&u).ok())
            .filter(|u| u.origin() == self.base.origin());
        Ok((read(answer).await?, next))
    }

    /// POST or PATCH `path` with a JSON body.
    async fn send<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        body: &serde_json::Value,
    ) -> Result<T, ApiFailure> {
        let answer = self.request(method, self.url(path)).json(body).send().await;
        read(answer.map_err(|e| ApiFailure::Transport(first_line(&e.to_string())))?).await
    }
}

/// The JSON of a successful answer, or the failure with the API's `message`.
async fn read<T: DeserializeOwned>(answer: reqwest::Response) -> Result<T, ApiFailure> {
    let status = answer.status();
    let text = answer
        .text()
        .await
        .map_err(|e| ApiFailure::Transport(first_line(&e.to_string())))?;
    if !status.is_success() {
        let message = serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|v| v.get("message").and_then(|m| m.as_str()).map(str::to_owned))
            .unwrap_or_else(|| text.chars().take(200).collect());
        return Err(ApiFailure::Status {
            status: status.as_u16(),
            message,
        });
    }
    serde_json::from_str(&text)
        .map_err(|e| ApiFailure::Transport(format!("unexpected answer: {e}")))
}

/// The `rel="next"` target of one `Link` header value.
fn next_link(link: &str) -> Option<String> {
    link.split(',').find_map(|part| {
        let (target, params) = part.split_once(';')?;
        let rel_next = params
            .split(';')
            .any(|p| matches!(p.trim(), "rel=\"next\"" | "rel=next"));
        let target = target.trim().strip_prefix('<')?.strip_suffix('>')?;
        rel_next.then(|| target.to_owned())
    })
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or_default().to_owned()
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
    gh: &Api,
    owner: &str,
    repo: &str,
    number: u64,
    body: &str,
) -> Result<Outcome, CommentError> {
    let ours = match find_ours(gh, owner, repo, number).await {
        Ok(found) => found,
        Err(Failure::ReadOnly(status)) => return Ok(Outcome::ReadOnly { status }),
        Err(Failure::Other(e)) => return Err(e),
    };
    let sent = match &ours {
        Some(c) if c.body.as_deref() == Some(body) => return Ok(Outcome::Unchanged { id: c.id }),
        Some(c) => {
            gh.send::<IssueComment>(
                Method::PATCH,
                &format!("/repos/{owner}/{repo}/issues/comments/{}", c.id),
                &json!({ "body": body }),
            )
            .await
        }
        None => {
            gh.send::<IssueComment>(
                Method::POST,
                &format!("/repos/{owner}/{repo}/issues/{number}/comments"),
                &json!({ "body": body }),
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
    gh: &Api,
    owner: &str,
    repo: &str,
    number: u64,
) -> Result<Option<IssueComment>, Failure> {
    let mut me: Option<Identity> = None;
    let fail = |e: ApiFailure| match read_only(&e) {
        Some(status) => Failure::ReadOnly(status),
        None => Failure::Other(api("comment listing", &e)),
    };
    let mut url = gh.url(&format!("/repos/{owner}/{repo}/issues/{number}/comments"));
    url.query_pairs_mut().append_pair("per_page", "100");
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..MAX_PAGES {
        let (items, next): (Vec<IssueComment>, Option<Url>) = gh.get(url).await.map_err(fail)?;
        for c in items {
            if !c.body.as_deref().is_some_and(is_ours) {
                continue;
            }
            if me.is_none() {
                me = Some(identity(gh).await);
            }
            if me.as_ref().is_some_and(|m| m.wrote(&c)) {
                return Ok(Some(c));
            }
        }
        let Some(next) = next else {
            return Ok(None);
        };
        // A server repeating a page link would loop forever.
        if !seen.insert(next.to_string()) {
            return Ok(None);
        }
        url = next;
    }
    Err(Failure::Other(CommentError::TooManyPages))
}

/// Whether a comment body is mf's sticky comment.
pub fn is_ours(body: &str) -> bool {
    body.trim_start().starts_with(COMMENT_MARKER)
}

/// The status of a 403 or 404 answer.
fn read_only(e: &ApiFailure) -> Option<u16> {
    match e {
        ApiFailure::Status { status, .. } => matches!(status, 403 | 404).then_some(*status),
        ApiFailure::Transport(_) => None,
    }
}

fn api(what: &'static str, e: &ApiFailure) -> CommentError {
    let detail = match e {
        ApiFailure::Status { status, message } => format!("HTTP {status}: {message}"),
        ApiFailure::Transport(t) => t.clone(),
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
    fn the_next_page_comes_from_the_link_header() {
        let link = r#"<https://api.github.com/x?page=2>; rel="next", <https://api.github.com/x?page=9>; rel="last""#;
        assert_eq!(
            next_link(link).as_deref(),
            Some("https://api.github.com/x?page=2")
        );
        assert_eq!(next_link(r#"<https://a/x?page=9>; rel="last""#), None);
        assert_eq!(next_link("garbage"), None);
    }

    /// A `next` page link to another origin is not followed: the token goes to the API root's
    /// host only.
    #[tokio::test]
    async fn a_next_page_elsewhere_is_not_followed() {
        use wiremock::matchers::{method, path};
        use wiremock::{Mock, MockServer, ResponseTemplate};
        let api = MockServer::start().await;
        let elsewhere = MockServer::start().await;
        Mock::given(method("GET"))
            .and(path("/repos/o/r/issues/1/comments"))
            .respond_with(
                ResponseTemplate::new(200)
                    .set_body_json(json!([]))
                    .insert_header(
                        "Link",
                        format!("<{}/steal?page=2>; rel=\"next\"", elsewhere.uri()).as_str(),
                    ),
            )
            .mount(&api)
            .await;
        let gh = Api::new(&api.uri(), "tok-SECRET").expect("client");
        let found = find_ours(&gh, "o", "r", 1).await;
        assert!(matches!(found, Ok(None)));
        assert!(
            elsewhere
                .received_requests()
                .await
                .expect("recording")
                .is_empty()
        );
    }

    #[test]
    fn ours_starts_with_the_marker() {
        assert!(is_ours(&format!("\n{COMMENT_MARKER}\n## mf")));
        assert!(!is_ours(&format!("> quoting {COMMENT_MARKER}")));
    }
}
