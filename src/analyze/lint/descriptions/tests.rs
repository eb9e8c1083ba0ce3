//! Unit tests of the descriptions family.

use super::*;

fn words(name: &str) -> Vec<String> {
    super::super::name_words(name)
}

#[test]
fn generic_names_are_made_only_of_generic_words() {
    for name in [
        "run", "execute", "do", "tool1", "helper", "process", "handle", "doIt", "run_tool",
    ] {
        assert!(is_generic(&words(name)), "{name}");
    }
    for name in [
        "run_sql_query",
        "process_refund",
        "get_user",
        "handle_webhook_event",
    ] {
        assert!(!is_generic(&words(name)), "{name}");
    }
}
