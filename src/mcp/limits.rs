//! What the operator allows `mf mcp` to do, set only by `mf mcp`'s flags or a config file named
//! on its command line — never by the calling agent. Tool arguments may ask for less (fewer
//! trials, a lower repeat), never more; every path an agent names is resolved inside the
//! working directory, symlinks included, or refused.

use std::path::{Component, Path, PathBuf};

use serde::Deserialize;

use crate::eval::config::{
    DEFAULT_CONCURRENCY, DEFAULT_MAX_TOOLS, DEFAULT_MAX_TRIALS, MAX_CONCURRENCY,
};
use crate::eval::plan::{HARD_MAX_TOOLS, HARD_MAX_TRIALS};

/// Trials per case and model an agent may ask for, by default.
pub const DEFAULT_MAX_REPEAT: u32 = 10;
/// The most an operator may allow.
pub const HARD_MAX_REPEAT: u32 = 100;
/// Longest `timeoutMs` of a probe.
pub const MAX_PROBE_TIMEOUT_MS: u64 = 120_000;

/// The operator's limits, validated.
#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    /// The working directory, canonical: every path argument must resolve inside it.
    pub root: PathBuf,
    /// Models that send requests (and cost money) may run.
    pub allow_paid_runs: bool,
    /// `stdio`/`url` targets and `scan_tools`' `probe` may start or reach live servers.
    pub allow_live_targets: bool,
    /// The persistent trial cache; `None` = off (each run starts from nothing, keeps nothing).
    pub cache_dir: Option<PathBuf>,
    /// Most paid trials one `run_eval` may send.
    pub max_trials: u64,
    /// Most tools a paid run may offer.
    pub max_tools: usize,
    /// Most trials per case and model.
    pub max_repeat: u32,
    /// Requests in flight at once.
    pub concurrency: usize,
}

/// The limits as a config file (TOML, `mf mcp --config FILE`) writes them; every key optional,
/// a flag on the command line wins.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct LimitsFile {
    /// `allow-paid-runs = true`
    pub allow_paid_runs: Option<bool>,
    /// `allow-live-targets = true`
    pub allow_live_targets: Option<bool>,
    /// `cache = true`
    pub cache: Option<bool>,
    /// `cache-dir = "…"` (turns the cache on)
    pub cache_dir: Option<PathBuf>,
    /// `max-trials = N`
    pub max_trials: Option<u64>,
    /// `max-tools = N`
    pub max_tools: Option<usize>,
    /// `max-repeat = N`
    pub max_repeat: Option<u32>,
    /// `concurrency = N`
    pub concurrency: Option<usize>,
}

/// The operator's settings before validation: flags over the config file.
#[derive(Debug, Clone, Default)]
pub struct LimitsInput {
    /// `--allow-paid-runs` (or the file's).
    pub allow_paid_runs: bool,
    /// `--allow-live-targets`.
    pub allow_live_targets: bool,
    /// `--cache`.
    pub cache: bool,
    /// `--cache-dir`.
    pub cache_dir: Option<PathBuf>,
    /// `--max-trials`.
    pub max_trials: Option<u64>,
    /// `--max-tools`.
    pub max_tools: Option<usize>,
    /// `--max-repeat`.
    pub max_repeat: Option<u32>,
    /// `--concurrency`.
    pub concurrency: Option<usize>,
    /// `--config FILE`.
    pub config: Option<PathBuf>,
}

/// A limit out of range, or a config file that does not read.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct LimitsError(pub String);

impl LimitsInput {
    /// Validate into [`Limits`] rooted at `root` (the working directory).
    pub fn validate(&self, root: &Path) -> Result<Limits, LimitsError> {
        let file = match &self.config {
            None => LimitsFile::default(),
            Some(path) => read_file(path)?,
        };
        let max_trials = self
            .max_trials
            .or(file.max_trials)
            .unwrap_or(DEFAULT_MAX_TRIALS);
        let max_tools = self
            .max_tools
            .or(file.max_tools)
            .unwrap_or(DEFAULT_MAX_TOOLS);
        let max_repeat = self
            .max_repeat
            .or(file.max_repeat)
            .unwrap_or(DEFAULT_MAX_REPEAT);
        let concurrency = self
            .concurrency
            .or(file.concurrency)
            .unwrap_or(DEFAULT_CONCURRENCY);
        if max_trials > HARD_MAX_TRIALS {
            return Err(LimitsError(format!(
                "--max-trials is capped at {HARD_MAX_TRIALS}"
            )));
        }
        if max_tools == 0 || max_tools > HARD_MAX_TOOLS {
            return Err(LimitsError(format!(
                "--max-tools must be 1–{HARD_MAX_TOOLS}"
            )));
        }
        if max_repeat == 0 || max_repeat > HARD_MAX_REPEAT {
            return Err(LimitsError(format!(
                "--max-repeat must be 1–{HARD_MAX_REPEAT}"
            )));
        }
        if concurrency == 0 || concurrency > MAX_CONCURRENCY {
            return Err(LimitsError(format!(
                "--concurrency must be 1–{MAX_CONCURRENCY}"
            )));
        }
        let cache_dir = self.cache_dir.clone().or(file.cache_dir);
        let cache = self.cache || file.cache.unwrap_or(false) || cache_dir.is_some();
        let root = std::fs::canonicalize(root).map_err(|e| {
            LimitsError(format!(
                "cannot resolve the working directory {}: {e}",
                root.display()
            ))
        })?;
        Ok(Limits {
            root,
            allow_paid_runs: self.allow_paid_runs || file.allow_paid_runs.unwrap_or(false),
            allow_live_targets: self.allow_live_targets || file.allow_live_targets.unwrap_or(false),
            cache_dir: cache.then(|| cache_dir.unwrap_or_else(crate::eval::cache::default_dir)),
            max_trials,
            max_tools,
            max_repeat,
            concurrency,
        })
    }
}

