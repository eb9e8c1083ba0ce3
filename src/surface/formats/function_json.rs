//! `function.json`: one tool `{name, description, parameters | input}` (compat), also the
//! inline form of suite `tools[]` entries.

use serde_json::Value;

use super::{LoadError, Source, opt_obj, opt_str, req_str};
use crate::surface::{Confidence, SourceFormat, Tool};

/// Whether a document is a single function definition.
pub fn looks_like_function(v: &Value) -> bool {
    let Some(o) = v.as_object() else {
        return false;
    };
    if o.get("type").and_then(Value::as_str) == Some("function")
        && o.get("function").is_some_and(Value::is_object)
    {
        return true;
    }
    o.get("name").is_some_and(Value::is_string)
        && (o.contains_key("parameters")
            || o.contains_key("input")
            || o.contains_key("inputSchema")
            || o.contains_key("input_schema"))
}

/// Load one `{name, description, parameters | input}` object.
pub fn load_tool(
    src: &Source<'_>,
    v: &Value,
    pointer: &str,
    format: SourceFormat,
) -> Result<Tool, LoadError> {
    let name = req_str(src, v, pointer, "name")?;
    let mut tool = Tool::named(&name, src.origin(format, pointer), Confidence::High);
    tool.title = opt_str(src, v, pointer, "title")?;
    tool.description = opt_str(src, v, pointer, "description")?;
    tool.input_schema = match opt_obj(src, v, pointer, "parameters")? {
        Some(s) => Some(s),
        None => opt_obj(src, v, pointer, "input")?,
    };
    tool.annotations = opt_obj(src, v, pointer, "annotations")?;
    Ok(tool)
}
