//! Small shared helpers: atomic file writes, the closest names for "did you mean", the SHA-256 counter stream, the HTTP client builder (the one crypto provider), the safe-open
//! for repository files, the YAML nesting pre-scan, neutralising untrusted text for the log, the terminal width and wrapping.

pub mod atomic;
pub mod closest;
pub mod counter_stream;
pub mod http;
pub mod safe_read;
pub mod term;
pub mod untrusted;
pub mod yaml_limits;
