//! What isolation this machine offers, found by running each engine once (never by version
//! alone): Node's permission flag (`--permission` from Node 23.5, `--experimental-permission`
//! on 20–23.4), bubblewrap with namespaces, the Landlock ABI (through the exec shim), seccomp,
//! and the plain process. Probed once per process; `mf sandbox check` shows the same values.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use super::shim::SHIM_ARG;

/// Node as found on PATH.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeProbe {
    /// `v20.20.2`.
    pub version: String,
    /// The permission flag that works, if any.
    pub permission_flag: Option<String>,
}

/// A Python interpreter, resolved through shims (pyenv, asdf) to the real executable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PythonProbe {
    /// The real interpreter (`sys.executable`).
    pub executable: PathBuf,
    /// `sys.base_prefix`: the installation bubblewrap must mount read-only.
    pub base_prefix: PathBuf,
    /// `sys.prefix` (a virtualenv, or the same as `base_prefix`).
    pub prefix: PathBuf,
    /// `3.11.7`.
    pub version: String,
}

/// Every probe result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probes {
    /// Node, when on PATH.
    pub node: Option<NodeProbe>,
    /// bubblewrap's version when `bwrap` runs a command in fresh namespaces here.
    pub bubblewrap: Option<String>,
    /// Why bubblewrap is not usable, when it is not.
    pub bubblewrap_note: String,
    /// The Landlock ABI the kernel fully enforces.
    pub landlock_abi: Option<u32>,
    /// What the Landlock probe said.
    pub landlock_note: String,
    /// The kernel filters system calls (seccomp mode in `/proc/self/status`).
    pub seccomp: bool,
}

fn quiet(cmd: &mut Command) -> &mut Command {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
}

/// Node on PATH and its working permission flag.
pub fn node() -> Option<NodeProbe> {
    let out = quiet(Command::new("node").arg("--version")).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let version = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    let permission_flag = ["--permission", "--experimental-permission"]
        .into_iter()
        .find(|flag| {
            quiet(Command::new("node").args([flag, "-e", "0"]))
                .status()
                .is_ok_and(|s| s.success())
        })
        .map(str::to_owned);
    Some(NodeProbe {
        version,
        permission_flag,
    })
}

/// The interpreter `python` (a name on PATH or a path), resolved to the real executable.
pub fn python(python: &str) -> Result<PythonProbe, String> {
    let script = "import sys;print(sys.executable);print(sys.base_prefix);print(sys.prefix);\
                  print('%d.%d.%d' % sys.version_info[:3])";
    // The reduced environment of every call: the interpreter never sees mf's keys.
    let env = crate::surface::target::child_env(&[]);
    let out = quiet(
        Command::new(python)
            .args(["-I", "-c", script])
            .env_clear()
            .envs(env.iter().map(|(k, v)| (k, v))),
    )
    .output()
    .map_err(|e| format!("cannot run {python}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{python} -c … exited with {}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    let [exe, base, prefix, version] = lines[..] else {
        return Err(format!("{python} did not say where it is installed"));
    };
    Ok(PythonProbe {
        executable: PathBuf::from(exe),
        base_prefix: PathBuf::from(base),
        prefix: PathBuf::from(prefix),
        version: version.to_owned(),
    })
}

fn bubblewrap() -> (Option<String>, String) {
    let version = match quiet(Command::new("bwrap").arg("--version")).output() {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout)
            .trim()
            .trim_start_matches("bubblewrap ")
            .to_owned(),
        _ => return (None, "bwrap is not on PATH (apt install bubblewrap)".into()),
    };
    let run = quiet(Command::new("bwrap").args([
        "--ro-bind",
        "/",
        "/",
        "--unshare-all",
        "--die-with-parent",
        "true",
    ]))
    .output();
    match run {
        Ok(o) if o.status.success() => (
            Some(version),
            "file system, network, processes and IPC in fresh namespaces".into(),
        ),
        Ok(o) => (
            None,
            format!(
                "bwrap {version} cannot create namespaces here: {}",
                String::from_utf8_lossy(&o.stderr).trim()
            ),
        ),
        Err(e) => (None, format!("bwrap {version} did not run: {e}")),
    }
}

fn landlock() -> (Option<u32>, String) {
    let Ok(exe) = std::env::current_exe() else {
        return (None, "mf cannot find its own executable".into());
    };
    let out = quiet(Command::new(exe).args([SHIM_ARG, "--landlock-probe"])).output();
    let Ok(out) = out else {
        return (None, "the probe did not run".into());
    };
    let text = String::from_utf8_lossy(&out.stderr);
    let said = text
        .lines()
        .find_map(|l| l.split_once("landlock: ").map(|(_, r)| r.to_owned()))
        .unwrap_or_else(|| "the probe said nothing".into());
    let abi = said
        .strip_prefix("available abi ")
        .and_then(|n| n.trim().parse().ok());
    (abi, said)
}

fn seccomp() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .is_ok_and(|s| s.lines().any(|l| l.starts_with("Seccomp:")))
}

/// Every probe, run once per process.
pub fn probes() -> &'static Probes {
    static PROBES: OnceLock<Probes> = OnceLock::new();
    PROBES.get_or_init(|| {
        let (bubblewrap, bubblewrap_note) = if cfg!(target_os = "linux") {
            bubblewrap()
        } else {
            (None, "Linux only".into())
        };
        let (landlock_abi, landlock_note) = if cfg!(target_os = "linux") {
            landlock()
        } else {
            (None, "Linux only".into())
        };
        Probes {
            node: node(),
            bubblewrap,
            bubblewrap_note,
            landlock_abi,
            landlock_note,
            seccomp: seccomp(),
        }
    })
}

/// Whether `p` exists (for mounts and rules that must name existing paths).
pub fn exists(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok()
}
