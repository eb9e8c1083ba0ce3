//! How the pair scorer reads one name (action, object head and qualifier, many-version) and
//! the rules that compare two reads beyond words: a general tool covering a specific one, an
//! update covering a state or field setter, calls one schema accepts for another.

use std::collections::BTreeSet;

use serde_json::Value;

use super::words::*;
use crate::surface::terms::{name_tokens, stem};

/// One tool as the scorer reads it.
#[derive(Debug, Clone)]
pub(super) struct Read {
    pub(super) name_lower: String,
    pub(super) desc_lower: String,
    pub(super) action: Option<usize>,
    pub(super) mods: BTreeSet<String>,
    pub(super) head: BTreeSet<String>,
    pub(super) qual: BTreeSet<String>,
    pub(super) many: bool,
    /// Object words the name spells in the plural / in the singular.
    pub(super) plural: BTreeSet<String>,
    /// The words of its top-level parameter names (stemmed).
    pub(super) param_words: BTreeSet<String>,
    /// The action word as written (stemmed), when the name has one.
    pub(super) verb: Option<String>,
    /// Its top-level parameter names, normalized (`perPage` = `per_page`).
    pub(super) top_keys: BTreeSet<String>,
    /// The required ones.
    pub(super) required_keys: BTreeSet<String>,
    /// It has an input schema (an empty one says it takes nothing; none says nothing).
    pub(super) has_schema: bool,
    /// Top-level parameters and the fields of a request body one level down.
    pub(super) field_keys: BTreeSet<String>,
    pub(super) singular: BTreeSet<String>,
    /// The head's noun (its last word).
    pub(super) noun: Option<String>,
    /// Verb words after the action that are actions too (see [`NameParts`]).
    pub(super) more_verbs: BTreeSet<String>,
    /// The example requests its description quotes that one or two other tools quote too
    /// (normalized: [`super::examples`]).
    pub(super) examples: BTreeSet<String>,
    /// `(term id, weight)`, sorted by id, unit length.
    pub(super) vec: Vec<(u32, f64)>,
    /// `(param key id, weight)`, sorted by id.
    pub(super) params: Vec<(u32, f64)>,
    pub(super) top_params: u64,
    /// Top-level parameters.
    pub(super) top_len: usize,
    /// The string values its top-level parameters enumerate, each read as object words
    /// (`domain: ["article", "nci_organization"]`) and whether its last word is spelled in
    /// the plural: [`enum_values`].
    pub(super) values: Vec<(Vec<String>, bool)>,
}

/// A name read as action + object (see the module docs of `confusable`).
#[derive(Debug, Default)]
pub(super) struct NameParts {
    pub(super) action: Option<usize>,
    /// Every object word (head, qualifier, filler and quantity words alike).
    pub(super) mods: BTreeSet<String>,
    /// Object words before a preposition.
    pub(super) head: BTreeSet<String>,
    /// Verb words after the action that are actions too: the name's last word
    /// (`interact_stop`) or after a conjunction (`search_and_replace`); one inside a compound
    /// noun (`password_update_events`) is not.
    pub(super) more_verbs: BTreeSet<String>,
    /// Object words after it.
    pub(super) qual: BTreeSet<String>,
    /// A quantity word (`batch`, `multiple`): the many-version.
    pub(super) many: bool,
    /// The head's last word, its noun: English compounds put it last (`inline comments` are
    /// comments, `ai config variation` is a variation).
    pub(super) noun: Option<String>,
}

