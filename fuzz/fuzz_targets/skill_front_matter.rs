//! Fuzz the SKILL.md front-matter reader (YAML between `---` lines): any UTF-8 input must give a
//! skill or a warning with a line number — never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = mf::surface::scan::skill_md::parse(text, "SKILL.md");
    }
});
