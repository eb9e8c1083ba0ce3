//! A small partial evaluator for the Python expressions tool names, descriptions and schemas
//! are written with: literals, module constants, `Enum` members, f-strings, `+`, `x if c else y`,
//! `a or b`, environment look-ups (read as their default: what the server serves by default),
//! subscripts of known dicts and lists, and calls of small local functions that return one
//! expression (their parameters bound to the call's arguments). Anything else is unknown.

use serde_json::{Map, Value};
use tree_sitter::Node;

use super::{Cx, MAX_DEPTH, py_number, unescape_py, unwrap};
use crate::surface::scan::syntax::named;

/// What a name is bound to in a local environment: a value, a node read in the module scope,
/// or a tuple (one `for k, v in d.items()` element).
#[derive(Clone, Debug)]
pub(super) enum Bound<'a> {
    V(Value),
    N(Node<'a>),
    T(Vec<Bound<'a>>),
    /// A function (of another module) as the tool it defines.
    Tool(Box<crate::surface::Tool>),
    /// A function known only by its name (the function a decorator is applied to).
    Fn(&'a str),
}

/// Local bindings, innermost last.
pub(super) type Env<'a> = Vec<(&'a str, Bound<'a>)>;

/// Elements a loop iterates over, at most.
const MAX_ELEMENTS: usize = 2000;

/// Python truthiness of a known value.
pub(super) fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

/// How Python's `str()` shows a known scalar (what an f-string interpolates).
fn py_str(v: &Value) -> Option<String> {
    Some(match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Null => "None".into(),
        _ => return None,
    })
}

impl<'a> Cx<'a> {
    /// Look `name` up in `env` (innermost first).
    pub(super) fn lookup<'e>(env: &'e Env<'a>, name: &str) -> Option<&'e Bound<'a>> {
        env.iter().rev().find(|(k, _)| *k == name).map(|(_, b)| b)
    }

    fn bound_value(&self, b: &Bound<'a>, depth: usize) -> Option<Value> {
        match b {
            Bound::V(v) => Some(v.clone()),
            Bound::N(n) => self.eval(*n, &Env::new(), depth + 1),
            Bound::Tool(_) | Bound::Fn(_) => None,
            Bound::T(items) => items
                .iter()
                .map(|i| self.bound_value(i, depth + 1))
                .collect::<Option<Vec<_>>>()
                .map(Value::Array),
        }
    }

    /// The value of `n` under `env`, when it is known statically.
    pub(super) fn eval(&self, n: Node<'a>, env: &Env<'a>, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH || !self.tick() {
            return None;
        }
        let n = unwrap(n);
        let d = depth + 1;
        Some(match n.kind() {
            "string" => Value::String(self.string(n, env, d)?),
            "concatenated_string" => Value::String(
                named(n)
                    .into_iter()
                    .map(|p| self.eval(p, env, d)?.as_str().map(str::to_owned))
                    .collect::<Option<String>>()?,
            ),
            "integer" | "float" => py_number(self.text(n), false)?,
            "unary_operator" => {
                let op = self.text(n.child_by_field_name("operator")?);
                let arg = n.child_by_field_name("argument")?;
                if !matches!(arg.kind(), "integer" | "float") || !matches!(op, "-" | "+") {
                    return None;
                }
                py_number(self.text(arg), op == "-")?
            }
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            "none" => Value::Null,
            "list" | "tuple" | "set" => Value::Array(
                named(n)
                    .into_iter()
                    .map(|e| self.eval(e, env, d))
                    .collect::<Option<Vec<_>>>()?,
            ),
            "dictionary" => {
                let mut map = Map::new();
                for p in named(n) {
                    if p.kind() == "dictionary_splat" {
                        let inner = self.eval(*named(p).first()?, env, d)?;
                        map.extend(inner.as_object()?.clone());
                        continue;
                    }
                    let (k, v) = (
                        p.child_by_field_name("key")?,
                        p.child_by_field_name("value")?,
                    );
                    let k = match self.eval(k, env, d) {
                        Some(Value::String(s)) => s,
                        Some(other) => py_str(&other)?,
                        None => self.text(k).to_owned(),
                    };
                    map.insert(k, self.eval(v, env, d)?);
                }
                Value::Object(map)
            }
            "identifier" => {
                let name = self.text(n);
                match Self::lookup(env, name) {
                    Some(b) => self.bound_value(b, d)?,
                    None => self.eval(self.resolve(n)?, &Env::new(), d)?,
                }
            }
            "binary_operator" => {
                let op = self.text(n.child_by_field_name("operator")?);
                let l = self.eval(n.child_by_field_name("left")?, env, d)?;
                let r = self.eval(n.child_by_field_name("right")?, env, d)?;
                match (op, l, r) {
                    ("+", Value::String(a), Value::String(b)) => Value::String(a + &b),
                    ("+", Value::Array(mut a), Value::Array(b)) => {
                        a.extend(b);
                        Value::Array(a)
                    }
                    ("|", Value::Object(mut a), Value::Object(b)) => {
                        a.extend(b);
                        Value::Object(a)
                    }
                    _ => return None,
                }
            }
            "conditional_expression" => {
                let parts = named(n);
                let (body, cond, orelse) = (parts.first()?, parts.get(1)?, parts.get(2)?);
                let c = truthy(&self.eval(*cond, env, d)?);
                self.eval(if c { *body } else { *orelse }, env, d)?
            }
            "boolean_operator" => {
                let op = self.text(n.child_by_field_name("operator")?);
                let l = self.eval(n.child_by_field_name("left")?, env, d)?;
                match (op, truthy(&l)) {
                    ("or", true) | ("and", false) => l,
                    _ => self.eval(n.child_by_field_name("right")?, env, d)?,
                }
            }
            "not_operator" => Value::Bool(!truthy(&self.eval(
                n.child_by_field_name("argument")?,
                env,
                d,
            )?)),
            "subscript" => {
                let v = self.eval(n.child_by_field_name("value")?, env, d)?;
                let k = self.eval(n.child_by_field_name("subscript")?, env, d)?;
                match (v, k) {
                    (Value::Object(mut o), Value::String(k)) => o.remove(&k)?,
                    (Value::Array(mut a), Value::Number(i)) => {
                        let i = usize::try_from(i.as_u64()?).ok()?;
                        (i < a.len()).then(|| a.swap_remove(i))?
                    }
                    _ => return None,
                }
            }
            "attribute" => {
                let obj = n.child_by_field_name("object")?;
                let attr = self.text(n.child_by_field_name("attribute")?);
                if attr == "__name__"
                    && obj.kind() == "identifier"
                    && let Some(Bound::Fn(name)) = Self::lookup(env, self.text(obj))
                {
                    return Some(Value::String((*name).to_owned()));
                }
                self.enum_member(n)?
            }
            "comparison_operator" => {
                let operands = named(n);
                let [l, r] = operands.as_slice() else {
                    return None;
                };
                let mut c = n.walk();
                let op = n.children_by_field_name("operators", &mut c).next()?;
                let (l, r) = (self.eval(*l, env, d)?, self.eval(*r, env, d)?);
                let contains = |hay: &Value| match hay {
                    Value::Array(a) => Some(a.contains(&l)),
                    Value::Object(o) => Some(l.as_str().is_some_and(|k| o.contains_key(k))),
                    Value::String(s) => Some(l.as_str().is_some_and(|k| s.contains(k))),
                    _ => None,
                };
                Value::Bool(match op.kind() {
                    "==" => l == r,
                    "!=" => l != r,
                    "in" => contains(&r)?,
                    "not in" => !contains(&r)?,
                    _ => return None,
                })
            }
            "call" => self.call(n, env, d)?,
            _ => return None,
        })
    }

    /// A string literal, an f-string's interpolations evaluated under `env`.
    fn string(&self, n: Node<'a>, env: &Env<'a>, depth: usize) -> Option<String> {
        let parts = named(n);
        let (start, end) = (parts.first()?, parts.last()?);
        let prefix = self.text(*start).to_ascii_lowercase();
        let raw = prefix.contains('r');
        let fstring = prefix.contains('f');
        let decode = |s: &str| {
            let s = if raw { s.to_owned() } else { unescape_py(s) };
            if fstring {
                s.replace("{{", "{").replace("}}", "}")
            } else {
                s
            }
        };
        if !parts.iter().any(|p| p.kind() == "interpolation") {
            return Some(decode(self.src.get(start.end_byte()..end.start_byte())?));
        }
        let mut out = String::new();
        let mut at = start.end_byte();
        for p in parts.iter().filter(|p| p.kind() == "interpolation") {
            out.push_str(&decode(self.src.get(at..p.start_byte())?));
            if p.child_by_field_name("format_specifier").is_some()
                || p.child_by_field_name("type_conversion").is_some()
            {
                return None;
            }
            let v = self.eval(p.child_by_field_name("expression")?, env, depth)?;
            out.push_str(&py_str(&v)?);
            at = p.end_byte();
        }
        out.push_str(&decode(self.src.get(at..end.start_byte())?));
        Some(out)
    }

    /// `Enum.MEMBER.value`, `Enum.MEMBER.name`, or `Enum.MEMBER` of a `str` enum.
    fn enum_member(&self, n: Node<'a>) -> Option<Value> {
        let obj = n.child_by_field_name("object")?;
        let attr = self.text(n.child_by_field_name("attribute")?);
        if obj.kind() == "identifier"
            && let Some((is_str, members)) = self.enums.get(self.text(obj))
        {
            let member = members.get(attr)?;
            return if *is_str {
                self.eval(*member, &Env::new(), 0)
            } else {
                None
            };
        }
        if obj.kind() != "attribute" {
            return None;
        }
        let class = obj.child_by_field_name("object")?;
        let (_, members) = self.enums.get(self.text(class))?;
        let name = self.text(obj.child_by_field_name("attribute")?);
        let member = members.get(name)?;
        match attr {
            "value" => self.eval(*member, &Env::new(), 0),
            "name" => Some(Value::String(name.to_owned())),
            _ => None,
        }
    }

    /// Environment look-ups (their default), `.get` on a known dict, `str(x)`, and calls of
    /// local functions that return one expression.
    fn call(&self, n: Node<'a>, env: &Env<'a>, depth: usize) -> Option<Value> {
        let f = n.child_by_field_name("function")?;
        let args = named(n.child_by_field_name("arguments")?);
        let positional: Vec<Node<'a>> = args
            .iter()
            .copied()
            .filter(|a| a.kind() != "keyword_argument")
            .collect();
        let keyword = |k: &str| {
            args.iter().find_map(|a| {
                (a.kind() == "keyword_argument"
                    && a.child_by_field_name("name")
                        .is_some_and(|x| self.text(x) == k))
                .then(|| a.child_by_field_name("value"))
                .flatten()
            })
        };
        let ftext = self.text(f);
        if ftext.ends_with("environ.get") || ftext == "getenv" || ftext.ends_with(".getenv") {
            return match positional.get(1).copied().or_else(|| keyword("default")) {
                Some(dflt) => self.eval(dflt, env, depth),
                None => Some(Value::Null),
            };
        }
        if ftext == "str" && positional.len() == 1 {
            return py_str(&self.eval(positional[0], env, depth)?).map(Value::String);
        }
        if f.kind() == "attribute" {
            let method = self.text(f.child_by_field_name("attribute")?);
            if matches!(method, "strip" | "lower" | "upper" | "lstrip" | "rstrip")
                && positional.is_empty()
            {
                let v = self.eval(f.child_by_field_name("object")?, env, depth)?;
                let v = v.as_str()?;
                return Some(Value::String(match method {
                    "strip" => v.trim().to_owned(),
                    "lstrip" => v.trim_start().to_owned(),
                    "rstrip" => v.trim_end().to_owned(),
                    "lower" => v.to_lowercase(),
                    _ => v.to_uppercase(),
                }));
            }
            if method == "get" {
                let obj = self.eval(f.child_by_field_name("object")?, env, depth)?;
                let key = self.eval(*positional.first()?, env, depth)?;
                let key = key.as_str()?;
                return match obj.as_object()?.get(key) {
                    Some(v) => Some(v.clone()),
                    None => match positional.get(1) {
                        Some(d) => self.eval(*d, env, depth),
                        None => Some(Value::Null),
                    },
                };
            }
            return None;
        }
        if f.kind() != "identifier" || Self::lookup(env, ftext).is_some() {
            return None;
        }
        let def = *self.defs.get(ftext)?;
        let body = def.child_by_field_name("body")?;
        let mut local: Env<'a> = Env::new();
        let mut pos = positional.iter();
        for p in named(def.child_by_field_name("parameters")?) {
            let (pname, dflt) = match p.kind() {
                "identifier" => (Some(p), None),
                "typed_parameter" => (named(p).first().copied(), None),
                "default_parameter" | "typed_default_parameter" => (
                    p.child_by_field_name("name"),
                    p.child_by_field_name("value"),
                ),
                _ => return None,
            };
            let pname = self.text(pname.filter(|x| x.kind() == "identifier")?);
            let arg = keyword(pname).or_else(|| pos.next().copied());
            let v = match (arg, dflt) {
                (Some(a), _) => self.eval(a, env, depth)?,
                (None, Some(dv)) => self.eval(dv, &Env::new(), depth)?,
                (None, None) => return None,
            };
            local.push((pname, Bound::V(v)));
        }
        // The body: an optional docstring, simple assignments, then `return <expr>`.
        for st in named(body) {
            match st.kind() {
                "return_statement" => return self.eval(*named(st).first()?, &local, depth),
                "expression_statement" if self.is_docstring(st) => {}
                "expression_statement" => {
                    let a = named(st)
                        .first()
                        .copied()
                        .filter(|a| a.kind() == "assignment")?;
                    let left = a
                        .child_by_field_name("left")
                        .filter(|l| l.kind() == "identifier")?;
                    let v = self.eval(a.child_by_field_name("right")?, &local, depth)?;
                    local.push((self.text(left), Bound::V(v)));
                }
                _ => return None,
            }
        }
        None
    }

    fn is_docstring(&self, stmt: Node<'a>) -> bool {
        named(stmt)
            .first()
            .is_some_and(|s| matches!(s.kind(), "string" | "concatenated_string"))
    }

    /// The elements a `for` loop over `n` visits, when the iterable is known.
    pub(super) fn elements(
        &self,
        n: Node<'a>,
        env: &Env<'a>,
        depth: usize,
    ) -> Option<Vec<Bound<'a>>> {
        if depth > MAX_DEPTH || !self.tick() {
            return None;
        }
        let n = unwrap(n);
        let d = depth + 1;
        let out = match n.kind() {
            "list" | "tuple" | "set" => {
                let items = named(n);
                if items.iter().any(|i| i.kind() == "list_splat") {
                    return None;
                }
                items.into_iter().map(Bound::N).collect()
            }
            "dictionary" => self.dict_pairs(n, 0)?.into_iter().map(|(k, _)| k).collect(),
            "identifier" => match Self::lookup(env, self.text(n)) {
                Some(Bound::N(x)) => self.elements(*x, &Env::new(), d)?,
                Some(Bound::V(Value::Array(a))) => a.iter().cloned().map(Bound::V).collect(),
                Some(_) => return None,
                None => match self.resolve(n) {
                    Some(x) => self.elements(x, &Env::new(), d)?,
                    None => self.foreign_elements(self.text(n), None)?,
                },
            },
            "binary_operator" if self.text(n.child_by_field_name("operator")?) == "+" => {
                let mut l = self.elements(n.child_by_field_name("left")?, env, d)?;
                l.extend(self.elements(n.child_by_field_name("right")?, env, d)?);
                l
            }
            "call" => {
                let f = n.child_by_field_name("function")?;
                if f.kind() != "attribute" {
                    return None;
                }
                let method = self.text(f.child_by_field_name("attribute")?);
                let obj = f.child_by_field_name("object")?;
                let Some(dict) = self.dict_node(obj, env, d) else {
                    let local = (obj.kind() == "identifier"
                        && Self::lookup(env, self.text(obj)).is_none()
                        && self.resolve(obj).is_none())
                    .then(|| self.text(obj))?;
                    return self.foreign_elements(local, Some(method));
                };
                let pairs = self.dict_pairs(dict, 0)?;
                match method {
                    "items" => pairs
                        .into_iter()
                        .map(|(k, v)| Bound::T(vec![k, v]))
                        .collect(),
                    "values" => pairs.into_iter().map(|(_, v)| v).collect(),
                    "keys" => pairs.into_iter().map(|(k, _)| k).collect(),
                    _ => return None,
                }
            }
            _ => match self.eval(n, env, d)? {
                Value::Array(a) => a.into_iter().map(Bound::V).collect(),
                _ => return None,
            },
        };
        (out.len() <= MAX_ELEMENTS).then_some(out)
    }

    /// The dict literal `n` names.
    fn dict_node(&self, n: Node<'a>, env: &Env<'a>, depth: usize) -> Option<Node<'a>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let n = unwrap(n);
        match n.kind() {
            "dictionary" => Some(n),
            "identifier" => match Self::lookup(env, self.text(n)) {
                Some(Bound::N(x)) => self.dict_node(*x, &Env::new(), depth + 1),
                Some(_) => None,
                None => self.dict_node(self.resolve(n)?, &Env::new(), depth + 1),
            },
            _ => None,
        }
    }

    /// A dict literal's (key, value) pairs, `**other` literals merged in.
    pub(super) fn dict_pairs(
        &self,
        n: Node<'a>,
        depth: usize,
    ) -> Option<Vec<(Bound<'a>, Bound<'a>)>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let mut out = Vec::new();
        for p in named(n) {
            if p.kind() == "dictionary_splat" {
                let inner = self.dict_node(*named(p).first()?, &Env::new(), depth + 1)?;
                out.extend(self.dict_pairs(inner, depth + 1)?);
                continue;
            }
            out.push((
                Bound::N(p.child_by_field_name("key")?),
                Bound::N(p.child_by_field_name("value")?),
            ));
        }
        Some(out)
    }

    /// Bind a loop target (`x`, `k, v`, `(k, v)`) to one element.
    pub(super) fn bind(&self, target: Node<'a>, b: Bound<'a>, env: &mut Env<'a>) -> Option<()> {
        let target = unwrap(target);
        match target.kind() {
            "identifier" => {
                env.push((self.text(target), b));
                Some(())
            }
            "pattern_list" | "tuple_pattern" | "list_pattern" | "tuple" | "list" => {
                let names = named(target);
                let items: Vec<Bound<'a>> = match b {
                    Bound::T(items) => items,
                    Bound::N(n) if matches!(unwrap(n).kind(), "tuple" | "list") => {
                        named(unwrap(n)).into_iter().map(Bound::N).collect()
                    }
                    Bound::V(Value::Array(a)) => a.into_iter().map(Bound::V).collect(),
                    _ => return None,
                };
                if items.len() != names.len() {
                    return None;
                }
                for (t, i) in names.into_iter().zip(items) {
                    self.bind(t, i, env)?;
                }
                Some(())
            }
            _ => None,
        }
    }

    /// The function definition `n` names under `env` (a local `def`, or a loop variable
    /// bound to one).
    pub(super) fn function_of(&self, n: Node<'a>, env: &Env<'a>, depth: usize) -> Option<Node<'a>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let n = unwrap(n);
        if n.kind() != "identifier" {
            return None;
        }
        let name = self.text(n);
        match Self::lookup(env, name) {
            Some(Bound::N(x)) => self.function_of(*x, &Env::new(), depth + 1),
            Some(_) => None,
            None => self.defs.get(name).copied().or_else(|| {
                let c = self.resolve(n)?;
                (c.kind() == "identifier").then_some(())?;
                self.function_of(c, &Env::new(), depth + 1)
            }),
        }
    }

    /// An imported function's name under `env` (`from .tools import search` makes `search`
    /// the served name of `mcp.add_tool(search)`): the identifier it resolves to, when that
    /// identifier is imported without an alias.
    pub(super) fn imported_name(
        &self,
        n: Node<'a>,
        env: &Env<'a>,
        depth: usize,
    ) -> Option<&'a str> {
        if depth > MAX_DEPTH {
            return None;
        }
        let n = unwrap(n);
        if n.kind() != "identifier" {
            return None;
        }
        let name = self.text(n);
        match Self::lookup(env, name) {
            Some(Bound::N(x)) => self.imported_name(*x, &Env::new(), depth + 1),
            Some(_) => None,
            None => self.imports.contains(name).then_some(name),
        }
    }
}
