//! Conformance with the Berkeley Function Calling Leaderboard (issue 21): for every item of
//! BFCL's `simple_python`, `multiple`, `parallel`, `parallel_multiple` and `irrelevance`
//! categories and their `live_` counterparts, the ground-truth answer and seeded perturbations of it (wrong type, missing
//! required, extra parameter, value outside the accepted list, optional omitted, wrong
//! function, an extra call, a repeated call; and three that probe BFCL's leniency: a string
//! re-cased and re-punctuated, a whole float written as an integer, a list reversed) are
//! judged twice: by BFCL's own checker
//! (`scripts/bfcl_conformance.py`, the pinned `bfcl-eval` from `scripts/install-bfcl.sh`) and by
//! mf — the category imported with `mf tasks import bfcl`, the same outputs answered by the
//! `scripted` model, `mf eval` scoring them. A trial passes in mf when its verdict is a
//! selection success and its argument check (if any) passed, the JUnit and case-outcome rule.
//!
//! The agreement table (category × perturbation) is printed and written to
//! `$CARGO_TARGET_TMPDIR/bfcl-agreement.md`; docs/bfcl.md holds the same table and explains
//! every disagreement. Asserted: 100% on the ground truth, ≥ 99% over everything but
//! `repeated_call` on the five categories (the `live_` ones are reported, their schemas are
//! `enum`-heavy), and every disagreement is one of the two docs/bfcl.md explains:
//! `repeated_call` on single-call categories (mf's single-call cases accept repeats of the
//! expected tool by design; BFCL fails any second call) and `string_reformatted` on a
//! parameter with an `enum` (BFCL ignores `enum`; mf validates the schema).
//!
//! Needs `target/bfcl` (`scripts/install-bfcl.sh`); skips with a message without it unless
//! `MF_REQUIRE_BFCL=1` (set by `.ci/run`), which makes its absence a failure. Cases the import
//! marks `reviewed: false` (an answer requires a parameter the function does not declare) are
//! set aside, after checking that BFCL fails their ground truth too.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::support::{mf, root};

/// The five categories, then their `live_` (user-contributed) counterparts.
const CATEGORIES: [&str; 10] = [
    "simple_python",
    "multiple",
    "parallel",
    "parallel_multiple",
    "irrelevance",
    "live_simple",
    "live_multiple",
    "live_parallel",
    "live_parallel_multiple",
    "live_irrelevance",
];

/// Perturbations whose single-call disagreement is by design (docs/bfcl.md), kept out of the
/// agreement target.
const BY_DESIGN: &str = "repeated_call";

#[derive(Default, Clone, Copy)]
struct Cell {
    agree: u32,
    total: u32,
}

