//! Benchmark of similarity, cluster and lint on generated surfaces of 100, 1,000 and 10,000
//! tools: wall time per stage and peak memory (VmHWM of a fresh process per size).
//!
//! `cargo bench --bench lint_cluster` (release). `-- SIZE...` picks sizes; `-- --check SIZE`
//! checks the indexed search against scoring every pair on that surface instead. Each size runs
//! in a child process (this binary with `--one SIZE`) so its peak resident memory is its own.
//! Surfaces: 40 servers' worth of verb × noun × qualifier names in mixed conventions, templated
//! descriptions (tool-specific words from a 2,000-word synthetic vocabulary plus one of eight
//! stock phrases), parameters from a common pool, and 5% deliberate
//! near-duplicates (a name qualifier and one description word changed).
//!
//! `-- --adversarial SIZE...`: the surface the lint must survive: 20 verbs × 30 nouns, every
//! description 10–20 words drawn from a 50-word vocabulary, parameters from a pool of 8, so
//! nearly every pair shares most of its text. `-- --near SIZE...`: SIZE near-identical tools
//! (one description, names differing by a number) — one finding per pair would be n²/2.
//! `-- --huge MIB...`: one tool whose description is MIB MiB of prose (issue 12 #14): lint's
//! time and its peak memory above a one-tool baseline, as a multiple of the description.
#![allow(clippy::print_stdout, clippy::unwrap_used)]

use std::process::Command;
use std::time::Instant;

use mf::analyze::cluster::{ClusterOptions, cluster};
use mf::analyze::lint::{LintOptions, lint};
use mf::analyze::similarity::{similar_pairs, similar_pairs_exhaustive, similar_pairs_top};
use mf::surface::{Confidence, Origin, Surface, Tool};
use serde_json::{Map, Value, json};

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
    "deployment",
    "secret",
    "webhook",
    "team",
    "role",
    "policy",
    "dataset",
    "table",
    "query",
    "dashboard",
    "metric",
    "log",
    "trace",
    "calendar",
    "event",
    "message",
    "channel",
    "contact",
    "lead",
    "campaign",
    "product",
    "coupon",
    "subscription",
];
const QUALS: &[&str] = &[
    "", "", "", "", "by_id", "details", "batch", "history", "status", "summary", "v2", "all",
];
const PHRASES: &[&str] = &[
    "Returns the matching records as JSON.",
    "Use this when the user asks about a specific item.",
    "Results are paginated; pass the cursor from the previous page.",
    "Fails if the caller lacks permission.",
    "Only active items are included unless archived is set.",
    "The operation cannot be undone.",
    "Times are in UTC.",
    "Prefer the batch variant for more than ten items.",
];
const PARAMS: &[(&str, &str)] = &[
    ("id", "string"),
    ("ids", "array"),
    ("query", "string"),
    ("cursor", "string"),
    ("limit", "integer"),
    ("owner", "string"),
    ("projectId", "string"),
    ("status", "string"),
    ("since", "string"),
    ("dryRun", "boolean"),
    ("payload", "object"),
    ("tags", "array"),
];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as usize
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.next() % xs.len()]
    }
}

/// The adversarial surface (see the module docs).
fn adversarial(n: usize) -> Surface {
    let mut rng = Rng(0xA5A5_5A5A_1234_5678 ^ n as u64);
    let vocab: Vec<String> = (0..50).map(word).collect();
    let tools = (0..n)
        .map(|i| {
            let (verb, noun) = (VERBS[rng.next() % 20], NOUNS[rng.next() % 30]);
            let mut d = format!("{} the {noun}", capitalize(verb));
            for _ in 0..10 + rng.next() % 11 {
                d.push(' ');
                d.push_str(&vocab[rng.next() % 50]);
            }
            let mut props = Map::new();
            for _ in 0..1 + rng.next() % 4 {
                let (p, ty) = PARAMS[rng.next() % PARAMS.len().min(8)];
                props.insert(p.to_owned(), json!({"type": ty}));
            }
            let mut t = Tool::named(
                &format!("{verb}_{noun}_{i}"),
                Origin::default(),
                Confidence::High,
            );
            t.description = Some(d);
            t.input_schema = Some(json!({"type": "object", "properties": props}));
            t
        })
        .collect();
    Surface {
        tools,
        skills: vec![],
        unread: Vec::new(),
    }
}

