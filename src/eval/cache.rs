//! The trial cache: one file per trial, keyed by everything that determines its request.
//!
//! Key = SHA-256 of the canonical JSON of `{cache: "mf-cache-v1", wire, endpoint (redacted),
//! request (the model's request fingerprint: header names, `tool_choice`, …), model,
//! temperature, maxOutputTokens, seed, trial, input, tools (wire form, in trial order)}`.
//! Repeats differ in `trial`, so five repeats are five entries. Stored: the reply, or an error
//! that is the model's own answer (refusal, truncation, malformed content); transport trouble
//! (HTTP errors, timeouts) is not stored, so the next run tries again. Entries are written to a
//! temporary file and renamed into place: a killed process leaves the old entry or the new one,
//! never half. A file that does not parse, or whose key does not match, is a miss.
//! Keys and headers are never part of an entry.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::providers::{Reply, TrialError};
use crate::surface::Tool;
use crate::surface::fingerprint::canonical_json;

/// Version tag of the key and entry format.
pub const CACHE_VERSION: &str = "mf-cache-v1";

/// Everything that determines one trial's request.
#[derive(Debug, Clone)]
pub struct KeyParts<'a> {
    /// Wire format id.
    pub wire: &'a str,
    /// Endpoint without secrets.
    pub endpoint: &'a str,
    /// The model's request fingerprint (everything else that shapes the request body/headers).
    pub request: &'a str,
    /// Provider model id.
    pub model: &'a str,
    /// Temperature sent (None = not sent).
    pub temperature: Option<f64>,
    /// Output cap sent.
    pub max_output_tokens: u32,
    /// Permutation seed.
    pub seed: u64,
    /// Trial index.
    pub trial: u32,
    /// The user message.
    pub input: &'a str,
    /// Tools in trial order.
    pub tools: &'a [&'a Tool],
}

