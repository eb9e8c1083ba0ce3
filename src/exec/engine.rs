//! The isolation engines: for a runtime and a setup, the command line that runs the harness and
//! the honest description of what it isolates ([`Isolation`]). Node runs under its permission
//! model; Python under bubblewrap, Landlock (through the exec shim) or a plain process. Every
//! engine runs through the exec shim (no core files, a file-size cap, and for Python the memory
//! cap as `RLIMIT_AS`), with a reduced environment and a fresh temp working folder.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::ExecError;
use super::config::{EngineChoice, ExecSetup, FILE_SIZE_CAP};
use super::probe::{self, Probes, PythonProbe};
use super::shim::ShimSpec;
use crate::report::exec::Isolation;
use crate::suite::execution::Runtime;

/// The files of one call's temp folder.
#[derive(Debug, Clone)]
pub struct CallDirs {
    /// The harness script.
    pub harness: PathBuf,
    /// The working folder (also `HOME` and `TMPDIR`), writable.
    pub work: PathBuf,
}

/// A ready command: program and arguments (before the shim), shim settings, isolation.
#[derive(Debug, Clone)]
pub struct Planned {
    /// The program.
    pub program: OsString,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// What the shim applies.
    pub shim: ShimSpec,
    /// What the call is isolated by.
    pub isolation: Isolation,
}

/// The engine names, best first, a runtime can use.
pub fn ladder(runtime: Runtime) -> &'static [&'static str] {
    match runtime {
        Runtime::Node => &["node-permission+bubblewrap", "node-permission", "plain"],
        Runtime::Python => &["bubblewrap", "landlock", "plain"],
    }
}

/// Which engine a call gets here (an explicit choice that is unavailable is an error).
pub fn choose(runtime: Runtime, choice: EngineChoice, p: &Probes) -> Result<&'static str, String> {
    match runtime {
        Runtime::Node => {
            let permission = p.node.as_ref().is_some_and(|n| n.permission_flag.is_some());
            match choice {
                EngineChoice::Plain => Ok("plain"),
                EngineChoice::Landlock => Err(
                    "--engine landlock is for Python; Node runs under its permission model".into(),
                ),
                EngineChoice::Bubblewrap if p.bubblewrap.is_none() => Err(format!(
                    "--engine bubblewrap: not available here ({})",
                    p.bubblewrap_note
                )),
                EngineChoice::Bubblewrap | EngineChoice::Auto
                    if permission && p.bubblewrap.is_some() =>
                {
                    Ok("node-permission+bubblewrap")
                }
                _ if permission => Ok("node-permission"),
                _ => Ok("plain"),
            }
        }
        Runtime::Python => match choice {
            EngineChoice::Auto => Ok(if p.bubblewrap.is_some() {
                "bubblewrap"
            } else if p.landlock_abi.is_some() {
                "landlock"
            } else {
                "plain"
            }),
            EngineChoice::Bubblewrap if p.bubblewrap.is_some() => Ok("bubblewrap"),
            EngineChoice::Bubblewrap => Err(format!(
                "--engine bubblewrap: not available here ({})",
                p.bubblewrap_note
            )),
            EngineChoice::Landlock if p.landlock_abi.is_some() => Ok("landlock"),
            EngineChoice::Landlock => Err(format!(
                "--engine landlock: not available here ({})",
                p.landlock_note
            )),
            EngineChoice::Plain => Ok("plain"),
        },
    }
}

