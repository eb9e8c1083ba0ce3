//! The JSON that `mf lint`, `mf cluster`, `mf eval`, `mf compare` and `mf ci` write validates
//! against the committed JSON Schemas in `schemas/` (the machine form of SCHEMA.md), with unknown
//! fields refused, so the types and the documented contract cannot drift apart unnoticed.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::git::git;
use crate::support::{
    chat_server, fixture_json, machine_ci_vars, mf, mf_in, planted, root, server_arg, stdout_json,
    write_json,
};

fn validator(name: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("schemas").join(name)).expect("schema");
    let schema: Value = serde_json::from_str(&text).expect("schema JSON");
    jsonschema::draft202012::meta::validate(&schema).expect("schema is valid 2020-12");
    jsonschema::draft202012::new(&schema).expect("schema compiles")
}

fn output(args: &[&str]) -> Value {
    stdout_json(&mf().args(args).output().expect("runs"))
}

fn inputs() -> Vec<String> {
    let mut v: Vec<String> = ["filesystem", "memory", "everything"]
        .into_iter()
        .map(server_arg)
        .collect();
    v.push(
        root()
            .join("examples/acme-support")
            .to_string_lossy()
            .into_owned(),
    );
    v
}

fn assert_valid(validator: &jsonschema::Validator, doc: &Value, what: &str) {
    let errors: Vec<String> = validator
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:#?}");
}

#[test]
fn lint_json_matches_its_schema() {
    let v = validator("lint-report.schema.json");
    for input in inputs() {
        let doc = output(&["lint", "--format", "json", "--fail-on", "never", &input]);
        assert_valid(&v, &doc, &input);
    }
    // The schema is not vacuous: a drifted field is refused.
    let mut doc = output(&[
        "lint",
        "--format",
        "json",
        "--fail-on",
        "never",
        &inputs()[0],
    ]);
    doc["findings"][0]["severity"] = Value::from("warning");
    assert!(!v.is_valid(&doc));
    doc["findings"][0]["severity"] = Value::from("warn");
    doc["summary"]["extra"] = Value::from(1);
    assert!(!v.is_valid(&doc));
}

#[test]
fn cluster_json_matches_its_schema() {
    let v = validator("cluster-report.schema.json");
    for input in inputs() {
        let doc = output(&["cluster", "--format", "json", &input]);
        assert_valid(&v, &doc, &input);
        assert!(
            !doc["clusters"].as_array().expect("clusters").is_empty()
                || input.contains("everything"),
            "{input}"
        );
    }
    let mut doc = output(&["cluster", "--format", "json", &inputs()[0]]);
    doc["riskyPairs"][0]["basis"] = Value::from("vibes");
    assert!(!v.is_valid(&doc));
}

/// Run `mf eval ARGS`; the exit code and the scorecard it printed.
fn eval_card<I, S>(args: I) -> (Option<i32>, Value)
where
    I: IntoIterator<Item = S>,
    S: Into<OsString>,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let out = mf().arg("eval").args(&args).output().expect("runs");
    let card = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "mf eval {args:?}: stdout is not JSON ({e})\nstdout: {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code(), card)
}

/// Every trial row of every model.
fn trials(card: &Value) -> Vec<&Value> {
    card["models"]
        .as_array()
        .expect("models")
        .iter()
        .flat_map(|m| m["trials"].as_array().expect("trials"))
        .collect()
}

/// A valid scorecard with one field changed by `edit` must be refused.
fn assert_refused(
    v: &jsonschema::Validator,
    card: &Value,
    what: &str,
    edit: impl FnOnce(&mut Value),
) {
    let mut doc = card.clone();
    edit(&mut doc);
    assert!(
        !v.is_valid(&doc),
        "the schema accepts a scorecard with {what}"
    );
}

