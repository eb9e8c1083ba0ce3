//! Small shared helpers: atomic file writes, neutralising untrusted text for the log.

pub mod atomic;
pub mod untrusted;
