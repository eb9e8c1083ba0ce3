//! Edits to a hand-written suite that keep what its author wrote: a JSON (JSONC) suite is
//! edited through a concrete syntax tree, so comments, key order, indentation and every value
//! mf does not touch stay byte for byte; a YAML suite gets a block appended at its end, and is
//! never rewritten (serde_yaml_ng cannot keep comments), so an edit that would have to change
//! existing YAML is refused with the text to paste by hand.

use std::collections::BTreeMap;
use std::path::Path;

use jsonc_parser::cst::{CstInputValue, CstRootNode};
use serde_json::Value;

/// Why a suite could not be edited.
#[derive(Debug, thiserror::Error)]
pub enum EditError {
    /// The file could not be read.
    #[error(transparent)]
    Load(#[from] crate::surface::formats::LoadError),
    /// The JSON does not parse.
    #[error("{file}: {message}; fix the file or pass another one")]
    Syntax {
        /// The file.
        file: String,
        /// What the parser said, with its position.
        message: String,
    },
    /// The document is not a JSON object.
    #[error("{file}: not a suite (expected a JSON object); pass another file")]
    NotObject {
        /// The file.
        file: String,
    },
    /// A YAML suite already has the key: mf will not rewrite YAML.
    #[error(
        "{file} already has a top-level `{key}:` and mf does not rewrite YAML (its comments would be lost); replace it by hand with:\n{block}"
    )]
    YamlHasKey {
        /// The file.
        file: String,
        /// The key.
        key: String,
        /// The YAML to paste.
        block: String,
    },
}

/// Whether a profile name is one `mf cluster --out` generated (`c1`, `c2-read-file` …): those
/// are replaced by a new run; every other profile is the author's and is kept.
pub fn is_generated_profile(name: &str) -> bool {
    let rest = name.strip_prefix('c').unwrap_or("");
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && (rest.len() == digits || rest[digits..].starts_with('-'))
}

/// The suite text at `path` with `profiles` set to the author's profiles plus `generated`
/// (generated ones from an earlier run replaced). `text` is the file's current content.
pub fn with_profiles(
    path: &Path,
    display: &str,
    text: &str,
    generated: &BTreeMap<String, Vec<String>>,
) -> Result<String, EditError> {
    let yaml = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml"));
    if yaml {
        return yaml_append_profiles(display, text, generated);
    }
    let options = jsonc_parser::ParseOptions::default();
    let root = CstRootNode::parse(text, &options).map_err(|e| EditError::Syntax {
        file: display.to_owned(),
        message: e.to_string(),
    })?;
    let Some(obj) = root.object_value() else {
        return Err(EditError::NotObject {
            file: display.to_owned(),
        });
    };
    let mut merged: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let existing = obj.get("profiles");
    if let Some(Value::Object(map)) = existing
        .as_ref()
        .and_then(|p| p.value())
        .and_then(|v| v.to_serde_value())
    {
        for (name, members) in map {
            if is_generated_profile(&name) {
                continue;
            }
            let members = members
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|m| m.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default();
            merged.insert(name, members);
        }
    }
    for (name, members) in generated {
        merged
            .entry(name.clone())
            .or_insert_with(|| members.clone());
    }
    let value = input(&serde_json::to_value(&merged).unwrap_or_default());
    match existing {
        Some(prop) => prop.set_value(value),
        None => {
            obj.append("profiles", value);
        }
    }
    Ok(root.to_string())
}

/// A YAML suite: append `profiles:` when it has none; refuse (with the block) when it has.
fn yaml_append_profiles(
    display: &str,
    text: &str,
    generated: &BTreeMap<String, Vec<String>>,
) -> Result<String, EditError> {
    let mut block = String::from("profiles:\n");
    for (name, members) in generated {
        block.push_str(&format!("  {}:\n", yaml_scalar(name)));
        for m in members {
            block.push_str(&format!("    - {}\n", yaml_scalar(m)));
        }
    }
    let has_key = text.lines().any(|l| {
        l.strip_prefix("profiles")
            .is_some_and(|rest| rest.trim_start().starts_with(':'))
    });
    if has_key {
        return Err(EditError::YamlHasKey {
            file: display.to_owned(),
            key: "profiles".into(),
            block,
        });
    }
    let mut out = text.to_owned();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&block);
    Ok(out)
}

