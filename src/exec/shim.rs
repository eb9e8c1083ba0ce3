//! The exec shim: mf re-executes itself as `mf __mf-exec-shim [limits] -- PROGRAM ARGS…` to set
//! resource limits and (on Linux) a Landlock ruleset on *itself*, then `exec`s the interpreter,
//! which inherits both. This is how a child is restricted without `unsafe` `pre_exec` code: the
//! restriction happens in a process of its own, before the tool's code exists.
//!
//! The shim's arguments are written by [`ShimSpec::to_args`] and read back by
//! [`main_if_shim`]; nobody else writes them. `--landlock-probe` restricts the shim with an
//! empty ruleset and prints the ABI it got (for `mf sandbox check`).

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

/// The first argument that turns `mf` into the shim.
pub const SHIM_ARG: &str = "__mf-exec-shim";

/// Exit status of a shim that could not apply what it was asked (the run is reported as
/// crashed with the shim's message, never run weaker than asked).
pub const SHIM_FAILED: u8 = 125;

/// What the shim applies before `exec`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShimSpec {
    /// Landlock: paths readable (and executable) beneath; `None` = no Landlock.
    pub landlock_read: Option<Vec<PathBuf>>,
    /// Landlock: paths writable beneath (with `landlock_read` set).
    pub landlock_write: Vec<PathBuf>,
    /// Landlock (ABI 4 or later, with `landlock_read` set): deny every TCP connect and bind.
    pub deny_tcp: bool,
    /// `RLIMIT_AS` in bytes.
    pub address_space: Option<u64>,
    /// `RLIMIT_FSIZE` in bytes (the largest file the tool can write).
    pub file_size: Option<u64>,
    /// The pid of the mf that starts the shim: once the death signal is armed, a shim whose
    /// parent is no longer this pid (mf died before the shim got going) stops there.
    pub parent: Option<u32>,
}

impl ShimSpec {
    /// The shim's command line after `mf`: `__mf-exec-shim [options] -- program args…`.
    pub fn to_args(&self, program: &OsString, args: &[OsString]) -> Vec<OsString> {
        let mut out: Vec<OsString> = vec![SHIM_ARG.into()];
        if let Some(read) = &self.landlock_read {
            out.push("--landlock".into());
            for p in read {
                out.push("--read".into());
                out.push(p.clone().into_os_string());
            }
            for p in &self.landlock_write {
                out.push("--write".into());
                out.push(p.clone().into_os_string());
            }
            if self.deny_tcp {
                out.push("--deny-tcp".into());
            }
        }
        if let Some(n) = self.address_space {
            out.push("--as".into());
            out.push(n.to_string().into());
        }
        if let Some(n) = self.file_size {
            out.push("--fsize".into());
            out.push(n.to_string().into());
        }
        if let Some(n) = self.parent {
            out.push("--parent".into());
            out.push(n.to_string().into());
        }
        out.push("--".into());
        out.push(program.clone());
        out.extend(args.iter().cloned());
        out
    }
}

/// When this process was started as the shim, do its job and return its exit status (only on
/// failure: on success the process becomes the interpreter). `None` for a normal `mf` run.
pub fn main_if_shim() -> Option<ExitCode> {
    let mut argv = std::env::args_os().skip(1);
    if argv.next().as_deref() != Some(std::ffi::OsStr::new(SHIM_ARG)) {
        return None;
    }
    let rest: Vec<OsString> = argv.collect();
    Some(match run(rest) {
        Ok(never) => match never {},
        Err(message) => {
            #[allow(clippy::print_stderr)]
            {
                eprintln!("mf exec shim: {message}");
            }
            ExitCode::from(SHIM_FAILED)
        }
    })
}

enum Never {}

