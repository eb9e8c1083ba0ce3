//! The pair scorer built for tool surfaces: which two tools a model picking one from the list
//! may confuse. Lint's `confusable-pair`, `mf check` and the profile rule read it.
//!
//! # What it reads
//! - **Names as action + object.** A name's tokens ([`name_tokens`], [`stem`]med) lose the
//!   leading tokens most tools of the surface share (`browser_`, `firecrawl_`); the first token
//!   in a verb group ([`VERB_GROUPS`]: create/add/new, get/read/fetch, list/search/find/query,
//!   delete/remove, start/run, stop/kill/terminate …) is the **action**, the rest the object.
//!   Object tokens before a preposition are the **head** (`footnote` in `add_footnote_to_document`),
//!   after it the **qualifier** (`document`); filler words (`enhanced`, `robust`, `force` …) and
//!   quantity words (`batch`, `multiple`, `all` …) and numbers are set aside. The head's last
//!   word is its **noun** (`comment` in `get_inline_comments`). Abbreviations and synonyms of
//!   object words are read as one word (`repo` = `repository`, `folder` = `directory`); an
//!   agent noun is its verb (`article_searcher` searches articles); a verb word spelled in the
//!   plural is a noun (`shodan_queries` lists saved queries).
//! - **Text**: description words and name tokens, each weighted `(1 + ln tf) · ln(N / df)`
//!   where `df` counts the tools of *this surface* using the word, so boilerplate every tool
//!   shares weighs nothing; cosine of the two vectors.
//! - **Shape**: parameter names normalized ([`name_tokens`] + [`stem`], so `perPage` =
//!   `per_page`, `files` = `file`), nested fields as dotted paths; required top-level weigh 2,
//!   optional 1, nested ½; `Σmin / (Σmax + 2)`.
//!
//! # When a pair is confusable
//! - Opposite actions (create/delete, start/stop, lock/unlock, get/update …) or opposite
//!   modifiers (before/after, horizontal/vertical, simple/complex …): never.
//! - A tool with no verb (`collection_indexes`) reads as a lookup: never confusable with a
//!   write action.
//! - Same (or synonym) action, same object: confusable, `0.6 + 0.4·max(text, shape)`; when one
//!   is the many-version (`batch_`, `multiple`, `all`) only if the schemas match.
//! - Same action, one has no object (a bare `search`): confusable when text or shape give
//!   support (text ≥ 0.3 or shape ≥ 0.5), or some text (≥ 0.1) and the bare tool's description
//!   names the other's object (`fetch` "… articles, genes …" / `gene_getter`) or the other's
//!   names what scopes the bare one (`complex_search` "… with certain tags" /
//!   `search_by_tag`).
//! - Same action, objects differ only by a qualifier: confusable when text and shape agree
//!   (text ≥ 0.5 and shape ≥ 0.5, or text ≥ 0.7), or when text ≥ 0.5 and every call one
//!   accepts the other accepts too (`list_directory(path)`, `list_directory_with_sizes(path,
//!   sortBy?)`: the overlap score of a short schema undersells that).
//! - One object is a kind of the other (the same noun, more modifiers: `comment` / `inline
//!   comment`): as for a qualifier, when text and shape agree. A modifier the tool takes a
//!   parameter for names another object (`set_table_column_width(col_index)` sets a column's
//!   width), so it is not a kind.
//! - One object is a broader kind (`file` takes `image`, `video`, `attachment` …) and the
//!   rest of the names match (`attach_file_to_card` / `attach_image_to_card`): `covers`, with
//!   some text support (text ≥ 0.3).
//! - An update takes, as a whole field, what the other adds, sets or removes on one of its
//!   objects (`update_ticket(tags)` / `add_tag(ticket_id, tag)`), or the parent the other moves
//!   it to (`update_page(parent_id)` / `move_page`): `covers`, whatever the two actions.
//! - One is the many-version: a quantity word, or the same object word singular in one name
//!   and plural in the other (`get_tag` / `get_tags_for_task`, `create_event` /
//!   `create_events`; not for listings and searches, which return many either way): only when
//!   the schemas match.
//! - Same action, and one tool's general form does the other's job (`covers`): its object is a
//!   generic word (`resource`, `object`, `item` …), its description names the other's object
//!   and it takes every parameter the other takes (`resources_get` / `pods_get`); or it updates,
//!   unqualified, what the other qualifies, with a parameter named like the other's object
//!   (`update_task(parent)` / `set_parent_for_task`).
//! - Different objects (or different actions): only when the schemas match (shape ≥ 0.85) with
//!   some text support (text ≥ 0.3, or the same action on objects sharing a word:
//!   `generate_bar_chart` / `generate_column_chart`), or the descriptions are near-identical
//!   (text ≥ 0.85) with some shape support (shape ≥ 0.5) — a description template with only
//!   the object swapped (`watch_card` / `watch_list`) is not a confusion — or when neither name has an action and
//!   the two are the only tools of the surface taking the same (two or more) parameters
//!   (`maps_directions`, `maps_distance_matrix`: `same-inputs`).
//! - Names are read with a few more rules: `create_or_update` is one action, a write, and
//!   `get_or_create` a create (so
//!   `push_files` and `create_or_update_file` do the same job); a format word next to an
//!   object (`retrieve_page_markdown`) qualifies it rather than naming another object; light
//!   verbs carry the next word (`take_screenshot` is `screenshot`). A get of a plural noun
//!   is a listing when the verb leads (`get_tickets`), but not a get of many named ones: a
//!   quantity word (`read_multiple_files`) or a required list (`open_nodes(names)`).
//!
//! - Both descriptions quote the same example request (`"Why did task A fail?"`; a sentence of
//!   three or more words, placeholders such as `A` or `42` read alike, quoted by two or three
//!   tools of the surface): `same-example`, whatever the names say.
//! - The same object scoped by different required inputs (`get_post_by_id` /
//!   `get_post_by_slug`), or by one the other does not take (`get_tags_by_note(note_id)` /
//!   `list_tags`): not confusable unless the schemas match. Neither is a bare action on two
//!   named targets (`export_to_arrows_json` / `export_to_owl_turtle`), nor the same action on
//!   two objects the names tell apart, whatever template and schema they share
//!   (`create_page` / `create_post`).
//! - A server prefix is the run of leading tokens most of a server's names *start* with; a
//!   word many names merely contain (`asset` in `asset-update`, `manage-asset-tags`) stays the
//!   object.
//!
//! - A listing that takes nothing but paging is no search (`list_models(cursor)` /
//!   `search_models(query)`), and a get taking its object's id gets one, however its name is
//!   spelled (`get_trainings(training_id)`). `untag_note` undoes `tag_note`.
//!
//! A pair whose descriptions name each other has a stated boundary and is dropped (a
//! one-word name such as `search` counts as named only written as code, quoted, or followed
//! by "tool": any description may use the word as a verb).
//!
//! # Cost
//! Pairs are scored only for candidates sharing a key (a head token, a bare action's group,
//! one of a tool's two heaviest text terms, the set of top-level parameter names). A key held
//! by more than [`BLOCK_MAX`] tools pairs each only with its [`WINDOW`] neighbours in name
//! order, so the work and the memory stay linear in the surface.

