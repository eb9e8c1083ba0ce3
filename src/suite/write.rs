//! A suite written out as a new file (`mf tasks mutate`, `mf tasks generate`): in its own shape
//! (an `mf.suite.json`-style suite, or a task set) and in the syntax the output's extension
//! names (`.yaml`/`.yml` → YAML, else JSON), with the paths inside it (`surface`, tools'
//! `ref`s, relative to the file) rebased from the input's folder to the output's. The text is
//! a pure function of the suite: the same suite gives the same bytes.

use std::path::{Component, Path, PathBuf};

use super::taskset::TaskSet;
use super::{Suite, SuiteError, SuiteTool};

/// True when `path` names a YAML file.
pub fn is_yaml_path(path: &Path) -> bool {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .is_some_and(|e| e == "yaml" || e == "yml")
}

/// The file text of `suite`: a task set when it was read from one, else a suite; YAML when
/// `yaml`, else pretty JSON; ends with a newline.
pub fn to_text(suite: &Suite, yaml: bool) -> Result<String, SuiteError> {
    let value = if suite.format.is_task_set() {
        serde_json::to_value(TaskSet::from_suite(suite, suite.surface.clone()))
    } else {
        serde_json::to_value(suite)
    }
    .map_err(|e| reference("<suite>", e.to_string()))?;
    if yaml {
        serde_yaml_ng::to_string(&value).map_err(|e| reference("<suite>", e.to_string()))
    } else {
        let mut text = serde_json::to_string_pretty(&value)
            .map_err(|e| reference("<suite>", e.to_string()))?;
        text.push('\n');
        Ok(text)
    }
}

fn reference(file: &str, message: String) -> SuiteError {
    SuiteError::Reference {
        file: file.to_owned(),
        message,
    }
}

/// The folder a file lives in (`.` for a bare name).
fn folder_of(file: &Path) -> PathBuf {
    match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// `rel` (relative to `from`) as a path relative to `to`, when it lies inside `to`; both
/// folders must exist.
fn rebase(rel: &str, from: &Path, to: &Path) -> Option<String> {
    let from = std::fs::canonicalize(from).ok()?;
    let to = std::fs::canonicalize(to).ok()?;
    if from == to {
        return Some(rel.to_owned());
    }
    let joined = from.join(rel);
    let target = std::fs::canonicalize(&joined).unwrap_or(joined);
    let inside = target.strip_prefix(&to).ok()?;
    if inside
        .components()
        .any(|c| !matches!(c, Component::Normal(_)))
    {
        return None;
    }
    let text = inside.to_string_lossy().replace('\\', "/");
    Some(if text.is_empty() {
        ".".to_owned()
    } else {
        text
    })
}

/// Rebase `suite`'s `surface`, tool `ref`s and `execution` paths (`entry`, `allowRead`,
/// `allowWrite`), written relative to `input` (a file), so they
/// hold for a file at `output`. A path that would leave the output's folder is an error (a
/// suite may only name paths inside its own folder): write the output next to the input.
pub fn relocate(suite: &mut Suite, input: &Path, output: &Path) -> Result<(), SuiteError> {
    let (from, to) = (folder_of(input), folder_of(output));
    let shown = output.to_string_lossy().replace('\\', "/");
    if !to.is_dir() {
        return Err(reference(
            &shown,
            format!("folder {} does not exist; create it first", to.display()),
        ));
    }
    let moved = |what: &str, rel: &str| {
        rebase(rel, &from, &to).ok_or_else(|| {
            reference(
                &shown,
                format!(
                    "{what} {rel:?} (relative to {}) would lie outside this file's folder, and a \
                     suite names only paths inside its own; write the output next to the input",
                    from.display()
                ),
            )
        })
    };
    if let Some(rel) = &suite.surface {
        suite.surface = Some(moved("surface", rel)?);
    }
    for tool in &mut suite.tools {
        if let SuiteTool::Ref { reference, .. } = tool {
            *reference = moved("tool ref", reference)?;
        }
    }
    if let Some(execution) = &mut suite.execution {
        execution.entry = moved("execution.entry", &execution.entry)?;
        for path in &mut execution.allow_read {
            *path = moved("execution.allowRead", path)?;
        }
        for path in &mut execution.allow_write {
            *path = moved("execution.allowWrite", path)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_rebased_into_the_output_folder_or_refused() {
        let dir = tempfile::tempdir().expect("tmp");
        let root = dir.path();
        std::fs::create_dir_all(root.join("suites/out")).expect("dirs");
        std::fs::write(root.join("suites/tools.json"), "[]").expect("tools");
        std::fs::create_dir_all(root.join("suites/out/api")).expect("dirs");
        let mut suite = Suite {
            surface: Some("out/api".into()),
            tools: vec![SuiteTool::Ref {
                reference: "out/api".into(),
                side_effects: None,
            }],
            ..Suite::default()
        };
        relocate(
            &mut suite,
            &root.join("suites/s.json"),
            &root.join("suites/out/m.json"),
        )
        .expect("inside");
        assert_eq!(suite.surface.as_deref(), Some("api"));
        let mut same = Suite {
            surface: Some("tools.json".into()),
            ..Suite::default()
        };
        relocate(
            &mut same,
            &root.join("suites/s.json"),
            &root.join("suites/m.yaml"),
        )
        .expect("same folder");
        assert_eq!(same.surface.as_deref(), Some("tools.json"));
        let err = relocate(
            &mut same,
            &root.join("suites/s.json"),
            &root.join("suites/out/m.json"),
        )
        .expect_err("outside");
        assert!(
            err.to_string().contains("outside this file's folder"),
            "{err}"
        );
    }

    #[test]
    fn execution_paths_are_rebased_like_the_surface() {
        let dir = tempfile::tempdir().expect("tmp");
        let root = dir.path();
        std::fs::create_dir_all(root.join("suites/out/impl/data")).expect("dirs");
        std::fs::write(root.join("suites/out/impl/index.mjs"), "").expect("entry");
        let execution = |entry: &str, read: &str| {
            serde_json::from_value::<crate::suite::execution::Execution>(serde_json::json!({
                "runtime": "node", "entry": entry, "allowRead": [read], "allowWrite": [read]
            }))
            .expect("execution")
        };
        let mut suite = Suite {
            execution: Some(execution("out/impl/index.mjs", "out/impl/data")),
            ..Suite::default()
        };
        relocate(
            &mut suite,
            &root.join("suites/s.json"),
            &root.join("suites/out/m.json"),
        )
        .expect("inside");
        assert_eq!(
            suite.execution,
            Some(execution("impl/index.mjs", "impl/data"))
        );
        let err = relocate(
            &mut suite,
            &root.join("suites/out/m.json"),
            &root.join("suites/out/impl/data/m.json"),
        )
        .expect_err("the entry would lie outside");
        assert!(err.to_string().contains("execution.entry"), "{err}");
    }

    #[test]
    fn a_task_set_is_written_as_a_task_set_in_either_syntax() {
        let mut suite = TaskSet {
            version: 1,
            surface: Some("tools.json".into()),
            tasks: vec![],
        }
        .into_suite("t");
        suite.format = super::super::SuiteFormat::TaskSetYaml;
        let json = to_text(&suite, false).expect("json");
        assert_eq!(
            json,
            "{\n  \"version\": 1,\n  \"surface\": \"tools.json\",\n  \"tasks\": []\n}\n"
        );
        let yaml = to_text(&suite, true).expect("yaml");
        assert!(
            yaml.starts_with("version: 1\nsurface: tools.json\ntasks: []"),
            "{yaml}"
        );
    }
}
