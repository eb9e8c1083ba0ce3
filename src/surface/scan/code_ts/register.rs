//! Where a server's tools are registered or listed, and the tools each place yields:
//! `server.tool(…)` / `server.registerTool(…)`, `registerAppTool(server, …)`, fastmcp's
//! `server.addTool({…})`, the low-level `setRequestHandler(ListToolsRequestSchema, …)`; each
//! also inside loops, callbacks and local wrappers, followed to the values that reach them.

use serde_json::{Map, Value};

use super::eval::{Cx, Env, Val, contexts, is_function};
use super::node::{Module, N};
use super::object_schema;
use crate::surface::scan::syntax::walk;
use crate::surface::{Confidence, Origin, SourceFormat, Tool};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// `x.tool(name, [description], [shape], [annotations], cb)`.
    Tool,
    /// `x.registerTool(name, config, cb)`.
    Register,
    /// `registerAppTool(server, name, config, cb)`.
    Shifted,
    /// fastmcp `x.addTool({ name, description, parameters, execute })`.
    AddTool,
    /// `x.setRequestHandler(ListToolsRequestSchema, handler)`.
    List,
    /// A project's own registration method taking a literal name first
    /// (`server.addToolWithReadAccess("name", "description", shape, cb)`): read as `tool`, or as
    /// `registerTool` when its second argument is a config object.
    Custom,
}

/// What one module says about the MCP server(s) in it.
#[derive(Debug, Clone, Default)]
pub struct ServerSeen {
    /// The module.
    pub file: String,
    /// Where the server is created (`new McpServer(…)`), if it is.
    pub created_at: Option<u32>,
    /// Registration and listing places found.
    pub sites: usize,
    /// Places whose tools could not be read: (line, what was seen).
    pub unresolved: Vec<(u32, String)>,
    /// Tools read from this module's places.
    pub tools: usize,
}

/// The tools the registration places of `m` yield, and what was seen of its server.
pub(super) fn extract_module<'a>(cx: &Cx<'a>, m: &'a Module) -> (Vec<Tool>, ServerSeen) {
    let mut seen = ServerSeen {
        file: m.file.clone(),
        ..Default::default()
    };
    let mut sites: Vec<(Kind, N<'a>)> = Vec::new();
    let root = m.root();
    let sdk = mentions_sdk(&m.src);
    walk(root.n, |n| {
        let n = root.at(n);
        match n.kind() {
            "call_expression" => {
                if let Some(k) = classify(cx, n) {
                    sites.push((k, n));
                }
            }
            "new_expression" if sdk && seen.created_at.is_none() => {
                let ctor = n.field("constructor").and_then(|c| c.callee_name());
                if matches!(ctor, Some("McpServer" | "Server" | "FastMCP" | "MCPServer")) {
                    seen.created_at = Some(n.line());
                }
            }
            _ => {}
        }
    });
    let mut tools = Vec::new();
    for (kind, call) in sites {
        cx.reset_budget();
        seen.sites += 1;
        let before = tools.len();
        let mut unresolved = site_tools(cx, kind, call, &None, &mut tools);
        if unresolved > 0 {
            // Not readable as it stands: follow the loops, callbacks and wrappers around it.
            let envs = contexts(cx, call, 0, &mut 0);
            if envs.iter().any(Option::is_some) {
                tools.truncate(before);
                let mut any = false;
                unresolved = 0;
                for env in envs.iter().filter(|e| e.is_some()) {
                    cx.reset_budget();
                    let mut found = Vec::new();
                    let u = site_tools(cx, kind, call, env, &mut found);
                    any |= !found.is_empty();
                    unresolved = unresolved.max(u);
                    tools.extend(found);
                }
                if !any && unresolved == 0 {
                    unresolved = 1;
                }
            }
        }
        if unresolved > 0 {
            let what = describe(kind, call);
            seen.unresolved.push((call.line(), what));
        }
    }
    seen.tools = tools.len();
    (tools, seen)
}

fn mentions_sdk(src: &str) -> bool {
    src.contains("@modelcontextprotocol/sdk")
        || src.contains("\"fastmcp\"")
        || src.contains("'fastmcp'")
        || src.contains("mcp-framework")
        || src.contains("McpServer")
}