use std::collections::{BTreeSet, HashMap};

use rayon::prelude::*;
use serde_json::Value;

use crate::surface::Tool;
use crate::surface::terms::{STOP_WORDS, name_tokens, stem};

mod names;
mod words;

use names::{
    NameParts, Read, broader, call_compatible, covers, distinct_inputs, generic, kind_of, mentions,
    numeric, pages_only, split_name, updates_field, updates_state, value_names,
};
use words::{
    AGGREGATES, REQUEST_WORDS, WRITE_ACTIONS, agent_verb, canonical, opposite_groups,
    opposite_modifiers,
};
pub use words::{VERB_GROUPS, verb_group};

/// A pair at or above this score is confusable.
pub const CONFUSABLE: f64 = 0.5;
/// Leading name tokens read as a server prefix at most (`mcp_github_`).
const MAX_PREFIX: usize = 4;
/// A key shared by more tools than this is paired by neighbourhood only.
pub const BLOCK_MAX: usize = 64;
/// Neighbours per tool in an oversized key.
pub const WINDOW: usize = 8;
/// Description words read per tool (stop words left out): a description longer than this is
/// over every token budget already, and its first words say what it does; reading all of a
/// 15 MiB one would hold millions of words.
pub const MAX_TEXT_WORDS: usize = 4_000;

/// How two tools relate, as the scorer read them (the cluster report's `relation`).
pub use crate::report::cluster::PairRelation as Relation;

/// A confusable pair (indices into the scored slice, `a < b`).
#[derive(Debug, Clone, PartialEq)]
pub struct ConfusablePair {
    /// First tool.
    pub a: usize,
    /// Second tool.
    pub b: usize,
    /// Confusion score in [0, 1]; ≥ [`CONFUSABLE`].
    pub score: f64,
    /// IDF-weighted text cosine.
    pub text: f64,
    /// Parameter-shape similarity.
    pub shape: f64,
    /// Why.
    pub relation: Relation,
    /// The rarest words both use (at most 6).
    pub shared: Vec<String>,
}

/// The scored surface.
#[derive(Debug)]
pub struct Scorer {
    tools: Vec<Read>,
    words: Vec<String>,
    name_df: HashMap<String, usize>,
    /// How many tools take each set of top-level parameter names.
    inputs_df: HashMap<u64, usize>,
}

fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() > 1)
        .map(str::to_lowercase)
        .filter(|w| !STOP_WORDS.contains(&w.as_str()))
        .map(|w| stem(&w))
}

/// Normalized parameter keys of a schema, with weights (see the module docs).
pub fn param_keys(schema: Option<&Value>) -> Vec<(String, f64)> {
    fn walk(schema: &Value, prefix: &str, depth: usize, out: &mut Vec<(String, f64)>) {
        if depth > 4 {
            return;
        }
        let Some(props) = schema.get("properties").and_then(Value::as_object) else {
            return;
        };
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for (name, prop) in props {
            let key: Vec<String> = name_tokens(name).iter().map(|w| stem(w)).collect();
            let path = format!("{prefix}{}", key.join("_"));
            let weight = match (depth, required.contains(&name.as_str())) {
                (0, true) => 2.0,
                (0, false) => 1.0,
                _ => 0.5,
            };
            out.push((path.clone(), weight));
            walk(prop, &format!("{path}."), depth + 1, out);
            if let Some(items) = prop.get("items") {
                walk(items, &format!("{path}."), depth + 1, out);
            }
        }
    }
    let mut out = Vec::new();
    if let Some(s) = schema {
        walk(s, "", 0, &mut out);
    }
    out.sort_by(|x, y| x.0.cmp(&y.0));
    out.dedup_by(|x, y| x.0 == y.0);
    out
}

