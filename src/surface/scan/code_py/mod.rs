//! Python MCP servers: finds functions decorated with `@<server>.tool` (the official `mcp`
//! SDK's FastMCP and look-alikes) with tree-sitter (statically; nothing is executed) and builds
//! their input schemas from the signatures, type hints, `Field(...)`s and docstrings.

mod eval;
mod imports;
mod places;
#[cfg(test)]
mod tests;

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::LazyLock;

use serde_json::{Map, Value};
use tree_sitter::{Language, Node, Parser, Tree};

use super::syntax::{named, walk};

use super::CodeFindings;
use super::code_ts::ServerSeen;
use crate::surface::{Origin, SourceFormat};

static PYTHON: LazyLock<Language> = LazyLock::new(|| tree_sitter_python::LANGUAGE.into());

/// Nesting deeper than this is treated as unresolved (keeps recursion bounded on any input).
const MAX_DEPTH: usize = 64;

/// Evaluation steps allowed per tool; past it everything reads as unresolved.
const BUDGET: u32 = 100_000;

/// Find the MCP tools defined in the Python `source`, shown as `file` in origins and warnings.
/// Never fails: what cannot be read statically is skipped or marked low-confidence, and every
/// registration place whose tools cannot be read is said in `server`.
pub fn extract(file: &str, source: &str) -> CodeFindings {
    extract_with(file, source, None)
}

/// As `extract`, for the file at `path` inside the scan `root`: names imported from relative
/// modules (`from .tools.registry import ALL_TOOLS`) are read from those files (inside `root`,
/// at most `limit` bytes each, never executed).
pub fn extract_at(file: &str, source: &str, path: &Path, root: &Path, limit: u64) -> CodeFindings {
    let loads = Cell::new(0);
    let reach = imports::Reach {
        root,
        path: path.to_path_buf(),
        limit,
        hops: imports::MAX_HOPS,
        loads: &loads,
    };
    extract_with(file, source, Some(reach))
}

fn extract_with<'a>(
    file: &'a str,
    source: &'a str,
    reach: Option<imports::Reach<'a>>,
) -> CodeFindings {
    let mut out = CodeFindings::default();
    // One pass over every file (a multi-literal search), not one per word.
    static ANY: LazyLock<Option<regex::Regex>> =
        LazyLock::new(|| regex::Regex::new(r"tool|FastMCP|Server\(").ok());
    if ANY.as_ref().is_some_and(|r| !r.is_match(source)) {
        return out;
    }
    let Some(tree) = parse(source) else {
        out.warnings
            .push(format!("{file}: cannot load the Python grammar"));
        return out;
    };
    let (mut cx, decorated, calls) = Cx::build(file, source, &tree, reach);
    let sdk = source.contains("mcp");
    for c in &calls {
        if sdk && cx.seen.created_at.is_none() && cx.creates_server(*c) {
            cx.seen.created_at = Some(line_of(*c));
        }
    }
    for d in decorated {
        cx.decorated(d, &mut out.tools);
    }
    for c in calls {
        cx.call_site(c, &mut out.tools);
    }
    cx.seen.tools = out.tools.len();
    out.warnings = std::mem::take(&mut cx.warnings);
    if cx.seen.created_at.is_some() || cx.seen.sites > 0 {
        out.server = Some(cx.seen);
    }
    out
}

/// Parse Python `source`.
fn parse(source: &str) -> Option<Tree> {
    let mut parser = Parser::new();
    parser.set_language(&PYTHON).ok()?;
    parser.parse(source, None)
}

