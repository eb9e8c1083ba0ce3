//! Reading a tool call's arguments: unknown keys and wrong types are refusals that name the
//! argument, the expected type and the closest known names.

use serde_json::{Map, Value};

use crate::util::closest::{close_matches, did_you_mean};

/// A tool error the agent can act on: what was refused and what to do instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal(pub String);

impl<T: Into<String>> From<T> for Refusal {
    fn from(s: T) -> Refusal {
        Refusal(s.into())
    }
}

/// A tool's arguments, checked against the names its schema declares.
#[derive(Debug)]
pub struct Args<'a> {
    tool: &'a str,
    map: &'a Map<String, Value>,
}

impl<'a> Args<'a> {
    /// `map` for `tool`; refused when it has a key outside `known`.
    pub fn new(
        tool: &'a str,
        map: &'a Map<String, Value>,
        known: &[&str],
    ) -> Result<Args<'a>, Refusal> {
        let unknown: Vec<String> = map
            .keys()
            .filter(|k| !known.contains(&k.as_str()))
            .map(|k| {
                format!(
                    "{k:?}{}",
                    did_you_mean(&close_matches(k, known.iter().copied()))
                )
            })
            .collect();
        if !unknown.is_empty() {
            return Err(Refusal(format!(
                "{tool}: unknown argument{} {}; its arguments are: {}",
                if unknown.len() == 1 { "" } else { "s" },
                unknown.join(", "),
                known.join(", ")
            )));
        }
        Ok(Args { tool, map })
    }

    fn wrong(&self, key: &str, want: &str) -> Refusal {
        Refusal(format!(
            "{}: argument {key:?} must be {want}, got {}",
            self.tool,
            crate::surface::formats::describe(&self.map[key])
        ))
    }

    /// A string argument (absent or null = `None`).
    pub fn str(&self, key: &str) -> Result<Option<&'a str>, Refusal> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str())),
            Some(_) => Err(self.wrong(key, "a string")),
        }
    }

    /// A boolean argument, `default` when absent.
    pub fn bool(&self, key: &str, default: bool) -> Result<bool, Refusal> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(self.wrong(key, "true or false")),
        }
    }

    /// A non-negative integer argument.
    pub fn u64(&self, key: &str) -> Result<Option<u64>, Refusal> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_u64()
                .map(Some)
                .ok_or_else(|| self.wrong(key, "a non-negative integer")),
        }
    }

    /// A number argument.
    pub fn f64(&self, key: &str) -> Result<Option<f64>, Refusal> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_f64()
                .map(Some)
                .ok_or_else(|| self.wrong(key, "a number")),
        }
    }

    /// An array of strings (absent = empty).
    pub fn strings(&self, key: &str) -> Result<Vec<String>, Refusal> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| v.as_str().map(str::to_owned))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| self.wrong(key, "an array of strings")),
            Some(_) => Err(self.wrong(key, "an array of strings")),
        }
    }

    /// The raw value.
    pub fn value(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_and_wrong_types_are_named() {
        let map = serde_json::json!({"sute": "x"});
        let e =
            Args::new("list_suite", map.as_object().expect("obj"), &["suite"]).expect_err("typo");
        assert_eq!(
            e.0,
            "list_suite: unknown argument \"sute\" (did you mean \"suite\"?); its arguments are: suite"
        );
        let map = serde_json::json!({"repeat": "five", "models": ["a", 1]});
        let args = Args::new(
            "run_eval",
            map.as_object().expect("obj"),
            &["repeat", "models"],
        )
        .expect("known");
        assert!(
            args.u64("repeat")
                .expect_err("string")
                .0
                .contains("\"repeat\" must be a non-negative integer")
        );
        assert!(
            args.strings("models")
                .expect_err("mixed")
                .0
                .contains("an array of strings")
        );
        assert_eq!(args.bool("dryRun", true), Ok(true));
    }
}