fn run(args: Vec<OsString>) -> Result<Never, String> {
    let mut spec = ShimSpec::default();
    let mut probe = false;
    let mut it = args.into_iter();
    let mut command = Vec::new();
    while let Some(a) = it.next() {
        match a.to_str() {
            Some("--landlock") => spec.landlock_read = Some(Vec::new()),
            Some("--landlock-probe") => probe = true,
            Some("--deny-tcp") => spec.deny_tcp = true,
            Some("--read") => {
                let p = it.next().ok_or("--read needs a path")?;
                spec.landlock_read
                    .get_or_insert_with(Vec::new)
                    .push(p.into());
            }
            Some("--write") => spec
                .landlock_write
                .push(it.next().ok_or("--write needs a path")?.into()),
            Some("--as") => spec.address_space = Some(number(it.next())?),
            Some("--fsize") => spec.file_size = Some(number(it.next())?),
            Some("--parent") => {
                spec.parent =
                    Some(u32::try_from(number(it.next())?).map_err(|_| "--parent needs a pid")?)
            }
            Some("--") => {
                command = it.collect();
                break;
            }
            _ => return Err(format!("unknown shim argument {a:?}")),
        }
    }
    if probe {
        return Err(landlock_probe());
    }
    limits(&spec)?;
    if let Some(read) = &spec.landlock_read {
        landlock(read, &spec.landlock_write, spec.deny_tcp)?;
    }
    let Some((program, args)) = command.split_first() else {
        return Err("no program after --".into());
    };
    exec(program, args)
}

fn number(v: Option<OsString>) -> Result<u64, String> {
    v.and_then(|s| s.to_str().and_then(|s| s.parse().ok()))
        .ok_or_else(|| "a limit needs a number".to_owned())
}

#[cfg(unix)]
fn limits(spec: &ShimSpec) -> Result<(), String> {
    use nix::sys::resource::{Resource, setrlimit};
    // Linux: the tool dies with mf (a Ctrl-C, a crash), not only at the timeout. The signal
    // survives `exec`; if mf is already gone, stop here.
    #[cfg(target_os = "linux")]
    {
        // Read before arming: if mf is already gone by now, the parent read here is whoever
        // adopted the shim, so the pid mf passed (`--parent`) is what is compared.
        let parent = spec.parent.map_or_else(nix::unistd::getppid, |p| {
            nix::unistd::Pid::from_raw(p as i32)
        });
        nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL)
            .map_err(|e| format!("PR_SET_PDEATHSIG: {e}"))?;
        if nix::unistd::getppid() != parent {
            return Err("mf exited before the tool started".into());
        }
    }
    // No core files: a crashing tool must not leave its memory on disk.
    setrlimit(Resource::RLIMIT_CORE, 0, 0).map_err(|e| format!("RLIMIT_CORE: {e}"))?;
    if let Some(n) = spec.address_space {
        let set = setrlimit(Resource::RLIMIT_AS, n, n);
        // macOS refuses most RLIMIT_AS values; there the watchdog's RSS cap is the memory cap.
        #[cfg(target_os = "linux")]
        set.map_err(|e| format!("RLIMIT_AS: {e}"))?;
        #[cfg(not(target_os = "linux"))]
        let _ = set;
    }
    if let Some(n) = spec.file_size {
        setrlimit(Resource::RLIMIT_FSIZE, n, n).map_err(|e| format!("RLIMIT_FSIZE: {e}"))?;
    }
    Ok(())
}

#[cfg(not(unix))]
fn limits(_spec: &ShimSpec) -> Result<(), String> {
    Ok(())
}

#[cfg(unix)]
fn exec(program: &OsString, args: &[OsString]) -> Result<Never, String> {
    use std::os::unix::process::CommandExt;
    let err = std::process::Command::new(program).args(args).exec();
    Err(format!("cannot run {}: {err}", program.to_string_lossy()))
}

#[cfg(not(unix))]
fn exec(program: &OsString, _args: &[OsString]) -> Result<Never, String> {
    Err(format!(
        "{}: the exec shim needs a Unix system",
        program.to_string_lossy()
    ))
}

