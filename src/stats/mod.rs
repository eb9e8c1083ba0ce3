//! Statistics: pure functions, each citing its formula.