fn intern(map: &mut HashMap<String, u32>, words: &mut Vec<String>, w: String) -> u32 {
    if let Some(&id) = map.get(&w) {
        return id;
    }
    let id = words.len() as u32;
    words.push(w.clone());
    map.insert(w, id);
    id
}

impl Scorer {
    /// Read a surface's tools once.
    pub fn new(tools: &[Tool]) -> Scorer {
        Scorer::grouped(tools, &vec![0; tools.len()])
    }

    /// Read tools that come from several servers (`groups[i]` is tool `i`'s server): the
    /// leading name tokens most of *a server's* tools share (`github_`, `gitlab_`) are dropped
    /// per server, so two servers' `search_issues` meet. Text weights come from all tools.
    pub fn grouped(tools: &[Tool], groups: &[u32]) -> Scorer {
        let n = tools.len();
        let names: Vec<Vec<String>> = tools
            .par_iter()
            .map(|t| {
                name_tokens(&t.name)
                    .iter()
                    .map(|w| canonical(agent_verb(stem(w))))
                    .collect()
            })
            .collect();
        let descs: Vec<Vec<String>> = tools
            .par_iter()
            .map(|t| {
                words(t.description.as_deref().unwrap_or(""))
                    .take(MAX_TEXT_WORDS)
                    .collect()
            })
            .collect();
        let mut name_df: HashMap<String, usize> = HashMap::new();
        for nt in &names {
            for w in nt.iter().collect::<BTreeSet<_>>() {
                *name_df.entry(w.clone()).or_insert(0) += 1;
            }
        }
        // How many of a server's names start with each run of leading tokens (`browser`,
        // `mcp github`): a server prefix leads its names; a word many names merely contain
        // (`asset` in `asset-update`, `manage-asset-tags`, `search-assets`) is an object.
        let mut group_lead: HashMap<(u32, String), usize> = HashMap::new();
        let mut group_n: HashMap<u32, usize> = HashMap::new();
        for (i, nt) in names.iter().enumerate() {
            let g = groups.get(i).copied().unwrap_or(0);
            *group_n.entry(g).or_insert(0) += 1;
            for k in 1..=nt.len().min(MAX_PREFIX) {
                *group_lead.entry((g, nt[..k].join(" "))).or_insert(0) += 1;
            }
        }
        let mut ids: HashMap<String, u32> = HashMap::new();
        let mut vocab: Vec<String> = Vec::new();
        let mut df: Vec<usize> = Vec::new();
        let mut tf: Vec<Vec<(u32, f64)>> = Vec::with_capacity(n);
        let mut contents: Vec<Vec<String>> = Vec::with_capacity(n);
        for (i, (nt, dw)) in names.iter().zip(&descs).enumerate() {
            let g = groups.get(i).copied().unwrap_or(0);
            let gn = group_n[&g];
            let mut content: &[String] = nt;
            let mut dropped = 0;
            // Keep at least one word that is not a number (`search_issues_7` keeps `issue`),
            // and the action: a verb most of a small server's tools start with (`read_` on a
            // three-tool manifest) is what they do, not a server prefix.
            while content.len() > 1
                && dropped < MAX_PREFIX
                && content[1..].iter().any(|w| !numeric(w))
                && gn >= 3
                && group_lead
                    .get(&(g, nt[..=dropped].join(" ")))
                    .is_some_and(|&c| c * 2 > gn)
                && verb_group(&content[0]).is_none()
            {
                content = &content[1..];
                dropped += 1;
            }
            contents.push(content.to_vec());
            let mut counts: HashMap<u32, f64> = HashMap::new();
            for w in dw {
                let id = intern(&mut ids, &mut vocab, w.clone());
                *counts.entry(id).or_insert(0.0) += 1.0;
            }
            for w in content {
                let id = intern(&mut ids, &mut vocab, w.clone());
                *counts.entry(id).or_insert(0.0) += 2.0;
            }
            df.resize(vocab.len(), 0);
            for id in counts.keys() {
                df[*id as usize] += 1;
            }
            let mut v: Vec<(u32, f64)> = counts.into_iter().collect();
            v.sort_unstable_by_key(|x| x.0);
            tf.push(v);
        }
        let idf: Vec<f64> = df
            .iter()
            .map(|&d| {
                if n > 1 {
                    (n as f64 / d as f64).ln().max(0.0)
                } else {
                    0.0
                }
            })
            .collect();
        let mut pids: HashMap<String, u32> = HashMap::new();
        let mut pwords: Vec<String> = Vec::new();
        let mut reads = Vec::with_capacity(n);
        for (i, t) in tools.iter().enumerate() {
            let mut vec: Vec<(u32, f64)> = tf[i]
                .iter()
                .map(|&(id, c)| (id, (1.0 + c.ln()) * idf[id as usize]))
                .filter(|x| x.1 > 0.0)
                .collect();
            let norm = vec.iter().map(|x| x.1 * x.1).sum::<f64>().sqrt();
            if norm > 0.0 {
                for x in &mut vec {
                    x.1 /= norm;
                }
            }
            let keys = param_keys(t.input_schema.as_ref());
            let mut top: Vec<&str> = keys
                .iter()
                .filter(|k| !k.0.contains('.'))
                .map(|k| k.0.as_str())
                .collect();
            top.sort_unstable();
            let top_params = if top.is_empty() {
                0
            } else {
                fnv(&top.join(","))
            };
            let top_len = top.len();
            let top_keys: BTreeSet<String> = top.iter().map(|k| (*k).to_owned()).collect();
            let required_keys: BTreeSet<String> = keys
                .iter()
                .filter(|k| k.1 >= 2.0 && !k.0.contains('.'))
                .map(|k| k.0.clone())
                .collect();
            // The fields it sets: its top-level parameters, and those of a request body one
            // level down (`asset_update(asset_id, request: {tags, context, …})`).
            let field_keys: BTreeSet<String> = keys
                .iter()
                .filter_map(|k| match k.0.split_once('.') {
                    None => Some(k.0.clone()),
                    Some((_, child)) if !child.contains('.') => Some(child.to_owned()),
                    Some(_) => None,
                })
                .collect();
            let param_words: BTreeSet<String> = top
                .iter()
                .flat_map(|k| k.split('_'))
                .filter(|w| !w.is_empty())
                .map(|w| canonical(w.to_owned()))
                .collect();
            let mut params: Vec<(u32, f64)> = keys
                .iter()
                .map(|(k, w)| (intern(&mut pids, &mut pwords, k.clone()), *w))
                .collect();
            params.sort_unstable_by_key(|x| x.0);
            // Which name words are spelled in the plural: a plural is a noun, even of a verb
            // word (`shodan_queries` lists saved queries).
            let raw = name_tokens(&t.name);
            let raw = &raw[raw.len().saturating_sub(contents[i].len())..];
            let spelled_plural: Vec<bool> = raw.iter().map(|r| names::spelled_plural(r)).collect();
            let NameParts {
                action,
                mods,
                head,
                more_verbs,
                qual,
                many,
                noun,
            } = split_name(&contents[i], &spelled_plural);
            // Which object words the name spells in the plural (`get_tags_for_task`) and
            // which in the singular (`get_tag`): one tool and a list of them.
            let (mut plural, mut singular) = (BTreeSet::new(), BTreeSet::new());
            for (w, &p) in contents[i].iter().zip(&spelled_plural) {
                if head.contains(w) {
                    if p {
                        plural.insert(w.clone());
                    } else {
                        singular.insert(w.clone());
                    }
                }
            }
            // `get_tickets` lists tickets: a get of a plural object (its noun, the last word:
            // `get_inline_comments`) is a listing when the verb leads (`pods_get` is a server
            // naming its objects in the plural). A get of many named ones is the many-version
            // of a get, not a listing: a quantity word (`read_multiple_files`) or a required
            // list of them (`open_nodes(names)`).
            let action = if action.is_some()
                && action == verb_group("get")
                && contents[i].first().and_then(|w| verb_group(w)) == action
                && noun
                    .as_ref()
                    .is_some_and(|n| plural.contains(n) && !singular.contains(n))
                && !many
                && !required_array(t.input_schema.as_ref())
                && !noun.as_ref().is_some_and(|n| identifies(&keys, n))
            {
                verb_group("list")
            } else {
                action
            };
            reads.push(Read {
                name_lower: t.name.to_lowercase(),
                desc_lower: t.description.as_deref().unwrap_or("").to_lowercase(),
                action,
                mods,
                more_verbs,
                head,
                qual,
                many,
                plural,
                singular,
                noun,
                examples: BTreeSet::new(),
                param_words,
                top_keys,
                required_keys,
                has_schema: t.input_schema.is_some(),
                field_keys,
                verb: contents[i]
                    .iter()
                    .find(|w| verb_group(w).is_some())
                    .cloned(),
                vec,
                params,
                top_params,
                top_len,
                values: names::enum_values(t.input_schema.as_ref()),
            });
        }
        // Example requests quoted by two or three tools: each claims the other's job. (One a
        // whole surface quotes is boilerplate.)
        let quoted: Vec<BTreeSet<String>> = tools
            .par_iter()
            .map(|t| examples(t.description.as_deref().unwrap_or("")))
            .collect();
        let mut example_df: HashMap<&str, usize> = HashMap::new();
        for q in &quoted {
            for e in q {
                *example_df.entry(e.as_str()).or_insert(0) += 1;
            }
        }
        for (r, q) in reads.iter_mut().zip(&quoted) {
            r.examples = q
                .iter()
                .filter(|e| (2..=3).contains(&example_df[e.as_str()]))
                .cloned()
                .collect();
        }
        let mut inputs_df: HashMap<u64, usize> = HashMap::new();
        for r in &reads {
            if r.top_params != 0 {
                *inputs_df.entry(r.top_params).or_insert(0) += 1;
            }
        }
        Scorer {
            tools: reads,
            words: vocab,
            name_df,
            inputs_df,
        }
    }

