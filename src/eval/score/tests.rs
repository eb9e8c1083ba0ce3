//! Tests of `eval::score`.

use serde_json::json;

use super::*;
use crate::providers::{ErrorKind, Usage};
use crate::surface::{Confidence, Origin};

fn tool(name: &str, schema: Value) -> Tool {
    let mut t = Tool::named(name, Origin::default(), Confidence::High);
    t.input_schema = Some(schema);
    t
}

fn surface() -> Vec<Tool> {
    vec![
        tool(
            "search",
            json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}),
        ),
        tool(
            "create",
            json!({"type": "object", "properties": {"title": {"type": "string"}}}),
        ),
        tool("delete", json!({"type": "object", "properties": {}})),
    ]
}

/// A reviewed case built the way a suite file would give it (so fields added to `Case`
/// later keep their defaults).
fn case(id: &str, expected: Option<&str>) -> Case {
    serde_json::from_value(json!({
        "id": id,
        "input": format!("input of {id}"),
        "expectedTool": expected,
    }))
    .expect("a valid case")
}

fn call(name: &str, args: Value) -> Call {
    Call {
        name: Some(name.into()),
        arguments: Some(args),
        raw_arguments: None,
    }
}

fn reply(calls: Vec<Call>) -> Result<Reply, TrialError> {
    Ok(Reply {
        calls,
        text: None,
        usage: None,
    })
}

fn names(tools: &[Tool]) -> BTreeSet<&str> {
    tools.iter().map(|t| t.name.as_str()).collect()
}

fn nameless() -> Call {
    Call {
        name: None,
        arguments: Some(json!({})),
        raw_arguments: None,
    }
}

#[test]
fn every_verdict() {
    let tools = surface();
    let names = names(&tools);
    let must = case("c", Some("search"));
    let must_not = case("n", None);
    let s = || call("search", json!({"q": "x"}));
    let c = || call("create", json!({}));
    let ghost = || call("ghost", json!({}));
    let v = |case: &Case, outcome| verdict(case, &names, &outcome);

    let error = Err(TrialError::new(ErrorKind::Timeout, "no answer"));
    assert_eq!(v(&must, error.clone()), Verdict::Error);
    assert_eq!(v(&must_not, error), Verdict::Error);
    assert_eq!(v(&must, reply(vec![])), Verdict::Abstained);
    assert_eq!(v(&must, reply(vec![s()])), Verdict::Correct);
    assert_eq!(v(&must, reply(vec![s(), s()])), Verdict::Correct);
    assert_eq!(
        v(&must, reply(vec![s(), c()])),
        Verdict::UnexpectedAdditionalCalls
    );
    assert_eq!(
        v(&must, reply(vec![c(), s()])),
        Verdict::UnexpectedAdditionalCalls
    );
    assert_eq!(v(&must, reply(vec![c()])), Verdict::WrongTool);
    assert_eq!(v(&must, reply(vec![c(), c()])), Verdict::WrongTool);
    assert_eq!(v(&must, reply(vec![ghost()])), Verdict::Phantom);
    assert_eq!(v(&must, reply(vec![s(), ghost()])), Verdict::Phantom);
    assert_eq!(v(&must, reply(vec![nameless()])), Verdict::Phantom);
    assert_eq!(v(&must_not, reply(vec![])), Verdict::CorrectAbstention);
    assert_eq!(v(&must_not, reply(vec![s()])), Verdict::OverTriggered);
    assert_eq!(v(&must_not, reply(vec![ghost()])), Verdict::OverTriggered);
}

#[test]
fn a_case_without_expected_tool_is_never_correct() {
    let tools = surface();
    let mut unstated = case("u", None);
    unstated.expected_tool = None;
    let outcome = reply(vec![call("search", json!({"q": "x"}))]);
    assert_eq!(
        verdict(&unstated, &names(&tools), &outcome),
        Verdict::WrongTool
    );
}

#[test]
fn picked_labels() {
    let tools = surface();
    let names = names(&tools);
    let label = |calls| match reply(calls) {
        Ok(r) => picked_label(&names, &r),
        Err(_) => unreachable!(),
    };
    let s = || call("search", json!({}));
    assert_eq!(label(vec![]), "(none)");
    assert_eq!(label(vec![s()]), "search");
    assert_eq!(label(vec![s(), s()]), "search");
    assert_eq!(label(vec![s(), call("delete", json!({}))]), "(multiple)");
    assert_eq!(label(vec![s(), call("ghost", json!({}))]), "(phantom)");
    assert_eq!(label(vec![nameless()]), "(phantom)");
}

