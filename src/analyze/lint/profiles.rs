//! Profiles and skills family. Profiles (mount groups, suite `profiles`) must name existing
//! tools, and must not split a confusable pair: a model that sees one group may reach for the
//! tool it cannot see. Skills are chosen by description alone, so a skill needs one, its name
//! must be unique, and two skills must not read alike.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::{LintInput, OVERLAP_WARN, pair_finding, skill_finding, surface_finding};
use crate::analyze::similarity::similar_pairs;
use crate::report::lint::{Finding, Severity, Subject};
use crate::surface::{Confidence, Skill, Tool};

/// Run the profiles and skills family.
pub fn check(input: &LintInput<'_>, out: &mut Vec<Finding>) {
    profiles(input, out);
    skills(input, out);
}

fn profiles(input: &LintInput<'_>, out: &mut Vec<Finding>) {
    let profiles = &input.options.profiles;
    if profiles.is_empty() {
        return;
    }
    let tools = input.tools();
    let names: BTreeSet<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    let mut member_of: HashMap<&str, BTreeSet<&str>> = HashMap::new();
    let mut unknown: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (profile, members) in profiles {
        for name in members {
            if names.contains(name.as_str()) {
                member_of
                    .entry(name.as_str())
                    .or_default()
                    .insert(profile.as_str());
            } else {
                unknown
                    .entry(name.as_str())
                    .or_default()
                    .push(profile.as_str());
            }
        }
    }
    for (name, in_profiles) in unknown {
        let mut f = surface_finding(
            Severity::Error,
            "profile-unknown-tool",
            format!(
                "Profile {} names tool `{name}`, which is not on the surface.",
                quote_all(&in_profiles)
            ),
            "Fix the name (tool names are case-sensitive) or remove it from the profile.".into(),
        );
        f.tool = Some(name.to_owned());
        out.push(f);
    }
    for p in input.pairs {
        let (a, b) = (&tools[p.a], &tools[p.b]);
        let (Some(pa), Some(pb)) = (
            member_of.get(a.name.as_str()),
            member_of.get(b.name.as_str()),
        ) else {
            continue;
        };
        if !pa.is_disjoint(pb) {
            continue;
        }
        let pa: Vec<&str> = pa.iter().copied().collect();
        let pb: Vec<&str> = pb.iter().copied().collect();
        out.push(pair_finding(
            Severity::Warn,
            "profile-split-confusable",
            a,
            b,
            format!(
                "`{}` (profile {}) and `{}` (profile {}) are confusable (similarity {:.2}) but never mounted together; a model seeing one group may use the wrong tool for the other's job.",
                a.name,
                quote_all(&pa),
                b.name,
                quote_all(&pb),
                p.score
            ),
            "Put both tools in the same profile, or make their descriptions distinct enough to stand alone.".into(),
        ));
    }
}

fn quote_all(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn skills(input: &LintInput<'_>, out: &mut Vec<Finding>) {
    let skills = input.skills();
    let mut first: HashMap<&str, &Skill> = HashMap::new();
    for skill in skills {
        if skill
            .description
            .as_deref()
            .is_none_or(|d| d.trim().is_empty())
        {
            out.push(skill_finding(
                Severity::Error,
                "skill-description-missing",
                skill,
                format!("Skill `{}` has no description; agents load skills by description, so it will never be chosen.", skill.name),
                "Add a `description:` to the SKILL.md front matter saying what the skill does and when to use it.".into(),
            ));
        }
        if let Some(other) = first.get(skill.name.as_str()) {
            out.push(skill_finding(
                Severity::Error,
                "skill-duplicate-name",
                skill,
                format!(
                    "Skill name `{}` is used twice ({} and {}).",
                    skill.name,
                    other.origin.display(),
                    skill.origin.display()
                ),
                "Rename one of the skills; agents address skills by name.".into(),
            ));
        } else {
            first.insert(skill.name.as_str(), skill);
        }
    }
    // Skills are compared through the same similarity index, as description-only tools.
    let as_tools: Vec<Tool> = skills
        .iter()
        .map(|s| Tool {
            description: s.description.clone(),
            ..Tool::named(&s.name, s.origin.clone(), Confidence::High)
        })
        .collect();
    for p in similar_pairs(&as_tools, OVERLAP_WARN)
        .iter()
        .filter(|p| p.lexical >= OVERLAP_WARN)
    {
        let (a, b) = (&skills[p.a], &skills[p.b]);
        if a.description.as_deref().is_none_or(str::is_empty)
            || b.description.as_deref().is_none_or(str::is_empty)
        {
            continue;
        }
        let (first, second) = if a.name <= b.name { (a, b) } else { (b, a) };
        let mut f = pair_finding(
            Severity::Warn,
            "skill-similar",
            &as_tools[p.a],
            &as_tools[p.b],
            format!("Skills `{}` and `{}` have similar descriptions (similarity {:.2}); an agent may load the wrong one.", first.name, second.name, p.lexical),
            "Say in each description what the skill covers that the other does not, and when to use the other instead.".into(),
        );
        f.kind = Subject::Skill;
        f.tool = None;
        f.skill = Some(first.name.clone());
        out.push(f);
    }
}