    /// A qualifier word used by many tool names (`document` on a Word server) says nothing.
    fn weak(&self, w: &str) -> bool {
        let n = self.tools.len();
        n >= 5
            && self
                .name_df
                .get(w)
                .is_some_and(|&d| d >= 3 && d * 100 >= 15 * n)
    }

    /// Score one pair; `None` when not confusable.
    pub fn pair(&self, a: usize, b: usize) -> Option<ConfusablePair> {
        let (a, b) = (a.min(b), a.max(b));
        if a == b || b >= self.tools.len() {
            return None;
        }
        let (x, y) = (&self.tools[a], &self.tools[b]);
        let text = dot(&x.vec, &y.vec);
        let shape = shape(&x.params, &y.params);
        let (score, relation) = self.judge(x, y, text, shape)?;
        if score < CONFUSABLE {
            return None;
        }
        if names_tool(&x.desc_lower, &y.name_lower) || names_tool(&y.desc_lower, &x.name_lower) {
            return None;
        }
        let mut shared: Vec<(f64, &str)> = x
            .vec
            .iter()
            .filter_map(|&(id, w)| {
                y.vec
                    .binary_search_by_key(&id, |e| e.0)
                    .ok()
                    .map(|k| (w * y.vec[k].1, self.words[id as usize].as_str()))
            })
            .collect();
        shared.sort_by(|p, q| q.0.total_cmp(&p.0).then(p.1.cmp(q.1)));
        Some(ConfusablePair {
            a,
            b,
            score: score.min(1.0),
            text,
            shape,
            relation,
            shared: shared.iter().take(6).map(|s| s.1.to_owned()).collect(),
        })
    }

