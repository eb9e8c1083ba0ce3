//! Registration and listing places of a Python MCP server, and the tools each yields:
//! `@x.tool(...)` (and custom decorators that delegate to it), `x.add_tool(fn, ...)`,
//! `x.tool(...)(fn)`, `x.tool(fn)`, `Tool.from_function(fn, ...)`, each also inside loops over
//! known lists and dicts; and the low-level SDK's `@server.list_tools()` handlers, whose
//! `Tool(...)` objects are read wherever the handler (or a local function it calls) builds them.

use std::collections::HashSet;

use serde_json::{Map, Value};
use tree_sitter::Node;

use super::eval::{Bound, Env, truthy};
use super::{BUDGET, Cx, line_of, typed, unwrap};
use crate::surface::scan::syntax::{named, walk};
use crate::surface::{Confidence, Tool};

/// Environments one place is read under, at most (a loop over a long list).
const MAX_CONTEXTS: usize = 2000;

/// Local functions a `list_tools` handler is followed into, at most.
const MAX_FUNCTIONS: usize = 64;

/// Nodes a custom decorator's body is searched for a `.tool(` call, at most.
const MAX_DECORATOR_NODES: usize = 20_000;

/// What a registration decorator is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Deco {
    /// `@x.tool(...)`, or an alias of `x.tool`: its arguments are the SDK's.
    Tool,
    /// A local decorator that delegates to `x.tool`: only its `name=` / `description=` read.
    Custom,
    /// `@x.list_tools()`.
    List,
}

/// How a tool's registration arguments are laid out.
#[derive(Clone, Copy)]
struct Args<'a> {
    /// The argument list (of `@x.tool(...)`, `x.add_tool(...)`, ...), if any.
    list: Option<Node<'a>>,
    /// The first positional argument is the function, not the name.
    skip_first: bool,
    /// Only keyword `name=` / `description=` are the SDK's (a custom decorator).
    custom: bool,
}

/// What registration arguments say.
#[derive(Default)]
struct ToolArgs {
    name: Option<String>,
    description: Option<String>,
    title: Option<String>,
    annotations: Option<Value>,
}

/// One tool read, or a place that could not be.
enum Read {
    Tool(Box<Tool>),
    Unresolved(u32, String),
}

impl<'a> Cx<'a> {
    pub(super) fn add_def(&mut self, d: Node<'a>) {
        if let Some(n) = d.child_by_field_name("name") {
            self.defs.entry(self.text(n)).or_insert(d);
        }
    }

    /// `class Name(str, Enum)` / `(StrEnum)` / `(Enum)` and its `MEMBER = value`s.
    pub(super) fn add_enum(&mut self, c: Node<'a>) {
        let (Some(name), Some(bases), Some(body)) = (
            c.child_by_field_name("name"),
            c.child_by_field_name("superclasses"),
            c.child_by_field_name("body"),
        ) else {
            return;
        };
        let bases: Vec<&str> = named(bases)
            .into_iter()
            .map(|b| self.base_name(b))
            .collect();
        if !bases.iter().any(|b| b.ends_with("Enum")) {
            return;
        }
        let is_str = bases.iter().any(|b| matches!(*b, "str" | "StrEnum"));
        let mut members = std::collections::HashMap::new();
        for s in named(body) {
            let Some(a) = named(s)
                .first()
                .copied()
                .filter(|a| a.kind() == "assignment")
            else {
                continue;
            };
            if let (Some(l), Some(r)) = (
                a.child_by_field_name("left"),
                a.child_by_field_name("right"),
            ) && l.kind() == "identifier"
            {
                members.insert(self.text(l), r);
            }
        }
        self.enums.insert(self.text(name), (is_str, members));
    }

