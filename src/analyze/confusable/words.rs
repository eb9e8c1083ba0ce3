//! The word lists the pair scorer reads names with: verb groups and their opposites, opposite
//! modifiers, prepositions, filler, formats and quantity words (stop words are
//! `surface::terms::STOP_WORDS`).

use std::collections::HashMap;

/// Query languages: `query_sql` runs an SQL query (the action of `execute_query`), it does
/// not search for SQL.
pub(super) const QUERY_LANGUAGES: &[&str] = &[
    "sql", "cypher", "graphql", "sparql", "influxql", "flux", "promql", "logql", "kql", "dql",
    "ppl", "hql", "jql", "cql", "soql", "xpath", "jmespath", "jq",
];

/// Verb groups: words in one group are the same action.
pub const VERB_GROUPS: &[&str] = &[
    "create add new insert make generate build register post",
    "get read fetch retrieve show view describe inspect load open",
    "list search find query lookup browse filter enumerate",
    "delete remove drop destroy erase purge",
    "update edit modify change set patch replace",
    "start run launch execute begin trigger invoke",
    "stop kill terminate end cancel abort halt",
    "enable activate",
    "disable deactivate",
    "write save put store push",
    "upload",
    "download",
    "lock",
    "unlock",
    "protect",
    "unprotect",
    "connect",
    "disconnect",
    "import",
    "export",
    "subscribe",
    "unsubscribe",
    "archive",
    "unarchive",
    "install",
    "uninstall",
    "publish",
    "unpublish",
    "approve",
    "reject",
    "assign",
    "unassign",
    "follow",
    "unfollow",
    "pin",
    "unpin",
    "close",
    "pause",
    "resume",
    "pull",
    "attach",
    "detach",
    "hide",
    "login",
    "logout",
    "grant",
    "revoke",
    "encrypt",
    "decrypt",
    "back",
    "forward",
    "undo",
    "redo",
    "send",
    "move",
    "copy",
    "merge",
    "split",
    "check verify validate",
    "test",
    "count",
    "aggregate",
    "format",
    "clear",
    "append",
    "restore",
    "watch",
    "scrape",
    "crawl",
    "click",
    "hover",
    "type",
    "press",
    "navigate",
    "select",
    "fill",
    "drag",
    "screenshot",
    "snapshot",
    "wait",
    "resize",
    "fork",
    "commit",
    "deploy",
    "rollback",
    "rerun",
    "sync",
    "parse",
    "extract",
    "convert",
    "transform",
    "analyze diagnose debug troubleshoot investigate",
    "rename",
    "manage",
    "summarize",
    "explain",
    "translate",
    "render",
    "calculate compute",
    "highlight",
    "interact",
    "invite",
    "share",
    "reply",
    "mark",
    "sort",
    "reset",
    "evaluate eval",
    "scroll",
    "reload refresh",
    "submit",
    "review",
    "recommend suggest",
    "moderate",
    "resolve",
    "unresolve",
    "reopen",
    "complete",
    "star",
    "unstar",
    "mute",
    "unmute",
    "snooze",
];

/// Opposite actions (by a word of each group).
pub(super) const OPPOSITE_ACTIONS: &[(&str, &str)] = &[
    ("create", "delete"),
    ("start", "stop"),
    ("enable", "disable"),
    ("lock", "unlock"),
    ("protect", "unprotect"),
    ("upload", "download"),
    ("connect", "disconnect"),
    ("import", "export"),
    ("subscribe", "unsubscribe"),
    ("archive", "unarchive"),
    ("install", "uninstall"),
    ("publish", "unpublish"),
    ("approve", "reject"),
    ("assign", "unassign"),
    ("follow", "unfollow"),
    ("pin", "unpin"),
    ("open", "close"),
    ("pause", "resume"),
    ("push", "pull"),
    ("attach", "detach"),
    ("show", "hide"),
    ("login", "logout"),
    ("grant", "revoke"),
    ("encrypt", "decrypt"),
    ("back", "forward"),
    ("undo", "redo"),
    ("get", "update"),
    ("get", "delete"),
    ("get", "create"),
    ("get", "write"),
    ("list", "delete"),
    ("list", "create"),
    ("list", "update"),
    ("create", "update"),
    ("write", "delete"),
];

