//! The v1 exit codes (SCHEMA.md "Exit codes"). Stable: scripts and the Action rely on them.

use std::process::ExitCode;

use crate::Error;

/// How a run of `mf` ended, as the process exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// 0: the command did its job and every gate passed.
    Ok,
    /// 1: bad input or usage; `compare` found the runs not comparable.
    InputError,
    /// 2: a quality gate failed.
    GateFailed,
    /// 3: `exec` refused by policy, or `scan` found no tools.
    NothingFound,
    /// 3: `exec` refused the call by policy (admission by `sideEffects`).
    Refused,
    /// 4: `exec` timed out.
    TimedOut,
    /// 5: the run itself was unhealthy.
    Unhealthy,
    /// 130: interrupted.
    Interrupted,
}

impl Exit {
    /// The numeric status.
    pub fn code(self) -> u8 {
        match self {
            Exit::Ok => 0,
            Exit::InputError => 1,
            Exit::GateFailed => 2,
            Exit::NothingFound | Exit::Refused => 3,
            Exit::TimedOut => 4,
            Exit::Unhealthy => 5,
            Exit::Interrupted => 130,
        }
    }

    /// The exit status for a run that stopped with `err`.
    /// Every error is an input or usage error (1), except an interrupt (130): a budget or a
    /// comment failure stops the run before any gate could be judged.
    pub fn from_error(err: &Error) -> Exit {
        if err.is_interrupted() {
            Exit::Interrupted
        } else {
            Exit::InputError
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit.code())
    }
}
