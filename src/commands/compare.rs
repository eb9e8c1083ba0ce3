//! `mf compare`: two scorecards → paired statistics and verdicts; two surfaces (or one PATH at
//! `--base-ref` vs the working tree) → the surface diff.

use std::path::Path;

use crate::cli::compare::{CompareArgs, CompareFormat};
use crate::compare::eval::{METRICS, calibration_reasons, comparability};
use crate::compare::report::{scorecards_calibrated, surfaces};
use crate::render::document::Document;
use crate::render::template::{SUMMARY, render_with};
use crate::render::terminal::Style;
use crate::render::view::View;
use crate::report::compare::{GateSettings, Pairing, Verdict};
use crate::report::scorecard::Scorecard;
use crate::surface::Surface;
use crate::surface::git::{GitError, surface_at_ref};
use crate::surface::input::{self, InputSpec};
use crate::{Error, Exit, render};

use super::write_file as write;

/// One side, loaded.
enum Loaded {
    Scorecard(Box<Scorecard>),
    Surface(Surface),
}

pub(super) fn run(args: &CompareArgs, style: Style) -> Result<Exit, Error> {
    if !(args.alpha > 0.0 && args.alpha < 1.0) {
        return Err(Error::Usage(format!(
            "--alpha must be between 0 and 1, got {}",
            args.alpha
        )));
    }
    if let Some(bad) = args
        .gate_metrics
        .iter()
        .find(|m| !METRICS.contains(&m.as_str()))
    {
        return Err(Error::Usage(format!(
            "--gate-metrics: unknown metric {bad:?}; metrics: {}",
            METRICS.join(", ")
        )));
    }
    let (base_src, head_src, base, head) = match (&args.base_ref, args.inputs.as_slice()) {
        (Some(rev), rest) if rest.len() <= 1 => {
            let path = rest.first().map_or(".", String::as_str);
            let (surface, warnings) = match surface_at_ref(Path::new("."), rev, path) {
                Ok(found) => found,
                // A path new in this change: every tool in it is added.
                Err(e @ GitError::PathAbsent { .. }) => {
                    super::note(&format!("note: {e}"));
                    (Surface::default(), Vec::new())
                }
                Err(e) => return Err(Error::Git(e)),
            };
            for w in warnings {
                super::note(&format!("warning: {rev}: {w}"));
            }
            let head = load_surface(path)?;
            (
                format!("{rev}:{path}"),
                path.to_owned(),
                Loaded::Surface(surface),
                Loaded::Surface(head),
            )
        }
        (None, [b, h]) => (b.clone(), h.clone(), load(b)?, load(h)?),
        _ => {
            return Err(Error::Usage(
                "give BASE and HEAD (two scorecards or two surfaces), or --base-ref REV [PATH]"
                    .into(),
            ));
        }
    };
    let report = match (&base, &head) {
        (Loaded::Scorecard(b), Loaded::Scorecard(h)) => {
            let reasons = comparability(b, h);
            if !reasons.is_empty() {
                let mut text = format!(
                    "error: {base_src} and {head_src} are not comparable ({} reason{}):\n",
                    reasons.len(),
                    if reasons.len() == 1 { "" } else { "s" }
                );
                for r in &reasons {
                    text.push_str(&format!("  - {r}\n"));
                }
                text.push_str("Re-run both sides with the same models, settings and seed.");
                super::note(&text);
                return Ok(Exit::InputError);
            }
            let again = match &args.calibration {
                Some(source) => Some((source.as_str(), calibration(source, b)?)),
                None => None,
            };
            let pairing = match (args.pairing, &again) {
                (Some(p), _) => p.into(),
                (None, Some(_)) => Pairing::Calibrated,
                (None, None) => Pairing::Case,
            };
            if pairing == Pairing::Calibrated && again.is_none() {
                return Err(Error::Usage(
                    "--pairing calibrated needs --calibration BASE2 (base evaluated again)".into(),
                ));
            }
            let gate = GateSettings {
                pairing,
                alpha: args.alpha,
                metrics: args.gate_metrics.clone(),
            };
            let again = again.as_ref().map(|(s, card)| (*s, card.as_ref()));
            scorecards_calibrated(&base_src, &head_src, b, h, again, gate)
        }
        (Loaded::Surface(b), Loaded::Surface(h)) => surfaces(&base_src, &head_src, b, h),
        _ => {
            return Err(Error::Usage(format!(
                "{base_src} and {head_src} are not the same kind: compare two scorecards \
                 (mf eval --json-out) or two surfaces"
            )));
        }
    };
    let json = render::json::to_string(&report);
    if let Some(path) = &args.json_out {
        write(path, &json)?;
    }
    // The same markdown as `mf report --format markdown` (templates/summary.md.j2).
    let markdown = || {
        let doc = Document::Compare(Box::new(report.clone()));
        render_with(SUMMARY, None, &View::new(&doc)).map_err(Error::Template)
    };
    if let Some(path) = &args.markdown {
        write(path, &markdown()?)?;
    }
    match args.format {
        CompareFormat::Json => super::print(&json)?,
        CompareFormat::Markdown => super::print(&markdown()?)?,
        CompareFormat::Terminal => super::print(&render::terminal::compare(&report, style))?,
    }
    Ok(
        if args.fail_on_regression && report.verdict == Some(Verdict::Regressed) {
            Exit::GateFailed
        } else {
            Exit::Ok
        },
    )
}

/// The A/A scorecard at `source`, refused (usage error, every reason listed) when it is not a
/// scorecard, not comparable with base, or served from the cache.
fn calibration(source: &str, base: &Scorecard) -> Result<Box<Scorecard>, Error> {
    let Loaded::Scorecard(card) = load(source)? else {
        return Err(Error::Usage(format!(
            "--calibration {source}: not a scorecard (give base evaluated again, mf eval --json-out)"
        )));
    };
    let reasons = calibration_reasons(base, &card);
    if !reasons.is_empty() {
        return Err(Error::Usage(format!(
            "--calibration {source} cannot serve as base evaluated again: {}",
            reasons.join("; ")
        )));
    }
    Ok(card)
}

/// A scorecard when the file says `"kind": "scorecard"`, else a surface.
fn load(source: &str) -> Result<Loaded, Error> {
    let path = Path::new(source);
    if path.is_file()
        && let Ok(text) = crate::surface::formats::read_text(
            path,
            source,
            crate::surface::formats::MAX_FILE_BYTES,
        )
        && let Ok(value) = serde_json::from_str::<serde_json::Value>(&text)
        && value.get("kind").and_then(serde_json::Value::as_str) == Some("scorecard")
    {
        let card: Scorecard = serde_json::from_value(value).map_err(|e| {
            Error::Document(format!(
                "{source}: not a v1 scorecard mf can read: {e}; re-run mf eval with this mf"
            ))
        })?;
        return Ok(Loaded::Scorecard(Box::new(card)));
    }
    Ok(Loaded::Surface(load_surface(source)?))
}

fn load_surface(source: &str) -> Result<Surface, Error> {
    let input = input::load(&InputSpec::paths(&[source]))?;
    for w in &input.warnings {
        super::note(&format!("warning: {w}"));
    }
    Ok(input.surface)
}
