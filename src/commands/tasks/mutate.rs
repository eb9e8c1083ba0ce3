//! `mf tasks mutate`: the suite → its surface's tool names (for distractors) → the variants
//! (`suite::mutate`) → paths rebased to the output's folder → the file, refused when it exists
//! without `--force`.

use crate::cli::tasks::mutate::MutateArgs;
use crate::suite::input::suite_surface;
use crate::suite::mutate::{MutationKind, mutate};
use crate::suite::{read_suite_any, write};
use crate::{Error, Exit};

pub(super) fn run(args: &MutateArgs) -> Result<Exit, Error> {
    super::refuse_overwrite(&args.out, args.force)?;
    let display = args.suite.to_string_lossy().replace('\\', "/");
    let suite = read_suite_any(&args.suite, &display)?;
    let (surface, warnings, _) = suite_surface(&suite, &args.suite, &display)?;
    for w in &warnings {
        crate::commands::note(&format!("warning: {w}"));
    }
    let tools: Vec<String> = surface.tools.iter().map(|t| t.name.clone()).collect();
    let kinds: Vec<MutationKind> = if args.kinds.is_empty() {
        MutationKind::ALL.to_vec()
    } else {
        let mut k = args.kinds.clone();
        k.sort();
        k.dedup();
        k
    };
    let mut out = mutate(&suite, &tools, args.seed, &kinds);
    if out.originals == 0 {
        return Err(Error::Usage(format!(
            "{display} has no reviewed cases to vary (variants are made of reviewed cases only)"
        )));
    }
    write::relocate(&mut out.suite, &args.suite, &args.out)?;
    let text = write::to_text(&out.suite, write::is_yaml_path(&args.out))?;
    crate::commands::write_file(&args.out, &text)?;
    let mut line = format!(
        "{} variants of {} reviewed cases (seed {}, kinds {}), all reviewed: false",
        out.variants,
        out.originals,
        args.seed,
        kinds.iter().map(|k| k.name()).collect::<Vec<_>>().join(",")
    );
    if out.dropped > 0 {
        line.push_str(&format!("; {} earlier variants replaced", out.dropped));
    }
    crate::commands::note(&line);
    Ok(Exit::Ok)
}
