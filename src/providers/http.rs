//! The HTTP transport every wire format is sent through: auth and fixed headers, the base URL,
//! per-request timeout, retries on 429/5xx/timeouts honouring `Retry-After`, a capped body read,
//! and redacted error messages. It speaks to a format only through the [`WireFormat`] trait
//! (build nothing, parse what comes back) and knows no format by name; choosing the format for a
//! model is `provider.rs`'s job.
//!
//! Keys travel only in headers (marked sensitive), never in the URL or body, and every error
//! message passes through [`redact`] ([`super::redact`]); when to retry is [`super::retry`].
//! [`Transport::send`] spawns nothing: dropping its future (Ctrl-C) cancels the request cleanly.

use std::time::{Duration, Instant, SystemTime};

use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use reqwest::{StatusCode, Url};

use super::config::{ConfigError, ModelSpec};
use super::redact::{REDACTED, redact, redact_url};
use super::retry::{backoff, retry_after};
use super::wire::clip;
use super::{ErrorKind, Reply, TrialError, WireFormat, WireRequest};

/// How much of a non-2xx body is read to find the provider's error message.
const ERROR_BODY_CAP: usize = 64 * 1024;

/// Transport settings shared by every request of one provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpOptions {
    /// Limit for one request, from sending to the last body byte.
    pub timeout: Duration,
    /// Extra attempts after a 429, a 5xx or a timeout; 0 = none.
    pub retries: u32,
    /// Largest response body read; beyond it the trial fails with `too-large`.
    pub max_body: usize,
    /// Cap on one wait between attempts (a longer `Retry-After` is shortened to this).
    pub max_retry_wait: Duration,
}

impl Default for HttpOptions {
    fn default() -> HttpOptions {
        HttpOptions {
            timeout: Duration::from_secs(120),
            retries: 2,
            max_body: 16 * 1024 * 1024,
            max_retry_wait: Duration::from_secs(60),
        }
    }
}

/// The result of one [`Transport::send`]: the answer or error, how many retries it took, and
/// how long the last attempt ran.
#[derive(Debug, Clone, PartialEq)]
pub struct Attempt {
    /// The reply, or why there is none.
    pub outcome: Result<Reply, TrialError>,
    /// Retries spent (0 = the first attempt decided).
    pub retries: u32,
    /// Duration of the last attempt in milliseconds.
    pub latency_ms: u64,
}

/// One HTTP endpoint: where requests go, the headers they carry (the key marked sensitive), the
/// key itself (only to redact it from messages), the limits, and the client.
pub struct Transport {
    pub(super) base: Url,
    pub(super) headers: HeaderMap,
    pub(super) key: Option<String>,
    pub(super) options: HttpOptions,
    client: reqwest::Client,
}

