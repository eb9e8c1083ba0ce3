//! `mf tasks import`: read a benchmark's files, convert them (`suite::import`), write the
//! suite, and say what the conversion changed.

use std::path::Path;

use crate::cli::tasks::import::{ImportArgs, ImportFormat};
use crate::suite::import::{Imported, bfcl};
use crate::surface::formats::MAX_FILE_BYTES;
use crate::util::safe_read::{ReadPolicy, read_bytes};
use crate::{Error, Exit};

fn read_text(path: &Path) -> Result<(String, String), Error> {
    let display = path.to_string_lossy().replace('\\', "/");
    let bytes = read_bytes(path, &display, &ReadPolicy::argument(MAX_FILE_BYTES))
        .map_err(|e| Error::Document(e.to_string()))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| Error::Document(format!("{display}: not UTF-8 text")))?;
    Ok((display, text))
}

pub(super) fn run(args: &ImportArgs) -> Result<Exit, Error> {
    if !args.force && std::fs::symlink_metadata(&args.out).is_ok() {
        return Err(Error::Usage(format!(
            "{} exists; pass --force to overwrite it, or choose another --out",
            args.out.display()
        )));
    }
    let (data_name, data) = read_text(&args.data)?;
    let answers = args.answers.as_deref().map(read_text).transpose()?;
    let imported = match args.format {
        ImportFormat::Bfcl => bfcl::import(
            bfcl::File {
                name: &data_name,
                text: &data,
            },
            answers
                .as_ref()
                .map(|(name, text)| bfcl::File { name, text }),
            &bfcl::Options {
                keep_dots: args.keep_dots,
            },
        )?,
    };
    report(&imported);
    let mut json = serde_json::to_string_pretty(&imported.suite)
        .map_err(|e| Error::Document(e.to_string()))?;
    json.push('\n');
    super::super::write_file(&args.out, &json)?;
    Ok(Exit::Ok)
}

/// What the import did, on stderr: cases, skipped items, conversions by kind (each one with
/// `--verbose`).
fn report(imported: &Imported) {
    let cases = &imported.suite.cases;
    let sets = cases.iter().filter(|c| c.expected_calls.is_some()).count();
    let none = cases.iter().filter(|c| c.is_must_not_call()).count();
    super::super::note(&format!(
        "imported {} cases into suite {:?}: {} single-call, {} parallel-call, {} must-not-call",
        cases.len(),
        imported.suite.name,
        cases.len() - sets - none,
        sets,
        none
    ));
    for skipped in &imported.skipped {
        super::super::note(&format!("skipped {skipped}"));
    }
    let counts = imported.counts();
    if counts.is_empty() {
        super::super::note("no conversion was needed");
    }
    for (kind, n) in counts {
        super::super::note(&format!("converted {n}× {kind}"));
    }
    if super::super::verbose() {
        for c in &imported.conversions {
            let detail = c
                .detail
                .as_deref()
                .map(|d| format!(": {d}"))
                .unwrap_or_default();
            super::super::note(&format!("  {} {}: {}{detail}", c.item, c.at, c.kind));
        }
    }
}
