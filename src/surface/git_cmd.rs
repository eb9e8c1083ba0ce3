//! The hardened `git` command every git call of mf starts from: nothing in the repository
//! (hooks, fsmonitor, pathspec magic, `GIT_DIR`-style variables) gets to run or redirect it.
//! A leaf module, so that both the scan (tracked files) and the git-revision loader use it.

use std::path::Path;
use std::process::{Command, Stdio};

/// A `git` command for `dir` with hooks, fsmonitor, prompts, optional locks and pathspec magic
/// off, reading no `GIT_DIR`-style variables from the caller.
pub(crate) fn base_command(dir: &Path) -> Command {
    let mut c = Command::new("git");
    c.arg("-C")
        .arg(dir)
        .args([
            "-c",
            "core.hooksPath=/dev/null",
            "-c",
            "core.fsmonitor=false",
        ])
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_LITERAL_PATHSPECS", "1")
        .env("GIT_PAGER", "cat")
        .stdin(Stdio::null());
    for var in [
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_INDEX_FILE",
        "GIT_OBJECT_DIRECTORY",
        "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_COMMON_DIR",
        "GIT_NAMESPACE",
        "GIT_ATTR_SOURCE",
        "GIT_EXTERNAL_DIFF",
        "GIT_GLOB_PATHSPECS",
        "GIT_ICASE_PATHSPECS",
    ] {
        c.env_remove(var);
    }
    c
}