/// Read `content` (a name's words after the server prefix); `plural[i]`: word `i` is spelled in
/// the plural, so it is a noun even when it is a verb word (`queries`, `checks`).
pub(super) fn split_name(content: &[String], plural: &[bool]) -> NameParts {
    let mut action = None;
    let mut mods = BTreeSet::new();
    let mut head = BTreeSet::new();
    let mut qual = BTreeSet::new();
    let mut many = false;
    let mut formats = BTreeSet::new();
    let mut noun = None;
    let mut last_format = None;
    let mut more_verbs = BTreeSet::new();
    let mut in_qualifier = false;
    let mut skip = false;
    for (i, w) in content.iter().enumerate() {
        if std::mem::take(&mut skip) {
            continue;
        }
        if action.is_none()
            && !plural.get(i).copied().unwrap_or(false)
            && let Some(g) = verb_group(w)
        {
            // `query_sql` runs SQL (`execute_query`'s action), `query_issues` searches.
            let runs = w == "query"
                && content
                    .get(i + 1)
                    .is_some_and(|n| QUERY_LANGUAGES.contains(&n.as_str()));
            action = if runs { verb_group("execute") } else { Some(g) };
            continue;
        }
        // `create_or_update_file` writes the file whether or not it exists: the action is
        // `write`, and `file` stays the object (not a qualifier after `or`).
        if CONJUNCTIONS.contains(&w.as_str())
            && head.is_empty()
            && let (Some(a), Some(b)) = (action, content.get(i + 1).and_then(|n| verb_group(n)))
            && (upsert(a, b) || get_or_create(a, b))
        {
            // `get_or_create_label` creates the label when it is missing.
            action = if upsert(a, b) {
                verb_group("write")
            } else {
                verb_group("create")
            };
            skip = true;
            continue;
        }
        if action.is_some()
            && verb_group(w).is_some()
            && !plural.get(i).copied().unwrap_or(false)
            && (i + 1 == content.len()
                || i.checked_sub(1)
                    .is_some_and(|p| CONJUNCTIONS.contains(&content[p].as_str())))
        {
            more_verbs.insert(w.clone());
        }
        // An article names nothing (`retrieve-a-block` is `retrieve block`); taken for a
        // preposition it made every object a qualifier and the head empty.
        if ARTICLES.contains(&w.as_str()) {
            continue;
        }
        mods.insert(w.clone());
        if PREPOSITIONS.contains(&w.as_str()) {
            in_qualifier = true;
            continue;
        }
        if QUANTITY.contains(&w.as_str()) {
            many = true;
            continue;
        }
        if FILLER.contains(&w.as_str()) || numeric(w) {
            continue;
        }
        if FORMATS.contains(&w.as_str()) && !in_qualifier {
            formats.insert(w.clone());
            last_format = Some(w.clone());
            continue;
        }
        if in_qualifier {
            qual.insert(w.clone());
        } else {
            head.insert(w.clone());
            noun = Some(w.clone());
        }
    }
    if head.is_empty() {
        head = std::mem::take(&mut formats);
        noun = last_format;
    }
    NameParts {
        action,
        mods,
        head,
        more_verbs,
        qual,
        many,
        noun,
    }
}

/// Object words that name no particular kind: a tool on `resources` with a `kind` parameter
/// does the job of the tool on `pods`.
const GENERIC: &[&str] = &["resource", "object", "item", "entity", "entry"];

pub(super) fn generic(read: &Read) -> bool {
    !read.head.is_empty() && read.head.iter().all(|h| GENERIC.contains(&h.as_str()))
}

/// `general` (same action) can do `specific`'s job: its object is a generic word, its
/// description names `specific`'s object and it takes every parameter `specific` takes
/// (`resources_list`, "… kind include: v1 Pod", for `pods_list`); or it updates, unqualified, what `specific` qualifies and takes a parameter
/// named like what else `specific` names (`update_task(parent)` for `set_parent_for_task`,
/// `update_ticket(status)` for `set_ticket_status`).
pub(super) fn covers(general: &Read, specific: &Read) -> bool {
    if specific.head.is_empty() || generic(specific) {
        return false;
    }
    if generic(general) {
        // (A specific tool taking nothing fits inside any general one's parameters.)
        // It takes what the specific one takes, or both address one object by an id and
        // the general one is not scoped by the specific's object (`glpi_get_item(path,
        // item_id)` / `glpi_get_asset(asset_type, asset_id)`; not `list_objects(bucket)` /
        // `list_buckets`).
        let addresses_one = |r: &Read| r.top_keys.iter().any(|k| identifier(k));
        let scoped_by = specific
            .noun
            .as_ref()
            .is_some_and(|n| general.param_words.contains(n));
        let takes = specific.top_keys.is_subset(&general.top_keys)
            || (addresses_one(general) && addresses_one(specific) && !scoped_by);
        return !specific.top_keys.is_empty()
            && takes
            && specific
                .head
                .iter()
                .all(|h| general.desc_lower.contains(h.as_str()));
    }
    // What `specific` names beyond `general`'s object, `general` takes as parameters.
    let named: BTreeSet<&String> = specific.head.union(&specific.qual).collect();
    let rest: Vec<&&String> = named
        .iter()
        .filter(|w| !general.head.contains(**w))
        .collect();
    !general.head.is_empty()
        && general.qual.is_empty()
        && general.action == verb_group("update")
        && general.head.iter().all(|h| named.contains(h))
        && !rest.is_empty()
        && rest.iter().all(|w| general.param_words.contains(**w))
}

