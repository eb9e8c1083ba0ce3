//! Tests of `suite::mutate`.

use super::*;

fn suite() -> Suite {
    serde_json::from_str(
        r#"{"name":"s","cases":[
        {"id":"a","input":"Find the tickets about refunds right now.","expectedTool":"search_tickets",
         "expectedArgs":{"query":{"$contains":"refunds"}}},
        {"id":"b","input":"Close ticket 42 for me","expectedTool":"close_ticket"},
        {"id":"n","input":"What is the capital of France?","expectedTool":null},
        {"id":"u","input":"draft case","expectedTool":"close_ticket","reviewed":false}
    ]}"#,
    )
    .expect("suite")
}

fn tools() -> Vec<String> {
    vec![
        "search_tickets".into(),
        "close_ticket".into(),
        "listUsers".into(),
    ]
}

#[test]
fn same_seed_same_variants_and_another_seed_differs() {
    let one = mutate(&suite(), &tools(), 7, &MutationKind::ALL);
    let two = mutate(&suite(), &tools(), 7, &MutationKind::ALL);
    assert_eq!(one, two);
    let other = mutate(&suite(), &tools(), 8, &MutationKind::ALL);
    assert_ne!(one.suite.cases, other.suite.cases);
}

#[test]
fn every_reviewed_case_gets_variants_that_keep_its_expectation() {
    let m = mutate(&suite(), &tools(), 7, &MutationKind::ALL);
    assert_eq!(m.originals, 3, "the unreviewed case is not mutated");
    let base = suite();
    for original in base.cases.iter().filter(|c| c.reviewed) {
        let variants: Vec<&Case> = m
            .suite
            .cases
            .iter()
            .filter(|c| c.mutated_from.as_deref() == Some(original.id.as_str()))
            .collect();
        assert!(variants.len() >= 4, "{}: {variants:?}", original.id);
        for v in variants {
            assert!(!v.reviewed);
            assert_eq!(v.source.as_deref(), Some("mutate"));
            assert_eq!(v.expected_tool, original.expected_tool);
            assert_eq!(v.expected_args, original.expected_args);
            assert_ne!(v.input, original.input);
            let kind = v.mutation.as_deref().expect("kind");
            assert_eq!(v.id, format!("{}~{kind}", original.id));
        }
    }
    assert!(
        m.suite
            .cases
            .iter()
            .any(|c| c.id == "u" && c.mutated_from.is_none())
    );
}

#[test]
fn typos_never_touch_argument_values_numbers_or_quotes() {
    let case: Case = serde_json::from_str(
        r#"{"id":"q","input":"Search the archive for 'quarterly' reports about refunds 2024",
            "expectedTool":"t","expectedArgs":{"topic":"refunds"}}"#,
    )
    .expect("case");
    for seed in 0..50 {
        let mut rng = stream(seed, "q", MutationKind::Typos);
        let out = typos(&case.input, &protected_values(&case), &mut rng).expect("eligible words");
        assert_ne!(out, case.input);
        for kept in ["'quarterly'", "refunds", "2024"] {
            assert!(out.contains(kept), "seed {seed}: {out}");
        }
    }
}

#[test]
fn word_order_moves_only_what_is_safe() {
    assert_eq!(
        word_order("Show my open orders right now.").as_deref(),
        Some("Right now, show my open orders.")
    );
    assert_eq!(
        word_order("My order is late. Where is it?").as_deref(),
        Some("Where is it? My order is late.")
    );
    assert_eq!(word_order("Delete the file named notes"), None);
}

#[test]
fn distractors_name_another_tools_object_and_not_the_expected_one() {
    let mut rng = stream(1, "a", MutationKind::Distractor);
    let out = distractor("Close ticket 42", &tools(), Some("close_ticket"), &mut rng)
        .expect("another tool");
    assert!(out.starts_with("Close ticket 42. "), "{out}");
    assert!(out.contains("tickets") || out.contains("users"), "{out}");
    assert_eq!(object_of("listUsers"), "users");
    assert_eq!(object_of("close_ticket"), "ticket");
    assert_eq!(object_of("search"), "search");
    let only = ["close_ticket".to_owned()];
    assert_eq!(distractor("x", &only, Some("close_ticket"), &mut rng), None);
}

#[test]
fn earlier_variants_are_replaced_not_mutated_again() {
    let once = mutate(&suite(), &tools(), 7, &[MutationKind::Casing]);
    let twice = mutate(&once.suite, &tools(), 7, &[MutationKind::Casing]);
    assert_eq!(twice.dropped, once.variants);
    assert_eq!(twice.suite.cases, once.suite.cases);
}

#[test]
fn punctuation_and_casing_leave_data_tokens_alone() {
    let mut rng = stream(0, "p", MutationKind::Punctuation);
    assert_eq!(
        punctuation("Mail sam@example.com at 10:30, please.", &mut rng),
        "Mail sam@example.com at 10:30 please"
    );
    for seed in 0..10 {
        let mut rng = stream(seed, "c", MutationKind::Casing);
        let out = casing("Is lee@example.com a VIP?", &[], &mut rng).expect("a new casing");
        assert!(out.contains("lee@example.com"), "{out}");
    }
    let mut rng = stream(0, "c", MutationKind::Casing);
    let kept = casing("find Rossi", &["rossi".to_owned()], &mut rng).expect("casing");
    assert!(kept.ends_with("Rossi"), "{kept}");
    assert_eq!(object_of("kb_search_articles"), "articles");
    assert_eq!(object_of("escalate_to_human"), "human");
    assert_eq!(
        open_with("Please", "Which invoices?"),
        "Please which invoices?"
    );
    assert_eq!(open_with("Hi!", "Which invoices?"), "Hi! Which invoices?");
}
