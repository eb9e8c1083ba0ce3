//! Unit tests of the surface pair scorer.

use super::*;
use crate::surface::{Confidence, Origin, SourceFormat};
use serde_json::json;

fn tool(name: &str, desc: &str, schema: Value) -> Tool {
    Tool {
        description: Some(desc.into()),
        input_schema: Some(schema),
        ..Tool::named(
            name,
            Origin::at(SourceFormat::McpToolsList, "t.json", 1, 1),
            Confidence::High,
        )
    }
}

fn q() -> Value {
    json!({"type": "object", "properties": {"query": {"type": "string"}, "repo": {"type": "string"}}, "required": ["query", "repo"]})
}

fn names(tools: &[Tool]) -> Vec<(String, String)> {
    confusable_pairs(tools)
        .into_iter()
        .map(|p| (tools[p.a].name.clone(), tools[p.b].name.clone()))
        .collect()
}

#[test]
fn synonym_actions_on_one_object_are_confusable() {
    let tools = [
        tool("list_issues", "List issues in a repository.", q()),
        tool("search_issues", "Search issues in a repository.", q()),
        tool("create_branch", "Create a branch in a repository.", q()),
    ];
    assert_eq!(
        names(&tools),
        [("list_issues".into(), "search_issues".into())]
    );
}

#[test]
fn opposite_actions_and_other_objects_are_not() {
    let tools = [
        tool("start_server", "Start the server.", json!({})),
        tool("stop_server", "Stop the server.", json!({})),
        tool("create_issue", "Create an issue in a repository.", q()),
        tool("create_branch", "Create a branch in a repository.", q()),
        tool("lock_file", "Lock a file.", json!({})),
        tool("unlock_file", "Unlock a file.", json!({})),
    ];
    assert!(names(&tools).is_empty(), "{:?}", names(&tools));
}

#[test]
fn shared_boilerplate_weighs_nothing() {
    let tail = " Only works within allowed directories. Can be referenced as DC.";
    let tools: Vec<Tool> = ["read_file", "move_file", "list_directory", "get_file_info"]
        .iter()
        .map(|n| tool(n, &format!("Does {n}.{tail}"), json!({})))
        .collect();
    assert!(names(&tools).is_empty(), "{:?}", names(&tools));
}

#[test]
fn a_stated_boundary_drops_the_pair() {
    let tools = [
        tool(
            "list_issues",
            "List issues. For keywords use search_issues.",
            q(),
        ),
        tool("search_issues", "Search issues in a repository.", q()),
    ];
    assert!(names(&tools).is_empty());
}

#[test]
fn param_names_normalize() {
    let a = param_keys(Some(&json!({"properties": {"perPage": {}, "files": {}}})));
    let b = param_keys(Some(&json!({"properties": {"per_page": {}, "file": {}}})));
    assert_eq!(
        a.iter().map(|k| &k.0).collect::<Vec<_>>(),
        b.iter().map(|k| &k.0).collect::<Vec<_>>()
    );
}

#[test]
fn a_verb_most_of_a_small_server_starts_with_is_its_action_not_a_prefix() {
    // Three new tools, two starting with `read_`, checked against installed ones: `read` is what
    // they do (stripping it as a server prefix made `read_text_file` a verb-less `file` that
    // paired with `search_files`).
    let p =
        json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]});
    let tools = [
        tool("read_text_file", "Read a text file from disk.", p.clone()),
        tool(
            "fetch_text_file",
            "Fetch a text file's contents.",
            p.clone(),
        ),
        tool("read_document", "Read a document.", p.clone()),
        tool(
            "search_files",
            "Search for files by a glob pattern.",
            p.clone(),
        ),
        tool("write_file", "Write a file.", p.clone()),
        tool("move_file", "Move a file.", p.clone()),
    ];
    let pairs: Vec<(String, String)> = Scorer::grouped(&tools, &[0, 0, 0, 1, 1, 1])
        .pairs()
        .into_iter()
        .map(|p| (tools[p.a].name.clone(), tools[p.b].name.clone()))
        .collect();
    assert!(
        pairs.contains(&("read_text_file".into(), "fetch_text_file".into())),
        "{pairs:?}"
    );
    assert!(!pairs.iter().any(|p| p.1 == "search_files"), "{pairs:?}");
}

#[test]
fn an_article_in_a_name_is_not_a_preposition() {
    // `retrieve-a-block` read `a` as a preposition: the object became a qualifier, the head
    // empty, and every `retrieve-a-…` tool paired with every other as a bare action.
    let id =
        json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]});
    let tools = [
        tool("API-retrieve-a-block", "Retrieve a block.", id.clone()),
        tool("API-retrieve-a-comment", "Retrieve comments.", id.clone()),
        tool("API-retrieve-a-page", "Retrieve a page.", id.clone()),
        tool("API-create-a-comment", "Create a comment.", id.clone()),
        tool(
            "API-create-a-data-source",
            "Create a data source.",
            id.clone(),
        ),
    ];
    assert!(names(&tools).is_empty(), "{:?}", names(&tools));
}
