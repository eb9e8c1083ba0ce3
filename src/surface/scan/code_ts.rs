//! TypeScript and JavaScript MCP servers: finds the `server.tool(...)` and
//! `server.registerTool(...)` calls of `@modelcontextprotocol/sdk` with tree-sitter (statically;
//! nothing is executed) and converts their zod shapes to JSON Schema.

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::LazyLock;

use serde_json::{Map, Value};
use tree_sitter::{Language, Node, Parser};

use super::syntax::{named, walk};

use super::CodeFindings;
use crate::surface::{Confidence, Origin, SourceFormat, Tool};

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
    fn language(self) -> &'static Language {
        &TSX
    }
}

static TSX: LazyLock<Language> = LazyLock::new(|| tree_sitter_typescript::LANGUAGE_TSX.into());

/// Nesting deeper than this is treated as unresolved (keeps recursion bounded on any input).
const MAX_DEPTH: usize = 64;

/// Evaluation steps allowed per tool; past it everything reads as unresolved.
const BUDGET: u32 = 100_000;

/// Find the MCP tools defined in `source`, a file of `dialect` shown as `file` in origins and
/// warnings. Never fails: what cannot be read statically is skipped or marked low-confidence,
/// with a warning.
pub fn extract(file: &str, source: &str, dialect: Dialect) -> CodeFindings {
    let mut out = CodeFindings::default();
    if !source.contains(".tool") && !source.contains("registerTool") {
        return out;
    }
    let mut parser = Parser::new();
    if let Err(e) = parser.set_language(dialect.language()) {
        out.warnings
            .push(format!("{file}: cannot load the {dialect:?} grammar: {e}"));
        return out;
    }
    let parsed = if dialect == Dialect::TypeScript {
        super::ts_casts::parse(&mut parser, source)
    } else {
        parser
            .parse(source, None)
            .map(|tree| (tree, source.to_owned()))
    };
    let Some((tree, text)) = parsed else {
        return out;
    };
    let source = text.as_str();
    let mut cx = Cx {
        src: source,
        file,
        consts: HashMap::new(),
        low: false,
        budget: Cell::new(BUDGET),
        warnings: Vec::new(),
    };
    let mut calls = Vec::new();
    walk(tree.root_node(), |n| match n.kind() {
        "variable_declarator" => cx.add_const(n),
        "call_expression" if tool_method(n, source).is_some() => calls.push(n),
        _ => {}
    });
    for call in calls {
        if let Some(tool) = cx.tool_call(call) {
            out.tools.push(tool);
        }
    }
    out.warnings = cx.warnings;
    out
}