#[test]
fn eval_scorecard_of_the_example_matches_its_schema() {
    let v = validator("scorecard.schema.json");
    let (code, card) = eval_card([
        "--suite",
        "examples/acme-support/mf.suite.yaml",
        "--models",
        "lexical,mock",
        "--format",
        "json",
        "--no-cache",
    ]);
    assert_eq!(code, Some(0));
    assert_valid(&v, &card, "acme-support, lexical + mock");
    // The run exercises what it is here for: both models, an unreviewed case, the mock's text,
    // tags and lines, must-not-call cases.
    assert_eq!(card["models"].as_array().expect("models").len(), 2);
    assert!(card["models"][0]["metrics"]["unreviewed"].is_object());
    let cases = card["suite"]["cases"].as_array().expect("cases");
    assert!(cases.iter().any(|c| c["reviewed"] == false));
    assert!(cases.iter().any(|c| c["expectedTool"].is_null()));
    assert!(
        cases
            .iter()
            .any(|c| c["line"].is_u64() && c["tags"].is_array())
    );
    assert!(trials(&card).iter().any(|t| t["text"].is_string()));

    // The schema is not vacuous: unknown fields and drifted values are refused.
    assert_refused(&v, &card, "an unknown top-level field", |d| {
        d["extra"] = json!(1);
    });
    assert_refused(&v, &card, "an unknown verdict", |d| {
        d["models"][0]["trials"][0]["verdict"] = json!("wrong_tool");
    });
    assert_refused(&v, &card, "an unknown key in the verdict counts", |d| {
        d["models"][0]["metrics"]["verdicts"]["partly-correct"] = json!(0);
    });
    assert_refused(&v, &card, "a verdict count left out", |d| {
        let verdicts = d["models"][0]["metrics"]["verdicts"]
            .as_object_mut()
            .expect("verdicts");
        verdicts.remove("unexpected-additional-calls");
    });
    assert_refused(&v, &card, "an unknown field in a rate", |d| {
        d["models"][0]["metrics"]["selectionAccuracy"]["percent"] = json!(68.75);
    });
    assert_refused(&v, &card, "a one-sided interval", |d| {
        d["models"][0]["metrics"]["selectionAccuracy"]["ci95"] = json!([0.5]);
    });
    assert_refused(&v, &card, "a rate above 1", |d| {
        d["models"][0]["metrics"]["selectionAccuracy"]["value"] = json!(1.5);
    });
    assert_refused(&v, &card, "an unknown status", |d| {
        d["status"] = json!("passed");
    });
    assert_refused(&v, &card, "an unknown gate kind", |d| {
        d["gates"][0]["kind"] = json!("budget");
    });
    assert_refused(&v, &card, "a null `tags` instead of leaving it out", |d| {
        d["suite"]["cases"][0]["tags"] = Value::Null;
    });
    assert_refused(&v, &card, "snake_case field names", |d| {
        let timing = d["timing"].as_object_mut().expect("timing");
        let wall = timing.remove("wallMs").expect("wallMs");
        timing.insert("wall_ms".into(), wall);
    });
}

/// A three-tool MCP `tools/list` result, a three-case suite and a script, in `dir`.
fn scripted_files(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let tools = json!({"tools": [
        {"name": "issue_refund", "description": "Refund a paid order to the customer.",
         "inputSchema": {"type": "object",
                         "properties": {"order_id": {"type": "string"}, "amount": {"type": "number"}},
                         "required": ["order_id"]}},
        {"name": "search_tickets", "description": "Search support tickets by text.",
         "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}},
                         "required": ["query"]}},
        {"name": "get_invoice", "description": "Fetch one invoice by its number.",
         "inputSchema": {"type": "object", "properties": {"number": {"type": "string"}}}}
    ]});
    let suite = json!({"version": 1, "name": "schema-scripted", "cases": [
        {"id": "refund", "input": "refund order A-1", "expectedTool": "issue_refund",
         "expectedArgs": {"order_id": {"$contains": "A-1"}}, "tags": ["billing"]},
        {"id": "tickets", "input": "find login tickets", "expectedTool": "search_tickets"},
        {"id": "thanks", "input": "thanks, that is all", "expectedTool": null}
    ]});
    // Trial 0 / trial 1 of each case: args with a hallucinated name / raw (non-JSON) args;
    // a refusal / a nameless call; no call / a raw-argument call to a name not on the surface.
    let script = json!({
        "refund order A-1": [
            {"calls": [{"name": "issue_refund", "arguments": {"order_id": "A-1", "extra": 1}}]},
            {"calls": [{"name": "issue_refund", "arguments": "{not json"}]}
        ],
        "find login tickets": [{"error": "refusal"}, {"calls": [{"arguments": {}}]}],
        "thanks, that is all": [null, {"calls": [{"name": "x", "arguments": "{not json"}]}]
    });
    let write = |name: &str, v: &Value| {
        let path = dir.join(name);
        write_json(&path, v);
        path
    };
    (
        write("tools.json", &tools),
        write("suite.json", &suite),
        write("script.json", &script),
    )
}

