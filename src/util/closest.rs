//! "Did you mean …?": the names closest to one that was not found, for every message that
//! refuses a name (an unknown case id, tool, parameter, profile). One rule everywhere, so the
//! same typo gets the same suggestion from `mf eval`, `mf case add` and `mf mcp`.

/// Up to three candidates close to `wanted`: within an edit distance of a third of its length
/// (at least 1), or containing it / contained in it, ignoring case; closest first.
pub fn close_matches<'c>(wanted: &str, candidates: impl Iterator<Item = &'c str>) -> Vec<&'c str> {
    let w = wanted.to_lowercase();
    let limit = (w.chars().count() / 3).max(1);
    let mut scored: Vec<(usize, &str)> = candidates
        .filter_map(|c| {
            let lc = c.to_lowercase();
            let d = edit_distance(&w, &lc);
            let contains = w.len() >= 3 && (lc.contains(&w) || w.contains(&lc));
            (d <= limit || contains).then_some((d, c))
        })
        .collect();
    scored.sort_by_key(|&(d, c)| (d, c));
    scored.dedup_by_key(|(_, c)| *c);
    scored.into_iter().take(3).map(|(_, c)| c).collect()
}

/// ` (did you mean "a" or "b"?)` for a message, or nothing when `near` is empty.
pub fn did_you_mean(near: &[&str]) -> String {
    if near.is_empty() {
        return String::new();
    }
    let names: Vec<String> = near.iter().map(|n| format!("{n:?}")).collect();
    format!(" (did you mean {}?)", names.join(" or "))
}

/// Levenshtein distance over characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if ca == *cb {
                diagonal
            } else {
                1 + diagonal.min(above).min(row[j])
            };
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_single_edits() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "ab"), 2);
        assert_eq!(edit_distance("same", "same"), 0);
    }

    #[test]
    fn close_names_come_closest_first_and_far_ones_not_at_all() {
        let tools = ["search_orders", "get_order", "refund_order", "list_users"];
        assert_eq!(
            close_matches("get_ordr", tools.iter().copied()),
            vec!["get_order"]
        );
        assert_eq!(
            close_matches("order", tools.iter().copied()),
            vec!["get_order", "refund_order", "search_orders"]
        );
        assert!(close_matches("weather", tools.iter().copied()).is_empty());
        assert_eq!(did_you_mean(&[]), "");
        assert_eq!(did_you_mean(&["a", "b"]), " (did you mean \"a\" or \"b\"?)");
    }
}
