//! Write a file so readers see the old content or the new, never half of it: write a temporary
//! file beside the target, flush it to disk, then rename it over the target.
//!
//! Temporary files are named `.mf-XXXXXX.tmp` (six random letters or digits). A write killed
//! half-way (SIGKILL, power loss) leaves one behind; the next write into the same folder
//! removes such files once they are older than [`STALE_AFTER`] — only regular files of exactly
//! that pattern, never through a symlink, never anything else. The sweep runs once per folder
//! per process.

use std::io::Write;
use std::path::Path;
use std::time::{Duration, SystemTime};

/// How old a leftover temporary file must be before a later write removes it.
pub const STALE_AFTER: Duration = Duration::from_secs(10 * 60);

/// Random characters tempfile puts between the prefix and the suffix.
const RANDOM_LEN: usize = 6;

/// Atomically replace `path` with `bytes`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if first_write_into(dir) {
        remove_stale_temp_files(dir, SystemTime::now());
    }
    let mut tmp = tempfile::Builder::new()
        .prefix(".mf-")
        .suffix(".tmp")
        .rand_bytes(RANDOM_LEN)
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    set_output_mode(tmp.as_file(), path)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// True the first time this process writes into `dir`: the stale-file sweep reads the whole
/// folder, so it runs once per folder per process (a trial cache folder gets thousands of writes).
fn first_write_into(dir: &Path) -> bool {
    static SWEPT: std::sync::Mutex<Vec<std::path::PathBuf>> = std::sync::Mutex::new(Vec::new());
    let Ok(mut swept) = SWEPT.lock() else {
        return false;
    };
    if swept.iter().any(|d| d == dir) {
        return false;
    }
    swept.push(dir.to_path_buf());
    true
}

/// Whether `name` is one of our temporary files: `.mf-` + six ASCII letters/digits + `.tmp`.
fn is_our_temp_name(name: &str) -> bool {
    name.strip_prefix(".mf-")
        .and_then(|rest| rest.strip_suffix(".tmp"))
        .is_some_and(|mid| {
            mid.len() == RANDOM_LEN && mid.bytes().all(|b| b.is_ascii_alphanumeric())
        })
}

/// Remove our leftover temporary files in `dir` older than [`STALE_AFTER`]. Best effort:
/// errors are ignored. Entries are checked with `symlink_metadata`, so a symlink named like a
/// temporary file is never followed nor removed.
fn remove_stale_temp_files(dir: &Path, now: SystemTime) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        if !name.to_str().is_some_and(is_our_temp_name) {
            continue;
        }
        let path = entry.path();
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if !meta.file_type().is_file() {
            continue;
        }
        let old = meta
            .modified()
            .ok()
            .and_then(|m| now.duration_since(m).ok())
            .is_some_and(|age| age > STALE_AFTER);
        if old {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// A temporary file is created private (0600); the output keeps the mode of the file it
/// replaces, or gets the usual 0644 — reports are meant to be read by other tools and users.
#[cfg(unix)]
fn set_output_mode(file: &std::fs::File, target: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(target)
        .map(|m| m.permissions())
        .unwrap_or_else(|_| std::fs::Permissions::from_mode(0o644));
    file.set_permissions(mode)
}

/// Windows has no mode bits to fix.
#[cfg(not(unix))]
fn set_output_mode(_file: &std::fs::File, _target: &Path) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_content_and_leaves_no_temp_files() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("out.json");
        write_atomic(&target, b"old").expect("write");
        write_atomic(&target, b"new").expect("write");
        assert_eq!(std::fs::read(&target).expect("read"), b"new");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("ls")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }

    #[cfg(unix)]
    #[test]
    fn outputs_are_readable_and_keep_an_existing_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("report.json");
        write_atomic(&target, b"{}").expect("write");
        let mode = |p: &Path| std::fs::metadata(p).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode(&target), 0o644);
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        write_atomic(&target, b"{}").expect("rewrite");
        assert_eq!(mode(&target), 0o640);
    }

    #[test]
    fn stale_temp_files_of_our_pattern_are_removed_and_nothing_else() {
        let dir = tempfile::tempdir().expect("tempdir");
        let d = dir.path();
        for name in [
            ".mf-abc123.tmp",
            ".mf-fresh1.tmp",
            ".mf-toolongname.tmp",
            "keep.tmp",
        ] {
            std::fs::write(d.join(name), b"x").expect("write");
        }
        #[cfg(unix)]
        std::os::unix::fs::symlink(d.join("keep.tmp"), d.join(".mf-link00.tmp")).expect("ln");
        // Pretend it is 11 minutes later for everything but `.mf-fresh1.tmp`.
        let later = SystemTime::now() + STALE_AFTER + Duration::from_secs(60);
        std::fs::File::options()
            .write(true)
            .open(d.join(".mf-fresh1.tmp"))
            .expect("open")
            .set_modified(later)
            .expect("touch");
        remove_stale_temp_files(d, later);
        let mut names: Vec<String> = std::fs::read_dir(d)
            .expect("ls")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let mut want = vec![".mf-fresh1.tmp", ".mf-toolongname.tmp", "keep.tmp"];
        if cfg!(unix) {
            want.insert(1, ".mf-link00.tmp");
        }
        assert_eq!(names, want);
    }

    #[test]
    fn missing_directory_is_an_error_not_a_panic() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert!(write_atomic(&dir.path().join("no/such/dir/out.json"), b"x").is_err());
    }
}
