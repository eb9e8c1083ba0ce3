//! Fuzz the YAML suite reader (`mf.suite.yaml`, YAML task sets): any UTF-8 input must give a
//! suite or a `SuiteError` with a position — never panic, hang or overflow.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = mf::suite::read::parse_suite_text(text, "mf.suite.yaml", "tasks", true);
    }
});
