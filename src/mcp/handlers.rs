//! The free tools of `mf mcp`: each reads its arguments (paths resolved inside the working
//! directory, live targets only when allowed), calls the engine the matching command calls, and
//! returns a one-line summary for people plus the report as JSON (the same document the
//! command's `--format json` prints, SCHEMA.md).

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};

use super::args::{Args, Refusal};
use super::limits::{Limits, MAX_PROBE_TIMEOUT_MS};
use crate::analyze::check::{CheckOptions, check};
use crate::analyze::cluster::{ClusterOptions, cluster};
use crate::analyze::coverage::coverage;
use crate::analyze::lint::report::build_report;
use crate::analyze::lint::{LintOptions, lint, select};
use crate::compare::eval::comparability;
use crate::compare::report::scorecards;
use crate::eval::author::{AddRequest, add_cases as add_engine};
use crate::render::text::plural;
use crate::report::compare::{GateSettings, Pairing};
use crate::report::scorecard::Scorecard;
use crate::suite::author::{DEFAULT_SOURCE, Marking, NewCase};
use crate::suite::input::{SurfaceRequest, resolve, suite_surface};
use crate::suite::{Suite, discover, read_suite_any};
use crate::surface::formats;
use crate::surface::input::InputSpec;
use crate::surface::scan::{ScanOptions, scan};
use crate::surface::target::Target;

/// What a tool returns: a line for people, then the data.
#[derive(Debug, Clone)]
pub struct Reply {
    /// One or two sentences: the answer at a glance.
    pub summary: String,
    /// The full result as JSON.
    pub data: Value,
}

/// A tool's outcome: a reply, or a refusal (an MCP tool error).
pub type Outcome = Result<Reply, Refusal>;

fn error(tool: &str, e: impl std::fmt::Display) -> Refusal {
    Refusal(format!("{tool}: {e}"))
}

fn to_json<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// The suite argument resolved inside the working directory, else the default suite here.
pub fn suite_path(tool: &str, args: &Args, limits: &Limits) -> Result<PathBuf, Refusal> {
    match args.str("suite")? {
        Some(s) => Ok(limits.resolve("suite", s)?),
        None => discover::default_suite(Path::new("")).ok_or_else(|| {
            Refusal(format!(
                "{tool}: no suite here (mf.suite.json, mf.suite.yaml or mf.suite.yml); pass \
                 suite, or draft one with scan_tools and writeSuite: true"
            ))
        }),
    }
}

fn read_suite(tool: &str, path: &Path) -> Result<(Suite, String), Refusal> {
    let display = path.to_string_lossy().replace('\\', "/");
    let suite = read_suite_any(path, &display).map_err(|e| error(tool, e))?;
    Ok((suite, display))
}

/// `paths` / `stdio` / `url` into what the surface reader takes, with the limits applied.
fn input_spec(tool: &str, args: &Args, limits: &Limits) -> Result<InputSpec, Refusal> {
    let mut spec = InputSpec::default();
    for p in args.strings("paths")? {
        if p.contains("://") {
            return Err(Refusal(format!(
                "{tool}: paths: {p:?} is a URL; give a live server as url (allowed only when \
                 the operator started mf mcp with --allow-live-targets)"
            )));
        }
        spec.paths
            .push(limits.resolve("paths", &p)?.to_string_lossy().into_owned());
    }
    let stdio = args.str("stdio")?;
    let url = args.str("url")?;
    if stdio.is_some() || url.is_some() {
        if !limits.allow_live_targets {
            return Err(Refusal(format!(
                "{tool}: {} a live server, and this mf mcp was started without \
                 --allow-live-targets; pass paths of saved tool files instead (a tools/list \
                 snapshot), or ask the operator to restart mf mcp with --allow-live-targets",
                if stdio.is_some() {
                    "stdio starts"
                } else {
                    "url reaches"
                }
            )));
        }
        let target = match (stdio, url) {
            (Some(cmd), None) => Target::stdio(cmd),
            (None, Some(u)) if u.starts_with("http://") || u.starts_with("https://") => {
                Target::positional(u)
            }
            (None, Some(u)) => return Err(Refusal(format!("{tool}: url {u:?} is not http(s)://"))),
            _ => return Err(Refusal(format!("{tool}: give stdio or url, not both"))),
        };
        spec.live = Some(target.map_err(|e| error(tool, e))?);
    }
    Ok(spec)
}