fn read_file(path: &Path) -> Result<LimitsFile, LimitsError> {
    let display = path.display();
    let policy = crate::util::safe_read::ReadPolicy::argument(64 * 1024);
    let bytes = crate::util::safe_read::read_bytes(path, &path.to_string_lossy(), &policy)
        .map_err(|e| LimitsError(format!("--config: {e}")))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| LimitsError(format!("--config {display}: not UTF-8")))?;
    toml::from_str(&text).map_err(|e| LimitsError(format!("--config {display}: {e}")))
}

impl Limits {
    /// `arg` (an agent's path, relative to the working directory or absolute) as a path
    /// relative to the working directory, after resolving every symlink on the way; refused
    /// when it leaves the working directory. A path that does not exist yet (a file to write)
    /// is resolved through its nearest existing folder. `field` names the argument in the
    /// message.
    pub fn resolve(&self, field: &str, arg: &str) -> Result<PathBuf, String> {
        let refuse = |why: String| {
            Err(format!(
                "{field}: {arg:?} {why}; mf mcp only reads and writes inside its working \
                 directory {} — give a path inside it (relative paths are resolved against it)",
                self.root.display()
            ))
        };
        if arg.is_empty() || arg.contains('\0') {
            return refuse("is not a path".into());
        }
        let path = Path::new(arg);
        let joined = if path.is_absolute() {
            path.to_path_buf()
        } else {
            self.root.join(path)
        };
        // Resolve the longest existing prefix (symlinks included), then append the rest, which
        // must not climb with `..`.
        let mut existing = joined.clone();
        let mut rest: Vec<std::ffi::OsString> = Vec::new();
        let resolved = loop {
            match std::fs::canonicalize(&existing) {
                Ok(real) => break real,
                Err(_) => {
                    let Some(name) = existing.file_name() else {
                        return refuse("cannot be resolved".into());
                    };
                    rest.push(name.to_owned());
                    if !existing.pop() {
                        return refuse("cannot be resolved".into());
                    }
                }
            }
        };
        let mut full = resolved;
        for part in rest.iter().rev() {
            if matches!(
                Path::new(part).components().next(),
                Some(Component::ParentDir | Component::CurDir)
            ) {
                return refuse("climbs out with `..` past a folder that does not exist".into());
            }
            full.push(part);
        }
        match full.strip_prefix(&self.root) {
            Ok(rel) if rel.as_os_str().is_empty() => Ok(PathBuf::from(".")),
            Ok(rel) => Ok(rel.to_path_buf()),
            Err(_) => refuse(if full.as_path() != joined.as_path() {
                format!(
                    "resolves to {} (through a symlink or `..`), outside",
                    full.display()
                )
            } else {
                "is outside".into()
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(dir: &Path) -> Limits {
        LimitsInput::default().validate(dir).expect("limits")
    }

    #[test]
    fn paths_inside_resolve_relative_and_outside_are_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("sub")).expect("mkdir");
        std::fs::write(dir.path().join("sub/s.json"), "{}").expect("write");
        let l = limits(dir.path());
        assert_eq!(
            l.resolve("suite", "sub/s.json"),
            Ok(PathBuf::from("sub/s.json"))
        );
        assert_eq!(l.resolve("root", "."), Ok(PathBuf::from(".")));
        assert_eq!(
            l.resolve("resultFile", "out/new.json"),
            Ok(PathBuf::from("out/new.json"))
        );
        let abs = dir.path().join("sub/s.json");
        assert_eq!(
            l.resolve("suite", &abs.to_string_lossy()),
            Ok(PathBuf::from("sub/s.json"))
        );
        for bad in ["/etc", "../x", "sub/../../x", "nope/../../x"] {
            let e = l.resolve("root", bad).expect_err(bad);
            assert!(
                e.starts_with(&format!("root: {bad:?} ")) && e.contains("working directory"),
                "{e}"
            );
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc", dir.path().join("link")).expect("symlink");
            let e = l.resolve("root", "link/passwd").expect_err("symlink out");
            assert!(e.contains("through a symlink"), "{e}");
        }
    }

    #[test]
    fn flags_win_over_the_file_and_caps_hold() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("mcp.toml");
        std::fs::write(
            &file,
            "max-trials = 20\nallow-paid-runs = true\ncache-dir = \"c\"\n",
        )
        .expect("write");
        let input = LimitsInput {
            config: Some(file.clone()),
            max_trials: Some(10),
            ..LimitsInput::default()
        };
        let l = input.validate(dir.path()).expect("limits");
        assert_eq!(l.max_trials, 10);
        assert!(l.allow_paid_runs && !l.allow_live_targets);
        assert_eq!(l.cache_dir, Some(PathBuf::from("c")));
        assert_eq!(
            limits(dir.path()).cache_dir,
            None,
            "the cache is off by default"
        );
        let over = LimitsInput {
            max_trials: Some(HARD_MAX_TRIALS + 1),
            ..LimitsInput::default()
        };
        assert!(
            over.validate(dir.path())
                .expect_err("cap")
                .to_string()
                .contains("capped at 1000")
        );
        std::fs::write(&file, "max-trails = 20\n").expect("write");
        let typo = LimitsInput {
            config: Some(file),
            ..LimitsInput::default()
        };
        assert!(
            typo.validate(dir.path())
                .expect_err("typo")
                .to_string()
                .contains("max-trails")
        );
    }
}