/// `n` near-identical tools.
fn near(n: usize) -> Surface {
    let tools = (0..n)
        .map(|i| {
            let mut t = Tool::named(&format!("search_issues_{i}"), Origin::default(), Confidence::High);
            t.description = Some("Search issues in a repository by keyword and label.".into());
            t.input_schema = Some(json!({"type": "object", "properties": {"query": {"type": "string"}, "repo": {"type": "string"}}, "required": ["query"]}));
            t
        })
        .collect();
    Surface {
        tools,
        skills: vec![],
        unread: Vec::new(),
    }
}

fn surface(n: usize) -> Surface {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ n as u64);
    let mut tools: Vec<Tool> = Vec::with_capacity(n);
    while tools.len() < n {
        let i = tools.len();
        if i > 0 && rng.next().is_multiple_of(20) {
            let mut t = tools[rng.next() % i].clone();
            t.name = format!("{}_{}", t.name, rng.pick(&["v2", "new", "beta", "alt"]));
            t.description = t.description.map(|d| format!("{d} {}", rng.pick(PHRASES)));
            tools.push(t);
            continue;
        }
        let server = format!("srv{}", i % 40);
        let (verb, noun, qual) = (rng.pick(VERBS), rng.pick(NOUNS), rng.pick(QUALS));
        let parts: Vec<&str> = [server.as_str(), verb, noun, qual]
            .into_iter()
            .filter(|p| !p.is_empty())
            .collect();
        let name = if rng.next().is_multiple_of(4) {
            parts.join("-")
        } else {
            parts.join("_")
        };
        let mut description = format!(
            "{} {} {}.",
            capitalize(verb),
            rng.pick(&["one", "every", "the selected", "a"]),
            noun
        );
        // Tool-specific wording: 8-20 words from a 2,000-word synthetic vocabulary, then one
        // stock phrase (the boilerplate real servers share).
        for _ in 0..8 + rng.next() % 13 {
            description.push(' ');
            description.push_str(&word(rng.next() % 2_000));
        }
        description.push_str(". ");
        description.push_str(rng.pick(PHRASES));
        let mut props = Map::new();
        let mut required = Vec::new();
        for _ in 0..rng.next() % 5 {
            let (p, ty) = PARAMS[rng.next() % PARAMS.len()];
            props.insert(
                p.to_owned(),
                json!({"type": ty, "description": format!("The {p}.")}),
            );
            if rng.next().is_multiple_of(2) {
                required.push(Value::String(p.to_owned()));
            }
        }
        let mut t = Tool::named(&format!("{name}_{i}"), Origin::default(), Confidence::High);
        t.description = Some(description);
        t.input_schema = Some(json!({"type": "object", "properties": props, "required": required}));
        tools.push(t);
    }
    Surface {
        tools,
        skills: vec![],
        unread: Vec::new(),
    }
}