/// `specific`'s object is a kind of `general`'s: the same noun with more modifiers before it
/// (`inline comment` / `comment`, `text file` / `file`), the same qualifiers. A modifier that
/// `specific` takes a parameter for names another object (`set_table_column_width(col_index)`
/// sets a column's width, `get_customer_orders(customer_id)` a customer's orders).
pub(super) fn kind_of(specific: &Read, general: &Read) -> bool {
    specific.noun.is_some()
        && specific.noun == general.noun
        && general.head.is_subset(&specific.head)
        && specific.head.len() > general.head.len()
        && specific.qual == general.qual
        && specific
            .head
            .difference(&general.head)
            .all(|m| !specific.param_words.contains(m) || general.param_words.contains(m))
}

/// `general`'s noun names a broader kind than `specific`'s (`file` / `image`), the rest of the
/// two objects alike: a tool on the broader kind takes the narrower one too
/// (`attach_file_to_card` / `attach_image_to_card`).
pub(super) fn broader(general: &Read, specific: &Read) -> bool {
    let (Some(g), Some(s)) = (general.noun.as_deref(), specific.noun.as_deref()) else {
        return false;
    };
    let rest = |r: &Read, n: &str| -> BTreeSet<String> {
        r.head.iter().filter(|w| *w != n).cloned().collect()
    };
    broader_kinds(s).any(|h| h == g)
        && rest(general, g) == rest(specific, s)
        && general.qual == specific.qual
}

/// Fields a `move` changes: an update taking one of them moves its object too.
const MOVE_FIELDS: &[&str] = &[
    "parent",
    "folder",
    "directory",
    "location",
    "destination",
    "position",
    "column",
    "board",
    "project",
    "space",
];

/// Verbs that add, set or remove one thing on an object (`add_tag`, `set_labels`,
/// `manage_asset_tags`), as opposed to making a new object.
const FIELD_VERBS: &[&str] = &[
    "add", "remove", "set", "attach", "detach", "assign", "unassign", "apply", "append", "link",
    "unlink", "clear", "manage", "tag", "label", "change",
];

/// `update` (unqualified, on object O) does `other`'s job through one of its fields: `other`
/// moves O and `update` takes its parent or location (`update_page(parent_id)` /
/// `move_page`), or `other` adds, sets or removes a thing on one O that `update` takes as a
/// field (`update_ticket(tags)` / `add_tag(ticket_id, tag)`).
pub(super) fn updates_field(update: &Read, other: &Read) -> bool {
    if update.action != verb_group("update")
        || !update.qual.is_empty()
        || update.head.is_empty()
        || update.many
        || other.many
        || other.action == update.action
    {
        return false;
    }
    let Some(verb) = other.verb.as_deref() else {
        return false;
    };
    if other.head == update.head {
        let wanted: &[&str] = match verb {
            "move" => MOVE_FIELDS,
            "rename" => &["name", "title"],
            _ => return false,
        };
        // Whole fields: `parent_id` is a parent, `page_name` names the page to update.
        return fields(update).any(|f| wanted.contains(&f.as_str()));
    }
    if !FIELD_VERBS.contains(&verb) {
        return false;
    }
    let Some(noun) = other.noun.as_deref() else {
        return false;
    };
    // `other` acts on one O: O qualifies its object (`add_tag_to_ticket`) or a parameter
    // identifies an O (`ticket_id`).
    let on_object = update.head.is_subset(&other.qual)
        || update.head.is_subset(&other.head)
        || other
            .top_keys
            .iter()
            .any(|k| identifier(k) && update.head.iter().all(|h| k.split('_').any(|p| p == h)));
    on_object
        && !update.head.contains(noun)
        && !identifier(noun)
        && fields(update).any(|f| f == noun)
}

/// The things an update takes as whole fields: a top-level parameter of one word, alone or
/// with `_id` / `_name` (`tags`, `label_ids`, `assignee`; not `version_comment`).
pub(super) fn fields(update: &Read) -> impl Iterator<Item = String> + '_ {
    update.field_keys.iter().filter_map(|k| {
        let k = k
            .strip_suffix("_id")
            .or_else(|| k.strip_suffix("_name"))
            .unwrap_or(k);
        (!k.is_empty() && !k.contains('_')).then(|| canonical(k.to_owned()))
    })
}

