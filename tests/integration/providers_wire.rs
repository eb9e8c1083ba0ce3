//! The HTTP wire formats end to end: a wiremock server speaks each provider's JSON and
//! `HttpProvider::call` sends real requests to it (bodies, headers, retries, timeouts, caps,
//! redaction).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use mf::providers::config::{ModelSpec, resolve_model};
use mf::providers::http::{Attempt, HttpOptions};
use mf::providers::provider::HttpProvider;
use mf::providers::{ErrorKind, Reply, TrialRequest};
use mf::surface::{Confidence, Origin, Tool};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

use crate::support::fixture_json;

const SECRET: &str = "sk-test-SECRET-123";

/// One wire format as a provider serves it.
struct Wire {
    /// `--models` entry.
    entry: &'static str,
    /// Fixture directory under `tests/fixtures/providers/`.
    fixtures: &'static str,
    /// Request path under the mock server's `/v1`.
    path: &'static str,
    /// Header carrying the key and its expected value.
    key_header: &'static str,
    key_value: String,
}

fn wires() -> Vec<Wire> {
    vec![
        Wire {
            entry: "openai:gpt-4.1-mini",
            fixtures: "openai_responses",
            path: "/v1/responses",
            key_header: "authorization",
            key_value: format!("Bearer {SECRET}"),
        },
        Wire {
            entry: "openai-chat:gpt-4.1-mini",
            fixtures: "openai_chat",
            path: "/v1/chat/completions",
            key_header: "authorization",
            key_value: format!("Bearer {SECRET}"),
        },
        Wire {
            entry: "anthropic:claude-sonnet-4-5",
            fixtures: "anthropic",
            path: "/v1/messages",
            key_header: "x-api-key",
            key_value: SECRET.to_owned(),
        },
    ]
}

/// A provider's response body from `tests/fixtures/providers/{dir}/`.
fn wire_fixture(dir: &str, name: &str) -> Value {
    fixture_json(&format!("providers/{dir}/{name}"))
}

/// `create_ticket` (schema keys deliberately not alphabetical) and `search_docs` (no schema).
fn tools() -> Vec<Tool> {
    let mut ticket = Tool::named("create_ticket", Origin::default(), Confidence::High);
    ticket.description = Some("Open a support ticket.".into());
    ticket.input_schema = Some(json!({
        "type": "object",
        "required": ["title"],
        "properties": {
            "title": {"type": "string", "maxLength": 120},
            "priority": {"enum": ["low", "high"], "default": "low"}
        },
        "additionalProperties": false
    }));
    let search = Tool::named("search_docs", Origin::default(), Confidence::High);
    vec![ticket, search]
}

fn spec(entry: &str, server: &MockServer) -> ModelSpec {
    let mut spec = resolve_model(entry, &BTreeMap::new()).expect("model entry");
    spec.base_url = Some(format!("{}/v1", server.uri()));
    spec
}

fn provider(entry: &str, server: &MockServer, options: HttpOptions) -> HttpProvider {
    keyed(&spec(entry, server), options)
}

/// A provider for `spec` holding the planted key, on the shared client.
fn keyed(spec: &ModelSpec, options: HttpOptions) -> HttpProvider {
    HttpProvider::with_key(
        spec,
        Some(SECRET.to_owned()),
        options,
        mf::util::http::client(),
    )
    .expect("provider")
}

fn quick() -> HttpOptions {
    HttpOptions {
        timeout: Duration::from_secs(10),
        retries: 0,
        ..HttpOptions::default()
    }
}

async fn call(p: &HttpProvider, model: &str) -> Attempt {
    let tools = tools();
    let req = TrialRequest {
        model,
        input: "I want my money back for order 42",
        tools: tools.iter().collect(),
        temperature: Some(0.0),
        max_output_tokens: 256,
    };
    p.call(&req).await
}

async fn serve(server: &MockServer, wire: &Wire, response: ResponseTemplate) {
    Mock::given(method("POST"))
        .and(path(wire.path))
        .respond_with(response)
        .mount(server)
        .await;
}

async fn received(server: &MockServer) -> Vec<Request> {
    server.received_requests().await.expect("recording on")
}

fn assert_no_secret(what: &str, text: &str) {
    assert!(!text.contains(SECRET), "{what} leaks the key: {text}");
    assert!(!text.contains("SECRET-123"), "{what} leaks the key: {text}");
}

