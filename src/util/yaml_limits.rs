//! A cheap pre-scan of YAML text before it reaches the parser. serde_yaml_ng's time grows
//! quadratically with nesting (a 300 KB `[[[[…]]]]` took 24 s), so mf refuses YAML nested deeper
//! than [`MAX_YAML_DEPTH`] — flow collections (`[`/`{`) and block indentation together — before
//! parsing it. The scan never fails on valid shallow YAML: brackets inside quoted strings,
//! comments and plain text are not counted.

/// The deepest nesting mf parses in a YAML document (suites, task sets, SKILL.md front matter).
pub const MAX_YAML_DEPTH: usize = 64;

/// The largest SKILL.md front matter mf parses (it holds `name` and `description`).
pub const MAX_FRONT_MATTER_BYTES: usize = 64 * 1024;

/// `Err(message)` when `text` nests deeper than `max_depth`; the message says where and what to
/// do and quotes nothing from the text.
pub fn check_depth(text: &str, max_depth: usize) -> Result<(), String> {
    let mut indents: Vec<usize> = Vec::new();
    let mut flow = 0usize;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start_matches(' ');
        if flow == 0 {
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let indent = line.len() - trimmed.len();
            while indents.last().is_some_and(|&top| top >= indent) {
                indents.pop();
            }
            indents.push(indent);
            // `- - - x` nests a sequence per dash.
            let mut rest = trimmed;
            let mut dashes = 0;
            while let Some(r) = rest.strip_prefix("- ") {
                dashes += 1;
                rest = r.trim_start_matches(' ');
            }
            if indents.len() + dashes > max_depth {
                return Err(too_deep(i + 1, max_depth));
            }
        }
        let depth_before = indents.len();
        flow = scan_flow(line, flow, depth_before, max_depth)
            .map_err(|()| too_deep(i + 1, max_depth))?;
    }
    Ok(())
}

fn too_deep(line: usize, max: usize) -> String {
    format!(
        "line {line}: YAML nested more than {max} levels deep; mf does not parse it (deep nesting makes YAML parsing slow) — flatten the document"
    )
}

/// Track flow-collection depth across one line. At depth 0 only a bracket that starts a value
/// (after `:`, `-`, `?`, `,` or at the start of the line) opens a collection, so brackets in
/// plain text do not count. Quoted strings and comments are skipped.
fn scan_flow(line: &str, mut flow: usize, block: usize, max: usize) -> Result<usize, ()> {
    let bytes = line.as_bytes();
    let mut prev = b' ';
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let after_gap = matches!(prev, b' ' | b'\t' | b'[' | b'{' | b',' | b':');
        match b {
            b'#' if matches!(prev, b' ' | b'\t') => break,
            b'"' if after_gap => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'\'' if after_gap => {
                i += 1;
                while i < bytes.len() {
                    if bytes[i] == b'\'' {
                        if bytes.get(i + 1) == Some(&b'\'') {
                            i += 1;
                        } else {
                            break;
                        }
                    }
                    i += 1;
                }
            }
            b'[' | b'{' => {
                let starts_value = flow > 0
                    || line[..i]
                        .trim_end()
                        .chars()
                        .last()
                        .is_none_or(|c| matches!(c, ':' | '-' | '?' | ','));
                if starts_value {
                    flow += 1;
                    if flow + block > max {
                        return Err(());
                    }
                }
            }
            b']' | b'}' if flow > 0 => flow -= 1,
            _ => {}
        }
        prev = b;
        i += 1;
    }
    Ok(flow)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_yaml_passes() {
        let text = "name: s\ncases:\n  - id: a\n    input: \"what is [this] {x}\"\n    tags: [a, b]\n    note: it's [not a list\n    args: {a: [1, {b: 2}]}\n# [[[[[[ comment\n";
        check_depth(text, 8).expect("shallow");
    }

    #[test]
    fn deep_flow_and_block_nesting_are_refused() {
        let flow = format!("a: {}{}\n", "[".repeat(65), "]".repeat(65));
        assert!(check_depth(&flow, 64).expect_err("flow").contains("line 1"));
        let mut block = String::new();
        for i in 0..70 {
            block.push_str(&format!("{}k{i}:\n", " ".repeat(i)));
        }
        assert!(check_depth(&block, 64).is_err());
        assert!(check_depth(&format!("{}x\n", "- ".repeat(70)), 64).is_err());
        let ok = format!("a: {}{}\n", "[".repeat(60), "]".repeat(60));
        check_depth(&ok, 64).expect("60 deep");
    }
}