/// The isolation an engine gives (also what `mf sandbox check` shows); `tcp_denied`: the
/// Landlock shim denies TCP ([`deny_tcp`]).
pub fn isolation(engine: &str, allow_net: bool, flag: Option<&str>, tcp_denied: bool) -> Isolation {
    let mut limits = vec![
        "timeout".to_owned(),
        "memory".to_owned(),
        "output".to_owned(),
        "file-size".to_owned(),
        "no-core".to_owned(),
    ];
    let (filesystem, network, notes): (&str, &str, Vec<String>) = match engine {
        "node-permission" => (
            "denied",
            if allow_net { "allowed" } else { "not-enforced" },
            vec![
                "Node's permission model: reads only beneath the entry's folder and \
                 --allow-read, writes only to the temp folder and --allow-write, no child \
                 processes or workers"
                    .into(),
                "the network is not restricted: Node's permission model has no network scope"
                    .into(),
            ],
        ),
        "node-permission+bubblewrap" => (
            "denied",
            if allow_net { "allowed" } else { "denied" },
            vec![
                "Node's permission model: reads only beneath the entry's folder and \
                 --allow-read, writes only to the temp folder and --allow-write, no child \
                 processes or workers"
                    .into(),
                "inside bubblewrap: only Node, the entry's folder and the allowed paths are \
                 mounted; fresh PID, IPC and network namespaces"
                    .into(),
            ],
        ),
        "bubblewrap" => (
            "denied",
            if allow_net { "allowed" } else { "denied" },
            vec![
                "bubblewrap: only the interpreter, the entry's folder and the allowed paths \
                 are mounted; fresh PID, IPC and network namespaces"
                    .into(),
            ],
        ),
        "landlock" => (
            "denied",
            if allow_net { "allowed" } else { "not-enforced" },
            vec![
                "Landlock: reads only beneath the interpreter, the entry's folder and \
                 --allow-read; writes only to the temp folder and --allow-write"
                    .into(),
                if tcp_denied {
                    "TCP connect and bind are denied (Landlock ABI 4+); UDP and other sockets \
                     are not (install bubblewrap for a network namespace)"
                        .into()
                } else {
                    "the network is not restricted (install bubblewrap for a network namespace)"
                        .into()
                },
            ],
        ),
        _ => (
            "not-enforced",
            if allow_net { "allowed" } else { "not-enforced" },
            vec![
                "plain process: reduced environment, fresh temp working folder and resource \
                 limits only; the tool can read and write whatever the user can (install \
                 bubblewrap: apt install bubblewrap)"
                    .into(),
            ],
        ),
    };
    limits.sort();
    Isolation {
        engine: engine.to_owned(),
        flag: flag.map(str::to_owned),
        filesystem: filesystem.to_owned(),
        network: network.to_owned(),
        limits,
        notes,
    }
}

/// The Landlock ABI that can deny TCP connect and bind.
const LANDLOCK_NET_ABI: u32 = 4;

/// Under the `landlock` engine on a kernel with Landlock ABI 4 or later and without
/// `--allow-net`: the shim denies every TCP connect and bind, and [`isolation`] says so. The
/// network stays `not-enforced`: UDP and other sockets are not covered.
pub fn deny_tcp(engine: &str, landlock_abi: Option<u32>, allow_net: bool) -> bool {
    engine == "landlock" && !allow_net && landlock_abi.is_some_and(|n| n >= LANDLOCK_NET_ABI)
}

fn os(s: impl Into<OsString>) -> OsString {
    s.into()
}

fn entry_dir(setup: &ExecSetup) -> PathBuf {
    setup
        .entry
        .parent()
        .map_or_else(|| PathBuf::from("/"), Path::to_path_buf)
}

/// The Node command under `engine` (`node-permission` or `plain`).
pub fn node(
    setup: &ExecSetup,
    dirs: &CallDirs,
    tool: &str,
    nonce: &str,
    engine: &str,
    p: &Probes,
    env: &[(String, OsString)],
) -> Planned {
    let mut args: Vec<OsString> = Vec::new();
    let flag = p.node.as_ref().and_then(|n| n.permission_flag.clone());
    let used_flag = if engine.starts_with("node-permission") {
        flag
    } else {
        None
    };
    if let Some(flag) = &used_flag {
        args.push(os(flag));
        let mut read = vec![entry_dir(setup), dirs.harness.clone(), dirs.work.clone()];
        read.extend(setup.allow_read.iter().cloned());
        for r in read {
            let mut a = OsString::from("--allow-fs-read=");
            a.push(r);
            args.push(a);
        }
        let mut write = vec![dirs.work.clone()];
        write.extend(setup.allow_write.iter().cloned());
        for w in write {
            let mut a = OsString::from("--allow-fs-write=");
            a.push(w);
            args.push(a);
        }
    }
    let heap_mb = (setup.max_memory_bytes / (1024 * 1024)).max(16);
    args.push(os(format!("--max-old-space-size={heap_mb}")));
    args.push(dirs.harness.clone().into_os_string());
    args.push(setup.entry.clone().into_os_string());
    args.push(os(tool));
    args.push(os(setup.export.clone().unwrap_or_default()));
    args.push(os(nonce));
    let (program, args) = if engine == "node-permission+bubblewrap" {
        let node = find_on_path("node").unwrap_or_else(|| PathBuf::from("/usr/bin/node"));
        // The installation: `…/bin/node` → `…` (nvm, a tarball), unless it is the system's.
        let mut dirs_ro: Vec<PathBuf> = Vec::new();
        if let Some(prefix) = node.parent().and_then(Path::parent)
            && !prefix.starts_with("/usr")
        {
            dirs_ro.push(prefix.to_path_buf());
        }
        let mut a = bwrap_prefix(setup, dirs, &dirs_ro, env);
        a.push(node.into_os_string());
        a.extend(args);
        (os("bwrap"), a)
    } else {
        (os("node"), args)
    };
    Planned {
        program,
        args,
        // V8 reserves far more address space than it uses: the memory cap is the heap flag and
        // the RSS watchdog, not RLIMIT_AS.
        shim: ShimSpec {
            file_size: Some(FILE_SIZE_CAP),
            ..ShimSpec::default()
        },
        isolation: isolation(engine, setup.allow_net, used_flag.as_deref(), false),
    }
}