fn reply(a: Attempt) -> Reply {
    match a.outcome {
        Ok(r) => r,
        Err(e) => panic!("expected a reply, got {e:?}"),
    }
}

#[tokio::test]
async fn every_fixture_parses_through_the_transport() {
    for wire in wires() {
        let cases: [(&str, Result<usize, ErrorKind>); 6] = [
            ("single_call.json", Ok(1)),
            ("multiple_calls.json", Ok(2)),
            ("no_call.json", Ok(0)),
            ("refusal.json", Err(ErrorKind::Refusal)),
            ("truncated.json", Err(ErrorKind::Truncated)),
            ("malformed_arguments.json", Ok(1)),
        ];
        for (name, expected) in cases {
            let server = MockServer::start().await;
            serve(
                &server,
                &wire,
                ResponseTemplate::new(200).set_body_json(wire_fixture(wire.fixtures, name)),
            )
            .await;
            let p = provider(wire.entry, &server, quick());
            let attempt = call(&p, "m").await;
            assert_eq!(attempt.retries, 0);
            let ctx = format!("{} {name}", wire.fixtures);
            match (attempt.outcome, expected) {
                (Ok(r), Ok(n)) => {
                    assert_eq!(r.calls.len(), n, "{ctx}");
                    if name == "multiple_calls.json" {
                        let names: Vec<_> = r.calls.iter().map(|c| c.name.as_deref()).collect();
                        assert_eq!(names, [Some("search_docs"), Some("create_ticket")], "{ctx}");
                    }
                    if name == "malformed_arguments.json" {
                        assert_eq!(r.calls[0].arguments, None, "{ctx}");
                        assert!(r.calls[0].raw_arguments.is_some(), "{ctx}");
                    }
                    if name == "no_call.json" {
                        assert!(r.text.is_some(), "{ctx}");
                    }
                    assert!(r.usage.is_some(), "{ctx}");
                }
                (Err(e), Err(kind)) => assert_eq!(e.kind, kind, "{ctx}: {}", e.message),
                (got, want) => panic!("{ctx}: got {got:?}, want {want:?}"),
            }
        }
    }
}

#[tokio::test]
async fn requests_carry_tools_as_served_and_the_key_only_in_its_header() {
    let served = tools();
    for wire in wires() {
        let server = MockServer::start().await;
        serve(
            &server,
            &wire,
            ResponseTemplate::new(200)
                .set_body_json(wire_fixture(wire.fixtures, "single_call.json")),
        )
        .await;
        let p = provider(wire.entry, &server, quick());
        reply(call(&p, "model-x").await);
        let requests = received(&server).await;
        assert_eq!(requests.len(), 1, "{}", wire.fixtures);
        let r = &requests[0];
        let body: Value = r.body_json().expect("JSON body");
        let ctx = wire.fixtures;

        assert!(body.get("tool_choice").is_none(), "{ctx}: tool_choice sent");
        assert_eq!(body["model"], "model-x", "{ctx}");
        let sent = body["tools"].as_array().expect("tools array");
        assert_eq!(sent.len(), served.len(), "{ctx}");
        for (tool, wire_tool) in served.iter().zip(sent) {
            let (name, description, schema) = match ctx {
                "openai_responses" => (
                    &wire_tool["name"],
                    wire_tool.get("description"),
                    &wire_tool["parameters"],
                ),
                "openai_chat" => (
                    &wire_tool["function"]["name"],
                    wire_tool["function"].get("description"),
                    &wire_tool["function"]["parameters"],
                ),
                _ => (
                    &wire_tool["name"],
                    wire_tool.get("description"),
                    &wire_tool["input_schema"],
                ),
            };
            assert_eq!(name, &json!(tool.name), "{ctx}");
            assert_eq!(
                description,
                tool.description.as_ref().map(|d| json!(d)).as_ref()
            );
            let expected = tool
                .input_schema
                .clone()
                .unwrap_or_else(|| json!({"type": "object", "properties": {}}));
            // Byte-equal, key order included.
            assert_eq!(
                serde_json::to_string(schema).expect("json"),
                serde_json::to_string(&expected).expect("json"),
                "{ctx}"
            );
        }

        assert_eq!(
            r.headers.get(wire.key_header).and_then(|v| v.to_str().ok()),
            Some(wire.key_value.as_str()),
            "{ctx}"
        );
        for (name, value) in &r.headers {
            if name.as_str() != wire.key_header {
                assert_no_secret(name.as_str(), value.to_str().unwrap_or(""));
            }
        }
        assert_no_secret("body", &String::from_utf8_lossy(&r.body));
        assert_no_secret("url", r.url.as_str());
        assert_eq!(
            r.headers.get("content-type").and_then(|v| v.to_str().ok()),
            Some("application/json")
        );
        let version = r
            .headers
            .get("anthropic-version")
            .and_then(|v| v.to_str().ok());
        if ctx == "anthropic" {
            assert_eq!(version, Some("2023-06-01"));
            assert!(r.headers.get("authorization").is_none());
        } else {
            assert_eq!(version, None);
        }
    }
}