impl<'a> Cx<'a> {
    /// A reader over one parsed file, its constants, functions, enums and imports collected;
    /// with the decorated definitions and the calls found in it.
    fn build(
        file: &'a str,
        src: &'a str,
        tree: &'a Tree,
        reach: Option<imports::Reach<'a>>,
    ) -> (Cx<'a>, Vec<Node<'a>>, Vec<Node<'a>>) {
        let mut cx = Cx {
            src,
            file,
            consts: HashMap::new(),
            defs: HashMap::new(),
            enums: HashMap::new(),
            imports: HashSet::new(),
            relative: HashMap::new(),
            decorator_names: HashSet::new(),
            delegating: RefCell::new(HashMap::new()),
            low: false,
            budget: Cell::new(BUDGET),
            warnings: Vec::new(),
            seen: ServerSeen {
                file: file.to_owned(),
                ..ServerSeen::default()
            },
            reach,
        };
        let mut decorated = Vec::new();
        let mut calls = Vec::new();
        walk(tree.root_node(), |n| match n.kind() {
            "assignment" => cx.add_const(n),
            "decorated_definition" => decorated.push(n),
            "function_definition" => cx.add_def(n),
            "class_definition" => cx.add_enum(n),
            "import_from_statement" => cx.add_import(n),
            "decorator" => cx.add_decorator(n),
            "call" => calls.push(n),
            _ => {}
        });
        (cx, decorated, calls)
    }
}

/// The 1-based line `n` starts on.
fn line_of(n: Node<'_>) -> u32 {
    u32::try_from(n.start_position().row.saturating_add(1)).unwrap_or(u32::MAX)
}

/// Strip a `type` wrapper or parentheses.
fn unwrap(mut n: Node<'_>) -> Node<'_> {
    while matches!(n.kind(), "type" | "parenthesized_expression") {
        match named(n).first() {
            Some(i) => n = *i,
            None => break,
        }
    }
    n
}

fn typed(t: &str) -> Map<String, Value> {
    let mut s = Map::new();
    s.insert("type".into(), t.into());
    s
}

/// Decode the escapes of a (non-raw) Python string body.
fn unescape_py(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut it = raw.chars().peekable();
    let digits = |it: &mut std::iter::Peekable<std::str::Chars<'_>>, max: usize, radix: u32| {
        let mut v: u32 = 0;
        let mut n = 0;
        while let Some(d) = it
            .peek()
            .and_then(|c| c.to_digit(radix))
            .filter(|_| n < max)
        {
            v = v.saturating_mul(radix).saturating_add(d);
            it.next();
            n += 1;
        }
        (n > 0).then_some(v)
    };
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let code = match it.peek().copied() {
            None => Some('\\' as u32),
            Some(e) => {
                it.next();
                match e {
                    'n' => Some('\n' as u32),
                    't' => Some('\t' as u32),
                    'r' => Some('\r' as u32),
                    'a' => Some(7),
                    'b' => Some(8),
                    'f' => Some(12),
                    'v' => Some(11),
                    '\\' | '\'' | '"' => Some(e as u32),
                    '\n' => None,
                    'x' => digits(&mut it, 2, 16),
                    'u' => digits(&mut it, 4, 16),
                    'U' => digits(&mut it, 8, 16),
                    '0'..='7' => {
                        let mut v = e.to_digit(8).unwrap_or(0);
                        for _ in 0..2 {
                            match it.peek().and_then(|c| c.to_digit(8)) {
                                Some(d) => v = v * 8 + d,
                                None => break,
                            }
                            it.next();
                        }
                        Some(v)
                    }
                    other => {
                        out.push('\\');
                        Some(other as u32)
                    }
                }
            }
        };
        if let Some(code) = code {
            out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
        }
    }
    out
}

/// A Python numeric literal (`1_000`, `0x1f`, `1e3`) as JSON, negated if `neg`.
fn py_number(text: &str, neg: bool) -> Option<Value> {
    let t = text.replace('_', "").to_ascii_lowercase();
    let radix =
        |p: char, r: u32| i64::from_str_radix(t.strip_prefix('0')?.strip_prefix(p)?, r).ok();
    let int = t.parse::<i64>().ok().or_else(|| radix('x', 16));
    match int.or_else(|| radix('o', 8)).or_else(|| radix('b', 2)) {
        Some(i) => Some(Value::from(if neg { -i } else { i })),
        None => {
            let f: f64 = t.parse().ok()?;
            serde_json::Number::from_f64(if neg { -f } else { f }).map(Value::Number)
        }
    }
}

