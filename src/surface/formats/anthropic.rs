//! Anthropic Messages tools: `{name, description, input_schema}`.

use serde_json::Value;

use super::{LoadError, Source, opt_obj, opt_str, req_str};
use crate::surface::{Confidence, SourceFormat, Tool};

/// Load one Anthropic tool.
pub fn load_tool(src: &Source<'_>, v: &Value, pointer: &str) -> Result<Tool, LoadError> {
    let name = req_str(src, v, pointer, "name")?;
    let mut tool = Tool::named(
        &name,
        src.origin(SourceFormat::Anthropic, pointer),
        Confidence::High,
    );
    tool.description = opt_str(src, v, pointer, "description")?;
    tool.input_schema = opt_obj(src, v, pointer, "input_schema")?;
    Ok(tool)
}
