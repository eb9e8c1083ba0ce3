//! The one way mf opens a file that came from a repository (or any path the user named): a
//! regular file only, never a FIFO, device, socket or directory; no symlink unless the caller
//! allows it; inside a given root when there is one (no `..` escape, no symlinked parent
//! leading out); at most `limit` bytes, enforced while reading (at most `limit + 1` bytes are
//! ever read, whatever the metadata says). The open is non-blocking (`O_NONBLOCK`, and
//! `O_NOFOLLOW` when symlinks are refused) so a FIFO cannot hang mf: the file type is checked
//! on the open handle before anything is read.
//!
//! Errors name the file, say what is wrong and what to do, and never include file content.

use std::fs::{File, Metadata};
use std::io::Read;
use std::path::{Path, PathBuf};

/// What a caller accepts.
#[derive(Debug, Clone, Copy)]
pub struct ReadPolicy<'a> {
    /// The file must resolve inside this folder (after following every symlink and `..`).
    pub root: Option<&'a Path>,
    /// Whether the path itself may be a symlink (to a regular file, inside `root` if set).
    pub follow_symlinks: bool,
    /// The most bytes accepted.
    pub limit: u64,
}

impl<'a> ReadPolicy<'a> {
    /// A path the user named on the command line: may be anywhere and may be a symlink, but
    /// must reach a regular file of at most `limit` bytes.
    pub fn argument(limit: u64) -> ReadPolicy<'a> {
        ReadPolicy {
            root: None,
            follow_symlinks: true,
            limit,
        }
    }

    /// A file that came from a repository: no symlink, inside `root`, at most `limit` bytes.
    pub fn repository(root: &'a Path, limit: u64) -> ReadPolicy<'a> {
        ReadPolicy {
            root: Some(root),
            follow_symlinks: false,
            limit,
        }
    }
}

/// Why a file was not read. Every variant names the file; none carries its content.
#[derive(Debug, thiserror::Error)]
pub enum SafeReadError {
    /// The OS refused (missing file, permissions…).
    #[error("cannot read {file}: {source}")]
    Io {
        /// The file.
        file: String,
        /// What the OS said.
        source: std::io::Error,
    },
    /// Not a regular file.
    #[error("{file}: is a {kind}, not a regular file; mf reads only regular files")]
    NotRegular {
        /// The file.
        file: String,
        /// What it is instead (FIFO, character device…).
        kind: &'static str,
    },
    /// A symlink where none is allowed.
    #[error(
        "{file}: is a symbolic link; mf does not follow symlinks in repository files — replace it with the file itself"
    )]
    Symlink {
        /// The file.
        file: String,
    },
    /// Resolves outside the allowed folder.
    #[error(
        "{file}: resolves outside {root} (through `..` or a symlink); keep the file inside that folder"
    )]
    OutsideRoot {
        /// The file.
        file: String,
        /// The folder it must stay in.
        root: String,
    },
    /// Over the size cap (found while reading, or from the metadata).
    #[error("{file}: more than {limit} bytes, over the limit for this file; pass a smaller file")]
    TooLarge {
        /// The file.
        file: String,
        /// The cap.
        limit: u64,
    },
}

/// Read a file under `policy`. `display` names the file in errors.
pub fn read_bytes(
    path: &Path,
    display: &str,
    policy: &ReadPolicy<'_>,
) -> Result<Vec<u8>, SafeReadError> {
    let file = || display_or(path, display);
    let io = |source| SafeReadError::Io {
        file: file(),
        source,
    };
    let link = std::fs::symlink_metadata(path).map_err(io)?;
    if link.file_type().is_symlink() && !policy.follow_symlinks {
        return Err(SafeReadError::Symlink { file: file() });
    }
    let open_path: PathBuf = match policy.root {
        Some(root) => {
            let real = std::fs::canonicalize(path).map_err(io)?;
            let root = if root.as_os_str().is_empty() {
                Path::new(".")
            } else {
                root
            };
            let real_root = std::fs::canonicalize(root).map_err(io)?;
            if !real.starts_with(&real_root) {
                return Err(SafeReadError::OutsideRoot {
                    file: file(),
                    root: display_or(root, ""),
                });
            }
            real
        }
        None => path.to_path_buf(),
    };
    let handle = open_nonblocking(&open_path, policy.follow_symlinks).map_err(|e| {
        // ELOOP from O_NOFOLLOW: the last component became a symlink.
        if is_eloop(&e) {
            SafeReadError::Symlink { file: file() }
        } else {
            io(e)
        }
    })?;
    let meta = handle.metadata().map_err(io)?;
    if let Some(kind) = not_regular(&meta) {
        return Err(SafeReadError::NotRegular { file: file(), kind });
    }
    if meta.len() > policy.limit {
        return Err(SafeReadError::TooLarge {
            file: file(),
            limit: policy.limit,
        });
    }
    let mut bytes = Vec::with_capacity(meta.len().min(policy.limit) as usize);
    handle
        .take(policy.limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > policy.limit {
        return Err(SafeReadError::TooLarge {
            file: file(),
            limit: policy.limit,
        });
    }
    Ok(bytes)
}

fn display_or(path: &Path, display: &str) -> String {
    if display.is_empty() {
        path.to_string_lossy().replace('\\', "/")
    } else {
        display.to_owned()
    }
}

#[cfg(unix)]
fn open_nonblocking(path: &Path, follow: bool) -> std::io::Result<File> {
    use nix::fcntl::OFlag;
    use std::os::unix::fs::OpenOptionsExt;
    let mut flags = OFlag::O_NONBLOCK;
    if !follow {
        flags |= OFlag::O_NOFOLLOW;
    }
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags.bits())
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path, _follow: bool) -> std::io::Result<File> {
    File::open(path)
}