/// Which kind of registration place `call` is, if any.
fn classify<'a>(cx: &Cx<'a>, call: N<'a>) -> Option<Kind> {
    let f = call.field("function")?.peel();
    let args = call.field("arguments")?.named();
    let name = f.callee_name()?;
    let member = f.kind() == "member_expression";
    match (member, name) {
        (true, "tool") if args.len() >= 2 => Some(Kind::Tool),
        (true, "registerTool") if args.len() >= 2 => Some(Kind::Register),
        (true, "addTool") if args.len() == 1 => Some(Kind::AddTool),
        // A project's own server class: `server.registerTool(definition)`.
        (true, "registerTool") if args.len() == 1 => Some(Kind::AddTool),
        (true, "setRequestHandler") if args.len() >= 2 => {
            let schema = args[0].text();
            (schema.contains("ListToolsRequestSchema") || schema.contains("\"tools/list\""))
                .then_some(Kind::List)
        }
        (true, n)
            if args.len() >= 2
                && custom_method(n)
                && !args.iter().any(|a| a.kind() == "spread_element")
                && matches!(args[0].peel().kind(), "string" | "template_string") =>
        {
            Some(Kind::Custom)
        }
        (false, n)
            if args.len() >= 3
                && (n == "registerAppTool"
                    || (n.starts_with("register") && n.ends_with("Tool"))) =>
        {
            // A project function of that name is a wrapper: its inner call is the place.
            let local = cx.deref(Val::Node(f, None), 0);
            match local {
                Val::Node(d, _) if is_function(d) => None,
                _ => Some(Kind::Shifted),
            }
        }
        _ => None,
    }
}

/// A method that registers a tool by its name: `add…Tool…`, `register…Tool…`, `define…Tool…`.
fn custom_method(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.contains("tool")
        && ["add", "register", "define", "create"]
            .iter()
            .any(|p| lower.starts_with(p))
        && !matches!(
            name,
            "registerTool" | "addTool" | "registerTools" | "addTools"
        )
}

fn describe(kind: Kind, call: N<'_>) -> String {
    let callee = call
        .field("function")
        .map(|f| {
            f.text()
                .chars()
                .filter(|c| !c.is_whitespace())
                .take(60)
                .collect::<String>()
        })
        .unwrap_or_default();
    match kind {
        Kind::List => format!("`{callee}(ListToolsRequestSchema, …)`"),
        _ => format!("`{callee}(…)`"),
    }
}

/// The tools one place yields under `env`; returns how many of its tools could not be read.
fn site_tools<'a>(
    cx: &Cx<'a>,
    kind: Kind,
    call: N<'a>,
    env: &Env<'a>,
    out: &mut Vec<Tool>,
) -> usize {
    let Some(args) = call.field("arguments").map(|a| a.named()) else {
        return 1;
    };
    let arg = |i: usize| args.get(i).map(|a| Val::Node(*a, env.clone()));
    match kind {
        Kind::Tool | Kind::Register | Kind::Shifted | Kind::Custom => {
            let shift = usize::from(kind == Kind::Shifted);
            let Some(name_v) = arg(shift) else { return 1 };
            let Some(name) = cx.str_of(name_v.clone(), 0) else {
                return 1;
            };
            if !plausible_name(&name) {
                return 1;
            }
            cx.low.set(false);
            let at = cx.str_site(name_v).unwrap_or(call);
            let mut tool = Tool::named(&name, origin(at), Confidence::Medium);
            tool.input_schema = Some(Value::Object(object_schema(Map::new(), Vec::new())));
            let config_object = kind == Kind::Custom
                && arg(1).is_some_and(|v| {
                    cx.prop(v.clone(), "description", 0).is_some()
                        || cx.prop(v, "inputSchema", 0).is_some()
                });
            if kind == Kind::Tool || (kind == Kind::Custom && !config_object) {
                let rest: Vec<Val<'a>> = args[1..args.len() - 1]
                    .iter()
                    .map(|a| Val::Node(*a, env.clone()))
                    .collect();
                tool_args(cx, &mut tool, &rest, call);
            } else if let Some(cfg) = arg(shift + 1) {
                config(cx, &mut tool, cfg, call);
            }
            finish(cx, &mut tool);
            out.push(tool);
            0
        }
        Kind::AddTool => match arg(0).and_then(|v| tool_object(cx, v)) {
            Some(t) => {
                out.push(t);
                0
            }
            None => 1,
        },
        Kind::List => {
            let Some(handler) = arg(1) else { return 1 };
            let Val::Node(h, henv) = cx.deref(handler, 0) else {
                return 1;
            };
            if !is_function(h) {
                return 1;
            }
            let returned = cx.returned(h, &henv);
            let mut unresolved = 0;
            let mut any_list = false;
            for r in returned {
                if r_text_has(&r, "_registeredTools") {
                    // The SDK's own McpServer (bundled into a build): not a tool surface.
                    return 0;
                }
                let Some(list) = cx.prop(r, "tools", 0).and_then(|t| cx.list_of(t, 0)) else {
                    continue;
                };
                // An empty list read from a real handler is a list not understood.
                any_list |= !list.is_empty();
                for item in list {
                    match tool_object(cx, item) {
                        Some(t) => out.push(t),
                        None => unresolved += 1,
                    }
                }
            }
            if any_list { unresolved } else { 1 }
        }
    }
}

