//! `SKILL.md` files: the YAML front matter's `name` and `description` are what a model sees
//! when it decides whether to load the skill.

use serde_yaml_ng::Value as Yaml;

use super::ScanWarning;
use crate::surface::{Origin, Skill, SourceFormat};
use crate::util::yaml_limits::{MAX_FRONT_MATTER_BYTES, MAX_YAML_DEPTH, check_depth};

/// Parse a `SKILL.md`. Errors are warnings for the scan: they name the file and line.
pub fn parse(text: &str, file: &str) -> Result<Skill, ScanWarning> {
    let warn = |line: u32, message: String| ScanWarning {
        file: file.to_owned(),
        line: Some(line),
        message,
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split('\n');
    if lines.next().map(str::trim_end) != Some("---") {
        return Err(warn(1, "no YAML front matter: a SKILL.md starts with `---`, then `name:` and `description:`, then `---`".into()));
    }
    let mut front = String::new();
    let mut closed = false;
    for line in lines.by_ref() {
        if line.trim_end() == "---" {
            closed = true;
            break;
        }
        front.push_str(line);
        front.push('\n');
    }
    if !closed {
        return Err(warn(
            1,
            "front matter is not closed: add a `---` line after it".into(),
        ));
    }
    if front.len() > MAX_FRONT_MATTER_BYTES {
        return Err(warn(
            2,
            format!(
                "front matter is {} bytes, over the {MAX_FRONT_MATTER_BYTES}-byte limit; not parsed — keep `name` and `description` short",
                front.len()
            ),
        ));
    }
    check_depth(&front, MAX_YAML_DEPTH)
        .map_err(|m| warn(2, format!("front matter not parsed: {m}")))?;
    let yaml: Yaml = serde_yaml_ng::from_str(&front).map_err(|e| {
        let line = e.location().map(|l| l.line() + 1).unwrap_or(1);
        warn(
            u32::try_from(line).unwrap_or(1),
            format!("front matter is not valid YAML: {e}"),
        )
    })?;
    let field = |key: &str| -> Result<Option<String>, ScanWarning> {
        match yaml.get(key) {
            None | Some(Yaml::Null) => Ok(None),
            Some(Yaml::String(s)) => Ok(Some(s.trim().to_owned())),
            Some(_) => Err(warn(
                line_of(&front, key),
                format!("`{key}` must be a string"),
            )),
        }
    };
    if !matches!(yaml, Yaml::Mapping(_)) {
        return Err(warn(
            2,
            "front matter must be a mapping with `name:` and `description:`".into(),
        ));
    }
    let name = field("name")?
        .filter(|n| !n.is_empty())
        .ok_or_else(|| warn(2, "front matter has no `name`".into()))?;
    let description = field("description")?;
    Ok(Skill {
        name,
        description,
        origin: Origin::at(SourceFormat::SkillMd, file, line_of(&front, "name"), 1),
    })
}

/// 1-based file line of `key:` in the front matter (which starts on file line 2).
fn line_of(front: &str, key: &str) -> u32 {
    let prefix = format!("{key}:");
    front
        .lines()
        .position(|l| l.starts_with(&prefix))
        .and_then(|i| u32::try_from(i + 2).ok())
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_name_and_description() {
        let s = parse("---\nname: refund-policy\ndescription: >\n  Decide whether an order\n  can be refunded.\n---\n# Body\n", "skills/r/SKILL.md").expect("skill");
        assert_eq!(s.name, "refund-policy");
        assert_eq!(
            s.description.as_deref(),
            Some("Decide whether an order can be refunded.")
        );
        assert_eq!(s.origin.line, Some(2));
    }

    #[test]
    fn problems_name_the_line() {
        assert_eq!(
            parse("# no front matter", "S.md").map_err(|w| w.line),
            Err(Some(1))
        );
        assert!(parse("---\nname: [unclosed\n---\n", "S.md").is_err());
        assert!(parse("---\nname: a\n", "S.md").is_err());
        let w = parse("---\ndescription: x\nname: [1, 2]\n---\n", "S.md").expect_err("bad type");
        assert_eq!(w.line, Some(3));
    }
}