/// A YAML scalar for a name: plain when that is unambiguous, else double-quoted JSON.
fn yaml_scalar(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'))
        && !s.starts_with(['-', '.'])
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "~"
        )
        && s.parse::<f64>().is_err();
    if plain {
        s.to_owned()
    } else {
        serde_json::to_string(s).unwrap_or_default()
    }
}

/// A serde value as CST input.
fn input(v: &Value) -> CstInputValue {
    match v {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(a) => CstInputValue::Array(a.iter().map(input).collect()),
        Value::Object(o) => {
            CstInputValue::Object(o.iter().map(|(k, v)| (k.clone(), input(v))).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn generated() -> BTreeMap<String, Vec<String>> {
        BTreeMap::from([(
            "c1-read".to_owned(),
            vec!["read_a".to_owned(), "read_b".to_owned()],
        )])
    }

    #[test]
    fn json_comments_and_hand_written_profiles_survive() {
        let text = "{\n  // my suite\n  \"version\": 1,\n  \"name\": \"s\",\n  \"profiles\": {\n    \"mine\": [\"x\"],\n    \"c9-old\": [\"y\"]\n  },\n  \"cases\": [] // none yet\n}\n";
        let out = with_profiles(Path::new("s.json"), "s.json", text, &generated()).expect("edits");
        assert!(
            out.contains("// my suite") && out.contains("// none yet"),
            "{out}"
        );
        let v = crate::surface::json_doc::JsonDoc::parse(&out)
            .expect("parses")
            .value;
        assert_eq!(v["profiles"]["mine"], serde_json::json!(["x"]));
        assert_eq!(
            v["profiles"]["c1-read"],
            serde_json::json!(["read_a", "read_b"])
        );
        assert!(
            v["profiles"].get("c9-old").is_none(),
            "an old generated profile is replaced"
        );
        assert!(
            out.starts_with("{\n  // my suite\n  \"version\": 1,"),
            "{out}"
        );
    }

    #[test]
    fn json_without_profiles_gets_them_appended() {
        let text = "{\"version\": 1, \"name\": \"s\", \"cases\": []}";
        let out = with_profiles(Path::new("s.json"), "s.json", text, &generated()).expect("edits");
        let v: Value = serde_json::from_str(&out).expect("json");
        assert_eq!(v["profiles"]["c1-read"][1], "read_b");
        assert_eq!(v["name"], "s");
    }

    #[test]
    fn yaml_is_appended_to_or_refused_never_rewritten() {
        let text = "# my suite\nversion: 1\nname: s\ncases: []\n";
        let out =
            with_profiles(Path::new("s.yaml"), "s.yaml", text, &generated()).expect("appends");
        assert!(out.starts_with(text));
        assert!(
            out.ends_with("profiles:\n  c1-read:\n    - read_a\n    - read_b\n"),
            "{out}"
        );
        let err = with_profiles(Path::new("s.yaml"), "s.yaml", &out, &generated())
            .expect_err("has profiles")
            .to_string();
        assert!(
            err.contains("does not rewrite YAML") && err.contains("- read_a"),
            "{err}"
        );
    }

    #[test]
    fn not_an_object_and_bad_json_are_errors_naming_the_file() {
        let e =
            with_profiles(Path::new("s.json"), "s.json", "[1]", &generated()).expect_err("array");
        assert!(e.to_string().starts_with("s.json: not a suite"));
        let e = with_profiles(Path::new("s.json"), "s.json", "{\"a\": ", &generated())
            .expect_err("bad");
        assert!(e.to_string().starts_with("s.json: "));
    }

    #[test]
    fn generated_names_are_recognised() {
        for yes in ["c1", "c12", "c3-read-file"] {
            assert!(is_generated_profile(yes), "{yes}");
        }
        for no in ["c", "core", "c1x", "mine", "c-1"] {
            assert!(!is_generated_profile(no), "{no}");
        }
    }
}
