//! MCP `tools/list` results: `{tools}`, `{result: {tools}}`, a bare array of MCP tools, or an
//! array of pages (results or JSON-RPC envelopes) that are merged in order.

use serde_json::Value;

use super::{LoadError, Loaded, Source, opt_obj, opt_str, req_str};
use crate::surface::{Confidence, SourceFormat, Tool};

/// Load the document if it is a tools/list result in any of its shapes; `Ok(None)` if not.
pub fn load(src: &Source<'_>) -> Result<Option<Loaded>, LoadError> {
    let v = &src.doc.value;
    if let Some(pointer) = page_tools_pointer(v) {
        let mut loaded = Loaded::default();
        load_page(src, &pointer, &mut loaded)?;
        return Ok(Some(loaded));
    }
    if let Value::Array(items) = v {
        // An array of pages, merged in order.
        if !items.is_empty() && items.iter().all(|p| page_tools_pointer(p).is_some()) {
            let mut loaded = Loaded::default();
            for (i, page) in items.iter().enumerate() {
                let inner = page_tools_pointer(page).unwrap_or_default();
                load_page(src, &format!("/{i}{inner}"), &mut loaded)?;
            }
            return Ok(Some(loaded));
        }
        // A bare array of MCP tools (camelCase `inputSchema`).
        if !items.is_empty()
            && items
                .iter()
                .all(|i| i.get("name").is_some() && i.get("inputSchema").is_some())
        {
            let mut loaded = Loaded::default();
            for (i, item) in items.iter().enumerate() {
                loaded
                    .surface
                    .tools
                    .push(load_tool(src, item, &format!("/{i}"))?);
            }
            return Ok(Some(loaded));
        }
    }
    Ok(None)
}

/// If `v` is one page (`{tools: [...]}` or `{result: {tools: [...]}}`), the pointer to its
/// `tools` array relative to `v`.
fn page_tools_pointer(v: &Value) -> Option<String> {
    let o = v.as_object()?;
    if o.get("tools").is_some_and(Value::is_array) {
        return Some("/tools".into());
    }
    let result = o.get("result")?.as_object()?;
    result
        .get("tools")
        .filter(|t| t.is_array())
        .map(|_| "/result/tools".into())
}

fn load_page(src: &Source<'_>, tools_pointer: &str, loaded: &mut Loaded) -> Result<(), LoadError> {
    let tools = src
        .doc
        .value
        .pointer(tools_pointer)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for (i, item) in tools.iter().enumerate() {
        let p = format!("{tools_pointer}/{i}");
        loaded.surface.tools.push(super::load_tool(src, item, &p)?);
    }
    Ok(())
}

/// Load one MCP tool object `{name, title?, description?, inputSchema, outputSchema?, annotations?}`.
pub fn load_tool(src: &Source<'_>, v: &Value, pointer: &str) -> Result<Tool, LoadError> {
    let name = req_str(src, v, pointer, "name")?;
    let mut tool = Tool::named(
        &name,
        src.origin(SourceFormat::McpToolsList, pointer),
        Confidence::High,
    );
    tool.title = opt_str(src, v, pointer, "title")?;
    tool.description = opt_str(src, v, pointer, "description")?;
    tool.input_schema = opt_obj(src, v, pointer, "inputSchema")?;
    tool.output_schema = opt_obj(src, v, pointer, "outputSchema")?;
    tool.annotations = opt_obj(src, v, pointer, "annotations")?;
    Ok(tool)
}