/// The two names scope the same job by different inputs, each taken as a required parameter
/// (`get_post_by_id(id)` / `get_post_by_slug(slug)`, `get_tasks_for_project(project_id)` /
/// `get_tasks_for_tag(tag_gid)`), or one scopes it by an input the other does not take at all
/// (`get_tags_by_note(note_id)` / `list_tags()`): what the model holds picks the tool.
pub(super) fn distinct_inputs(x: &Read, y: &Read) -> bool {
    let scoped = |p: &Read, q: &Read| {
        p.qual.iter().filter(|w| !q.qual.contains(*w)).any(|w| {
            p.required_keys
                .iter()
                .any(|k| k.split('_').any(|part| part == w))
                && !q
                    .top_keys
                    .iter()
                    .any(|k| k.split('_').any(|part| part == w))
        })
    };
    scoped(x, y) || scoped(y, x)
}

/// Get-or-create: a create that first looks.
pub(super) fn get_or_create(a: usize, b: usize) -> bool {
    let (g, c) = (verb_group("get"), verb_group("create"));
    (Some(a) == g && Some(b) == c) || (Some(a) == c && Some(b) == g)
}

/// Actions that change one state of an object (what an update tool's field can do too).
const STATE_ACTIONS: &[&str] = &[
    "moderate",
    "approve",
    "reject",
    "resolve",
    "unresolve",
    "reopen",
    "complete",
    "star",
    "unstar",
    "mute",
    "unmute",
    "snooze",
    "archive",
    "unarchive",
    "watch",
    "subscribe",
    "unsubscribe",
    "pin",
    "unpin",
    "lock",
    "unlock",
    "close",
    "enable",
    "disable",
    "publish",
    "unpublish",
    "hide",
    "mark",
    "assign",
    "unassign",
];

/// Fields that hold an object's state.
const STATE_FIELDS: &[&str] = &[
    "status",
    "state",
    "stage",
    "visibility",
    "archived",
    "closed",
];

/// `text` has `word` as a whole word.
fn mentions_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        !text[..i]
            .chars()
            .next_back()
            .is_some_and(char::is_alphanumeric)
            && !text[i + word.len()..]
                .chars()
                .next()
                .is_some_and(char::is_alphanumeric)
    })
}

/// `update` (unqualified, on the same object) can do `state`'s job: `state`'s action only
/// changes one state, and `update` either takes every parameter `state` takes
/// (`update_list(listId, subscribed, …)` / `watch_list(listId, subscribed)`) or says so in its
/// description (`update_list`: "… archive state …" / `archive_list`).
pub(super) fn updates_state(update: &Read, state: &Read) -> bool {
    let Some(verb) = state.verb.as_deref() else {
        return false;
    };
    if update.action != verb_group("update")
        || !update.qual.is_empty()
        || update.head.is_empty()
        || update.head != state.head
        || !STATE_ACTIONS.contains(&verb)
    {
        return false;
    }
    // Every parameter of `state`, and one of them more than an identifier (`subscribed`): a
    // `publish_entry(entryId)` fits inside any update's parameters without being its job.
    // (A kind is a scope, not a state: `contentType` of `publish_entry` and `update_entry`.)
    let takes_all = state.top_keys.is_subset(&update.top_keys)
        && state
            .top_keys
            .iter()
            .any(|k| !identifier(k) && k != "type" && !k.ends_with("_type"));
    // Or the state tool says it changes a state field the update takes (`moderate_comment`:
    // "… by changing its status" / `update_comment(status)`).
    let says_field = fields(update)
        .any(|f| STATE_FIELDS.contains(&f.as_str()) && mentions_word(&state.desc_lower, &f));
    takes_all || says_field || update.desc_lower.contains(verb)
}

/// A parameter that only says which object (`listId`, `board_id`, `gid`, `version`).
pub(super) fn identifier(key: &str) -> bool {
    let last = key.rsplit('_').next().unwrap_or(key);
    matches!(last, "id" | "gid" | "uuid" | "key" | "version")
}

/// Create-or-update: an upsert, a write.
pub(super) fn upsert(a: usize, b: usize) -> bool {
    let (c, u) = (verb_group("create"), verb_group("update"));
    (Some(a) == c && Some(b) == u) || (Some(a) == u && Some(b) == c)
}

/// A name word (lower case, as `name_tokens` gives it) spelled in the plural: stemming changes
/// it (`queries`, `elements`).
pub(super) fn spelled_plural(word: &str) -> bool {
    stem(word) != word
}

pub(super) fn numeric(w: &str) -> bool {
    w.chars().all(|c| c.is_ascii_digit())
}

