//! A case's `expect` checked against one call's result: `ok`, `contains` (substrings of the
//! result as text — a string result is its own text, anything else its compact JSON),
//! `equals` (JSON equality), `errorType` (the thrown error's type or code; implies `ok: false`),
//! `maxDurationMs` (the call's own time) and `maxPeakRssMB`. Every failed expectation is one
//! sentence; an empty list means the call passed. A call that did not finish (timeout, caps,
//! crash, refusal, invalid input) fails whatever was expected.

use serde_json::Value;

use crate::report::exec::{ExecReport, ExecStatus};
use crate::suite::execution::Expect;

/// The result as text for `contains` and excerpts.
pub fn result_text(r: &ExecReport) -> String {
    match (&r.result, &r.error) {
        (Some(Value::String(s)), _) => s.clone(),
        (Some(v), _) => serde_json::to_string(v).unwrap_or_default(),
        (None, Some(e)) => match &e.code {
            Some(code) => format!("{} ({code}): {}", e.kind, e.message),
            None => format!("{}: {}", e.kind, e.message),
        },
        (None, None) => String::new(),
    }
}

/// At most `n` characters of `text`, with `…` when cut.
pub fn excerpt(text: &str, n: usize) -> String {
    let mut out: String = text.chars().take(n).collect();
    if text.chars().count() > n {
        out.push('…');
    }
    out
}

/// Every expectation of `expect` that `r` fails.
pub fn check(expect: &Expect, r: &ExecReport) -> Vec<String> {
    let mut failed = Vec::new();
    let finished = matches!(r.status, ExecStatus::Ok | ExecStatus::Error);
    if !finished {
        let why = r
            .error
            .as_ref()
            .map_or_else(String::new, |e| format!(": {}", e.message));
        failed.push(format!(
            "the call did not finish ({}{why})",
            r.status.as_str()
        ));
        return failed;
    }
    let want_ok = match (expect.ok, &expect.error_type) {
        (Some(ok), _) => ok,
        (None, Some(_)) => false,
        (None, None) => true,
    };
    if want_ok != r.ok {
        failed.push(if want_ok {
            format!("ok: true, but it threw {}", result_text(r))
        } else {
            "ok: false, but it returned a value".to_owned()
        });
    }
    if let Some(want) = &expect.error_type {
        let matches = r
            .error
            .as_ref()
            .is_some_and(|e| &e.kind == want || e.code.as_deref() == Some(want.as_str()));
        if !matches {
            let got = r.error.as_ref().map_or_else(
                || "no error".to_owned(),
                |e| match &e.code {
                    Some(c) => format!("{} ({c})", e.kind),
                    None => e.kind.clone(),
                },
            );
            failed.push(format!("errorType {want:?}: got {got}"));
        }
    }
    if let Some(contains) = &expect.contains {
        let text = result_text(r);
        for needle in contains.items() {
            if !text.contains(needle) {
                failed.push(format!("contains {needle:?}: not in the result"));
            }
        }
    }
    if let Some(want) = &expect.equals {
        let got = r.result.as_ref().unwrap_or(&Value::Null);
        if got != want {
            failed.push(format!(
                "equals {}: got {}",
                excerpt(&serde_json::to_string(want).unwrap_or_default(), 120),
                excerpt(&serde_json::to_string(got).unwrap_or_default(), 120)
            ));
        }
    }
    if let Some(max) = expect.max_duration_ms
        && r.duration_ms > max
    {
        failed.push(format!("maxDurationMs {max}: took {} ms", r.duration_ms));
    }
    if let Some(max) = expect.max_peak_rss_mb {
        match r.peak_rss_mb {
            Some(peak) if peak <= max => {}
            Some(peak) => failed.push(format!("maxPeakRssMB {max}: peaked at {peak} MiB")),
            None => failed.push(format!("maxPeakRssMB {max}: peak memory was not measured")),
        }
    }
    failed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::exec::ExecError;
    use crate::suite::execution::Contains;
    use serde_json::json;

    fn ok(result: Value) -> ExecReport {
        ExecReport {
            version: 1,
            kind: "exec".into(),
            tool: "t".into(),
            runtime: "node".into(),
            entry: "e.mjs".into(),
            status: ExecStatus::Ok,
            ok: true,
            result: Some(result),
            error: None,
            reasons: vec![],
            duration_ms: 40,
            wall_ms: 90,
            peak_rss_mb: Some(42.0),
            logs: String::new(),
            isolation: None,
        }
    }

    #[test]
    fn contains_matches_a_string_result_as_written_and_others_as_json() {
        let e = Expect {
            contains: Some(Contains::All(vec!["hello".into(), "bye".into()])),
            ..Expect::default()
        };
        assert!(check(&e, &ok(json!("hello and bye"))).is_empty());
        let failed = check(&e, &ok(json!({"greeting": "hello"})));
        assert_eq!(
            failed,
            vec!["contains \"bye\": not in the result".to_owned()]
        );
    }

    #[test]
    fn error_type_matches_the_type_or_the_code_and_implies_not_ok() {
        let mut r = ok(json!(null));
        r.ok = false;
        r.status = ExecStatus::Error;
        r.result = None;
        r.error = Some(ExecError {
            kind: "Error".into(),
            code: Some("ERR_ACCESS_DENIED".into()),
            message: "denied".into(),
        });
        let by_code = Expect {
            error_type: Some("ERR_ACCESS_DENIED".into()),
            ..Expect::default()
        };
        assert!(check(&by_code, &r).is_empty());
        let wrong = Expect {
            error_type: Some("TypeError".into()),
            ..Expect::default()
        };
        assert_eq!(check(&wrong, &r).len(), 1);
        // No expectation at all still asks that it returned.
        assert_eq!(check(&Expect::default(), &r).len(), 1);
    }

    #[test]
    fn limits_and_unfinished_calls_fail() {
        let e = Expect {
            max_duration_ms: Some(10),
            max_peak_rss_mb: Some(41.5),
            equals: Some(json!(1)),
            ..Expect::default()
        };
        assert_eq!(check(&e, &ok(json!(1))).len(), 2);
        let mut timeout = ok(json!(1));
        timeout.status = ExecStatus::Timeout;
        let failed = check(&Expect::default(), &timeout);
        assert!(failed[0].contains("timeout"), "{failed:?}");
    }
}
