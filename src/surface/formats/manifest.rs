//! A capability manifest for `mf check` (and `check_install` of `mf mcp`): `{name, tools: [...]}`
//! in any supported tool shape, or one tool definition whose `name` names the capability.

use std::path::Path;

use serde_json::Value;

use super::{LoadError, MAX_FILE_BYTES, Source, load_tool, parse_json, read_text};
use crate::surface::Surface;

/// The manifest at `path`: its name and its tools. The only hard error besides unreadable
/// JSON or a malformed tool is a missing `name`.
pub fn read_manifest(path: &Path) -> Result<(String, Surface), LoadError> {
    let display = path.to_string_lossy().replace('\\', "/");
    let text = read_text(path, &display, MAX_FILE_BYTES)?;
    let doc = parse_json(&text, &display)?;
    let src = Source {
        file: &display,
        text: &text,
        doc: &doc,
        base_dir: path.parent(),
    };
    let name = match doc.value.get("name") {
        Some(Value::String(n)) if !n.trim().is_empty() => n.clone(),
        other => {
            return Err(src.shape_error(
                "",
                other.unwrap_or(&doc.value),
                "a manifest with a non-empty `name` (the capability being installed)",
            ));
        }
    };
    if let Some(tools) = doc.value.get("tools").and_then(Value::as_array) {
        let mut surface = Surface::default();
        for (i, t) in tools.iter().enumerate() {
            surface
                .tools
                .push(load_tool(&src, t, &format!("/tools/{i}"))?);
        }
        return Ok((name, surface));
    }
    let tool = load_tool(&src, &doc.value, "")?;
    Ok((
        name,
        Surface {
            tools: vec![tool],
            skills: vec![],
            unread: Vec::new(),
        },
    ))
}
