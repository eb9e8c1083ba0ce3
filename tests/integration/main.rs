//! Every integration test of mf in one test binary (`cargo test --test integration`), so the
//! crate is linked once. One module per area; run one with `cargo test --test integration
//! render_eval::`. What the modules share is in `tests/support/` (declared once, below).

#[path = "../support/mod.rs"]
mod support;

mod ablate_cli;
mod action_metadata;
mod architecture;
mod bfcl_conformance;
mod case_cli;
mod check_coverage_cli;
mod ci_gate;
mod ci_github;
mod ci_templates;
mod cli_conventions;
mod cluster_cap;
mod cluster_servers;
mod compare_calibration;
mod compare_cli;
mod compare_simulation;
mod compare_surface;
mod eval_case_tools;
mod eval_cli;
mod eval_resume;
mod eval_shard;
mod exec_cli;
mod exec_combinations;
mod exec_eval;
mod exec_isolation;
mod exit_codes;
mod fork_pr;
mod hardening;
mod hardening_free_path;
mod label_files;
mod lint_cli;
mod lint_rules;
mod live_faults;
mod live_http_auth;
mod live_lint;
mod live_scan_probe;
mod live_servers;
mod local_llm;
mod mcp_server;
mod profiles_cli;
mod providers_wire;
mod readme;
mod render_eval;
mod render_lint;
mod report_schemas;
mod scan_cli;
mod scan_unread;
mod similarity_equivalence;
mod similarity_values;
mod snapshot_cli;
mod stats_properties;
mod stats_reference;
mod suite_read;
mod tasks_cli;
mod tokens_o200k;
