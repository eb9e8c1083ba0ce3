//! Fuzz the MCP client-config reader (`.mcp.json`, `mcp.json`, `claude_desktop_config.json`, …):
//! any UTF-8 input must give servers, nothing, or a warning — never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(doc) = mf::surface::formats::parse_json(text, ".mcp.json") {
            let src = mf::surface::formats::Source { file: ".mcp.json", text, doc: &doc, base_dir: None };
            let _ = mf::surface::scan::mcp_config::servers(&src, true);
            let _ = mf::surface::scan::mcp_config::servers(&src, false);
        }
    }
});
