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

#[test]
fn a_bare_start_or_end_number_may_be_a_time_an_index_is_a_position() {
    let n = serde_json::json!({"type": "number"});
    let start = guess_needed("start", &n).expect("guess");
    assert!(start.contains("time in seconds or milliseconds"), "{start}");
    let row = guess_needed("row_index", &n).expect("guess");
    assert!(row.starts_with("an index or position"), "{row}");
    assert!(
        guess_needed(
            "start",
            &serde_json::json!({"type": "number", "minimum": 0})
        )
        .is_none()
    );
}