/// Restrict this process with Landlock: read/execute beneath `read`, read/write beneath
/// `write`, nothing else on the file system, and with `deny_tcp` no TCP connect or bind (ABI 4).
/// Anything short of full enforcement is an error (the caller chose Landlock because the probe
/// said it is available; the TCP rule is a hard requirement).
#[cfg(target_os = "linux")]
fn landlock(read: &[PathBuf], write: &[PathBuf], deny_tcp: bool) -> Result<(), String> {
    use landlock::{
        ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, Ruleset, RulesetAttr,
        RulesetCreatedAttr, RulesetStatus, path_beneath_rules,
    };
    let abi = ABI::V3;
    let all = AccessFs::from_all(abi);
    let readable = AccessFs::from_read(abi);
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(all)
        .map_err(|e| e.to_string())?;
    if deny_tcp {
        // No port is allowed: handling both rights without a rule denies them all.
        ruleset = ruleset
            .set_compatibility(CompatLevel::HardRequirement)
            .handle_access(AccessNet::from_all(ABI::V4))
            .map_err(|e| format!("Landlock cannot deny TCP here: {e}"))?;
    }
    let status = ruleset
        .create()
        .map_err(|e| e.to_string())?
        .add_rules(path_beneath_rules(read, readable))
        .map_err(|e| e.to_string())?
        .add_rules(path_beneath_rules(write, all))
        .map_err(|e| e.to_string())?
        .restrict_self()
        .map_err(|e| e.to_string())?;
    match status.ruleset {
        RulesetStatus::FullyEnforced | RulesetStatus::PartiallyEnforced => Ok(()),
        RulesetStatus::NotEnforced => Err("Landlock is not enforced by this kernel".into()),
    }
}

#[cfg(not(target_os = "linux"))]
fn landlock(_read: &[PathBuf], _write: &[PathBuf], _deny_tcp: bool) -> Result<(), String> {
    Err("Landlock is Linux only".into())
}

/// Restrict the shim itself with a minimal ruleset and say what the kernel enforced:
/// `landlock: fully-enforced abi N`, `landlock: partially-enforced`, `landlock: not-enforced …`.
/// Returned as the shim's "error" so it ends with [`SHIM_FAILED`] after printing it.
#[cfg(target_os = "linux")]
fn landlock_probe() -> String {
    use landlock::{ABI, Access, AccessFs, CompatLevel, Compatible, Ruleset, RulesetAttr};
    let mut best = None;
    // The highest ABI the kernel fully enforces, newest first.
    for (n, abi) in [
        (6, ABI::V6),
        (5, ABI::V5),
        (4, ABI::V4),
        (3, ABI::V3),
        (2, ABI::V2),
        (1, ABI::V1),
    ] {
        let created = Ruleset::default()
            .set_compatibility(CompatLevel::HardRequirement)
            .handle_access(AccessFs::from_all(abi))
            .and_then(|r| r.create());
        if created.is_ok() {
            best = Some(n);
            break;
        }
    }
    match best {
        Some(n) => format!("landlock: available abi {n}"),
        None => "landlock: not available (the kernel has no Landlock or it is disabled)".into(),
    }
}

#[cfg(not(target_os = "linux"))]
fn landlock_probe() -> String {
    "landlock: not available (Linux only)".into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shim_command_line_carries_every_setting_before_the_program() {
        let spec = ShimSpec {
            landlock_read: Some(vec!["/usr".into(), "/work/tools".into()]),
            landlock_write: vec!["/tmp/w".into()],
            deny_tcp: true,
            address_space: Some(512),
            file_size: Some(64),
            parent: Some(4242),
        };
        let args = spec.to_args(&"python3".into(), &["-I".into(), "--".into()]);
        let text: Vec<String> = args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            text,
            [
                SHIM_ARG,
                "--landlock",
                "--read",
                "/usr",
                "--read",
                "/work/tools",
                "--write",
                "/tmp/w",
                "--deny-tcp",
                "--as",
                "512",
                "--fsize",
                "64",
                "--parent",
                "4242",
                "--",
                "python3",
                "-I",
                "--"
            ]
        );
        // Without Landlock no rule is written, not even a TCP one.
        let plain = ShimSpec {
            deny_tcp: true,
            ..ShimSpec::default()
        }
        .to_args(&"node".into(), &[]);
        assert_eq!(plain.len(), 3, "{plain:?}");
    }
}
