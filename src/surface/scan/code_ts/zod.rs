//! Input schemas as code writes them: zod shapes and schemas (also behind `zodToJsonSchema`,
//! `z.toJSONSchema` and the like) and JSON Schema literals, converted to JSON Schema.

use serde_json::{Map, Value};

use super::eval::{Cx, Val};
use super::node::{MAX_DEPTH, N};
use super::{bound, json_type, make_nullable, merge_object, object_schema, typed};

/// A converter from a zod schema to JSON Schema, by its function name.
fn is_converter(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    (l.contains("json") && l.contains("schema")) || l == "zodtojson" || l == "tojson"
}

impl<'a> Cx<'a> {
    /// A schema: a zod shape, a zod schema, a JSON Schema literal, a converter call, or a
    /// constant or import holding one.
    pub fn schema(&self, v: Val<'a>, depth: usize) -> Option<Value> {
        let _nest = self.enter()?;
        if depth > MAX_DEPTH || !self.tick() {
            return None;
        }
        let Val::Node(n, env) = self.deref(v, depth + 1) else {
            return None;
        };
        match n.kind() {
            "member_expression" => {
                let prop = n.field("property").map(|p| p.text());
                let obj = n.field("object").filter(|_| prop == Some("shape"))?;
                self.schema(Val::Node(obj, env), depth + 1)
            }
            "object" if self.is_json_schema(n, &env) => self.json_of(Val::Node(n, env), depth),
            "object" => Some(Value::Object(self.shape(n, &env, depth))),
            "call_expression" => {
                let f = n.field("function")?.peel();
                let args = n.field("arguments")?.named();
                if f.callee_name().is_some_and(is_converter) {
                    let first = *args.first()?;
                    return self.schema(Val::Node(first, env), depth + 1);
                }
                if let Some((s, _)) = self.zod(Val::Node(n, env.clone()), depth) {
                    return Some(Value::Object(s));
                }
                let r = self.call_result(n, &env, depth + 1)?;
                self.schema(r, depth + 1)
            }
            _ => None,
        }
    }

    /// An object literal that is JSON Schema (`{ type: "object", properties: {...} }`) rather
    /// than a zod shape.
    fn is_json_schema(&self, obj: N<'a>, env: &super::eval::Env<'a>) -> bool {
        obj.named().into_iter().any(|p| {
            let v = p.field("value").map(|v| v.peel());
            match (self.key(p, env).as_deref(), v.map(|v| v.kind())) {
                (Some("type"), Some("string")) => true,
                (Some("properties" | "$schema"), Some(k)) => k == "object" || k == "string",
                (Some("required"), Some("array")) => true,
                _ => false,
            }
        })
    }

