//! `mf tasks mutate`: deterministic, model-free variants of each reviewed case that keep its
//! expected tool and arguments — only the wording moves. Each variant is a new case
//! `reviewed: false`, `source: mutate`, `mutatedFrom: <id>`, `mutation: <kind>`, with id
//! `<id>~<kind>`, so it runs in an eval but never counts in official figures, and the
//! scorecard's `robustness` compares it with its original.
//!
//! Randomness comes from [`CounterStream`] keyed by
//! `SHA-256("mf-mutate-v1" ‖ 0x00 ‖ seed as u64 LE ‖ case id ‖ 0x00 ‖ kind)`: the same seed
//! gives byte-identical output on every machine, and adding a case or a kind leaves the other
//! variants as they were.

use sha2::{Digest, Sha256};

use super::{Case, Suite};
use crate::util::counter_stream::CounterStream;

/// The version of the variant algorithm (the stream's domain tag).
pub const MUTATE_VERSION: &str = "mf-mutate-v1";

/// Out of 1000: the chance that an eligible word gets a typo (at least one word always does).
pub const TYPO_PER_MILLE: u64 = 150;

/// One kind of variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum MutationKind {
    /// All lower case, ALL UPPER CASE or Title Case.
    Casing,
    /// Punctuation dropped (or, when there was none, a `?`, `!` or `...` added).
    Punctuation,
    /// A polite or chatty opener and/or closer around the request.
    Filler,
    /// Typos in some words (swapped, dropped or doubled letters); quoted text, numbers,
    /// identifiers and expected argument values are never touched.
    Typos,
    /// A trailing adverbial moved to the front, or two sentences swapped; only where that
    /// cannot change what is asked (else no variant of this kind).
    WordOrder,
    /// A clause that names another tool's object without asking for it (needs a second tool).
    Distractor,
}

impl MutationKind {
    /// Every kind, in output order.
    pub const ALL: [MutationKind; 6] = [
        MutationKind::Casing,
        MutationKind::Punctuation,
        MutationKind::Filler,
        MutationKind::Typos,
        MutationKind::WordOrder,
        MutationKind::Distractor,
    ];

    /// The name written as `mutation` and taken by `--kinds`.
    pub fn name(self) -> &'static str {
        match self {
            MutationKind::Casing => "casing",
            MutationKind::Punctuation => "punctuation",
            MutationKind::Filler => "filler",
            MutationKind::Typos => "typos",
            MutationKind::WordOrder => "word-order",
            MutationKind::Distractor => "distractor",
        }
    }

    /// The kind named `name`.
    pub fn parse(name: &str) -> Option<MutationKind> {
        MutationKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// What `mf tasks mutate` did.
#[derive(Debug, Clone, PartialEq)]
pub struct Mutated {
    /// The suite to write: the input's cases (earlier variants dropped), then the variants.
    pub suite: Suite,
    /// Reviewed cases that were mutated.
    pub originals: usize,
    /// Variants written.
    pub variants: usize,
    /// Earlier variants (cases with `mutatedFrom`) left out of the output.
    pub dropped: usize,
}

fn stream(seed: u64, case_id: &str, kind: MutationKind) -> CounterStream {
    let mut h = Sha256::new();
    h.update(MUTATE_VERSION.as_bytes());
    h.update([0]);
    h.update(seed.to_le_bytes());
    h.update(case_id.as_bytes());
    h.update([0]);
    h.update(kind.name().as_bytes());
    CounterStream::new(h.finalize().into())
}

/// Variants of every reviewed case of `suite` for `kinds`; `tools` are the surface's tool names
/// (for distractors). Variant ids that would collide with an existing id get `-2`, `-3`, ….
pub fn mutate(suite: &Suite, tools: &[String], seed: u64, kinds: &[MutationKind]) -> Mutated {
    let mut out = suite.clone();
    out.cases.retain(|c| c.mutated_from.is_none());
    let dropped = suite.cases.len() - out.cases.len();
    let mut ids: std::collections::HashSet<String> =
        out.cases.iter().map(|c| c.id.clone()).collect();
    let mut variants = Vec::new();
    let mut originals = 0;
    for case in out.cases.iter().filter(|c| c.reviewed) {
        originals += 1;
        for &kind in kinds {
            let mut rng = stream(seed, &case.id, kind);
            let Some(input) = variant(case, kind, tools, &mut rng) else {
                continue;
            };
            if input == case.input {
                continue;
            }
            let mut id = format!("{}~{}", case.id, kind.name());
            let mut n = 2;
            while ids.contains(&id) {
                id = format!("{}~{}-{n}", case.id, kind.name());
                n += 1;
            }
            ids.insert(id.clone());
            variants.push(Case {
                id,
                input,
                source: Some("mutate".into()),
                reviewed: false,
                mutated_from: Some(case.id.clone()),
                mutation: Some(kind.name().into()),
                line: None,
                ..case.clone()
            });
        }
    }
    let count = variants.len();
    out.cases.extend(variants);
    out.draft = false;
    Mutated {
        suite: out,
        originals,
        variants: count,
        dropped,
    }
}

fn variant(
    case: &Case,
    kind: MutationKind,
    tools: &[String],
    rng: &mut CounterStream,
) -> Option<String> {
    let input = case.input.trim();
    match kind {
        MutationKind::Casing => casing(input, &protected_values(case), rng),
        MutationKind::Punctuation => Some(punctuation(input, rng)),
        MutationKind::Filler => Some(filler(input, rng)),
        MutationKind::Typos => typos(input, &protected_values(case), rng),
        MutationKind::WordOrder => word_order(input),
        MutationKind::Distractor => {
            let expected = case.expected_tool.clone().flatten();
            distractor(input, tools, expected.as_deref(), rng)
        }
    }
}

fn pick<'a>(rng: &mut CounterStream, options: &[&'a str]) -> &'a str {
    options[rng.below(options.len() as u64) as usize]
}

