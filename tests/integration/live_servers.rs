//! The live client against the real reference servers from npm (installed by
//! `scripts/install-test-servers.sh` into target/test-servers/): stdio for all three,
//! streamable HTTP for server-everything on a loopback port this test picks.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use mf::surface::SourceFormat;
use mf::surface::live::{Endpoint, LiveOptions, fetch_blocking};
use mf::surface::target::{Target, load_target};

use crate::support::{free_port, installed_server};

fn entry(package: &str) -> String {
    installed_server(package).to_string_lossy().into_owned()
}

fn names(target: &Target) -> Vec<String> {
    let loaded = load_target(target, &LiveOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    for t in &loaded.surface.tools {
        assert_eq!(t.origin.format, SourceFormat::Live);
        assert!(t.input_schema.is_some(), "{} has no input schema", t.name);
    }
    loaded.surface.tools.into_iter().map(|t| t.name).collect()
}

fn stdio(name: &str, args: Vec<String>) -> Target {
    Target::Stdio {
        program: "node".into(),
        args,
        name: name.into(),
        env_names: vec![],
    }
}

#[test]
fn filesystem_over_stdio() {
    if !crate::support::test_servers_installed() {
        return;
    }
    let root = tempfile::tempdir().expect("tempdir");
    let got = names(&stdio(
        "filesystem",
        vec![
            entry("server-filesystem"),
            root.path().to_string_lossy().into_owned(),
        ],
    ));
    for want in [
        "read_text_file",
        "read_multiple_files",
        "write_file",
        "edit_file",
        "list_directory",
        "directory_tree",
        "search_files",
        "list_allowed_directories",
    ] {
        assert!(got.iter().any(|n| n == want), "{want} missing from {got:?}");
    }
}

#[test]
fn memory_over_stdio() {
    if !crate::support::test_servers_installed() {
        return;
    }
    let got = names(&stdio("memory", vec![entry("server-memory")]));
    for want in [
        "create_entities",
        "create_relations",
        "add_observations",
        "delete_entities",
        "read_graph",
        "search_nodes",
        "open_nodes",
    ] {
        assert!(got.iter().any(|n| n == want), "{want} missing from {got:?}");
    }
}

#[test]
fn everything_over_stdio() {
    if !crate::support::test_servers_installed() {
        return;
    }
    let got = names(&stdio(
        "everything",
        vec![entry("server-everything"), "stdio".into()],
    ));
    for want in ["echo", "get-sum", "get-tiny-image"] {
        assert!(got.iter().any(|n| n == want), "{want} missing from {got:?}");
    }
}

/// The HTTP server, killed when the test ends however it ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn everything_over_streamable_http_and_identity() {
    if !crate::support::test_servers_installed() {
        return;
    }
    let port = free_port();
    let child = Command::new("node")
        .args([entry("server-everything"), "streamableHttp".into()])
        .env("PORT", port.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start server-everything");
    let _server = Server(child);
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "server-everything did not listen on port {port}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let url = format!("http://127.0.0.1:{port}/mcp");
    let endpoint = Endpoint::Http {
        url: url.clone(),
        authorization: None,
    };
    let listing = fetch_blocking("everything-http", &endpoint, &LiveOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!listing.server.name.is_empty());
    assert!(
        listing.server.protocol_version.starts_with("20"),
        "{:?}",
        listing.server
    );
    let got: Vec<&str> = listing
        .tools
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    for want in ["echo", "get-sum"] {
        assert!(got.contains(&want), "{want} missing from {got:?}");
    }
    // Through the target path as well.
    let via_target = names(&Target::positional(&url).expect("url"));
    assert_eq!(via_target.len(), got.len());
}

/// Benchmark, not a check: `cargo test --test integration live_servers::startup -- --ignored --nocapture`
/// prints the median of 5 wall times from spawn to complete listing for server-filesystem.
#[test]
#[ignore = "benchmark; run explicitly"]
fn startup_median_filesystem() {
    let root = tempfile::tempdir().expect("tempdir");
    let target = stdio(
        "filesystem",
        vec![
            entry("server-filesystem"),
            root.path().to_string_lossy().into_owned(),
        ],
    );
    let mut ms: Vec<u128> = (0..5)
        .map(|_| {
            let start = Instant::now();
            load_target(&target, &LiveOptions::default()).unwrap_or_else(|e| panic!("{e}"));
            start.elapsed().as_millis()
        })
        .collect();
    ms.sort_unstable();
    // A benchmark reports its figure.
    #[allow(clippy::print_stdout)]
    {
        println!(
            "server-filesystem stdio spawn→listing: median {} ms (sorted runs {ms:?})",
            ms[2]
        );
    }
}