    /// `from x import a, b as c`: `a` (an aliased name is not the function's own name).
    pub(super) fn add_import(&mut self, i: Node<'a>) {
        let module = i.child_by_field_name("module_name").map(|m| self.text(m));
        let mut c = i.walk();
        for n in i.children_by_field_name("name", &mut c) {
            let (orig, local) = match n.kind() {
                "dotted_name" => {
                    self.imports.insert(self.text(n));
                    (n, n)
                }
                "aliased_import" => match (
                    n.child_by_field_name("name"),
                    n.child_by_field_name("alias"),
                ) {
                    (Some(o), Some(l)) => (o, l),
                    _ => continue,
                },
                _ => continue,
            };
            if let Some(m) = module {
                self.relative.insert(self.text(local), (m, self.text(orig)));
            }
        }
    }

    /// `FastMCP(...)`, `MCPServer(...)`, `Server(...)`: where the server is created.
    pub(super) fn creates_server(&self, c: Node<'a>) -> bool {
        c.child_by_field_name("function")
            .is_some_and(|f| matches!(self.base_name(f), "FastMCP" | "MCPServer" | "Server"))
    }

    /// What the decorator callee `callee` registers, if it registers anything.
    fn decorator_kind(&self, callee: Node<'a>) -> Option<Deco> {
        match callee.kind() {
            "attribute" => {
                let attr = self.text(callee.child_by_field_name("attribute")?);
                match attr {
                    "tool" => Some(Deco::Tool),
                    "list_tools" => Some(Deco::List),
                    _ => self
                        .defs
                        .get(attr)
                        .is_some_and(|d| self.delegates(*d, 0))
                        .then_some(Deco::Custom),
                }
            }
            "identifier" => {
                if self.is_tool_alias(callee) {
                    return Some(Deco::Tool);
                }
                let delegates = match self.defs.get(self.text(callee)) {
                    Some(d) => self.delegates(*d, 0),
                    // `from .decorators import tool`
                    None => self.foreign_delegates(self.text(callee)),
                };
                delegates.then_some(Deco::Custom)
            }
            _ => None,
        }
    }

    /// An identifier bound to `<x>.tool` (`_mcp_tool = _mcp_runtime.tool`).
    fn is_tool_alias(&self, n: Node<'a>) -> bool {
        n.kind() == "identifier"
            && self.resolve(n).is_some_and(|v| {
                v.kind() == "attribute"
                    && v.child_by_field_name("attribute")
                        .is_some_and(|a| self.text(a) == "tool")
            })
    }

    /// Whether the local function `d` calls `<x>.tool(...)` (directly, through an alias, or
    /// through another local function that does): a custom tool decorator.
    pub(super) fn delegates(&self, d: Node<'a>, depth: usize) -> bool {
        if depth > 3 {
            return false;
        }
        if let Some(v) = self.delegating.borrow().get(&d.id()) {
            return *v;
        }
        self.delegating.borrow_mut().insert(d.id(), false);
        let Some(body) = d.child_by_field_name("body") else {
            return false;
        };
        let mut found = false;
        let mut seen = 0usize;
        let mut calls = Vec::new();
        walk(body, |n| {
            seen += 1;
            if seen < MAX_DECORATOR_NODES && n.kind() == "call" {
                calls.push(n);
            }
        });
        for c in calls {
            let Some(f) = c.child_by_field_name("function") else {
                continue;
            };
            let hit = match f.kind() {
                "attribute" => f
                    .child_by_field_name("attribute")
                    .is_some_and(|a| self.text(a) == "tool"),
                "identifier" => {
                    self.is_tool_alias(f)
                        || self
                            .defs
                            .get(self.text(f))
                            .is_some_and(|g| g.id() != d.id() && self.delegates(*g, depth + 1))
                }
                _ => false,
            };
            if hit {
                found = true;
                break;
            }
        }
        self.delegating.borrow_mut().insert(d.id(), found);
        found
    }

