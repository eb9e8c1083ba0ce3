//! A parsed module and a node that knows which module it is in, so that values can be followed
//! across files (`import`, `require`, re-exports) without losing their source text.

use std::path::PathBuf;

use tree_sitter::{Node, Parser, Tree};

use super::Dialect;

/// Nesting deeper than this is treated as unresolved (keeps recursion bounded on any input).
pub(super) const MAX_DEPTH: usize = 64;

/// One parsed JavaScript or TypeScript file.
pub struct Module {
    /// The file as shown in origins and findings (relative to the scan root).
    pub file: String,
    /// Where it is on disk, to resolve its relative imports; `None` for text given directly.
    pub path: Option<PathBuf>,
    /// The text the tree was parsed from (a `.ts` file's angle-bracket casts blanked).
    pub src: String,
    tree: Tree,
}

impl std::fmt::Debug for Module {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Module")
            .field("file", &self.file)
            .finish_non_exhaustive()
    }
}

impl Module {
    /// Parse `source`; `None` if the grammar cannot be loaded or the parser gives up.
    pub fn parse(
        file: &str,
        path: Option<PathBuf>,
        source: &str,
        dialect: Dialect,
    ) -> Option<Module> {
        let mut parser = Parser::new();
        parser.set_language(dialect.language()).ok()?;
        let (tree, src) = if dialect == Dialect::TypeScript {
            super::super::ts_casts::parse(&mut parser, source)?
        } else {
            (parser.parse(source, None)?, source.to_owned())
        };
        Some(Module {
            file: file.to_owned(),
            path,
            src,
            tree,
        })
    }

    /// The module's root node.
    pub(super) fn root(&self) -> N<'_> {
        N {
            m: self,
            n: self.tree.root_node(),
        }
    }
}

/// A syntax node together with its module.
#[derive(Clone, Copy)]
pub(super) struct N<'a> {
    pub m: &'a Module,
    pub n: Node<'a>,
}

impl<'a> N<'a> {
    pub fn kind(&self) -> &'a str {
        self.n.kind()
    }

    pub fn text(&self) -> &'a str {
        self.m.src.get(self.n.byte_range()).unwrap_or("")
    }

    pub fn field(&self, name: &str) -> Option<N<'a>> {
        self.n.child_by_field_name(name).map(|n| self.at(n))
    }

    pub fn at(&self, n: Node<'a>) -> N<'a> {
        N { m: self.m, n }
    }

    /// Named children, comments left out.
    pub fn named(&self) -> Vec<N<'a>> {
        let mut c = self.n.walk();
        self.n
            .named_children(&mut c)
            .filter(|c| c.kind() != "comment")
            .map(|n| N { m: self.m, n })
            .collect()
    }

    pub fn parent(&self) -> Option<N<'a>> {
        self.n.parent().map(|n| self.at(n))
    }

    /// 1-based line.
    pub fn line(&self) -> u32 {
        u32::try_from(self.n.start_position().row.saturating_add(1)).unwrap_or(u32::MAX)
    }

    /// 1-based column in characters.
    pub fn column(&self) -> u32 {
        let p = self.n.start_position();
        let line_start = self.n.start_byte().saturating_sub(p.column);
        let col = self
            .m
            .src
            .get(line_start..self.n.start_byte())
            .map_or(p.column, |s| s.chars().count());
        u32::try_from(col.saturating_add(1)).unwrap_or(u32::MAX)
    }

    pub fn same(&self, other: &N<'_>) -> bool {
        std::ptr::eq(self.m, other.m) && self.n.id() == other.n.id()
    }

    /// Strip parentheses and type-only wrappers (`x as T`, `x satisfies T`, `x!`, `await x`,
    /// `(0, f)`); a `<T>x` cast is blanked before parsing.
    pub fn peel(self) -> N<'a> {
        let mut n = self;
        for _ in 0..MAX_DEPTH {
            let inner = match n.kind() {
                "parenthesized_expression"
                | "as_expression"
                | "satisfies_expression"
                | "non_null_expression"
                | "await_expression"
                | "type_assertion" => n.named().first().copied(),
                "sequence_expression" => n.named().last().copied(),
                _ => None,
            };
            match inner {
                Some(i) => n = i,
                None => break,
            }
        }
        n
    }

    /// The name of a property access or of an identifier (`a.b.c` → `c`, `f` → `f`).
    pub fn callee_name(&self) -> Option<&'a str> {
        let f = self.peel();
        match f.kind() {
            "identifier" => Some(f.text()),
            "member_expression" => f.field("property").map(|p| p.text()),
            _ => None,
        }
    }
}

/// The string body of a string literal node (quotes stripped, escapes decoded).
pub(super) fn string_literal(n: N<'_>) -> Option<String> {
    if n.kind() != "string" {
        return None;
    }
    let t = n.text();
    let q = t.chars().next()?;
    let inner = t.strip_prefix(q)?.strip_suffix(q)?;
    Some(super::unescape_js(inner))
}
