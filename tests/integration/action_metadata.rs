//! The GitHub Action's metadata and scripts: action.yml (composite), container/action.yml, the
//! example workflows and the Dockerfile. Three layers:
//! - static checks in Rust: kebab-case names, every input reaches `mf ci`, every output is set,
//!   no `${{ }}` inside a script, third-party actions pinned, examples use only real inputs;
//! - the action's own scripts run for real with stand-ins for `mf`, `curl` and `cargo`: argument
//!   mapping, quoting, exit codes, checksum verification and the source-build fallback;
//! - scripts/lint-actions.sh (actionlint, check-jsonschema, ShellCheck, hadolint, zizmor), which
//!   needs Python tools from PyPI: skipped with a note when they are not installed, unless
//!   `MF_REQUIRE_ACTION_LINT=1` (CI), which makes their absence a failure.

#![cfg(unix)] // the action's scripts are bash and sh; they run here on Linux and macOS

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::support::git::git;
use crate::support::{github_outputs, root, show};

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("read {rel}: {e}"))
}

fn yaml(rel: &str) -> Value {
    serde_yaml_ng::from_str(&read(rel)).unwrap_or_else(|e| panic!("parse {rel}: {e}"))
}

fn composite() -> Value {
    yaml("action.yml")
}

fn container() -> Value {
    yaml("container/action.yml")
}

