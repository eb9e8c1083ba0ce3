//! HTTP safety against a local HTTP server: redirects refused, the Authorization header only
//! sent to the origin it is bound to, never over plain HTTP to a remote host, and never shown.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mf::surface::live::{Endpoint, LiveError, LiveOptions, fetch_blocking};
use mf::surface::target::normalize_origin;

const SECRET: &str = "Bearer s3cr3t-VALUE-never-shown";

/// A one-response-fits-all HTTP server; returns its base URL and the request heads it saw.
fn serve(response: &'static str) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!(
        "http://127.0.0.1:{}",
        listener.local_addr().expect("addr").port()
    );
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().expect("clone"));
            let mut head = String::new();
            let mut length = 0usize;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
                head.push_str(&line);
            }
            let mut body = vec![0u8; length];
            let _ = std::io::Read::read_exact(&mut reader, &mut body);
            log.lock().expect("lock").push(head);
            let _ = stream.write_all(response.as_bytes());
        }
    });
    (url, seen)
}

fn opts() -> LiveOptions {
    LiveOptions {
        timeout_init: Duration::from_secs(5),
        timeout_list: Duration::from_secs(5),
        ..LiveOptions::default()
    }
}

fn fail(endpoint: &Endpoint) -> LiveError {
    match fetch_blocking("remote", endpoint, &opts()) {
        Err(e) => e,
        Ok(_) => panic!("expected a failure"),
    }
}

const UNAUTHORIZED: &str = "HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\nContent-Length: 4\r\nConnection: close\r\n\r\noops";

#[test]
fn redirects_are_refused_and_not_followed() {
    let (url, seen) = serve(
        "HTTP/1.1 307 Temporary Redirect\r\nLocation: http://127.0.0.1:9/elsewhere?token=abc123\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    );
    let e = fail(&Endpoint::Http {
        url: format!("{url}/mcp"),
        authorization: None,
    });
    let msg = e.to_string();
    assert!(matches!(e, LiveError::Redirect { .. }), "{msg}");
    assert!(
        msg.contains("redirects are refused") && msg.contains("127.0.0.1:9/elsewhere"),
        "{msg}"
    );
    assert!(!msg.contains("abc123"), "query value leaked: {msg}");
    assert_eq!(
        seen.lock().expect("lock").len(),
        1,
        "the redirect was followed"
    );
}

#[test]
fn authorization_goes_to_its_origin_and_never_into_errors() {
    let (url, seen) = serve(UNAUTHORIZED);
    let origin = normalize_origin(&url).expect("origin");
    let e = fail(&Endpoint::Http {
        url: format!("{url}/mcp"),
        authorization: Some((SECRET.into(), origin)),
    });
    let heads = seen.lock().expect("lock").clone();
    assert!(!heads.is_empty());
    assert!(
        heads[0].contains(&format!("authorization: {SECRET}"))
            || heads[0].contains(&format!("Authorization: {SECRET}")),
        "{heads:?}"
    );
    let shown = format!("{e} {e:?}");
    assert!(!shown.contains("s3cr3t"), "credential leaked: {shown}");
}

#[test]
fn authorization_is_not_sent_to_another_origin() {
    let (url, seen) = serve(UNAUTHORIZED);
    let e = fail(&Endpoint::Http {
        url: format!("{url}/mcp"),
        authorization: Some((SECRET.into(), "https://mcp.example.com:443".into())),
    });
    let heads = seen.lock().expect("lock").clone();
    assert!(!heads.is_empty());
    assert!(
        heads
            .iter()
            .all(|h| !h.to_ascii_lowercase().contains("authorization")),
        "{heads:?}"
    );
    assert!(!format!("{e} {e:?}").contains("s3cr3t"));
}

#[test]
fn authorization_is_never_sent_over_plain_http_to_a_remote_host() {
    let endpoint = Endpoint::Http {
        url: "http://mcp.example.invalid/mcp".into(),
        authorization: Some((SECRET.into(), "http://mcp.example.invalid:80".into())),
    };
    let e = fail(&endpoint);
    assert!(matches!(e, LiveError::InsecureAuth { .. }), "{e}");
    assert!(
        e.to_string().contains("over plain HTTP") && !e.to_string().contains("s3cr3t"),
        "{e}"
    );
    assert!(
        !format!("{endpoint:?}").contains("s3cr3t"),
        "Debug shows the credential"
    );
}

#[test]
fn origins_are_compared_with_explicit_ports() {
    assert_eq!(
        normalize_origin("https://MCP.example.com").expect("o"),
        "https://mcp.example.com:443"
    );
    assert_eq!(
        normalize_origin("https://mcp.example.com:443/").expect("o"),
        "https://mcp.example.com:443"
    );
    assert_eq!(
        normalize_origin("http://127.0.0.1:8080").expect("o"),
        "http://127.0.0.1:8080"
    );
    assert!(normalize_origin("not a url").is_err());
}
