//! The scan report (`mf.scan.json`, SCHEMA.md §Scan report) and the suite draft a scan writes.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::suite::{InlineTool, SUITE_VERSION, Suite, SuiteSkill, SuiteTool};
use crate::surface::fingerprint::surface_fingerprint;
use crate::surface::normalize::{RefIssue, normalize_surface};
use crate::surface::scan::mcp_config::ConfiguredServer;
use crate::surface::scan::{ScanResult, ScanWarning};
use crate::surface::tokens::{SurfaceTokens, ToolTokens, surface_tokens};
use crate::surface::{Skill, SourceFormat, Surface, Tool};

/// Scan report format version.
pub const SCAN_REPORT_VERSION: u32 = 1;

/// `mf.scan.json`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScanReport {
    /// Format version; 1.
    pub version: u32,
    /// Always `"scan"`.
    pub kind: &'static str,
    /// The root as given on the command line.
    pub root: String,
    /// Counts.
    pub summary: ScanSummary,
    /// `sha256:` fingerprint of the tools found (SCHEMA.md §Fingerprint).
    pub fingerprint: String,
    /// Token total of all tools.
    pub tokens: SurfaceTokens,
    /// Every tool, sorted by file, line, column, name.
    pub tools: Vec<ScannedTool>,
    /// Every skill.
    pub skills: Vec<Skill>,
    /// MCP servers configured for clients (names of env vars and headers only).
    pub servers: Vec<ConfiguredServer>,
    /// `$ref`s that could not be inlined.
    pub ref_issues: Vec<RefIssue>,
    /// Files skipped or partly read, with the reason.
    pub warnings: Vec<ScanWarning>,
    /// MCP servers seen in code whose tools could not all be read (`server-unread`).
    pub unread: Vec<UnreadServer>,
    /// What the scan decided and why: code tools replaced by a declared snapshot (absent when
    /// there is nothing to say).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Configured servers started by `--probe` (absent without it).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub probes: Vec<Probe>,
}

/// A server seen in code whose tools could not all be read.
pub use crate::surface::scan::unread::UnreadServer;

/// The outcome of starting one configured server (`mf scan --probe`).
pub use crate::surface::scan::probe::Probe;

/// Counts of a scan.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScanSummary {
    /// Files visited after ignores.
    pub files_walked: usize,
    /// Files that held a tool, skill or server.
    pub files_recognized: usize,
    /// Tools found.
    pub tools: usize,
    /// Skills found.
    pub skills: usize,
    /// Servers configured.
    pub servers: usize,
    /// Tools per source format.
    pub by_format: BTreeMap<SourceFormat, usize>,
    /// Warnings.
    pub warnings: usize,
    /// `server-unread` findings: servers whose tools could not all be read.
    pub unread_servers: usize,
}

/// A tool in the scan report: the tool plus its token counts.
#[derive(Debug, Clone, Serialize)]
pub struct ScannedTool {
    /// The tool as found.
    #[serde(flatten)]
    pub tool: Tool,
    /// Its token counts.
    pub tokens: ToolTokens,
}

/// Build the report from a scan.
pub fn build(root: &str, result: &ScanResult) -> ScanReport {
    let surface = Surface {
        tools: result.tools.clone(),
        skills: result.skills.clone(),
        unread: Vec::new(),
    };
    let normalized = normalize_surface(&surface);
    let (per_tool, tokens) = surface_tokens(&result.tools, true);
    let mut by_format = BTreeMap::new();
    for t in &result.tools {
        *by_format.entry(t.origin.format).or_insert(0) += 1;
    }
    ScanReport {
        version: SCAN_REPORT_VERSION,
        kind: "scan",
        root: root.to_owned(),
        summary: ScanSummary {
            files_walked: result.files_walked,
            files_recognized: result.files_recognized,
            tools: result.tools.len(),
            skills: result.skills.len(),
            servers: result.servers.len(),
            by_format,
            warnings: result.warnings.len(),
            unread_servers: result.unread.len(),
        },
        fingerprint: surface_fingerprint(&surface),
        tokens,
        tools: result
            .tools
            .iter()
            .cloned()
            .zip(per_tool)
            .map(|(tool, tokens)| ScannedTool { tool, tokens })
            .collect(),
        skills: result.skills.clone(),
        servers: result.servers.clone(),
        ref_issues: normalized.ref_issues,
        warnings: result.warnings.clone(),
        unread: result.unread.clone(),
        notes: result.notes.clone(),
        probes: Vec::new(),
    }
}

/// The draft suite: every tool inline with its origin, skills, no cases yet.
pub fn draft_suite(name: &str, result: &ScanResult) -> Suite {
    let tools = result
        .tools
        .iter()
        .map(|t| {
            SuiteTool::Inline(Box::new(InlineTool {
                name: t.name.clone(),
                title: t.title.clone(),
                description: t.description.clone(),
                parameters: t.input_schema.clone(),
                annotations: t.annotations.clone(),
                side_effects: None,
                origin: Some(t.origin.display()),
            }))
        })
        .collect();
    Suite {
        schema: None,
        version: SUITE_VERSION,
        name: name.to_owned(),
        description: Some(
            "Draft written by `mf scan`: review the tools, add cases, then remove `draft`.".into(),
        ),
        draft: true,
        tools,
        skills: result
            .skills
            .iter()
            .map(|s| SuiteSkill {
                name: s.name.clone(),
                description: s.description.clone(),
            })
            .collect(),
        cases: vec![],
        profiles: BTreeMap::new(),
        suppressions: vec![],
        execution: None,
        ..Suite::default()
    }
}
