//! The embedded o200k_base tokenizer (`mf::surface::o200k`) counts exactly what tiktoken's
//! `encode_ordinary` does (here `tiktoken-rs`, the Rust port of OpenAI's tiktoken, as the
//! reference), on a real corpus — every file, line and JSON string of `tests/fixtures/real/` and
//! `examples/`, the tool descriptions mf ships against — and on generated text built to hit the
//! pre-tokenizer's edges (whitespace runs before a non-space or at the end, newlines, digits,
//! contractions, case changes, marks, CJK, emoji, punctuation runs, invalid-looking bytes).

use std::path::Path;

use mf::surface::o200k;
use serde_json::Value;

fn reference() -> tiktoken_rs::CoreBPE {
    tiktoken_rs::o200k_base().expect("tiktoken-rs o200k_base")
}

fn files(dir: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("read fixture dir")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, out);
        } else if let Ok(text) = std::fs::read_to_string(&path) {
            out.push((path.display().to_string(), text));
        }
    }
}

fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.iter().for_each(|(k, x)| {
            out.push(k.clone());
            strings(x, out);
        }),
        _ => {}
    }
}

#[test]
fn counts_equal_tiktoken_on_the_real_corpus() {
    let bpe = reference();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut docs = Vec::new();
    files(&root.join("tests/fixtures/real"), &mut docs);
    files(&root.join("examples"), &mut docs);
    assert!(docs.len() >= 30, "corpus is the fixtures: {}", docs.len());
    let mut texts: Vec<(String, String)> = Vec::new();
    for (name, text) in &docs {
        texts.push((name.clone(), text.clone()));
        for (i, line) in text.lines().enumerate() {
            texts.push((format!("{name}:{}", i + 1), line.to_owned()));
        }
        if let Ok(v) = serde_json::from_str::<Value>(text) {
            let mut found = Vec::new();
            strings(&v, &mut found);
            texts.extend(found.into_iter().map(|s| (format!("{name} (string)"), s)));
        }
    }
    let mut total = 0;
    for (name, text) in &texts {
        let want = bpe.encode_ordinary(text).len();
        assert_eq!(o200k::count(text), want, "{name}: {text:?}");
        total += want;
    }
    // The corpus is real text, not a handful of words.
    assert!(
        texts.len() > 5_000 && total > 200_000,
        "{} texts, {total} tokens",
        texts.len()
    );
}

/// A small deterministic generator (xorshift) so the generated corpus is the same every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

#[test]
fn counts_equal_tiktoken_on_generated_edge_cases() {
    let bpe = reference();
    let atoms = [
        " ",
        "  ",
        "   ",
        "\t",
        "\n",
        "\r\n",
        "\n\n",
        " \n ",
        "\u{3000}",
        "\u{a0}",
        "a",
        "Hello",
        "WORLD",
        "camelCase",
        "snake_case",
        "kebab-case",
        "don't",
        "I'M",
        "they'll",
        "'s",
        "'S",
        "7",
        "42",
        "12345",
        "3.14",
        "1,000",
        "é",
        "e\u{301}",
        "Ñandú",
        "日本語",
        "中文字符",
        "🙂",
        "👩‍💻",
        "…",
        "—",
        "!!",
        "?!",
        "...",
        "///",
        "/",
        "{",
        "}",
        "\":\"",
        "<tag>",
        "```",
        "x",
        "Z",
        "ǅ",
        "ʰ",
        "ﬁ",
        "١٢٣",
        "Ⅻ",
        "\u{200b}",
        "\u{feff}",
        "$",
        "€100",
        "#!",
        "==",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for case in 0..20_000 {
        let len = 1 + (rng.next() % 12) as usize;
        let text: String = (0..len).map(|_| rng.pick(&atoms)).collect();
        assert_eq!(
            o200k::count(&text),
            bpe.encode_ordinary(&text).len(),
            "case {case}: {text:?}"
        );
    }
    // Long runs: the merge of a piece that is not a token, and whitespace at the end.
    for text in [
        "=".repeat(300),
        " ".repeat(257),
        format!("{}x", " ".repeat(100)),
        "ab".repeat(500),
        "🙂".repeat(64),
        "0123456789".repeat(20),
    ] {
        assert_eq!(
            o200k::count(&text),
            bpe.encode_ordinary(&text).len(),
            "{text:?}"
        );
    }
}
