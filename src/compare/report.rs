//! The compare document (SCHEMA.md "Compare report") of two scorecards or two surfaces: the
//! sides, the paired comparison or the surface diff, and the overall verdict. `mf compare` and
//! `mf ci` build theirs here.

use super::eval::{compare_calibrated, overall};
use super::surface_diff::diff;
use crate::report::compare::{COMPARE_VERSION, CompareReport, GateSettings, Side};
use crate::report::scorecard::Scorecard;
use crate::surface::Surface;
use crate::surface::fingerprint::surface_fingerprint;

/// The side of a scorecard read from `source`.
pub fn scorecard_side(source: &str, card: &Scorecard) -> Side {
    Side {
        source: source.to_owned(),
        kind: "scorecard".into(),
        fingerprint: Some(card.suite.fingerprint.clone()),
    }
}

/// The side of a surface read from `source`.
pub fn surface_side(source: &str, surface: &Surface) -> Side {
    Side {
        source: source.to_owned(),
        kind: "surface".into(),
        fingerprint: Some(surface_fingerprint(surface)),
    }
}

/// Base vs head scorecards (already found comparable): paired tests, verdicts, the overall
/// verdict under `gate`.
pub fn scorecards(
    base_source: &str,
    head_source: &str,
    base: &Scorecard,
    head: &Scorecard,
    gate: GateSettings,
) -> CompareReport {
    scorecards_calibrated(base_source, head_source, base, head, None, gate)
}

/// [`scorecards`] with the A/A run (`(source, base again)`, already found usable by
/// `eval::calibration_reasons`) when there is one; the gate should then be `calibrated`.
pub fn scorecards_calibrated(
    base_source: &str,
    head_source: &str,
    base: &Scorecard,
    head: &Scorecard,
    calibration: Option<(&str, &Scorecard)>,
    gate: GateSettings,
) -> CompareReport {
    let eval = compare_calibrated(base, head, calibration, gate);
    CompareReport {
        version: COMPARE_VERSION,
        kind: "compare".into(),
        verdict: Some(overall(&eval)),
        base: scorecard_side(base_source, base),
        head: scorecard_side(head_source, head),
        eval: Some(eval),
        surface: None,
    }
}

/// The free surface diff of two surfaces.
pub fn surfaces(
    base_source: &str,
    head_source: &str,
    base: &Surface,
    head: &Surface,
) -> CompareReport {
    CompareReport {
        version: COMPARE_VERSION,
        kind: "compare".into(),
        verdict: None,
        base: surface_side(base_source, base),
        head: surface_side(head_source, head),
        eval: None,
        surface: Some(diff(base, head)),
    }
}