#[cfg(unix)]
fn is_eloop(e: &std::io::Error) -> bool {
    e.raw_os_error() == Some(nix::errno::Errno::ELOOP as i32)
}

#[cfg(not(unix))]
fn is_eloop(_e: &std::io::Error) -> bool {
    false
}

/// What a non-regular file is, for the message; `None` for a regular file.
fn not_regular(meta: &Metadata) -> Option<&'static str> {
    let t = meta.file_type();
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("FIFO (named pipe)");
        }
        if t.is_char_device() {
            return Some("character device");
        }
        if t.is_block_device() {
            return Some("block device");
        }
        if t.is_socket() {
            return Some("socket");
        }
    }
    Some("special file")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(root: Option<&Path>, follow: bool) -> ReadPolicy<'_> {
        ReadPolicy {
            root,
            follow_symlinks: follow,
            limit: 16,
        }
    }

    #[test]
    fn reads_a_small_regular_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let f = dir.path().join("a.json");
        std::fs::write(&f, b"{}").expect("write");
        let got = read_bytes(&f, "a.json", &policy(Some(dir.path()), false)).expect("read");
        assert_eq!(got, b"{}");
    }

    #[test]
    fn cap_is_enforced_while_reading() {
        let dir = tempfile::tempdir().expect("tempdir");
        let f = dir.path().join("big");
        std::fs::write(&f, [b'x'; 17]).expect("write");
        let err = read_bytes(&f, "big", &policy(None, true)).expect_err("too large");
        assert!(matches!(err, SafeReadError::TooLarge { .. }), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn devices_fifos_and_directories_are_refused_without_blocking() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).expect("mkfifo");
        for (p, kind) in [
            (fifo.as_path(), "FIFO"),
            (Path::new("/dev/zero"), "character device"),
            (dir.path(), "directory"),
        ] {
            let err = read_bytes(p, "x", &policy(None, true)).expect_err("refused");
            assert!(err.to_string().contains(kind), "{err}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_and_escapes_are_refused_and_errors_carry_no_content() {
        let outer = tempfile::tempdir().expect("tempdir");
        let secret = outer.path().join("secret.txt");
        std::fs::write(&secret, b"TOPSECRET").expect("write");
        let root = outer.path().join("repo");
        std::fs::create_dir(&root).expect("mkdir");
        let link = root.join("link.json");
        std::os::unix::fs::symlink(&secret, &link).expect("symlink");
        let err = read_bytes(&link, "link.json", &policy(Some(&root), false)).expect_err("link");
        assert!(matches!(err, SafeReadError::Symlink { .. }), "{err}");
        let err = read_bytes(&link, "link.json", &policy(Some(&root), true)).expect_err("out");
        assert!(matches!(err, SafeReadError::OutsideRoot { .. }), "{err}");
        let dotdot = root.join("../secret.txt");
        let err =
            read_bytes(&dotdot, "../secret.txt", &policy(Some(&root), false)).expect_err("dotdot");
        assert!(matches!(err, SafeReadError::OutsideRoot { .. }), "{err}");
        let sub = root.join("sub");
        std::os::unix::fs::symlink(outer.path(), &sub).expect("symlink dir");
        let err = read_bytes(
            &sub.join("secret.txt"),
            "sub/secret.txt",
            &policy(Some(&root), false),
        )
        .expect_err("parent");
        assert!(matches!(err, SafeReadError::OutsideRoot { .. }), "{err}");
        assert!(!err.to_string().contains("TOPSECRET"));
    }
}
