//! Fuzz the Python recognizer (tree-sitter): any UTF-8 source must give tools and warnings —
//! never panic, hang or overflow.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = mf::surface::scan::code_py::extract("server.py", text);
    }
});
