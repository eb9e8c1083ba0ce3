//! TypeScript and JavaScript MCP servers, read statically with tree-sitter (nothing is
//! executed): the places a server registers or lists its tools (`register.rs`), the values
//! those places are built from, followed across constants, enums, imports, loops and wrappers
//! (`eval.rs`, over the modules `loader.rs` loads), and zod or JSON-schema inputs (`zod.rs`).

mod eval;
pub mod loader;
mod node;
mod register;
mod zod;

use std::path::PathBuf;
use std::sync::LazyLock;

use serde_json::{Map, Value};
use tree_sitter::Language;

use super::CodeFindings;
pub use loader::Loader;
pub use node::Module;
pub use register::ServerSeen;

/// The grammar a source file is parsed with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// `.ts`, `.mts`, `.cts`.
    TypeScript,
    /// `.tsx`.
    Tsx,
    /// `.js`, `.mjs`, `.cjs`, `.jsx`.
    JavaScript,
}

impl Dialect {
    /// The dialect for a file extension given without the dot (`"ts"`), or `None` if the
    /// extension is not a TypeScript or JavaScript one.
    pub fn from_extension(ext: &str) -> Option<Dialect> {
        match ext.to_ascii_lowercase().as_str() {
            "ts" | "mts" | "cts" => Some(Dialect::TypeScript),
            "tsx" => Some(Dialect::Tsx),
            "js" | "mjs" | "cjs" | "jsx" => Some(Dialect::JavaScript),
            _ => None,
        }
    }

    /// Every dialect is parsed with the TSX grammar: it reads JavaScript, JSX and TypeScript,
    /// so one grammar's parse tables ship instead of three (the TypeScript and JavaScript ones
    /// cost 1.8 MB of the binary). What TSX reads differently is TypeScript's angle-bracket
    /// cast (`<number>x`, a JSX tag to TSX): a `.ts` file's casts are blanked before its tree
    /// is read (`ts_casts.rs`); generic arrows (`<T>(a: T) => a`) parse as they are.
    pub(crate) fn language(self) -> &'static Language {
        &TSX
    }
}

static TSX: LazyLock<Language> = LazyLock::new(|| tree_sitter_typescript::LANGUAGE_TSX.into());

/// Whether a file may register or list tools (a cheap text test before any parse).
pub fn may_register(source: &str) -> bool {
    // One pass over every file (a multi-literal search); the precise tests below run only on
    // the few files it lets through.
    static ANY: LazyLock<Option<regex::Regex>> =
        LazyLock::new(|| regex::Regex::new(r"\.tool[(<]|Tool|Server\(|FastMCP\(|tools/list").ok());
    if ANY.as_ref().is_some_and(|r| !r.is_match(source)) {
        return false;
    }
    source.contains(".tool(")
        || source.contains(".tool<")
        || source.contains("registerTool")
        || source.contains("addTool(")
        || source.contains("ListToolsRequestSchema")
        || source.contains("registerAppTool")
        || (source.contains("Tool(") && source.contains("McpServer"))
        // A server created with no registration the scan can see is still a server.
        || source.contains("McpServer(")
        || source.contains("FastMCP(")
        || (source.contains("@modelcontextprotocol/sdk") && source.contains("Server("))
        || source.contains("\"tools/list\"")
}

/// Parse a file the walk found into a module, if it may register tools.
pub fn parse_entry(file: &str, path: PathBuf, source: &str, dialect: Dialect) -> Option<Module> {
    if !may_register(source) {
        return None;
    }
    Module::parse(file, Some(path), source, dialect)
}

/// What one module yielded.
#[derive(Debug, Default)]
pub struct ModuleFindings {
    /// The module's file.
    pub file: String,
    /// Tools and warnings.
    pub found: CodeFindings,
    /// What was seen of the server(s) in it.
    pub server: ServerSeen,
}

/// Read every entry module of `loader` (following imports through it).
pub fn extract_project(loader: &Loader) -> Vec<ModuleFindings> {
    use rayon::prelude::*;
    let entries: Vec<&Module> = loader.entries().collect();
    let run = |m: &&Module| {
        let cx = eval::Cx::new(loader);
        let (tools, server) = register::extract_module(&cx, m);
        ModuleFindings {
            file: m.file.clone(),
            found: CodeFindings {
                tools,
                warnings: cx.warnings.into_inner(),
                server: None,
            },
            server,
        }
    };
    // The evaluator recurses (bounded); its own threads get stacks that hold the bound. One
    // module (a file given directly) runs on one such thread, joined before returning.
    if entries.len() <= 1 {
        let joined = std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(STACK_BYTES)
                .spawn_scoped(scope, || entries.iter().map(run).collect::<Vec<_>>())
                .ok()
                .and_then(|h| h.join().ok())
        });
        return joined.unwrap_or_else(|| entries.iter().map(run).collect());
    }
    match rayon::ThreadPoolBuilder::new()
        .stack_size(STACK_BYTES)
        .build()
    {
        Ok(pool) => pool.install(|| entries.par_iter().map(run).collect()),
        Err(_) => entries.iter().map(run).collect(),
    }
}

/// Stack of each project-pass thread.
const STACK_BYTES: usize = 64 * 1024 * 1024;

/// Find the MCP tools defined in `source` alone (no import followed), a file of `dialect`
/// shown as `file` in origins and warnings. Never fails: what cannot be read statically is
/// skipped or marked low-confidence, with a warning.
pub fn extract(file: &str, source: &str, dialect: Dialect) -> CodeFindings {
    let mut out = CodeFindings::default();
    if !may_register(source) {
        return out;
    }
    let Some(m) = Module::parse(file, None, source, dialect) else {
        return out;
    };
    let loader = Loader::new(None, vec![m], Vec::new(), 0);
    for f in extract_project(&loader) {
        out.tools.extend(f.found.tools);
        out.warnings.extend(f.found.warnings);
    }
    out
}