fn record(
    case: &str,
    trial: u32,
    order: &[&str],
    outcome: Result<Reply, TrialError>,
) -> TrialRecord {
    TrialRecord {
        model: "m".into(),
        case_id: case.into(),
        trial,
        order: order.iter().map(|s| (*s).to_owned()).collect(),
        outcome,
        latency_ms: None,
        retries: 0,
        cached: false,
    }
}

#[test]
fn score_trial_checks_the_first_call_to_the_expected_tool() {
    let tools = surface();
    let mut c = case("c", Some("search"));
    c.expected_args = Some(json!({"q": {"$contains": "paris"}}));
    let order = ["search", "create", "delete"];
    let both = record(
        "c",
        0,
        &order,
        reply(vec![
            call("create", json!({})),
            call("search", json!({"q": "Paris"})),
            call("search", json!({"q": "Rome"})),
        ]),
    );
    let score = score_trial(&c, &tools, &both);
    assert_eq!(score.verdict, Verdict::UnexpectedAdditionalCalls);
    assert_eq!(score.picked.as_deref(), Some("(multiple)"));
    assert_eq!(score.args.map(|a| a.ok), Some(true));

    let wrong_args = record(
        "c",
        1,
        &order,
        reply(vec![call("search", json!({"query": 1}))]),
    );
    let score = score_trial(&c, &tools, &wrong_args);
    assert_eq!(score.verdict, Verdict::Correct);
    let args = score.args.expect("checked");
    assert!(!args.ok);
    assert_eq!(
        args.problems,
        [
            "/q: required by `search` but missing",
            "/query: not a parameter of `search` (hallucinated name)",
            "/q: missing; expected a value for $contains",
        ]
    );

    let wrong_tool = record("c", 2, &order, reply(vec![call("create", json!({}))]));
    let score = score_trial(&c, &tools, &wrong_tool);
    assert_eq!(score.verdict, Verdict::WrongTool);
    assert_eq!(score.args, None);

    let error = record("c", 3, &order, Err(TrialError::new(ErrorKind::Http, "500")));
    let score = score_trial(&c, &tools, &error);
    assert_eq!(
        score,
        TrialScore {
            verdict: Verdict::Error,
            picked: None,
            args: None
        }
    );
}

fn with_usage(calls: Vec<Call>, input: u64, output: u64) -> Result<Reply, TrialError> {
    Ok(Reply {
        calls,
        text: None,
        usage: Some(Usage {
            input_tokens: input,
            output_tokens: output,
        }),
    })
}

/// A small run with every verdict; the expected numbers are worked out by hand in the
/// comments.
fn hand_made() -> (Vec<Case>, Vec<Tool>, Vec<TrialRecord>) {
    let tools = surface();
    let mut c1 = case("c1", Some("search"));
    c1.expected_args = Some(json!({"q": {"$contains": "paris"}}));
    let c2 = case("c2", Some("create"));
    let c3 = case("c3", None);
    let mut c4 = case("c4", Some("search"));
    c4.reviewed = false;
    let s = |q: &str| call("search", json!({ "q": q }));
    let timed = |mut r: TrialRecord, ms: u64| {
        r.latency_ms = Some(ms);
        r
    };
    let o1 = ["search", "create", "delete"];
    let o2 = ["create", "search", "delete"];
    let o3 = ["create", "delete", "search"];
    let o4 = ["delete", "create", "search"];
    let o5 = ["delete", "search", "create"];
    let mut cached = timed(record("c2", 2, &o5, with_usage(vec![], 100, 5)), 50);
    cached.cached = true;
    let mut retried = record("c2", 1, &o1, Err(TrialError::new(ErrorKind::Timeout, "t")));
    retried.retries = 2;
    let records = vec![
        // c1 (search): correct+args ok (first), correct+args fail (middle),
        // wrong-tool (last), correct with two calls, args ok (last).
        timed(
            record("c1", 0, &o1, with_usage(vec![s("Paris hotels")], 100, 10)),
            100,
        ),
        timed(
            record("c1", 1, &o2, with_usage(vec![s("London")], 100, 10)),
            200,
        ),
        timed(
            record(
                "c1",
                2,
                &o3,
                with_usage(vec![call("create", json!({"title": "x"}))], 100, 10),
            ),
            300,
        ),
        timed(
            record("c1", 3, &o4, with_usage(vec![s("paris"), s("x")], 100, 10)),
            900,
        ),
        // c2 (create): unexpected-additional-calls (middle), error, abstained (last,
        // cached), phantom (middle).
        timed(
            record(
                "c2",
                0,
                &o1,
                with_usage(
                    vec![
                        call("create", json!({"title": "a"})),
                        call("delete", json!({})),
                    ],
                    100,
                    20,
                ),
            ),
            400,
        ),
        retried,
        cached,
        timed(
            record(
                "c2",
                3,
                &o1,
                with_usage(vec![call("ghost", json!({}))], 100, 10),
            ),
            800,
        ),
        // c3 (must not call): correct-abstention, over-triggered by a phantom call.
        timed(record("c3", 0, &o1, with_usage(vec![], 50, 5)), 500),
        timed(
            record(
                "c3",
                1,
                &o1,
                with_usage(vec![call("ghost", json!({}))], 50, 5),
            ),
            600,
        ),
        // c4 (unreviewed): correct, error.
        timed(record("c4", 0, &o1, with_usage(vec![s("a")], 10, 1)), 700),
        record(
            "c4",
            1,
            &o1,
            Err(TrialError::new(ErrorKind::Malformed, "m")),
        ),
        // Unknown case: ignored.
        record("gone", 0, &o1, reply(vec![])),
    ];
    (vec![c1, c2, c3, c4], tools, records)
}