/// Opposite modifiers inside names.
pub(super) const OPPOSITE_MODIFIERS: &[(&str, &str)] = &[
    ("before", "after"),
    ("horizontal", "vertical"),
    ("back", "forward"),
    ("next", "previous"),
    ("prev", "next"),
    ("up", "down"),
    ("first", "last"),
    ("simple", "complex"),
    ("min", "max"),
    ("start", "end"),
    ("input", "output"),
    ("incoming", "outgoing"),
    ("in", "out"),
    ("on", "off"),
    ("public", "private"),
    ("local", "remote"),
    ("source", "target"),
    ("top", "bottom"),
    ("left", "right"),
    ("ascending", "descending"),
    ("read", "write"),
    ("show", "hide"),
];

/// Actions a verb-less tool (read as a lookup) is never confused with.
pub(super) const WRITE_ACTIONS: &[&str] = &[
    "create", "delete", "update", "start", "stop", "write", "upload", "move", "copy", "merge",
    "clear", "append",
];

/// Words that separate an object's head from its qualifier.
pub(super) const PREPOSITIONS: &[&str] = &[
    "to", "from", "in", "into", "on", "by", "for", "of", "with", "within", "at", "after", "before",
    "below", "above", "between", "near", "under", "over", "against", "via", "per", "and", "or",
];

/// Articles: skipped in names.
pub(super) const ARTICLES: &[&str] = &["a", "an", "the"];

/// Words that claim quality, not a different job, and light verbs that only carry the next
/// word (`take_screenshot` is `screenshot`, `perform_click` is `click`).
pub(super) const FILLER: &[&str] = &[
    "enhanced", "robust", "improved", "advanced", "better", "extended", "basic", "v2", "v3",
    "safe", "quick", "fast", "custom", "general", "generic", "full", "force", "take", "perform",
    "do",
];

/// Representations of the same content: `retrieve_page_markdown` retrieves the page, as
/// markdown. Next to another object word one of these qualifies it (the object stays
/// `page`); alone (`export_csv`) it is the object. (`text` is left out: `search_paper_text`
/// searches inside papers, `format_text` styles text.)
pub(super) const FORMATS: &[&str] = &[
    "markdown", "md", "html", "json", "txt", "xml", "csv", "pdf", "raw", "plain", "yaml", "base64",
    "binary", "png", "jpeg", "jpg", "svg",
];

/// Conjunctions that join two actions in one name (`create_or_update_file`).
pub(super) const CONJUNCTIONS: &[&str] = &["or", "and"];

/// Words that make a tool the many-version of another.
pub(super) const QUANTITY: &[&str] = &[
    "batch", "multiple", "many", "bulk", "all", "multi", "several",
];

/// Broader kinds of object and the narrower kinds they take (by the stemmed, canonical word).
pub(super) const HYPERNYMS: &[(&str, &str)] = &[
    // (Not `document` or `spreadsheet`: a Google Doc or a Word API's document is no file.)
    ("file", "image video audio attachment media"),
    ("asset", "image video audio file media raw"),
    ("sql", "query mutation statement command"),
];

/// The broader kinds of an object word ([`HYPERNYMS`]).
pub(super) fn broader_kinds(word: &str) -> impl Iterator<Item = &'static str> + '_ {
    HYPERNYMS
        .iter()
        .filter(move |(_, kinds)| kinds.split_whitespace().any(|k| k == word))
        .map(|(h, _)| *h)
}

/// Abbreviations and synonyms of object words in names, read as one word (stemmed words on
/// the left): `repo` is `repository`, a `folder` a `directory`.
pub(super) const OBJECT_SYNONYMS: &[(&str, &str)] = &[
    ("repo", "repository"),
    ("dir", "directory"),
    ("folder", "directory"),
    ("db", "database"),
    ("msg", "message"),
    ("doc", "document"),
    ("config", "configuration"),
    ("cfg", "configuration"),
    ("env", "environment"),
    ("org", "organization"),
    ("organisation", "organization"),
    ("app", "application"),
    ("img", "image"),
    ("photo", "image"),
    ("picture", "image"),
    ("pic", "image"),
    ("info", "information"),
    ("spec", "specification"),
    ("param", "parameter"),
    ("attr", "attribute"),
    ("prop", "property"),
    ("stat", "statistic"),
    ("desc", "description"),
    ("num", "number"),
    ("col", "column"),
];