/// The Python command under `engine` (`bubblewrap`, `landlock` or `plain`).
pub fn python(
    setup: &ExecSetup,
    dirs: &CallDirs,
    tool: &str,
    nonce: &str,
    engine: &str,
    py: &PythonProbe,
    env: &[(String, OsString)],
) -> Result<Planned, ExecError> {
    let harness_args = vec![
        os("-I"),
        dirs.harness.clone().into_os_string(),
        setup.entry.clone().into_os_string(),
        os(tool),
        os(nonce),
    ];
    let mut shim = ShimSpec {
        address_space: Some(setup.max_memory_bytes),
        file_size: Some(FILE_SIZE_CAP),
        ..ShimSpec::default()
    };
    let isolation = isolation(engine, setup.allow_net, None, false);
    let interpreter_dirs = {
        let mut v = vec![py.base_prefix.clone(), py.prefix.clone()];
        if let Some(d) = py.executable.parent() {
            v.push(d.to_path_buf());
        }
        v.sort();
        v.dedup();
        v
    };
    match engine {
        "bubblewrap" => {
            let mut a = bwrap_prefix(setup, dirs, &interpreter_dirs, env);
            a.push(py.executable.clone().into_os_string());
            a.extend(harness_args);
            Ok(Planned {
                program: os("bwrap"),
                args: a,
                shim,
                isolation,
            })
        }
        "landlock" => {
            let mut read: Vec<PathBuf> = [
                "/usr",
                "/bin",
                "/lib",
                "/lib32",
                "/lib64",
                "/etc/ld.so.cache",
                "/etc/localtime",
                "/etc/alternatives",
                "/etc/ssl",
                "/dev",
            ]
            .iter()
            .map(PathBuf::from)
            .collect();
            read.extend(interpreter_dirs);
            read.push(entry_dir(setup));
            read.push(dirs.harness.clone());
            read.extend(setup.allow_read.iter().cloned());
            read.retain(|p| probe::exists(p));
            let mut write = vec![dirs.work.clone()];
            write.extend(setup.allow_write.iter().cloned());
            shim.landlock_read = Some(read);
            shim.landlock_write = write;
            Ok(Planned {
                program: py.executable.clone().into_os_string(),
                args: harness_args,
                shim,
                isolation,
            })
        }
        _ => Ok(Planned {
            program: py.executable.clone().into_os_string(),
            args: harness_args,
            shim,
            isolation,
        }),
    }
}

/// The real path of `name` on `PATH`.
fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .and_then(|p| std::fs::canonicalize(p).ok())
}