// The table and the disagreements are the test's report (`--nocapture`), like the simulations'.
#[allow(clippy::print_stdout, clippy::print_stderr)]
#[test]
fn mf_agrees_with_the_bfcl_checker_on_ground_truth_and_perturbations() {
    let python = root().join("target/bfcl/bin/python");
    if !python.exists() {
        let required = std::env::var("MF_REQUIRE_BFCL").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "MF_REQUIRE_BFCL=1 but {} is missing: run scripts/install-bfcl.sh",
            python.display()
        );
        eprintln!("skipped: bfcl-eval is not installed (scripts/install-bfcl.sh)");
        return;
    }
    let dir = tempfile::tempdir().expect("tmp");
    let out = Command::new(&python)
        .arg(root().join("scripts/bfcl_conformance.py"))
        .arg(dir.path())
        .args(CATEGORIES)
        .output()
        .expect("run the BFCL checker");
    assert!(
        out.status.success(),
        "bfcl_conformance.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let data = String::from_utf8(out.stdout).expect("utf-8");
    let data = Path::new(data.trim());

    let mut table: BTreeMap<(&str, String), Cell> = BTreeMap::new();
    let mut perturbations: Vec<String> = Vec::new();
    let mut disagreements: Vec<String> = Vec::new();
    let mut unexplained: Vec<String> = Vec::new();
    let mut set_aside: Vec<String> = Vec::new();
    for category in CATEGORIES {
        let suite = dir.path().join(format!("{category}.suite.json"));
        let file = data.join(format!("BFCL_v4_{category}.json"));
        let answers = data.join(format!("possible_answer/BFCL_v4_{category}.json"));
        let mut import = mf();
        import
            .args(["tasks", "import", "bfcl"])
            .arg(&file)
            .arg("--out")
            .arg(&suite);
        if answers.exists() {
            import.arg("--answers").arg(&answers);
        }
        let imported = import.output().expect("import");
        assert!(
            imported.status.success(),
            "{category}: import failed: {}",
            String::from_utf8_lossy(&imported.stderr)
        );

        if category == "multiple" {
            // The acceptance run of issue 21: the imported suite plans as README shows.
            let dry = mf()
                .args(["eval", "--suite"])
                .arg(&suite)
                .args(["--models", "lexical", "--dry-run"])
                .output()
                .expect("dry run");
            let text = String::from_utf8_lossy(&dry.stdout);
            assert_eq!(dry.status.code(), Some(0), "{text}");
            assert!(
                text.starts_with("plan: 200 cases × 5 repeats × 1 model = 1000 trials; up to"),
                "{text}"
            );
            // ... and `mf tasks lint` accepts it: no error finding, every case checked against
            // its own tools (the suite has no tools[] or surface).
            let lint = mf()
                .args(["tasks", "lint", "--suite"])
                .arg(&suite)
                .args(["--format", "json"])
                .output()
                .expect("tasks lint");
            assert_eq!(
                lint.status.code(),
                Some(0),
                "{}{}",
                String::from_utf8_lossy(&lint.stdout),
                String::from_utf8_lossy(&lint.stderr)
            );
            let report: Value = serde_json::from_slice(&lint.stdout).expect("lint JSON");
            assert_eq!(report["summary"]["errors"], 0, "{report}");
            assert_eq!(report["summary"]["cases"], 200, "{report}");
        }
        let bfcl: Value =
            crate::support::read_json(dir.path().join(format!("{category}.bfcl.json")));
        let kinds: Vec<String> = bfcl["perturbations"]
            .as_array()
            .expect("perturbations")
            .iter()
            .map(|k| k.as_str().expect("name").to_owned())
            .collect();
        if perturbations.is_empty() {
            perturbations.clone_from(&kinds);
        }
        let script = dir.path().join(format!("{category}.script.json"));
        let eval = mf()
            .args(["eval", "--suite"])
            .arg(&suite)
            .arg("--models")
            .arg(format!("scripted:{}", script.display()))
            .args([
                "--repeat",
                &kinds.len().to_string(),
                "--no-cache",
                "--format",
                "json",
            ])
            .output()
            .expect("eval");
        assert!(
            eval.status.code() == Some(0),
            "{category}: eval failed: {}",
            String::from_utf8_lossy(&eval.stderr)
        );
        let card: Value = serde_json::from_slice(&eval.stdout).expect("scorecard");
        let unreviewed: Vec<&str> = card["suite"]["cases"]
            .as_array()
            .expect("cases")
            .iter()
            .filter(|c| c["reviewed"] == false)
            .map(|c| c["id"].as_str().expect("id"))
            .collect();
        for id in &unreviewed {
            // Imported unreviewed only where the answer requires an undeclared parameter: then
            // BFCL's own checker fails even the ground truth.
            assert_eq!(
                bfcl["items"][*id][0],
                Value::Bool(false),
                "{category} {id}: unreviewed, but BFCL passes its ground truth"
            );
            set_aside.push(format!("{category} {id}"));
        }
        let trials = card["models"][0]["trials"].as_array().expect("trials");
        assert_eq!(
            trials.len(),
            bfcl["items"].as_object().expect("items").len() * kinds.len(),
            "{category}: every item × perturbation was judged"
        );
        for t in trials {
            let case = t["case"].as_str().expect("case");
            let trial = t["trial"].as_u64().expect("trial") as usize;
            let Some(theirs) = bfcl["items"][case][trial].as_bool() else {
                continue; // the perturbation does not apply to this item
            };
            if unreviewed.contains(&case) {
                continue; // imported unreviewed: no call can pass BFCL's check (docs/bfcl.md)
            }
            let verdict = t["verdict"].as_str().expect("verdict");
            let args_ok = t.get("args").is_none_or(|a| a.is_null() || a["ok"] == true);
            let ours = matches!(verdict, "correct" | "correct-abstention") && args_ok;
            let cell = table.entry((category, kinds[trial].clone())).or_default();
            cell.total += 1;
            if ours == theirs {
                cell.agree += 1;
            } else {
                // The two disagreements docs/bfcl.md explains (mf's choices, not bugs).
                let single = matches!(
                    category,
                    "simple_python" | "multiple" | "live_simple" | "live_multiple"
                );
                let by_design = (kinds[trial] == BY_DESIGN && single && ours)
                    || (kinds[trial] == "string_reformatted"
                        && !ours
                        && bfcl["reformattedEnum"]
                            .as_array()
                            .is_some_and(|ids| ids.iter().any(|i| i == case)));
                if !by_design {
                    unexplained.push(format!("{category} {case} {}", kinds[trial]));
                }
                disagreements.push(format!(
                    "{category} {case} {}: mf {} ({verdict}{}), BFCL {}",
                    kinds[trial],
                    if ours { "pass" } else { "fail" },
                    t["args"]["problems"]
                        .as_array()
                        .map(|p| format!(": {}", Value::Array(p.clone())))
                        .unwrap_or_default(),
                    if theirs { "pass" } else { "fail" },
                ));
            }
        }
    }

    let report = render(&table, &perturbations);
    println!("{report}");
    for d in &disagreements {
        println!("disagreement: {d}");
    }
    let _ = std::fs::write(
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("bfcl-agreement.md"),
        format!("{report}\n{}\n", disagreements.join("\n")),
    );

    let sum = |keep: &dyn Fn(&str) -> bool| {
        table
            .iter()
            .filter(|((_, k), _)| keep(k))
            .fold((0, 0), |(a, t), (_, c)| (a + c.agree, t + c.total))
    };
    let (gt_agree, gt_total) = sum(&|k| k == "ground_truth");
    assert_eq!(gt_agree, gt_total, "ground truth: {disagreements:#?}");
    assert!(
        gt_total >= 1240 + 2200,
        "every item of the ten categories: {gt_total}"
    );
    // The target is the issue's: the five categories, everything but the by-design column.
    let (agree, total) = table
        .iter()
        .filter(|((c, k), _)| !c.starts_with("live_") && k != BY_DESIGN)
        .fold((0, 0), |(a, t), (_, c)| (a + c.agree, t + c.total));
    println!("set aside (imported unreviewed): {set_aside:?}");
    assert!(
        f64::from(agree) / f64::from(total) >= 0.99,
        "agreement {agree}/{total}: {disagreements:#?}"
    );
    assert!(
        unexplained.is_empty(),
        "disagreements docs/bfcl.md does not explain: {unexplained:#?}"
    );
}

