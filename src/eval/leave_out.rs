//! Leave-one-out plans (`mf ablate`): the offered tools without some of them, and each trial's
//! tool order taken from the full plan with the left-out tools removed — the remaining tools
//! keep their relative order, so the only difference between a trial of the full plan and its
//! ablated twin is the missing tool (SCHEMA.md "Ablation").

use super::EvalError;
use super::plan::PlannedTrial;
use crate::surface::Tool;

/// How the full plan's tool indices map onto the offered tools.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaveOut {
    /// Tools in the full plan (before leaving any out).
    full: usize,
    /// Per full index: its index among the offered tools, or `None` when left out.
    map: Vec<Option<usize>>,
}

impl LeaveOut {
    /// How many tools the full plan permutes (the `n` of each trial's permutation).
    pub fn full(&self) -> usize {
        self.full
    }

    /// The full plan's trials with the left-out tools removed from every order.
    pub fn apply(&self, plan: Vec<PlannedTrial>) -> Vec<PlannedTrial> {
        if self.map.iter().all(Option::is_some) {
            return plan;
        }
        plan.into_iter()
            .map(|mut t| {
                t.order = t.order.iter().filter_map(|&i| self.map[i]).collect();
                t
            })
            .collect()
    }
}

/// `tools` without the ones named in `without`; an error names a tool that is not offered.
pub fn leave_out(tools: Vec<Tool>, without: &[String]) -> Result<(Vec<Tool>, LeaveOut), EvalError> {
    let unknown: Vec<&str> = without
        .iter()
        .filter(|w| !tools.iter().any(|t| &t.name == *w))
        .map(String::as_str)
        .collect();
    if !unknown.is_empty() {
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
        return Err(EvalError::Plan(format!(
            "cannot leave out {}: not among the offered tools ({})",
            unknown.join(", "),
            names.join(", ")
        )));
    }
    let full = tools.len();
    let mut map = Vec::with_capacity(full);
    let mut kept = Vec::with_capacity(full);
    for t in tools {
        if without.contains(&t.name) {
            map.push(None);
        } else {
            map.push(Some(kept.len()));
            kept.push(t);
        }
    }
    Ok((kept, LeaveOut { full, map }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::plan::trials;
    use crate::surface::{Confidence, Origin};

    fn tool(name: &str) -> Tool {
        Tool::named(name, Origin::default(), Confidence::High)
    }

    #[test]
    fn the_ablated_order_is_the_full_order_without_the_tool() {
        let tools: Vec<Tool> = ["a", "b", "c", "d", "e"].into_iter().map(tool).collect();
        let full = trials(1, &["x", "y"], 3, 7, tools.len());
        let (kept, lo) = leave_out(tools.clone(), &["c".to_owned()]).expect("c is offered");
        assert_eq!(lo.full(), 5);
        let names: Vec<&str> = kept.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "d", "e"]);
        let ablated = lo.apply(full.clone());
        assert_eq!(ablated.len(), full.len());
        for (f, a) in full.iter().zip(&ablated) {
            let before: Vec<&str> = f
                .order
                .iter()
                .map(|&i| tools[i].name.as_str())
                .filter(|n| *n != "c")
                .collect();
            let after: Vec<&str> = a.order.iter().map(|&i| kept[i].name.as_str()).collect();
            assert_eq!(before, after, "same relative order, c removed");
            assert_eq!((f.case, f.trial), (a.case, a.trial));
        }
    }

    #[test]
    fn leaving_out_nothing_keeps_the_plan_and_an_unknown_name_is_refused() {
        let tools: Vec<Tool> = ["a", "b"].into_iter().map(tool).collect();
        let full = trials(1, &["x"], 2, 0, 2);
        let (kept, lo) = leave_out(tools.clone(), &[]).expect("nothing");
        assert_eq!(kept.len(), 2);
        assert_eq!(lo.apply(full.clone()), full);
        let err = leave_out(tools, &["zz".to_owned()]).expect_err("unknown");
        assert!(err.to_string().contains("cannot leave out zz"), "{err}");
    }
}