/// `{"type": "object", "properties": props, "required": required}` (no `required` when empty).
fn object_schema(props: Map<String, Value>, required: Vec<Value>) -> Map<String, Value> {
    let mut s = Map::new();
    s.insert("type".into(), "object".into());
    s.insert("properties".into(), Value::Object(props));
    if !required.is_empty() {
        s.insert("required".into(), Value::Array(required));
    }
    s
}

fn typed(t: &str) -> Map<String, Value> {
    let mut s = Map::new();
    s.insert("type".into(), t.into());
    s
}

/// The JSON Schema type of a literal value.
fn json_type(v: &Value) -> Option<&'static str> {
    match v {
        Value::String(_) => Some("string"),
        Value::Number(n) if n.is_f64() => Some("number"),
        Value::Number(_) => Some("integer"),
        Value::Bool(_) => Some("boolean"),
        Value::Null => Some("null"),
        _ => None,
    }
}

/// Allow `null` besides the declared type.
fn make_nullable(s: &mut Map<String, Value>) {
    if let Some(Value::String(t)) = s.get("type") {
        let t = Value::String(t.clone());
        s.insert("type".into(), Value::Array(vec![t, "null".into()]));
    }
}

/// A lower (`min`) or upper bound, mapped to the keyword that fits the schema's type.
fn bound(s: &mut Map<String, Value>, min: bool, exclusive: bool, v: Value) {
    let key = match (s.get("type").and_then(Value::as_str), min, exclusive) {
        (Some("string"), true, _) => "minLength",
        (Some("string"), false, _) => "maxLength",
        (Some("array"), true, _) => "minItems",
        (Some("array"), false, _) => "maxItems",
        (Some("number" | "integer"), true, false) => "minimum",
        (Some("number" | "integer"), false, false) => "maximum",
        (Some("number" | "integer"), true, true) => "exclusiveMinimum",
        (Some("number" | "integer"), false, true) => "exclusiveMaximum",
        _ => return,
    };
    s.insert(key.into(), v);
}

/// Add the `properties` and `required` of object schema `extra` to `s` (zod `.extend`).
fn merge_object(s: &mut Map<String, Value>, extra: &Value) {
    for key in ["properties", "required"] {
        let Some(from) = extra.get(key) else { continue };
        match (s.get_mut(key), from) {
            (Some(Value::Object(to)), Value::Object(f)) => to.extend(f.clone()),
            (Some(Value::Array(to)), Value::Array(f)) => to.extend(f.iter().cloned()),
            _ => drop(s.insert(key.into(), from.clone())),
        }
    }
}

/// A JS numeric literal (`1_000`, `0x1f`, `1e3`, `10n`) as JSON, negated if `neg`.
fn js_number(text: &str, neg: bool) -> Option<Value> {
    let t = text.replace('_', "");
    let t = t.trim_end_matches('n');
    let radix = |p: char, r: u32| {
        let lower = t.to_ascii_lowercase();
        let digits = lower.strip_prefix('0')?.strip_prefix(p)?;
        i64::from_str_radix(digits, r).ok()
    };
    let int = t.parse::<i64>().ok().or_else(|| radix('x', 16));
    let int = int.or_else(|| radix('o', 8)).or_else(|| radix('b', 2));
    match int {
        Some(i) => Some(Value::from(if neg { -i } else { i })),
        None => {
            let f: f64 = t.parse().ok()?;
            serde_json::Number::from_f64(if neg { -f } else { f }).map(Value::Number)
        }
    }
}

/// Decode the escapes of a JS string or template body. Works in UTF-16 code units so that
/// escaped surrogate pairs (`\uD83D\uDE00`) combine; lone surrogates become U+FFFD.
fn unescape_js(raw: &str) -> String {
    let mut out: Vec<u16> = Vec::with_capacity(raw.len());
    let mut it = raw.chars().peekable();
    let hex = |it: &mut std::iter::Peekable<std::str::Chars<'_>>, max: usize| {
        let mut v: u32 = 0;
        for _ in 0..max {
            let Some(d) = it.peek().and_then(|c| c.to_digit(16)) else {
                break;
            };
            v = v.saturating_mul(16).saturating_add(d);
            it.next();
        }
        v
    };
    let mut buf = [0u16; 2];
    while let Some(c) = it.next() {
        let c = match (c, it.next_if(|_| c == '\\')) {
            (_, None) => c,
            (_, Some('n')) => '\n',
            (_, Some('t')) => '\t',
            (_, Some('r')) => '\r',
            (_, Some('b')) => '\u{8}',
            (_, Some('f')) => '\u{c}',
            (_, Some('v')) => '\u{b}',
            (_, Some('0')) => '\0',
            (_, Some('x')) => char::from_u32(hex(&mut it, 2)).unwrap_or('\u{FFFD}'),
            (_, Some('u')) if it.next_if_eq(&'{').is_some() => {
                let v = hex(&mut it, 8);
                it.next_if_eq(&'}');
                char::from_u32(v).unwrap_or('\u{FFFD}')
            }
            (_, Some('u')) => {
                out.push(u16::try_from(hex(&mut it, 4)).unwrap_or(0xFFFD));
                continue;
            }
            (_, Some('\r')) => {
                it.next_if_eq(&'\n');
                continue;
            }
            (_, Some('\n' | '\u{2028}' | '\u{2029}')) => continue,
            (_, Some(other)) => other,
        };
        out.extend_from_slice(c.encode_utf16(&mut buf));
    }
    String::from_utf16_lossy(&out)
}

#[cfg(test)]
mod tests;