/// `scan_tools`.
pub fn scan_tools(args: &Args, limits: &Limits) -> Outcome {
    let root = match args.str("root")? {
        Some(r) => limits.resolve("root", r)?,
        None => PathBuf::from("."),
    };
    let probe = args.bool("probe", false)?;
    if probe && !limits.allow_live_targets {
        return Err(Refusal(
            "scan_tools: probe starts the repository's configured MCP servers (it runs their \
             code), and this mf mcp was started without --allow-live-targets; scan without \
             probe, or ask the operator to restart mf mcp with --allow-live-targets"
                .into(),
        ));
    }
    let timeout = args.u64("timeoutMs")?.unwrap_or(10_000);
    if timeout == 0 || timeout > MAX_PROBE_TIMEOUT_MS {
        return Err(Refusal(format!(
            "scan_tools: timeoutMs must be 1–{MAX_PROBE_TIMEOUT_MS}, got {timeout}"
        )));
    }
    let mut result = scan(&root, &ScanOptions::default()).map_err(|e| error("scan_tools", e))?;
    let probes = if probe {
        crate::surface::scan::probe::probe_servers(
            &root,
            &mut result,
            Duration::from_millis(timeout),
        )
        .map_err(|e| error("scan_tools", e))?
    } else {
        Vec::new()
    };
    let root_display = root.to_string_lossy().replace('\\', "/");
    let mut report = crate::report::scan::build(&root_display, &result);
    report.probes = probes;
    let name = std::fs::canonicalize(&root)
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "suite".into());
    let draft = crate::report::scan::draft_suite(&name, &result);
    let mut wrote = Vec::new();
    if args.bool("writeSuite", false)? && !(result.tools.is_empty() && result.skills.is_empty()) {
        let suite_target = discover::scan_suite_target(&root);
        for (path, text) in [
            (
                root.join("mf.scan.json"),
                crate::render::json::to_string(&report),
            ),
            (suite_target, crate::render::json::to_string(&draft)),
        ] {
            crate::util::atomic::write_atomic(&path, text.as_bytes()).map_err(|e| {
                error(
                    "scan_tools",
                    format!("cannot write {}: {e}", path.display()),
                )
            })?;
            wrote.push(path.to_string_lossy().replace('\\', "/"));
        }
    }
    let summary = format!(
        "{} and {} found in {root_display}{}",
        plural(result.tools.len(), "tool", "tools"),
        plural(result.skills.len(), "skill", "skills"),
        if wrote.is_empty() {
            String::new()
        } else {
            format!("; wrote {}", wrote.join(", "))
        }
    );
    Ok(Reply {
        summary,
        data: json!({"report": report, "draft": draft, "wrote": wrote}),
    })
}

/// `list_suite`.
pub fn list_suite(args: &Args, limits: &Limits) -> Outcome {
    let path = suite_path("list_suite", args, limits)?;
    let (suite, display) = read_suite("list_suite", &path)?;
    let (surface, warnings, surface_label) =
        suite_surface(&suite, &path, &display).map_err(|e| error("list_suite", e))?;
    let cases: Vec<Value> = suite
        .cases
        .iter()
        .map(|c| {
            json!({
                "id": c.id,
                "input": c.input,
                "expectedTool": c.expected_tool.clone().flatten(),
                "mustNotCall": c.is_must_not_call(),
                "expectedArgs": c.expected_args,
                "tags": c.tags,
                "reviewed": c.reviewed,
                "source": c.source,
                "line": c.line,
            })
        })
        .collect();
    let unreviewed = suite.cases.iter().filter(|c| !c.reviewed).count();
    let format = match suite.format {
        crate::suite::SuiteFormat::Json => "json",
        crate::suite::SuiteFormat::Yaml => "yaml",
        crate::suite::SuiteFormat::TaskSetJson => "task-set-json",
        crate::suite::SuiteFormat::TaskSetYaml => "task-set-yaml",
    };
    let summary = format!(
        "{display}: suite {:?}, {} ({unreviewed} unreviewed) over {} ({surface_label})",
        suite.name,
        plural(suite.cases.len(), "case", "cases"),
        plural(surface.tools.len(), "tool", "tools"),
    );
    Ok(Reply {
        summary,
        data: json!({
            "file": display,
            "name": suite.name,
            "format": format,
            "surface": surface_label,
            "tools": surface.tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>(),
            "profiles": suite.profiles,
            "cases": cases,
            "warnings": warnings,
        }),
    })
}