#[tokio::test]
async fn a_429_with_retry_after_is_waited_out_then_answered() {
    for wire in wires() {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path(wire.path))
            .respond_with(
                ResponseTemplate::new(429)
                    .insert_header("retry-after", "1")
                    .set_body_json(wire_fixture(wire.fixtures, "error.json")),
            )
            .up_to_n_times(1)
            .mount(&server)
            .await;
        serve(
            &server,
            &wire,
            ResponseTemplate::new(200)
                .set_body_json(wire_fixture(wire.fixtures, "single_call.json")),
        )
        .await;
        let p = provider(
            wire.entry,
            &server,
            HttpOptions {
                retries: 2,
                ..quick()
            },
        );
        let started = Instant::now();
        let attempt = call(&p, "m").await;
        let elapsed = started.elapsed();
        assert_eq!(attempt.retries, 1, "{}", wire.fixtures);
        assert_eq!(reply(attempt).calls.len(), 1);
        assert!(elapsed >= Duration::from_secs(1), "{elapsed:?}");
        assert_eq!(received(&server).await.len(), 2);
    }
}

#[tokio::test]
async fn server_errors_past_the_retry_budget_fail_with_their_status() {
    for wire in wires() {
        let server = MockServer::start().await;
        serve(
            &server,
            &wire,
            ResponseTemplate::new(500).set_body_json(wire_fixture(wire.fixtures, "error.json")),
        )
        .await;
        let p = provider(
            wire.entry,
            &server,
            HttpOptions {
                retries: 2,
                max_retry_wait: Duration::from_millis(50),
                ..quick()
            },
        );
        let attempt = call(&p, "m").await;
        assert_eq!(attempt.retries, 2);
        let e = attempt.outcome.expect_err("500s");
        assert_eq!(e.kind, ErrorKind::Http);
        assert_eq!(e.status, Some(500));
        assert_no_secret("error", &e.message);
        assert_eq!(received(&server).await.len(), 3, "{}", wire.fixtures);
    }
}

#[tokio::test]
async fn client_errors_are_not_retried_and_their_messages_are_redacted() {
    for wire in wires() {
        let server = MockServer::start().await;
        // A provider that echoes the key back in its error message.
        let body = if wire.fixtures == "anthropic" {
            json!({"type": "error", "error": {"type": "authentication_error",
                   "message": format!("invalid x-api-key {SECRET}")}})
        } else {
            json!({"error": {"message": format!("Incorrect API key provided: {SECRET}."),
                   "type": "invalid_request_error", "code": "invalid_api_key"}})
        };
        serve(
            &server,
            &wire,
            ResponseTemplate::new(401).set_body_json(body),
        )
        .await;
        let p = provider(
            wire.entry,
            &server,
            HttpOptions {
                retries: 3,
                ..quick()
            },
        );
        let attempt = call(&p, "m").await;
        assert_eq!(attempt.retries, 0);
        let debug = format!("{attempt:?} {p:?}");
        let e = attempt.outcome.expect_err("401");
        assert_eq!((e.kind, e.status), (ErrorKind::Http, Some(401)));
        assert!(e.message.contains("[redacted]"), "{}", e.message);
        assert!(e.message.contains("401"), "{}", e.message);
        assert_no_secret("error", &e.message);
        assert_no_secret("debug", &debug);
        assert_eq!(received(&server).await.len(), 1);
    }
}