/// The one word a name's object word is read as ([`OBJECT_SYNONYMS`]).
pub(super) fn canonical(word: String) -> String {
    read_as(OBJECT_SYNONYMS, word)
}

/// `word` as `table` reads it (the right side of its pair), else `word`.
fn read_as(table: &[(&str, &str)], word: String) -> String {
    match table.iter().find(|(w, _)| *w == word) {
        Some((_, r)) => (*r).to_owned(),
        None => word,
    }
}

/// Agent nouns read as their verb (`article_searcher` searches articles, `gene_getter` gets a
/// gene).
const AGENT_NOUNS: &[(&str, &str)] = &[
    ("searcher", "search"),
    ("getter", "get"),
    ("fetcher", "fetch"),
    ("lister", "list"),
    ("finder", "find"),
    ("reader", "read"),
    ("writer", "write"),
    ("creator", "create"),
    ("updater", "update"),
    ("deleter", "delete"),
    ("remover", "remove"),
    ("loader", "load"),
    ("uploader", "upload"),
    ("downloader", "download"),
    ("exporter", "export"),
    ("importer", "import"),
    ("analyzer", "analyze"),
    ("validator", "validate"),
    ("checker", "check"),
    ("generator", "generate"),
    ("builder", "build"),
    ("sender", "send"),
    ("runner", "run"),
    ("executor", "execute"),
    ("converter", "convert"),
    ("parser", "parse"),
    ("scraper", "scrape"),
    ("crawler", "crawl"),
    ("inspector", "inspect"),
    ("viewer", "view"),
];

/// The verb of an agent noun ([`AGENT_NOUNS`]), else the word.
pub(super) fn agent_verb(word: String) -> String {
    read_as(AGENT_NOUNS, word)
}

/// The group index of an action word.
pub fn verb_group(word: &str) -> Option<usize> {
    static GROUPS: std::sync::LazyLock<HashMap<&'static str, usize>> =
        std::sync::LazyLock::new(|| {
            let mut m = HashMap::new();
            for (i, g) in VERB_GROUPS.iter().enumerate() {
                for w in g.split_whitespace() {
                    m.entry(w).or_insert(i);
                }
            }
            m
        });
    GROUPS.get(word).copied()
}

pub(super) fn opposite_groups(a: usize, b: usize) -> bool {
    OPPOSITE_ACTIONS.iter().any(|(x, y)| {
        let (gx, gy) = (verb_group(x), verb_group(y));
        (gx == Some(a) && gy == Some(b)) || (gx == Some(b) && gy == Some(a))
    })
}

pub(super) fn opposite_modifiers(x: &str, y: &str) -> bool {
    OPPOSITE_MODIFIERS
        .iter()
        .any(|(p, q)| (*p == x && *q == y) || (*p == y && *q == x))
}

/// Nouns of figures computed over many records: a qualifier says how they are grouped.
pub(super) const AGGREGATES: &[&str] = &[
    "stat",
    "statistic",
    "count",
    "metric",
    "summary",
    "breakdown",
    "analytic",
    "total",
    "histogram",
    "trend",
    "aggregate",
    "distribution",
];

/// Parameters that only page through a listing.
pub(super) const PAGING: &[&str] = &[
    "page",
    "per_page",
    "page_size",
    "page_token",
    "cursor",
    "next_cursor",
    "after",
    "before",
    "limit",
    "offset",
    "max_result",
    "start_at",
    "next_page_token",
    "count",
];

/// Words a quoted request may start with besides an action word.
pub(super) const REQUEST_WORDS: &[&str] = &[
    "tell", "give", "help", "what", "whats", "why", "how", "when", "which", "who", "where", "is",
    "are", "can", "could", "did", "does", "do", "was", "were", "will", "would", "should", "any",
    "please", "i", "my",
];
