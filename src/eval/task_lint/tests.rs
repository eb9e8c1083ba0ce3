//! Tests of `eval::task_lint`.

use super::*;

fn tool(name: &str, params: &[&str]) -> Tool {
    let props: serde_json::Map<String, serde_json::Value> = params
        .iter()
        .map(|p| ((*p).to_owned(), serde_json::json!({"type": "string"})))
        .collect();
    let mut t = Tool::named(
        name,
        crate::surface::Origin::default(),
        crate::surface::Confidence::High,
    );
    t.description = Some("A tool that does one thing well.".into());
    t.input_schema = Some(serde_json::json!({
        "type": "object", "properties": props, "additionalProperties": false
    }));
    t
}

fn suite(cases: &str) -> Suite {
    let mut s: Suite =
        serde_json::from_str(&format!(r#"{{"name":"s","cases":{cases}}}"#)).expect("suite");
    for (i, c) in s.cases.iter_mut().enumerate() {
        c.line = Some(10 + i as u32);
    }
    s
}

fn codes(r: &TasksLintReport) -> Vec<(&str, Option<&str>)> {
    r.findings
        .iter()
        .map(|f| (f.code.as_str(), f.case.as_deref()))
        .collect()
}

#[test]
fn every_rule_fires_on_the_case_it_is_about() {
    let s = suite(
        r#"[
        {"id":"a","input":"find tickets about refunds","expectedTool":"search_tikets"},
        {"id":"b","input":"Find tickets  about REFUNDS","expectedTool":"search_tickets"},
        {"id":"c","input":"please run search_tickets now","expectedTool":"search_tickets",
         "expectedArgs":{"querry":"x"}},
        {"id":"d","input":"hello there","expectedTool":null,"reviewed":false},
        {"id":"d","input":"hello there","expectedTool":null}
    ]"#,
    );
    let tools = [
        tool("search_tickets", &["query"]),
        tool("close_ticket", &["id"]),
    ];
    let r = lint(&s, "s.json", &tools, "tools.json");
    let got = codes(&r);
    for want in [
        ("unknown-expected-tool", Some("a")),
        ("conflicting-input", Some("b")),
        ("unknown-argument", Some("c")),
        ("input-names-tool", Some("c")),
        ("duplicate-id", Some("d")),
        ("unreviewed-case", Some("d")),
        ("too-few-cases", None),
    ] {
        assert!(got.contains(&want), "{want:?} missing from {got:?}");
    }
    let typo = &r.findings[0];
    assert_eq!(typo.code, "unknown-expected-tool");
    assert_eq!(typo.line, Some(10));
    assert!(
        typo.message.contains("\"search_tikets\"")
            && typo.message.contains("did you mean \"search_tickets\""),
        "{}",
        typo.message
    );
    let arg = r.findings.iter().find(|f| f.code == "unknown-argument");
    assert!(
        arg.is_some_and(|f| f.message.contains("did you mean \"query\"")),
        "{arg:?}"
    );
    // 1 of 4 reviewed cases is must-not-call: 25% meets the guidance.
    assert!(
        !got.iter().any(|(c, _)| *c == "must-not-call-share"),
        "{got:?}"
    );
    assert_eq!(r.summary.errors, 4, "{got:?}");
    // Errors first.
    let sev: Vec<Severity> = r.findings.iter().map(|f| f.severity).collect();
    let mut sorted = sev.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(sev, sorted);
}

#[test]
fn variants_of_one_case_are_not_duplicates_and_single_words_are_not_verbatim_names() {
    let s = suite(
        r#"[
        {"id":"a","input":"search for refunds","expectedTool":"search"},
        {"id":"a-m1","input":"SEARCH for refunds","expectedTool":"search",
         "reviewed":false,"source":"mutate","mutatedFrom":"a","mutation":"casing"},
        {"id":"z-m1","input":"look up z","expectedTool":"search",
         "reviewed":false,"source":"mutate","mutatedFrom":"z","mutation":"casing"}
    ]"#,
    );
    let r = lint(&s, "s.json", &[tool("search", &[])], "t");
    let got = codes(&r);
    assert!(
        got.contains(&("variant-without-original", Some("z-m1"))),
        "{got:?}"
    );
    assert!(
        !got.contains(&("variant-without-original", Some("a-m1"))),
        "{got:?}"
    );
    assert!(!got.iter().any(|(c, _)| *c == "duplicate-input"), "{got:?}");
    assert!(
        !got.iter().any(|(c, _)| *c == "input-names-tool"),
        "{got:?}"
    );
    assert_eq!(r.summary.errors, 0);
}

#[test]
fn a_suite_that_meets_the_guidance_has_no_guidance_findings() {
    let mut cases: Vec<String> = (0..3)
        .map(|i| {
            format!(r#"{{"id":"a{i}","input":"look up order {i}","expectedTool":"get_order"}}"#)
        })
        .collect();
    cases.push(r#"{"id":"n","input":"tell me a joke","expectedTool":null}"#.into());
    let r = lint(
        &suite(&format!("[{}]", cases.join(","))),
        "s.json",
        &[tool("get_order", &["id"])],
        "t",
    );
    assert!(r.findings.is_empty(), "{:?}", codes(&r));
    cases.pop();
    let short = lint(
        &suite(&format!("[{}]", cases.join(","))),
        "s.json",
        &[tool("get_order", &["id"])],
        "t",
    );
    let share = &short.findings[0];
    assert_eq!(
        (share.code.as_str(), share.line),
        ("must-not-call-share", None)
    );
    assert!(
        share.message.starts_with("0 of 3 reviewed cases (0%)")
            && share.message.contains("about 1 more"),
        "{}",
        share.message
    );
    assert!(names_verbatim("call Get_Order.", "get_order"));
    assert!(!names_verbatim("call get_orders", "get_order"));
}

#[test]
fn every_rule_has_a_summary_and_a_fix() {
    for r in TASK_RULES {
        assert!(!r.summary.is_empty() && !r.fix.is_empty(), "{}", r.code);
        assert_eq!(find(r.code).map(|f| f.code), Some(r.code));
    }
}
