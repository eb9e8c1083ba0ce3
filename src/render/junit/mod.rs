//! JUnit XML (quick-junit) for CI test reporters: [`lint`](mod@lint) (findings as testcases,
//! failing at `--fail-on`) and [`eval`] (a scorecard's cases, a compare's metrics, and a ci
//! run's lint, eval and compare suites together). Re-exported here by document:
//! `junit::lint`, `junit::scorecard`, `junit::compare`, `junit::ci`.

pub mod eval;
pub mod lint;

pub use eval::{ci, compare, junit as scorecard};
pub use lint::{SUITE_NAME, lint};

/// XML 1.0 allows only `#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]`;
/// quick-junit escapes markup but passes other characters through, so a tool name or message
/// holding U+FFFE, U+FFFF or a control character would make the whole document unreadable to
/// every JUnit consumer. Such characters can never be markup, so each is replaced by U+FFFD in
/// the finished document.
pub(crate) fn xml_safe(xml: String) -> String {
    let allowed = |c: char| {
        matches!(c, '\t' | '\n' | '\r')
            || ('\u{20}'..='\u{D7FF}').contains(&c)
            || ('\u{E000}'..='\u{FFFD}').contains(&c)
            || c >= '\u{10000}'
    };
    if xml.chars().all(allowed) {
        return xml;
    }
    xml.chars()
        .map(|c| if allowed(c) { c } else { '\u{FFFD}' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::xml_safe;

    #[test]
    fn characters_xml_forbids_become_the_replacement_character() {
        let xml = "<t name=\"a\u{FFFE}b\u{FFFF}c\u{1}d\">\t\n\u{10000}</t>".to_owned();
        assert_eq!(
            xml_safe(xml),
            "<t name=\"a\u{FFFD}b\u{FFFD}c\u{FFFD}d\">\t\n\u{10000}</t>"
        );
        assert_eq!(xml_safe("<ok/>".to_owned()), "<ok/>");
    }
}
