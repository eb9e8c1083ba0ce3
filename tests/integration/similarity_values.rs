//! Pins the similarity formulas to hand-computed values: name tokens, the lexical text and its
//! trigram Dice, the structural smoothing, the IDF-weighted family score and the basis.

use mf::analyze::similarity::{
    Basis, lexical, lexical_text, name_tokens, pair_similarity, parameter_keys, similar_pairs,
    stem, terms, trigrams,
};
use mf::surface::{Confidence, Origin, Tool};
use serde_json::json;

fn tool(name: &str, description: &str, schema: serde_json::Value) -> Tool {
    let mut t = Tool::named(name, Origin::default(), Confidence::High);
    t.description = (!description.is_empty()).then(|| description.to_owned());
    t.input_schema = Some(schema);
    t
}

fn bare(name: &str, description: &str) -> Tool {
    tool(name, description, json!({"type": "object"}))
}

#[test]
fn name_tokens_split_on_every_convention() {
    assert_eq!(name_tokens("readTextFile"), ["read", "text", "file"]);
    assert_eq!(name_tokens("read_text_file"), ["read", "text", "file"]);
    assert_eq!(
        name_tokens("read-multiple.files"),
        ["read", "multiple", "files"]
    );
    assert_eq!(name_tokens("getURL2"), ["get", "url", "2"]);
    assert_eq!(
        name_tokens("parseHTTPResponse"),
        ["parse", "http", "response"]
    );
    assert_eq!(name_tokens("__a__"), ["a"]);
    assert!(name_tokens("").is_empty());
}

#[test]
fn lexical_text_is_tokens_then_description_lowercased_collapsed_and_padded() {
    let t = bare("readFile", "Reads  a\n FILE.");
    assert_eq!(lexical_text(&t), " read file reads a file. ");
    assert_eq!(lexical_text(&bare("ping", "")), " ping ");
}

#[test]
fn dice_over_trigrams_matches_hand_computation() {
    // " ab " → {" ab", "ab "}; " ac " → {" ac", "ac "}: nothing shared.
    assert_eq!(trigrams(" ab "), [" ab", "ab "]);
    assert_eq!(lexical(&bare("ab", ""), &bare("ac", "")), 0.0);
    // " abc " → {" ab","abc","bc "}; " abd " → {" ab","abd","bd "}: 2·1/(3+3) = 1/3.
    assert!((lexical(&bare("abc", ""), &bare("abd", "")) - 1.0 / 3.0).abs() < 1e-12);
    // " aaaa " → {" aa","aaa","aa "} (a set); " aaa " → the same set: 1.
    assert_eq!(lexical(&bare("aaaa", ""), &bare("aaa", "")), 1.0);
    // Case and separators do not matter: `readFile` and `read_file` read the same.
    assert_eq!(
        lexical(&bare("readFile", "x"), &bare("read_file", "X")),
        1.0
    );
}

#[test]
fn structural_is_a_smoothed_weighted_jaccard() {
    let s = |props: serde_json::Value, req: &[&str]| json!({"type":"object","properties": props, "required": req});
    let p = json!({"path": {"type": "string"}, "head": {"type": "integer"}, "tail": {"type": "number"}});
    let tools = vec![
        tool("alpha", "", s(p.clone(), &["path"])),
        tool("omega", "", s(p, &["path"])),
        tool("one", "", s(json!({"path": {"type": "string"}}), &["path"])),
        tool("two", "", s(json!({"path": {"type": "string"}}), &["path"])),
        bare("none_a", ""),
        bare("none_b", ""),
    ];
    // Identical 1 required + 2 optional: (2+1+1) / (4 + λ=4) = 0.5.
    let ao = pair_similarity(&tools, 0, 1).expect("pair");
    assert!((ao.structural - 0.5).abs() < 1e-12);
    // One shared required `path` only: 2 / (2 + 4).
    assert!((pair_similarity(&tools, 2, 3).expect("pair").structural - 1.0 / 3.0).abs() < 1e-12);
    // alpha vs one: min 2, max 4 → 2 / 8.
    assert!((pair_similarity(&tools, 0, 2).expect("pair").structural - 0.25).abs() < 1e-12);
    // No parameters on either side: no evidence, 0.
    assert_eq!(pair_similarity(&tools, 4, 5).expect("pair").structural, 0.0);
}

#[test]
fn parameter_keys_normalize_names_and_types() {
    let t = tool(
        "edit",
        "",
        json!({"properties": {"dryRun": {"type": "boolean"}, "n": {"type": ["integer", "null"]}, "x": {}}, "required": ["n"]}),
    );
    assert_eq!(
        parameter_keys(&t),
        [
            ("dry_run".to_owned(), "boolean".to_owned(), false),
            ("n".to_owned(), "null|number".to_owned(), true),
            ("x".to_owned(), "any".to_owned(), false),
        ]
    );
}

#[test]
fn family_weighs_name_tokens_by_idf() {
    // N = 4. df: read 2, file 2 (files stems to file), text 1, list 1, dir 1 (one each), srv 4.
    let tools = vec![
        bare("srv_read_file", "q"),
        bare("srv_read_text_files", "w"),
        bare("srv_list_dir", "e"),
        bare("srv_ping_file", "r"),
    ];
    let p = pair_similarity(&tools, 0, 1).expect("pair");
    let (l2, l4) = (2f64.ln(), 4f64.ln());
    // read (ln 4/2) + file (ln 4/3, in three names) shared; text ln 4 more on one side; srv weighs 0.
    let file = (4.0f64 / 3.0).ln();
    let want = 2.0 * (l2 + file) / ((l2 + file) + (l2 + file + l4));
    assert!((p.family - want).abs() < 1e-12, "{} vs {want}", p.family);
    // Only `srv` in common: 0.
    assert_eq!(pair_similarity(&tools, 1, 2).expect("pair").family, 0.0);
}

#[test]
fn score_is_the_strongest_measure_and_records_its_basis() {
    let tools = vec![
        bare("read_file", "Read a file."),
        bare("read_file_v2", "Read a file."),
        bare("zz", "qq"),
    ];
    let p = pair_similarity(&tools, 0, 1).expect("pair");
    assert_eq!(p.score, p.lexical.max(p.structural).max(p.family));
    assert_eq!(p.basis, Basis::Lexical);
    assert!(
        p.shared_terms.contains(&"file".to_owned()) && p.shared_terms.contains(&"read".to_owned())
    );
    assert_eq!(similar_pairs(&tools, 0.5).len(), 1);
}

#[test]
fn terms_drop_stop_words_and_singularize() {
    let t = bare("list_directories", "Lists the files in a directory.");
    assert_eq!(terms(&t), ["directory", "file", "list"]);
    assert_eq!(stem("process"), "process");
    assert_eq!(stem("status"), "status");
    assert_eq!(stem("entities"), "entity");
}
