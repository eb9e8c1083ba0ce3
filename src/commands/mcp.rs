//! `mf mcp`: the operator's limits → the MCP server on stdio until the client disconnects.

use crate::cli::mcp::McpArgs;
use crate::{Error, Exit};

pub(super) fn run(args: &McpArgs) -> Result<Exit, Error> {
    let cwd =
        std::env::current_dir().map_err(|e| Error::Usage(format!("no working directory: {e}")))?;
    let limits = args.limits().validate(&cwd)?;
    crate::mcp::serve(limits)?;
    Ok(Exit::Ok)
}