/// `coverage`.
pub fn coverage_tool(args: &Args, limits: &Limits) -> Outcome {
    let path = suite_path("coverage", args, limits)?;
    let (suite, display) = read_suite("coverage", &path)?;
    let (surface, _, _) =
        suite_surface(&suite, &path, &display).map_err(|e| error("coverage", e))?;
    let tools: Vec<String> = surface.tools.iter().map(|t| t.name.clone()).collect();
    let report = coverage(&suite, &tools);
    let s = &report.summary;
    let summary = format!(
        "{}: {}/{} tools have ≥3 reviewed cases; {} reviewed cases, {} must-not-call — {}",
        display,
        s.tools_covered,
        s.tools,
        s.reviewed_cases,
        s.must_not_call,
        if s.meets_guidance {
            "meets the guidance"
        } else {
            "below the guidance"
        }
    );
    Ok(Reply {
        summary,
        data: to_json(&report),
    })
}

/// `add_cases`.
pub fn add_cases(args: &Args, limits: &Limits) -> Outcome {
    let path = suite_path("add_cases", args, limits)?;
    let Some(Value::Array(items)) = args.value("cases") else {
        return Err(Refusal(
            "add_cases: cases must be an array of {input, expectedTool, expectedArgs?, tags?, id?}"
                .into(),
        ));
    };
    if items.len() > 100 {
        return Err(Refusal(format!(
            "add_cases: at most 100 cases per call, got {}",
            items.len()
        )));
    }
    let mut cases = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let Some(map) = item.as_object() else {
            return Err(Refusal(format!("add_cases: cases[{i}] must be an object")));
        };
        let what = format!("add_cases cases[{i}]");
        let a = Args::new(
            &what,
            map,
            &["input", "expectedTool", "expectedArgs", "tags", "id"],
        )?;
        let input = a
            .str("input")?
            .ok_or_else(|| Refusal(format!("{what}: input is required")))?;
        let expected_tool = match map.get("expectedTool") {
            None => {
                return Err(Refusal(format!(
                    "{what}: expectedTool is required (a tool name, or null when no tool should be called)"
                )));
            }
            Some(Value::Null) => None,
            Some(_) => a.str("expectedTool")?.map(str::to_owned),
        };
        cases.push(NewCase {
            id: a.str("id")?.map(str::to_owned),
            input: input.to_owned(),
            expected_tool,
            expected_args: a.value("expectedArgs").cloned(),
            tags: a.strings("tags")?,
        });
    }
    let request = AddRequest {
        suite: path,
        cases,
        marking: Marking {
            source: args.str("source")?.unwrap_or(DEFAULT_SOURCE).to_owned(),
            reviewed: args.bool("reviewed", false)?,
        },
        dry_run: args.bool("dryRun", false)?,
    };
    let added = add_engine(&request).map_err(|e| error("add_cases", e))?;
    let ids: Vec<String> = added
        .cases
        .iter()
        .map(|c| format!("{:?}", c.case.id))
        .collect();
    let summary = format!(
        "{} {} to {} ({}; reviewed: {}): {}",
        if added.written {
            "added"
        } else {
            "dry run, would add"
        },
        plural(added.cases.len(), "case", "cases"),
        added.file,
        request.marking.source,
        request.marking.reviewed,
        ids.join(", ")
    );
    Ok(Reply {
        summary,
        data: to_json(&added),
    })
}

/// `lint_surface`.
pub fn lint_surface(args: &Args, limits: &Limits) -> Outcome {
    let suite = match args.str("suite")? {
        Some(s) => Some(limits.resolve("suite", s)?),
        None => None,
    };
    let request = SurfaceRequest {
        input: input_spec("lint_surface", args, limits)?,
        suite,
    };
    let input = resolve(&request).map_err(|e| error("lint_surface", e))?;
    let suite = input.suite.as_ref();
    let options = LintOptions {
        profiles: suite.map(|s| s.profiles.clone()).unwrap_or_default(),
        ..LintOptions::default()
    };
    let findings = select(
        lint(&input.surface, &options),
        &[],
        &args.strings("ignore")?,
    );
    let (findings, suppressed) = crate::analyze::baseline::apply(
        findings,
        None,
        suite.map(|s| s.suppressions.as_slice()).unwrap_or_default(),
    );
    let report = build_report(&input.label, &input.surface, findings, suppressed);
    let count = |sev: &str| {
        report
            .findings
            .iter()
            .filter(|f| f.severity.as_str() == sev)
            .count()
    };
    let summary = format!(
        "{}: {} — {}, {}, {}",
        input.label,
        plural(input.surface.tools.len(), "tool", "tools"),
        plural(count("error"), "error", "errors"),
        plural(count("warn"), "warning", "warnings"),
        plural(count("info"), "note", "notes")
    );
    Ok(Reply {
        summary,
        data: to_json(&report),
    })
}

