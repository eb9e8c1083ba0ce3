//! TypeScript's angle-bracket casts under the TSX grammar. mf parses every JavaScript and
//! TypeScript file with the one TSX grammar (`code_ts.rs`), which reads `<number>input.limit` as
//! the opening tag of a JSX element that never closes: the rest of the file becomes JSX text and
//! every tool defined after it is lost. A `.ts` file cannot contain JSX, so in one every JSX
//! opening tag is such a cast: [`parse`] blanks it (the cast is type-only, `input.limit` is the
//! value) and parses again, until none is left. Blanking keeps every byte offset, so lines and
//! columns of what is found stay the source's. Generic arrows (`<T>(x: T) => x`) parse as they
//! are and need nothing.

use tree_sitter::{InputEdit, Node, Parser, Point, Tree};

use super::syntax::walk;

/// Casts blanked in one file at most (each costs one incremental re-parse).
const MAX_CASTS: usize = 256;

/// Parse `source` (a `.ts`-family file) with `parser` (set to TSX), blanking angle-bracket casts
/// as needed; the returned text is what the tree was parsed from (`source` itself when it held
/// no cast).
pub(super) fn parse(parser: &mut Parser, source: &str) -> Option<(Tree, String)> {
    let mut text = source.to_owned();
    let mut tree = parser.parse(&text, None)?;
    for _ in 0..MAX_CASTS {
        if !tree.root_node().has_error() {
            break;
        }
        let Some(start) = first_tag(tree.root_node()) else {
            break;
        };
        let Some(end) = cast_end(&text, start) else {
            break;
        };
        let edit = InputEdit {
            start_byte: start,
            old_end_byte: end,
            new_end_byte: end,
            start_position: point(&text, start),
            old_end_position: point(&text, end),
            new_end_position: point(&text, end),
        };
        // ASCII only (checked by `cast_end`): one space per byte keeps offsets and columns.
        text.replace_range(start..end, &" ".repeat(end - start));
        tree.edit(&edit);
        tree = parser.parse(&text, Some(&tree))?;
    }
    Some((tree, text))
}

/// The start of the first JSX opening tag in document order.
fn first_tag(root: Node<'_>) -> Option<usize> {
    let mut first = None;
    walk(root, |n| {
        if first.is_none() && n.kind() == "jsx_opening_element" {
            first = Some(n.start_byte());
        }
    });
    first
}

/// The end of the type in angle brackets at `start` (`<Array<string>>` included), if it is a
/// plausible cast: ASCII, on one line, balanced, under 200 bytes.
fn cast_end(text: &str, start: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    if bytes.get(start) != Some(&b'<') {
        return None;
    }
    let mut depth = 0usize;
    for (i, &b) in bytes.iter().enumerate().skip(start).take(200) {
        match b {
            b'<' => depth += 1,
            // `=>` in a function type is not a closing bracket.
            b'>' if i > 0 && bytes[i - 1] == b'=' => {}
            b'>' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'\n' | b'\r' | b';' => return None,
            b if !b.is_ascii() => return None,
            _ => {}
        }
    }
    None
}

fn point(text: &str, at: usize) -> Point {
    let before = &text.as_bytes()[..at];
    let row = before.iter().filter(|&&b| b == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    Point::new(row, at - line_start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cast_ends_at_the_balanced_bracket() {
        assert_eq!(cast_end("<number>x", 0), Some(8));
        assert_eq!(cast_end("a = <Array<string>>y;", 4), Some(19));
        assert_eq!(cast_end("<(a: number) => void>f", 0), Some(21));
        assert_eq!(cast_end("<div\n>", 0), None);
        assert_eq!(cast_end("<é>x", 0), None);
        assert_eq!(cast_end("x", 0), None);
        assert_eq!(cast_end("<unclosed", 0), None);
    }

    #[test]
    fn points_count_rows_and_bytes() {
        assert_eq!(point("ab\ncd", 4), Point::new(1, 1));
        assert_eq!(point("ab", 0), Point::new(0, 0));
    }
}
