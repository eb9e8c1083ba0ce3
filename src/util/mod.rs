//! Small shared helpers: atomic file writes, the terminal width and wrapping.

pub mod atomic;
pub mod term;