fn rate(k: u64, n: u64) -> Rate {
    Rate::new(k, n)
}

#[test]
fn metrics_on_a_hand_made_run() {
    let (cases, tools, records) = hand_made();
    let price = Price {
        input: 2.0,
        output: 10.0,
        currency: "EUR".into(),
    };
    let m = metrics(&cases, &tools, &records, Some(&price));

    assert_eq!((m.trials, m.errors, m.cached, m.retries), (12, 2, 1, 2));
    assert_eq!(m.error_rate, rate(2, 12));
    // 10 reviewed trials, one of them an error.
    assert_eq!(m.scored, 9);
    assert_eq!(m.distinct_cases, 3);
    // correct ×3 + correct-abstention ×1.
    assert_eq!(m.selection_accuracy, rate(4, 9));
    // c1 3/4 → majority; c2 0/3 → no; c3 1/2 → tie, not correct.
    assert_eq!(
        m.case_level,
        CaseLevelRate {
            cases: 3,
            ties: 1,
            rate: rate(1, 3)
        }
    );
    // Correct trials: c1t0 ok, c1t1 "London" fails $contains, c1t3 first call ok.
    assert_eq!(m.argument_accuracy, rate(2, 3));
    // Must-call scored: c1 ×4 + c2 ×3; one abstained.
    assert_eq!(m.abstention, rate(1, 7));
    assert_eq!(m.over_trigger, rate(1, 2));
    // The phantom call on c3 is over-triggering, not a phantom verdict.
    assert_eq!(m.phantom, rate(1, 9));
    assert_eq!(m.multi_call, rate(2, 9));

    let verdicts: Vec<(&str, u64)> = m.verdicts.iter().map(|(v, n)| (v.as_str(), *n)).collect();
    assert_eq!(
        verdicts,
        [
            ("error", 1),
            ("correct", 3),
            ("wrong-tool", 1),
            ("phantom", 1),
            ("abstained", 1),
            ("correct-abstention", 1),
            ("over-triggered", 1),
            ("unexpected-additional-calls", 1),
        ]
    );

    let tool = |name: &str| {
        m.per_tool
            .iter()
            .find(|t| t.tool == name)
            .cloned()
            .expect("listed")
    };
    let listed: Vec<&str> = m.per_tool.iter().map(|t| t.tool.as_str()).collect();
    assert_eq!(listed, ["create", "delete", "search"]);
    assert_eq!(
        tool("search"),
        ToolMetrics {
            tool: "search".into(),
            on_surface: true,
            cases: 1,
            accuracy: rate(3, 4),
            picked: 3,
            picked_wrongly: 0,
            argument_accuracy: rate(2, 3),
        }
    );
    assert_eq!(
        tool("create"),
        ToolMetrics {
            tool: "create".into(),
            on_surface: true,
            cases: 1,
            accuracy: rate(0, 3),
            picked: 2,
            picked_wrongly: 1,
            argument_accuracy: rate(0, 0),
        }
    );
    assert_eq!(
        tool("delete"),
        ToolMetrics {
            tool: "delete".into(),
            on_surface: true,
            cases: 0,
            accuracy: rate(0, 0),
            picked: 1,
            picked_wrongly: 1,
            argument_accuracy: rate(0, 0),
        }
    );

    assert_eq!(m.confusion.rows, ["create", "search", "(none)"]);
    assert_eq!(
        m.confusion.columns,
        [
            "create",
            "delete",
            "search",
            "(none)",
            "(phantom)",
            "(multiple)"
        ]
    );
    assert_eq!(
        m.confusion.counts,
        [
            vec![0, 0, 0, 1, 1, 1],
            vec![1, 0, 3, 0, 0, 0],
            vec![0, 0, 0, 1, 1, 0],
        ]
    );
    let pairs: Vec<(&str, &str, u64)> = m
        .confusion_pairs
        .iter()
        .map(|p| (p.expected.as_str(), p.picked.as_str(), p.count))
        .collect();
    assert_eq!(
        pairs,
        [
            ("(none)", "(phantom)", 1),
            ("create", "(multiple)", 1),
            ("create", "(none)", 1),
            ("create", "(phantom)", 1),
            ("search", "create", 1),
        ]
    );

    // first: c1t0 ✓. middle: c1t1 ✓, c2t0 ✗, c2t3 ✗. last: c1t2 ✗, c1t3 ✓, c2t2 ✗.
    assert_eq!(
        m.position,
        PositionSensitivity {
            first: rate(1, 1),
            middle: rate(1, 3),
            last: rate(1, 3),
            by_index: vec![rate(1, 1), rate(1, 3), rate(1, 3)],
        }
    );

    // Not cached, with latency: 100..=900 by hundreds (the cached 50 is left out).
    assert_eq!(
        m.latency_ms,
        Some(Latency {
            p50: 500,
            p95: 900,
            n: 9
        })
    );
    assert_eq!(
        m.tokens,
        Tokens {
            input: 810,
            output: 86,
            trials_with_usage: 10
        }
    );
    let cost = m.cost.expect("priced, every answer has usage");
    assert!((cost.amount - 0.00248).abs() < 1e-12, "{}", cost.amount);
    assert_eq!(cost.currency, "EUR");

    assert_eq!(
        m.unreviewed,
        Some(Unreviewed {
            cases: 1,
            trials: 2,
            errors: 1,
            scored: 1,
            selection_accuracy: rate(1, 1),
        })
    );
}