#[tokio::test]
async fn a_hanging_response_times_out() {
    for wire in wires() {
        let server = MockServer::start().await;
        serve(
            &server,
            &wire,
            ResponseTemplate::new(200)
                .set_body_json(wire_fixture(wire.fixtures, "single_call.json"))
                .set_delay(Duration::from_secs(30)),
        )
        .await;
        let p = provider(
            wire.entry,
            &server,
            HttpOptions {
                timeout: Duration::from_secs(1),
                retries: 0,
                ..HttpOptions::default()
            },
        );
        let started = Instant::now();
        let attempt = call(&p, "m").await;
        let e = attempt.outcome.expect_err("timeout");
        assert_eq!(e.kind, ErrorKind::Timeout, "{}", e.message);
        assert!(started.elapsed() < Duration::from_secs(5));
        assert!(attempt.latency_ms >= 900, "{}", attempt.latency_ms);
        assert_no_secret("error", &e.message);
    }
}

#[tokio::test]
async fn a_20_mb_body_is_too_large() {
    for wire in wires() {
        let server = MockServer::start().await;
        let mut big = br#"{"padding":""#.to_vec();
        big.resize(20 * 1024 * 1024, b'x');
        big.extend_from_slice(br#""}"#);
        serve(
            &server,
            &wire,
            ResponseTemplate::new(200).set_body_raw(big, "application/json"),
        )
        .await;
        let p = provider(wire.entry, &server, quick());
        let e = call(&p, "m").await.outcome.expect_err("too large");
        assert_eq!(e.kind, ErrorKind::TooLarge, "{}", e.message);
    }
}

#[tokio::test]
async fn a_refused_connection_is_a_transport_error() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        l.local_addr().expect("addr").port()
    };
    let mut spec = resolve_model("openai-chat:m", &BTreeMap::new()).expect("entry");
    spec.base_url = Some(format!("http://127.0.0.1:{port}/v1"));
    let p = keyed(&spec, quick());
    let attempt = call(&p, "m").await;
    let e = attempt.outcome.expect_err("refused");
    assert_eq!(e.kind, ErrorKind::Transport, "{}", e.message);
    assert_eq!(attempt.retries, 0);
    assert_no_secret("error", &e.message);
}

#[tokio::test]
async fn a_custom_key_header_replaces_authorization_and_keeps_the_query() {
    let server = MockServer::start().await;
    let wire = &wires()[1];
    serve(
        &server,
        wire,
        ResponseTemplate::new(200).set_body_json(wire_fixture(wire.fixtures, "no_call.json")),
    )
    .await;
    let mut spec = spec("openai-compatible:gpt-4o", &server);
    spec.base_url = Some(format!("{}/v1?api-version=2024-10-21", server.uri()));
    spec.api_key_header = Some("api-key".into());
    spec.headers.insert("x-team".into(), "evals".into());
    let p = keyed(&spec, quick());
    assert_eq!(p.endpoint_display(), format!("{}/v1", server.uri()));
    reply(call(&p, "gpt-4o").await);
    let r = &received(&server).await[0];
    assert_eq!(
        r.headers.get("api-key").and_then(|v| v.to_str().ok()),
        Some(SECRET)
    );
    assert!(r.headers.get("authorization").is_none());
    assert_eq!(
        r.headers.get("x-team").and_then(|v| v.to_str().ok()),
        Some("evals")
    );
    assert_eq!(r.url.query(), Some("api-version=2024-10-21"));
    let body: Value = r.body_json().expect("json");
    assert_eq!(body["max_tokens"], 256, "compatible servers get max_tokens");
}

#[tokio::test]
async fn keys_come_from_the_named_variable_and_local_servers_need_none() {
    let server = MockServer::start().await;
    let wire = &wires()[1];
    serve(
        &server,
        wire,
        ResponseTemplate::new(200).set_body_json(wire_fixture(wire.fixtures, "no_call.json")),
    )
    .await;
    // Cargo sets CARGO_PKG_NAME for test processes: a variable that is surely set, no unsafe.
    let mut named = spec("openai-chat:m", &server);
    named.api_key_env = Some("CARGO_PKG_NAME".into());
    let p = HttpProvider::new(&named, quick(), mf::util::http::client()).expect("provider");
    reply(call(&p, "m").await);
    let mut local = spec("vllm:m", &server);
    local.api_key_env = Some("MF_PROVIDERS_WIRE_TEST_UNSET_KEY_1".into());
    let p = HttpProvider::new(&local, quick(), mf::util::http::client()).expect("no key needed");
    reply(call(&p, "m").await);
    let requests = received(&server).await;
    assert_eq!(
        requests[0]
            .headers
            .get("authorization")
            .and_then(|v| v.to_str().ok()),
        Some(format!("Bearer {}", env!("CARGO_PKG_NAME")).as_str())
    );
    assert!(requests[1].headers.get("authorization").is_none());
}

