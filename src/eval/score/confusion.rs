//! The confusion matrix of one model's scored trials: laid out from counted cells, and its
//! off-diagonal pairs.

use std::collections::{BTreeMap, BTreeSet};

use crate::report::metrics::{Confusion, ConfusionPair, MULTIPLE_LABEL, NONE_LABEL, PHANTOM_LABEL};

/// `(none)`, `(phantom)` or `(multiple)`.
pub(super) fn is_special(label: &str) -> bool {
    [NONE_LABEL, PHANTOM_LABEL, MULTIPLE_LABEL].contains(&label)
}

/// Lay the counted cells out as a matrix (see [`Confusion`] for the order): tool columns, then
/// call-set labels, then `(none)`, `(phantom)`, `(multiple)`.
pub(super) fn confusion_matrix(
    tool_names: &BTreeSet<&str>,
    set_labels: &BTreeSet<String>,
    rows: &BTreeSet<String>,
    must_not_call_row: bool,
    cells: &BTreeMap<(String, String), u64>,
) -> Confusion {
    let mut row_labels: Vec<String> = rows.iter().cloned().collect();
    if must_not_call_row {
        row_labels.push(NONE_LABEL.to_owned());
    }
    let mut columns: Vec<String> = tool_names.iter().map(|t| (*t).to_owned()).collect();
    columns.extend(set_labels.iter().cloned());
    columns.extend([NONE_LABEL, PHANTOM_LABEL, MULTIPLE_LABEL].map(str::to_owned));
    let counts = row_labels
        .iter()
        .map(|row| {
            columns
                .iter()
                .map(|column| {
                    cells
                        .get(&(row.clone(), column.clone()))
                        .copied()
                        .unwrap_or(0)
                })
                .collect()
        })
        .collect();
    Confusion {
        rows: row_labels,
        columns,
        counts,
    }
}

/// The off-diagonal cells (row label ≠ column label), largest count first.
pub(super) fn confusion_pairs(cells: &BTreeMap<(String, String), u64>) -> Vec<ConfusionPair> {
    let mut pairs: Vec<ConfusionPair> = cells
        .iter()
        .filter(|((row, column), count)| row != column && **count > 0)
        .map(|((row, column), count)| ConfusionPair {
            expected: row.clone(),
            picked: column.clone(),
            count: *count,
        })
        .collect();
    // Stable sort: ties keep the BTreeMap's (expected, picked) order.
    pairs.sort_by_key(|p| std::cmp::Reverse(p.count));
    pairs
}
