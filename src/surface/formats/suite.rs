//! The tools and skills of an `mf.suite.json` (v1, compat): `tools[]` entries inline
//! `{name, description, parameters | input}` or `{"ref": "path/to/function.json"}` relative to
//! the suite file; `skills[]` entries `{name, description}`.

use std::path::{Component, Path};

use serde_json::Value;

use super::{
    LoadError, Loaded, MAX_FILE_BYTES, Source, function_json, opt_str, parse_json, read_repo_text,
    req_str,
};
use crate::surface::{Skill, SourceFormat};

/// Whether a document is a suite rather than a bare tools/list result.
pub fn looks_like_suite(v: &Value) -> bool {
    let Some(o) = v.as_object() else {
        return false;
    };
    let Some(tools) = o.get("tools").and_then(Value::as_array) else {
        return false;
    };
    ["cases", "profiles", "execution", "skills", "draft"]
        .iter()
        .any(|k| o.contains_key(*k))
        || tools.iter().any(|t| t.get("ref").is_some())
}

/// Load a suite's tools (following `ref`s) and skills.
pub fn load(src: &Source<'_>) -> Result<Loaded, LoadError> {
    let mut loaded = Loaded::default();
    let v = &src.doc.value;
    if let Some(tools) = v.get("tools").and_then(Value::as_array) {
        for (i, entry) in tools.iter().enumerate() {
            let pointer = format!("/tools/{i}");
            match entry.get("ref") {
                Some(Value::String(r)) => match load_ref(src, r) {
                    Ok(mut refd) => loaded.surface.tools.append(&mut refd.surface.tools),
                    Err(msg) => {
                        let p = src.position(&pointer);
                        loaded.warnings.push(format!(
                            "{}:{}:{}: ref {r:?} not loaded: {msg}",
                            src.file, p.line, p.column
                        ));
                    }
                },
                Some(other) => {
                    return Err(src.shape_error(
                        &format!("{pointer}/ref"),
                        other,
                        "`ref` to be a relative path string",
                    ));
                }
                None => loaded.surface.tools.push(function_json::load_tool(
                    src,
                    entry,
                    &pointer,
                    SourceFormat::Suite,
                )?),
            }
        }
    }
    if let Some(skills) = v.get("skills").and_then(Value::as_array) {
        for (i, entry) in skills.iter().enumerate() {
            let pointer = format!("/skills/{i}");
            let name = req_str(src, entry, &pointer, "name")?;
            let description = opt_str(src, entry, &pointer, "description")?;
            loaded.surface.skills.push(Skill {
                name,
                description,
                origin: src.origin(SourceFormat::Suite, &pointer),
            });
        }
    }
    Ok(loaded)
}

/// Follow one `ref`. It must stay inside the suite's folder: absolute paths and `..` are
/// refused, and the file is read through the safe-open (a regular file, no symlink, resolved
/// inside the suite's folder, at most [`MAX_FILE_BYTES`]) so a suite cannot make mf read
/// `/dev/zero`, a pipe, or a file outside its tree. The message says why.
fn load_ref(src: &Source<'_>, r: &str) -> Result<Loaded, String> {
    let rel = Path::new(r);
    if rel.is_absolute() || rel.components().any(|c| matches!(c, Component::Prefix(_))) {
        return Err("absolute paths are not allowed; make it relative to the suite file".into());
    }
    if rel.components().any(|c| matches!(c, Component::ParentDir)) {
        return Err("`..` is not allowed; a ref must point inside the suite's folder".into());
    }
    let base = src.base_dir.unwrap_or_else(|| Path::new("."));
    let path = base.join(rel);
    let display = match Path::new(src.file).parent() {
        Some(p) if !p.as_os_str().is_empty() => {
            format!("{}/{}", p.to_string_lossy(), r.trim_start_matches("./"))
        }
        _ => r.trim_start_matches("./").to_owned(),
    };
    let text = read_repo_text(&path, &display, base, MAX_FILE_BYTES).map_err(|e| e.to_string())?;
    let doc = parse_json(&text, &display).map_err(|e| e.to_string())?;
    let inner = Source {
        file: &display,
        text: &text,
        doc: &doc,
        base_dir: path.parent(),
    };
    if !function_json::looks_like_function(&doc.value) {
        return Err(format!(
            "{display} is not a function definition {{name, description, parameters}}"
        ));
    }
    let tool = super::load_tool(&inner, &doc.value, "").map_err(|e| e.to_string())?;
    Ok(Loaded {
        surface: crate::surface::Surface {
            tools: vec![tool],
            skills: vec![],
            unread: Vec::new(),
        },
        warnings: vec![],
    })
}