#[test]
fn eval_scorecard_with_errors_and_raw_arguments_matches_its_schema() {
    let v = validator("scorecard.schema.json");
    let dir = tempfile::tempdir().expect("tmp");
    let (tools, suite, script) = scripted_files(dir.path());
    let mut scripted = OsString::from("scripted:");
    scripted.push(&script);
    let base: Vec<OsString> = vec![
        tools.into_os_string(),
        "--suite".into(),
        suite.into_os_string(),
        "--models".into(),
        scripted,
        "--format".into(),
        "json".into(),
        "--no-cache".into(),
        "--repeat".into(),
        "2".into(),
    ];

    let (code, card) = eval_card(
        base.iter().cloned().chain(
            [
                "--max-error-rate",
                "1",
                "--min-accuracy",
                "0.9",
                "--max-over-trigger",
                "0",
            ]
            .map(OsString::from),
        ),
    );
    assert_eq!(code, Some(2), "the quality gates fail: {card:#}");
    assert_valid(&v, &card, "scripted run");
    assert_eq!(card["status"], "fail");
    let rows = trials(&card);
    assert_eq!(rows.len(), 6);
    let verdicts: Vec<&str> = rows
        .iter()
        .map(|t| t["verdict"].as_str().expect("verdict"))
        .collect();
    assert_eq!(
        verdicts,
        [
            "correct",
            "correct",
            "error",
            "phantom",
            "correct-abstention",
            "over-triggered"
        ]
    );
    assert_eq!(rows[1]["calls"][0]["rawArguments"], "{not json");
    assert!(rows[1]["calls"][0].get("arguments").is_none());
    assert_eq!(rows[2]["error"]["kind"], "refusal");
    assert!(
        rows[3]["calls"][0].get("name").is_none(),
        "a nameless call has no name"
    );
    assert_eq!(rows[5]["calls"][0]["name"], "x");
    assert_eq!(
        card["models"][0]["health"]["errorsByKind"],
        json!({"refusal": 1})
    );
    assert!(card["suite"]["cases"][2]["expectedTool"].is_null());
    let gates: Vec<&str> = card["gates"]
        .as_array()
        .expect("gates")
        .iter()
        .map(|g| g["name"].as_str().expect("name"))
        .collect();
    assert_eq!(
        gates,
        [
            "max-error-rate",
            "min-scored",
            "min-accuracy",
            "max-over-trigger"
        ]
    );

    // The same run under the default --max-error-rate (0.1) is unhealthy, with its problems.
    let (code, unhealthy) = eval_card(base.iter().cloned());
    assert_eq!(code, Some(5));
    assert_valid(&v, &unhealthy, "unhealthy scripted run");
    assert_eq!(unhealthy["status"], "unhealthy");
    assert!(unhealthy["models"][0]["health"]["problems"].is_array());

    // Calls and errors are checked too.
    assert_refused(
        &v,
        &card,
        "a call with neither arguments nor rawArguments",
        |d| {
            let call = d["models"][0]["trials"][1]["calls"][0]
                .as_object_mut()
                .expect("call");
            call.remove("rawArguments");
        },
    );
    assert_refused(
        &v,
        &card,
        "a call with both arguments and rawArguments",
        |d| {
            d["models"][0]["trials"][1]["calls"][0]["arguments"] = json!({});
        },
    );
    assert_refused(
        &v,
        &card,
        "a null call name instead of leaving it out",
        |d| {
            d["models"][0]["trials"][3]["calls"][0]["name"] = Value::Null;
        },
    );
    assert_refused(&v, &card, "an unknown error kind", |d| {
        d["models"][0]["trials"][2]["error"]["kind"] = json!("rate-limited");
    });
    assert_refused(&v, &card, "an unknown error kind in errorsByKind", |d| {
        d["models"][0]["health"]["errorsByKind"]["rate-limited"] = json!(1);
    });
    assert_refused(&v, &card, "an unknown gate", |d| {
        d["gates"][0]["name"] = json!("max-cost");
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eval_scorecard_of_a_priced_http_model_matches_its_schema() {
    let v = validator("scorecard.schema.json");
    let server = chat_server::start(Duration::from_millis(1), false).await;
    let dir = tempfile::tempdir().expect("tmp");
    let tools = chat_server::write_tools(dir.path());
    let suite = json!({"name": "priced", "cases": [
        {"id": "a", "input": "x [call issue_refund]", "expectedTool": "issue_refund"},
        {"id": "b", "input": "x [refuse]", "expectedTool": "get_ticket"},
        {"id": "n", "input": "x [none]", "expectedTool": null}
    ], "models": {"local": {
        "provider": "vllm", "model": "served-model", "base_url": format!("{}/v1", server.uri()),
        "price": {"input": 0.27, "output": 1.1, "currency": "USD"},
        "temperature": 0, "max_output_tokens": 256
    }}});
    let suite_path = dir.path().join("suite.json");
    std::fs::write(&suite_path, suite.to_string()).expect("suite");
    let args: Vec<OsString> = vec![
        tools.into_os_string(),
        "--suite".into(),
        suite_path.into_os_string(),
        "--models".into(),
        "local".into(),
        "--repeat".into(),
        "2".into(),
        "--max-tools".into(),
        "5".into(),
        "--max-error-rate".into(),
        "0.5".into(),
        "--format".into(),
        "json".into(),
        "--cache-dir".into(),
        dir.path().join("cache").into_os_string(),
    ];
    for run in ["sent", "cached"] {
        let (code, card) = eval_card(args.iter().cloned());
        assert_eq!(code, Some(0), "{run}: {card:#}");
        assert_valid(&v, &card, run);
        let m = &card["models"][0];
        assert_eq!(m["wire"], "openai-chat");
        assert_eq!(m["temperature"], 0.0);
        assert_eq!(m["price"]["currency"], "USD");
        assert_eq!(m["metrics"]["cost"]["currency"], "USD");
        let rows = trials(&card);
        assert!(rows.iter().any(|t| t["usage"].is_object()));
        assert!(rows.iter().any(|t| t["error"]["kind"] == "refusal"));
        if run == "sent" {
            assert!(m["metrics"]["latencyMs"].is_object());
            assert!(rows.iter().all(|t| t["cached"] == false));
        } else {
            assert!(rows.iter().all(|t| t["cached"] == true));
        }
        assert_refused(&v, &card, "a price without a currency", |d| {
            let price = d["models"][0]["price"].as_object_mut().expect("price");
            price.remove("currency");
        });
        assert_refused(&v, &card, "an unknown usage field", |d| {
            let row = d["models"][0]["trials"]
                .as_array_mut()
                .expect("trials")
                .iter_mut()
                .find(|t| t["usage"].is_object())
                .expect("a trial with usage");
            row["usage"]["totalTokens"] = json!(1010);
        });
    }
}

// ---------------------------------------------------------------------------------------------
// Compare and CI documents.

/// Every schema in `schemas/`, each checked against the 2020-12 meta-schema, registered under
/// its `$id` so a relative `$ref` ("scorecard.schema.json#/$defs/rate") resolves offline.
pub(crate) fn linked_validator(name: &str) -> jsonschema::Validator {
    let mut schemas: Vec<(String, Value)> = Vec::new();
    for entry in std::fs::read_dir(root().join("schemas")).expect("schemas/") {
        let path = entry.expect("entry").path();
        let file = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("file name")
            .to_owned();
        if !file.ends_with(".schema.json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("schema");
        let schema: Value = serde_json::from_str(&text).expect("schema JSON");
        jsonschema::draft202012::meta::validate(&schema)
            .unwrap_or_else(|e| panic!("{file} is not valid 2020-12: {e}"));
        let id = schema["$id"].as_str().expect("$id").to_owned();
        assert!(id.ends_with(&format!("/{file}")), "{file}: $id {id}");
        schemas.push((file, schema));
    }
    let registry = jsonschema::Registry::new()
        .extend(
            schemas
                .iter()
                .map(|(_, s)| (s["$id"].as_str().expect("$id"), s)),
        )
        .expect("schema ids are URIs")
        .prepare()
        .expect("registry");
    let (_, schema) = schemas
        .iter()
        .find(|(file, _)| file == name)
        .unwrap_or_else(|| panic!("no schemas/{name}"));
    jsonschema::draft202012::options()
        .with_registry(&registry)
        .build(schema)
        .unwrap_or_else(|e| panic!("{name} compiles: {e}"))
}

/// A document valid before `edit` must be refused after it.
fn assert_doc_refused(
    v: &jsonschema::Validator,
    doc: &Value,
    what: &str,
    edit: impl FnOnce(&mut Value),
) {
    let mut doc = doc.clone();
    edit(&mut doc);
    assert!(
        !v.is_valid(&doc),
        "the schema accepts a document with {what}"
    );
}

#[test]
fn compare_json_of_two_scorecards_matches_its_schema() {
    let v = linked_validator("compare-report.schema.json");
    let dir = tempfile::tempdir().expect("tmp");
    let d = dir.path();
    planted::write_inputs(d, "schema-compare");
    let base = planted::script("issue_refund", "get_ticket");
    planted::eval(d, "base.json", &base, &[]);
    let head = planted::script("lookup_order", "search_tickets");
    planted::eval(d, "head.json", &head, &[]);

    let out = mf_in(d)
        .args(["compare", "base.json", "head.json", "--format", "json"])
        .output()
        .expect("compare");
    assert_eq!(out.status.code(), Some(0));
    let doc = stdout_json(&out);
    assert_valid(&v, &doc, "compare of two scorecards");
    // The run exercises what it is here for: a verdict, all three families, a note.
    assert_eq!(doc["verdict"], "regressed");
    assert!(doc.get("surface").is_none());
    let model = &doc["eval"]["models"][0];
    for family in ["metrics", "tools", "pairs"] {
        assert!(
            !model[family].as_array().expect(family).is_empty(),
            "{family}: {doc:#}"
        );
    }
    let all: Vec<&Value> = ["metrics", "tools", "pairs"]
        .iter()
        .flat_map(|f| model[f].as_array().expect("family"))
        .collect();
    assert!(
        all.iter().any(|m| m["notes"].is_array()),
        "some comparison carries a note: {doc:#}"
    );
    assert!(all.iter().any(|m| m["verdict"] == "insufficient-data"));

    // The schema is not vacuous.
    assert_doc_refused(&v, &doc, "an unknown top-level field", |d| {
        d["extra"] = json!(1);
    });
    assert_doc_refused(&v, &doc, "an unknown top-level verdict", |d| {
        d["verdict"] = json!("worse");
    });
    assert_doc_refused(&v, &doc, "an unknown metric verdict", |d| {
        d["eval"]["models"][0]["metrics"][0]["verdict"] = json!("no-change");
    });
    assert_doc_refused(&v, &doc, "no verdict beside an eval", |d| {
        d.as_object_mut().expect("doc").remove("verdict");
    });
    assert_doc_refused(&v, &doc, "an unknown pairing", |d| {
        d["eval"]["gate"]["pairing"] = json!("model");
    });
    assert_doc_refused(&v, &doc, "a p-value above 1", |d| {
        d["eval"]["models"][0]["metrics"][0]["case"]["p"] = json!(1.5);
    });
    assert_doc_refused(&v, &doc, "a tool comparison without its subject", |d| {
        let t = d["eval"]["models"][0]["tools"][0]
            .as_object_mut()
            .expect("tool");
        t.remove("subject");
    });
    assert_doc_refused(
        &v,
        &doc,
        "a drifted rate (from the scorecard schema)",
        |d| {
            d["eval"]["models"][0]["metrics"][0]["before"]["percent"] = json!(100);
        },
    );
    assert_doc_refused(&v, &doc, "sides that say surface beside an eval", |d| {
        d["base"]["kind"] = json!("surface");
    });
}

#[test]
fn compare_json_of_two_surfaces_matches_its_schema() {
    let v = linked_validator("compare-report.schema.json");
    let out = mf()
        .args([
            "compare",
            "tests/fixtures/servers/filesystem.tools.json",
            "tests/fixtures/compare/filesystem.edited.tools.json",
            "--format",
            "json",
        ])
        .output()
        .expect("compare");
    assert_eq!(out.status.code(), Some(0));
    let doc = stdout_json(&out);
    assert_valid(&v, &doc, "surface diff");
    assert!(doc.get("verdict").is_none() && doc.get("eval").is_none());
    let surface = &doc["surface"];
    for list in ["removed", "redescribed"] {
        assert!(
            !surface[list].as_array().expect(list).is_empty(),
            "{list}: {doc:#}"
        );
    }

    assert_doc_refused(&v, &doc, "an unknown top-level field", |d| {
        d["extra"] = json!(1);
    });
    assert_doc_refused(&v, &doc, "a verdict without an eval", |d| {
        d["verdict"] = json!("unchanged");
    });
    assert_doc_refused(&v, &doc, "neither eval nor surface", |d| {
        d.as_object_mut().expect("doc").remove("surface");
    });
    assert_doc_refused(&v, &doc, "an unknown side kind", |d| {
        d["head"]["kind"] = json!("server");
    });
    assert_doc_refused(&v, &doc, "a one-sided description change", |d| {
        d["surface"]["redescribed"][0]["description"] = json!(["old"]);
    });
    assert_doc_refused(&v, &doc, "a removed tool with tokens after", |d| {
        d["surface"]["removed"][0]["tokensAfter"] = json!(1);
    });
    assert_doc_refused(&v, &doc, "an unknown field in the token totals", |d| {
        d["surface"]["tokens"]["percent"] = json!(3);
    });
}

/// A git repository whose base commit holds the CI fixture surface and suite and whose head
/// commit renames `issue_refund` (the script still calls it: a planted regression), re-describes
/// `search_tickets` and re-schemes `get_ticket`; and the script, outside the repository.
struct CiRepo {
    _root: tempfile::TempDir,
    repo: PathBuf,
    cache: PathBuf,
    script: PathBuf,
}

impl CiRepo {
    fn new() -> CiRepo {
        let fixture = |name: &str| fixture_json(&format!("ci/{name}"));
        let write = write_json;
        let root_dir = tempfile::tempdir().expect("tmp");
        let repo = root_dir.path().join("repo");
        let cache = root_dir.path().join("cache");
        std::fs::create_dir_all(&repo).expect("mkdir");
        let script = root_dir.path().join("script.json");
        write(&script, &fixture("script.json"));
        git(&repo, &["init", "-q", "-b", "main"]);
        let mut tools = fixture("tools.json");
        let mut suite = fixture("mf.suite.json");
        write(&repo.join("tools.json"), &tools);
        write(&repo.join("mf.suite.json"), &suite);
        git(&repo, &["add", "-A"]);
        git(&repo, &["commit", "-q", "-m", "base"]);
        for t in tools["tools"].as_array_mut().expect("tools") {
            match t["name"].as_str().expect("name") {
                "issue_refund" => t["name"] = json!("refund_payment"),
                "search_tickets" => {
                    t["description"] = json!(
                        "Search support tickets by free text in subjects and bodies. Use to \
                         find tickets when no ticket id is known; use get_ticket with an id."
                    );
                }
                "get_ticket" => {
                    t["inputSchema"]["properties"]["ticket_id"]["pattern"] = json!("^T-[0-9]+$");
                    // A new lint finding for `newFindings` (param-required-with-default): the
                    // renamed tool no longer reads as a look-alike pair under the surface
                    // pair scorer, which is what the old lexical rules reported here.
                    t["inputSchema"]["properties"]["ticket_id"]["default"] = json!("T-1001");
                }
                _ => {}
            }
        }
        for c in suite["cases"].as_array_mut().expect("cases") {
            if c["expectedTool"] == "issue_refund" {
                c["expectedTool"] = json!("refund_payment");
            }
        }
        write(&repo.join("tools.json"), &tools);
        write(&repo.join("mf.suite.json"), &suite);
        git(&repo, &["add", "-A"]);
        git(&repo, &["commit", "-q", "-m", "head"]);
        CiRepo {
            _root: root_dir,
            repo,
            cache,
            script,
        }
    }

    /// `mf ci ARGS` in the repository, outside GitHub Actions; the document it wrote.
    fn ci(&self, args: &[&str]) -> (Option<i32>, Value) {
        let json_out = self.repo.join("ci.json");
        let _ = std::fs::remove_file(&json_out);
        let mut cmd = mf_in(&self.repo);
        for k in machine_ci_vars() {
            cmd.env_remove(k);
        }
        let out = cmd
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("NO_COLOR", "1")
            .arg("ci")
            .args([
                "--suite",
                "mf.suite.json",
                "--cache-dir",
                self.cache.to_str().expect("utf-8"),
                "--json-out",
                "ci.json",
                "--comment",
                "off",
                "--summary",
                "off",
            ])
            .args(args)
            .output()
            .expect("mf ci runs");
        let text = std::fs::read_to_string(&json_out).unwrap_or_else(|e| {
            panic!(
                "mf ci {args:?} wrote no ci.json ({e})\nstdout: {}\nstderr: {}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        });
        (
            out.status.code(),
            serde_json::from_str(&text).expect("ci.json is JSON"),
        )
    }
}

#[test]
fn ci_json_of_a_full_and_a_free_run_matches_its_schema() {
    let v = linked_validator("ci-report.schema.json");
    let repo = CiRepo::new();
    let models = format!("scripted:{}", repo.script.display());
    let full_args = [
        "--models",
        models.as_str(),
        "--base-ref",
        "HEAD~1",
        "--repeat",
        "2",
        "--fail-on-regression",
        "--junit",
        "mf.junit.xml",
        "--sarif",
        "mf.sarif",
        "--html",
        "mf-report.html",
        "--badge",
        "mf-badge.json",
    ];

    // Full: lint, surface diff, head and base evals, compare; the regression fails the gate.
    let (code, full) = repo.ci(&full_args);
    assert_valid(&v, &full, "full-mode mf ci");
    assert_eq!(code, Some(2), "{full:#}");
    assert_eq!(full["mode"], "full");
    assert_eq!(full["status"], "fail");
    assert_eq!(full["compare"]["verdict"], "regressed");
    for part in ["surface", "head", "base", "compare"] {
        assert!(full[part].is_object(), "{part}: {full:#}");
    }
    assert!(full.get("baseReused").is_none());
    assert!(full.get("freeReason").is_none());
    for list in [
        "added",
        "removed",
        "redescribed",
        "reschemed",
        "newFindings",
    ] {
        assert!(
            !full["surface"][list].as_array().expect(list).is_empty(),
            "{list}: {full:#}"
        );
    }
    assert_eq!(full["lintFailOn"], "error");
    assert!(full["files"]["junit"].is_string() && full["files"]["badge"].is_string());

    // Again: the stored base scorecard is reused.
    let (_, reused) = repo.ci(&full_args);
    assert_valid(&v, &reused, "full-mode mf ci, base reused");
    assert_eq!(reused["baseReused"], true);

    // Free: no models; no base revision either (not a pull request, no --base-ref), so notes.
    let (code, free) = repo.ci(&["--fail-on", "never"]);
    assert_valid(&v, &free, "free-mode mf ci");
    assert_eq!(code, Some(0), "{free:#}");
    assert_eq!(free["mode"], "free");
    assert!(
        free["freeReason"]
            .as_str()
            .is_some_and(|r| r.starts_with("no models")),
        "{free:#}"
    );
    assert!(free["notes"].is_array(), "{free:#}");
    assert!(
        free["lintFailOn"].is_null(),
        "--fail-on never is written as null"
    );
    for absent in ["surface", "head", "base", "compare", "baseReused"] {
        assert!(free.get(absent).is_none(), "{absent}: {free:#}");
    }

    // The schema is not vacuous.
    assert_doc_refused(&v, &full, "an unknown top-level field", |d| {
        d["extra"] = json!(1);
    });
    assert_doc_refused(&v, &full, "an unknown status", |d| {
        d["status"] = json!("failed");
    });
    assert_doc_refused(&v, &full, "an unknown mode", |d| {
        d["mode"] = json!("partial");
    });
    assert_doc_refused(&v, &full, "an unknown compare verdict", |d| {
        d["compare"]["verdict"] = json!("worse");
    });
    assert_doc_refused(&v, &full, "a drifted head scorecard", |d| {
        d["head"]["status"] = json!("passed");
    });
    assert_doc_refused(&v, &full, "a drifted lint report", |d| {
        d["lint"]["summary"]["extra"] = json!(1);
    });
    assert_doc_refused(&v, &full, "a drifted surface diff", |d| {
        d["surface"]["tokens"]["percent"] = json!(1);
    });
    assert_doc_refused(&v, &full, "a drifted new lint finding", |d| {
        d["surface"]["newFindings"][0]["severity"] = json!("warning");
    });
    assert_doc_refused(&v, &full, "a compare without its eval", |d| {
        d["compare"]
            .as_object_mut()
            .expect("compare")
            .remove("eval");
    });
    assert_doc_refused(&v, &full, "lintFailOn left out", |d| {
        d.as_object_mut().expect("doc").remove("lintFailOn");
    });
    assert_doc_refused(&v, &full, "an unknown lintFailOn", |d| {
        d["lintFailOn"] = json!("warning");
    });
    assert_doc_refused(&v, &full, "an unknown file kind", |d| {
        d["files"]["pdf"] = json!("mf.pdf");
    });
    assert_doc_refused(&v, &free, "a free run without its reason", |d| {
        d.as_object_mut().expect("doc").remove("freeReason");
    });
    assert_doc_refused(&v, &free, "a free run with a scorecard", |d| {
        d["head"] = full["head"].clone();
    });
    assert_doc_refused(&v, &free, "empty notes instead of leaving them out", |d| {
        d["notes"] = json!([]);
    });
    assert_doc_refused(
        &v,
        &free,
        "baseReused false instead of leaving it out",
        |d| {
            d["baseReused"] = json!(false);
        },
    );
}

#[test]
fn shard_parts_and_merged_scorecards_match_the_scorecard_schema() {
    let v = validator("scorecard.schema.json");
    let dir = tempfile::tempdir().expect("tmp");
    let mut parts = Vec::new();
    for k in 1..=3 {
        let path = dir.path().join(format!("part-{k}.json"));
        let shard = format!("{k}/3");
        let (code, card) = eval_card([
            "--suite",
            "examples/acme-support/mf.suite.yaml",
            "--models",
            "lexical,mock",
            "--format",
            "json",
            "--no-cache",
            "--shard",
            &shard,
        ]);
        assert_eq!(code, Some(0));
        assert_valid(&v, &card, &format!("part {shard}"));
        assert!(
            card["shard"]["trials"]
                .as_array()
                .is_some_and(|t| !t.is_empty())
        );
        std::fs::write(&path, card.to_string()).expect("write");
        parts.push(path);
    }
    let part: Value =
        serde_json::from_str(&std::fs::read_to_string(&parts[0]).expect("read")).expect("json");
    assert_refused(&v, &part, "shard index 0", |d| {
        d["shard"]["index"] = json!(0)
    });
    assert_refused(&v, &part, "an unknown assignment", |d| {
        d["shard"]["assignment"] = json!("round-robin");
    });
    let merge = |args: &[&Path], extra: &[&str]| -> Value {
        let out = mf()
            .arg("merge")
            .args(args)
            .args(["--format", "json"])
            .args(extra)
            .output()
            .expect("runs");
        serde_json::from_slice(&out.stdout).expect("merged JSON")
    };
    let all: Vec<&Path> = parts.iter().map(PathBuf::as_path).collect();
    let merged = merge(&all, &[]);
    assert_valid(&v, &merged, "merged");
    assert_eq!(merged["timing"]["parts"].as_array().map(Vec::len), Some(3));
    let partial = merge(&all[..2], &["--allow-partial"]);
    assert_valid(&v, &partial, "partial merge");
    assert_eq!(partial["partial"]["missing"], json!([3]));
}

// ---------------------------------------------------------------------------------------------
// Mount groups and ablation.

/// A suite whose `read_graph` takes a must-not-call case from the lexical router, with two
/// mount groups.
fn memory_suite(dir: &Path, writing: &[&str]) {
    let tool = |name: &str, d: &str| json!({"name": name, "description": d, "parameters": {"type": "object", "properties": {}}});
    write_json(
        &dir.join("mf.suite.json"),
        &json!({"version": 1, "name": "memory",
        "tools": [
            tool("read_graph", "Read the entire knowledge graph with every entity and relation."),
            tool("search_nodes", "Search nodes in the knowledge graph by a query string."),
            tool("create_entities", "Create new entities in the knowledge graph.")
        ],
        "profiles": {"reading": ["read_graph", "search_nodes"], "writing": writing},
        "cases": [
            {"id": "c1", "input": "search nodes about Alice", "expectedTool": "search_nodes"},
            {"id": "c3", "input": "create entities for the new team", "expectedTool": "create_entities"},
            {"id": "c9", "input": "plot the graph of y equals x squared", "expectedTool": null}
        ]}),
    );
}

#[test]
fn mount_group_scorecards_compares_and_ablations_match_their_schemas() {
    let dir = tempfile::tempdir().expect("tmp");
    let d = dir.path();
    memory_suite(d, &["create_entities"]);
    let run = |args: &[&str]| {
        let out = mf_in(d)
            .args(args)
            .args(["--models", "lexical", "--no-cache", "--format", "json"])
            .output()
            .expect("runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        stdout_json(&out)
    };
    let card = run(&["eval", "--profile", "all", "--json-out", "base.json"]);
    let sv = validator("scorecard.schema.json");
    assert_valid(&sv, &card, "a mount-group scorecard");
    assert_eq!(card["profiles"]["groups"].as_array().map(Vec::len), Some(2));
    assert_doc_refused(&sv, &card, "a group without jammed", |c| {
        c["profiles"]["groups"][0]
            .as_object_mut()
            .expect("group")
            .remove("jammed");
    });
    let mounted = run(&[
        "eval",
        "--profile",
        "writing",
        "--mounted-only",
        "--cases",
        "c3,c9",
    ]);
    assert_valid(&sv, &mounted, "a mounted-only scorecard");
    assert_eq!(mounted["suite"]["profileTools"], json!(["create_entities"]));

    memory_suite(d, &["create_entities", "search_nodes"]);
    run(&["eval", "--profile", "all", "--json-out", "head.json"]);
    let compare = stdout_json(
        &mf_in(d)
            .args(["compare", "base.json", "head.json", "--format", "json"])
            .output()
            .expect("compare"),
    );
    let cv = linked_validator("compare-report.schema.json");
    assert_valid(&cv, &compare, "a compare of mount-group scorecards");
    assert_eq!(compare["eval"]["profiles"][1]["comparable"], false);

    let ablate = run(&["ablate", "--all"]);
    let av = linked_validator("ablate-report.schema.json");
    assert_valid(&av, &ablate, "an ablation report");
    assert_eq!(ablate["ablations"].as_array().map(Vec::len), Some(3));
    assert_doc_refused(&av, &ablate, "an unknown change word", |a| {
        a["ablations"][0]["cases"][0]["change"] = json!("better");
    });
}