    /// Whether the custom decorator `callee` (called with `list`) registers `def` only under a
    /// condition known to be false by default (`if agentic_tool_allowed(fn.__name__):`).
    fn custom_skips(&self, callee: Node<'a>, list: Option<Node<'a>>, def: Node<'a>) -> bool {
        let name = match callee.kind() {
            "attribute" => callee
                .child_by_field_name("attribute")
                .map(|a| self.text(a)),
            _ => Some(self.text(callee)),
        };
        let (Some(deco), Some(fname)) = (
            name.and_then(|n| self.defs.get(n)).copied(),
            def.child_by_field_name("name").map(|n| self.text(n)),
        ) else {
            return false;
        };
        let mut hit = None;
        let mut seen = 0usize;
        walk(deco, |n| {
            seen += 1;
            if hit.is_none()
                && seen < MAX_DECORATOR_NODES
                && n.kind() == "call"
                && n.child_by_field_name("function").is_some_and(|f| {
                    self.is_tool_alias(f)
                        || (f.kind() == "attribute"
                            && f.child_by_field_name("attribute")
                                .is_some_and(|a| self.text(a) == "tool"))
                })
            {
                hit = Some(n);
            }
        });
        let Some(hit) = hit else {
            return false;
        };
        // The functions and `if`s from the decorator down to the registration.
        let mut chain = Vec::new();
        let mut child = hit;
        let mut p = hit.parent();
        while let Some(x) = p {
            chain.push((x, child));
            if x.id() == deco.id() {
                break;
            }
            child = x;
            p = x.parent();
        }
        chain.reverse();
        self.budget.set(BUDGET);
        let mut env: Env<'a> = Env::new();
        let kwargs: Vec<Node<'a>> = list
            .map(named)
            .unwrap_or_default()
            .into_iter()
            .filter(|a| a.kind() == "keyword_argument")
            .collect();
        let mut first_def = true;
        for (x, inner) in chain {
            match x.kind() {
                "function_definition" => {
                    let params = x
                        .child_by_field_name("parameters")
                        .map(named)
                        .unwrap_or_default();
                    for prm in params {
                        let pn = match prm.kind() {
                            "identifier" => Some(prm),
                            "typed_parameter" => named(prm).first().copied(),
                            "default_parameter" | "typed_default_parameter" => {
                                prm.child_by_field_name("name")
                            }
                            _ => None,
                        };
                        let Some(pn) = pn
                            .filter(|n| n.kind() == "identifier")
                            .map(|n| self.text(n))
                        else {
                            continue;
                        };
                        if first_def {
                            let given = kwargs.iter().find_map(|a| {
                                (a.child_by_field_name("name").map(|k| self.text(k)) == Some(pn))
                                    .then(|| a.child_by_field_name("value"))
                                    .flatten()
                            });
                            if let Some(v) = given.and_then(|v| self.eval(v, &Env::new(), 0)) {
                                env.push((pn, Bound::V(v)));
                            }
                        } else {
                            // The inner function's first parameter is the decorated function.
                            env.push((pn, Bound::Fn(fname)));
                            break;
                        }
                    }
                    first_def = false;
                }
                "block" => {
                    // Simple assignments before the statement that leads to the registration.
                    for st in named(x) {
                        if st.id() == inner.id() {
                            break;
                        }
                        let Some(a) = named(st)
                            .first()
                            .copied()
                            .filter(|a| a.kind() == "assignment")
                        else {
                            continue;
                        };
                        if let (Some(l), Some(r)) = (
                            a.child_by_field_name("left"),
                            a.child_by_field_name("right"),
                        ) && l.kind() == "identifier"
                            && let Some(v) = self.eval(r, &env, 0)
                        {
                            env.push((self.text(l), Bound::V(v)));
                        }
                    }
                }
                "if_statement" => {
                    let in_then = x
                        .child_by_field_name("consequence")
                        .is_some_and(|c| c.id() == inner.id());
                    let in_else = inner.kind() == "else_clause";
                    if !(in_then || in_else) {
                        continue;
                    }
                    let cond = x
                        .child_by_field_name("condition")
                        .and_then(|c| self.eval(c, &env, 0));
                    if let Some(c) = cond
                        && truthy(&c) != in_then
                    {
                        return true;
                    }
                }
                _ => {}
            }
        }
        false
    }

    /// Names used as decorators anywhere in the file.
    fn used_as_decorator(&self, name: &str) -> bool {
        self.decorator_names.contains(name)
    }