/// The `i`-th word of a synthetic vocabulary: 4 to 9 pseudo-random letters (as many distinct
/// trigrams as real prose, which a syllable alphabet would not have).
fn word(i: usize) -> String {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03 ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let len = 4 + rng.next() % 6;
    (0..len)
        .map(|_| (b'a' + (rng.next() % 26) as u8) as char)
        .collect()
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn peak_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Lint and cluster only, on the adversarial or near-identical surface.
fn run_hard(kind: &str, n: usize) {
    let s = if kind == "near" {
        near(n)
    } else {
        adversarial(n)
    };
    let t = Instant::now();
    let report = cluster(&s, &ClusterOptions::default());
    let clu = t.elapsed();
    let t = Instant::now();
    let findings = lint(&s, &LintOptions::default());
    let lin = t.elapsed();
    let pairs = findings.iter().filter(|f| f.pair.is_some()).count();
    println!(
        "{kind:>11} {n:>6} tools | cluster {:>8.1} ms ({} clusters) | lint {:>8.1} ms ({} findings, {pairs} pair findings) | peak {:.1} MiB",
        clu.as_secs_f64() * 1e3,
        report.summary.clusters,
        lin.as_secs_f64() * 1e3,
        findings.len(),
        peak_kib() as f64 / 1024.0
    );
}

fn run_one(n: usize) {
    let s = surface(n);
    let t = Instant::now();
    let pairs04 = similar_pairs(&s.tools, 0.4).len();
    let sim04 = t.elapsed();
    let t = Instant::now();
    let pairs05 = similar_pairs(&s.tools, 0.5).len();
    let sim05 = t.elapsed();
    let t = Instant::now();
    let report = cluster(&s, &ClusterOptions::default());
    let clu = t.elapsed();
    let t = Instant::now();
    let findings = lint(
        &s,
        &LintOptions {
            max_tools: usize::MAX,
            ..LintOptions::default()
        },
    )
    .len();
    let lin = t.elapsed();
    println!(
        "{n:>6} tools | similar_pairs@0.4 {:>8.1} ms ({pairs04} pairs) | @0.5 {:>8.1} ms ({pairs05}) | cluster {:>8.1} ms ({} clusters) | lint {:>8.1} ms ({findings} findings) | peak {:.1} MiB",
        sim04.as_secs_f64() * 1e3,
        sim05.as_secs_f64() * 1e3,
        clu.as_secs_f64() * 1e3,
        report.summary.clusters,
        lin.as_secs_f64() * 1e3,
        peak_kib() as f64 / 1024.0
    );
}

/// `--check SIZE`: the indexed search must equal scoring every pair on the bench surface.
fn check(n: usize) {
    let s = surface(n);
    let all = similar_pairs_exhaustive(&s.tools, 0.3);
    for t in [0.3, 0.4, 0.45, 0.5, 0.6, 0.75, 0.9, 1.0] {
        let want: Vec<_> = all.iter().filter(|p| p.score >= t).cloned().collect();
        assert_eq!(similar_pairs(&s.tools, t), want, "similar_pairs at {t}");
        let mut ranked = want.clone();
        ranked.sort_by(|x, y| {
            y.score
                .total_cmp(&x.score)
                .then((x.a, x.b).cmp(&(y.a, y.b)))
        });
        for k in [0, 1, 10, 100] {
            let mut top: Vec<_> = ranked.iter().take(k).cloned().collect();
            top.sort_by_key(|p| (p.a, p.b));
            let got = similar_pairs_top(&s.tools, t, k);
            assert_eq!(got.total, want.len(), "total at {t}");
            assert_eq!(got.pairs, top, "top {k} at {t}");
        }
        println!("{n:>6} tools | t = {t}: {} pairs, identical", want.len());
    }
}

/// Lint one tool with a `mib` MiB description (0: a one-line one); prints time and VmHWM.
fn run_huge(mib: usize) {
    let words = [
        "alpha", "search", "ticket", "refund", "the", "previous", "status", "order",
    ];
    let mut desc = String::with_capacity(mib * 1024 * 1024 + 16);
    let mut i = 0usize;
    while desc.len() < (mib * 1024 * 1024).max(20) {
        desc.push_str(words[(i * 7 + i / 3) % words.len()]);
        desc.push(' ');
        i += 1;
    }
    let tool = Tool {
        description: Some(desc),
        input_schema: Some(json!({"type": "object", "properties": {"q": {"type": "string"}}})),
        ..Tool::named("big_tool", Origin::default(), Confidence::High)
    };
    let s = Surface {
        tools: vec![tool],
        skills: vec![],
        unread: Vec::new(),
    };
    let before = peak_kib();
    let t = Instant::now();
    let findings = lint(&s, &LintOptions::default());
    println!(
        "{mib:>4} MiB description | lint {:>7.2} s | {} findings | peak {} MiB (before lint {} MiB)",
        t.elapsed().as_secs_f64(),
        findings.len(),
        peak_kib() / 1024,
        before / 1024
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(pos) = args.iter().position(|a| a == "--huge-one") {
        run_huge(args[pos + 1].parse().unwrap());
        return;
    }
    if args.iter().any(|a| a == "--huge") {
        let exe = std::env::current_exe().unwrap();
        let sizes: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
        for mib in if sizes.is_empty() { vec![0, 15] } else { sizes } {
            let status = Command::new(&exe)
                .args(["--huge-one", &mib.to_string()])
                .status()
                .unwrap();
            assert!(status.success(), "{mib} MiB failed");
        }
        return;
    }
    if let Some(pos) = args.iter().position(|a| a == "--check") {
        check(args[pos + 1].parse().unwrap());
        return;
    }
    if let Some(pos) = args.iter().position(|a| a == "--one") {
        match args.get(pos + 2).map(String::as_str) {
            Some(kind @ ("adversarial" | "near")) => run_hard(kind, args[pos + 1].parse().unwrap()),
            _ => run_one(args[pos + 1].parse().unwrap()),
        }
        return;
    }
    let kind = if args.iter().any(|a| a == "--adversarial") {
        "adversarial"
    } else if args.iter().any(|a| a == "--near") {
        "near"
    } else {
        "default"
    };
    let sizes: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() {
        vec![100, 1_000, 10_000]
    } else {
        sizes
    };
    let exe = std::env::current_exe().unwrap();
    for n in sizes {
        let status = Command::new(&exe)
            .args(["--one", &n.to_string(), kind])
            .status()
            .unwrap();
        assert!(status.success(), "size {n} failed");
    }
}
