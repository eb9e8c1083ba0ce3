//! A small, bounded partial evaluator for the values tool definitions are built from: strings,
//! JSON literals, arrays and objects, followed through constants, enums, imports and re-exports
//! (ES modules and CommonJS as tsc and esbuild emit them), destructuring, function calls whose
//! result is a literal, and the variables a loop or a wrapper binds. Nothing is executed: what
//! cannot be known from the text stays unresolved.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use serde_json::{Map, Value};

use super::loader::Loader;
use super::node::{MAX_DEPTH, Module, N, string_literal};
use super::{js_number, unescape_js};
use crate::surface::scan::syntax::walk;

/// Evaluation steps allowed per registration; past it everything reads as unresolved.
pub(super) const BUDGET: u32 = 1_000_000;

/// Evaluation calls in progress at once, at most (each is a few stack frames).
const MAX_NEST: usize = 160;

/// One evaluation call in progress; leaving it (drop) counts it out.
pub(super) struct Nest<'c>(&'c Cell<usize>);

impl Drop for Nest<'_> {
    fn drop(&mut self) {
        self.0.set(self.0.get().saturating_sub(1));
    }
}

/// Items a list may yield (a loop over more is cut there).
const MAX_ITEMS: usize = 2000;

/// A value: a node with the bindings it is evaluated under, a string made by the evaluator
/// (an object's key), an `[key, value]` entry of `Object.entries`, or a module namespace.
#[derive(Clone)]
pub(super) enum Val<'a> {
    Node(N<'a>, Env<'a>),
    Str(String),
    Entry(String, Box<Val<'a>>),
    Module(&'a Module),
}

/// A primitive known statically (for conditions).
#[derive(Debug, Clone, PartialEq)]
enum Lit {
    Undefined,
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
}

fn lit_truthy(l: &Lit) -> bool {
    match l {
        Lit::Undefined | Lit::Null => false,
        Lit::Bool(b) => *b,
        Lit::Num(n) => *n != 0.0 && !n.is_nan(),
        Lit::Str(s) => !s.is_empty(),
    }
}

/// Bindings of loop variables and parameters, innermost first.
pub(super) type Env<'a> = Option<Rc<Frame<'a>>>;

pub(super) struct Frame<'a> {
    name: String,
    val: Val<'a>,
    next: Env<'a>,
}

pub(super) fn bind<'a>(env: &Env<'a>, name: &str, val: Val<'a>) -> Env<'a> {
    Some(Rc::new(Frame {
        name: name.to_owned(),
        val,
        next: env.clone(),
    }))
}

pub(super) fn lookup_env<'a>(env: &Env<'a>, name: &str) -> Option<Val<'a>> {
    let mut e = env.as_ref();
    while let Some(f) = e {
        if f.name == name {
            return Some(f.val.clone());
        }
        e = f.next.as_ref();
    }
    None
}

/// Where a name is declared, as found by walking out through the enclosing scopes.
#[derive(Clone)]
enum Decl<'a> {
    /// `const x = value` (also `let`/`var`, an enum, function or class declaration: the node).
    Value(N<'a>),
    /// `const { key: x } = value` / `const [x] = value`.
    Prop(N<'a>, String),
    /// `import { name } from "spec"` (`name` is `default` or `*` for the other two forms).
    Import(N<'a>, String, String),
    /// A parameter, catch or loop variable with no binding in the environment.
    Unbound,
}

/// The evaluator for one scan.
pub(super) struct Cx<'a> {
    pub loader: &'a Loader,
    budget: Cell<u32>,
    /// Something in the current tool had to be guessed or could not be read.
    pub low: Cell<bool>,
    /// Evaluation calls in progress (every path re-entering the evaluator counts, whatever
    /// depth it passes on): bounds the stack on any input.
    nest: Cell<usize>,
    pub warnings: RefCell<Vec<String>>,
    /// Per module: the names bound anywhere below its top level (parameters, loop variables,
    /// nested declarations), and the top-level declarations looked up so far. A name never
    /// bound below the top level is looked up there directly, without walking the tree.
    scopes: RefCell<HashMap<usize, Scopes<'a>>>,
}

struct Scopes<'a> {
    inner: HashSet<&'a str>,
    top: HashMap<String, Option<Decl<'a>>>,
}

impl<'a> Cx<'a> {
    pub fn new(loader: &'a Loader) -> Cx<'a> {
        Cx {
            loader,
            budget: Cell::new(BUDGET),
            low: Cell::new(false),
            nest: Cell::new(0),
            scopes: RefCell::default(),
            warnings: RefCell::new(Vec::new()),
        }
    }

    /// Enter one evaluation call; `None` past [`MAX_NEST`] calls in progress.
    pub fn enter(&self) -> Option<Nest<'_>> {
        let d = self.nest.get();
        if d >= MAX_NEST {
            return None;
        }
        self.nest.set(d + 1);
        Some(Nest(&self.nest))
    }

    pub fn reset_budget(&self) {
        self.budget.set(BUDGET);
    }

    /// Spend one evaluation step; `false` once the budget is gone.
    pub fn tick(&self) -> bool {
        let left = self.budget.get();
        self.budget.set(left.saturating_sub(1));
        left > 0
    }

    pub fn set_low(&self) {
        self.low.set(true);
    }

    pub fn warn(&self, n: N<'_>, msg: &str) {
        self.warnings
            .borrow_mut()
            .push(format!("{}:{}: {msg}", n.m.file, n.line()));
    }

    // ---- names ------------------------------------------------------------------------

