//! Small shared helpers: atomic file writes, the safe-open for repository files.

pub mod atomic;
pub mod safe_read;