/// Per-file state: the source, module-level constants, and the current tool's
/// low-confidence flag.
struct Cx<'a> {
    src: &'a str,
    file: &'a str,
    /// `NAME = value` assignments; `None` when a name is assigned more than once.
    consts: HashMap<&'a str, Option<Node<'a>>>,
    /// `def name(...)` anywhere in the file (the first of a name).
    defs: HashMap<&'a str, Node<'a>>,
    /// `class Name(..., Enum)`: whether it is a `str` enum, and its members.
    enums: HashMap<&'a str, (bool, HashMap<&'a str, Node<'a>>)>,
    /// Names imported without an alias (`from .tools import search`).
    imports: HashSet<&'a str>,
    /// Names imported `from` a module: local name → (module, name there). Only relative
    /// modules and the file's own package are ever read.
    relative: HashMap<&'a str, (&'a str, &'a str)>,
    /// Where relative modules are read from (`None`: single-file reading).
    reach: Option<imports::Reach<'a>>,
    /// Names used as decorators (`@name` / `@name(...)` / `@x.name(...)`).
    decorator_names: HashSet<&'a str>,
    /// Local functions known to delegate to `<x>.tool(...)` (custom tool decorators).
    delegating: RefCell<HashMap<usize, bool>>,
    /// What is seen of the server: its creation, registration places, unresolved ones.
    seen: ServerSeen,
    low: bool,
    /// Evaluation steps left for the current tool (same-file constants can nest exponentially).
    budget: Cell<u32>,
    warnings: Vec<String>,
}

/// What a `Field(...)` says about a parameter.
#[derive(Default)]
struct FieldInfo {
    extras: Map<String, Value>,
    has_default: bool,
    default: Option<Value>,
}

impl<'a> Cx<'a> {
    /// Spend one evaluation step; `false` once the budget is gone.
    fn tick(&self) -> bool {
        let left = self.budget.get();
        self.budget.set(left.saturating_sub(1));
        left > 0
    }

