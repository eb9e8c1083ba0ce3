//! Any JSON document mf writes that `mf report` can re-render.

use crate::report::ci::CiReport;
use crate::report::compare::CompareReport;
use crate::report::scorecard::Scorecard;

/// A saved document, by its `kind`.
#[derive(Debug, Clone)]
pub enum Document {
    /// `mf eval` output.
    Scorecard(Box<Scorecard>),
    /// `mf compare` output.
    Compare(Box<CompareReport>),
    /// `mf ci` output.
    Ci(Box<CiReport>),
}

impl Document {
    /// Read a document from JSON text by its `kind` field.
    pub fn parse(text: &str) -> Result<Document, String> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let kind = value
            .get("kind")
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let bad = |e: serde_json::Error| format!("not a v1 {kind} document: {e}");
        match kind.as_str() {
            "scorecard" => Ok(Document::Scorecard(Box::new(
                serde_json::from_value(value).map_err(bad)?,
            ))),
            "compare" => Ok(Document::Compare(Box::new(
                serde_json::from_value(value).map_err(bad)?,
            ))),
            "ci" => Ok(Document::Ci(Box::new(
                serde_json::from_value(value).map_err(bad)?,
            ))),
            other => Err(format!(
                "kind {other:?} is not a scorecard, compare or ci document"
            )),
        }
    }
}