/// A word casing may change: plain letters (around its punctuation) that are not part of an
/// expected argument value. Emails, ids, paths and numbers keep their case.
fn casing_free(word: &str, protected: &[String]) -> bool {
    let core = word.trim_matches(|c: char| !c.is_alphanumeric());
    !core.is_empty()
        && core.chars().all(char::is_alphabetic)
        && !protected.contains(&core.to_lowercase())
}

fn casing(input: &str, protected: &[String], rng: &mut CounterStream) -> Option<String> {
    let apply = |f: &dyn Fn(&str) -> String| -> String {
        input
            .split(' ')
            .map(|w| {
                if casing_free(w, protected) {
                    f(w)
                } else {
                    w.to_owned()
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let title = |w: &str| {
        let mut c = w.chars();
        c.next().map_or_else(String::new, |f| {
            f.to_uppercase().collect::<String>() + &c.as_str().to_lowercase()
        })
    };
    let options = [
        apply(&|w: &str| w.to_lowercase()),
        apply(&|w: &str| w.to_uppercase()),
        apply(&title),
    ];
    let start = rng.below(3) as usize;
    (0..3)
        .map(|i| &options[(start + i) % 3])
        .find(|o| o.as_str() != input)
        .cloned()
}

/// Sentence punctuation dropped: a `. , ! ? ; :` followed by a space or the end. Inside a
/// token (`a.b@c.com`, `10:30`, `v1.2`) it stays.
fn punctuation(input: &str, rng: &mut CounterStream) -> String {
    let chars: Vec<char> = input.chars().collect();
    let stripped: String = chars
        .iter()
        .enumerate()
        .filter(|&(i, c)| {
            let sentence = matches!(c, '.' | ',' | '!' | '?' | ';' | ':');
            let at_break = chars.get(i + 1).is_none_or(|n| n.is_whitespace());
            !(sentence && at_break)
        })
        .map(|(_, c)| *c)
        .collect();
    if stripped != input {
        return stripped.trim_end().to_owned();
    }
    format!("{input}{}", pick(rng, &["?", "!", "..."]))
}

const OPENERS: &[&str] = &[
    "Please",
    "Hi!",
    "Hey, quick one:",
    "Could you help me out?",
    "Hello there.",
    "Sorry to bother you, but",
];
const CLOSERS: &[&str] = &[
    "Thanks!",
    "Thank you so much.",
    "Thanks in advance.",
    "Much appreciated!",
];

/// `opener input`: the input's first word lower-cased when the opener runs into it
/// (`Please which …`, not `Hi! Which …`).
fn open_with(opener: &str, input: &str) -> String {
    if opener.ends_with(['.', '!', '?', ':']) {
        format!("{opener} {input}")
    } else {
        format!("{opener} {}", decapitalize(input))
    }
}

fn filler(input: &str, rng: &mut CounterStream) -> String {
    match rng.below(3) {
        0 => open_with(pick(rng, OPENERS), input),
        1 => format!("{input} {}", pick(rng, CLOSERS)),
        _ => {
            let open = pick(rng, OPENERS);
            format!("{} {}", open_with(open, input), pick(rng, CLOSERS))
        }
    }
}

/// The words of every string value in the case's `expectedArgs` (lower-cased): they are data
/// the model must copy, so they are never misspelt or re-cased.
fn protected_values(case: &Case) -> Vec<String> {
    fn walk(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::String(s) => out.extend(
                s.to_lowercase()
                    .split(|c: char| !c.is_alphanumeric())
                    .filter(|w| !w.is_empty())
                    .map(str::to_owned),
            ),
            serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            serde_json::Value::Object(o) => o.values().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    if let Some(args) = &case.expected_args {
        walk(args, &mut out);
    }
    out
}

/// A word may get a typo when it is plain letters (at least 4, around its punctuation) outside
/// quotes and is not part of an expected argument value.
fn typo_eligible(core: &str, in_quote: bool, protected: &[String]) -> bool {
    !in_quote
        && core.chars().count() >= 4
        && core.chars().all(char::is_alphabetic)
        && !protected.contains(&core.to_lowercase())
}

fn misspell(word: &str, rng: &mut CounterStream) -> String {
    let mut chars: Vec<char> = word.chars().collect();
    // Inner positions only: first and last letters stay (people misread those least).
    let i = 1 + rng.below(chars.len() as u64 - 2) as usize;
    match rng.below(3) {
        0 if chars[i] != chars[i + 1] && i + 1 < chars.len() - 1 => chars.swap(i, i + 1),
        1 => {
            chars.remove(i);
        }
        _ => chars.insert(i, chars[i]),
    }
    chars.into_iter().collect()
}

const QUOTES: &[char] = &['"', '\'', '`', '“', '”', '‘', '’'];

fn typos(input: &str, protected: &[String], rng: &mut CounterStream) -> Option<String> {
    // Whitespace-separated chunks; each chunk's letters between its leading and trailing
    // punctuation are its core. Quotes open and close spans that are never touched.
    let chunks: Vec<&str> = input.split(' ').collect();
    let mut eligible = Vec::new();
    let mut in_quote = false;
    for (i, chunk) in chunks.iter().enumerate() {
        let opens = chunk.starts_with(QUOTES);
        let closes = chunk.len() > 1
            && chunk
                .trim_end_matches(['.', ',', '!', '?', ';', ':'])
                .ends_with(QUOTES);
        let quoted = in_quote || opens;
        let core = chunk.trim_matches(|c: char| !c.is_alphanumeric());
        if typo_eligible(core, quoted, protected) {
            eligible.push(i);
        }
        in_quote = if opens && !closes {
            true
        } else if closes {
            false
        } else {
            in_quote
        };
    }
    if eligible.is_empty() {
        return None;
    }
    let mut hit: Vec<usize> = eligible
        .iter()
        .copied()
        .filter(|_| rng.chance(TYPO_PER_MILLE))
        .collect();
    if hit.is_empty() {
        hit.push(eligible[rng.below(eligible.len() as u64) as usize]);
    }
    let mut out: Vec<String> = chunks.iter().map(|c| (*c).to_owned()).collect();
    for i in hit {
        let chunk = &chunks[i];
        let start = chunk.find(|c: char| c.is_alphanumeric()).unwrap_or(0);
        let core = chunk.trim_matches(|c: char| !c.is_alphanumeric());
        let end = start + core.len();
        out[i] = format!(
            "{}{}{}",
            &chunk[..start],
            misspell(core, rng),
            &chunk[end..]
        );
    }
    Some(out.join(" "))
}

const TRAILING: &[&str] = &[
    "right now",
    "for me",
    "today",
    "please",
    "asap",
    "when you can",
];

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}

fn decapitalize(s: &str) -> String {
    let mut c = s.chars();
    match (c.next(), c.clone().next()) {
        // Keep "I", acronyms ("SKU …") and names that stay capitalised as they are.
        (Some(f), Some(n)) if f.is_uppercase() && n.is_lowercase() && f != 'I' => {
            f.to_lowercase().collect::<String>() + c.as_str()
        }
        _ => s.to_owned(),
    }
}

fn word_order(input: &str) -> Option<String> {
    // Two sentences: swap them (each stands on its own).
    let ends: Vec<usize> = input
        .match_indices(['.', '?', '!'])
        .map(|(i, _)| i)
        .filter(|&i| input[i + 1..].starts_with(' '))
        .collect();
    if ends.len() == 1 {
        let (a, b) = input.split_at(ends[0] + 1);
        let b = b.trim();
        if !b.is_empty() && !a.trim().is_empty() {
            let b_end = if b.ends_with(['.', '?', '!']) {
                ""
            } else {
                "."
            };
            return Some(format!("{b}{b_end} {}", a.trim()));
        }
    }
    // A trailing adverbial: "Show my orders right now." → "Right now, show my orders."
    let body = input.trim_end_matches(['.', '?', '!']);
    let end = &input[body.len()..];
    let lower = body.to_lowercase();
    for t in TRAILING {
        if lower.ends_with(&format!(" {t}")) && body.len() > t.len() + 1 {
            let head = body[..body.len() - t.len() - 1].trim_end_matches([',', ' ']);
            return Some(format!(
                "{}, {}{end}",
                capitalize(&body[body.len() - t.len()..]),
                decapitalize(head)
            ));
        }
    }
    None
}

/// The object of a tool name: its words after the first (the verb), or the name itself when it
/// is one word: `close_ticket` → `ticket`, `listUsers` → `users`, `kb_search_articles` →
/// `articles`.
fn object_of(name: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if matches!(c, '_' | '-' | '.' | ' ' | '/') {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    if words.len() < 2 {
        return words.pop().unwrap_or_else(|| name.to_owned());
    }
    // The object follows the verb: `kb_search_articles` → `articles`; without a known verb,
    // everything after the first word. Leading prepositions go (`escalate_to_human` → `human`).
    let after = words
        .iter()
        .position(|w| VERBS.contains(&w.as_str()))
        .filter(|&i| i + 1 < words.len())
        .map_or(1, |i| i + 1);
    let rest: Vec<&str> = words[after..]
        .iter()
        .map(String::as_str)
        .skip_while(|w| {
            matches!(
                *w,
                "to" | "for" | "by" | "of" | "on" | "in" | "a" | "an" | "the"
            )
        })
        .collect();
    if rest.is_empty() {
        words[after..].join(" ")
    } else {
        rest.join(" ")
    }
}

/// Verbs tool names start with; what follows them is the object.
const VERBS: &[&str] = &[
    "get", "list", "search", "find", "create", "update", "delete", "add", "remove", "set", "send",
    "issue", "escalate", "close", "open", "fetch", "read", "write", "run", "query", "check",
    "make", "lookup", "post", "put", "edit", "cancel", "refund", "move", "copy",
];

fn distractor(
    input: &str,
    tools: &[String],
    expected: Option<&str>,
    rng: &mut CounterStream,
) -> Option<String> {
    let expected_object = expected.map(object_of);
    let mut others: Vec<String> = tools
        .iter()
        .filter(|t| Some(t.as_str()) != expected)
        .map(|t| object_of(t))
        .filter(|o| Some(o) != expected_object.as_ref() && !input.to_lowercase().contains(o))
        .collect();
    others.sort();
    others.dedup();
    if others.is_empty() {
        return None;
    }
    let object = &others[rng.below(others.len() as u64) as usize];
    let clause = match rng.below(3) {
        0 => format!("(I'm not asking about the {object}.)"),
        1 => format!("Leave the {object} out of this."),
        _ => format!("No need to touch the {object}."),
    };
    let sep = if input.ends_with(['.', '?', '!']) {
        " "
    } else {
        ". "
    };
    Some(format!("{input}{sep}{clause}"))
}

#[cfg(test)]
mod tests;