    fn judge(&self, x: &Read, y: &Read, text: f64, shape: f64) -> Option<(f64, Relation)> {
        // `untag_note` undoes `tag_note`, whatever the word lists know.
        if x.mods.iter().chain(x.verb.iter()).any(|a| {
            y.mods.iter().chain(y.verb.iter()).any(|b| {
                a.strip_prefix("un") == Some(b.as_str()) || b.strip_prefix("un") == Some(a.as_str())
            })
        }) {
            return None;
        }
        // Both quote the same example request ("Why did task A fail?"): each description
        // claims the job, whatever the names say.
        if !x.examples.is_disjoint(&y.examples) {
            return Some((0.6 + 0.4 * text.max(shape), Relation::SameExample));
        }
        // A parameter value of one picks the other's object (`search(domain: "trial")` /
        // `trial_searcher`): the general tool does the specific one's job.
        if value_names(x, y) || value_names(y, x) {
            return Some((0.6 + 0.4 * text.max(shape), Relation::Covers));
        }
        // Two verb-less tools (`maps_directions`, `maps_distance_matrix`), and only these two
        // on the surface, take the same parameters (at least two): the names offer a noun
        // each and no action, and the arguments a model holds fit both.
        let same_inputs = x.action.is_none()
            && y.action.is_none()
            && x.top_params != 0
            && x.top_params == y.top_params
            && x.top_len >= 2
            && self.inputs_df.get(&x.top_params) == Some(&2);
        // Different objects or actions: near-identical text alone is a template with the object
        // swapped (`watch_card`, `watch_list`), matching parameters alone are a shared shape
        // (`send_email`, `draft_email`): each needs some support from the other, or, for the
        // parameters, the same action on objects that share a word (`generate_bar_chart`,
        // `generate_column_chart`).
        let kin = x.action.is_some() && x.action == y.action && !x.head.is_disjoint(&y.head);
        // The same action on two objects the names tell apart (`create_page` / `create_post`):
        // a description template and a schema both share with the object swapped do not make
        // the two one job.
        let other_objects = x.action.is_some()
            && x.action == y.action
            && !x.head.is_empty()
            && !y.head.is_empty()
            && x.head.is_disjoint(&y.head);
        let look_alike = || {
            if other_objects {
                return same_inputs.then_some((0.5 + 0.5 * text.max(shape), Relation::SameInputs));
            }
            if (text >= 0.85 && shape >= 0.5) || (shape >= 0.85 && (text >= 0.3 || kin)) {
                Some((0.5 + 0.5 * text.max(shape), Relation::LookAlike))
            } else {
                same_inputs.then_some((0.5 + 0.5 * text.max(shape), Relation::SameInputs))
            }
        };
        let same_action = match (x.action, y.action) {
            (Some(p), Some(q)) if p == q => true,
            (Some(p), Some(q)) => {
                // A field of the update does the other's job (`update_ticket(tags)` /
                // `add_tag(ticket_id)`), even across otherwise opposite actions.
                if updates_field(x, y) || updates_field(y, x) {
                    return Some((0.6 + 0.4 * text.max(shape), Relation::Covers));
                }
                if opposite_groups(p, q) {
                    return None;
                }
                if updates_state(x, y) || updates_state(y, x) {
                    return Some((0.6 + 0.4 * text.max(shape), Relation::Covers));
                }
                return look_alike();
            }
            (None, None) => true,
            (Some(p), None) | (None, Some(p)) => {
                if WRITE_ACTIONS.iter().any(|w| verb_group(w) == Some(p)) {
                    return None;
                }
                false
            }
        };
        let only_x: Vec<&String> = x.mods.difference(&y.mods).collect();
        let only_y: Vec<&String> = y.mods.difference(&x.mods).collect();
        if only_x
            .iter()
            .any(|p| only_y.iter().any(|q| opposite_modifiers(p, q)))
        {
            return None;
        }
        let hx: BTreeSet<&String> = x.head.difference(&y.head).collect();
        let hy: BTreeSet<&String> = y.head.difference(&x.head).collect();
        let qx = x.qual.difference(&y.qual).filter(|w| !self.weak(w)).count();
        let qy = y.qual.difference(&x.qual).filter(|w| !self.weak(w)).count();
        let action = x.action.or(y.action);
        // A second verb in one name (`search_and_replace`, `interact_stop`) is another action.
        let other_verb = x
            .more_verbs
            .symmetric_difference(&y.more_verbs)
            .any(|w| verb_group(w).is_some_and(|g| Some(g) != action));
        // One is the many-version: a quantity word (`batch_`, `multiple`), or the same object
        // word spelled singular in one name and plural in the other (`create_event`,
        // `create_events`; `get_tag`, `get_tags_for_task`).
        // (A listing or a search returns many either way: `search_issue` is `search_issues`.)
        let lists = action.is_some() && action == verb_group("list");
        let one_and_many = |p: &Read, q: &Read| {
            p.plural
                .iter()
                .any(|w| q.singular.contains(w) && !q.plural.contains(w))
        };
        let many_differs = !lists && (x.many != y.many || one_and_many(x, y) || one_and_many(y, x));
        // One object is a broader kind (`attach_file_to_card` / `attach_image_to_card`,
        // `execute_sql` / `execute_query`): the broader tool takes the narrower's object too.
        if same_action && x.action.is_some() && !many_differs && (broader(x, y) || broader(y, x)) {
            return Some((0.6 + 0.4 * text.max(shape), Relation::Covers));
        }
        if other_verb {
            return look_alike();
        }
        // The same words, another noun: inverse look-ups (`get_card_dashboards`, the dashboards
        // of a card / `get_dashboard_cards`, the cards of a dashboard).
        if hx.is_empty() && hy.is_empty() && x.noun != y.noun && !(shape >= 0.85 && text >= 0.5) {
            return None;
        }
        // The same object scoped by different inputs (`get_post_by_id` / `get_post_by_slug`):
        // what the model holds picks the tool, unless the schemas match anyway.
        if hx.is_empty() && hy.is_empty() && shape < 0.8 && distinct_inputs(x, y) {
            return None;
        }
        // Figures grouped another way (`get_login_stats` / `get_login_stats_by_client` /
        // `_by_hour`): another breakdown is another answer.
        if hx.is_empty()
            && hy.is_empty()
            && shape < 0.8
            && x.qual != y.qual
            && x.noun.as_deref().is_some_and(|n| AGGREGATES.contains(&n))
        {
            return None;
        }
        if hx.is_empty() && hy.is_empty() && qx == 0 && qy == 0 {
            if many_differs && shape < 0.8 {
                return None;
            }
            // Two names that are nothing but an action (`list`, `search`), spelled apart:
            // the text or the schema must agree.
            let only_action = |r: &Read| r.head.is_empty() && r.qual.is_empty();
            if only_action(x) && only_action(y) && x.verb != y.verb && text < 0.1 && shape < 0.5 {
                return None;
            }
            // A listing that takes nothing but paging cannot do a search's job, nor a search
            // a plain listing's (`list_models()` / `search_models(query)`).
            if lists && (pages_only(x, y) || pages_only(y, x)) {
                return None;
            }
            return Some((0.6 + 0.4 * text.max(shape), Relation::SameJob));
        }
        // One names no object (`search`, `search_by_tag`). When neither does but each names
        // its own target (`export_to_arrows_json` / `export_to_owl_turtle`), the targets are
        // the objects.
        let bare = |r: &Read| r.head.is_empty() && r.qual.iter().all(|w| self.weak(w));
        let two_targets = x.head.is_empty() && y.head.is_empty() && !bare(x) && !bare(y);
        if same_action && (x.head.is_empty() || y.head.is_empty()) && !two_targets {
            // A bare action meets every tool of its action: it needs the text or the schema
            // to agree, or its description to name the other's object (`search` over
            // "articles, trials, variants …" for `article_searcher`).
            let (bare_one, other) = if x.head.is_empty() { (x, y) } else { (y, x) };
            // (Or the other's description names what scopes the bare one: `complex_search`
            // "… documents with certain tags" for `search_by_tag`.)
            let scope_named = bare_one.qual.iter().any(|q| mentions(&other.desc_lower, q));
            let named = scope_named
                || other
                    .noun
                    .as_deref()
                    .is_some_and(|n| mentions(&bare_one.desc_lower, n));
            // Scoped by an input the other does not take (`search_by_subject(subject)` /
            // `search_all_messages`): what the model holds picks the tool, unless the other's
            // description says it covers that scope too.
            if !scope_named && shape < 0.8 && distinct_inputs(x, y) {
                return None;
            }
            return (!many_differs && (text >= 0.3 || shape >= 0.5 || (named && text >= 0.1)))
                .then_some((0.5 + 0.5 * text.max(shape), Relation::BareAction));
        }
        if hx.is_empty() && hy.is_empty() {
            if many_differs {
                return None;
            }
            // A call one accepts the other accepts too (`list_directory(path)` and
            // `list_directory_with_sizes(path, sortBy?)`): the schemas do not draw the line,
            // however small the overlap score of a short schema is.
            let compatible =
                call_compatible(&x.params, &y.params) || call_compatible(&y.params, &x.params);
            return ((text >= 0.5 && (shape >= 0.5 || compatible)) || (text >= 0.7 && shape > 0.0))
                .then_some((0.5 + 0.5 * text, Relation::Qualified));
        }
        // One object is a kind of the other (`get_comments` / `get_inline_comments`): as for
        // a qualifier, confusable when text and schemas agree.
        if same_action && !many_differs && (kind_of(x, y) || kind_of(y, x)) {
            let compatible =
                call_compatible(&x.params, &y.params) || call_compatible(&y.params, &x.params);
            if text >= 0.5 && (shape >= 0.5 || compatible) {
                return Some((0.5 + 0.5 * text, Relation::Qualified));
            }
        }
        if same_action && x.action.is_some() && (covers(x, y) || covers(y, x)) {
            return Some((0.6 + 0.4 * text.max(shape), Relation::Covers));
        }
        look_alike()
    }