/// The agreement table as markdown: one row per category, one column per perturbation, then
/// the total without and with the by-design column.
fn render(table: &BTreeMap<(&str, String), Cell>, kinds: &[String]) -> String {
    let mut s = String::from("| category |");
    for k in kinds {
        let _ = write!(s, " {k} |");
    }
    s.push_str(" all but repeated_call |\n|---|");
    for _ in kinds {
        s.push_str("---|");
    }
    s.push_str("---|\n");
    let mut column_totals = vec![Cell::default(); kinds.len()];
    let mut grand = Cell::default();
    for category in CATEGORIES {
        if !table.keys().any(|(c, _)| *c == category) {
            continue;
        }
        let _ = write!(s, "| {category} |");
        let mut row = Cell::default();
        for (i, k) in kinds.iter().enumerate() {
            match table.get(&(category, k.clone())) {
                Some(c) => {
                    let _ = write!(s, " {}/{} |", c.agree, c.total);
                    column_totals[i].agree += c.agree;
                    column_totals[i].total += c.total;
                    if k != BY_DESIGN {
                        row.agree += c.agree;
                        row.total += c.total;
                    }
                }
                None => s.push_str(" — |"),
            }
        }
        grand.agree += row.agree;
        grand.total += row.total;
        let _ = writeln!(s, " {} |", percent(row));
    }
    s.push_str("| all |");
    for c in &column_totals {
        let _ = write!(s, " {}/{} |", c.agree, c.total);
    }
    let _ = writeln!(s, " {} |", percent(grand));
    s
}

fn percent(c: Cell) -> String {
    format!(
        "{}/{} = {:.2}%",
        c.agree,
        c.total,
        100.0 * f64::from(c.agree) / f64::from(c.total.max(1))
    )
}
