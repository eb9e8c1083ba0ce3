//! The MCP server side of `mf mcp` over stdio: the only file that imports rmcp's server.
//! `tools/list` serves [`super::tools::catalogue`]; `tools/call` runs the handler on a blocking
//! thread (the engines are synchronous, and eval starts its own runtime), and turns every
//! refusal into a tool error (`isError: true` with the message), never a protocol error or a
//! crash. `run_eval` forwards progress to the client's progress token and turns the client's
//! cancellation into the engine's [`Cancel`] switch.

use std::sync::Arc;
use std::sync::mpsc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ServerCapabilities,
    ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, ServiceExt};
use serde_json::{Map, Value};

use super::args::{Args, Refusal};
use super::eval::{Event, Forward};
use super::handlers::{self, Outcome};
use super::limits::Limits;
use super::tools::{ToolDef, catalogue};
use crate::eval::run::Cancel;

/// Why the server stopped other than by its client closing stdin.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The async runtime could not start.
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
    /// The MCP session failed to start (a client that does not speak MCP).
    #[error("mf mcp: the MCP session did not start: {0}")]
    Session(String),
}

/// The handler: the limits and the catalogue.
#[derive(Debug, Clone)]
struct MfServer {
    limits: Arc<Limits>,
    tools: Arc<Vec<ToolDef>>,
}

/// Serve MCP on stdin/stdout until the client disconnects.
pub fn serve(limits: Limits) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    let server = MfServer {
        limits: Arc::new(limits),
        tools: Arc::new(catalogue()),
    };
    runtime.block_on(async move {
        let service = server
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| ServeError::Session(e.to_string()))?;
        let _ = service.waiting().await;
        Ok(())
    })
}

fn definition(t: &ToolDef) -> Tool {
    let schema: Map<String, Value> = t.schema.as_object().cloned().unwrap_or_default();
    Tool::new(t.name, t.description, Arc::new(schema))
        .with_title(t.title)
        .with_annotations(
            ToolAnnotations::with_title(t.title)
                .read_only(t.read_only)
                .destructive(t.destructive)
                .idempotent(t.idempotent)
                .open_world(t.open_world),
        )
}

/// The tool result: the summary as the first text block, the data as JSON text in the second,
/// and the data again as structured content.
fn result(outcome: Outcome) -> CallToolResult {
    match outcome {
        Ok(reply) => {
            let mut r = CallToolResult::success(vec![
                ContentBlock::text(reply.summary),
                ContentBlock::text(crate::render::json::to_string(&reply.data)),
            ]);
            r.structured_content = Some(reply.data);
            r
        }
        Err(Refusal(message)) => CallToolResult::error(vec![ContentBlock::text(message)]),
    }
}

impl MfServer {
    /// Run `tool` with `arguments` (blocking).
    fn call(
        &self,
        tool: &str,
        arguments: &Map<String, Value>,
        forward: Option<&mut Forward>,
    ) -> Outcome {
        let Some(def) = self.tools.iter().find(|t| t.name == tool) else {
            let names: Vec<&str> = self.tools.iter().map(|t| t.name).collect();
            return Err(Refusal(format!(
                "unknown tool {tool:?}{}; the tools are: {}",
                crate::util::closest::did_you_mean(&crate::util::closest::close_matches(
                    tool,
                    names.iter().copied()
                )),
                names.join(", ")
            )));
        };
        let known: Vec<&str> = def
            .schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().map(String::as_str).collect())
            .unwrap_or_default();
        let args = Args::new(tool, arguments, &known)?;
        let limits = &self.limits;
        match tool {
            "scan_tools" => handlers::scan_tools(&args, limits),
            "list_suite" => handlers::list_suite(&args, limits),
            "coverage" => handlers::coverage_tool(&args, limits),
            "add_cases" => handlers::add_cases(&args, limits),
            "lint_surface" => handlers::lint_surface(&args, limits),
            "cluster_surface" => handlers::cluster_surface(&args, limits),
            "check_install" => handlers::check_install(&args, limits),
            "compare_runs" => handlers::compare_runs(&args, limits),
            "run_eval" => {
                let call = super::eval::prepare(&args, limits)?;
                match forward {
                    Some(f) => super::eval::run(call, f),
                    None => Err(Refusal("run_eval: internal: no observer".into())),
                }
            }
            other => Err(Refusal(format!("{other}: not served by this mf"))),
        }
    }
}