fn r_text_has(v: &Val<'_>, needle: &str) -> bool {
    matches!(v, Val::Node(n, _) if n.text().contains(needle))
}

/// A name a client could call: no spaces or control characters, not empty, not absurdly long.
fn plausible_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 128
        && !name.chars().any(|c| c.is_whitespace() || c.is_control())
}

fn origin(at: N<'_>) -> Origin {
    Origin::at(
        SourceFormat::TypescriptCode,
        &at.m.file,
        at.line(),
        at.column(),
    )
}

fn finish(cx: &Cx<'_>, tool: &mut Tool) {
    tool.confidence = if cx.low.get() {
        Confidence::Low
    } else {
        Confidence::Medium
    };
}

fn str_or_low<'a>(cx: &Cx<'a>, v: Val<'a>) -> Option<String> {
    let s = cx.str_of(v, 0);
    if s.is_none() {
        cx.set_low();
    }
    s
}

fn schema_or_warn<'a>(cx: &Cx<'a>, v: Val<'a>, tool: &str, at: N<'a>) -> Option<Value> {
    let s = cx.schema(v.clone(), 0);
    if s.is_none() {
        cx.set_low();
        let text = match &v {
            Val::Node(n, _) => n.text().chars().take(60).collect::<String>(),
            _ => String::new(),
        };
        cx.warn(
            at,
            &format!("tool {tool:?}: input schema `{text}` is not resolvable statically; parameters unknown"),
        );
    }
    s
}

/// `registerTool(name, { title, description, inputSchema, outputSchema, annotations }, cb)`.
fn config<'a>(cx: &Cx<'a>, tool: &mut Tool, cfg: Val<'a>, at: N<'a>) {
    let is_object = matches!(cx.deref(cfg.clone(), 0), Val::Node(n, _) if n.kind() == "object");
    if !is_object {
        cx.set_low();
        tool.input_schema = None;
        cx.warn(
            at,
            &format!(
                "tool {:?}: config is not an object literal; definition unknown",
                tool.name
            ),
        );
        return;
    }
    if let Some(v) = cx.prop(cfg.clone(), "title", 0) {
        tool.title = str_or_low(cx, v);
    }
    if let Some(v) = cx.prop(cfg.clone(), "description", 0) {
        tool.description = str_or_low(cx, v);
    }
    if let Some(v) = cx.prop(cfg.clone(), "inputSchema", 0) {
        tool.input_schema = schema_or_warn(cx, v, &tool.name, at);
    }
    if let Some(v) = cx.prop(cfg.clone(), "outputSchema", 0) {
        tool.output_schema = cx.schema(v, 0);
        if tool.output_schema.is_none() {
            cx.set_low();
        }
    }
    if let Some(v) = cx.prop(cfg, "annotations", 0) {
        tool.annotations = cx.json_of(v, 0);
        if tool.annotations.is_none() {
            cx.set_low();
        }
    }
}

/// How a middle argument of `server.tool(...)` reads.
enum Arg {
    Str(String),
    Shape,
    Annotations,
    Unknown,
}