#[test]
fn config_errors_name_the_variable_or_the_missing_url() {
    let mut hosted = resolve_model("openai:gpt-4.1-mini", &BTreeMap::new()).expect("entry");
    hosted.api_key_env = Some("MF_PROVIDERS_WIRE_TEST_UNSET_KEY_2".into());
    let err = HttpProvider::new(&hosted, HttpOptions::default(), mf::util::http::client())
        .expect_err("no key")
        .to_string();
    assert!(err.contains("MF_PROVIDERS_WIRE_TEST_UNSET_KEY_2"), "{err}");
    let compat = resolve_model("openai-compatible:m", &BTreeMap::new()).expect("entry");
    let err = HttpProvider::with_key(
        &compat,
        None,
        HttpOptions::default(),
        mf::util::http::client(),
    )
    .expect_err("no url")
    .to_string();
    assert!(
        err.contains("--base-url") && err.contains("base_url"),
        "{err}"
    );
}

#[test]
fn fingerprints_follow_settings_and_hold_no_secret() {
    let spec = resolve_model("anthropic:claude-x", &BTreeMap::new()).expect("entry");
    let a = keyed(&spec, quick());
    let b = HttpProvider::with_key(
        &spec,
        Some("other-key".into()),
        quick(),
        mf::util::http::client(),
    )
    .expect("provider");
    let fa = a.request_fingerprint(Some(0.0), 256);
    assert!(fa.starts_with("sha256:") && fa.len() == 71, "{fa}");
    assert_eq!(
        fa,
        b.request_fingerprint(Some(0.0), 256),
        "the key must not matter"
    );
    assert_ne!(fa, a.request_fingerprint(None, 256));
    assert_ne!(fa, a.request_fingerprint(Some(0.0), 512));
    assert_eq!(a.wire_id(), "anthropic");
    assert_eq!(a.endpoint_display(), "https://api.anthropic.com/v1");
    assert_no_secret("debug", &format!("{a:?}"));
}

#[tokio::test]
async fn an_endless_chunked_body_stops_at_the_cap() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    // A server with no Content-Length that never ends its body: only a streaming cap returns.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let server = tokio::spawn(async move {
        let (mut sock, _) = listener.accept().await.expect("accept");
        let mut buf = vec![0u8; 64 * 1024];
        let _ = sock.read(&mut buf).await;
        let head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\
                    transfer-encoding: chunked\r\n\r\n";
        if sock.write_all(head.as_bytes()).await.is_err() {
            return;
        }
        let chunk = format!("{:x}\r\n{}\r\n", 64 * 1024, " ".repeat(64 * 1024));
        while sock.write_all(chunk.as_bytes()).await.is_ok() {}
    });
    let mut spec = resolve_model("openai-chat:m", &BTreeMap::new()).expect("entry");
    spec.base_url = Some(format!("http://{addr}/v1"));
    let options = HttpOptions {
        max_body: 1024 * 1024,
        ..quick()
    };
    let p = keyed(&spec, options);
    let e = call(&p, "m").await.outcome.expect_err("too large");
    assert_eq!(e.kind, ErrorKind::TooLarge, "{}", e.message);
    server.abort();
}

#[tokio::test]
async fn a_key_of_any_shape_is_redacted_from_errors() {
    const PLAIN: &str = "plainKEY0987654321";
    let server = MockServer::start().await;
    let wire = &wires()[1];
    let body = json!({"error": {"message": format!("key {PLAIN} is revoked"), "type": "auth"}});
    serve(
        &server,
        wire,
        ResponseTemplate::new(403).set_body_json(body),
    )
    .await;
    let spec = spec(wire.entry, &server);
    let p = HttpProvider::with_key(&spec, Some(PLAIN.into()), quick(), mf::util::http::client())
        .expect("provider");
    let e = call(&p, "m").await.outcome.expect_err("403");
    assert_eq!(e.status, Some(403));
    assert!(!e.message.contains(PLAIN), "{}", e.message);
    assert!(
        e.message.contains("key [redacted] is revoked"),
        "{}",
        e.message
    );
}
