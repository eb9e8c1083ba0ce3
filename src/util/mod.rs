//! Small shared helpers: atomic file writes, the safe-open for repository files, the YAML
//! nesting pre-scan.

pub mod atomic;
pub mod safe_read;
pub mod yaml_limits;