impl std::fmt::Debug for Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Transport")
            .field("endpoint", &self.endpoint_display())
            .field("key", &if self.key.is_some() { REDACTED } else { "none" })
            .field("headers", &self.header_names())
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl Transport {
    /// The transport for `spec` at `endpoint`, with `format`'s auth headers (or the key in
    /// `spec.api_key_header` as-is) and the spec's fixed headers. `key` is already trimmed; an
    /// empty key sends none.
    pub fn new(
        spec: &ModelSpec,
        endpoint: &str,
        format: &dyn WireFormat,
        key: Option<String>,
        options: HttpOptions,
        client: reqwest::Client,
    ) -> Result<Transport, ConfigError> {
        let base = Url::parse(endpoint)
            .ok()
            .filter(|u| matches!(u.scheme(), "http" | "https"))
            .ok_or_else(|| {
                ConfigError(format!(
                    "model {}: base URL {} is not an http(s) URL",
                    spec.label,
                    redact_url(endpoint)
                ))
            })?;
        let key = key.filter(|k| !k.is_empty());
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        for (name, value) in &spec.headers {
            let name = HeaderName::from_bytes(name.as_bytes()).map_err(|_| {
                ConfigError(format!(
                    "model {}: {name:?} is not a valid header name",
                    spec.label
                ))
            })?;
            let value = HeaderValue::from_str(value).map_err(|_| {
                ConfigError(format!(
                    "model {}: the value of header {name} is not a valid header value",
                    spec.label
                ))
            })?;
            headers.insert(name, value);
        }
        let auth = match (&spec.api_key_header, key.as_deref()) {
            (Some(header), Some(k)) => {
                let mut h = format.auth_headers(None);
                h.push((header.clone(), k.to_owned()));
                h
            }
            _ => format.auth_headers(key.as_deref()),
        };
        for (name, value) in auth {
            let sensitive = key.as_deref().is_some_and(|k| value.contains(k));
            let name = HeaderName::from_bytes(name.as_bytes()).map_err(|_| {
                ConfigError(format!(
                    "model {}: {name:?} is not a valid header name",
                    spec.label
                ))
            })?;
            let mut value = HeaderValue::from_str(&value).map_err(|_| {
                ConfigError(format!(
                    "model {}: the API key (or header {name}) contains characters a header \
                     cannot carry",
                    spec.label
                ))
            })?;
            value.set_sensitive(sensitive);
            headers.insert(name, value);
        }
        Ok(Transport {
            base,
            headers,
            key,
            options,
            client,
        })
    }

    /// The base URL for reports with userinfo and query removed.
    pub fn endpoint_display(&self) -> String {
        redact_url(self.base.as_str())
    }

    /// The header names sent, sorted and deduplicated (never values).
    pub fn header_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.headers.keys().map(|k| k.as_str().to_owned()).collect();
        names.sort();
        names.dedup();
        names
    }

    /// Send `wire`, retrying 429/5xx/timeouts as configured, and let `format` read the answer.
    /// Never panics; every failure is an `Err` outcome with a redacted message.
    pub async fn send(&self, format: &dyn WireFormat, wire: &WireRequest) -> Attempt {
        let url = self.url_for(wire.path);
        let body = wire.body.to_string().into_bytes();
        let mut retries = 0u32;
        loop {
            let started = Instant::now();
            let step =
                match tokio::time::timeout(self.options.timeout, self.attempt(format, &url, &body))
                    .await
                {
                    Ok(step) => step,
                    Err(_) => Step::Retry {
                        error: self.timeout_error(),
                        wait: None,
                    },
                };
            let latency_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
            match step {
                Step::Done(outcome) => {
                    return Attempt {
                        outcome,
                        retries,
                        latency_ms,
                    };
                }
                Step::Retry { mut error, wait } => {
                    if retries >= self.options.retries {
                        if retries > 0 {
                            error
                                .message
                                .push_str(&format!(" (after {retries} retries)"));
                        }
                        return Attempt {
                            outcome: Err(error),
                            retries,
                            latency_ms,
                        };
                    }
                    let cap = self.options.max_retry_wait;
                    let delay = wait.map_or_else(|| backoff(retries, cap), |w| w.min(cap));
                    tokio::time::sleep(delay).await;
                    retries += 1;
                }
            }
        }
    }

    /// One request and its body, without the overall timeout (the caller applies it).
    async fn attempt(&self, format: &dyn WireFormat, url: &Url, body: &[u8]) -> Step {
        let sent = self
            .client
            .post(url.clone())
            .headers(self.headers.clone())
            .body(body.to_vec())
            .send()
            .await;
        let mut resp = match sent {
            Ok(r) => r,
            Err(e) => return self.reqwest_error(e),
        };
        let status = resp.status();
        if status.is_success() {
            return match read_body(&mut resp, self.options.max_body, false).await {
                Ok(bytes) => Step::Done(format.parse(&bytes).map_err(|e| self.scrub(e))),
                Err(BodyError::TooLarge) => Step::Done(Err(TrialError::new(
                    ErrorKind::TooLarge,
                    format!(
                        "response body from {} exceeds {} bytes",
                        self.endpoint_display(),
                        self.options.max_body
                    ),
                ))),
                Err(BodyError::Read(e)) => self.reqwest_error(e),
            };
        }
        let wait = retry_after(resp.headers(), SystemTime::now());
        let cap = ERROR_BODY_CAP.min(self.options.max_body);
        let bytes = read_body(&mut resp, cap, true).await.unwrap_or_default();
        let detail = format
            .error_message(&bytes)
            .unwrap_or_else(|| body_snippet(&bytes));
        let mut error = self.scrub(TrialError::new(
            ErrorKind::Http,
            format!("HTTP {status} from {}: {detail}", self.endpoint_display()),
        ));
        error.status = Some(status.as_u16());
        if status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error() {
            Step::Retry { error, wait }
        } else {
            Step::Done(Err(error))
        }
    }

    pub(super) fn url_for(&self, path: &str) -> Url {
        let mut url = self.base.clone();
        let joined = format!("{}{path}", url.path().trim_end_matches('/'));
        url.set_path(&joined);
        url
    }

    fn timeout_error(&self) -> TrialError {
        TrialError::new(
            ErrorKind::Timeout,
            format!(
                "no complete response from {} within {:.1} s",
                self.endpoint_display(),
                self.options.timeout.as_secs_f64()
            ),
        )
    }

    fn reqwest_error(&self, e: reqwest::Error) -> Step {
        if e.is_timeout() {
            return Step::Retry {
                error: self.timeout_error(),
                wait: None,
            };
        }
        let e = e.without_url();
        let mut message = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(s) = source {
            message.push_str(": ");
            message.push_str(&s.to_string());
            source = s.source();
        }
        Step::Done(Err(self.scrub(TrialError::new(
            ErrorKind::Transport,
            format!("request to {} failed: {message}", self.endpoint_display()),
        ))))
    }

    /// Redact secrets from an error's message.
    fn scrub(&self, mut e: TrialError) -> TrialError {
        let secrets: Vec<&str> = self.key.as_deref().into_iter().collect();
        e.message = redact(&e.message, &secrets);
        e
    }
}

/// What one attempt decided.
enum Step {
    /// Final: an answer or a non-retryable error.
    Done(Result<Reply, TrialError>),
    /// Retryable (429, 5xx, timeout), with the server's requested wait if any.
    Retry {
        error: TrialError,
        wait: Option<Duration>,
    },
}

enum BodyError {
    TooLarge,
    Read(reqwest::Error),
}

/// Read a body in chunks up to `cap` bytes. Past the cap: `TooLarge`, or, with `truncate`, the
/// first `cap` bytes.
async fn read_body(
    resp: &mut reqwest::Response,
    cap: usize,
    truncate: bool,
) -> Result<Vec<u8>, BodyError> {
    if !truncate
        && resp
            .content_length()
            .is_some_and(|n| n > u64::try_from(cap).unwrap_or(u64::MAX))
    {
        return Err(BodyError::TooLarge);
    }
    let hint = resp
        .content_length()
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(0);
    let mut buf = Vec::with_capacity(hint.min(cap).min(1024 * 1024));
    while let Some(chunk) = resp.chunk().await.map_err(BodyError::Read)? {
        if buf.len() + chunk.len() > cap {
            if truncate {
                let room = cap - buf.len();
                buf.extend_from_slice(&chunk[..room]);
                return Ok(buf);
            }
            return Err(BodyError::TooLarge);
        }
        buf.extend_from_slice(&chunk);
    }
    Ok(buf)
}

/// A short, single-line excerpt of a body with no provider error message.
fn body_snippet(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.is_empty() {
        "empty body".to_owned()
    } else {
        clip(&line, 200)
    }
}