/// Strip parentheses and type-only wrappers (`x as T`, `x satisfies T`, `x!`; a `<T>x` cast is
/// blanked before parsing, `ts_casts.rs`).
fn peel(mut n: Node<'_>) -> Node<'_> {
    for _ in 0..MAX_DEPTH {
        let inner = match n.kind() {
            "parenthesized_expression"
            | "as_expression"
            | "satisfies_expression"
            | "non_null_expression" => named(n).first().copied(),
            _ => None,
        };
        match inner {
            Some(i) => n = i,
            None => break,
        }
    }
    n
}

/// `tool` or `registerTool` if `call` is a method call with that name.
fn tool_method<'s>(call: Node<'_>, src: &'s str) -> Option<&'s str> {
    let func = peel(call.child_by_field_name("function")?);
    if func.kind() != "member_expression" {
        return None;
    }
    let method = src.get(func.child_by_field_name("property")?.byte_range())?;
    matches!(method, "tool" | "registerTool").then_some(method)
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

/// How a middle argument of `server.tool(...)` reads.
enum Arg<'t> {
    Str(String),
    Shape(Node<'t>),
    Annotations(Node<'t>),
    Unknown(Node<'t>),
}

/// Per-file state: the source, same-file constants, and the current tool's low-confidence flag.
struct Cx<'a> {
    src: &'a str,
    file: &'a str,
    /// `const NAME = value` declarations; `None` when a name is declared more than once.
    consts: HashMap<&'a str, Option<Node<'a>>>,
    low: bool,
    /// Evaluation steps left for the current tool (same-file constants can nest exponentially).
    budget: Cell<u32>,
    warnings: Vec<String>,
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

    fn add_const(&mut self, decl: Node<'a>) {
        let (Some(name), Some(value)) = (
            decl.child_by_field_name("name"),
            decl.child_by_field_name("value"),
        ) else {
            return;
        };
        if name.kind() == "identifier" {
            let name = self.text(name);
            let fresh = !self.consts.contains_key(name);
            self.consts.insert(name, fresh.then_some(value));
        }
    }

    fn resolve(&self, name: &str) -> Option<Node<'a>> {
        self.consts.get(name).copied().flatten()
    }

    fn warn(&mut self, n: Node<'_>, msg: &str) {
        self.warnings.push(format!(
            "{}:{}: {msg}",
            self.file,
            n.start_position().row + 1
        ));
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
            SourceFormat::TypescriptCode,
            self.file,
            to_u32(p.row),
            to_u32(col),
        )
    }

    /// The tool a `tool(...)`/`registerTool(...)` call defines, or `None` if it is not one.
    fn tool_call(&mut self, call: Node<'a>) -> Option<Tool> {
        let method = tool_method(call, self.src)?;
        self.budget.set(BUDGET);
        let args = named(call.child_by_field_name("arguments")?);
        if args.len() < 2 {
            return None;
        }
        let Some(name) = self.str_of(args[0], 0) else {
            let kind = peel(args[0]).kind();
            if matches!(
                kind,
                "identifier"
                    | "member_expression"
                    | "call_expression"
                    | "template_string"
                    | "binary_expression"
                    | "subscript_expression"
            ) {
                self.warn(args[0], "tool name is not a string literal; skipped");
            }
            return None;
        };
        self.low = false;
        let mut tool = Tool::named(&name, self.origin(args[0]), Confidence::Medium);
        tool.input_schema = Some(Value::Object(object_schema(Map::new(), Vec::new())));
        if method == "registerTool" {
            self.register_config(&mut tool, args[1]);
        } else {
            self.tool_args(&mut tool, &args[1..args.len() - 1], args[0]);
        }
        tool.confidence = if self.low {
            Confidence::Low
        } else {
            Confidence::Medium
        };
        Some(tool)
    }

    /// `registerTool(name, { title, description, inputSchema, outputSchema, annotations }, cb)`.
    fn register_config(&mut self, tool: &mut Tool, cfg: Node<'a>) {
        let mut cfg = peel(cfg);
        if cfg.kind() == "identifier" {
            cfg = self.resolve(self.text(cfg)).map_or(cfg, peel);
        }
        if cfg.kind() != "object" {
            self.low = true;
            tool.input_schema = None;
            let msg = format!(
                "tool {:?}: config is not an object literal; definition unknown",
                tool.name
            );
            self.warn(cfg, &msg);
            return;
        }
        for p in named(cfg) {
            let (key, value) = match p.kind() {
                "pair" => (self.key(p), p.child_by_field_name("value")),
                "shorthand_property_identifier" => {
                    (Some(self.text(p).to_owned()), self.resolve(self.text(p)))
                }
                _ => (None, None),
            };
            let (Some(key), Some(value)) = (key, value) else {
                self.low = true;
                continue;
            };
            match key.as_str() {
                "title" => tool.title = self.str_or_low(value),
                "description" => tool.description = self.str_or_low(value),
                "inputSchema" => tool.input_schema = self.schema_or_warn(value, &tool.name),
                "outputSchema" => {
                    tool.output_schema = self.schema_arg(value, 0);
                    self.low |= tool.output_schema.is_none();
                }
                "annotations" => {
                    tool.annotations = self.json_of(value, 0);
                    self.low |= tool.annotations.is_none();
                }
                _ => {}
            }
        }
    }

    /// `tool(name, [description], [shape], [annotations], cb)`; `middle` excludes name and cb.
    fn tool_args(&mut self, tool: &mut Tool, middle: &[Node<'a>], at: Node<'a>) {
        let mut rest = middle;
        if let Some(&first) = rest.first() {
            match self.classify(first) {
                Arg::Str(s) => {
                    tool.description = Some(s);
                    rest = &rest[1..];
                }
                Arg::Unknown(n)
                    if rest.len() >= 2 || self.text(n).to_ascii_lowercase().contains("desc") =>
                {
                    self.low = true;
                    let msg = format!("tool {:?}: description is not a string literal", tool.name);
                    self.warn(at, &msg);
                    rest = &rest[1..];
                }
                _ => {}
            }
        }
        if let Some(&first) = rest.first() {
            rest = &rest[1..];
            match self.classify(first) {
                Arg::Shape(n) => tool.input_schema = self.schema_or_warn(n, &tool.name),
                Arg::Annotations(n) => {
                    tool.annotations = self.json_of(n, 0);
                    rest = &[];
                }
                Arg::Str(_) | Arg::Unknown(_) => {
                    tool.input_schema = self.schema_or_warn(first, &tool.name);
                }
            }
        }
        if let Some(&first) = rest.first() {
            tool.annotations = self.json_of(first, 0);
            self.low |= tool.annotations.is_none();
        }
    }

    fn classify(&self, n: Node<'a>) -> Arg<'a> {
        let mut v = peel(n);
        if v.kind() == "identifier" {
            match self.resolve(self.text(v)) {
                Some(r) => v = peel(r),
                None => return Arg::Unknown(n),
            }
        }
        match v.kind() {
            "string" | "template_string" | "binary_expression" => {
                self.str_of(v, 0).map_or(Arg::Unknown(n), Arg::Str)
            }
            "object" => {
                let pairs = named(v);
                let literal = |p: &Node<'_>| {
                    p.kind() == "pair"
                        && p.child_by_field_name("value").is_some_and(|x| {
                            matches!(
                                x.kind(),
                                "true" | "false" | "string" | "number" | "template_string"
                            )
                        })
                };
                if !pairs.is_empty() && pairs.iter().all(literal) {
                    Arg::Annotations(v)
                } else {
                    Arg::Shape(v)
                }
            }
            "call_expression" => Arg::Shape(v),
            _ => Arg::Unknown(n),
        }
    }

    fn str_or_low(&mut self, n: Node<'a>) -> Option<String> {
        let s = self.str_of(n, 0);
        self.low |= s.is_none();
        s
    }

    fn schema_or_warn(&mut self, n: Node<'a>, tool: &str) -> Option<Value> {
        let s = self.schema_arg(n, 0);
        if s.is_none() {
            self.low = true;
            let msg = format!(
                "tool {tool:?}: input schema `{}` is not resolvable in this file; parameters unknown",
                self.text(n).chars().take(60).collect::<String>()
            );
            self.warn(n, &msg);
        }
        s
    }

    /// A string known statically: literal, substitution-free template, `+` of those, or a
    /// same-file constant.
    fn str_of(&self, n: Node<'a>, depth: usize) -> Option<String> {
        if depth > MAX_DEPTH || !self.tick() {
            return None;
        }
        let n = peel(n);
        match n.kind() {
            "string" | "template_string" => {
                if named(n).iter().any(|c| c.kind() == "template_substitution") {
                    return None;
                }
                let t = self.text(n);
                let q = t.chars().next()?;
                let inner = t.strip_prefix(q)?.strip_suffix(q)?;
                Some(unescape_js(inner))
            }
            "binary_expression" => {
                let op = n.child_by_field_name("operator")?;
                if self.text(op) != "+" {
                    return None;
                }
                let l = self.str_of(n.child_by_field_name("left")?, depth + 1)?;
                Some(l + &self.str_of(n.child_by_field_name("right")?, depth + 1)?)
            }
            "identifier" => self.str_of(self.resolve(self.text(n))?, depth + 1),
            _ => None,
        }
    }

    /// The key of an object `pair`.
    fn key(&self, pair: Node<'a>) -> Option<String> {
        let k = pair.child_by_field_name("key")?;
        match k.kind() {
            "property_identifier" | "number" => Some(self.text(k).to_owned()),
            "computed_property_name" => self.str_of(*named(k).first()?, 0),
            _ => self.str_of(k, 0),
        }
    }

    /// A literal expression as JSON; `None` if any part is not a literal at the top.
    fn json_of(&mut self, n: Node<'a>, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH || !self.tick() {
            return None;
        }
        let n = peel(n);
        Some(match n.kind() {
            "string" | "template_string" | "binary_expression" => {
                Value::String(self.str_of(n, depth)?)
            }
            "number" => js_number(self.text(n), false)?,
            "unary_expression" => {
                let op = self.text(n.child_by_field_name("operator")?);
                let arg = peel(n.child_by_field_name("argument")?);
                if arg.kind() != "number" || !matches!(op, "-" | "+") {
                    return None;
                }
                js_number(self.text(arg), op == "-")?
            }
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            "null" => Value::Null,
            "array" => {
                let mut items = Vec::new();
                for e in named(n) {
                    match self.json_of(e, depth + 1) {
                        Some(v) => items.push(v),
                        None => self.low = true,
                    }
                }
                Value::Array(items)
            }
            "object" => {
                let mut map = Map::new();
                for p in named(n) {
                    let (k, v) = match p.kind() {
                        "pair" => (self.key(p), p.child_by_field_name("value")),
                        "shorthand_property_identifier" => {
                            (Some(self.text(p).to_owned()), self.resolve(self.text(p)))
                        }
                        _ => (None, None),
                    };
                    if v.is_some_and(|v| peel(v).kind() == "undefined") {
                        continue;
                    }
                    match (k, v.and_then(|v| self.json_of(v, depth + 1))) {
                        (Some(k), Some(v)) => drop(map.insert(k, v)),
                        _ => self.low = true,
                    }
                }
                Value::Object(map)
            }
            "identifier" => return self.json_of(self.resolve(self.text(n))?, depth + 1),
            _ => return None,
        })
    }

    /// A schema in argument position: a zod shape, a zod schema, a JSON Schema literal, or a
    /// same-file constant holding one.
    fn schema_arg(&mut self, n: Node<'a>, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH || !self.tick() {
            return None;
        }
        let n = peel(n);
        match n.kind() {
            "identifier" => self.schema_arg(self.resolve(self.text(n))?, depth + 1),
            "member_expression" => {
                let prop = n.child_by_field_name("property").map(|p| self.text(p));
                let obj = n
                    .child_by_field_name("object")
                    .filter(|_| prop == Some("shape"))?;
                self.schema_arg(obj, depth + 1)
            }
            "object" if self.is_json_schema(n) => self.json_of(n, depth),
            "object" => Some(Value::Object(self.shape(n, depth))),
            "call_expression" => self.zod(n, depth).map(|(s, _)| Value::Object(s)),
            _ => None,
        }
    }

    /// An object literal that is JSON Schema (`{ type: "object", properties: {...} }`) rather
    /// than a zod shape.
    fn is_json_schema(&self, obj: Node<'a>) -> bool {
        named(obj).into_iter().any(|p| {
            let v = p.child_by_field_name("value").map(peel);
            match (self.key(p).as_deref(), v.map(|v| v.kind())) {
                (Some("type"), Some("string")) => true,
                (Some("properties" | "$schema"), Some(k)) => k == "object" || k == "string",
                _ => false,
            }
        })
    }

    /// A zod raw shape `{ a: z.string(), ... }` as an object schema.
    fn shape(&mut self, obj: Node<'a>, depth: usize) -> Map<String, Value> {
        let mut props = Map::new();
        let mut required = Vec::new();
        for p in named(obj) {
            if p.kind() == "spread_element" {
                // `...Base.shape`: the properties of another same-file schema.
                match named(p)
                    .first()
                    .and_then(|e| self.schema_arg(*e, depth + 1))
                {
                    Some(extra) => {
                        let get = |k| extra.get(k).cloned();
                        if let Some(Value::Object(o)) = get("properties") {
                            props.extend(o);
                        }
                        if let Some(Value::Array(r)) = get("required") {
                            required.extend(r);
                        }
                    }
                    None => self.low = true,
                }
                continue;
            }
            let (key, val) = match p.kind() {
                "pair" => (self.key(p), p.child_by_field_name("value")),
                "shorthand_property_identifier" => {
                    (Some(self.text(p).to_owned()), self.resolve(self.text(p)))
                }
                _ => (None, None),
            };
            let Some(key) = key else {
                self.low = true;
                continue;
            };
            let zod = val.and_then(|v| self.zod(v, depth + 1));
            self.low |= zod.is_none();
            let (s, optional) = zod.unwrap_or_default();
            if !optional {
                required.push(Value::String(key.clone()));
            }
            props.insert(key, Value::Object(s));
        }
        object_schema(props, required)
    }

    /// A zod schema expression as JSON Schema plus whether it is optional; `None` if the
    /// expression is not recognizably zod.
    fn zod(&mut self, n: Node<'a>, depth: usize) -> Option<(Map<String, Value>, bool)> {
        if depth > MAX_DEPTH || !self.tick() {
            return None;
        }
        let n = peel(n);
        match n.kind() {
            "identifier" => return self.zod(self.resolve(self.text(n))?, depth + 1),
            "call_expression" => {}
            _ => return None,
        }
        let func = peel(n.child_by_field_name("function")?);
        if func.kind() != "member_expression" {
            return None;
        }
        let method = self.text(func.child_by_field_name("property")?);
        let obj = peel(func.child_by_field_name("object")?);
        let args = n
            .child_by_field_name("arguments")
            .map(named)
            .unwrap_or_default();
        if self.is_zod_namespace(obj) {
            return Some(self.zod_base(method, &args, depth));
        }
        let (mut s, mut optional) = self.zod(obj, depth + 1)?;
        self.zod_modifier(&mut s, &mut optional, method, &args, depth);
        Some((s, optional))
    }

    /// `z` (or `z.coerce`): an identifier that is not a same-file schema constant.
    fn is_zod_namespace(&self, obj: Node<'a>) -> bool {
        match obj.kind() {
            "identifier" => match self.consts.get(self.text(obj)) {
                None => true,
                Some(None) => false,
                Some(Some(v)) => {
                    let v = peel(*v);
                    let member_call = v.kind() == "call_expression"
                        && v.child_by_field_name("function")
                            .is_some_and(|f| peel(f).kind() == "member_expression");
                    !member_call && v.kind() != "identifier"
                }
            },
            "member_expression" => {
                obj.child_by_field_name("property")
                    .is_some_and(|p| self.text(p) == "coerce")
                    && obj
                        .child_by_field_name("object")
                        .is_some_and(|o| o.kind() == "identifier")
            }
            _ => false,
        }
    }

    /// `z.<method>(args)`.
    fn zod_base(
        &mut self,
        method: &str,
        args: &[Node<'a>],
        depth: usize,
    ) -> (Map<String, Value>, bool) {
        let first = args.first().copied();
        let with_format = |f: &str| {
            let mut s = typed("string");
            s.insert("format".into(), f.into());
            s
        };
        let s = match method {
            "string" => typed("string"),
            "number" | "float32" | "float64" => typed("number"),
            "int" | "int32" | "uint32" | "bigint" | "int64" | "uint64" => typed("integer"),
            "boolean" => typed("boolean"),
            "null" => typed("null"),
            "date" => with_format("date-time"),
            "email" => with_format("email"),
            "url" => with_format("uri"),
            "uuid" | "guid" => with_format("uuid"),
            "literal" => {
                let mut s = Map::new();
                match first.and_then(|a| self.json_of(a, depth + 1)) {
                    Some(v) => {
                        if let Some(t) = json_type(&v) {
                            s.insert("type".into(), t.into());
                        }
                        s.insert("const".into(), v);
                    }
                    None => self.low = true,
                }
                s
            }
            "enum" => {
                let mut s = typed("string");
                match first.and_then(|a| self.json_of(a, depth + 1)) {
                    Some(v @ Value::Array(_)) => drop(s.insert("enum".into(), v)),
                    _ => self.low = true,
                }
                s
            }
            "array" | "set" => {
                let mut s = typed("array");
                match first.and_then(|a| self.zod(a, depth + 1)) {
                    Some((items, _)) => drop(s.insert("items".into(), Value::Object(items))),
                    None => self.low = true,
                }
                s
            }
            "tuple" => typed("array"),
            "object" | "strictObject" | "looseObject" => match first.map(peel) {
                None => object_schema(Map::new(), Vec::new()),
                Some(a) => match self.schema_arg(a, depth + 1) {
                    Some(Value::Object(s)) => s,
                    _ => {
                        self.low = true;
                        typed("object")
                    }
                },
            },
            "record" | "map" => {
                let mut s = typed("object");
                if let Some((v, _)) = args.last().and_then(|a| self.zod(*a, depth + 1))
                    && !v.is_empty()
                {
                    s.insert("additionalProperties".into(), Value::Object(v));
                }
                s
            }
            "optional" | "nullable" => {
                let Some((mut s, opt)) = first.and_then(|a| self.zod(a, depth + 1)) else {
                    self.low = true;
                    return (Map::new(), method == "optional");
                };
                if method == "nullable" {
                    make_nullable(&mut s);
                }
                return (s, opt || method == "optional");
            }
            "any" | "unknown" | "union" | "discriminatedUnion" | "intersection" | "undefined"
            | "void" | "never" | "xor" => Map::new(),
            _ => {
                self.low = true;
                Map::new()
            }
        };
        (s, false)
    }

    /// `<schema>.<method>(args)` applied to `s`.
    fn zod_modifier(
        &mut self,
        s: &mut Map<String, Value>,
        optional: &mut bool,
        method: &str,
        args: &[Node<'a>],
        depth: usize,
    ) {
        let first = args.first().copied();
        let num = |cx: &mut Self| first.and_then(|a| cx.json_of(a, depth + 1));
        let format = match method {
            "email" => Some("email"),
            "url" => Some("uri"),
            "uuid" => Some("uuid"),
            "datetime" => Some("date-time"),
            "date" => Some("date"),
            "time" => Some("time"),
            "ipv4" => Some("ipv4"),
            "ipv6" => Some("ipv6"),
            _ => None,
        };
        if let Some(f) = format {
            s.insert("format".into(), f.into());
            return;
        }
        match method {
            "describe" => match first.and_then(|a| self.str_of(a, depth + 1)) {
                Some(d) => drop(s.insert("description".into(), d.into())),
                None => self.low = true,
            },
            "optional" => *optional = true,
            "nullable" => make_nullable(s),
            "nullish" => {
                make_nullable(s);
                *optional = true;
            }
            "default" => {
                *optional = true;
                if let Some(v) = first.and_then(|a| self.json_of(a, depth + 1)) {
                    s.insert("default".into(), v);
                }
            }
            "min" | "gte" | "max" | "lte" | "gt" | "lt" | "length" => {
                if let Some(v) = num(self) {
                    let min = matches!(method, "min" | "gte" | "gt" | "length");
                    let max = matches!(method, "max" | "lte" | "lt" | "length");
                    let exclusive = matches!(method, "gt" | "lt");
                    if min {
                        bound(s, true, exclusive, v.clone());
                    }
                    if max {
                        bound(s, false, exclusive, v);
                    }
                }
            }
            "positive" | "nonnegative" => bound(s, true, method == "positive", 0.into()),
            "negative" | "nonpositive" => bound(s, false, method == "negative", 0.into()),
            "nonempty" => bound(s, true, false, 1.into()),
            "int" => drop(s.insert("type".into(), "integer".into())),
            "regex" => {
                let pattern = first.and_then(|r| r.child_by_field_name("pattern"));
                if let Some(p) = pattern {
                    s.insert("pattern".into(), self.text(p).into());
                }
            }
            "array" => {
                let mut a = typed("array");
                a.insert("items".into(), Value::Object(std::mem::take(s)));
                *s = a;
                *optional = false;
            }
            "or" | "and" => s.clear(),
            "extend" | "merge" => match first.and_then(|a| self.schema_arg(a, depth + 1)) {
                Some(extra) => merge_object(s, &extra),
                None => self.low = true,
            },
            "partial" => drop(s.remove("required")),
            "meta" => {
                if let Some(Value::Object(m)) = num(self) {
                    for k in ["title", "description", "examples"] {
                        if let Some(v) = m.get(k) {
                            s.insert(k.into(), v.clone());
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    fn ts(src: &str) -> CodeFindings {
        extract("src/server.ts", src, Dialect::TypeScript)
    }

    fn one(src: &str) -> Tool {
        let f = ts(src);
        assert_eq!(f.tools.len(), 1, "{:?}", f);
        f.tools.into_iter().next().unwrap()
    }

    #[test]
    fn dialect_from_extension() {
        assert_eq!(Dialect::from_extension("ts"), Some(Dialect::TypeScript));
        assert_eq!(Dialect::from_extension("mts"), Some(Dialect::TypeScript));
        assert_eq!(Dialect::from_extension("cts"), Some(Dialect::TypeScript));
        assert_eq!(Dialect::from_extension("tsx"), Some(Dialect::Tsx));
        for e in ["js", "mjs", "cjs", "jsx", "JS"] {
            assert_eq!(Dialect::from_extension(e), Some(Dialect::JavaScript));
        }
        assert_eq!(Dialect::from_extension("py"), None);
        assert_eq!(Dialect::from_extension(""), None);
    }

    #[test]
    fn register_tool_readme_example() {
        let src = r#"import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

const server = new McpServer({ name: "demo-server", version: "1.0.0" });

server.registerTool(
  "add",
  {
    title: "Addition Tool",
    description: "Add two numbers",
    inputSchema: { a: z.number(), b: z.number().describe("Second") },
    outputSchema: { result: z.number() },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async ({ a, b }) => {
    const output = { result: a + b };
    return { content: [{ type: "text", text: JSON.stringify(output) }], structuredContent: output };
  }
);
"#;
        let t = one(src);
        assert_eq!(t.name, "add");
        assert_eq!(t.title.as_deref(), Some("Addition Tool"));
        assert_eq!(t.description.as_deref(), Some("Add two numbers"));
        assert_eq!(
            t.input_schema,
            Some(json!({"type": "object", "properties": {
                "a": {"type": "number"},
                "b": {"type": "number", "description": "Second"}
            }, "required": ["a", "b"]}))
        );
        assert_eq!(
            t.output_schema,
            Some(
                json!({"type": "object", "properties": {"result": {"type": "number"}}, "required": ["result"]})
            )
        );
        assert_eq!(
            t.annotations,
            Some(json!({"readOnlyHint": true, "openWorldHint": false}))
        );
        assert_eq!(t.confidence, Confidence::Medium);
        assert_eq!(
            t.origin,
            Origin::at(SourceFormat::TypescriptCode, "src/server.ts", 7, 3)
        );
    }

    #[test]
    fn tool_with_description_and_shape() {
        let src = r#"
server.tool(
  "fetch-weather",
  "Fetch the weather forecast for a city",
  {
    city: z.string().min(1).max(80).describe("City name"),
    days: z.number().int().min(1).max(7).default(3).describe("Days ahead"),
    units: z.enum(["metric", "imperial"]).optional(),
  },
  async ({ city, days }) => ({ content: [{ type: "text", text: `${city} ${days}` }] })
);"#;
        let t = one(src);
        assert_eq!(t.name, "fetch-weather");
        assert_eq!(
            t.description.as_deref(),
            Some("Fetch the weather forecast for a city")
        );
        assert_eq!(
            t.input_schema.unwrap(),
            json!({"type": "object", "properties": {
                "city": {"type": "string", "minLength": 1, "maxLength": 80, "description": "City name"},
                "days": {"type": "integer", "minimum": 1, "maximum": 7, "default": 3, "description": "Days ahead"},
                "units": {"type": "string", "enum": ["metric", "imperial"]}
            }, "required": ["city"]})
        );
        assert_eq!(t.confidence, Confidence::Medium);
        assert_eq!((t.origin.line, t.origin.column), (Some(3), Some(3)));
    }

    #[test]
    fn tool_short_forms() {
        let src = r#"
server.tool("ping", async () => ({ content: [] }));
server.tool("now", "Current server time", async () => ({ content: [] }));
server.tool("echo", { message: z.string() }, async ({ message }) => ({ content: [] }));
server.tool("rm", "Delete a file", { path: z.string() }, { destructiveHint: true, title: "Delete" }, cb);
server.tool("ls", { dir: z.string() }, { readOnlyHint: true }, cb);
server.tool("noop", "Does nothing", {}, cb);
"#;
        let f = ts(src);
        assert!(f.warnings.is_empty(), "{:?}", f.warnings);
        let names: Vec<_> = f.tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["ping", "now", "echo", "rm", "ls", "noop"]);
        let empty = json!({"type": "object", "properties": {}});
        let one_str = |k: &str| json!({"type": "object", "properties": {k: {"type": "string"}}, "required": [k]});
        let t = &f.tools;
        assert_eq!(
            (t[0].description.as_deref(), t[0].input_schema.as_ref()),
            (None, Some(&empty))
        );
        assert_eq!(t[1].description.as_deref(), Some("Current server time"));
        assert_eq!(t[1].input_schema.as_ref(), Some(&empty));
        assert_eq!(
            (t[2].description.as_deref(), t[2].input_schema.clone()),
            (None, Some(one_str("message")))
        );
        assert_eq!(t[3].description.as_deref(), Some("Delete a file"));
        assert_eq!(t[3].input_schema, Some(one_str("path")));
        assert_eq!(
            t[3].annotations,
            Some(json!({"destructiveHint": true, "title": "Delete"}))
        );
        assert_eq!(t[4].input_schema, Some(one_str("dir")));
        assert_eq!(t[4].annotations, Some(json!({"readOnlyHint": true})));
        assert_eq!(t[5].input_schema.as_ref(), Some(&empty));
        assert!(t.iter().all(|t| t.confidence == Confidence::Medium));
        assert_eq!(
            t.iter().map(|t| t.origin.line.unwrap()).collect::<Vec<_>>(),
            [2, 3, 4, 5, 6, 7]
        );
    }

    #[test]
    fn zod_mapping() {
        let src = r#"
this.server.registerTool("all", {
  description: `All the types`,
  inputSchema: z.object({
    s: z.string().email(),
    n: z.number().gt(0).lte(1.5),
    i: z.int().nonnegative(),
    b: z.boolean().default(false),
    arr: z.array(z.string()).min(1).max(3),
    arr2: z.string().array().nonempty(),
    lit: z.literal("fixed"),
    nested: z.object({ x: z.number(), y: z.number().optional() }).describe("A point"),
    rec: z.record(z.string(), z.number()),
    un: z.union([z.string(), z.number()]).describe("Either"),
    any: z.any(),
    nul: z.string().nullable(),
    maybe: z.string().nullish(),
    c: z.coerce.number(),
    re: z.string().regex(/^[a-z]+$/),
    opt: z.optional(z.boolean()),
    neg: z.number().default(-2),
  }).strict(),
}, cb);"#;
        let t = one(src);
        assert_eq!(t.description.as_deref(), Some("All the types"));
        assert_eq!(
            t.input_schema.unwrap(),
            json!({"type": "object", "properties": {
                "s": {"type": "string", "format": "email"},
                "n": {"type": "number", "exclusiveMinimum": 0, "maximum": 1.5},
                "i": {"type": "integer", "minimum": 0},
                "b": {"type": "boolean", "default": false},
                "arr": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3},
                "arr2": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                "lit": {"type": "string", "const": "fixed"},
                "nested": {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
                           "required": ["x"], "description": "A point"},
                "rec": {"type": "object", "additionalProperties": {"type": "number"}},
                "un": {"description": "Either"},
                "any": {},
                "nul": {"type": ["string", "null"]},
                "maybe": {"type": ["string", "null"]},
                "c": {"type": "number"},
                "re": {"type": "string", "pattern": "^[a-z]+$"},
                "opt": {"type": "boolean"},
                "neg": {"type": "number", "default": -2},
            }, "required": ["s", "n", "i", "arr", "arr2", "lit", "nested", "rec", "un", "any", "nul", "c", "re"]})
        );
        assert_eq!(t.confidence, Confidence::Medium);
    }

    #[test]
    fn json_schema_literal_input() {
        let src = r#"
server.registerTool("search", {
  description: "Search " + 'the web',
  inputSchema: {
    type: "object",
    properties: { q: { type: "string", description: "Query" }, limit: { type: "integer", maximum: 50 } },
    required: ["q"],
  },
}, cb);"#;
        let t = one(src);
        assert_eq!(t.description.as_deref(), Some("Search the web"));
        assert_eq!(
            t.input_schema.unwrap(),
            json!({"type": "object", "properties": {
                "q": {"type": "string", "description": "Query"},
                "limit": {"type": "integer", "maximum": 50}
            }, "required": ["q"]})
        );
        assert_eq!(t.confidence, Confidence::Medium);
    }

    #[test]
    fn resolves_same_file_constants() {
        let src = r#"
const TOOL_NAME = "get_user";
const DESCRIPTION = `Look up a user by id`;
export const GetUserSchema = z.object({ id: z.string().uuid() });
const shape = { q: z.string() };
server.registerTool(TOOL_NAME, { description: DESCRIPTION, inputSchema: GetUserSchema }, cb);
server.tool("find", DESCRIPTION, shape, cb);
server.registerTool("by_shape", { inputSchema: GetUserSchema.shape }, cb);
server.tool("spread", { ...GetUserSchema.shape, n: z.number().optional() }, cb);
server.tool("ext", GetUserSchema.extend(shape).partial(), cb);
"#;
        let f = ts(src);
        assert!(f.warnings.is_empty(), "{:?}", f.warnings);
        let t = &f.tools[0];
        assert_eq!(
            (t.name.as_str(), t.description.as_deref()),
            ("get_user", Some("Look up a user by id"))
        );
        assert_eq!(
            t.input_schema,
            Some(
                json!({"type": "object", "properties": {"id": {"type": "string", "format": "uuid"}}, "required": ["id"]})
            )
        );
        assert_eq!(t.confidence, Confidence::Medium);
        assert_eq!(
            f.tools[1].input_schema.as_ref().unwrap()["required"],
            json!(["q"])
        );
        assert_eq!(f.tools[2].input_schema, t.input_schema);
        let uuid = json!({"type": "string", "format": "uuid"});
        assert_eq!(
            f.tools[3].input_schema,
            Some(
                json!({"type": "object", "properties": {"id": uuid, "n": {"type": "number"}}, "required": ["id"]})
            )
        );
        assert_eq!(
            f.tools[4].input_schema,
            Some(json!({"type": "object", "properties": {"id": uuid, "q": {"type": "string"}}}))
        );
        assert!(f.tools.iter().all(|t| t.confidence == Confidence::Medium));
    }

    #[test]
    fn unresolved_parts_are_low_with_warnings() {
        let src = r#"
import { InputSchema, DESC } from "./schemas";
server.registerTool("imported", { description: "x", inputSchema: InputSchema }, cb);
server.tool("desc", DESC, { a: z.string() }, cb);
server.tool(names.dynamic, "x", cb);
server.tool(`tool_${n}`, "x", cb);
"#;
        let f = ts(src);
        assert_eq!(f.tools.len(), 2);
        assert_eq!(f.tools[0].input_schema, None);
        assert_eq!(f.tools[0].confidence, Confidence::Low);
        assert_eq!(f.tools[1].description, None);
        assert_eq!(
            f.tools[1].input_schema.as_ref().unwrap()["required"],
            json!(["a"])
        );
        assert_eq!(f.tools[1].confidence, Confidence::Low);
        assert_eq!(
            f.warnings,
            [
                "src/server.ts:3: tool \"imported\": input schema `InputSchema` is not resolvable in this file; parameters unknown",
                "src/server.ts:4: tool \"desc\": description is not a string literal",
                "src/server.ts:5: tool name is not a string literal; skipped",
                "src/server.ts:6: tool name is not a string literal; skipped",
            ]
        );
    }

    #[test]
    fn javascript_and_tsx_dialects() {
        let js = "const { z } = require('zod');\nmcp.tool('greet', 'Say hi', { who: z.string() }, cb);\n";
        let f = extract("index.js", js, Dialect::JavaScript);
        assert_eq!(f.tools.len(), 1);
        assert_eq!(
            f.tools[0].origin,
            Origin::at(SourceFormat::TypescriptCode, "index.js", 2, 10)
        );
        let tsx = "const App = () => <div>{x}</div>;\nserver.tool(\"t\", \"d\", { a: z.string() as any }, cb);\n";
        let f = extract("app.tsx", tsx, Dialect::Tsx);
        assert_eq!(f.tools.len(), 1);
        assert_eq!(
            f.tools[0].input_schema.as_ref().unwrap()["required"],
            json!(["a"])
        );
    }

    #[test]
    fn angle_bracket_casts_in_ts_files_hide_no_tool() {
        // Under the TSX grammar `<number>` opens a JSX element that never closes: without the
        // blanking in ts_casts.rs every tool after the first cast was lost.
        let src = "const limit = <number>input.limit;\n\
                   const ids = <Array<string>>raw;\n\
                   const id = <T>(x: T) => x;\n\
                   server.tool(\"search\", <string>desc, <any>{ q: z.string() }, cb);\n\
                   function f() { return <any>x; }\n\
                   server.registerTool(\"fetch\", { description: \"Fetch one\", inputSchema: { id: z.number() } }, cb);\n";
        let f = ts(src);
        let names: Vec<&str> = f.tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["search", "fetch"], "{f:?}");
        // A cast of the shape is read through: the schema is the shape's.
        assert_eq!(
            f.tools[0].input_schema.as_ref().unwrap()["required"],
            json!(["q"])
        );
        // `<string>desc` is the identifier `desc`, not a literal: reported as before.
        assert!(
            f.warnings[0].contains("description is not a string literal"),
            "{f:?}"
        );
        // Positions are the source's (blanking keeps every byte where it was): the name's.
        assert_eq!(
            f.tools[1].origin,
            Origin::at(SourceFormat::TypescriptCode, "src/server.ts", 6, 21)
        );
        assert_eq!(
            f.tools[1].input_schema.as_ref().unwrap()["properties"]["id"]["type"],
            "number"
        );
        // In a .tsx file the same text is JSX, as TypeScript reads it there: nothing is blanked.
        let tsx = extract(
            "a.tsx",
            "const a = <b>x</b>;\nserver.tool(\"t\", \"d\", cb);\n",
            Dialect::Tsx,
        );
        assert_eq!(tsx.tools.len(), 1);
    }

    #[test]
    fn escapes_and_non_ascii() {
        let src = "const s = \"é\"; server.tool(\"café_☕\", \"Line\\none \\u00e9\\u{1F600}\\uD83D\\uDE00 \\x41\", cb);";
        let t = one(src);
        assert_eq!(t.name, "café_☕");
        assert_eq!(t.description.as_deref(), Some("Line\none é😀😀 A"));
        // Columns count characters, not bytes.
        assert_eq!(t.origin.column, Some(28)); // 29 in bytes
    }

    #[test]
    fn not_tools() {
        assert!(ts("").tools.is_empty());
        assert!(ts("const x = 1;").tools.is_empty());
        let f = ts("obj.tool(); obj.tool({a: 1}, 2); toolbox.tools('x', 1); foo.tool('x');");
        assert!(f.tools.is_empty() && f.warnings.is_empty(), "{f:?}");
    }

    #[test]
    fn syntax_errors_do_not_panic() {
        let f = ts(
            "server.tool(\"broken\", \"desc\", { a: z.string( , cb\nserver.tool(\"ok\", \"fine\", cb);",
        );
        assert!(f.tools.iter().any(|t| t.name == "ok"));
        for junk in [
            "server.tool(",
            "server.tool(\"",
            "x.registerTool(\"a\", {inputSchema: z.",
            "\"\\",
            "`${",
        ] {
            let _ = ts(junk);
            let _ = extract("a.js", junk, Dialect::JavaScript);
        }
        let deep = format!(
            "server.tool(\"d\", {{ a: {}z.string(){} }}, cb);",
            "(".repeat(5000),
            ")".repeat(5000)
        );
        let _ = ts(&deep);
        let chain = format!(
            "server.tool(\"c\", {{ a: z.string(){} }}, cb);",
            ".optional()".repeat(5000)
        );
        assert_eq!(one(&chain).confidence, Confidence::Low);
    }

    #[test]
    fn exponential_constants_hit_the_budget() {
        let mut src = String::from("const a0 = \"ab\";\n");
        for i in 1..=60 {
            src.push_str(&format!("const a{i} = a{p} + a{p};\n", p = i - 1));
        }
        src.push_str("server.tool(\"t\", a60, { a: z.string().describe(a3) }, cb);\n");
        let t = one(&src);
        assert_eq!(
            (t.description.as_deref(), t.confidence),
            (None, Confidence::Low)
        );
    }

    #[test]
    fn large_file() {
        let mut src = String::from("import { z } from 'zod';\n");
        while src.len() < 1_000_000 {
            src.push_str(
                "export function helper(a: number): number { return a * 2 + 1; } // filler\n",
            );
        }
        src.push_str("server.tool(\"last\", \"At the end\", { a: z.string() }, cb);\n");
        let t = one(&src);
        assert_eq!(t.name, "last");
        assert_eq!(
            t.origin.line,
            Some(u32::try_from(src.lines().count()).unwrap())
        );
    }
}
