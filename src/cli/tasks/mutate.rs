//! `mf tasks mutate` flags.

use std::path::PathBuf;

use clap::Args;

use crate::suite::mutate::MutationKind;

/// Write deterministic, model-free variants of each reviewed case that keep its expected tool:
/// casing, punctuation, filler and politeness, seeded typos, safe word order, a distractor
/// clause naming another tool's object. The output holds the suite's cases, then the variants
/// (`reviewed: false`, `source: mutate`, `mutatedFrom`, `mutation`); evaluate it to get the
/// scorecard's `robustness` (original vs mutated pass rates). Same seed → byte-identical file.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  mf tasks mutate --suite mf.suite.json --seed 7 --out mf.mutated.json
  mf tasks mutate --suite tasks.yaml --seed 7 --kinds typos,distractor --out tasks.mutated.yaml
  mf eval --suite mf.mutated.json --models lexical     robustness: original vs mutated")]
pub struct MutateArgs {
    /// The suite or task set whose reviewed cases are varied.
    #[arg(long, value_name = "FILE", default_value = "mf.suite.json")]
    pub suite: PathBuf,
    /// Seed of the variants (the same seed writes the same bytes).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,
    /// Where to write (`.yaml`/`.yml` → YAML, else JSON); the suite's shape is kept.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Which variants (comma-separated): casing, punctuation, filler, typos, word-order,
    /// distractor. Default: all.
    #[arg(long, value_name = "KINDS", value_delimiter = ',', value_parser = parse_kind)]
    pub kinds: Vec<MutationKind>,
    /// Overwrite FILE when it exists.
    #[arg(long)]
    pub force: bool,
}

fn parse_kind(s: &str) -> Result<MutationKind, String> {
    MutationKind::parse(s.trim()).ok_or_else(|| {
        let all: Vec<&str> = MutationKind::ALL.iter().map(|k| k.name()).collect();
        format!("unknown kind {s:?}; kinds: {}", all.join(", "))
    })
}