    /// Where `name`, used at `at`, is declared: the nearest enclosing scope that declares it.
    fn declaration(&self, name: &str, at: N<'a>) -> Option<Decl<'a>> {
        let key = std::ptr::from_ref(at.m) as usize;
        let inner = {
            let mut scopes = self.scopes.borrow_mut();
            let s = scopes.entry(key).or_insert_with(|| Scopes {
                inner: inner_names(at.m.root()),
                top: HashMap::new(),
            });
            if !s.inner.contains(name)
                && let Some(d) = s.top.get(name)
            {
                return d.clone();
            }
            s.inner.contains(name)
        };
        if !inner {
            let d =
                at.m.root()
                    .named()
                    .into_iter()
                    .find_map(|stmt| self.declared_in(stmt, name));
            if let Some(s) = self.scopes.borrow_mut().get_mut(&key) {
                s.top.insert(name.to_owned(), d.clone());
            }
            return d;
        }
        let mut cur = at.parent();
        let mut steps = 0usize;
        while let Some(scope) = cur {
            steps += 1;
            if steps > 4 * MAX_DEPTH * MAX_DEPTH {
                return None;
            }
            match scope.kind() {
                "program" | "statement_block" | "class_body" | "switch_case" | "else_clause" => {
                    for stmt in scope.named() {
                        if let Some(d) = self.declared_in(stmt, name) {
                            return Some(d);
                        }
                    }
                }
                "arrow_function"
                | "function_expression"
                | "function"
                | "function_declaration"
                | "generator_function_declaration"
                | "method_definition" => {
                    if let Some(params) = scope
                        .field("parameters")
                        .or_else(|| scope.field("parameter"))
                    {
                        if params.kind() == "identifier" && params.text() == name {
                            return Some(Decl::Unbound);
                        }
                        if params.named().iter().any(|p| pattern_binds(*p, name)) {
                            return Some(Decl::Unbound);
                        }
                    }
                }
                "for_in_statement" | "catch_clause" => {
                    let left = scope.field("left").or_else(|| scope.field("parameter"));
                    if left.is_some_and(|l| pattern_binds(l, name)) {
                        return Some(Decl::Unbound);
                    }
                }
                _ => {}
            }
            cur = scope.parent();
        }
        None
    }

    /// A declaration of `name` made directly by statement `stmt`.
    fn declared_in(&self, stmt: N<'a>, name: &str) -> Option<Decl<'a>> {
        match stmt.kind() {
            "lexical_declaration" | "variable_declaration" => {
                for d in stmt.named() {
                    if d.kind() != "variable_declarator" {
                        continue;
                    }
                    let (Some(target), value) = (d.field("name"), d.field("value")) else {
                        continue;
                    };
                    match target.kind() {
                        "identifier" if target.text() == name => {
                            return value.map(Decl::Value).or(Some(Decl::Unbound));
                        }
                        "object_pattern" | "array_pattern" => {
                            if let Some(key) = pattern_key(target, name) {
                                return Some(match value {
                                    Some(v) => Decl::Prop(v, key),
                                    None => Decl::Unbound,
                                });
                            }
                        }
                        _ => {}
                    }
                }
                None
            }
            "function_declaration"
            | "generator_function_declaration"
            | "class_declaration"
            | "abstract_class_declaration"
            | "enum_declaration" => stmt
                .field("name")
                .filter(|n| n.text() == name)
                .map(|_| Decl::Value(stmt)),
            "export_statement" => {
                if let Some(d) = stmt.field("declaration") {
                    return self.declared_in(d, name);
                }
                None
            }
            "import_statement" => {
                let source = stmt.field("source").and_then(string_literal)?;
                let clause = stmt
                    .named()
                    .into_iter()
                    .find(|c| c.kind() == "import_clause")?;
                for c in clause.named() {
                    match c.kind() {
                        "identifier" if c.text() == name => {
                            return Some(Decl::Import(stmt, source, "default".into()));
                        }
                        "namespace_import" if c.named().iter().any(|i| i.text() == name) => {
                            return Some(Decl::Import(stmt, source, "*".into()));
                        }
                        "named_imports" => {
                            for spec in c.named() {
                                let imported = spec.field("name");
                                let local = spec.field("alias").or(imported);
                                if local.is_some_and(|l| l.text() == name) {
                                    let imported = imported.map(|i| {
                                        string_literal(i).unwrap_or_else(|| i.text().to_owned())
                                    })?;
                                    return Some(Decl::Import(stmt, source, imported));
                                }
                            }
                        }
                        _ => {}
                    }
                }
                None
            }
            "expression_statement" => {
                // `exports.x = …` is how CommonJS output declares a module-level `x` too.
                None
            }
            _ => None,
        }
    }

    /// The value `name` has where it is used (`at`), under `env`.
    pub fn lookup(&self, name: &str, at: N<'a>, env: &Env<'a>, depth: usize) -> Option<Val<'a>> {
        let _nest = self.enter()?;
        if let Some(v) = lookup_env(env, name) {
            return Some(v);
        }
        match self.declaration(name, at)? {
            Decl::Value(v) => Some(Val::Node(v, env.clone())),
            Decl::Prop(v, key) => self.prop(Val::Node(v, env.clone()), &key, depth + 1),
            Decl::Import(stmt, source, imported) => {
                let m = self.loader.import(stmt.m, &source)?;
                if imported == "*" {
                    Some(Val::Module(m))
                } else {
                    self.export(m, &imported, depth + 1)
                }
            }
            Decl::Unbound => None,
        }
    }

    /// What module `m` exports as `name` (ES exports, re-exports, CommonJS `exports.x =`,
    /// `module.exports = {…}`, tsc's `Object.defineProperty(exports, "x", {get})`).
    pub fn export(&self, m: &'a Module, name: &str, depth: usize) -> Option<Val<'a>> {
        let _nest = self.enter()?;
        if depth > MAX_DEPTH || !self.tick() {
            return None;
        }
        let root = m.root();
        let mut stars = Vec::new();
        for stmt in root.named() {
            match stmt.kind() {
                "export_statement" => {
                    let source = stmt.field("source").and_then(string_literal);
                    if let Some(decl) = stmt.field("declaration") {
                        if let Some(Decl::Value(v)) = self.declared_in(decl, name) {
                            return Some(Val::Node(v, None));
                        }
                        if let Some(Decl::Prop(v, k)) = self.declared_in(decl, name) {
                            return self.prop(Val::Node(v, None), &k, depth + 1);
                        }
                        continue;
                    }
                    if let Some(v) = stmt.field("value") {
                        if name == "default" {
                            return Some(Val::Node(v, None));
                        }
                        continue;
                    }
                    let clause = stmt
                        .named()
                        .into_iter()
                        .find(|c| c.kind() == "export_clause");
                    match (clause, source) {
                        (Some(clause), src) => {
                            for spec in clause.named() {
                                let local = spec.field("name");
                                let exported = spec.field("alias").or(local);
                                if exported.is_some_and(|e| e.text() == name) {
                                    let local = local?.text().to_owned();
                                    return match src {
                                        Some(src) => {
                                            let t = self.loader.import(m, &src)?;
                                            self.export(t, &local, depth + 1)
                                        }
                                        None => self.lookup(&local, spec, &None, depth + 1),
                                    };
                                }
                            }
                        }
                        (None, Some(src)) => stars.push(src),
                        (None, None) => {}
                    }
                }
                "expression_statement" => {
                    let Some(e) = stmt.named().first().copied() else {
                        continue;
                    };
                    if let Some(v) = self.cjs_export(e, name, depth) {
                        return Some(v);
                    }
                    if let Some(src) = cjs_star(e) {
                        stars.push(src);
                    }
                }
                _ => {}
            }
        }
        // ES `export const` is a module-level declaration too; a module-level declaration of
        // the name stands for it when nothing above matched (CommonJS keeps its own names).
        for stmt in root.named() {
            if let Some(d) = self.declared_in(stmt, name) {
                match d {
                    Decl::Value(v) => return Some(Val::Node(v, None)),
                    Decl::Prop(v, k) => return self.prop(Val::Node(v, None), &k, depth + 1),
                    _ => {}
                }
            }
        }
        for src in stars {
            if let Some(t) = self.loader.import(m, &src)
                && let Some(v) = self.export(t, name, depth + 1)
            {
                return Some(v);
            }
        }
        None
    }

    /// `exports.name = v`, `module.exports.name = v`, `module.exports = {name: v}`,
    /// `Object.defineProperty(exports, "name", { get: function () { return v; } })`.
    fn cjs_export(&self, e: N<'a>, name: &str, depth: usize) -> Option<Val<'a>> {
        match e.kind() {
            "assignment_expression" => {
                let left = e.field("left")?;
                let mut right = e.field("right")?;
                let chained = right;
                // `exports.a = exports.b = value`: every name in the chain gets the last value.
                for _ in 0..MAX_DEPTH {
                    match right.field("right") {
                        Some(r) if right.kind() == "assignment_expression" => right = r,
                        _ => break,
                    }
                }
                let lt = left.text();
                if right.text() == "void 0" || right.text() == "undefined" {
                    // tsc's `exports.x = void 0;` declares, a later assignment sets.
                    return None;
                }
                if lt == format!("exports.{name}") || lt == format!("module.exports.{name}") {
                    return Some(Val::Node(right, None));
                }
                if lt == "module.exports" {
                    return self.prop(Val::Node(right, None), name, depth + 1);
                }
                if chained.kind() == "assignment_expression" {
                    return self.cjs_export(chained, name, depth + 1);
                }
                None
            }
            "call_expression" => {
                if e.field("function")?.text() != "Object.defineProperty" {
                    return None;
                }
                let args = e.field("arguments")?.named();
                if args.len() < 3 || args[0].text() != "exports" {
                    return None;
                }
                if string_literal(args[1])? != name {
                    return None;
                }
                let getter = self.prop(Val::Node(args[2], None), "get", depth + 1)?;
                let Val::Node(f, env) = getter else {
                    return None;
                };
                self.returned(f, &env).into_iter().next()
            }
            _ => None,
        }
    }

    // ---- values -----------------------------------------------------------------------

    /// Follow names, property accesses and module loads until a value node is reached.
    pub fn deref(&self, v: Val<'a>, depth: usize) -> Val<'a> {
        let Some(_nest) = self.enter() else {
            return v;
        };
        let mut v = v;
        for _ in 0..MAX_DEPTH {
            if !self.tick() {
                return v;
            }
            let Val::Node(n, env) = &v else {
                return v;
            };
            let n = n.peel();
            let next = match n.kind() {
                "identifier" | "shorthand_property_identifier" => {
                    if n.text() == "undefined" {
                        return Val::Node(n, env.clone());
                    }
                    self.lookup(n.text(), n, env, depth + 1)
                }
                "member_expression" => {
                    let key = n.field("property").map(|p| p.text().to_owned());
                    let own = n
                        .field("object")
                        .is_some_and(|o| matches!(o.text(), "exports" | "module.exports"));
                    let this = n.field("object").is_some_and(|o| o.kind() == "this");
                    match (n.field("object"), key) {
                        // CommonJS code reading its own export (`exports.getTool`).
                        (Some(_), Some(k)) if own => self.export(n.m, &k, depth + 1),
                        // `this.config`: the class's field or what its constructor stores.
                        (Some(_), Some(k)) if this => self.this_field(n, &k, depth + 1),
                        (Some(o), Some(k)) => self.prop(Val::Node(o, env.clone()), &k, depth + 1),
                        _ => None,
                    }
                }
                "subscript_expression" => {
                    let idx = n.field("index").map(|i| i.peel());
                    let key = idx.and_then(|i| match i.kind() {
                        "number" => Some(i.text().to_owned()),
                        _ => self.str_of(Val::Node(i, env.clone()), depth + 1),
                    });
                    match (n.field("object"), key) {
                        (Some(o), Some(k)) => self.prop(Val::Node(o, env.clone()), &k, depth + 1),
                        _ => None,
                    }
                }
                "call_expression" => self.module_call(n),
                // `FLAG ? a : b` where FLAG is known in the default configuration.
                "ternary_expression" => {
                    let cond = n.field("condition").map(|c| Val::Node(c, env.clone()));
                    match cond.and_then(|c| self.truthy(c, depth + 1)) {
                        Some(true) => n.field("consequence").map(|c| Val::Node(c, env.clone())),
                        Some(false) => n.field("alternative").map(|c| Val::Node(c, env.clone())),
                        None => None,
                    }
                }
                _ => None,
            };
            match next {
                Some(nv) => v = nv,
                None => return Val::Node(n, env.clone()),
            }
        }
        v
    }

    /// Whether a condition holds in the default configuration (no environment variable set),
    /// when that can be told from the text.
    pub fn truthy(&self, v: Val<'a>, depth: usize) -> Option<bool> {
        Some(match self.lit(v, depth)? {
            Lit::Undefined | Lit::Null => false,
            Lit::Bool(b) => b,
            Lit::Num(n) => n != 0.0 && !n.is_nan(),
            Lit::Str(s) => !s.is_empty(),
        })
    }

    /// A primitive value known statically; `process.env.X` is unset (`undefined`).
    fn lit(&self, v: Val<'a>, depth: usize) -> Option<Lit> {
        let _nest = self.enter()?;
        if depth > MAX_DEPTH || !self.tick() {
            return None;
        }
        let (n, env) = match self.deref(v, depth + 1) {
            Val::Str(s) => return Some(Lit::Str(s)),
            Val::Node(n, env) => (n, env),
            _ => return None,
        };
        let node = |x: N<'a>| Val::Node(x, env.clone());
        match n.kind() {
            "string" | "template_string" => self.str_of(node(n), depth + 1).map(Lit::Str),
            "number" => n.text().replace('_', "").parse().ok().map(Lit::Num),
            "true" => Some(Lit::Bool(true)),
            "false" => Some(Lit::Bool(false)),
            "null" => Some(Lit::Null),
            "undefined" => Some(Lit::Undefined),
            "identifier" if n.text() == "undefined" => Some(Lit::Undefined),
            "member_expression" | "subscript_expression" if n.text().starts_with("process.env") => {
                Some(Lit::Undefined)
            }
            "unary_expression" => {
                let op = n.field("operator")?.text();
                let arg = n.field("argument")?;
                match op {
                    "!" => Some(Lit::Bool(!self.truthy(node(arg), depth + 1)?)),
                    "void" => Some(Lit::Undefined),
                    _ => None,
                }
            }
            "binary_expression" => {
                let op = n.field("operator")?.text();
                let l = n.field("left")?;
                let r = n.field("right")?;
                match op {
                    "===" | "==" | "!==" | "!=" => {
                        let a = self.lit(node(l), depth + 1)?;
                        let b = self.lit(node(r), depth + 1)?;
                        let loose = |x: &Lit| matches!(x, Lit::Undefined | Lit::Null);
                        let eq = if op.len() == 2 && loose(&a) && loose(&b) {
                            true
                        } else {
                            a == b
                        };
                        Some(Lit::Bool(eq == op.starts_with('=')))
                    }
                    "&&" => {
                        let a = self.lit(node(l), depth + 1)?;
                        if !lit_truthy(&a) {
                            Some(a)
                        } else {
                            self.lit(node(r), depth + 1)
                        }
                    }
                    "||" => {
                        let a = self.lit(node(l), depth + 1)?;
                        if lit_truthy(&a) {
                            Some(a)
                        } else {
                            self.lit(node(r), depth + 1)
                        }
                    }
                    "??" => {
                        let a = self.lit(node(l), depth + 1)?;
                        if matches!(a, Lit::Undefined | Lit::Null) {
                            self.lit(node(r), depth + 1)
                        } else {
                            Some(a)
                        }
                    }
                    _ => None,
                }
            }
            "call_expression" => {
                let r = self.call_result(n, &env, depth + 1)?;
                self.lit(r, depth + 1)
            }
            _ => None,
        }
    }

    /// `this.key` inside a class: a field initializer, or what the constructor assigns
    /// (`this.config = config`), with the constructor's parameters bound to the arguments of
    /// the first `new Class(…)` in the project.
    fn this_field(&self, at: N<'a>, key: &str, depth: usize) -> Option<Val<'a>> {
        let _nest = self.enter()?;
        if depth > MAX_DEPTH {
            return None;
        }
        let mut cur = at.parent();
        let class = loop {
            let c = cur?;
            if matches!(
                c.kind(),
                "class_declaration" | "class" | "abstract_class_declaration"
            ) {
                break c;
            }
            cur = c.parent();
        };
        let body = class.field("body")?;
        let mut ctor = None;
        for m in body.named() {
            match m.kind() {
                "public_field_definition" if m.field("name").is_some_and(|k| k.text() == key) => {
                    if let Some(v) = m.field("value") {
                        return Some(Val::Node(v, None));
                    }
                }
                "method_definition"
                    if m.field("name").is_some_and(|k| k.text() == "constructor") =>
                {
                    ctor = Some(m);
                }
                _ => {}
            }
        }
        let ctor = ctor?;
        let assigned = ctor.field("body")?.named().into_iter().find_map(|stmt| {
            let e = stmt.named().first().copied()?;
            (e.kind() == "assignment_expression"
                && e.field("left")
                    .is_some_and(|l| l.text() == format!("this.{key}")))
            .then(|| e.field("right"))
            .flatten()
        })?;
        let env = self
            .new_site(class)
            .map(|args| self.bind_params(ctor, &None, &args))
            .unwrap_or(None);
        Some(Val::Node(assigned, env))
    }

    /// The arguments of the first `new C(…)` of class `class` in the loaded modules.
    fn new_site(&self, class: N<'a>) -> Option<Vec<Val<'a>>> {
        let name = match class.field("name") {
            Some(n) => n.text(),
            None => class
                .parent()
                .filter(|p| p.kind() == "variable_declarator")
                .and_then(|p| p.field("name"))?
                .text(),
        };
        let mut modules: Vec<&'a Module> = vec![class.m];
        modules.extend(
            self.loader
                .callers(name)
                .into_iter()
                .filter(|m| !std::ptr::eq(*m, class.m)),
        );
        for m in modules {
            let root = m.root();
            let mut found = None;
            walk(root.n, |n| {
                if found.is_some() || n.kind() != "new_expression" {
                    return;
                }
                let e = root.at(n);
                if e.field("constructor").is_some_and(|c| c.text() == name) {
                    found = Some(e);
                }
            });
            if let Some(e) = found {
                return Some(
                    e.field("arguments")
                        .map(|a| a.named())
                        .unwrap_or_default()
                        .into_iter()
                        .map(|a| Val::Node(a, None))
                        .collect(),
                );
            }
        }
        None
    }

    /// `require("./x")`, also wrapped in tsc's or esbuild's interop helpers.
    fn module_call(&self, call: N<'a>) -> Option<Val<'a>> {
        let f = call.field("function")?.peel();
        let args = call.field("arguments")?.named();
        let first = args.first().copied()?;
        match f.text() {
            "require" => {
                let spec = string_literal(first)?;
                self.loader.import(call.m, &spec).map(Val::Module)
            }
            "__importStar"
            | "__importDefault"
            | "_interopRequireDefault"
            | "_interopRequireWildcard"
            | "__toESM"
            | "__toCommonJS" => {
                let inner = first.peel();
                if inner.kind() == "call_expression" {
                    self.module_call(inner)
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// Property `key` of value `v` (object literal, array, enum, class static, module).
    pub fn prop(&self, v: Val<'a>, key: &str, depth: usize) -> Option<Val<'a>> {
        let _nest = self.enter()?;
        if depth > MAX_DEPTH || !self.tick() {
            return None;
        }
        match self.deref(v, depth + 1) {
            Val::Module(m) => {
                if key == "default" {
                    // tsc's `x_1.default` of a CommonJS module is its `module.exports`.
                    return self.export(m, "default", depth + 1);
                }
                self.export(m, key, depth + 1)
            }
            Val::Entry(k, v) => match key {
                "0" => Some(Val::Str(k)),
                "1" => Some(*v),
                _ => None,
            },
            Val::Str(_) => None,
            Val::Node(n, env) => match n.kind() {
                "object" => {
                    let mut found = None;
                    for p in n.named() {
                        match p.kind() {
                            "pair" if self.key(p, &env).as_deref() == Some(key) => {
                                found = p.field("value").map(|v| Val::Node(v, env.clone()));
                            }
                            "shorthand_property_identifier" if p.text() == key => {
                                found = Some(Val::Node(p, env.clone()));
                            }
                            "method_definition"
                                if p.field("name").is_some_and(|k| k.text() == key) =>
                            {
                                found = Some(Val::Node(p, env.clone()));
                            }
                            "spread_element" => {
                                if let Some(inner) = p.named().first()
                                    && let Some(v) =
                                        self.prop(Val::Node(*inner, env.clone()), key, depth + 1)
                                {
                                    found = Some(v);
                                }
                            }
                            _ => {}
                        }
                    }
                    found
                }
                "array" => {
                    let i: usize = key.parse().ok()?;
                    self.list_of(Val::Node(n, env), depth + 1)?
                        .into_iter()
                        .nth(i)
                }
                "enum_declaration" => {
                    let body = n.field("body")?;
                    for m in body.named() {
                        match m.kind() {
                            "enum_assignment"
                                if m.field("name").is_some_and(|k| k.text() == key) =>
                            {
                                return m.field("value").map(|v| Val::Node(v, None));
                            }
                            "property_identifier" if m.text() == key => return None,
                            _ => {}
                        }
                    }
                    None
                }
                "class_declaration" | "class" | "abstract_class_declaration" => {
                    let body = n.field("body")?;
                    for m in body.named() {
                        if m.kind() == "public_field_definition"
                            && m.field("name").is_some_and(|k| k.text() == key)
                        {
                            return m.field("value").map(|v| Val::Node(v, None));
                        }
                    }
                    None
                }
                "call_expression" => {
                    // `Object.freeze({...})`, `defineTool({...})`, a factory returning an object.
                    let r = self.call_result(n, &env, depth + 1)?;
                    self.prop(r, key, depth + 1)
                }
                "new_expression" => self.instance_field(n, &env, key, depth + 1),
                _ => None,
            },
        }
    }

    /// The key of an object `pair`.
    pub fn key(&self, pair: N<'a>, env: &Env<'a>) -> Option<String> {
        let k = pair.field("key")?;
        match k.kind() {
            "property_identifier" | "number" => Some(k.text().to_owned()),
            "string" => string_literal(k),
            "computed_property_name" => self.str_of(Val::Node(*k.named().first()?, env.clone()), 0),
            _ => self.str_of(Val::Node(k, env.clone()), 0),
        }
    }

    /// A string known statically.
    pub fn str_of(&self, v: Val<'a>, depth: usize) -> Option<String> {
        let _nest = self.enter()?;
        if depth > MAX_DEPTH || !self.tick() {
            return None;
        }
        let (n, env) = match self.deref(v, depth + 1) {
            Val::Str(s) => return Some(s),
            Val::Node(n, env) => (n, env),
            _ => return None,
        };
        match n.kind() {
            "string" => string_literal(n),
            "template_string" => {
                let t = n.text();
                let body = t.strip_prefix('`')?.strip_suffix('`')?;
                let start = n.n.start_byte() + 1;
                let mut out = String::new();
                let mut pos = 0usize;
                for c in n.named() {
                    if c.kind() != "template_substitution" {
                        continue;
                    }
                    let (s, e) = (
                        c.n.start_byte().checked_sub(start)?,
                        c.n.end_byte().checked_sub(start)?,
                    );
                    out.push_str(&unescape_js(body.get(pos..s)?));
                    let inner = *c.named().first()?;
                    out.push_str(&self.str_of(Val::Node(inner, env.clone()), depth + 1)?);
                    pos = e;
                }
                out.push_str(&unescape_js(body.get(pos..)?));
                Some(out)
            }
            "number" => Some(n.text().to_owned()),
            "binary_expression" => {
                let op = n.field("operator")?.text();
                let l = n.field("left")?;
                let r = n.field("right")?;
                match op {
                    "+" => {
                        let a = self.str_of(Val::Node(l, env.clone()), depth + 1)?;
                        Some(a + &self.str_of(Val::Node(r, env), depth + 1)?)
                    }
                    "||" | "??" => self
                        .str_of(Val::Node(l, env.clone()), depth + 1)
                        .or_else(|| self.str_of(Val::Node(r, env), depth + 1)),
                    _ => None,
                }
            }
            "call_expression" => {
                let f = n.field("function")?.peel();
                let args = n.field("arguments")?.named();
                match (f.kind(), f.callee_name()) {
                    ("identifier", Some("String")) => {
                        self.str_of(Val::Node(*args.first()?, env), depth + 1)
                    }
                    ("member_expression", Some("trim" | "toString")) => {
                        let o = f.field("object")?;
                        let s = self.str_of(Val::Node(o, env), depth + 1)?;
                        Some(s.trim().to_owned())
                    }
                    ("member_expression", Some("join")) => {
                        let o = f.field("object")?;
                        let sep = match args.first() {
                            Some(a) => self.str_of(Val::Node(*a, env.clone()), depth + 1)?,
                            None => ",".into(),
                        };
                        let items = self.list_of(Val::Node(o, env), depth + 1)?;
                        let parts: Option<Vec<String>> = items
                            .into_iter()
                            .map(|i| self.str_of(i, depth + 1))
                            .collect();
                        Some(parts?.join(&sep))
                    }
                    ("member_expression", Some("dedent" | "stripIndent"))
                    | ("identifier", Some("dedent")) => {
                        self.str_of(Val::Node(*args.first()?, env), depth + 1)
                    }
                    _ => {
                        let r = self.call_result(n, &env, depth + 1)?;
                        self.str_of(r, depth + 1)
                    }
                }
            }
            // `dedent\`…\``
            "ternary_expression" => {
                let a = self.str_of(Val::Node(n.field("consequence")?, env.clone()), depth + 1)?;
                let b = self.str_of(Val::Node(n.field("alternative")?, env), depth + 1)?;
                (a == b).then_some(a)
            }
            _ => None,
        }
    }

    /// The node a string value was finally read from (for a tool's origin).
    pub fn str_site(&self, v: Val<'a>) -> Option<N<'a>> {
        match self.deref(v, 0) {
            Val::Node(n, _) => Some(n),
            _ => None,
        }
    }

    /// A literal expression as JSON; `None` if it is not one.
    pub fn json_of(&self, v: Val<'a>, depth: usize) -> Option<Value> {
        let _nest = self.enter()?;
        if depth > MAX_DEPTH || !self.tick() {
            return None;
        }
        let (n, env) = match self.deref(v, depth + 1) {
            Val::Str(s) => return Some(Value::String(s)),
            Val::Node(n, env) => (n, env),
            _ => return None,
        };
        Some(match n.kind() {
            "string" | "template_string" | "binary_expression" => {
                if n.kind() == "binary_expression"
                    && n.field("operator")
                        .is_some_and(|o| matches!(o.text(), "||" | "??"))
                {
                    let l = n.field("left")?;
                    return self
                        .json_of(Val::Node(l, env.clone()), depth + 1)
                        .or_else(|| self.json_of(Val::Node(n.field("right")?, env), depth + 1));
                }
                Value::String(self.str_of(Val::Node(n, env), depth)?)
            }
            "number" => js_number(n.text(), false)?,
            "unary_expression" => {
                let op = n.field("operator")?.text();
                let arg = n.field("argument")?.peel();
                match (op, arg.kind()) {
                    ("-" | "+", "number") => js_number(arg.text(), op == "-")?,
                    ("!", "number") => Value::Bool(arg.text() == "0"),
                    _ => return None,
                }
            }
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            "null" => Value::Null,
            "array" => {
                let mut items = Vec::new();
                for e in self.list_of(Val::Node(n, env), depth + 1)? {
                    match self.json_of(e, depth + 1) {
                        Some(v) => items.push(v),
                        None => self.set_low(),
                    }
                }
                Value::Array(items)
            }
            "object" => {
                let mut map = Map::new();
                for p in n.named() {
                    let (k, v) = match p.kind() {
                        "pair" => (self.key(p, &env), p.field("value")),
                        "shorthand_property_identifier" => (Some(p.text().to_owned()), Some(p)),
                        "spread_element" => {
                            let inner = p.named().first().copied();
                            match inner
                                .and_then(|i| self.json_of(Val::Node(i, env.clone()), depth + 1))
                            {
                                Some(Value::Object(o)) => map.extend(o),
                                _ => self.set_low(),
                            }
                            continue;
                        }
                        _ => (None, None),
                    };
                    if v.is_some_and(|v| v.peel().text() == "undefined") {
                        continue;
                    }
                    match (
                        k,
                        v.and_then(|v| self.json_of(Val::Node(v, env.clone()), depth + 1)),
                    ) {
                        (Some(k), Some(v)) => drop(map.insert(k, v)),
                        _ => self.set_low(),
                    }
                }
                Value::Object(map)
            }
            "call_expression" => {
                let r = self.call_result(n, &env, depth + 1)?;
                return self.json_of(r, depth + 1);
            }
            _ => return None,
        })
    }

    /// The items of an array-like value: an array literal (spreads flattened), `Object.values`
    /// / `Object.entries` / `Object.keys` of an object, `.map(cb)` (each result under the
    /// callback's binding), `.filter`, `.concat`, `.flat`, a function's returned array.
    pub fn list_of(&self, v: Val<'a>, depth: usize) -> Option<Vec<Val<'a>>> {
        let _nest = self.enter()?;
        if depth > MAX_DEPTH || !self.tick() {
            return None;
        }
        // `const tools = [...]; tools.push(x)`: the literal's items, then what is pushed.
        if let Val::Node(n, env) = &v {
            let n = n.peel();
            let ident = matches!(n.kind(), "identifier" | "shorthand_property_identifier");
            if ident && let Some(bound) = lookup_env(env, n.text()) {
                return self.list_of(bound, depth + 1);
            }
            if ident
                && let Some(Decl::Value(value)) = self.declaration(n.text(), n)
                && value.peel().kind() == "array"
            {
                let mut items = self.list_of(Val::Node(value, env.clone()), depth + 1)?;
                items.extend(self.pushed(n.text(), value, depth + 1));
                return Some(items);
            }
        }
        let (n, env) = match self.deref(v, depth + 1) {
            Val::Node(n, env) => (n, env),
            _ => return None,
        };
        match n.kind() {
            "array" => {
                let mut out = Vec::new();
                for e in n.named() {
                    if e.kind() == "spread_element" {
                        let inner = *e.named().first()?;
                        out.extend(self.list_of(Val::Node(inner, env.clone()), depth + 1)?);
                    } else {
                        out.push(Val::Node(e, env.clone()));
                    }
                    if out.len() > MAX_ITEMS {
                        return None;
                    }
                }
                Some(out)
            }
            "object" => None,
            "call_expression" => {
                let f = n.field("function")?.peel();
                let args = n.field("arguments")?.named();
                let name = f.callee_name()?;
                let obj = (f.kind() == "member_expression")
                    .then(|| f.field("object"))
                    .flatten();
                let obj_text = obj.map(|o| o.text()).unwrap_or("");
                match (obj_text, name) {
                    ("Object", "values" | "entries" | "keys") => {
                        let target = Val::Node(*args.first()?, env.clone());
                        self.object_items(target, name, depth + 1)
                    }
                    ("Array", "from") => self.list_of(Val::Node(*args.first()?, env), depth + 1),
                    (_, "map" | "flatMap") if obj.is_some() => {
                        let items = self.list_of(Val::Node(obj?, env.clone()), depth + 1)?;
                        let cb = self.deref(Val::Node(*args.first()?, env.clone()), depth + 1);
                        let Val::Node(cb, cb_env) = cb else {
                            return None;
                        };
                        let mut out = Vec::new();
                        for (i, item) in items.into_iter().enumerate() {
                            let e = self.bind_params(cb, &cb_env, &[item, Val::Str(i.to_string())]);
                            for r in self.returned(cb, &e) {
                                if name == "flatMap"
                                    && let Some(inner) = self.list_of(r.clone(), depth + 1)
                                {
                                    out.extend(inner);
                                } else {
                                    out.push(r);
                                }
                            }
                        }
                        Some(out)
                    }
                    (_, "filter" | "slice" | "flat" | "sort" | "reverse" | "toSorted")
                        if obj.is_some() =>
                    {
                        self.list_of(Val::Node(obj?, env), depth + 1)
                    }
                    (_, "concat") if obj.is_some() => {
                        let mut out = self.list_of(Val::Node(obj?, env.clone()), depth + 1)?;
                        for a in args {
                            match self.list_of(Val::Node(a, env.clone()), depth + 1) {
                                Some(l) => out.extend(l),
                                None => out.push(Val::Node(a, env.clone())),
                            }
                        }
                        Some(out)
                    }
                    _ => {
                        let r = self.call_result(n, &env, depth + 1)?;
                        self.list_of(r, depth + 1)
                    }
                }
            }
            _ => None,
        }
    }

    /// What `name.push(…)` / `name.unshift(…)` add to the array declared as `value`, each
    /// under the loops and callbacks around the call.
    fn pushed(&self, name: &str, value: N<'a>, depth: usize) -> Vec<Val<'a>> {
        let root = value.m.root();
        let mut calls = Vec::new();
        walk(root.n, |c| {
            if c.kind() != "call_expression" || calls.len() > MAX_ITEMS {
                return;
            }
            let call = root.at(c);
            let Some(f) = call.field("function").map(|f| f.peel()) else {
                return;
            };
            if f.kind() != "member_expression"
                || !f
                    .field("property")
                    .is_some_and(|p| matches!(p.text(), "push" | "unshift"))
            {
                return;
            }
            let Some(obj) = f.field("object").map(|o| o.peel()) else {
                return;
            };
            if obj.kind() == "identifier" && obj.text() == name {
                calls.push((call, obj));
            }
        });
        let mut out = Vec::new();
        for (call, obj) in calls {
            if !matches!(self.declaration(name, obj), Some(Decl::Value(v)) if v.same(&value)) {
                continue;
            }
            let args = call
                .field("arguments")
                .map(|a| a.named())
                .unwrap_or_default();
            for env in contexts(self, call, 0, &mut 0) {
                for a in &args {
                    if a.kind() == "spread_element" {
                        if let Some(inner) = a.named().first() {
                            out.extend(
                                self.list_of(Val::Node(*inner, env.clone()), depth + 1)
                                    .unwrap_or_default(),
                            );
                        }
                    } else {
                        out.push(Val::Node(*a, env.clone()));
                    }
                }
                if out.len() > MAX_ITEMS {
                    return out;
                }
            }
        }
        out
    }

    /// `Object.values` / `entries` / `keys` of an object literal.
    fn object_items(&self, target: Val<'a>, which: &str, depth: usize) -> Option<Vec<Val<'a>>> {
        let _nest = self.enter()?;
        let (n, env) = match self.deref(target, depth + 1) {
            Val::Node(n, env) => (n, env),
            Val::Module(m) => return self.module_items(m, which),
            _ => return None,
        };
        if n.kind() != "object" {
            return None;
        }
        let mut out = Vec::new();
        for p in n.named() {
            let (k, v) = match p.kind() {
                "pair" => (
                    self.key(p, &env),
                    p.field("value").map(|v| Val::Node(v, env.clone())),
                ),
                "shorthand_property_identifier" => {
                    (Some(p.text().to_owned()), Some(Val::Node(p, env.clone())))
                }
                "spread_element" => {
                    let inner = Val::Node(*p.named().first()?, env.clone());
                    out.extend(self.object_items(inner, which, depth + 1)?);
                    continue;
                }
                _ => continue,
            };
            let v = v?;
            if which == "values" {
                // A computed key the scan cannot name still holds its value.
                out.push(v);
                continue;
            }
            let k = k?;
            out.push(match which {
                "keys" => Val::Str(k),
                _ => Val::Entry(k, Box::new(v)),
            });
        }
        Some(out)
    }

    /// `Object.values(ns)` of `import * as ns`: the module's exported values.
    fn module_items(&self, m: &'a Module, which: &str) -> Option<Vec<Val<'a>>> {
        let mut out = Vec::new();
        for stmt in m.root().named() {
            if stmt.kind() != "export_statement" {
                continue;
            }
            let Some(decl) = stmt.field("declaration") else {
                continue;
            };
            for d in decl.named() {
                if d.kind() != "variable_declarator" {
                    continue;
                }
                let (Some(name), Some(value)) = (d.field("name"), d.field("value")) else {
                    continue;
                };
                let v = Val::Node(value, None);
                out.push(match which {
                    "values" => v,
                    "keys" => Val::Str(name.text().to_owned()),
                    _ => Val::Entry(name.text().to_owned(), Box::new(v)),
                });
            }
        }
        Some(out)
    }

    // ---- functions --------------------------------------------------------------------

    /// What calling a function literal in the project returns, when that is a single
    /// expression (`return {…}` / `() => ({…})`), evaluated with its parameters bound to the
    /// call's arguments.
    pub fn call_result(&self, call: N<'a>, env: &Env<'a>, depth: usize) -> Option<Val<'a>> {
        let _nest = self.enter()?;
        if depth > MAX_DEPTH || !self.tick() {
            return None;
        }
        let f = call.field("function")?;
        let args: Vec<Val<'a>> = call
            .field("arguments")?
            .named()
            .into_iter()
            .map(|a| Val::Node(a, env.clone()))
            .collect();
        let mut callee = self.deref(Val::Node(f, env.clone()), depth + 1);
        // `makeTool(def)(args)`: a call whose callee is itself a call returning a function.
        for _ in 0..4 {
            match &callee {
                Val::Node(c, cenv) if c.kind() == "call_expression" => {
                    match self.call_result(*c, cenv, depth + 1) {
                        Some(r) => {
                            let r = self.deref(r, depth + 1);
                            let is_fn = matches!(&r, Val::Node(x, _) if is_function(*x));
                            if !is_fn {
                                break;
                            }
                            callee = r;
                        }
                        None => break,
                    }
                }
                _ => break,
            }
        }
        let Val::Node(func, fenv) = callee else {
            return None;
        };
        if !is_function(func) {
            // `Object.freeze(x)`, `defineTool(x)` from a package, `tool(x)`: a helper we cannot
            // see that takes one object is read as returning it.
            let name = f.callee_name().unwrap_or("");
            if args.len() == 1 && !matches!(name, "require" | "Symbol") {
                let arg = args.into_iter().next()?;
                let literal = matches!(
                    self.deref(arg.clone(), depth + 1),
                    Val::Node(a, _) if matches!(a.kind(), "object" | "array")
                );
                return literal.then_some(arg);
            }
            return None;
        }
        let e = self.bind_params(func, &fenv, &args);
        self.returned(func, &e).into_iter().next()
    }

    /// Bind a function's parameters (identifiers, defaults, destructuring) to `args`.
    pub fn bind_params(&self, func: N<'a>, env: &Env<'a>, args: &[Val<'a>]) -> Env<'a> {
        let mut e = env.clone();
        let Some(params) = func.field("parameters").or_else(|| func.field("parameter")) else {
            return e;
        };
        let list = if params.kind() == "identifier" {
            vec![params]
        } else {
            params.named()
        };
        for (i, p) in list.into_iter().enumerate() {
            let arg = args.get(i).cloned();
            e = self.bind_pattern(p, arg, &e);
        }
        e
    }

    /// Bind pattern `p` to `val` (a missing argument takes the default, if any).
    pub fn bind_pattern(&self, p: N<'a>, val: Option<Val<'a>>, env: &Env<'a>) -> Env<'a> {
        let p = match p.kind() {
            "required_parameter" | "optional_parameter" => {
                let default = p.field("value");
                let pattern = p.field("pattern").unwrap_or(p);
                let val = val.or_else(|| default.map(|d| Val::Node(d, env.clone())));
                return self.bind_pattern(pattern, val, env);
            }
            "assignment_pattern" => {
                let default = p.field("right");
                let val = val.or_else(|| default.map(|d| Val::Node(d, env.clone())));
                return match p.field("left") {
                    Some(l) => self.bind_pattern(l, val, env),
                    None => env.clone(),
                };
            }
            _ => p,
        };
        let Some(val) = val else {
            return env.clone();
        };
        match p.kind() {
            "identifier" => bind(env, p.text(), val),
            "object_pattern" => {
                let mut e = env.clone();
                for part in p.named() {
                    match part.kind() {
                        "shorthand_property_identifier_pattern" => {
                            if let Some(v) = self.prop(val.clone(), part.text(), 0) {
                                e = bind(&e, part.text(), v);
                            }
                        }
                        "pair_pattern" => {
                            let key = self.key(part, env);
                            if let (Some(k), Some(target)) = (key, part.field("value"))
                                && let Some(v) = self.prop(val.clone(), &k, 0)
                            {
                                e = self.bind_pattern(target, Some(v), &e);
                            }
                        }
                        "object_assignment_pattern" => {
                            if let Some(l) = part.field("left") {
                                let v = self.prop(val.clone(), l.text(), 0).or_else(|| {
                                    part.field("right").map(|r| Val::Node(r, env.clone()))
                                });
                                if let Some(v) = v {
                                    e = bind(&e, l.text(), v);
                                }
                            }
                        }
                        _ => {}
                    }
                }
                e
            }
            "array_pattern" => {
                let mut e = env.clone();
                for (i, part) in p.named().into_iter().enumerate() {
                    if let Some(v) = self.prop(val.clone(), &i.to_string(), 0) {
                        e = self.bind_pattern(part, Some(v), &e);
                    }
                }
                e
            }
            _ => env.clone(),
        }
    }

    /// The expressions a function returns: an arrow's expression body, or each `return` of
    /// its body (not those of nested functions).
    pub fn returned(&self, func: N<'a>, env: &Env<'a>) -> Vec<Val<'a>> {
        let Some(body) = func.field("body") else {
            return Vec::new();
        };
        if body.kind() != "statement_block" {
            return vec![Val::Node(body, env.clone())];
        }
        let mut out = Vec::new();
        let mut stack = vec![body];
        while let Some(s) = stack.pop() {
            if !self.tick() {
                break;
            }
            for c in s.named() {
                match c.kind() {
                    "return_statement" => {
                        if let Some(e) = c.named().first() {
                            out.push(Val::Node(*e, env.clone()));
                        }
                    }
                    k if is_function_kind(k) || k == "class_declaration" => {}
                    _ => stack.push(c),
                }
            }
        }
        out
    }

    /// A field of `new C(…)`: a class field initializer, or a key of the object the
    /// constructor passes to `super({...})`, or of its single object argument.
    fn instance_field(
        &self,
        new: N<'a>,
        env: &Env<'a>,
        key: &str,
        depth: usize,
    ) -> Option<Val<'a>> {
        let ctor = new.field("constructor")?;
        let args: Vec<Val<'a>> = new
            .field("arguments")
            .map(|a| {
                a.named()
                    .into_iter()
                    .map(|n| Val::Node(n, env.clone()))
                    .collect()
            })
            .unwrap_or_default();
        let class = self.deref(Val::Node(ctor, env.clone()), depth + 1);
        if let Val::Node(c, _) = &class
            && matches!(
                c.kind(),
                "class_declaration" | "class" | "abstract_class_declaration"
            )
            && let Some(v) = self.class_field(*c, key, &args, depth + 1)
        {
            return Some(v);
        }
        if args.len() == 1 {
            return self.prop(args.into_iter().next()?, key, depth + 1);
        }
        None
    }

    fn class_field(&self, c: N<'a>, key: &str, args: &[Val<'a>], depth: usize) -> Option<Val<'a>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let body = c.field("body")?;
        for m in body.named() {
            match m.kind() {
                "public_field_definition" if m.field("name").is_some_and(|k| k.text() == key) => {
                    return m.field("value").map(|v| Val::Node(v, None));
                }
                "method_definition"
                    if m.field("name").is_some_and(|k| k.text() == "constructor") =>
                {
                    let env = self.bind_params(m, &None, args);
                    if let Some(v) = self.super_arg(m, key, &env, depth + 1) {
                        return Some(v);
                    }
                }
                _ => {}
            }
        }
        // A field the parent class sets from what this one passes up is found above; one the
        // parent declares itself is read from the parent.
        let heritage = c
            .named()
            .into_iter()
            .find(|n| n.kind() == "class_heritage")?;
        let parent = heritage.named().into_iter().find_map(|h| {
            if h.kind() == "extends_clause" {
                h.field("value")
            } else {
                Some(h)
            }
        })?;
        match self.deref(Val::Node(parent, None), depth + 1) {
            Val::Node(p, _)
                if matches!(
                    p.kind(),
                    "class_declaration" | "class" | "abstract_class_declaration"
                ) =>
            {
                self.class_field(p, key, &[], depth + 1)
            }
            _ => None,
        }
    }

    /// `super({ name: "x", … })` or `this.name = "x"` in a constructor body.
    fn super_arg(&self, ctor: N<'a>, key: &str, env: &Env<'a>, depth: usize) -> Option<Val<'a>> {
        let body = ctor.field("body")?;
        for stmt in body.named() {
            let Some(e) = stmt.named().first().copied() else {
                continue;
            };
            match e.kind() {
                "call_expression" if e.field("function").is_some_and(|f| f.kind() == "super") => {
                    let args = e.field("arguments")?.named();
                    if let Some(first) = args.first()
                        && let Some(v) = self.prop(Val::Node(*first, env.clone()), key, depth + 1)
                    {
                        return Some(v);
                    }
                }
                "assignment_expression" => {
                    let left = e.field("left")?;
                    if left.text() == format!("this.{key}") {
                        return e.field("right").map(|r| Val::Node(r, env.clone()));
                    }
                }
                _ => {}
            }
        }
        None
    }
}

pub(super) fn is_function_kind(k: &str) -> bool {
    matches!(
        k,
        "arrow_function"
            | "function_expression"
            | "function"
            | "function_declaration"
            | "generator_function_declaration"
            | "generator_function"
            | "method_definition"
    )
}

pub(super) fn is_function(n: N<'_>) -> bool {
    is_function_kind(n.kind())
}

/// The names a module binds anywhere below its top level: parameters, loop and catch
/// variables, and declarations inside functions and blocks (one walk of the tree).
fn inner_names(root: N<'_>) -> HashSet<&str> {
    // The top level's own declarations, by node id (no parent look-ups: they are costly).
    let mut top = HashSet::new();
    for stmt in root.named() {
        let stmt = match stmt.kind() {
            "export_statement" => match stmt.field("declaration") {
                Some(d) => d,
                None => continue,
            },
            _ => stmt,
        };
        top.insert(stmt.n.id());
        for d in stmt.named() {
            top.insert(d.n.id());
        }
    }
    let mut out = HashSet::new();
    walk(root.n, |n| {
        let n = root.at(n);
        match n.kind() {
            "variable_declarator" if !top.contains(&n.n.id()) => {
                if let Some(p) = n.field("name") {
                    pattern_names(p, &mut out);
                }
            }
            "function_declaration"
            | "generator_function_declaration"
            | "class_declaration"
            | "enum_declaration"
                if !top.contains(&n.n.id()) =>
            {
                if let Some(p) = n.field("name") {
                    out.insert(p.text());
                }
            }
            k if is_function_kind(k) => {
                if let Some(p) = n.field("parameters").or_else(|| n.field("parameter")) {
                    pattern_names(p, &mut out);
                }
            }
            "for_in_statement" => {
                if let Some(p) = n.field("left") {
                    pattern_names(p, &mut out);
                }
            }
            "catch_clause" => {
                if let Some(p) = n.field("parameter") {
                    pattern_names(p, &mut out);
                }
            }
            _ => {}
        }
    });
    out
}

/// Every identifier a binding pattern (or parameter list) introduces.
fn pattern_names<'t>(p: N<'t>, out: &mut HashSet<&'t str>) {
    let mut stack = vec![p];
    while let Some(p) = stack.pop() {
        match p.kind() {
            "identifier" | "shorthand_property_identifier_pattern" => {
                out.insert(p.text());
            }
            "pair_pattern" => stack.extend(p.field("value")),
            "assignment_pattern" | "object_assignment_pattern" => stack.extend(p.field("left")),
            "required_parameter" | "optional_parameter" => stack.extend(p.field("pattern")),
            "formal_parameters"
            | "object_pattern"
            | "array_pattern"
            | "rest_pattern"
            | "lexical_declaration"
            | "variable_declaration" => stack.extend(p.named()),
            "variable_declarator" => stack.extend(p.field("name")),
            _ => {}
        }
    }
}

/// Whether a binding pattern introduces `name`.
fn pattern_binds(p: N<'_>, name: &str) -> bool {
    match p.kind() {
        "identifier" | "shorthand_property_identifier_pattern" => p.text() == name,
        "required_parameter" | "optional_parameter" => {
            p.field("pattern").is_some_and(|x| pattern_binds(x, name))
        }
        "assignment_pattern" | "object_assignment_pattern" => {
            p.field("left").is_some_and(|x| pattern_binds(x, name))
        }
        "pair_pattern" => p.field("value").is_some_and(|x| pattern_binds(x, name)),
        "object_pattern" | "array_pattern" | "rest_pattern" => {
            p.named().into_iter().any(|c| pattern_binds(c, name))
        }
        "lexical_declaration" | "variable_declaration" => p
            .named()
            .into_iter()
            .any(|d| d.field("name").is_some_and(|x| pattern_binds(x, name))),
        _ => false,
    }
}

/// The key under which a destructuring pattern binds `name` (`{ a }` → `a`, `{ a: name }` →
/// `a`, `[, name]` → `1`); only one level deep.
fn pattern_key(p: N<'_>, name: &str) -> Option<String> {
    match p.kind() {
        "object_pattern" => p.named().into_iter().find_map(|part| match part.kind() {
            "shorthand_property_identifier_pattern" if part.text() == name => Some(name.to_owned()),
            "pair_pattern" => {
                let v = part.field("value")?;
                (v.kind() == "identifier" && v.text() == name)
                    .then(|| {
                        part.field("key")
                            .map(|k| k.text().trim_matches(['"', '\'']).to_owned())
                    })
                    .flatten()
            }
            _ => None,
        }),
        "array_pattern" => p
            .named()
            .into_iter()
            .position(|c| c.kind() == "identifier" && c.text() == name)
            .map(|i| i.to_string()),
        _ => None,
    }
}

/// `__exportStar(require("./x"), exports)` / `tslib.__exportStar(...)`: a star re-export.
fn cjs_star(e: N<'_>) -> Option<String> {
    if e.kind() != "call_expression" {
        return None;
    }
    let f = e.field("function")?.peel();
    if f.callee_name()? != "__exportStar" && f.callee_name()? != "__reExport" {
        return None;
    }
    let first = e.field("arguments")?.named().into_iter().next()?.peel();
    if first.kind() != "call_expression" || first.field("function")?.text() != "require" {
        return None;
    }
    string_literal(*first.field("arguments")?.named().first()?)
}

/// Environments one registration is evaluated under, at most (a loop over a long list).
const MAX_CONTEXTS: usize = 2000;

/// How deep contexts nest (a loop in a wrapper called from a loop …).
const MAX_NESTING: usize = 6;

/// Call sites of one wrapper that are followed, at most.
const MAX_CALL_SITES: usize = 400;

/// The environments `n` runs under: one per item of each enclosing loop or iterating
/// callback, one per call site of an enclosing function that is called in the project.
/// `[None]` when nothing around it binds anything.
pub(super) fn contexts<'a>(cx: &Cx<'a>, n: N<'a>, depth: usize, total: &mut usize) -> Vec<Env<'a>> {
    let Some(_nest) = cx.enter() else {
        return vec![None];
    };
    if depth > MAX_NESTING || *total > MAX_CONTEXTS {
        return vec![None];
    }
    let mut cur = n.parent();
    let mut child = n;
    while let Some(p) = cur {
        match p.kind() {
            "for_in_statement" if p.field("body").is_some_and(|b| b.same(&child)) => {
                let (Some(left), Some(right)) = (p.field("left"), p.field("right")) else {
                    return vec![None];
                };
                let of = p.field("operator").is_some_and(|o| o.text() == "of");
                let mut out = Vec::new();
                for env in contexts(cx, p, depth + 1, total) {
                    let items = if of {
                        cx.list_of(Val::Node(right, env.clone()), 0)
                    } else {
                        cx.list_of(Val::Node(right, env.clone()), 0)
                            .map(|l| (0..l.len()).map(|i| Val::Str(i.to_string())).collect())
                    };
                    for item in items.unwrap_or_default() {
                        *total += 1;
                        if *total > MAX_CONTEXTS {
                            break;
                        }
                        out.push(bind_left(cx, left, item, &env));
                    }
                }
                return if out.is_empty() { vec![None] } else { out };
            }
            k if is_function_kind(k) => {
                if let Some((call, obj)) = iterating_callback(p) {
                    let mut out = Vec::new();
                    for env in contexts(cx, call, depth + 1, total) {
                        let items = cx
                            .list_of(Val::Node(obj, env.clone()), 0)
                            .unwrap_or_default();
                        for (i, item) in items.into_iter().enumerate() {
                            *total += 1;
                            if *total > MAX_CONTEXTS {
                                break;
                            }
                            out.push(cx.bind_params(p, &env, &[item, Val::Str(i.to_string())]));
                        }
                    }
                    return if out.is_empty() { vec![None] } else { out };
                }
                let Some((name, method)) = function_name(p) else {
                    return vec![None];
                };
                let mut out = Vec::new();
                for site in call_sites(cx, p, name, method) {
                    let args: Vec<Val<'a>> = site
                        .field("arguments")
                        .map(|a| a.named())
                        .unwrap_or_default()
                        .into_iter()
                        .collect::<Vec<_>>()
                        .into_iter()
                        .map(|a| Val::Node(a, None))
                        .collect();
                    for env in contexts(cx, site, depth + 1, total) {
                        *total += 1;
                        if *total > MAX_CONTEXTS {
                            break;
                        }
                        let args: Vec<Val<'a>> = args
                            .iter()
                            .map(|a| match a {
                                Val::Node(n, _) => Val::Node(*n, env.clone()),
                                other => other.clone(),
                            })
                            .collect();
                        out.push(cx.bind_params(p, &None, &args));
                    }
                }
                return if out.is_empty() { vec![None] } else { out };
            }
            "class_body" | "program" => return vec![None],
            _ => {}
        }
        child = p;
        cur = p.parent();
    }
    vec![None]
}

/// `for (const t of …)` / `for (const [k, v] of …)` / `for (t of …)`.
fn bind_left<'a>(cx: &Cx<'a>, left: N<'a>, item: Val<'a>, env: &Env<'a>) -> Env<'a> {
    let target = match left.kind() {
        "lexical_declaration" | "variable_declaration" => left
            .named()
            .into_iter()
            .find(|d| d.kind() == "variable_declarator")
            .and_then(|d| d.field("name"))
            .unwrap_or(left),
        _ => left,
    };
    cx.bind_pattern(target, Some(item), env)
}

/// A function passed to `list.forEach/map/flatMap/filter/some/every`: the call and the list.
fn iterating_callback(f: N<'_>) -> Option<(N<'_>, N<'_>)> {
    let args = f.parent().filter(|a| a.kind() == "arguments")?;
    let call = args.parent().filter(|c| c.kind() == "call_expression")?;
    let callee = call.field("function")?.peel();
    if callee.kind() != "member_expression" {
        return None;
    }
    let method = callee.field("property")?.text();
    matches!(
        method,
        "forEach" | "map" | "flatMap" | "filter" | "some" | "every"
    )
    .then(|| callee.field("object").map(|o| (call, o)))
    .flatten()
}

/// A function's name and whether it is a method (`function f`, `const f = () =>`, `f() {}`).
fn function_name(f: N<'_>) -> Option<(&str, bool)> {
    match f.kind() {
        "function_declaration" | "generator_function_declaration" => {
            Some((f.field("name")?.text(), false))
        }
        "method_definition" => Some((f.field("name")?.text(), true)),
        _ => {
            let p = f.parent()?;
            match p.kind() {
                "variable_declarator" => Some((p.field("name")?.text(), false)),
                // `s.registerOnce = (name, …) => …`
                "assignment_expression" => {
                    let left = p.field("left")?;
                    match left.kind() {
                        "member_expression" => Some((left.field("property")?.text(), true)),
                        "identifier" => Some((left.text(), false)),
                        _ => None,
                    }
                }
                "pair" => Some((p.field("key")?.text(), true)),
                "public_field_definition" => Some((p.field("name")?.text(), true)),
                _ => None,
            }
        }
    }
}

/// Calls of function `f` named `name` in the project: plain calls anywhere a module mentions
/// it; method calls on `this` in the same module, or on anything when the name says "tool".
fn call_sites<'a>(cx: &Cx<'a>, f: N<'a>, name: &str, method: bool) -> Vec<N<'a>> {
    if name.len() < 3
        || name == "constructor"
        || (method && matches!(name, "tool" | "registerTool" | "addTool"))
    {
        return Vec::new();
    }
    let toolish = name.to_ascii_lowercase().contains("tool");
    let mut modules: Vec<&'a Module> = vec![f.m];
    if !method || toolish {
        for m in cx.loader.callers(name) {
            if !std::ptr::eq(m, f.m) {
                modules.push(m);
            }
        }
    }
    let mut out = Vec::new();
    for m in modules {
        let root = m.root();
        walk(root.n, |n| {
            if out.len() >= MAX_CALL_SITES || n.kind() != "call_expression" {
                return;
            }
            let call = root.at(n);
            let Some(callee) = call.field("function").map(|c| c.peel()) else {
                return;
            };
            let matches = match callee.kind() {
                "identifier" => !method && callee.text() == name,
                "member_expression" => {
                    callee.field("property").is_some_and(|p| p.text() == name)
                        && (toolish
                            || (std::ptr::eq(m, f.m)
                                && callee.field("object").is_some_and(|o| o.kind() == "this")))
                }
                _ => false,
            };
            // Not a call from inside the function itself (recursion).
            let inside = f.n.start_byte() <= n.start_byte()
                && n.end_byte() <= f.n.end_byte()
                && std::ptr::eq(m, f.m);
            if matches && !inside {
                out.push(call);
            }
        });
    }
    out
}
