//! `mf sandbox check`: every engine probed, and for Node and Python the engine a call would run
//! under here and what it falls back to.

use super::config::EngineChoice;
use super::engine::{choose, deny_tcp, isolation, ladder};
use super::probe::{self, Probes};
use crate::report::exec::{EngineProbe, RuntimePlan, SandboxReport};
use crate::suite::execution::Runtime;

fn engines(p: &Probes) -> Vec<EngineProbe> {
    let node_flag = p.node.as_ref().and_then(|n| n.permission_flag.clone());
    vec![
        EngineProbe {
            name: "node-permission".into(),
            available: node_flag.is_some(),
            used: node_flag.is_some(),
            detail: node_flag.clone(),
            note: match &p.node {
                None => "node is not on PATH".into(),
                Some(n) if n.permission_flag.is_none() => format!(
                    "node {} has no permission model (it needs Node 20 or newer)",
                    n.version
                ),
                Some(n) => format!(
                    "node {}: file system, child processes and workers restricted; no network scope",
                    n.version
                ),
            },
        },
        EngineProbe {
            name: "bubblewrap".into(),
            available: p.bubblewrap.is_some(),
            used: p.bubblewrap.is_some(),
            detail: p.bubblewrap.clone(),
            note: p.bubblewrap_note.clone(),
        },
        EngineProbe {
            name: "landlock".into(),
            available: p.landlock_abi.is_some(),
            used: p.landlock_abi.is_some() && p.bubblewrap.is_none(),
            detail: p.landlock_abi.map(|n| format!("abi {n}")),
            note: if p.landlock_abi.is_some() && p.bubblewrap.is_some() {
                format!("{}; Python uses bubblewrap first", p.landlock_note)
            } else {
                p.landlock_note.clone()
            },
        },
        EngineProbe {
            name: "seccomp".into(),
            available: p.seccomp,
            used: false,
            detail: None,
            note: if p.seccomp {
                "the kernel supports seccomp; mf installs no system-call filter of its own".into()
            } else {
                "no seccomp on this system".into()
            },
        },
        EngineProbe {
            name: "plain".into(),
            available: true,
            used: true,
            detail: None,
            note: "always available: reduced environment, fresh temp working folder, timeout, \
                   memory, output and file-size caps; no file-system or network isolation"
                .into(),
        },
    ]
}

fn plan(runtime: Runtime, p: &Probes, python: &str) -> RuntimePlan {
    let interpreter = match runtime {
        Runtime::Node => p.node.as_ref().map(|n| format!("node {}", n.version)),
        Runtime::Python => probe::python(python)
            .ok()
            .map(|py| format!("{} {}", py.executable.display(), py.version)),
    };
    let engine = interpreter
        .as_ref()
        .and_then(|_| choose(runtime, EngineChoice::Auto, p).ok());
    let fallback = ladder(runtime)
        .iter()
        .skip_while(|e| Some(**e) != engine)
        .skip(1)
        .filter(|e| match **e {
            "landlock" => p.landlock_abi.is_some(),
            "bubblewrap" | "node-permission+bubblewrap" => p.bubblewrap.is_some(),
            "node-permission" => p.node.as_ref().is_some_and(|n| n.permission_flag.is_some()),
            _ => true,
        })
        .map(|e| (*e).to_owned())
        .collect();
    let flag = p.node.as_ref().and_then(|n| n.permission_flag.as_deref());
    RuntimePlan {
        runtime: runtime.as_str().into(),
        interpreter,
        engine: engine.map(str::to_owned),
        fallback,
        isolation: engine.map(|e| {
            isolation(
                e,
                false,
                e.starts_with("node-permission").then_some(flag).flatten(),
                deny_tcp(e, p.landlock_abi, false),
            )
        }),
    }
}

/// The `mf sandbox check` document; `python` is the interpreter to look for.
pub fn check(python: &str) -> SandboxReport {
    let p = probe::probes();
    SandboxReport {
        version: 1,
        kind: "sandbox-check".into(),
        platform: std::env::consts::OS.into(),
        engines: engines(p),
        runtimes: vec![
            plan(Runtime::Node, p, python),
            plan(Runtime::Python, p, python),
        ],
    }
}
