//! OpenAI function tools: Chat Completions `{type: "function", function: {name, description,
//! parameters}}` and the flat Responses form `{type: "function", name, description, parameters}`.

use serde_json::Value;

use super::{LoadError, Source, opt_obj, opt_str, req_str};
use crate::surface::{Confidence, SourceFormat, Tool};

/// Load one Chat Completions tool.
pub fn load_chat_tool(src: &Source<'_>, v: &Value, pointer: &str) -> Result<Tool, LoadError> {
    let fp = format!("{pointer}/function");
    let f = v.get("function").unwrap_or(&Value::Null);
    if !f.is_object() {
        return Err(src.shape_error(
            &fp,
            f,
            "`function` to be an object {name, description, parameters}",
        ));
    }
    let name = req_str(src, f, &fp, "name")?;
    let mut tool = Tool::named(
        &name,
        src.origin(SourceFormat::OpenaiChat, pointer),
        Confidence::High,
    );
    tool.description = opt_str(src, f, &fp, "description")?;
    tool.input_schema = opt_obj(src, f, &fp, "parameters")?;
    Ok(tool)
}

/// Load one Responses tool.
pub fn load_responses_tool(src: &Source<'_>, v: &Value, pointer: &str) -> Result<Tool, LoadError> {
    let name = req_str(src, v, pointer, "name")?;
    let mut tool = Tool::named(
        &name,
        src.origin(SourceFormat::OpenaiResponses, pointer),
        Confidence::High,
    );
    tool.description = opt_str(src, v, pointer, "description")?;
    tool.input_schema = opt_obj(src, v, pointer, "parameters")?;
    Ok(tool)
}
