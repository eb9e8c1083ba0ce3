//! JUnit as consumers read it: a quick-xml model of the elements the tests check, a
//! well-formedness walk, and Python's `junitparser` (a real JUnit consumer) when installed.

use serde::Deserialize;
use serde_json::Value;

#[derive(Debug, Deserialize)]
pub struct Testsuites {
    #[serde(rename = "testsuite", default)]
    pub suites: Vec<Testsuite>,
}

#[derive(Debug, Deserialize)]
pub struct Testsuite {
    #[serde(rename = "@name")]
    pub name: String,
    #[serde(rename = "@tests")]
    pub tests: usize,
    #[serde(rename = "@failures")]
    pub failures: usize,
    #[serde(rename = "@errors", default)]
    pub errors: usize,
    #[serde(rename = "@skipped", default)]
    pub skipped: usize,
    #[serde(default)]
    pub properties: Properties,
    #[serde(rename = "testcase", default)]
    pub cases: Vec<Testcase>,
}

impl Testsuite {
    pub fn property(&self, name: &str) -> Option<&str> {
        self.properties
            .items
            .iter()
            .find(|p| p.name == name)
            .map(|p| p.value.as_str())
    }
}

#[derive(Debug, Default, Deserialize)]
pub struct Properties {
    #[serde(rename = "property", default)]
    pub items: Vec<Property>,
}

#[derive(Debug, Deserialize)]
pub struct Property {
    #[serde(rename = "@name")]
    pub name: String,
    #[serde(rename = "@value")]
    pub value: String,
}

#[derive(Debug, Deserialize)]
pub struct Testcase {
    #[serde(rename = "@name")]
    pub name: String,
    #[serde(rename = "@classname")]
    pub classname: String,
    #[serde(rename = "@file")]
    pub file: Option<String>,
    #[serde(rename = "@line")]
    pub line: Option<String>,
    pub failure: Option<Outcome>,
    pub error: Option<Outcome>,
    #[serde(rename = "system-out")]
    pub system_out: Option<String>,
}

/// A `<failure>` or `<error>`.
#[derive(Debug, Deserialize)]
pub struct Outcome {
    #[serde(rename = "@type")]
    pub kind: String,
    #[serde(rename = "@message", default)]
    pub message: String,
    #[serde(rename = "$text", default)]
    pub body: String,
}

pub fn parse_junit(xml: &str) -> Testsuites {
    quick_xml::de::from_str(xml).unwrap_or_else(|e| panic!("JUnit XML does not parse: {e}\n{xml}"))
}

/// Every start tag closed, attributes well-formed.
pub fn well_formed(xml: &str) {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut depth = 0i32;
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Start(_)) => depth += 1,
            Ok(quick_xml::events::Event::End(_)) => depth -= 1,
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("not well-formed: {e}\n{xml}"),
        }
    }
    assert_eq!(depth, 0, "unbalanced tags\n{xml}");
}

/// The document as Python's junitparser reads it (tests/fixtures/render/junit_summary.py),
/// or `None` when python3 with junitparser is not installed — unless
/// `MF_REQUIRE_JUNITPARSER` is set, which makes its absence a failure.
pub fn junitparser_summary(xml: &str) -> Option<Value> {
    use std::io::Write;
    let required = std::env::var_os("MF_REQUIRE_JUNITPARSER").is_some();
    let probe = std::process::Command::new("python3")
        .args(["-c", "import junitparser"])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        assert!(
            !required,
            "MF_REQUIRE_JUNITPARSER is set but python3 cannot import junitparser"
        );
        let _ = writeln!(
            std::io::stderr(),
            "skipped: python3 with junitparser not found (pip install junitparser)"
        );
        return None;
    }
    let mut file = tempfile::NamedTempFile::new().expect("temp file");
    file.write_all(xml.as_bytes()).expect("write xml");
    let script = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/render/junit_summary.py");
    let out = std::process::Command::new("python3")
        .arg(script)
        .arg(file.path())
        .output()
        .expect("run junit_summary.py");
    assert!(
        out.status.success(),
        "junitparser failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).expect("summary is JSON"))
}
