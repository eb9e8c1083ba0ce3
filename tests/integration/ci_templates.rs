//! `mf ci --template-*`: custom minijinja templates for the job summary, the PR comment and
//! the HTML report; a missing template is refused before anything runs, and a template that
//! fails to render falls back to the built-in one with a warning.

use std::path::Path;

use crate::support::{assert_success, mf_in};

fn ci(dir: &Path, extra: &[&str]) -> std::process::Output {
    mf_in(dir)
        .args([
            "ci",
            "tools.json",
            "--comment",
            "off",
            "--html",
            "report.html",
        ])
        .args(extra)
        .env("GITHUB_STEP_SUMMARY", dir.join("summary.md"))
        .env_remove("GITHUB_EVENT_PATH")
        .env_remove("GITHUB_EVENT_NAME")
        .env_remove("GITHUB_OUTPUT")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("RUNNER_TEMP")
        .output()
        .expect("run")
}

fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(
        dir.path().join("tools.json"),
        r#"{"tools": [{"name": "get_weather", "description": "Current weather for a city.",
            "inputSchema": {"type": "object", "properties": {"city": {"type": "string", "description": "City name."}}, "required": ["city"]}}]}"#,
    )
    .expect("tools");
    dir
}

#[test]
fn custom_templates_render_the_summary_and_html() {
    let dir = setup();
    let d = dir.path();
    std::fs::write(
        d.join("s.md.j2"),
        "CUSTOM {{ headline.status }} / {{ models | length }} models\n",
    )
    .expect("t");
    std::fs::write(d.join("r.html.j2"), "<p>{{ headline.title }}</p>\n").expect("t");
    let out = ci(
        d,
        &[
            "--template-summary",
            "s.md.j2",
            "--template-html",
            "r.html.j2",
        ],
    );
    assert_success(&out);
    let summary = std::fs::read_to_string(d.join("summary.md")).expect("summary");
    assert!(summary.starts_with("CUSTOM pass / 0 models"), "{summary}");
    let html = std::fs::read_to_string(d.join("report.html")).expect("html");
    assert_eq!(html.trim(), "<p>mf ci: PASS</p>");
}

#[test]
fn a_missing_template_is_refused_first_and_a_broken_one_falls_back() {
    let dir = setup();
    let d = dir.path();
    let out = ci(d, &["--template-summary", "nope.j2"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--template-summary nope.j2"), "{err}");
    assert!(!d.join("summary.md").exists(), "nothing ran");

    std::fs::write(d.join("bad.md.j2"), "{{ no_such_field.x }}").expect("t");
    let out = ci(d, &["--template-summary", "bad.md.j2"]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("template bad.md.j2") && err.contains("using the built-in one"),
        "{err}"
    );
    let summary = std::fs::read_to_string(d.join("summary.md")).expect("summary");
    assert!(summary.contains("mf ci"), "the built-in summary: {summary}");
}
