//! JSON output: pretty-printed, two-space indent, trailing newline. Deterministic because the
//! report types hold no timestamps and keep their documented order.

use serde::Serialize;

/// Render any report as JSON text.
pub fn to_string<T: Serialize>(value: &T) -> String {
    // Serializing our own report types cannot fail: they hold only strings, numbers, maps with
    // string keys and JSON values.
    let mut s =
        serde_json::to_string_pretty(value).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}
