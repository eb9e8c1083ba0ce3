//! Fuzz the JSON(C) parser and every surface loader: any UTF-8 input must either load, be
//! refused as "not a surface", or produce a `LoadError` — never panic, hang or overflow.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(doc) = mf::surface::formats::parse_json(text, "fuzz.json") {
            let src = mf::surface::formats::Source { file: "fuzz.json", text, doc: &doc, base_dir: None };
            let _ = mf::surface::formats::load_doc(&src);
        }
    }
});