    fn text(&self, n: Node<'_>) -> &'a str {
        self.src.get(n.byte_range()).unwrap_or("")
    }

    fn add_const(&mut self, a: Node<'a>) {
        let (Some(left), Some(right)) = (
            a.child_by_field_name("left"),
            a.child_by_field_name("right"),
        ) else {
            return;
        };
        if left.kind() == "identifier" {
            let name = self.text(left);
            let fresh = !self.consts.contains_key(name);
            self.consts.insert(name, fresh.then_some(right));
        }
    }

    fn resolve(&self, n: Node<'a>) -> Option<Node<'a>> {
        self.consts.get(self.text(n)).copied().flatten()
    }

    /// The last segment of a dotted name (`typing.Optional` → `Optional`).
    fn base_name(&self, n: Node<'a>) -> &'a str {
        let n = unwrap(n);
        let n = match n.kind() {
            "generic_type" => named(n).first().copied().unwrap_or(n),
            "subscript" => n.child_by_field_name("value").unwrap_or(n),
            _ => n,
        };
        let t = self.text(n).trim_matches(|c| c == '"' || c == '\'');
        t.rsplit('.').next().unwrap_or(t).trim()
    }

    fn origin(&self, n: Node<'_>) -> Origin {
        let p = n.start_position();
        let line_start = n.start_byte().saturating_sub(p.column);
        let col = self
            .src
            .get(line_start..n.start_byte())
            .map_or(p.column, |s| s.chars().count());
        let to_u32 = |x: usize| u32::try_from(x.saturating_add(1)).unwrap_or(u32::MAX);
        Origin::at(
            SourceFormat::PythonCode,
            self.file,
            to_u32(p.row),
            to_u32(col),
        )
    }

    fn str_or_low(&mut self, n: Node<'a>) -> Option<String> {
        let s = self.str_of(n, 0);
        self.low |= s.is_none();
        s
    }

    /// `annotations={...}` or `annotations=ToolAnnotations(readOnlyHint=True, ...)`.
    fn annotations(&mut self, v: Node<'a>) -> Option<Value> {
        if v.kind() != "call" {
            return self.json_of(v, 0);
        }
        let mut map = Map::new();
        for a in named(v.child_by_field_name("arguments")?) {
            let (k, v) = (
                a.child_by_field_name("name")?,
                a.child_by_field_name("value")?,
            );
            map.insert(self.text(k).to_owned(), self.json_of(v, 0)?);
        }
        Some(Value::Object(map))
    }

    /// The input schema of a parameter list.
    fn params(&mut self, params: Node<'a>, docs: &HashMap<String, String>) -> Value {
        let mut props = Map::new();
        let mut required = Vec::new();
        for p in named(params) {
            let (name, ty, default) = match p.kind() {
                "identifier" => (Some(p), None, None),
                "typed_parameter" => (
                    named(p)
                        .first()
                        .copied()
                        .filter(|n| n.kind() == "identifier"),
                    p.child_by_field_name("type"),
                    None,
                ),
                "default_parameter" | "typed_default_parameter" => (
                    p.child_by_field_name("name")
                        .filter(|n| n.kind() == "identifier"),
                    p.child_by_field_name("type"),
                    p.child_by_field_name("value"),
                ),
                _ => continue,
            };
            let Some(name) = name.map(|n| self.text(n)) else {
                continue;
            };
            if matches!(name, "self" | "cls")
                || ty.is_some_and(|t| self.base_name(t).ends_with("Context"))
            {
                continue;
            }
            let (mut s, nullable) = match ty {
                Some(t) => self.py_type(t, 0),
                None => (Map::new(), false),
            };
            // FastMCP (pydantic) serves `Optional[X]` / `X | None` as `anyOf: [X, {type: null}]`;
            // it stays required unless it has a default.
            if nullable && !s.is_empty() {
                let keep: Vec<(String, Value)> =
                    ["description", "default", "title", "x-has-default"]
                        .iter()
                        .filter_map(|k| s.remove(*k).map(|v| ((*k).to_owned(), v)))
                        .collect();
                let inner = std::mem::take(&mut s);
                s.insert(
                    "anyOf".into(),
                    Value::Array(vec![Value::Object(inner), Value::Object(typed("null"))]),
                );
                s.extend(keep);
            }
            let mut is_required = s.remove("x-has-default").is_none();
            if let Some(d) = default {
                match self.field(d) {
                    Some(f) => {
                        is_required &= !f.has_default;
                        self.apply_field(&mut s, f);
                    }
                    None => {
                        is_required = false;
                        if let Some(v) = self.json_of(d, 0) {
                            s.insert("default".into(), v);
                        }
                    }
                }
            }
            if let (false, Some(d)) = (s.contains_key("description"), docs.get(name))
                && !d.is_empty()
            {
                s.insert("description".into(), d.clone().into());
            }
            if is_required {
                required.push(Value::String(name.to_owned()));
            }
            props.insert(name.to_owned(), Value::Object(s));
        }
        let mut schema = typed("object");
        schema.insert("properties".into(), Value::Object(props));
        if !required.is_empty() {
            schema.insert("required".into(), Value::Array(required));
        }
        Value::Object(schema)
    }

    /// A `Field(...)` call's description, constraints and default; `None` if `n` is not one.
    fn field(&mut self, n: Node<'a>) -> Option<FieldInfo> {
        if n.kind() != "call" || self.base_name(n.child_by_field_name("function")?) != "Field" {
            return None;
        }
        let mut f = FieldInfo::default();
        for (i, a) in named(n.child_by_field_name("arguments")?)
            .into_iter()
            .enumerate()
        {
            let (key, v) = match (
                a.kind(),
                a.child_by_field_name("name"),
                a.child_by_field_name("value"),
            ) {
                ("keyword_argument", Some(k), Some(v)) => (self.text(k), v),
                (_, None, None) if i == 0 => ("default", a),
                _ => continue,
            };
            let json = self.json_of(v, 0);
            let key = match key {
                "default" if v.kind() == "ellipsis" => continue,
                "default" => {
                    (f.has_default, f.default) = (true, json);
                    continue;
                }
                "default_factory" => {
                    f.has_default = true;
                    continue;
                }
                "description" | "title" | "examples" | "pattern" => key,
                "ge" => "minimum",
                "le" => "maximum",
                "gt" => "exclusiveMinimum",
                "lt" => "exclusiveMaximum",
                "min_length" => "minLength",
                "max_length" => "maxLength",
                _ => continue,
            };
            match json {
                Some(j) => drop(f.extras.insert(key.to_owned(), j)),
                None => self.low = true,
            }
        }
        Some(f)
    }

    fn apply_field(&self, s: &mut Map<String, Value>, f: FieldInfo) {
        let array = s.get("type").and_then(Value::as_str) == Some("array");
        for (k, v) in f.extras {
            let k = match (k.as_str(), array) {
                ("minLength", true) => "minItems".to_owned(),
                ("maxLength", true) => "maxItems".to_owned(),
                _ => k,
            };
            s.insert(k, v);
        }
        if let Some(d) = f.default {
            s.insert("default".into(), d);
        }
    }

    /// A type hint as JSON Schema, plus whether it admits `None`.
    fn py_type(&mut self, n: Node<'a>, depth: usize) -> (Map<String, Value>, bool) {
        let n = unwrap(n);
        if depth > MAX_DEPTH || !self.tick() {
            self.low = true;
            return (Map::new(), false);
        }
        match n.kind() {
            "none" => (typed("null"), true),
            "identifier" | "attribute" => (self.simple_type(self.base_name(n)), false),
            "generic_type" | "subscript" => {
                let args = match n.kind() {
                    "subscript" => {
                        let mut c = n.walk();
                        n.children_by_field_name("subscript", &mut c).collect()
                    }
                    _ => named(n).get(1).map(|p| named(*p)).unwrap_or_default(),
                };
                self.generic(self.base_name(n), &args, depth)
            }
            "union_type" | "binary_operator" if self.is_union(n) => {
                let mut members = Vec::new();
                let mut stack = vec![n];
                while let Some(m) = stack.pop().map(unwrap) {
                    if members.len() + stack.len() > MAX_DEPTH {
                        self.low = true;
                        break;
                    }
                    if self.is_union(m) {
                        stack.extend(named(m).into_iter().rev());
                    } else {
                        members.push(m);
                    }
                }
                self.union(&members, depth)
            }
            _ => {
                self.low = true;
                (Map::new(), false)
            }
        }
    }

    fn is_union(&self, n: Node<'a>) -> bool {
        n.kind() == "union_type"
            || (n.kind() == "binary_operator"
                && n.child_by_field_name("operator")
                    .is_some_and(|o| self.text(o) == "|"))
    }

    fn simple_type(&mut self, name: &str) -> Map<String, Value> {
        let with_format = |f: &str| {
            let mut s = typed("string");
            s.insert("format".into(), f.into());
            s
        };
        match name {
            "str" | "bytes" => typed("string"),
            "int" => typed("integer"),
            "float" | "Decimal" => typed("number"),
            "bool" => typed("boolean"),
            "list" | "List" | "Sequence" | "tuple" | "Tuple" | "set" | "Set" | "frozenset"
            | "Iterable" => typed("array"),
            "dict" | "Dict" | "Mapping" => typed("object"),
            "None" => typed("null"),
            "datetime" => with_format("date-time"),
            "date" => with_format("date"),
            "UUID" => with_format("uuid"),
            "Any" | "object" => Map::new(),
            _ => {
                self.low = true;
                Map::new()
            }
        }
    }

    /// `Base[args]`.
    fn generic(
        &mut self,
        base: &str,
        args: &[Node<'a>],
        depth: usize,
    ) -> (Map<String, Value>, bool) {
        let first = args.first().copied();
        match base {
            "Optional" => {
                first.map_or((Map::new(), true), |a| (self.py_type(a, depth + 1).0, true))
            }
            "Union" => self.union(args, depth),
            "Annotated" => {
                let Some(a) = first else {
                    return (Map::new(), false);
                };
                let (mut s, nullable) = self.py_type(a, depth + 1);
                for extra in &args[1..] {
                    if let Some(f) = self.field(unwrap(*extra)) {
                        if f.has_default {
                            s.insert("x-has-default".into(), true.into());
                        }
                        self.apply_field(&mut s, f);
                    }
                }
                (s, nullable)
            }
            "Literal" => {
                let values: Vec<Value> = args
                    .iter()
                    .filter_map(|a| self.json_of(unwrap(*a), depth + 1))
                    .collect();
                let types: Vec<_> = values.iter().map(json_type).collect();
                let mut s = Map::new();
                if let Some(Some(t)) = types.first().filter(|t| types.iter().all(|x| x == *t)) {
                    s.insert("type".into(), (*t).into());
                }
                s.insert("enum".into(), Value::Array(values));
                (s, false)
            }
            "list" | "List" | "Sequence" | "set" | "Set" | "frozenset" | "FrozenSet"
            | "Iterable" | "tuple" | "Tuple" => {
                let mut s = typed("array");
                let homogeneous =
                    args.len() == 1 || args.get(1).is_some_and(|a| unwrap(*a).kind() == "ellipsis");
                if let (Some(a), true) = (first, homogeneous) {
                    s.insert("items".into(), Value::Object(self.py_type(a, depth + 1).0));
                }
                (s, false)
            }
            "dict" | "Dict" | "Mapping" => {
                let mut s = typed("object");
                if let Some(v) = args
                    .get(1)
                    .map(|a| self.py_type(*a, depth + 1).0)
                    .filter(|v| !v.is_empty())
                {
                    s.insert("additionalProperties".into(), Value::Object(v));
                }
                (s, false)
            }
            _ => {
                self.low = true;
                (Map::new(), false)
            }
        }
    }

    /// `A | B | None` or `Union[A, B, None]`: `None` makes it nullable; one other member is
    /// that member, several are `anyOf`.
    fn union(&mut self, members: &[Node<'a>], depth: usize) -> (Map<String, Value>, bool) {
        let mut nullable = false;
        let mut schemas = Vec::new();
        for m in members {
            let m = unwrap(*m);
            if m.kind() == "none" || self.text(m) == "None" {
                nullable = true;
            } else {
                schemas.push(self.py_type(m, depth + 1).0);
            }
        }
        if schemas.len() == 1 {
            return (schemas.pop().unwrap_or_default(), nullable);
        }
        let mut s = Map::new();
        s.insert(
            "anyOf".into(),
            Value::Array(schemas.into_iter().map(Value::Object).collect()),
        );
        (s, nullable)
    }

    /// A string known statically (see `eval`).
    fn str_of(&self, n: Node<'a>, depth: usize) -> Option<String> {
        match self.eval(n, &eval::Env::new(), depth)? {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// A literal expression as JSON; `None` if it is not known statically.
    fn json_of(&self, n: Node<'a>, depth: usize) -> Option<Value> {
        self.eval(n, &eval::Env::new(), depth)
    }
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