/// `cluster_surface`.
pub fn cluster_surface(args: &Args, limits: &Limits) -> Outcome {
    let threshold = args.f64("threshold")?.unwrap_or(0.5);
    if !(0.0..=1.0).contains(&threshold) {
        return Err(Refusal(format!(
            "cluster_surface: threshold must be between 0 and 1, got {threshold}"
        )));
    }
    let request = SurfaceRequest {
        input: input_spec("cluster_surface", args, limits)?,
        suite: None,
    };
    let input = resolve(&request).map_err(|e| error("cluster_surface", e))?;
    let report = cluster(
        &input.surface,
        &ClusterOptions {
            threshold,
            ..ClusterOptions::default()
        },
    );
    let data = to_json(&report);
    let clusters = data
        .get("clusters")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let summary = format!(
        "{}: {} in {}",
        input.label,
        plural(input.surface.tools.len(), "tool", "tools"),
        plural(
            clusters,
            "cluster of confusable tools",
            "clusters of confusable tools"
        )
    );
    Ok(Reply { summary, data })
}

/// `check_install`.
pub fn check_install(args: &Args, limits: &Limits) -> Outcome {
    let manifest = args
        .str("manifest")?
        .ok_or_else(|| Refusal("check_install: manifest is required".to_owned()))?;
    let manifest = limits.resolve("manifest", manifest)?;
    let (name, new) =
        formats::manifest::read_manifest(&manifest).map_err(|e| error("check_install", e))?;
    let spec = input_spec("check_install", args, limits)?;
    let installed = if spec.is_empty() {
        resolve(&SurfaceRequest {
            input: spec,
            suite: None,
        })
        .map(|r| r.surface)
    } else {
        crate::surface::input::load(&spec)
            .map(|i| i.surface)
            .map_err(Into::into)
    }
    .map_err(|e| error("check_install", e))?;
    let report = check(&name, &new, &installed, &CheckOptions::default());
    let data = to_json(&report);
    let summary = format!(
        "{name}: {} against {} installed — {}",
        plural(new.tools.len(), "new tool", "new tools"),
        plural(installed.tools.len(), "tool", "tools"),
        data.get("verdict").and_then(Value::as_str).unwrap_or("?")
    );
    Ok(Reply { summary, data })
}

/// `compare_runs`.
pub fn compare_runs(args: &Args, limits: &Limits) -> Outcome {
    let alpha = args.f64("alpha")?.unwrap_or(0.05);
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(Refusal(format!(
            "compare_runs: alpha must be between 0 and 1, got {alpha}"
        )));
    }
    let mut cards = Vec::new();
    for side in ["base", "head"] {
        let arg = args.str(side)?.ok_or_else(|| {
            Refusal(format!(
                "compare_runs: {side} is required (a scorecard file)"
            ))
        })?;
        let path = limits.resolve(side, arg)?;
        let display = path.to_string_lossy().replace('\\', "/");
        let text = formats::read_text(&path, &display, formats::MAX_FILE_BYTES)
            .map_err(|e| error("compare_runs", e))?;
        let card: Scorecard = serde_json::from_str(&text).map_err(|e| {
            Refusal(format!(
                "compare_runs: {display} is not a scorecard mf can read ({e}); save one with run_eval's resultFile"
            ))
        })?;
        cards.push((display, card));
    }
    let [(base_src, base), (head_src, head)]: [(String, Scorecard); 2] = cards
        .try_into()
        .map_err(|_| Refusal("compare_runs: give base and head".to_owned()))?;
    let reasons = comparability(&base, &head);
    if !reasons.is_empty() {
        return Err(Refusal(format!(
            "compare_runs: {base_src} and {head_src} are not comparable: {}; run both with the same models, settings and seed",
            reasons.join("; ")
        )));
    }
    let gate = GateSettings {
        pairing: Pairing::Case,
        alpha,
        metrics: Vec::new(),
    };
    let report = scorecards(&base_src, &head_src, &base, &head, gate);
    let data = to_json(&report);
    let summary = format!(
        "{base_src} → {head_src}: {}",
        data.get("verdict")
            .and_then(Value::as_str)
            .unwrap_or("no verdict")
    );
    Ok(Reply { summary, data })
}