    /// Inside a custom decorator's own body (`def tool(**kw): def deco(fn): return
    /// mcp.tool(**kw)(fn)`): the registration there is read at the decorator's uses.
    fn inside_custom_decorator(&self, n: Node<'a>) -> bool {
        let mut p = n.parent();
        while let Some(x) = p {
            if x.kind() == "function_definition"
                && x.child_by_field_name("name")
                    .is_some_and(|f| self.used_as_decorator(self.text(f)))
                && self.delegates(x, 0)
            {
                return true;
            }
            p = x.parent();
        }
        false
    }

    fn unresolved(&mut self, line: u32, what: &str) {
        self.seen.unresolved.push((line, what.to_owned()));
    }

    /// A decorated function: a tool, a `list_tools` handler, or neither.
    pub(super) fn decorated(&mut self, d: Node<'a>, tools: &mut Vec<Tool>) {
        self.budget.set(BUDGET);
        let Some(def) = d
            .child_by_field_name("definition")
            .filter(|f| f.kind() == "function_definition")
        else {
            return;
        };
        if self.inside_custom_decorator(d) {
            return;
        }
        for dec in named(d).into_iter().filter(|n| n.kind() == "decorator") {
            let Some(e) = named(dec).first().copied() else {
                continue;
            };
            let (callee, list) = match e.kind() {
                "call" => match e.child_by_field_name("function") {
                    Some(f) => (f, e.child_by_field_name("arguments")),
                    None => continue,
                },
                _ => (e, None),
            };
            let Some(kind) = self.decorator_kind(callee) else {
                continue;
            };
            if kind == Deco::List {
                self.list_handler(def, tools);
                return;
            }
            self.seen.sites += 1;
            if kind == Deco::Custom && self.custom_skips(callee, list, def) {
                return;
            }
            let args = Args {
                list,
                skip_first: false,
                custom: kind == Deco::Custom,
            };
            let what = format!("`@{}(name=…)`", self.text(callee));
            match self.fn_tool(def, args, &Env::new(), &what) {
                Read::Tool(t) => tools.push(*t),
                Read::Unresolved(line, what) => self.unresolved(line, &what),
            }
            return;
        }
    }

