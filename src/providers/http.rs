//! The HTTP transport every wire format is sent through: auth and fixed headers, the base URL,
//! per-request timeout, retries on 429/5xx/timeouts honouring `Retry-After`, a capped body read,
//! and redacted error messages. It speaks to a format only through the [`WireFormat`] trait
//! (build nothing, parse what comes back) and knows no format by name; choosing the format for a
//! model is `provider.rs`'s job.
//!
//! Keys travel only in headers (marked sensitive), never in the URL or body, and every error
//! message passes through [`redact`]. [`Transport::send`] spawns nothing: dropping its future
//! (Ctrl-C) cancels the request cleanly.

use std::sync::LazyLock;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use regex::Regex;
use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue, RETRY_AFTER};
use reqwest::{StatusCode, Url};

use super::config::{ConfigError, ModelSpec};
use super::wire::clip;
use super::{ErrorKind, Reply, TrialError, WireFormat, WireRequest};

/// The replacement for every secret in messages.
pub(super) const REDACTED: &str = "[redacted]";
/// How much of a non-2xx body is read to find the provider's error message.
const ERROR_BODY_CAP: usize = 64 * 1024;
/// First backoff step when the server gives no `Retry-After`.
const BACKOFF_BASE: Duration = Duration::from_millis(500);

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

/// Replace every secret value, plus `Bearer <token>` and `sk-…` looking tokens, with
/// `[redacted]`.
pub fn redact(text: &str, secrets: &[&str]) -> String {
    static BEARER: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#"(?i)\bbearer\s+[^\s"',;]+"#).expect("static regex"));
    static SK: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\bsk-[A-Za-z0-9][A-Za-z0-9_\-]{7,}").expect("static regex"));
    let mut out = text.to_owned();
    let mut sorted: Vec<&str> = secrets.iter().copied().filter(|s| !s.is_empty()).collect();
    // Longest first, so a secret containing another is replaced whole.
    sorted.sort_by_key(|s| std::cmp::Reverse(s.len()));
    for s in sorted {
        out = out.replace(s, REDACTED);
    }
    let out = BEARER.replace_all(&out, REDACTED);
    SK.replace_all(&out, REDACTED).into_owned()
}

/// A URL with userinfo, query and fragment removed, without a trailing `/`.
pub(super) fn redact_url(url: &str) -> String {
    match Url::parse(url) {
        Ok(mut u) => {
            let _ = u.set_username("");
            let _ = u.set_password(None);
            u.set_query(None);
            u.set_fragment(None);
            u.as_str().trim_end_matches('/').to_owned()
        }
        Err(_) => "<invalid URL>".to_owned(),
    }
}

/// The wait a 429/5xx asks for: `retry-after-ms`, else `Retry-After` in seconds or as an HTTP
/// date (relative to `now`).
fn retry_after(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    if let Some(ms) = headers
        .get("retry-after-ms")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|ms| ms.is_finite() && *ms >= 0.0)
    {
        return Some(Duration::from_secs_f64(ms / 1000.0));
    }
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(secs) = value.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs.min(1e9)));
    }
    let at = parse_http_date(value)?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

/// Parse an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form RFC 9110 requires senders
/// to use.
fn parse_http_date(s: &str) -> Option<SystemTime> {
    let parts: Vec<&str> = s.split_whitespace().collect();
    let [_, day, month, year, time, "GMT"] = parts.as_slice() else {
        return None;
    };
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let month = i64::try_from(MONTHS.iter().position(|m| m == month)?).ok()? + 1;
    let day: i64 = day.parse().ok()?;
    let year: i64 = year.parse().ok()?;
    let hms: Vec<i64> = time
        .split(':')
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    let [h, m, sec] = hms.as_slice() else {
        return None;
    };
    if !(1..=31).contains(&day) || *h > 23 || *m > 59 || *sec > 60 {
        return None;
    }
    // Days from 1970-01-01 to year-month-day (proleptic Gregorian; Howard Hinnant's algorithm).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let secs = days * 86_400 + h * 3600 + m * 60 + sec;
    Some(UNIX_EPOCH + Duration::from_secs(u64::try_from(secs).ok()?))
}

/// Exponential backoff with jitter: about 500 ms, 1 s, 2 s, … (each between half and all of
/// the step), capped at `cap`.
fn backoff(retry: u32, cap: Duration) -> Duration {
    let step = BACKOFF_BASE
        .saturating_mul(1u32.checked_shl(retry.min(16)).unwrap_or(u32::MAX))
        .min(cap);
    step.mul_f64(0.5 + 0.5 * jitter())
}

/// A number in `[0, 1)` that differs between calls (no RNG dependency needed for jitter).
fn jitter() -> f64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    // 53 random bits → a double in [0, 1).
    (h.finish() >> 11) as f64 / (1u64 << 53) as f64
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redact_replaces_secrets_bearer_and_sk_tokens() {
        let text =
            "key sk-test-SECRET-123 sent as Authorization: Bearer abc.def and raw xyz-key-999";
        let out = redact(text, &["xyz-key-999", ""]);
        assert!(!out.contains("SECRET"), "{out}");
        assert!(!out.contains("abc.def"), "{out}");
        assert!(!out.contains("xyz-key-999"), "{out}");
        assert_eq!(out.matches(REDACTED).count(), 3, "{out}");
        assert_eq!(redact("nothing here", &[]), "nothing here");
    }

    #[test]
    fn retry_after_reads_seconds_dates_and_ms() {
        let now = UNIX_EPOCH + Duration::from_secs(784_111_777); // Sun, 06 Nov 1994 08:49:37 GMT
        let mut h = HeaderMap::new();
        h.insert(RETRY_AFTER, HeaderValue::from_static("3"));
        assert_eq!(retry_after(&h, now), Some(Duration::from_secs(3)));
        h.insert(
            RETRY_AFTER,
            HeaderValue::from_static("Sun, 06 Nov 1994 08:49:47 GMT"),
        );
        assert_eq!(retry_after(&h, now), Some(Duration::from_secs(10)));
        h.insert(
            RETRY_AFTER,
            HeaderValue::from_static("Sat, 05 Nov 1994 08:49:47 GMT"),
        );
        assert_eq!(retry_after(&h, now), Some(Duration::ZERO));
        h.insert(RETRY_AFTER, HeaderValue::from_static("soon"));
        assert_eq!(retry_after(&h, now), None);
        h.insert("retry-after-ms", HeaderValue::from_static("250"));
        assert_eq!(retry_after(&h, now), Some(Duration::from_millis(250)));
    }

    #[test]
    fn backoff_grows_and_is_capped() {
        let cap = Duration::from_secs(60);
        let first = backoff(0, cap);
        assert!(first >= Duration::from_millis(250) && first <= Duration::from_millis(500));
        let third = backoff(2, cap);
        assert!(third >= Duration::from_secs(1) && third <= Duration::from_secs(2));
        assert!(backoff(40, Duration::from_secs(5)) <= Duration::from_secs(5));
    }

    #[test]
    fn urls_lose_userinfo_and_query() {
        assert_eq!(
            redact_url("https://user:pw@llm.internal/v1/?api-version=1&key=x"),
            "https://llm.internal/v1"
        );
    }
}