/// Every call valid for `a` is valid for `b`: `a`'s top-level parameters are all `b`'s, and
/// `b` requires none that `a` lacks (weights: 2 required, 1 optional, ½ nested).
pub(super) fn call_compatible(a: &[(u32, f64)], b: &[(u32, f64)]) -> bool {
    let top =
        |v: &[(u32, f64)]| -> Vec<u32> { v.iter().filter(|p| p.1 >= 1.0).map(|p| p.0).collect() };
    let (ta, tb) = (top(a), top(b));
    !ta.is_empty()
        && ta.iter().all(|p| tb.contains(p))
        && b.iter().filter(|p| p.1 >= 2.0).all(|p| ta.contains(&p.0))
}

/// `listing` is a plain listing (its verb `list`, or a get of a plural) taking nothing but
/// paging, and `search` searches (`search`, `find`, `query` …).
pub(super) fn pages_only(listing: &Read, search: &Read) -> bool {
    let plain = |r: &Read| {
        r.verb
            .as_deref()
            .is_some_and(|v| matches!(v, "list" | "browse" | "enumerate" | "get"))
    };
    listing.has_schema
        && plain(listing)
        && !plain(search)
        && listing
            .top_keys
            .iter()
            .all(|k| PAGING.contains(&k.as_str()))
}

/// `desc` uses `word` (a stem) at the start of a word: `organization` in "NCI organizations".
pub(super) fn mentions(desc: &str, word: &str) -> bool {
    !word.is_empty()
        && desc.match_indices(word).any(|(i, _)| {
            !desc[..i]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric)
        })
}

/// The most values one parameter may enumerate to be read as a choice of object (a long list
/// is a vocabulary: countries, languages, MIME types).
const MAX_VALUES: usize = 64;

/// The most values kept per tool, whatever its schema holds (a bound on the work an untrusted
/// surface can ask for).
const MAX_TOOL_VALUES: usize = 256;

/// The string values the top-level parameters of `schema` enumerate (in `enum`, in the
/// branches of `anyOf`/`oneOf`, or in `items`), each as its object words (stemmed, canonical).
pub(super) fn enum_values(schema: Option<&Value>) -> Vec<(Vec<String>, bool)> {
    fn collect<'v>(p: &'v Value, out: &mut Vec<&'v str>, depth: usize) {
        if depth > 3 {
            return;
        }
        if let Some(values) = p.get("enum").and_then(Value::as_array) {
            out.extend(values.iter().filter_map(Value::as_str));
        }
        for key in ["anyOf", "oneOf"] {
            for branch in p.get(key).and_then(Value::as_array).into_iter().flatten() {
                collect(branch, out, depth + 1);
            }
        }
        if let Some(items) = p.get("items") {
            collect(items, out, depth + 1);
        }
    }
    let Some(props) = schema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for p in props.values() {
        let mut values = Vec::new();
        collect(p, &mut values, 0);
        if values.len() < 2 || values.len() > MAX_VALUES {
            continue;
        }
        for v in values {
            let raw: Vec<String> = name_tokens(v).into_iter().filter(|w| !numeric(w)).collect();
            let plural = raw.last().is_some_and(|w| spelled_plural(w));
            let words: Vec<String> = raw.iter().map(|w| canonical(stem(w))).collect();
            let entry = (words, plural);
            if !entry.0.is_empty() && !out.contains(&entry) {
                out.push(entry);
            }
            if out.len() >= MAX_TOOL_VALUES {
                return out;
            }
        }
    }
    out
}

/// `general` (the same action) chooses `specific`'s object through a parameter value
/// (`search(domain: "trial")` / `trial_searcher`, `fetch(detail: "protocol")` /
/// `trial_protocol_getter`): one value's words name `specific`'s object, ending in its noun
/// and in the same number unless both list or search, and `general` names no object
/// of its own or a generic one (a value of `list_tags(resource_type: "image")` scopes the
/// tags, it does not list images).
pub(super) fn value_names(general: &Read, specific: &Read) -> bool {
    let Some(noun) = specific.noun.as_ref() else {
        return false;
    };
    general.action.is_some()
        && general.action == specific.action
        && (general.head.is_empty() || generic(general))
        && !general.head.contains(noun)
        && general.values.iter().any(|(v, plural)| {
            // One and many are two jobs (`get_resource(resource: "elements")` /
            // `get_element(id)`), except for a listing or a search, which returns many either
            // way.
            let number_fits =
                *plural == specific.plural.contains(noun) || general.action == verb_group("list");
            v.last() == Some(noun)
                && number_fits
                && v.iter()
                    .all(|w| specific.head.contains(w) || specific.qual.contains(w))
        })
}