    /// Every confusable pair, strongest first (then by index).
    pub fn pairs(&self) -> Vec<ConfusablePair> {
        let mut out: Vec<ConfusablePair> = self
            .candidates()
            .par_iter()
            .filter_map(|&(a, b)| self.pair(a as usize, b as usize))
            .collect();
        out.sort_by(|p, q| {
            q.score
                .total_cmp(&p.score)
                .then((p.a, p.b).cmp(&(q.a, q.b)))
        });
        out
    }

    /// The candidate pairs the scorer looks at (`a < b`, sorted): tools sharing a key, at most
    /// [`WINDOW`] neighbours per tool in an oversized key — linear in the surface. `mf cluster`
    /// scores these on large surfaces instead of every pair.
    pub fn candidate_pairs(&self) -> Vec<(usize, usize)> {
        self.candidates()
            .into_iter()
            .map(|(a, b)| (a as usize, b as usize))
            .collect()
    }

    fn candidates(&self) -> Vec<(u32, u32)> {
        let mut keys: HashMap<String, Vec<u32>> = HashMap::new();
        let mut bare_by_group: HashMap<usize, Vec<u32>> = HashMap::new();
        let mut by_group: HashMap<usize, Vec<u32>> = HashMap::new();
        for (i, t) in self.tools.iter().enumerate() {
            let i = i as u32;
            for h in t.head.iter().chain(t.qual.iter()) {
                keys.entry(format!("o:{h}")).or_default().push(i);
            }
            // A narrower kind meets the tools on the broader one (`execute_query`, `sql`).
            if let Some(noun) = &t.noun {
                for broad in words::broader_kinds(noun) {
                    keys.entry(format!("o:{broad}")).or_default().push(i);
                }
            }
            if t.head.is_empty() {
                keys.entry(format!("a:{:?}", t.action)).or_default().push(i);
            }
            if let Some(g) = t.action {
                by_group.entry(g).or_default().push(i);
                // A bare action or a generic object (`resources_list`) meets every tool of its
                // action.
                if t.head.is_empty() || generic(t) {
                    bare_by_group.entry(g).or_default().push(i);
                }
            }
            let mut heavy: Vec<&(u32, f64)> = t.vec.iter().collect();
            heavy.sort_by(|p, q| q.1.total_cmp(&p.1).then(p.0.cmp(&q.0)));
            for (id, _) in heavy.into_iter().take(2) {
                keys.entry(format!("t:{id}")).or_default().push(i);
            }
            // An update meets the tools adding or removing what it takes as a field
            // (`update_ticket(tags)`, `add_tag`): `updates_field`.
            if t.action == verb_group("update") && t.qual.is_empty() && !t.head.is_empty() {
                for w in names::fields(t) {
                    keys.entry(format!("f:{w}")).or_default().push(i);
                }
            } else if let Some(noun) = &t.noun
                && t.action.is_some()
                && t.action != verb_group("get")
                && t.action != verb_group("list")
            {
                keys.entry(format!("f:{noun}")).or_default().push(i);
            }
            for e in &t.examples {
                keys.entry(format!("e:{e}")).or_default().push(i);
            }
            // A parameter value naming an object meets the tools on it (`value_names`).
            for (v, _) in &t.values {
                if let Some(noun) = v.last() {
                    keys.entry(format!("o:{noun}")).or_default().push(i);
                }
            }
            if t.top_params != 0 {
                keys.entry(format!("s:{}", t.top_params))
                    .or_default()
                    .push(i);
            }
        }
        let mut out: Vec<(u32, u32)> = Vec::new();
        let block = |members: &[u32], out: &mut Vec<(u32, u32)>| {
            if members.len() <= BLOCK_MAX {
                for (k, &p) in members.iter().enumerate() {
                    for &q in &members[k + 1..] {
                        out.push((p.min(q), p.max(q)));
                    }
                }
            } else {
                let mut m = members.to_vec();
                m.sort_by(|p, q| {
                    self.tools[*p as usize]
                        .name_lower
                        .cmp(&self.tools[*q as usize].name_lower)
                });
                for k in 0..m.len() {
                    for &q in m.iter().skip(k + 1).take(WINDOW) {
                        out.push((m[k].min(q), m[k].max(q)));
                    }
                }
            }
        };
        for members in keys.values() {
            block(members, &mut out);
        }
        for (g, bare) in &bare_by_group {
            let all = &by_group[g];
            for &p in bare.iter().take(BLOCK_MAX) {
                for &q in all.iter().take(BLOCK_MAX * 4) {
                    if p != q {
                        out.push((p.min(q), p.max(q)));
                    }
                }
            }
        }
        out.par_sort_unstable();
        out.dedup();
        out
    }
}

