//! One supervised child: started through the exec shim in a process group of its own with only
//! the given environment, fed its arguments on stdin, watched every few milliseconds for the
//! timeout, the memory cap (resident memory of the child and its descendants, from `/proc`) and
//! the output cap. Any of the three kills the whole group (and descendants that left it) and
//! waits for it, so no process is left behind.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::ExecError;

/// Why the supervisor stopped the child.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// It exited by itself.
    Exited,
    /// Killed at the timeout.
    Timeout,
    /// Killed over the memory cap.
    Memory,
    /// Killed over the output cap.
    Output,
}

/// What a child did.
#[derive(Debug, Clone)]
pub struct Finished {
    /// Why it stopped.
    pub stopped: Stopped,
    /// Its exit code (`None` when killed by a signal).
    pub code: Option<i32>,
    /// Stdout (at most the cap).
    pub stdout: Vec<u8>,
    /// The last 64 KiB of stderr.
    pub stderr: Vec<u8>,
    /// Wall time from spawn to exit.
    pub wall: Duration,
    /// The highest resident memory seen by the watchdog (bytes), 0 when never sampled.
    pub peak_rss: u64,
}

/// Limits of one run.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Kill at this wall time.
    pub timeout: Duration,
    /// Kill above this resident memory (bytes).
    pub memory: u64,
    /// Kill above this much stdout (bytes).
    pub output: u64,
}

const STDERR_TAIL: usize = 64 * 1024;

/// Run `argv` (program first) with exactly `env`, in `cwd`, feeding `input` on stdin.
pub fn run(
    argv: &[OsString],
    env: &[(String, OsString)],
    cwd: &Path,
    input: &[u8],
    limits: Limits,
) -> Result<Finished, ExecError> {
    let Some((program, args)) = argv.split_first() else {
        return Err(ExecError::Config("empty command".into()));
    };
    let mut cmd = Command::new(program);
    cmd.args(args)
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k, v)))
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let started = Instant::now();
    let mut child = cmd
        .spawn()
        .map_err(|e| ExecError::Config(format!("cannot start the exec shim: {e}")))?;
    let pid = child.id();
    let (Some(mut stdin), Some(mut stdout), Some(mut stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        kill_tree(pid);
        let _ = child.wait();
        return Err(ExecError::Config("no pipes to the child".into()));
    };
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let over_output = Arc::new(AtomicBool::new(false));
    let out_buf = Arc::new(Mutex::new(Vec::new()));
    let out_reader = {
        let flag = Arc::clone(&over_output);
        let buf = Arc::clone(&out_buf);
        let cap = usize::try_from(limits.output).unwrap_or(usize::MAX);
        std::thread::spawn(move || {
            let mut chunk = [0u8; 16384];
            while let Ok(n) = stdout.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                let mut b = buf
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if b.len() + n > cap {
                    flag.store(true, Ordering::Relaxed);
                    break;
                }
                b.extend_from_slice(&chunk[..n]);
            }
        })
    };
    let err_buf = Arc::new(Mutex::new(Vec::new()));
    let err_reader = {
        let buf = Arc::clone(&err_buf);
        std::thread::spawn(move || {
            let mut chunk = [0u8; 16384];
            while let Ok(n) = stderr.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                let mut b = buf
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                b.extend_from_slice(&chunk[..n]);
                if b.len() > STDERR_TAIL {
                    let excess = b.len() - STDERR_TAIL;
                    b.drain(..excess);
                }
            }
        })
    };
    let mut peak_rss = 0u64;
    let mut tree = vec![pid];
    let mut last_tree = Instant::now();
    let mut stopped = Stopped::Exited;
    let status = loop {
        if let Ok(Some(status)) = child.try_wait() {
            break Some(status);
        }
        if started.elapsed() >= limits.timeout {
            stopped = Stopped::Timeout;
            break None;
        }
        if over_output.load(Ordering::Relaxed) {
            stopped = Stopped::Output;
            break None;
        }
        if last_tree.elapsed() >= Duration::from_millis(200) {
            tree = descendants(pid);
            last_tree = Instant::now();
        }
        let rss: u64 = tree.iter().map(|p| rss_bytes(*p)).sum();
        peak_rss = peak_rss.max(rss);
        if rss > limits.memory {
            stopped = Stopped::Memory;
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let status = match status {
        Some(s) => s,
        None => {
            kill_tree(pid);
            child
                .wait()
                .map_err(|e| ExecError::Config(format!("waiting for the child: {e}")))?
        }
    };
    let wall = started.elapsed();
    // Whatever is left of the group (a grandchild holding the pipes) goes too.
    kill_tree(pid);
    // A descendant that escaped the kill could hold the pipes open: wait for the readers a
    // moment, never forever.
    let deadline = Instant::now() + Duration::from_secs(1);
    while !(feeder.is_finished() && out_reader.is_finished() && err_reader.is_finished())
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(5));
    }
    // A process that wrote past the cap and exited before the loop saw the flag is over the
    // cap all the same (its output was cut, so its result is not to be trusted).
    if matches!(stopped, Stopped::Exited) && over_output.load(Ordering::Relaxed) {
        stopped = Stopped::Output;
    }
    let take = |b: &Arc<Mutex<Vec<u8>>>| {
        std::mem::take(&mut *b.lock().unwrap_or_else(std::sync::PoisonError::into_inner))
    };
    Ok(Finished {
        stopped,
        code: status.code(),
        stdout: take(&out_buf),
        stderr: take(&err_buf),
        wall,
        peak_rss,
    })
}

/// Kill the process group led by `pid` and its descendants that left the group.
fn kill_tree(pid: u32) {
    crate::surface::live::kill_group(pid);
}

/// `pid` and every descendant now (Linux `/proc`; elsewhere just `pid`).
fn descendants(pid: u32) -> Vec<u32> {
    let mut out = vec![pid];
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    let mut parents: Vec<(u32, u32)> = Vec::new();
    for entry in dir.flatten() {
        let Some(p) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{p}/stat")) else {
            continue;
        };
        if let Some((_, rest)) = stat.rsplit_once(") ")
            && let Some(ppid) = rest.split_whitespace().nth(1).and_then(|s| s.parse().ok())
        {
            parents.push((p, ppid));
        }
    }
    let mut i = 0;
    while i < out.len() {
        let parent = out[i];
        for (p, pp) in &parents {
            if *pp == parent && !out.contains(p) {
                out.push(*p);
            }
        }
        i += 1;
    }
    out
}

/// Resident memory of `pid` in bytes (`VmRSS`), 0 when unknown.
fn rss_bytes(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}
