//! Small shared helpers: atomic file writes.

pub mod atomic;