    /// A zod raw shape `{ a: z.string(), ... }` as an object schema.
    fn shape(&self, obj: N<'a>, env: &super::eval::Env<'a>, depth: usize) -> Map<String, Value> {
        let mut props = Map::new();
        let mut required = Vec::new();
        for p in obj.named() {
            if p.kind() == "spread_element" {
                // `...Base.shape`: the properties of another schema.
                match p
                    .named()
                    .first()
                    .and_then(|e| self.schema(Val::Node(*e, env.clone()), depth + 1))
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
                    None => self.set_low(),
                }
                continue;
            }
            let (key, val) = match p.kind() {
                "pair" => (self.key(p, env), p.field("value")),
                "shorthand_property_identifier" => (Some(p.text().to_owned()), Some(p)),
                _ => (None, None),
            };
            let Some(key) = key else {
                self.set_low();
                continue;
            };
            let zod = val.and_then(|v| self.zod(Val::Node(v, env.clone()), depth + 1));
            if zod.is_none() {
                self.set_low();
            }
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
    pub fn zod(&self, v: Val<'a>, depth: usize) -> Option<(Map<String, Value>, bool)> {
        let _nest = self.enter()?;
        if depth > MAX_DEPTH || !self.tick() {
            return None;
        }
        let Val::Node(n, env) = self.deref(v, depth + 1) else {
            return None;
        };
        if n.kind() != "call_expression" {
            return None;
        }
        let func = n.field("function")?.peel();
        if func.kind() != "member_expression" {
            return None;
        }
        let method = func.field("property")?.text();
        let obj = func.field("object")?.peel();
        let args: Vec<Val<'a>> = n
            .field("arguments")
            .map(|a| a.named())
            .unwrap_or_default()
            .into_iter()
            .map(|a| Val::Node(a, env.clone()))
            .collect();
        if self.is_zod_namespace(obj, &env) {
            return Some(self.zod_base(method, &args, depth));
        }
        let (mut s, mut optional) = self.zod(Val::Node(obj, env.clone()), depth + 1)?;
        self.zod_modifier(&mut s, &mut optional, method, &args, depth);
        Some((s, optional))
    }

    /// `z` (also `z.coerce`, `zod_1.z`, `zod.z`): a name that does not resolve to a value of
    /// the project.
    fn is_zod_namespace(&self, obj: N<'a>, env: &super::eval::Env<'a>) -> bool {
        match obj.kind() {
            "identifier" | "member_expression" => {
                if obj.kind() == "member_expression"
                    && obj
                        .field("object")
                        .is_some_and(|o| o.kind() == "call_expression")
                {
                    return false;
                }
                match self.deref(Val::Node(obj, env.clone()), 0) {
                    Val::Node(d, _) => d.same(&obj) || d.kind() == "identifier" && d.text() == "z",
                    Val::Module(_) => true,
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// `z.<method>(args)`.
    fn zod_base(&self, method: &str, args: &[Val<'a>], depth: usize) -> (Map<String, Value>, bool) {
        let first = args.first().cloned();
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
                    None => self.set_low(),
                }
                s
            }
            "enum" | "nativeEnum" => {
                let mut s = typed("string");
                match first.and_then(|a| self.json_of(a, depth + 1)) {
                    Some(v @ Value::Array(_)) => drop(s.insert("enum".into(), v)),
                    Some(Value::Object(o)) => {
                        let vals: Vec<Value> = o.values().cloned().collect();
                        s.insert("enum".into(), Value::Array(vals));
                    }
                    _ => self.set_low(),
                }
                s
            }
            "array" | "set" => {
                let mut s = typed("array");
                match first.and_then(|a| self.zod(a, depth + 1)) {
                    Some((items, _)) => drop(s.insert("items".into(), Value::Object(items))),
                    None => self.set_low(),
                }
                s
            }
            "tuple" => typed("array"),
            "object" | "strictObject" | "looseObject" => match first {
                None => object_schema(Map::new(), Vec::new()),
                Some(a) => match self.schema(a, depth + 1) {
                    Some(Value::Object(s)) => s,
                    _ => {
                        self.set_low();
                        typed("object")
                    }
                },
            },
            "record" | "map" => {
                let mut s = typed("object");
                if let Some((v, _)) = args.last().and_then(|a| self.zod(a.clone(), depth + 1))
                    && !v.is_empty()
                {
                    s.insert("additionalProperties".into(), Value::Object(v));
                }
                s
            }
            "optional" | "nullable" => {
                let Some((mut s, opt)) = first.and_then(|a| self.zod(a, depth + 1)) else {
                    self.set_low();
                    return (Map::new(), method == "optional");
                };
                if method == "nullable" {
                    make_nullable(&mut s);
                }
                return (s, opt || method == "optional");
            }
            "any" | "unknown" | "union" | "discriminatedUnion" | "intersection" | "undefined"
            | "void" | "never" | "xor" | "lazy" | "custom" | "instanceof" => Map::new(),
            _ => {
                self.set_low();
                Map::new()
            }
        };
        (s, false)
    }

    /// `<schema>.<method>(args)` applied to `s`.
    fn zod_modifier(
        &self,
        s: &mut Map<String, Value>,
        optional: &mut bool,
        method: &str,
        args: &[Val<'a>],
        depth: usize,
    ) {
        let first = args.first().cloned();
        let num = || first.clone().and_then(|a| self.json_of(a, depth + 1));
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
            "describe" => match first.clone().and_then(|a| self.str_of(a, depth + 1)) {
                Some(d) => drop(s.insert("description".into(), d.into())),
                None => self.set_low(),
            },
            "optional" => *optional = true,
            "nullable" => make_nullable(s),
            "nullish" => {
                make_nullable(s);
                *optional = true;
            }
            "default" => {
                *optional = true;
                if let Some(v) = num() {
                    s.insert("default".into(), v);
                }
            }
            "min" | "gte" | "max" | "lte" | "gt" | "lt" | "length" => {
                if let Some(v) = num() {
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
                if let Some(Val::Node(r, _)) = first
                    && let Some(p) = r.peel().field("pattern")
                {
                    s.insert("pattern".into(), p.text().into());
                }
            }
            "array" => {
                let mut a = typed("array");
                a.insert("items".into(), Value::Object(std::mem::take(s)));
                *s = a;
                *optional = false;
            }
            "or" | "and" => s.clear(),
            "extend" | "merge" => match first.and_then(|a| self.schema(a, depth + 1)) {
                Some(extra) => merge_object(s, &extra),
                None => self.set_low(),
            },
            "partial" => drop(s.remove("required")),
            "meta" => {
                if let Some(Value::Object(m)) = num() {
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