fn classify_arg<'a>(cx: &Cx<'a>, v: &Val<'a>) -> Arg {
    let d = cx.deref(v.clone(), 0);
    let Val::Node(n, env) = d else {
        return match d {
            Val::Str(s) => Arg::Str(s),
            _ => Arg::Unknown,
        };
    };
    match n.kind() {
        "string" | "template_string" | "binary_expression" => cx
            .str_of(Val::Node(n, env), 0)
            .map_or(Arg::Unknown, Arg::Str),
        "object" => {
            let pairs = n.named();
            let literal = |p: &N<'_>| {
                p.kind() == "pair"
                    && p.field("value").is_some_and(|x| {
                        matches!(
                            x.kind(),
                            "true" | "false" | "string" | "number" | "template_string"
                        )
                    })
            };
            if !pairs.is_empty() && pairs.iter().all(literal) {
                Arg::Annotations
            } else {
                Arg::Shape
            }
        }
        "call_expression" => Arg::Shape,
        _ => Arg::Unknown,
    }
}

/// `tool(name, [description], [shape], [annotations], cb)`; `middle` excludes name and cb.
fn tool_args<'a>(cx: &Cx<'a>, tool: &mut Tool, middle: &[Val<'a>], at: N<'a>) {
    let mut rest = middle;
    if let Some(first) = rest.first() {
        match classify_arg(cx, first) {
            Arg::Str(s) => {
                tool.description = Some(s);
                rest = &rest[1..];
            }
            Arg::Unknown
                if rest.len() >= 2
                    || matches!(first, Val::Node(n, _) if n.text().to_ascii_lowercase().contains("desc")) =>
            {
                cx.set_low();
                cx.warn(
                    at,
                    &format!("tool {:?}: description is not a string literal", tool.name),
                );
                rest = &rest[1..];
            }
            _ => {}
        }
    }
    if let Some(first) = rest.first().cloned() {
        rest = &rest[1..];
        match classify_arg(cx, &first) {
            Arg::Shape | Arg::Str(_) | Arg::Unknown => {
                tool.input_schema = schema_or_warn(cx, first, &tool.name, at);
            }
            Arg::Annotations => {
                tool.annotations = cx.json_of(first, 0);
                rest = &[];
            }
        }
    }
    if let Some(first) = rest.first().cloned() {
        tool.annotations = cx.json_of(first, 0);
        if tool.annotations.is_none() {
            cx.set_low();
        }
    }
}

/// Keys a tool object's input schema is found under.
const SCHEMA_KEYS: &[&str] = &[
    "inputSchema",
    "input_schema",
    "parameters",
    "schema",
    "inputShape",
    "argsSchema",
    "paramsSchema",
    "args",
];

/// A tool-definition object (`{ name, description, inputSchema | parameters | … }`, also
/// behind a helper call, a class instance or a constant); `None` if it has no readable name.
pub(super) fn tool_object<'a>(cx: &Cx<'a>, v: Val<'a>) -> Option<Tool> {
    cx.low.set(false);
    let name_v = cx.prop(v.clone(), "name", 0)?;
    let name = cx.str_of(name_v.clone(), 0)?;
    if !plausible_name(&name) {
        return None;
    }
    let at = cx.str_site(name_v)?;
    let mut tool = Tool::named(&name, origin(at), Confidence::Medium);
    if let Some(d) = cx.prop(v.clone(), "description", 0) {
        tool.description = str_or_low(cx, d);
    }
    if let Some(t) = cx.prop(v.clone(), "title", 0) {
        tool.title = cx.str_of(t, 0);
    }
    let schema = SCHEMA_KEYS.iter().find_map(|k| cx.prop(v.clone(), k, 0));
    tool.input_schema = match schema {
        Some(s) => schema_or_warn(cx, s, &name, at),
        None => Some(Value::Object(object_schema(Map::new(), Vec::new()))),
    };
    if let Some(o) = cx.prop(v.clone(), "outputSchema", 0) {
        tool.output_schema = cx.schema(o, 0);
    }
    if let Some(a) = cx.prop(v, "annotations", 0) {
        tool.annotations = cx.json_of(a, 0);
        if tool.annotations.is_none() {
            cx.set_low();
        }
    }
    finish(cx, &mut tool);
    Some(tool)
}
