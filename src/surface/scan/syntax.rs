//! Tree-sitter helpers shared by the code recognizers: an iterative walk and named children.

use tree_sitter::Node;

/// Visit every node in document order, without recursion (deep files cannot overflow).
pub(super) fn walk<'t>(root: Node<'t>, mut f: impl FnMut(Node<'t>)) {
    let mut c = root.walk();
    loop {
        f(c.node());
        if c.goto_first_child() {
            continue;
        }
        loop {
            if c.goto_next_sibling() {
                break;
            }
            if !c.goto_parent() {
                return;
            }
        }
    }
}

/// Named children, comments left out.
pub(super) fn named(n: Node<'_>) -> Vec<Node<'_>> {
    let mut c = n.walk();
    n.named_children(&mut c)
        .filter(|c| c.kind() != "comment")
        .collect()
}