impl ServerHandler for MfServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("mf", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "mf judges AI tool surfaces: scan_tools finds tool definitions, lint_surface and \
                 cluster_surface say what will confuse a model, list_suite/coverage/add_cases \
                 manage test cases, run_eval measures which tool models pick (lexical is free), \
                 compare_runs compares two saved runs. Paths are inside the working directory; \
                 the operator's limits (paid runs, live servers, trial caps) cannot be raised by \
                 a tool argument.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(
            self.tools.iter().map(definition).collect(),
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.to_string();
        let arguments = request.arguments.unwrap_or_default();
        let server = self.clone();
        if name != "run_eval" {
            let outcome = tokio::task::spawn_blocking(move || server.call(&name, &arguments, None))
                .await
                .unwrap_or_else(|e| Err(Refusal(format!("internal error: {e}"))));
            return Ok(result(outcome).into());
        }
        // run_eval: the engine on its own thread, events back here, cancellation down.
        let (events, received) = mpsc::channel::<Event>();
        let cancel = Cancel::new();
        let mut forward = Forward {
            events,
            cancel: cancel.clone(),
        };
        let (done_tx, mut done_rx) = tokio::sync::oneshot::channel();
        std::thread::spawn(move || {
            let outcome = server.call(&name, &arguments, Some(&mut forward));
            drop(forward);
            let _ = done_tx.send(outcome);
        });
        let (tick_tx, mut ticks) = tokio::sync::mpsc::unbounded_channel::<Event>();
        std::thread::spawn(move || {
            while let Ok(e) = received.recv() {
                if tick_tx.send(e).is_err() {
                    break;
                }
            }
        });
        let token = context.meta.get_progress_token();
        let mut total = None;
        let mut notes: Vec<String> = Vec::new();
        let outcome = loop {
            tokio::select! {
                done = &mut done_rx => {
                    break done.unwrap_or_else(|e| Err(Refusal(format!("internal error: {e}"))));
                }
                () = context.ct.cancelled(), if !cancel.is_cancelled() => cancel.cancel(),
                Some(event) = ticks.recv() => {
                    if let Event::Note(line) = &event {
                        notes.push(line.clone());
                    }
                    let Some(token) = &token else { continue };
                    let (progress, message) = match event {
                        Event::Started(n) => {
                            total = Some(n as f64);
                            (0.0, format!("{n} trials planned"))
                        }
                        Event::Progress(p) => (
                            p.done as f64,
                            format!("{}/{} trials ({} cached, {} errors)", p.done, p.total, p.cached, p.errors),
                        ),
                        Event::Note(line) => (f64::NAN, line),
                    };
                    if progress.is_nan() {
                        continue;
                    }
                    let mut param = ProgressNotificationParam::new(token.clone(), progress).with_message(message);
                    if let Some(t) = total {
                        param = param.with_total(t);
                    }
                    let _ = context.peer.notify_progress(param).await;
                }
            }
        };
        // Warnings the run gave (a skipped file, a suite note) travel with its result.
        // The engine's sender is gone (dropped before the outcome was sent), so this ends.
        while let Some(event) = ticks.recv().await {
            if let Event::Note(line) = event {
                notes.push(line);
            }
        }
        let outcome = outcome.map(|mut reply| {
            if !notes.is_empty()
                && let Some(data) = reply.data.as_object_mut()
            {
                data.insert("notes".into(), notes.into());
            }
            reply
        });
        Ok(result(outcome).into())
    }
}