/// bubblewrap's arguments up to the program: fresh namespaces (the network shared only with
/// `--allow-net`), exactly `env`, `/usr` and the library folders, a few files of `/etc`, the
/// interpreter's installation (`interpreter_dirs`), the entry's folder and the harness read-only,
/// the temp folder and `--allow-write` writable, `--allow-read` read-only, then `--chdir` and
/// `--`.
fn bwrap_prefix(
    setup: &ExecSetup,
    dirs: &CallDirs,
    interpreter_dirs: &[PathBuf],
    env: &[(String, OsString)],
) -> Vec<OsString> {
    let mut a: Vec<OsString> = Vec::new();
    let push = |a: &mut Vec<OsString>, flag: &str, from: &Path, to: &Path| {
        a.push(os(flag));
        a.push(from.as_os_str().to_owned());
        a.push(to.as_os_str().to_owned());
    };
    a.extend(
        [
            "--unshare-all",
            "--die-with-parent",
            "--new-session",
            "--clearenv",
        ]
        .map(os),
    );
    if setup.allow_net {
        a.push(os("--share-net"));
    }
    for (k, v) in env {
        a.push(os("--setenv"));
        a.push(os(k));
        a.push(v.clone());
    }
    push(&mut a, "--ro-bind", Path::new("/usr"), Path::new("/usr"));
    for top in ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] {
        let path = Path::new(top);
        match std::fs::read_link(path) {
            Ok(target) => {
                a.push(os("--symlink"));
                a.push(target.into_os_string());
                a.push(os(top));
            }
            Err(_) if path.is_dir() => push(&mut a, "--ro-bind", path, path),
            Err(_) => {}
        }
    }
    for f in [
        "/etc/ld.so.cache",
        "/etc/localtime",
        "/etc/alternatives",
        "/etc/ssl",
    ] {
        push(&mut a, "--ro-bind-try", Path::new(f), Path::new(f));
    }
    if setup.allow_net {
        for f in ["/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf"] {
            push(&mut a, "--ro-bind-try", Path::new(f), Path::new(f));
        }
    }
    a.extend(["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"].map(os));
    for d in interpreter_dirs {
        push(&mut a, "--ro-bind", d, d);
    }
    let entry = entry_dir(setup);
    push(&mut a, "--ro-bind", &entry, &entry);
    push(&mut a, "--ro-bind", &dirs.harness, &dirs.harness);
    for r in &setup.allow_read {
        push(&mut a, "--ro-bind", r, r);
    }
    push(&mut a, "--bind", &dirs.work, &dirs.work);
    for w in &setup.allow_write {
        push(&mut a, "--bind", w, w);
    }
    a.push(os("--chdir"));
    a.push(dirs.work.clone().into_os_string());
    a.push(os("--"));
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::probe::NodeProbe;

    fn probes(flag: Option<&str>, bwrap: bool, landlock: bool) -> Probes {
        Probes {
            node: Some(NodeProbe {
                version: "v20.20.2".into(),
                permission_flag: flag.map(str::to_owned),
            }),
            bubblewrap: bwrap.then(|| "0.8.0".to_owned()),
            bubblewrap_note: "not on PATH".into(),
            landlock_abi: landlock.then_some(6),
            landlock_note: "not available".into(),
            seccomp: true,
        }
    }

    #[test]
    fn the_strongest_available_engine_is_chosen_and_an_unavailable_choice_is_an_error() {
        let all = probes(Some("--experimental-permission"), true, true);
        let none = probes(None, false, false);
        let auto = EngineChoice::Auto;
        assert_eq!(
            choose(Runtime::Node, auto, &all),
            Ok("node-permission+bubblewrap")
        );
        assert_eq!(
            choose(
                Runtime::Node,
                auto,
                &probes(Some("--permission"), false, true)
            ),
            Ok("node-permission")
        );
        assert_eq!(choose(Runtime::Node, auto, &none), Ok("plain"));
        assert!(choose(Runtime::Node, EngineChoice::Landlock, &all).is_err());
        assert_eq!(choose(Runtime::Python, auto, &all), Ok("bubblewrap"));
        assert_eq!(
            choose(Runtime::Python, auto, &probes(None, false, true)),
            Ok("landlock")
        );
        assert_eq!(choose(Runtime::Python, auto, &none), Ok("plain"));
        let err = choose(Runtime::Python, EngineChoice::Bubblewrap, &none)
            .expect_err("bubblewrap is unavailable");
        assert!(err.contains("not on PATH"), "{err}");
        assert!(choose(Runtime::Python, EngineChoice::Landlock, &none).is_err());
    }

    #[test]
    fn every_engine_says_what_it_does_not_enforce() {
        assert_eq!(
            isolation("plain", false, None, false).filesystem,
            "not-enforced"
        );
        assert_eq!(
            isolation("plain", false, None, false).network,
            "not-enforced"
        );
        assert_eq!(
            isolation("node-permission", false, None, false).network,
            "not-enforced"
        );
        assert_eq!(
            isolation("landlock", false, None, false).network,
            "not-enforced"
        );
        for e in ["bubblewrap", "node-permission+bubblewrap"] {
            assert_eq!(isolation(e, false, None, false).network, "denied", "{e}");
            assert_eq!(isolation(e, true, None, false).network, "allowed", "{e}");
            assert_eq!(isolation(e, false, None, false).filesystem, "denied", "{e}");
        }
    }
}