    /// A call that registers a function: `x.add_tool(fn, ...)`, `x.tool(...)(fn)`,
    /// `x.tool(fn)`; followed through enclosing loops.
    pub(super) fn call_site(&mut self, c: Node<'a>, tools: &mut Vec<Tool>) {
        self.budget.set(BUDGET);
        let Some(f) = c.child_by_field_name("function") else {
            return;
        };
        let Some(outer) = c.child_by_field_name("arguments") else {
            return;
        };
        let first_pos = named(outer)
            .into_iter()
            .find(|a| !matches!(a.kind(), "keyword_argument" | "comment"));
        let attr = |n: Node<'a>| {
            (n.kind() == "attribute")
                .then(|| n.child_by_field_name("attribute"))
                .flatten()
                .map(|a| self.text(a))
        };
        let is_tool_callee = |n: Node<'a>| attr(n) == Some("tool") || self.is_tool_alias(n);
        if matches!(attr(f), Some("from_openapi" | "from_fastapi")) {
            // `FastMCP.from_openapi(...)`: the tools come from a spec read at run time.
            self.seen.sites += 1;
            let what = format!("`{}(…)`: tools generated at run time", self.text(f));
            self.unresolved(line_of(c), &what);
            return;
        }
        let (fn_node, args, what) = if attr(f) == Some("add_tool") {
            let Some(fnode) = first_pos else { return };
            (
                fnode,
                Args {
                    list: Some(outer),
                    skip_first: true,
                    custom: false,
                },
                format!("`{}(…)`", self.text(f)),
            )
        } else if f.kind() == "call"
            && f.child_by_field_name("function")
                .is_some_and(is_tool_callee)
        {
            // `x.tool(...)(fn)`
            let Some(fnode) = first_pos else { return };
            (
                fnode,
                Args {
                    list: f.child_by_field_name("arguments"),
                    skip_first: false,
                    custom: false,
                },
                format!(
                    "`{}(…)(fn)`",
                    self.text(f.child_by_field_name("function").unwrap_or(f))
                ),
            )
        } else if is_tool_callee(f)
            && first_pos.is_some_and(|a| unwrap(a).kind() == "identifier")
            && !c.parent().is_some_and(|p| {
                p.kind() == "decorator"
                    || (p.kind() == "call"
                        && p.child_by_field_name("function")
                            .is_some_and(|pf| pf.id() == c.id()))
            })
        {
            // `x.tool(fn)` (FastMCP 2.x).
            let Some(fnode) = first_pos else { return };
            (
                fnode,
                Args {
                    list: Some(outer),
                    skip_first: true,
                    custom: false,
                },
                format!("`{}(fn)`", self.text(f)),
            )
        } else {
            return;
        };
        if self.inside_custom_decorator(c) {
            return;
        }
        self.seen.sites += 1;
        let line = line_of(c);
        let envs = match self.loop_envs(c) {
            Ok(e) => e,
            Err(()) => {
                self.unresolved(
                    line,
                    &format!("{what} in a loop over a list the scan cannot read"),
                );
                return;
            }
        };
        for env in envs {
            self.budget.set(BUDGET);
            match self.registered(fn_node, args, &env, &what, line) {
                Read::Tool(t) => tools.push(*t),
                Read::Unresolved(line, what) => self.unresolved(line, &what),
            }
        }
    }

    /// The tool `fn_node` (a function, or a `Tool.from_function(fn, ...)`) registers.
    fn registered(
        &mut self,
        fn_node: Node<'a>,
        args: Args<'a>,
        env: &Env<'a>,
        what: &str,
        line: u32,
    ) -> Read {
        if let Some(def) = self.function_of(fn_node, env, 0) {
            return self.fn_tool(def, args, env, what);
        }
        // A function of another module, bound by a loop or imported by name.
        let bound = match unwrap(fn_node) {
            n if n.kind() == "identifier" => match Self::lookup(env, self.text(n)) {
                Some(Bound::Tool(t)) => Some((**t).clone()),
                Some(Bound::N(x)) if unwrap(*x).kind() == "identifier" => {
                    self.foreign_tool(self.text(unwrap(*x)))
                }
                Some(_) => None,
                None => self.foreign_tool(self.text(n)),
            },
            _ => None,
        };
        if let Some(mut t) = bound {
            self.low = t.confidence == Confidence::Low;
            return match self.tool_args(args, env) {
                Ok(a) => {
                    if let Some(n) = a.name {
                        t.name = n;
                    }
                    t.description = a.description.or(t.description);
                    t.title = a.title.or(t.title);
                    t.annotations = a.annotations.or(t.annotations);
                    if self.low {
                        t.confidence = Confidence::Low;
                    }
                    Read::Tool(Box::new(t))
                }
                Err(line) => Read::Unresolved(line, what.to_owned()),
            };
        }
        // `tool = Tool.from_function(fn, name=...)`, then `mcp.add_tool(tool)`.
        if let Some(call) = self.tool_from_function(fn_node, env) {
            let inner = call.child_by_field_name("arguments").and_then(|a| {
                named(a)
                    .into_iter()
                    .find(|x| x.kind() != "keyword_argument")
            });
            if let Some(def) = inner.and_then(|i| self.function_of(i, env, 0)) {
                let args = Args {
                    list: call.child_by_field_name("arguments"),
                    skip_first: true,
                    custom: false,
                };
                return self.fn_tool(def, args, env, what);
            }
        }
        if let Some(name) = self.imported_name(fn_node, env, 0) {
            // Imported from another module: its own name is what is served, unless renamed.
            return match self.tool_args(args, env) {
                Ok(a) => {
                    let mut t = Tool::named(
                        a.name.as_deref().unwrap_or(name),
                        self.origin(fn_node),
                        Confidence::Low,
                    );
                    t.description = a.description;
                    Read::Tool(Box::new(t))
                }
                Err(line) => Read::Unresolved(line, what.to_owned()),
            };
        }
        Read::Unresolved(line, format!("{what} of a function the scan cannot find"))
    }

    /// The `Tool.from_function(...)` call `n` is bound to, if it is.
    fn tool_from_function(&self, n: Node<'a>, env: &Env<'a>) -> Option<Node<'a>> {
        let n = unwrap(n);
        let v = match n.kind() {
            "call" => n,
            "identifier" => match Self::lookup(env, self.text(n)) {
                Some(Bound::N(x)) => *x,
                Some(_) => return None,
                None => self.resolve(n)?,
            },
            _ => return None,
        };
        (v.kind() == "call"
            && v.child_by_field_name("function")
                .is_some_and(|f| self.base_name(f) == "from_function"))
        .then_some(v)
    }

    /// The environments the enclosing loops and comprehensions (up to the enclosing function)
    /// run `n` under; `Err` when one iterates over something not known statically.
    fn loop_envs(&self, n: Node<'a>) -> Result<Vec<Env<'a>>, ()> {
        let mut loops: Vec<(Node<'a>, Node<'a>, Vec<Node<'a>>)> = Vec::new();
        let mut child = n;
        let mut p = n.parent();
        while let Some(x) = p {
            match x.kind() {
                "function_definition" | "lambda" | "class_definition" => break,
                "for_statement" => {
                    if x.child_by_field_name("body")
                        .is_some_and(|b| b.id() == child.id())
                        && let (Some(l), Some(r)) = (
                            x.child_by_field_name("left"),
                            x.child_by_field_name("right"),
                        )
                    {
                        loops.push((l, r, Vec::new()));
                    }
                }
                "list_comprehension"
                | "generator_expression"
                | "set_comprehension"
                | "dictionary_comprehension"
                    if x.child_by_field_name("body")
                        .is_some_and(|b| b.id() == child.id()) =>
                {
                    let parts = named(x);
                    let ifs: Vec<Node<'a>> = parts
                        .iter()
                        .copied()
                        .filter(|c| c.kind() == "if_clause")
                        .collect();
                    for c in parts.iter().rev().filter(|c| c.kind() == "for_in_clause") {
                        if let (Some(l), Some(r)) = (
                            c.child_by_field_name("left"),
                            c.child_by_field_name("right"),
                        ) {
                            loops.push((l, r, ifs.clone()));
                        }
                    }
                }
                _ => {}
            }
            child = x;
            p = x.parent();
        }
        let mut envs = vec![Env::new()];
        for (left, right, ifs) in loops.into_iter().rev() {
            let mut next = Vec::new();
            for env in &envs {
                let items = self.elements(right, env, 0).ok_or(())?;
                for item in items {
                    let mut e = env.clone();
                    self.bind(left, item, &mut e).ok_or(())?;
                    let keep = ifs.iter().all(|i| {
                        named(*i)
                            .first()
                            .and_then(|c| self.eval(*c, &e, 0))
                            .is_none_or(|v| truthy(&v))
                    });
                    if keep {
                        next.push(e);
                    }
                    if next.len() > MAX_CONTEXTS {
                        return Err(());
                    }
                }
            }
            envs = next;
        }
        Ok(envs)
    }

    /// A `@x.list_tools()` handler: every `Tool(...)` it, or a local function it calls, builds.
    fn list_handler(&mut self, def: Node<'a>, tools: &mut Vec<Tool>) {
        let line = line_of(def);
        let mut calls: Vec<Node<'a>> = Vec::new();
        let mut seen_calls = HashSet::new();
        let mut visited = HashSet::new();
        let mut queue = vec![def];
        visited.insert(def.id());
        while let Some(n) = queue.pop() {
            walk(n, |x| match x.kind() {
                "call" => {
                    let Some(f) = x.child_by_field_name("function") else {
                        return;
                    };
                    if self.base_name(f) == "Tool" && matches!(f.kind(), "identifier" | "attribute")
                    {
                        if seen_calls.insert(x.id()) {
                            calls.push(x);
                        }
                    } else if f.kind() == "identifier"
                        && let Some(g) = self.defs.get(self.text(f))
                        && visited.len() < MAX_FUNCTIONS
                        && visited.insert(g.id())
                    {
                        queue.push(*g);
                    }
                }
                "identifier" => {
                    // A module-level list of tools the handler returns or extends from.
                    if let Some(v) = self.resolve(x)
                        && visited.len() < MAX_FUNCTIONS
                        && v.parent()
                            .and_then(|a| a.parent())
                            .is_some_and(|s| s.parent().is_some_and(|m| m.kind() == "module"))
                        && visited.insert(v.id())
                    {
                        queue.push(v);
                    }
                }
                _ => {}
            });
        }
        if calls.is_empty() {
            self.seen.sites += 1;
            self.unresolved(
                line,
                "a `list_tools()` handler whose `Tool(...)`s are built elsewhere",
            );
            return;
        }
        calls.sort_by_key(|c| c.start_byte());
        for c in calls {
            self.seen.sites += 1;
            let cline = line_of(c);
            let Ok(envs) = self.loop_envs(c) else {
                self.unresolved(
                    cline,
                    "`Tool(...)` in a loop over a list the scan cannot read",
                );
                continue;
            };
            for env in envs {
                self.budget.set(BUDGET);
                match self.tool_object(c, &env) {
                    Some(t) => tools.push(t),
                    None => self.unresolved(cline, "`Tool(name=…)` in a `list_tools()` handler"),
                }
            }
        }
    }

    /// A low-level `Tool(name=..., description=..., inputSchema=..., annotations=...)`.
    fn tool_object(&mut self, c: Node<'a>, env: &Env<'a>) -> Option<Tool> {
        self.low = false;
        let mut fields: Vec<(&str, Node<'a>)> = Vec::new();
        let mut splat = Map::new();
        for a in named(c.child_by_field_name("arguments")?) {
            match a.kind() {
                "keyword_argument" => {
                    if let (Some(k), Some(v)) = (
                        a.child_by_field_name("name"),
                        a.child_by_field_name("value"),
                    ) {
                        fields.push((self.text(k), v));
                    }
                }
                "dictionary_splat" => {
                    let v = self.eval(*named(a).first()?, env, 0)?;
                    splat.extend(v.as_object()?.clone());
                }
                _ => {}
            }
        }
        let field = |k: &str| fields.iter().find(|(n, _)| *n == k).map(|(_, v)| *v);
        let (name, origin) = match field("name") {
            Some(v) => (self.eval(v, env, 0)?.as_str()?.to_owned(), self.origin(v)),
            None => (splat.get("name")?.as_str()?.to_owned(), self.origin(c)),
        };
        let mut t = Tool::named(&name, origin, Confidence::Medium);
        let mut read = |key: &str, alt: &str| -> Option<Value> {
            match field(key).or_else(|| field(alt)) {
                Some(v) => {
                    let got = self.eval(v, env, 0);
                    self.low |= got.is_none();
                    got.or_else(|| self.model_schema(v))
                }
                None => splat.get(key).or_else(|| splat.get(alt)).cloned(),
            }
        };
        t.description =
            read("description", "description").and_then(|v| v.as_str().map(str::to_owned));
        t.title = read("title", "title").and_then(|v| v.as_str().map(str::to_owned));
        t.input_schema = read("inputSchema", "input_schema").filter(Value::is_object);
        t.annotations = match field("annotations") {
            Some(v) => {
                let a = self.annotations(v);
                self.low |= a.is_none();
                a
            }
            None => splat.get("annotations").cloned(),
        };
        t.confidence = if self.low {
            Confidence::Low
        } else {
            Confidence::Medium
        };
        Some(t)
    }

    /// `Model.model_json_schema()`: an object schema whose properties are not known.
    fn model_schema(&self, v: Node<'a>) -> Option<Value> {
        let v = unwrap(v);
        (v.kind() == "call"
            && v.child_by_field_name("function")
                .is_some_and(|f| self.base_name(f) == "model_json_schema"))
        .then(|| Value::Object(typed("object")))
    }

    /// The name, description, title and annotations registration arguments give; `Err(line)`
    /// when the name is given but cannot be read.
    fn tool_args(&mut self, args: Args<'a>, env: &Env<'a>) -> Result<ToolArgs, u32> {
        let mut out = ToolArgs::default();
        let mut skip = args.skip_first;
        let mut positional_name = !args.custom;
        for a in args.list.map(named).unwrap_or_default() {
            let (key, v) = match a.kind() {
                "keyword_argument" => match (
                    a.child_by_field_name("name"),
                    a.child_by_field_name("value"),
                ) {
                    (Some(k), Some(v)) => (self.text(k), v),
                    _ => continue,
                },
                "dictionary_splat" | "list_splat" => continue,
                _ if skip => {
                    skip = false;
                    continue;
                }
                _ if positional_name => {
                    positional_name = false;
                    ("name", a)
                }
                _ => continue,
            };
            if args.custom && !matches!(key, "name" | "description") {
                continue;
            }
            match key {
                "name" => match self.eval(v, env, 0) {
                    Some(Value::String(n)) => out.name = Some(n),
                    Some(Value::Null) => {}
                    _ => return Err(line_of(v)),
                },
                "description" => {
                    out.description = match self.eval(v, env, 0) {
                        Some(Value::String(s)) => Some(s),
                        Some(Value::Null) => None,
                        _ => {
                            self.low = true;
                            None
                        }
                    }
                }
                "title" => out.title = self.str_or_low(v),
                "annotations" => {
                    out.annotations = self.annotations(v);
                    self.low |= out.annotations.is_none();
                }
                _ => {}
            }
        }
        Ok(out)
    }

    /// The tool the function `def` defines when registered with no arguments.
    pub(super) fn plain_tool(&mut self, def: Node<'a>) -> Option<Tool> {
        self.budget.set(BUDGET);
        let args = Args {
            list: None,
            skip_first: false,
            custom: false,
        };
        match self.fn_tool(def, args, &Env::new(), "") {
            Read::Tool(t) => Some(*t),
            Read::Unresolved(..) => None,
        }
    }

    /// The tool the function `def` defines when registered with `args`.
    fn fn_tool(&mut self, def: Node<'a>, args: Args<'a>, env: &Env<'a>, what: &str) -> Read {
        let Some(fname) = def.child_by_field_name("name") else {
            return Read::Unresolved(line_of(def), what.to_owned());
        };
        self.low = false;
        let a = match self.tool_args(args, env) {
            Ok(a) => a,
            Err(line) => return Read::Unresolved(line, what.to_owned()),
        };
        let doc = def
            .child_by_field_name("body")
            .and_then(|b| named(b).first().copied())
            .filter(|s| s.kind() == "expression_statement")
            .and_then(|s| named(s).first().copied())
            .filter(|s| matches!(s.kind(), "string" | "concatenated_string"))
            // FastMCP sends `fn.__doc__` as it is (indentation and an `Args:` section
            // included) and no per-parameter descriptions: measure the surface as served.
            .and_then(|s| self.str_of(s, 0))
            .filter(|d| !d.is_empty());
        let mut tool = Tool::named(
            &a.name.unwrap_or_else(|| self.text(fname).to_owned()),
            self.origin(fname),
            Confidence::Medium,
        );
        tool.description = a.description.or(doc);
        tool.title = a.title;
        tool.annotations = a.annotations;
        tool.input_schema = def
            .child_by_field_name("parameters")
            .map(|p| self.params(p, &std::collections::HashMap::new()));
        tool.confidence = if self.low {
            Confidence::Low
        } else {
            Confidence::Medium
        };
        Read::Tool(Box::new(tool))
    }
}

impl<'a> Cx<'a> {
    /// Remember the name a decorator is called by.
    pub(super) fn add_decorator(&mut self, d: Node<'a>) {
        let Some(mut e) = named(d).first().copied() else {
            return;
        };
        if e.kind() == "call"
            && let Some(f) = e.child_by_field_name("function")
        {
            e = f;
        }
        let name = self.base_name(e);
        self.decorator_names.insert(name);
    }
}