#[test]
fn cost_is_unknown_without_price_or_with_missing_usage() {
    let (cases, tools, mut records) = hand_made();
    assert_eq!(metrics(&cases, &tools, &records, None).cost, None);
    records.push(record("c3", 2, &["search"], reply(vec![])));
    let price = Price {
        input: 1.0,
        output: 1.0,
        currency: "USD".into(),
    };
    let m = metrics(&cases, &tools, &records, Some(&price));
    assert_eq!(m.cost, None);
    assert_eq!(m.tokens.trials_with_usage, 10);
}

#[test]
fn no_trials_means_every_rate_is_unmeasured() {
    let tools = surface();
    let m = metrics(&[case("c1", Some("search"))], &tools, &[], None);
    assert_eq!(m.trials, 0);
    for r in [
        m.error_rate,
        m.selection_accuracy,
        m.case_level.rate,
        m.argument_accuracy,
        m.abstention,
        m.over_trigger,
        m.phantom,
        m.multi_call,
    ] {
        assert_eq!(r.value, None);
        assert_eq!(r.ci95, None);
    }
    assert_eq!(m.latency_ms, None);
    assert_eq!(m.unreviewed, None);
    assert!(m.confusion.rows.is_empty());
    assert!(m.verdicts.values().all(|&n| n == 0));
    assert_eq!(m.verdicts.len(), Verdict::ALL.len());
}

#[test]
fn expected_tool_missing_from_the_surface_gets_a_row_and_an_entry() {
    let tools = surface();
    let m = metrics(
        &[case("c", Some("archive"))],
        &tools,
        &[record(
            "c",
            0,
            &["search"],
            reply(vec![call("search", json!({"q": "x"}))]),
        )],
        None,
    );
    let archive = m
        .per_tool
        .iter()
        .find(|t| t.tool == "archive")
        .expect("listed");
    assert!(!archive.on_surface);
    assert_eq!(archive.accuracy, rate(0, 1));
    assert_eq!(m.confusion.rows, ["archive"]);
    assert_eq!(m.position.by_index, Vec::<Rate>::new());
}

#[test]
fn metrics_json_is_camel_case_and_stable() {
    let (cases, tools, records) = hand_made();
    let m = metrics(&cases, &tools, &records, None);
    let json = serde_json::to_value(&m).expect("serializes");
    for key in [
        "errorRate",
        "selectionAccuracy",
        "caseLevel",
        "argumentAccuracy",
        "overTrigger",
        "multiCall",
        "perTool",
        "confusionPairs",
        "latencyMs",
        "distinctCases",
    ] {
        assert!(json.get(key).is_some(), "missing {key}");
    }
    assert_eq!(json["cost"], Value::Null);
    assert_eq!(json["perTool"][0]["pickedWrongly"], 1);
    assert_eq!(json["position"]["byIndex"][0]["denominator"], 1);
    let again =
        serde_json::to_string(&metrics(&cases, &tools, &records, None)).expect("serializes");
    assert_eq!(serde_json::to_string(&m).expect("serializes"), again);
}
