//! Fuzz the TypeScript/JavaScript recognizer (tree-sitter): any UTF-8 source, in every dialect,
//! must give tools and warnings — never panic, hang or overflow.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mf::surface::scan::code_ts::{Dialect, extract};

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        for dialect in [Dialect::TypeScript, Dialect::Tsx, Dialect::JavaScript] {
            let _ = extract("server.ts", text, dialect);
        }
    }
});