/// `desc` names the tool `name` (both lower case): as a whole word, and a one-word name
/// (`search`, `fetch`, which any description may use as a verb) only when written as code
/// (`` `search` ``), quoted, or pointed at as a tool ("use the search tool").
fn names_tool(desc: &str, name: &str) -> bool {
    if name.is_empty() {
        return false;
    }
    let one_word = name.chars().all(char::is_alphanumeric);
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    desc.match_indices(name).any(|(i, _)| {
        let before = desc[..i].chars().next_back();
        let after = desc[i + name.len()..].chars().next();
        if before.is_some_and(ident) || after.is_some_and(ident) {
            return false;
        }
        !one_word
            || (matches!(before, Some('`' | '"' | '\'' | '\u{201c}'))
                && matches!(after, Some('`' | '"' | '\'' | '\u{201d}')))
            || (desc[i + name.len()..].trim_start().starts_with("tool")
                && desc[..i]
                    .split_whitespace()
                    .next_back()
                    .is_some_and(|w| POINTING.contains(&w)))
    })
}

/// Words before "`search` tool" that point at a tool ("use the search tool"); after another
/// word the phrase describes the tool itself ("a comprehensive search tool for trials").
const POINTING: &[&str] = &["the", "use", "call", "using", "via", "with", "try", "run"];

