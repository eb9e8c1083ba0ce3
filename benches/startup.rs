//! Start-up benchmark of the release binary: wall time and peak resident memory of whole `mf`
//! processes, median of 5 runs each (after one warm-up), and the ratios to the budgets of
//! issue 16 (`mf lint` of 100 tools ≤ 60 ms and ≤ 30 MB) and to the process floor (`--version`).
//! Then, in fresh processes of this binary linked against the library, what each lazily built
//! piece costs the first time it is used (the o200k splitter, the lint's regexes and meta-schema,
//! a tree-sitter parser), so a regression in start-up can be traced to its part.
//!
//! `cargo bench --bench startup` (release profile; it builds `target/release/mf`). Unix only:
//! peak memory is `ru_maxrss` of a child, read in a fresh process per run so each figure is one
//! run's own.
#![allow(clippy::print_stdout, clippy::unwrap_used)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use serde_json::{Value, json};

/// The binary measured: this build's `mf`, or `MF_BENCH_BIN` (e.g. an older release, for a
/// before/after comparison; the library phases are then skipped, as they measure this build).
fn mf_bin() -> String {
    std::env::var("MF_BENCH_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_mf").to_owned())
}
const RUNS: usize = 5;
const BUDGET_MS: f64 = 60.0;
const BUDGET_MB: f64 = 30.0;

const VERBS: &[&str] = &[
    "get", "list", "create", "update", "delete", "search", "find", "read", "write", "export",
    "import", "archive", "restore", "sync", "validate", "send", "cancel", "approve", "assign",
    "merge",
];
const NOUNS: &[&str] = &[
    "user",
    "order",
    "invoice",
    "ticket",
    "project",
    "report",
    "device",
    "alert",
    "payment",
    "shipment",
    "file",
    "folder",
    "comment",
    "issue",
    "branch",
    "commit",
    "release",
    "webhook",
    "team",
    "role",
    "policy",
    "dataset",
    "table",
    "query",
    "dashboard",
    "metric",
    "secret",
];
const PHRASES: &[&str] = &[
    "Returns the matching records as JSON.",
    "Use this when the user asks about it by name or id.",
    "Requires the caller to have write access.",
    "Results are paginated; pass the cursor from the previous page.",
    "Fails when the item does not exist.",
];