/// The example workflows and this repository's own (the release workflow), as YAML.
fn workflows() -> Vec<(String, Value)> {
    let mut files: Vec<String> = Vec::new();
    for dir in ["examples/workflows", ".github/workflows"] {
        let mut here: Vec<String> = std::fs::read_dir(root().join(dir))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .map(|e| e.expect("dir entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "yml"))
            .map(|p| format!("{dir}/{}", p.file_name().expect("name").to_string_lossy()))
            .collect();
        here.sort();
        files.extend(here);
    }
    assert!(
        files.len() >= 6,
        "expected the five example workflows and the release workflow, found {files:?}"
    );
    files
        .into_iter()
        .map(|rel| {
            let doc = yaml(&rel);
            (rel, doc)
        })
        .collect()
}

fn keys(v: &Value, field: &str) -> Vec<String> {
    v[field]
        .as_object()
        .unwrap_or_else(|| panic!("no {field} mapping"))
        .keys()
        .cloned()
        .collect()
}

fn is_kebab(name: &str) -> bool {
    let mut parts = name.split('-');
    parts.all(|p| {
        !p.is_empty()
            && p.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    }) && name.starts_with(|c: char| c.is_ascii_lowercase())
}

/// Inputs that configure the installation or the environment rather than an `mf ci` flag.
const NOT_FLAGS: [&str; 4] = ["version", "install", "working-directory", "github-token"];

/// Each action input that is an `mf ci` flag, and the flag.
const FLAG_OF_INPUT: [(&str, &str); 28] = [
    ("suite", "--suite"),
    ("models", "--models"),
    ("allow-key-env", "--allow-key-env"),
    ("repeat", "--repeat"),
    ("max-trials", "--max-trials"),
    ("max-tools", "--max-tools"),
    ("max-input-tokens", "--max-input-tokens"),
    ("cache-dir", "--cache-dir"),
    ("min-accuracy", "--min-accuracy"),
    ("fail-on", "--fail-on"),
    ("gate-findings", "--gate-findings"),
    ("baseline", "--baseline"),
    ("fail-on-regression", "--fail-on-regression"),
    ("calibrate", "--calibrate"),
    ("live", "--live"),
    ("base-ref", "--base-ref"),
    ("pull-request", "--pull-request"),
    ("comment", "--comment"),
    ("summary", "--summary"),
    ("junit-path", "--junit"),
    ("sarif-path", "--sarif"),
    ("json-path", "--json-out"),
    ("html-path", "--html"),
    ("badge-path", "--badge"),
    ("shard", "--shard"),
    ("parts-dir", "--parts-dir"),
    ("merge", "--merge"),
    ("path", "PATH"),
];

fn flag_of(input: &str) -> &'static str {
    FLAG_OF_INPUT
        .iter()
        .find(|(i, _)| *i == input)
        .map(|(_, f)| *f)
        .unwrap_or_else(|| panic!("input {input} maps to no mf ci flag in this test: add it"))
}

// ---------------------------------------------------------------------------------------------
// Static checks

#[test]
fn input_and_output_names_are_kebab_case_and_described() {
    for (file, doc) in [
        ("action.yml", composite()),
        ("container/action.yml", container()),
    ] {
        for field in ["inputs", "outputs"] {
            for name in keys(&doc, field) {
                assert!(is_kebab(&name), "{file}: {field}.{name} is not kebab-case");
                let description = doc[field][&name]["description"].as_str().unwrap_or("");
                assert!(
                    !description.trim().is_empty(),
                    "{file}: {field}.{name} has no description"
                );
            }
        }
        for name in keys(&doc, "inputs") {
            let input = &doc["inputs"][&name];
            assert!(
                input["default"].is_string() || input["required"] == Value::Bool(true),
                "{file}: input {name} needs a default (or required: true)"
            );
        }
    }
}

#[test]
fn both_variants_offer_the_same_inputs_and_outputs() {
    let c = composite();
    let d = container();
    let only_composite: BTreeSet<_> = ["version", "install", "mf-version"]
        .into_iter()
        .map(String::from)
        .collect();
    let ci: BTreeSet<_> = keys(&c, "inputs")
        .into_iter()
        .filter(|k| !only_composite.contains(k))
        .collect();
    let di: BTreeSet<_> = keys(&d, "inputs").into_iter().collect();
    assert_eq!(
        ci, di,
        "inputs differ between action.yml and container/action.yml"
    );
    let co: BTreeSet<_> = keys(&c, "outputs")
        .into_iter()
        .filter(|k| !only_composite.contains(k))
        .collect();
    let dout: BTreeSet<_> = keys(&d, "outputs").into_iter().collect();
    assert_eq!(
        co, dout,
        "outputs differ between action.yml and container/action.yml"
    );
    for input in keys(&d, "inputs") {
        assert_eq!(
            c["inputs"][&input]["default"], d["inputs"][&input]["default"],
            "input {input}: defaults differ between the variants"
        );
    }
}

#[test]
fn every_composite_input_reaches_a_step_and_every_flag_input_reaches_mf_ci() {
    let doc = composite();
    let steps = doc["runs"]["steps"].as_array().expect("composite steps");
    let ci = steps
        .iter()
        .find(|s| s["id"] == "ci")
        .expect("a step with id: ci");
    let env = ci["env"].as_object().expect("ci step env");
    for input in keys(&doc, "inputs") {
        let expr = format!("${{{{ inputs.{input} }}}}");
        let used = steps.iter().any(|s| {
            s["env"]
                .as_object()
                .is_some_and(|e| e.values().any(|v| v == &Value::String(expr.clone())))
                || s["working-directory"] == Value::String(expr.clone())
        });
        assert!(
            used,
            "input {input} is not passed to any step (as {expr} in env or working-directory)"
        );
        if !NOT_FLAGS.contains(&input.as_str()) {
            assert!(
                env.values().any(|v| v == &Value::String(expr.clone())),
                "input {input} does not reach the `mf ci` step"
            );
            let _ = flag_of(&input);
        }
    }
    assert_eq!(
        env.get("MF_GITHUB_TOKEN"),
        Some(&Value::String("${{ inputs.github-token }}".into())),
        "the token travels in MF_GITHUB_TOKEN"
    );
}

#[test]
fn every_composite_output_is_set_by_a_step() {
    let doc = composite();
    let script = doc["runs"]["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .find(|s| s["id"] == "install")
        .expect("install step")["run"]
        .as_str()
        .expect("install run")
        .to_owned();
    for name in keys(&doc, "outputs") {
        let value = doc["outputs"][&name]["value"]
            .as_str()
            .unwrap_or_else(|| panic!("output {name} has no value"));
        let inner = value
            .strip_prefix("${{ steps.")
            .and_then(|v| v.strip_suffix(" }}"))
            .unwrap_or_else(|| {
                panic!("output {name}: value {value:?} is not ${{{{ steps.<id>.outputs.<key> }}}}")
            });
        let (step, key) = inner
            .split_once(".outputs.")
            .unwrap_or_else(|| panic!("output {name}: {value}"));
        match step {
            // Written by `mf ci` itself (checked against the binary in
            // mf_ci_writes_the_outputs_the_action_mirrors), except exit-code, written by the step.
            "ci" => assert_eq!(
                key, name,
                "output {name} mirrors a different mf ci key ({key})"
            ),
            "install" => assert!(
                script.contains(&format!("echo \"{key}=")),
                "output {name}: the install step never writes {key}"
            ),
            other => panic!("output {name} reads unknown step {other}"),
        }
    }
}

#[test]
fn container_args_map_every_input_to_its_flag() {
    let doc = container();
    let runs = &doc["runs"];
    assert_eq!(runs["using"], "docker");
    let image = runs["image"].as_str().expect("image");
    assert_eq!(
        image,
        format!("docker://ghcr.io/org/mf:{}", env!("CARGO_PKG_VERSION")),
        "the container action runs the image of this version (checksums/README.md, release step 1)"
    );
    assert_eq!(runs["env"]["MF_GITHUB_TOKEN"], "${{ inputs.github-token }}");
    let args: Vec<&str> = runs["args"]
        .as_array()
        .expect("args")
        .iter()
        .map(|a| a.as_str().expect("string arg"))
        .collect();
    assert_eq!(&args[..1], ["-c"]);
    assert_eq!(args[2], "mf-action");
    assert_eq!(args[3], "${{ inputs.working-directory }}");
    assert_eq!(args[4], "${{ inputs.path }}");
    let pairs = &args[5..];
    assert!(
        pairs.len().is_multiple_of(2),
        "args after the path come in (flag, value) pairs"
    );
    let mut mapped = BTreeMap::new();
    for pair in pairs.chunks(2) {
        let input = pair[1]
            .strip_prefix("${{ inputs.")
            .and_then(|v| v.strip_suffix(" }}"))
            .unwrap_or_else(|| panic!("{:?} is not an input", pair[1]));
        assert_eq!(
            pair[0],
            flag_of(input),
            "input {input} is passed as the wrong flag"
        );
        mapped.insert(input.to_owned(), pair[0].to_owned());
    }
    for input in keys(&doc, "inputs") {
        if !NOT_FLAGS.contains(&input.as_str()) && input != "path" {
            assert!(
                mapped.contains_key(&input),
                "container input {input} is not in args"
            );
        }
    }
}

/// Every `run:` script in the actions and the example workflows, with where it is.
fn all_scripts() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let c = composite();
    for (i, s) in c["runs"]["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .enumerate()
    {
        if let Some(run) = s["run"].as_str() {
            out.push((format!("action.yml step {i}"), run.to_owned()));
        }
    }
    out.push((
        "container/action.yml shim".into(),
        container()["runs"]["args"][1]
            .as_str()
            .expect("shim")
            .to_owned(),
    ));
    for (file, doc) in workflows() {
        for (job, j) in doc["jobs"].as_object().expect("jobs") {
            for (i, s) in j["steps"].as_array().expect("steps").iter().enumerate() {
                if let Some(run) = s["run"].as_str() {
                    out.push((format!("{file} job {job} step {i}"), run.to_owned()));
                }
            }
        }
    }
    out
}

#[test]
fn no_expression_is_expanded_inside_a_script() {
    // `${{ }}` in a script is pasted into the shell source before it runs: an input, a branch
    // name or a PR title there is code. Everything goes through env: and is quoted instead.
    let scripts = all_scripts();
    assert!(scripts.len() >= 5, "found only {} scripts", scripts.len());
    for (where_, script) in scripts {
        assert!(
            !script.contains("${{"),
            "{where_}: `${{{{ }}}}` inside a run: script"
        );
    }
}

#[test]
fn examples_pin_third_party_actions_and_use_only_real_inputs_and_outputs() {
    let inputs: BTreeSet<_> = keys(&composite(), "inputs").into_iter().collect();
    let outputs: BTreeSet<_> = keys(&composite(), "outputs").into_iter().collect();
    for (file, doc) in workflows() {
        assert!(
            doc.get("permissions").is_some(),
            "{file}: set top-level permissions (least privilege)"
        );
        let text = read(&file);
        for (job, j) in doc["jobs"].as_object().expect("jobs") {
            for s in j["steps"].as_array().expect("steps") {
                let Some(uses) = s["uses"].as_str() else {
                    continue;
                };
                let (action, reference) = uses
                    .split_once('@')
                    .unwrap_or_else(|| panic!("{file}: {uses} has no @ref"));
                if action == "org/mf-action" || action == "org/mf-action/container" {
                    for key in s["with"]
                        .as_object()
                        .map(|w| w.keys().cloned().collect::<Vec<_>>())
                        .unwrap_or_default()
                    {
                        assert!(
                            inputs.contains(&key),
                            "{file} job {job}: mf action has no input {key}"
                        );
                    }
                } else {
                    assert!(
                        reference.len() == 40 && reference.chars().all(|c| c.is_ascii_hexdigit()),
                        "{file}: {uses} is not pinned to a full commit SHA"
                    );
                    assert!(
                        text.lines().any(|l| l.contains(uses) && l.contains("# v")),
                        "{file}: {uses} needs a `# vX.Y.Z` comment naming the pinned tag"
                    );
                }
            }
        }
        for (i, _) in text.match_indices("steps.mf.outputs.") {
            let name: String = text[i + "steps.mf.outputs.".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            assert!(
                outputs.contains(&name),
                "{file}: the action has no output {name}"
            );
        }
    }
}

#[test]
fn the_matrix_example_evaluates_each_shard_once_and_merges_in_one_commenting_job() {
    let file = "examples/workflows/mf-eval-matrix.yml";
    let doc = yaml(file);
    let jobs = &doc["jobs"];
    let shard_job = &jobs["shard"];
    let values: Vec<u64> = shard_job["strategy"]["matrix"]["shard"]
        .as_array()
        .expect("matrix.shard")
        .iter()
        .map(|v| v.as_u64().expect("a number"))
        .collect();
    let n = values.len() as u64;
    assert_eq!(values, (1..=n).collect::<Vec<_>>(), "{file}: shards 1..N");
    let step_using = |job: &Value, prefix: &str| -> Value {
        job["steps"]
            .as_array()
            .expect("steps")
            .iter()
            .find(|s| s["uses"].as_str().is_some_and(|u| u.starts_with(prefix)))
            .unwrap_or_else(|| panic!("{file}: no {prefix} step"))
            .clone()
    };
    let mf = step_using(shard_job, "org/mf-action@");
    assert_eq!(
        mf["with"]["shard"],
        Value::String(format!("${{{{ matrix.shard }}}}/{n}")),
        "{file}: the shard input's N is the matrix size"
    );
    let parts = mf["with"]["parts-dir"].as_str().expect("parts-dir");
    let upload = step_using(shard_job, "actions/upload-artifact@");
    assert_eq!(upload["with"]["path"], format!("{parts}/"));
    let name = upload["with"]["name"].as_str().expect("artifact name");
    assert!(
        name.contains("${{ matrix.shard }}"),
        "{file}: one artifact per shard"
    );
    assert!(
        shard_job["permissions"].get("pull-requests").is_none(),
        "{file}: a shard job never comments"
    );

    let merge = &jobs["merge"];
    assert_eq!(merge["needs"], "shard");
    assert_eq!(merge["permissions"]["pull-requests"], "write");
    let download = step_using(merge, "actions/download-artifact@");
    let pattern = download["with"]["pattern"].as_str().expect("pattern");
    assert_eq!(
        pattern.trim_end_matches('*'),
        name.split("${{").next().expect("prefix"),
        "{file}: the download takes every shard's artifact"
    );
    assert!(
        download["with"].get("merge-multiple").is_none(),
        "{file}: artifacts side by side (mf finds the parts in subfolders)"
    );
    let mf = step_using(merge, "org/mf-action@");
    assert_eq!(mf["with"]["merge"], download["with"]["path"]);
    assert!(mf["with"].get("shard").is_none());
    assert!(
        mf["env"].get("OPENAI_API_KEY").is_none(),
        "{file}: the merge sends no request and needs no key"
    );
}

#[test]
fn docs_describe_every_input_and_output() {
    let docs = read("docs/action.md");
    for (file, doc) in [
        ("action.yml", composite()),
        ("container/action.yml", container()),
    ] {
        for field in ["inputs", "outputs"] {
            for name in keys(&doc, field) {
                assert!(
                    docs.contains(&format!("`{name}`")),
                    "docs/action.md does not describe {file} {field}.{name}"
                );
            }
        }
    }
}

#[test]
fn dockerfile_final_stage_is_non_root_and_smoke_tested() {
    let text = read("Dockerfile");
    let last_from = text.rfind("\nFROM ").expect("a final stage");
    let final_stage = &text[last_from..];
    assert!(
        final_stage.contains("\nUSER 1001"),
        "final stage runs as a non-root user"
    );
    assert!(
        final_stage.contains("\nRUN mf --version"),
        "final stage smoke-tests the binary"
    );
    assert!(final_stage.contains("ENTRYPOINT [\"mf\"]"));
    assert!(final_stage.contains("org.opencontainers.image.source"));
    assert!(text.contains("--locked --release --target x86_64-unknown-linux-musl"));
    let build = read("scripts/build-musl.sh");
    assert!(build.contains("cargo build --locked --release --target \"$target\" --bin mf"));
}

// ---------------------------------------------------------------------------------------------
// The scripts, run for real

/// A `${{ … }}` value as the runner would fill it in: only the plain forms the action uses.
fn fill(
    value: &str,
    inputs: &BTreeMap<String, String>,
    context: &BTreeMap<&str, String>,
) -> String {
    let Some(inner) = value
        .strip_prefix("${{ ")
        .and_then(|v| v.strip_suffix(" }}"))
    else {
        assert!(
            !value.contains("${{"),
            "{value:?}: only whole-value expressions are supported here"
        );
        return value.to_owned();
    };
    if let Some(name) = inner.strip_prefix("inputs.") {
        return inputs
            .get(name)
            .cloned()
            .unwrap_or_else(|| panic!("no input {name}"));
    }
    context
        .get(inner)
        .cloned()
        .unwrap_or_else(|| panic!("no context value for {inner}"))
}

/// The action's inputs with their defaults, overridden by `set`.
fn inputs_with(
    doc: &Value,
    set: &[(&str, &str)],
    context: &BTreeMap<&str, String>,
) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for name in keys(doc, "inputs") {
        let default = doc["inputs"][&name]["default"]
            .as_str()
            .unwrap_or("")
            .to_owned();
        let value = fill(&default, &BTreeMap::new(), context);
        out.insert(name, value);
    }
    for (k, v) in set {
        assert!(out.contains_key(*k), "no input {k}");
        out.insert((*k).to_owned(), (*v).to_owned());
    }
    out
}

/// `base/rel`, created (`create_dir_all` stumbles on a trailing `.`).
fn in_dir(base: &Path, rel: &str) -> PathBuf {
    std::fs::create_dir_all(base).expect("mkdir");
    let dir = base.join(rel);
    std::fs::create_dir_all(&dir).expect("mkdir");
    dir
}

fn write_exe(path: &Path, body: &str) {
    std::fs::write(path, body).expect("write script");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// A stand-in for `mf`: records its arguments (NUL-separated) and the token it was given, writes
/// one output, exits with $FAKE_EXIT.
const FAKE_MF: &str = r#"#!/usr/bin/env bash
printf '%s\0' "$@" >"$FAKE_ARGV"
printf '%s' "${MF_GITHUB_TOKEN-unset}" >"$FAKE_TOKEN"
echo "status=fail" >>"$GITHUB_OUTPUT"
exit "${FAKE_EXIT:-0}"
"#;

struct Run {
    out: Output,
    argv: Vec<String>,
    token: String,
    github_output: String,
    step_summary: String,
}

impl Run {
    fn code(&self) -> i32 {
        self.out.status.code().expect("exit code")
    }
    fn log(&self) -> String {
        format!(
            "stdout:\n{}\nstderr:\n{}",
            String::from_utf8_lossy(&self.out.stdout),
            String::from_utf8_lossy(&self.out.stderr)
        )
    }
}

fn read_argv(path: &Path) -> Vec<String> {
    let raw = std::fs::read(path).unwrap_or_default();
    raw.split(|b| *b == 0)
        .filter(|s| !s.is_empty())
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .collect()
}

/// What a step runs against: the inputs set, the `mf` binary (`None`: the recording stand-in,
/// exiting with `exit`) and the job's workspace (`None`: an empty folder).
struct Job<'a> {
    set: &'a [(&'a str, &'a str)],
    exit: i32,
    mf: Option<&'a Path>,
    workspace: Option<&'a Path>,
}

impl<'a> Job<'a> {
    fn fake(set: &'a [(&'a str, &'a str)], exit: i32) -> Job<'a> {
        Job {
            set,
            exit,
            mf: None,
            workspace: None,
        }
    }

    /// The runner's files and variables for a step, in `tmp`.
    fn runner_env(&self, cmd: &mut Command, tmp: &Path) {
        cmd.env("GITHUB_OUTPUT", tmp.join("github_output"))
            .env("GITHUB_STEP_SUMMARY", tmp.join("step_summary"))
            .env("HOME", tmp)
            .env("FAKE_ARGV", tmp.join("argv"))
            .env("FAKE_TOKEN", tmp.join("token"))
            .env("FAKE_EXIT", self.exit.to_string());
    }

    fn finish(out: Output, tmp: &Path) -> Run {
        let read = |f: &str| std::fs::read_to_string(tmp.join(f)).unwrap_or_default();
        Run {
            out,
            argv: read_argv(&tmp.join("argv")),
            token: read("token"),
            github_output: read("github_output"),
            step_summary: read("step_summary"),
        }
    }

    /// The workspace: the given one, or a new empty folder in `tmp`.
    fn workspace(&self, tmp: &Path) -> PathBuf {
        self.workspace
            .map(Path::to_path_buf)
            .unwrap_or_else(|| in_dir(&tmp.join("workspace"), "."))
    }

    /// Run the composite action's `ci` step.
    fn composite(&self) -> Run {
        let doc = composite();
        let tmp = tempfile::tempdir().expect("tempdir");
        let mf = match self.mf {
            Some(mf) => mf.to_path_buf(),
            None => {
                let fake = tmp.path().join("fake-mf");
                write_exe(&fake, FAKE_MF);
                fake
            }
        };
        let context = BTreeMap::from([
            ("github.token", "ghs_default_token".to_owned()),
            ("steps.install.outputs.bin", mf.display().to_string()),
        ]);
        let inputs = inputs_with(&doc, self.set, &context);
        let step = doc["runs"]["steps"]
            .as_array()
            .expect("steps")
            .iter()
            .find(|s| s["id"] == "ci")
            .expect("ci step")
            .clone();
        assert_eq!(step["shell"], "bash");
        let work = in_dir(&self.workspace(tmp.path()), &inputs["working-directory"]);
        let mut cmd = Command::new("bash");
        cmd.arg("-c")
            .arg(step["run"].as_str().expect("run"))
            .current_dir(&work)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default());
        for (k, v) in step["env"].as_object().expect("env") {
            cmd.env(k, fill(v.as_str().expect("env string"), &inputs, &context));
        }
        self.runner_env(&mut cmd, tmp.path());
        Job::finish(cmd.output().expect("run bash"), tmp.path())
    }

    /// Run the container action's shim with `sh`, as the runner would start the image (the
    /// workspace as the working directory, `mf` on PATH).
    fn container(&self) -> Run {
        let doc = container();
        let tmp = tempfile::tempdir().expect("tempdir");
        let bin = in_dir(&tmp.path().join("bin"), ".");
        match self.mf {
            Some(mf) => std::os::unix::fs::symlink(mf, bin.join("mf")).expect("symlink mf"),
            None => write_exe(&bin.join("mf"), FAKE_MF),
        }
        let context = BTreeMap::from([("github.token", "ghs_default_token".to_owned())]);
        let inputs = inputs_with(&doc, self.set, &context);
        let args: Vec<String> = doc["runs"]["args"]
            .as_array()
            .expect("args")
            .iter()
            .map(|a| fill(a.as_str().expect("arg"), &inputs, &context))
            .collect();
        let workspace = self.workspace(tmp.path());
        in_dir(&workspace, &inputs["working-directory"]);
        let path = format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut cmd = Command::new("sh");
        cmd.args(&args)
            .current_dir(&workspace)
            .env_clear()
            .env("PATH", path);
        for (k, v) in doc["runs"]["env"].as_object().expect("env") {
            cmd.env(k, fill(v.as_str().expect("env string"), &inputs, &context));
        }
        self.runner_env(&mut cmd, tmp.path());
        Job::finish(cmd.output().expect("run sh"), tmp.path())
    }
}

fn run_composite_ci(set: &[(&str, &str)], exit: i32) -> Run {
    Job::fake(set, exit).composite()
}

fn run_container_shim(set: &[(&str, &str)], exit: i32) -> Run {
    Job::fake(set, exit).container()
}

/// `mf ci` argv as (positionals, flag → value); a flag without a value maps to "".
fn parse_ci_argv(argv: &[String]) -> (Vec<String>, BTreeMap<String, String>) {
    assert_eq!(
        argv.first().map(String::as_str),
        Some("ci"),
        "argv {argv:?}"
    );
    let mut positionals = Vec::new();
    let mut flags = BTreeMap::new();
    let mut i = 1;
    while i < argv.len() {
        let a = &argv[i];
        if a == "--fail-on-regression" || a == "--live" {
            assert!(
                flags.insert(a.clone(), String::new()).is_none(),
                "{a} twice"
            );
            i += 1;
        } else if a.starts_with("--") {
            let v = argv
                .get(i + 1)
                .unwrap_or_else(|| panic!("{a} without a value in {argv:?}"));
            assert!(flags.insert(a.clone(), v.clone()).is_none(), "{a} twice");
            i += 2;
        } else {
            positionals.push(a.clone());
            i += 1;
        }
    }
    (positionals, flags)
}

/// Values a shell would mangle if anything were unquoted or evaluated.
const NASTY: &str = "a b; $(touch pwned) `id` '\" * \\";

fn every_flag_input(n: usize) -> Vec<(&'static str, String)> {
    FLAG_OF_INPUT
        .iter()
        .filter(|(i, _)| !matches!(*i, "fail-on-regression" | "live" | "path"))
        .enumerate()
        .map(|(k, (i, _))| (*i, format!("{NASTY} {i} {k} {n}")))
        .collect()
}

#[test]
fn both_variants_pass_every_input_as_its_flag_quoted_and_the_token_only_by_env() {
    let values = every_flag_input(1);
    let mut set: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
    set.push(("path", "my repo"));
    set.push(("fail-on-regression", "true"));
    set.push(("live", "true"));
    set.push(("github-token", "ghs_secret_token"));
    for (variant, run) in [
        ("composite", run_composite_ci(&set, 0)),
        ("container", run_container_shim(&set, 0)),
    ] {
        assert_eq!(run.code(), 0, "{variant}: {}", run.log());
        let (positionals, flags) = parse_ci_argv(&run.argv);
        assert_eq!(positionals, ["my repo"], "{variant}: PATH");
        for (input, value) in &values {
            assert_eq!(
                flags.get(flag_of(input)),
                Some(value),
                "{variant}: input {input}"
            );
        }
        assert_eq!(
            flags.get("--fail-on-regression").map(String::as_str),
            Some(""),
            "{variant}"
        );
        assert_eq!(
            flags.get("--live").map(String::as_str),
            Some(""),
            "{variant}"
        );
        assert_eq!(
            flags.get("--github-token-env").map(String::as_str),
            Some("MF_GITHUB_TOKEN"),
            "{variant}"
        );
        assert_eq!(
            run.token, "ghs_secret_token",
            "{variant}: token in MF_GITHUB_TOKEN"
        );
        assert!(
            !run.argv.iter().any(|a| a.contains("ghs_secret_token")),
            "{variant}: token on the command line"
        );
        assert!(
            !run.log().contains("ghs_secret_token"),
            "{variant}: token printed"
        );
        assert!(
            run.github_output.contains("exit-code=0"),
            "{variant}: {}",
            run.github_output
        );
        assert_eq!(
            flags.len(),
            values.len() + 3,
            "{variant}: unexpected flags {flags:?}"
        );
    }
}

#[test]
fn both_variants_leave_empty_inputs_to_mf_and_pass_the_exit_code_through() {
    for (variant, run) in [
        ("composite", run_composite_ci(&[], 2)),
        ("container", run_container_shim(&[], 2)),
    ] {
        assert_eq!(
            run.code(),
            2,
            "{variant}: mf's exit code is the step's: {}",
            run.log()
        );
        let (positionals, flags) = parse_ci_argv(&run.argv);
        assert_eq!(positionals, ["."], "{variant}");
        let expected: BTreeMap<String, String> = [
            ("--fail-on", "error"),
            ("--gate-findings", "new"),
            ("--comment", "auto"),
            ("--summary", "on"),
            ("--fail-on-regression", ""),
            ("--github-token-env", "MF_GITHUB_TOKEN"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        assert_eq!(
            flags, expected,
            "{variant}: only the inputs with a default are passed"
        );
        assert_eq!(
            run.token, "ghs_default_token",
            "{variant}: github.token by default"
        );
        assert!(
            run.github_output.contains("status=fail"),
            "{variant}: mf's outputs kept"
        );
        assert!(
            run.github_output.contains("exit-code=2"),
            "{variant}: {}",
            run.github_output
        );
    }
    let off = run_composite_ci(&[("fail-on-regression", "false")], 0);
    assert!(
        !off.argv.contains(&"--fail-on-regression".to_owned()),
        "{:?}",
        off.argv
    );
}

#[test]
fn both_variants_refuse_a_fail_on_regression_that_is_not_a_boolean() {
    for input in ["fail-on-regression", "live"] {
        for (variant, run) in [
            ("composite", run_composite_ci(&[(input, "yes please")], 0)),
            ("container", run_container_shim(&[(input, "yes please")], 0)),
        ] {
            assert_eq!(run.code(), 1, "{variant} {input}: {}", run.log());
            assert!(run.argv.is_empty(), "{variant} {input}: mf ran anyway");
            assert!(
                run.log().contains(&format!("input '{input}'")),
                "{variant}: {}",
                run.log()
            );
        }
    }
}

/// The install step in a fake runner: the action checked out under `_actions/org/mf-action/v1`,
/// with `curl` serving archives from a folder and `cargo` "building" a stand-in binary.
struct Installer {
    tmp: tempfile::TempDir,
    action: PathBuf,
}

const FAKE_CURL: &str = r#"#!/usr/bin/env bash
out=""
while (($#)); do
  case "$1" in
    --output) out="$2"; shift 2 ;;
    *) url="$1"; shift ;;
  esac
done
echo "curl $url" >>"$FAKE_LOG"
cp "$FAKE_RELEASES/${url##*/}" "$out" 2>/dev/null || exit 22
"#;

const FAKE_CARGO: &str = r#"#!/usr/bin/env bash
echo "cargo $*" >>"$FAKE_LOG"
root=""
while (($#)); do
  case "$1" in
    --root) root="$2"; shift 2 ;;
    *) shift ;;
  esac
done
mkdir -p "$root/bin"
printf '#!/bin/sh\necho "mf %s"\n' "$FAKE_SOURCE_VERSION" >"$root/bin/mf"
chmod +x "$root/bin/mf"
"#;

impl Installer {
    fn new(source_version: &str) -> Self {
        let tmp = tempfile::tempdir().expect("tempdir");
        let action = tmp.path().join("_actions/org/mf-action/v1");
        std::fs::create_dir_all(action.join("checksums")).expect("action dir");
        std::fs::write(
            action.join("Cargo.toml"),
            format!("[package]\nname = \"mf\"\nversion = \"{source_version}\"\n\n[dependencies]\nserde = {{ version = \"1\" }}\n"),
        )
        .expect("Cargo.toml");
        let bin = tmp.path().join("fakebin");
        std::fs::create_dir_all(&bin).expect("fakebin");
        write_exe(&bin.join("curl"), FAKE_CURL);
        write_exe(&bin.join("cargo"), FAKE_CARGO);
        std::fs::create_dir_all(tmp.path().join("releases")).expect("releases");
        std::fs::create_dir_all(tmp.path().join("runner-temp")).expect("runner temp");
        Installer { tmp, action }
    }

    /// Publish a release archive holding an `mf` that reports `version`; returns its SHA-256.
    fn publish(&self, archive: &str, version: &str) -> String {
        use sha2::Digest;
        let stage = self.tmp.path().join("stage");
        std::fs::create_dir_all(&stage).expect("stage");
        write_exe(
            &stage.join("mf"),
            &format!("#!/bin/sh\necho \"mf {version}\"\n"),
        );
        let path = self.tmp.path().join("releases").join(archive);
        let status = Command::new("tar")
            .arg("-czf")
            .arg(&path)
            .arg("-C")
            .arg(&stage)
            .arg("mf")
            .status()
            .expect("tar");
        assert!(status.success());
        let bytes = std::fs::read(&path).expect("archive");
        sha2::Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    fn checksums(&self, version: &str, lines: &str) {
        std::fs::write(
            self.action.join(format!("checksums/{version}.sha256")),
            lines,
        )
        .expect("checksums");
    }

    fn run(&self, version_input: &str, arch: &str) -> (Output, String, String, String) {
        self.run_with(version_input, "", arch, &[], true)
    }

    /// The install step with `install` as the input (empty: the default), extra environment,
    /// and the fake `curl` on PATH or the machine's real one.
    fn run_with(
        &self,
        version_input: &str,
        install: &str,
        arch: &str,
        env: &[(&str, String)],
        fake_curl: bool,
    ) -> (Output, String, String, String) {
        let doc = composite();
        let step = doc["runs"]["steps"]
            .as_array()
            .expect("steps")
            .iter()
            .find(|s| s["id"] == "install")
            .expect("install")
            .clone();
        let t = self.tmp.path();
        if !fake_curl {
            let _ = std::fs::remove_file(t.join("fakebin/curl"));
        }
        let path = format!(
            "{}:{}",
            t.join("fakebin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut cmd = Command::new("bash");
        let out = cmd
            .arg("-c")
            .arg(step["run"].as_str().expect("run"))
            .current_dir(t)
            .env_clear()
            .env("PATH", path)
            .env("MF_INPUT_VERSION", version_input)
            .env("MF_INPUT_INSTALL", install)
            .env("MF_ACTION_REPOSITORY", "")
            .env("GITHUB_ACTION_PATH", &self.action)
            .env("RUNNER_OS", "Linux")
            .env("RUNNER_ARCH", arch)
            .env("RUNNER_TEMP", t.join("runner-temp"))
            .env("GITHUB_OUTPUT", t.join("output"))
            .env("GITHUB_PATH", t.join("path"))
            .env("FAKE_LOG", t.join("log"))
            .env("FAKE_RELEASES", t.join("releases"))
            .env("FAKE_SOURCE_VERSION", "0.0.0-source")
            .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
            .output()
            .expect("bash");
        let read = |f: &str| std::fs::read_to_string(t.join(f)).unwrap_or_default();
        (out, read("output"), read("log"), read("path"))
    }

    fn bin_dir(&self) -> PathBuf {
        self.tmp.path().join("runner-temp/mf/bin")
    }
}

#[test]
fn install_downloads_the_release_whose_checksum_is_committed() {
    let inst = Installer::new("9.9.9");
    let sha = inst.publish("mf-x86_64-unknown-linux-musl.tar.gz", "9.9.9");
    inst.checksums(
        "9.9.9",
        &format!(
            "{sha}  mf-x86_64-unknown-linux-musl.tar.gz\n{}  mf-x86_64-apple-darwin.tar.gz\n",
            "0".repeat(64)
        ),
    );
    let (out, outputs, log, path) = inst.run("", "X64");
    assert!(out.status.success(), "{}", show(&out));
    assert_eq!(
        log.trim(),
        "curl https://github.com/org/mf-action/releases/download/v9.9.9/mf-x86_64-unknown-linux-musl.tar.gz",
        "the URL is built from the action's own repository (parsed from its path) and version"
    );
    assert!(outputs.contains("source=release"), "{outputs}");
    assert!(outputs.contains("version=9.9.9"), "{outputs}");
    assert!(
        outputs.contains(&format!("bin={}", inst.bin_dir().join("mf").display())),
        "{outputs}"
    );
    assert_eq!(path.trim(), inst.bin_dir().display().to_string());
}

#[test]
fn install_refuses_an_archive_whose_checksum_does_not_match_and_never_falls_back() {
    let inst = Installer::new("9.9.9");
    inst.publish("mf-x86_64-unknown-linux-musl.tar.gz", "9.9.9");
    inst.checksums(
        "9.9.9",
        &format!("{}  mf-x86_64-unknown-linux-musl.tar.gz\n", "ab".repeat(32)),
    );
    let (out, outputs, log, path) = inst.run("", "X64");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(show(&out).contains("SHA-256 mismatch"), "{}", show(&out));
    assert!(
        !log.contains("cargo"),
        "fell back to a source build after a mismatch: {log}"
    );
    assert!(
        !inst.bin_dir().join("mf").exists(),
        "the unverified binary was installed"
    );
    assert!(!outputs.contains("bin=") && path.is_empty());
}

#[test]
fn install_refuses_a_version_with_no_pinned_release_and_never_builds_silently() {
    // No checksums/<version>.sha256 at all: never downloaded, never built.
    let inst = Installer::new("9.9.9");
    let (out, outputs, log, _) = inst.run("", "X64");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(
        show(&out).contains("has no release pinned in this action")
            && show(&out).contains("install: source"),
        "{}",
        show(&out)
    );
    assert!(
        log.is_empty(),
        "downloaded or built without a pinned release: {log}"
    );
    assert!(!outputs.contains("bin="), "{outputs}");

    // Checksums exist, but not for this runner's target (aarch64 here).
    let inst = Installer::new("9.9.9");
    let sha = inst.publish("mf-x86_64-unknown-linux-musl.tar.gz", "9.9.9");
    inst.checksums(
        "9.9.9",
        &format!("{sha}  mf-x86_64-unknown-linux-musl.tar.gz\n"),
    );
    let (out, _, log, _) = inst.run("", "ARM64");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(
        show(&out).contains("lists no mf-aarch64-unknown-linux-musl.tar.gz"),
        "{}",
        show(&out)
    );
    assert!(log.is_empty(), "{log}");

    // A release that cannot be downloaded: an error, not a fallback build.
    let inst = Installer::new("9.9.9");
    inst.checksums(
        "9.9.9",
        &format!("{}  mf-x86_64-unknown-linux-musl.tar.gz\n", "0".repeat(64)),
    );
    let (out, _, log, _) = inst.run("", "X64");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(show(&out).contains("could not download"), "{}", show(&out));
    assert!(!log.contains("cargo"), "{log}");
}

#[test]
fn install_source_builds_only_when_asked() {
    for (version, install) in [("", "source"), ("source", "")] {
        let inst = Installer::new("9.9.9");
        let sha = inst.publish("mf-x86_64-unknown-linux-musl.tar.gz", "9.9.9");
        inst.checksums(
            "9.9.9",
            &format!("{sha}  mf-x86_64-unknown-linux-musl.tar.gz\n"),
        );
        let (out, outputs, log, _) = inst.run_with(version, install, "X64", &[], true);
        assert!(out.status.success(), "{}", show(&out));
        let expected = format!(
            "cargo install --locked --path {} --root {}",
            inst.action.display(),
            inst.tmp.path().join("runner-temp/mf").display()
        );
        assert_eq!(
            log.trim(),
            expected,
            "a release was available but a build was asked for"
        );
        assert!(outputs.contains("source=build"), "{outputs}");
    }
    let inst = Installer::new("9.9.9");
    let (out, _, log, _) = inst.run_with("", "sometimes", "X64", &[], true);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(show(&out).contains("input 'install'"), "{}", show(&out));
    assert!(log.is_empty(), "{log}");
}

/// A one-thread HTTP server on a loopback port serving files of `dir` (GET /v<version>/<file>),
/// counting requests; it stops when dropped.
struct LoopbackReleases {
    port: u16,
    served: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl LoopbackReleases {
    fn start(dir: PathBuf) -> LoopbackReleases {
        use std::io::{BufRead, BufReader, Write};
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("nonblocking");
        let port = listener.local_addr().expect("addr").port();
        let served = std::sync::Arc::new(AtomicUsize::new(0));
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let (s, st) = (served.clone(), stop.clone());
        std::thread::spawn(move || {
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
            while !st.load(Ordering::SeqCst) && std::time::Instant::now() < deadline {
                let Ok((stream, _)) = listener.accept() else {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                    continue;
                };
                stream.set_nonblocking(false).expect("blocking");
                let mut reader = BufReader::new(stream.try_clone().expect("clone"));
                let mut line = String::new();
                let _ = reader.read_line(&mut line);
                loop {
                    let mut h = String::new();
                    if reader.read_line(&mut h).unwrap_or(0) == 0 || h == "\r\n" {
                        break;
                    }
                }
                s.fetch_add(1, Ordering::SeqCst);
                let file = line
                    .split_whitespace()
                    .nth(1)
                    .and_then(|p| p.rsplit('/').next())
                    .unwrap_or("");
                let mut stream = stream;
                match std::fs::read(dir.join(file)) {
                    Ok(body) => {
                        let _ = write!(
                            stream,
                            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                            body.len()
                        );
                        let _ = stream.write_all(&body);
                    }
                    Err(_) => {
                        let _ = write!(
                            stream,
                            "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                        );
                    }
                }
            }
        });
        LoopbackReleases { port, served, stop }
    }
}

impl Drop for LoopbackReleases {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

#[test]
fn install_from_a_loopback_release_is_verified_fast_and_a_tampered_archive_is_refused() {
    if Command::new("curl").arg("--version").output().is_err() {
        panic!("curl is needed for the real install path (Debian: apt-get install curl)");
    }
    let inst = Installer::new("9.9.9");
    let sha = inst.publish("mf-x86_64-unknown-linux-musl.tar.gz", "9.9.9");
    inst.checksums(
        "9.9.9",
        &format!("{sha}  mf-x86_64-unknown-linux-musl.tar.gz\n"),
    );
    let server = LoopbackReleases::start(inst.tmp.path().join("releases"));
    let base = format!(
        "http://127.0.0.1:{}/org/mf-action/releases/download",
        server.port
    );
    let started = std::time::Instant::now();
    let (out, outputs, _, _) = inst.run_with(
        "",
        "",
        "X64",
        &[("MF_RELEASE_BASE_URL", base.clone())],
        false,
    );
    let took = started.elapsed();
    assert!(out.status.success(), "{}", show(&out));
    assert!(show(&out).contains("SHA-256 verified"), "{}", show(&out));
    assert!(outputs.contains("source=release"), "{outputs}");
    assert_eq!(server.served.load(std::sync::atomic::Ordering::SeqCst), 1);
    assert!(
        took < std::time::Duration::from_secs(10),
        "install took {took:?}"
    );
    let installed = Command::new(inst.bin_dir().join("mf"))
        .arg("--version")
        .output()
        .expect("runs");
    assert_eq!(
        String::from_utf8_lossy(&installed.stdout).trim(),
        "mf 9.9.9"
    );

    // The same archive name with other bytes on the server: refused, nothing installed.
    let inst = Installer::new("9.9.9");
    inst.publish("mf-x86_64-unknown-linux-musl.tar.gz", "6.6.6");
    inst.checksums(
        "9.9.9",
        &format!("{sha}  mf-x86_64-unknown-linux-musl.tar.gz\n"),
    );
    let server = LoopbackReleases::start(inst.tmp.path().join("releases"));
    let base = format!(
        "http://127.0.0.1:{}/org/mf-action/releases/download",
        server.port
    );
    let (out, outputs, log, _) =
        inst.run_with("", "", "X64", &[("MF_RELEASE_BASE_URL", base)], false);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(show(&out).contains("SHA-256 mismatch"), "{}", show(&out));
    assert!(
        !inst.bin_dir().join("mf").exists(),
        "the tampered binary was installed"
    );
    assert!(
        !outputs.contains("bin=") && !log.contains("cargo"),
        "{outputs} {log}"
    );
}

#[test]
fn install_refuses_a_version_it_can_neither_verify_nor_build() {
    // The action's source is 9.9.9: building it would not give the 1.2.3 asked for.
    let inst = Installer::new("9.9.9");
    let (out, _, log, _) = inst.run("1.2.3", "X64");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(
        show(&out).contains("mf 1.2.3 has no release pinned"),
        "{}",
        show(&out)
    );
    assert!(log.is_empty(), "nothing is downloaded or built: {log}");
    let (out, _, log, _) = inst.run_with("1.2.3", "source", "X64", &[], true);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(show(&out).contains("not 1.2.3"), "{}", show(&out));
    assert!(log.is_empty(), "{log}");

    // Not a version at all (and not a path into the checkout).
    let (out, _, log, _) = inst.run("../../etc/passwd", "X64");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(show(&out).contains("input 'version'"), "{}", show(&out));
    assert!(log.is_empty(), "{log}");
}

// ---------------------------------------------------------------------------------------------
// Against the real binary and the external linters

#[test]
fn the_flags_the_action_passes_are_flags_of_mf_ci() {
    let out = Command::new(env!("CARGO_BIN_EXE_mf"))
        .args(["ci", "--help"])
        .output()
        .expect("run mf ci --help");
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "mf ci --help failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut flags: Vec<&str> = FLAG_OF_INPUT
        .iter()
        .map(|(_, f)| *f)
        .filter(|f| f.starts_with("--"))
        .collect();
    flags.push("--github-token-env");
    for flag in flags {
        let known = help.lines().any(|l| {
            l.split(|c: char| c.is_whitespace() || c == ',' || c == '=' || c == '[' || c == '<')
                .any(|w| w == flag)
        });
        assert!(known, "mf ci has no {flag} (the action passes it):\n{help}");
    }
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// examples/acme-support as a git repository with two commits (the base, and a head that only
/// touches the README), so `--base-ref HEAD~1` has a base to evaluate.
fn example_repo(at: &Path) -> PathBuf {
    let repo = at.join("repo");
    copy_tree(&repo_root_example(), &repo);
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "base"]);
    std::fs::write(repo.join("README.md"), "head\n").expect("edit README");
    git(&repo, &["commit", "-q", "-am", "head"]);
    repo
}

fn repo_root_example() -> PathBuf {
    root().join("examples/acme-support")
}

/// Both variants drive the real `mf ci` through a full offline run (the lexical model needs no
/// key): eval of head and base, compare, every report written, and every output mf writes is
/// one the action declares (and the other way round).
#[test]
fn both_variants_run_the_real_mf_ci_and_mirror_every_output_it_writes() {
    let mf = PathBuf::from(env!("CARGO_BIN_EXE_mf"));
    let declared: BTreeSet<String> = {
        let doc = composite();
        keys(&doc, "outputs")
            .into_iter()
            .filter(|k| {
                doc["outputs"][k]["value"]
                    .as_str()
                    .is_some_and(|v| v.contains("steps.ci."))
            })
            .collect()
    };
    for variant in ["composite", "container"] {
        let tmp = tempfile::tempdir().expect("tempdir");
        let repo = example_repo(tmp.path());
        let out = |f: &str| tmp.path().join(f).display().to_string();
        let (cache, junit, sarif, json, html, badge) = (
            out("cache"),
            out("mf.junit.xml"),
            out("mf.sarif"),
            out("mf-ci.json"),
            out("mf.html"),
            out("badge.json"),
        );
        let set = [
            ("suite", "mf.suite.yaml"),
            ("models", "lexical"),
            ("repeat", "2"),
            ("cache-dir", cache.as_str()),
            ("fail-on", "never"),
            ("min-accuracy", "0.01"),
            ("base-ref", "HEAD~1"),
            ("comment", "off"),
            ("junit-path", junit.as_str()),
            ("sarif-path", sarif.as_str()),
            ("json-path", json.as_str()),
            ("html-path", html.as_str()),
            ("badge-path", badge.as_str()),
        ];
        let job = Job {
            set: &set,
            exit: 0,
            mf: Some(&mf),
            workspace: Some(&repo),
        };
        let run = if variant == "composite" {
            job.composite()
        } else {
            job.container()
        };
        assert_eq!(run.code(), 0, "{variant}: {}", run.log());
        let written = github_outputs(&run.github_output);
        let written_keys: BTreeSet<String> = written.keys().cloned().collect();
        assert_eq!(
            written_keys, declared,
            "{variant}: the outputs mf ci writes (plus exit-code) and the outputs action.yml declares differ"
        );
        assert_eq!(written["status"], "pass", "{variant}: {written:?}");
        assert_eq!(written["mode"], "full", "{variant}: {written:?}");
        assert_eq!(written["exit-code"], "0");
        assert!(!written["accuracy"].is_empty(), "{variant}: {written:?}");
        assert!(
            !written["verdict"].is_empty(),
            "{variant}: base vs head compared: {written:?}"
        );
        for (key, path) in [
            ("junit", &junit),
            ("sarif", &sarif),
            ("report-json", &json),
            ("html", &html),
            ("badge", &badge),
        ] {
            assert_eq!(&written[key], path, "{variant}: output {key}");
            assert!(Path::new(path).is_file(), "{variant}: {path} not written");
        }
        assert!(
            run.step_summary.contains("mf ci"),
            "{variant}: job summary: {}",
            run.step_summary
        );
    }
}

#[test]
fn lint_tools_accept_the_action_workflows_and_dockerfile() {
    use std::io::Write;
    let required = std::env::var("MF_REQUIRE_ACTION_LINT").is_ok_and(|v| v == "1");
    let venv = std::env::var_os("MF_LINT_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/lint-actions/venv"));
    let installed =
        venv.join(".mf-lint-installed").is_file() && venv.join("bin/actionlint").is_file();
    if !installed && !required {
        let _ = writeln!(
            std::io::stderr(),
            "skipped: actionlint/check-jsonschema/hadolint/zizmor not installed \
             (scripts/lint-actions.sh --install, or MF_REQUIRE_ACTION_LINT=1 to require them)"
        );
        return;
    }
    let out = Command::new("bash")
        .arg(root().join("scripts/lint-actions.sh"))
        .current_dir(root())
        .output()
        .expect("run scripts/lint-actions.sh");
    assert!(
        out.status.success(),
        "scripts/lint-actions.sh found problems:\n{}",
        show(&out)
    );
}

#[test]
fn the_release_workflow_builds_every_target_the_action_installs_with_checksums_and_attestations() {
    let doc = yaml(".github/workflows/release.yml");
    let targets: BTreeSet<String> = doc["jobs"]["build"]["strategy"]["matrix"]["include"]
        .as_array()
        .expect("matrix")
        .iter()
        .map(|e| e["target"].as_str().expect("target").to_owned())
        .collect();
    let expected: BTreeSet<String> = [
        "x86_64-unknown-linux-musl",
        "aarch64-unknown-linux-musl",
        "x86_64-apple-darwin",
        "aarch64-apple-darwin",
        "x86_64-pc-windows-msvc",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    assert_eq!(targets, expected);
    // Every target the install step maps a runner to is built.
    let install = composite()["runs"]["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .find(|s| s["id"] == "install")
        .expect("install")["run"]
        .as_str()
        .expect("run")
        .to_owned();
    for t in &expected {
        assert!(
            install.contains(&format!("target={t}")),
            "the action never installs {t}"
        );
    }
    let text = read(".github/workflows/release.yml");
    for needle in [
        ".sha256",
        "sha256.sum",
        "actions/attest-build-provenance@",
        "checksums/$version.sha256",
    ] {
        assert!(text.contains(needle), "release.yml lacks {needle}");
    }
    assert_eq!(doc["on"]["push"]["tags"][0], "v[0-9]+.[0-9]+.[0-9]+*");
}