/// Quoted phrases hold at most this many characters to count as an example request.
const MAX_EXAMPLE: usize = 200;

/// The example requests a description quotes (`"Why did task A fail?"`, in straight or curly
/// double quotes), normalized: lower case, words only, a one-letter or numeric word (the
/// placeholder in "task A", "run 42") read as `_`. At least three words apart by spaces, at most
/// [`MAX_EXAMPLE`] characters, and the first 64 quotes of a description.
fn examples(desc: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = desc;
    for _ in 0..64 {
        let Some(open) = rest.find(['"', '\u{201c}']) else {
            break;
        };
        let after = &rest[open..];
        let q = after.chars().next().map_or(1, char::len_utf8);
        let body = &after[q..];
        let Some(close) = body.find(['"', '\u{201d}']) else {
            break;
        };
        let phrase = &body[..close];
        let before = rest[..open].trim_end().chars().next_back();
        rest = &body[close + body[close..].chars().next().map_or(1, char::len_utf8)..];
        // A JSON value or key (`{"text": "Tests failed on main"}`) is data, not a request.
        if matches!(before, Some(':' | '{' | '[' | ',')) || rest.trim_start().starts_with(':') {
            continue;
        }
        // A request is a sentence: three words at least, apart by spaces (a quoted value
        // such as `"cloudwatch.aws/ec2"` or `"mp3_44100_128"` is not one).
        // Nor is a header, a command or a template (`"Authorization: Bearer $TOKEN"`).
        if phrase.len() > MAX_EXAMPLE
            || phrase.contains(['$', ':', '/', '=', '{', '}', '<', '>', '\\', '|'])
            || phrase
                .split_whitespace()
                .filter(|w| w.chars().any(char::is_alphabetic))
                .count()
                < 3
        {
            continue;
        }
        let words: Vec<String> = phrase
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(|w| {
                if w.chars().count() == 1 || w.chars().all(|c| c.is_ascii_digit()) {
                    "_".to_owned()
                } else {
                    w.to_lowercase()
                }
            })
            .collect();
        // …and a request: a question, or an imperative or a question word first ("Tell me
        // about DAG X", "Why did task A fail?"), not a quoted value ("Available in MCP").
        let asks = phrase.trim_end().ends_with('?')
            || words.first().is_some_and(|w| {
                verb_group(&stem(w)).is_some() || REQUEST_WORDS.contains(&w.as_str())
            });
        if words.len() >= 3 && asks {
            out.insert(words.join(" "));
        }
    }
    out
}

/// A top-level parameter names one `noun` (`training_id`, `model_name`, `id`): a get that takes
/// it gets one (`get_trainings(training_id)`), however the name is spelled.
fn identifies(keys: &[(String, f64)], noun: &str) -> bool {
    keys.iter().filter(|k| !k.0.contains('.')).any(|k| {
        k.0 == "id"
            || k.0
                .strip_prefix(noun)
                .and_then(|r| r.strip_prefix('_'))
                .is_some_and(|r| matches!(r, "id" | "name" | "key" | "gid" | "uuid" | "slug"))
    })
}

/// The schema requires a list (`open_nodes(names: [...])`).
fn required_array(schema: Option<&Value>) -> bool {
    let Some(s) = schema else { return false };
    let props = s.get("properties").and_then(Value::as_object);
    s.get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .any(|r| {
            props
                .and_then(|p| p.get(r))
                .and_then(|p| p.get("type"))
                .is_some_and(|t| t == "array")
        })
}

fn dot(a: &[(u32, f64)], b: &[(u32, f64)]) -> f64 {
    let (mut i, mut j, mut s) = (0, 0, 0.0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                s += a[i].1 * b[j].1;
                i += 1;
                j += 1;
            }
        }
    }
    s.clamp(0.0, 1.0)
}

/// Parameter-shape similarity: the structural overlap with a lighter smoothing (2).
fn shape(a: &[(u32, f64)], b: &[(u32, f64)]) -> f64 {
    super::similarity::weighted_overlap(a, b, 2.0)
}

fn fnv(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h.max(1)
}

/// Every confusable pair of `tools`, strongest first.
pub fn confusable_pairs(tools: &[Tool]) -> Vec<ConfusablePair> {
    Scorer::new(tools).pairs()
}

#[cfg(test)]
mod tests;