/// `n` tools of a made-up SaaS API, in MCP `tools/list` form, the same for the same `n`.
fn surface(n: usize) -> Value {
    let tools: Vec<Value> = (0..n)
        .map(|i| {
            let verb = VERBS[i % VERBS.len()];
            let noun = NOUNS[(i / VERBS.len()) % NOUNS.len()];
            let name = if i < VERBS.len() * NOUNS.len() {
                format!("{verb}_{noun}")
            } else {
                format!("{verb}_{noun}_{i}")
            };
            let description = format!(
                "{} the {noun} identified by the given id in the workspace. {} {}",
                capitalize(verb),
                PHRASES[i % PHRASES.len()],
                PHRASES[(i / 3) % PHRASES.len()]
            );
            json!({
                "name": name,
                "description": description,
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string", "description": format!("The {noun} id.")},
                        "workspace": {"type": "string", "description": "Workspace slug."},
                        "limit": {"type": "integer", "minimum": 1, "maximum": 100}
                    },
                    "required": ["id"]
                }
            })
        })
        .collect();
    json!({ "tools": tools })
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// One run of `mf ARGS` in `dir`: (wall ms, peak RSS MB). Runs in a fresh child of this binary
/// (`--one`), so `RUSAGE_CHILDREN` holds only that run.
fn measure(dir: &Path, args: &[&str]) -> (f64, f64) {
    let out = Command::new(std::env::current_exe().unwrap())
        .arg("--one")
        .arg(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let mut it = text.split_whitespace().map(|x| x.parse::<f64>().unwrap());
    (it.next().unwrap(), it.next().unwrap())
}

fn one(dir: &Path, args: &[String]) {
    let start = Instant::now();
    let status = Command::new(mf_bin())
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    // Exit 2: lint findings at the failing severity; still a complete run.
    assert!(
        matches!(status.code(), Some(0 | 2)),
        "mf {args:?}: {status}"
    );
    let usage =
        nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN).unwrap();
    println!("{ms:.3} {:.3}", usage.max_rss() as f64 / 1024.0);
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// First-use costs in this fresh process, in ms.
fn phases(dir: &Path) {
    let time = |f: &mut dyn FnMut()| {
        let t = Instant::now();
        f();
        t.elapsed().as_secs_f64() * 1000.0
    };
    let count_first = time(&mut || {
        mf::surface::o200k::count("Read a file from disk.");
    });
    let count_again = time(&mut || {
        mf::surface::o200k::count("Write a file to disk.");
    });
    let file = dir.join("tools.json");
    let mut loaded = None;
    let load =
        time(&mut || loaded = Some(mf::surface::formats::load_path(&file, "tools.json").unwrap()));
    let surface = loaded.unwrap().surface;
    let one_tool = mf::surface::Surface {
        tools: surface.tools[..1].to_vec(),
        skills: Vec::new(),
        unread: Vec::new(),
    };
    let opts = mf::analyze::lint::LintOptions::default();
    let lint_first = time(&mut || {
        mf::analyze::lint::lint(&one_tool, &opts);
    });
    let lint_again = time(&mut || {
        mf::analyze::lint::lint(&one_tool, &opts);
    });
    let lint_100 = time(&mut || {
        mf::analyze::lint::lint(&surface, &opts);
    });
    let tokens_100 = time(&mut || {
        mf::surface::tokens::surface_tokens(&surface.tools, true);
    });
    std::fs::write(
        dir.join("server.ts"),
        "server.tool('ping', 'Reply with pong.', {}, async () => ({ content: [] }));\n",
    )
    .unwrap();
    let scan_ts = time(&mut || {
        mf::surface::scan::scan(dir, &mf::surface::scan::ScanOptions::default()).unwrap();
    });
    println!(
        "{count_first:.3} {count_again:.3} {load:.3} {lint_first:.3} {lint_again:.3} {lint_100:.3} {tokens_100:.3} {scan_ts:.3}"
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--one") {
        one(Path::new(&args[1]), &args[2..]);
        return;
    }
    if args.first().map(String::as_str) == Some("--phases") {
        phases(Path::new(&args[1]));
        return;
    }
    let mf = mf_bin();
    let size = std::fs::metadata(&mf).unwrap().len();
    println!("binary: {mf}: {:.2} MB ({size} bytes)", size as f64 / 1e6);

    let mut rows: Vec<(String, f64, f64)> = Vec::new();
    for n in [1usize, 100, 1000] {
        let dir = tempfile::tempdir().unwrap();
        let text = serde_json::to_string_pretty(&surface(n)).unwrap();
        std::fs::write(dir.path().join("tools.json"), text).unwrap();
        let mut cases: Vec<(String, Vec<&str>)> =
            vec![(format!("mf lint ({n} tools)"), vec!["lint", "tools.json"])];
        if n == 1 {
            cases.insert(0, ("mf --version".into(), vec!["--version"]));
        }
        for (label, argv) in cases {
            measure(dir.path(), &argv);
            let runs: Vec<(f64, f64)> = (0..RUNS).map(|_| measure(dir.path(), &argv)).collect();
            let ms = median(runs.iter().map(|r| r.0).collect());
            let mb = median(runs.iter().map(|r| r.1).collect());
            let all: Vec<String> = runs.iter().map(|r| format!("{:.1}", r.0)).collect();
            println!(
                "{label:<24} median {ms:7.1} ms {mb:6.1} MB   (runs: {} ms)",
                all.join(" ")
            );
            rows.push((label, ms, mb));
        }
    }
    let floor = &rows[0];
    let lint100 = rows.iter().find(|r| r.0.contains("(100 tools)")).unwrap();
    println!(
        "lint of 100 tools: {:.2}× the 60 ms budget, {:.2}× the 30 MB budget; {:.1}× the time and {:.1}× the memory of `mf --version`",
        lint100.1 / BUDGET_MS,
        lint100.2 / BUDGET_MB,
        lint100.1 / floor.1,
        lint100.2 / floor.2
    );

    if std::env::var_os("MF_BENCH_BIN").is_some() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("tools.json"),
        serde_json::to_string_pretty(&surface(100)).unwrap(),
    )
    .unwrap();
    let out = Command::new(std::env::current_exe().unwrap())
        .arg("--phases")
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Vec<f64> = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    println!("first use in a fresh process (library, ms):");
    println!(
        "  o200k count: first {:.2} (splitter regex built), then {:.3}",
        v[0], v[1]
    );
    println!("  load tools.json (100 tools): {:.2}", v[2]);
    println!(
        "  lint of 1 tool: first {:.2} (rule regexes, meta-schema), then {:.2}",
        v[3], v[4]
    );
    println!(
        "  lint of 100 tools: {:.2}; token counts of 100 tools: {:.2}",
        v[5], v[6]
    );
    println!(
        "  scan of a folder with one .ts file (tree-sitter parser): {:.2}",
        v[7]
    );
}