/// The cache key (hex SHA-256).
pub fn key(parts: &KeyParts<'_>) -> String {
    let doc = json!({
        "cache": CACHE_VERSION,
        "wire": parts.wire,
        "endpoint": parts.endpoint,
        "request": parts.request,
        "model": parts.model,
        "temperature": parts.temperature,
        "maxOutputTokens": parts.max_output_tokens,
        "seed": parts.seed,
        "trial": parts.trial,
        "input": parts.input,
        "tools": parts.tools.iter().map(|t| t.wire_json()).collect::<Vec<Value>>(),
    });
    hex(&Sha256::digest(canonical_json(&doc).as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// One stored trial.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    /// [`CACHE_VERSION`].
    pub cache: String,
    /// The key, checked on read.
    pub key: String,
    /// The answer.
    pub outcome: Result<Reply, TrialError>,
    /// Latency of the request that produced it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<u64>,
}

/// A cache directory.
#[derive(Debug, Clone)]
pub struct Cache {
    root: PathBuf,
}

/// Where the cache lives when `--cache-dir` is not given: `$MF_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/mf`, else `~/.cache/mf` (`%LOCALAPPDATA%\mf` on Windows), else `.mf-cache`.
pub fn default_dir() -> PathBuf {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(d) = var("MF_CACHE_DIR") {
        return d;
    }
    if let Some(d) = var("XDG_CACHE_HOME") {
        return d.join("mf");
    }
    if let Some(d) = var("LOCALAPPDATA") {
        return d.join("mf");
    }
    if let Some(d) = var("HOME") {
        return d.join(".cache").join("mf");
    }
    PathBuf::from(".mf-cache")
}

/// Entry count and size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    /// Entry files.
    pub entries: u64,
    /// Their total size in bytes.
    pub bytes: u64,
}

impl Cache {
    /// A cache under `dir` (entries live in `dir/eval/v1/`).
    pub fn new(dir: &Path) -> Cache {
        Cache {
            root: dir.join("eval").join("v1"),
        }
    }

    /// Where entries live.
    pub fn root(&self) -> &Path {
        &self.root
    }

    fn path(&self, key: &str) -> PathBuf {
        self.root.join(&key[..2]).join(format!("{key}.json"))
    }

    /// The stored trial for `key`, or `None` (absent, unreadable, corrupt, or another key).
    pub fn get(&self, key: &str) -> Option<Entry> {
        let bytes = std::fs::read(self.path(key)).ok()?;
        let entry: Entry = serde_json::from_slice(&bytes).ok()?;
        (entry.cache == CACHE_VERSION && entry.key == key).then_some(entry)
    }

    /// Store a trial when it is worth keeping (a reply, or a model-answer error). Temp file +
    /// rename; no fsync (the cache survives a killed process, not a power cut).
    pub fn put(
        &self,
        key: &str,
        outcome: &Result<Reply, TrialError>,
        latency_ms: Option<u64>,
    ) -> std::io::Result<bool> {
        if let Err(e) = outcome
            && !e.kind.is_model_answer()
        {
            return Ok(false);
        }
        let path = self.path(key);
        let dir = path.parent().unwrap_or(&self.root);
        std::fs::create_dir_all(dir)?;
        let entry = Entry {
            cache: CACHE_VERSION.to_owned(),
            key: key.to_owned(),
            outcome: outcome.clone(),
            latency_ms,
        };
        let bytes = serde_json::to_vec(&entry).map_err(std::io::Error::other)?;
        let mut tmp = tempfile::Builder::new()
            .prefix(".mf-")
            .suffix(".tmp")
            .tempfile_in(dir)?;
        std::io::Write::write_all(&mut tmp, &bytes)?;
        tmp.persist(&path).map_err(|e| e.error)?;
        Ok(true)
    }

    /// Count entries.
    pub fn stats(&self) -> Stats {
        let mut s = Stats::default();
        for path in self.entry_files() {
            s.entries += 1;
            s.bytes += std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        }
        s
    }

    /// Delete every entry; returns how many were removed.
    pub fn clear(&self) -> std::io::Result<u64> {
        let n = self.entry_files().len() as u64;
        match std::fs::remove_dir_all(&self.root) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(n),
        }
    }

    fn entry_files(&self) -> Vec<PathBuf> {
        let Ok(shards) = std::fs::read_dir(&self.root) else {
            return Vec::new();
        };
        shards
            .flatten()
            .filter_map(|d| std::fs::read_dir(d.path()).ok())
            .flat_map(|files| files.flatten().map(|f| f.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::{Call, ErrorKind};
    use crate::surface::{Confidence, Origin};

    fn parts<'a>(tools: &'a [&'a Tool], trial: u32) -> KeyParts<'a> {
        KeyParts {
            wire: "openai-chat",
            endpoint: "http://127.0.0.1:1/v1",
            request: "sha256:0",
            model: "m",
            temperature: None,
            max_output_tokens: 256,
            seed: 0,
            trial,
            input: "hello",
            tools,
        }
    }

    #[test]
    fn keys_separate_trials_and_tool_orders() {
        let a = Tool::named("a", Origin::default(), Confidence::High);
        let b = Tool::named("b", Origin::default(), Confidence::High);
        let ab = [&a, &b];
        let ba = [&b, &a];
        assert_eq!(key(&parts(&ab, 0)), key(&parts(&ab, 0)));
        assert_ne!(key(&parts(&ab, 0)), key(&parts(&ab, 1)));
        assert_ne!(key(&parts(&ab, 0)), key(&parts(&ba, 0)));
    }

    #[test]
    fn round_trip_corrupt_is_a_miss_and_transport_errors_are_not_kept() {
        let dir = tempfile::tempdir().expect("tmp");
        let cache = Cache::new(dir.path());
        let k = "ab".repeat(32);
        let reply = Reply {
            calls: vec![Call::from_wire(Some("t".into()), "{\"x\":1}")],
            ..Reply::default()
        };
        assert!(cache.put(&k, &Ok(reply.clone()), Some(12)).expect("put"));
        assert_eq!(cache.get(&k).expect("hit").outcome, Ok(reply));
        assert_eq!(cache.stats().entries, 1);
        std::fs::write(cache.path(&k), b"{\"cache\": \"mf-cache-v1\", trunc").expect("corrupt");
        assert!(cache.get(&k).is_none());
        let timeout = Err(TrialError::new(ErrorKind::Timeout, "t"));
        assert!(!cache.put(&k, &timeout, None).expect("skip"));
        let refusal = Err(TrialError::new(ErrorKind::Refusal, "no"));
        assert!(cache.put(&k, &refusal, None).expect("kept"));
        assert_eq!(cache.clear().expect("clear"), 1);
        assert!(cache.get(&k).is_none());
        assert_eq!(cache.clear().expect("clear twice"), 0);
    }
}
