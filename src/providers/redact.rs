//! Keeping secrets out of messages: every error text the transport returns passes through
//! [`redact`] (the key, `Bearer …` and `sk-…` tokens), and URLs are shown without userinfo,
//! query or fragment (`redact_url`).

use std::sync::LazyLock;

use regex::Regex;
use reqwest::Url;

/// The replacement for every secret in messages.
pub(super) const REDACTED: &str = "[redacted]";

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
    fn urls_lose_userinfo_and_query() {
        assert_eq!(
            redact_url("https://user:pw@llm.internal/v1/?api-version=1&key=x"),
            "https://llm.internal/v1"
        );
    }
}
