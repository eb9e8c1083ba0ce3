//! The words of a tool's text that matching reads: a name split into tokens ([`name_tokens`]),
//! a light singular ([`stem`]) and a tool's content words ([`terms`]). Pair similarity
//! (in the analyze layer) and the offline lexical router (in the providers layer)
//! share them, so both read a tool the same way.

use super::Tool;

/// A name's tokens, lower-cased: split on every non-alphanumeric character (snake, kebab,
/// dotted, spaces), on lower→upper case changes (`readText`), before the last capital of an
/// acronym followed by lower case (`URLPath` → `url`, `path`), and between letters and digits
/// (`getURL2` → `get`, `url`, `2`).
pub fn name_tokens(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut out = Vec::new();
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            flush(&mut cur, &mut out);
            continue;
        }
        if let Some(&p) = i.checked_sub(1).and_then(|j| chars.get(j)) {
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            let boundary = (p.is_lowercase() && c.is_uppercase())
                || (p.is_uppercase() && c.is_uppercase() && next_lower)
                || (p.is_numeric() != c.is_numeric() && p.is_alphanumeric());
            if boundary {
                flush(&mut cur, &mut out);
            }
        }
        cur.extend(c.to_lowercase());
    }
    flush(&mut cur, &mut out);
    out
}

fn flush(cur: &mut String, out: &mut Vec<String>) {
    if !cur.is_empty() {
        out.push(std::mem::take(cur));
    }
}

/// Light singular form for matching words: `directories` → `directory`, `files` → `file`,
/// `prefixes` → `prefix`;
/// words of three letters or fewer and `-ss`/`-us`/`-is` endings are kept.
pub fn stem(word: &str) -> String {
    if word.len() > 4 && word.ends_with("ies") {
        return format!("{}y", &word[..word.len() - 3]);
    }
    if let Some(s) = ["xes", "ches", "shes", "sses"]
        .iter()
        .find_map(|e| word.strip_suffix(e).map(|s| (s, e)))
    {
        return format!("{}{}", s.0, &s.1[..s.1.len() - 2]);
    }
    let keep = word.len() <= 3 || ["ss", "us", "is"].iter().any(|e| word.ends_with(e));
    match word.strip_suffix('s') {
        Some(s) if !keep => s.to_owned(),
        _ => word.to_owned(),
    }
}

/// English function words that never count as shared or distinguishing terms (the pair
/// scorer's text vector leaves them out too).
pub const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been",
    "but", "by", "can", "do", "does", "each", "either", "for", "from", "has", "have", "how", "if",
    "in", "into", "is", "it", "its", "may", "more", "most", "no", "not", "of", "on", "one", "only",
    "or", "other", "should", "so", "such", "than", "that", "the", "their", "them", "then", "there",
    "these", "this", "those", "to", "up", "use", "used", "using", "via", "was", "what", "when",
    "where", "which", "while", "who", "will", "with", "within", "without", "you", "your",
];

/// The words of a tool a reader would match on: its [`name_tokens`] and description words
/// (alphanumeric runs, lower-cased), [`stem`]med, without stop words and one-letter words;
/// sorted and deduplicated.
pub fn terms(tool: &Tool) -> Vec<String> {
    let words = tool
        .description
        .as_deref()
        .unwrap_or("")
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase);
    // Inserted one by one, so memory follows the distinct words, not the description's length
    // (collecting into a set gathers every item in a Vec first).
    let mut out = std::collections::BTreeSet::new();
    for w in name_tokens(&tool.name).into_iter().chain(words) {
        if w.chars().count() > 1 && !STOP_WORDS.contains(&w.as_str()) {
            out.insert(stem(&w));
        }
    }
    out.into_iter().collect()
}
