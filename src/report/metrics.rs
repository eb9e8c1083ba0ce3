//! TODO metrics
