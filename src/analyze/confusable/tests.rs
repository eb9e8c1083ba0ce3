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

fn params(names: &[&str]) -> Value {
    let props: serde_json::Map<String, Value> = names
        .iter()
        .map(|n| ((*n).to_owned(), json!({"type": "string"})))
        .collect();
    json!({"type": "object", "properties": props, "required": names})
}

#[test]
fn create_or_update_is_a_write_of_the_same_object() {
    let repo = || params(&["owner", "repo", "branch", "message"]);
    let tools = [
        tool("push_files", "Push several files in one commit.", repo()),
        tool(
            "create_or_update_file",
            "Create or update one file.",
            repo(),
        ),
        tool("delete_file", "Delete a file.", repo()),
        tool(
            "create_issue",
            "Open an issue.",
            params(&["owner", "repo", "title"]),
        ),
    ];
    assert_eq!(
        names(&tools),
        [("push_files".into(), "create_or_update_file".into())]
    );
}

#[test]
fn a_format_next_to_an_object_qualifies_it() {
    let tools = [
        tool("retrieve_page", "Retrieve a page.", params(&["page_id"])),
        tool(
            "retrieve_page_markdown",
            "Retrieve a page as Markdown.",
            params(&["page_id", "include_transcript"]),
        ),
        tool("export_csv", "Export the sheet as CSV.", params(&["sheet"])),
        tool("export_workbook", "Export the workbook.", params(&["path"])),
        tool(
            "search_paper_text",
            "Search inside a paper's text.",
            params(&["id", "q"]),
        ),
        tool(
            "search_papers",
            "Search papers by keyword.",
            params(&["query"]),
        ),
    ];
    assert_eq!(
        names(&tools),
        [("retrieve_page".into(), "retrieve_page_markdown".into())]
    );
}

#[test]
fn verb_less_tools_taking_the_same_inputs_are_confusable_when_only_two_do() {
    let route = || params(&["origin", "destination", "mode"]);
    let mut tools = vec![
        tool(
            "maps_directions",
            "Get directions between two points.",
            route(),
        ),
        tool(
            "maps_distance_matrix",
            "Calculate travel distance and time.",
            params(&["origins", "destinations", "mode"]),
        ),
        tool(
            "maps_geocode",
            "Convert an address into coordinates.",
            params(&["address"]),
        ),
    ];
    let pairs = confusable_pairs(&tools);
    assert_eq!(pairs.len(), 1, "{pairs:?}");
    assert_eq!(pairs[0].relation, Relation::SameInputs);
    // A third tool taking the same inputs makes them the surface's common shape, not a tell.
    tools.push(tool(
        "maps_route_elevation",
        "Elevation along a route.",
        route(),
    ));
    assert!(names(&tools).is_empty(), "{:?}", names(&tools));
    // Names with actions say what they do: the same inputs alone do not make them confusable.
    let tools = [
        tool("copy_sheet", "Copy a sheet.", params(&["source", "target"])),
        tool(
            "rename_sheet",
            "Rename a sheet.",
            params(&["source", "target"]),
        ),
    ];
    assert!(names(&tools).is_empty(), "{:?}", names(&tools));
}

#[test]
fn a_light_verb_carries_the_next_word_across_servers() {
    let shot = || params(&["name", "selector"]);
    let tools = [
        tool(
            "puppeteer_screenshot",
            "Take a screenshot of the page.",
            shot(),
        ),
        tool("puppeteer_navigate", "Navigate to a URL.", params(&["url"])),
        tool(
            "puppeteer_hover",
            "Hover an element.",
            params(&["selector"]),
        ),
        tool(
            "browser_take_screenshot",
            "Take a screenshot of the page.",
            shot(),
        ),
        tool("browser_navigate_back", "Go back.", json!({})),
        tool("browser_drag", "Drag an element.", params(&["from", "to"])),
    ];
    let pairs = Scorer::grouped(&tools, &[0, 0, 0, 1, 1, 1]).pairs();
    let got: Vec<(&str, &str, Relation)> = pairs
        .iter()
        .map(|p| {
            (
                tools[p.a].name.as_str(),
                tools[p.b].name.as_str(),
                p.relation,
            )
        })
        .collect();
    assert!(
        got.contains(&(
            "puppeteer_screenshot",
            "browser_take_screenshot",
            Relation::SameJob
        )),
        "{got:?}"
    );
}

#[test]
fn a_qualified_variant_that_accepts_the_same_calls_is_confusable() {
    let path =
        json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]});
    let sized = json!({"type": "object", "properties": {"path": {"type": "string"}, "sortBy": {"type": "string"}}, "required": ["path"]});
    let tools = [
        tool(
            "list_directory",
            "List the files and directories in a directory path.",
            path.clone(),
        ),
        tool(
            "list_directory_with_sizes",
            "List the files and directories in a directory path, with sizes.",
            sized,
        ),
        tool("read_file", "Read a file.", path.clone()),
        tool("move_file", "Move a file.", path),
    ];
    assert_eq!(
        names(&tools),
        [("list_directory".into(), "list_directory_with_sizes".into())]
    );
    // One requires what the other does not take: calls are not interchangeable.
    let tools = [
        tool(
            "list_files_in_dir",
            "List the files and directories in a directory path.",
            params(&["dirpath"]),
        ),
        tool(
            "list_files_in_vault",
            "List the files and directories in the vault root.",
            json!({"type": "object", "properties": {}}),
        ),
        tool("read_file", "Read a file.", params(&["path"])),
        tool("move_file", "Move a file.", params(&["path"])),
    ];
    assert!(names(&tools).is_empty(), "{:?}", names(&tools));
}

#[test]
fn a_description_template_with_the_object_swapped_is_not_a_confusion() {
    let tools = [
        tool(
            "watch_card",
            "Subscribe or unsubscribe from watching a card on the board.",
            params(&["cardId", "watch"]),
        ),
        tool(
            "watch_list",
            "Subscribe or unsubscribe from watching a list on the board.",
            params(&["listId", "watch"]),
        ),
        tool("get_board", "Get the board.", params(&["boardId"])),
        tool(
            "send_email",
            "Send an email now.",
            params(&["to", "subject", "body", "cc"]),
        ),
        tool(
            "draft_email",
            "Save a message for later.",
            params(&["to", "subject", "body", "cc"]),
        ),
    ];
    assert!(names(&tools).is_empty(), "{:?}", names(&tools));
    // Matching parameters on objects that share a word, with the same action, still are.
    let chart = || {
        params(&[
            "data",
            "title",
            "axisXTitle",
            "axisYTitle",
            "width",
            "height",
        ])
    };
    let tools = [
        tool("generate_bar_chart", "Draw bars for categories.", chart()),
        tool(
            "generate_column_chart",
            "Compare values across groups visually.",
            chart(),
        ),
        tool("generate_map", "Draw a map.", params(&["location"])),
    ];
    assert_eq!(
        names(&tools),
        [("generate_bar_chart".into(), "generate_column_chart".into())]
    );
}

#[test]
fn one_object_and_a_list_of_them_are_not_the_same_job() {
    let tools = [
        tool("get_tag", "Get a tag by its id.", params(&["tag_gid"])),
        tool(
            "get_tags_for_task",
            "Get the tags of a task.",
            params(&["task_gid"]),
        ),
        tool(
            "create_event",
            "Create an event in a calendar.",
            params(&["calendarId", "summary"]),
        ),
        tool(
            "create_events",
            "Create several events.",
            params(&["calendarId", "events"]),
        ),
        tool("list_issues", "List issues in a repository.", q()),
        tool("search_issues", "Search issues in a repository.", q()),
    ];
    assert_eq!(
        names(&tools),
        [("list_issues".into(), "search_issues".into())]
    );
}

#[test]
fn a_general_tool_covers_the_specific_one() {
    let k = |extra: &[&str]| {
        let mut p = vec!["name", "namespace"];
        p.extend_from_slice(extra);
        params(&p)
    };
    let tools = [
        tool(
            "pods_get",
            "Get a Kubernetes Pod in the current namespace.",
            k(&[]),
        ),
        tool(
            "resources_get",
            "Get a Kubernetes resource by apiVersion and kind (common kinds: v1 Pod, v1 Service).",
            k(&["apiVersion", "kind"]),
        ),
        tool("nodes_log", "Get the logs of a node.", params(&["node"])),
        // The generic tool does not take what this one takes: not covered.
        tool(
            "events_get",
            "Get the events of an event source.",
            params(&["source", "since"]),
        ),
    ];
    let pairs = confusable_pairs(&tools);
    assert_eq!(pairs.len(), 1, "{pairs:?}");
    assert_eq!(
        (
            tools[pairs[0].a].name.as_str(),
            tools[pairs[0].b].name.as_str()
        ),
        ("pods_get", "resources_get")
    );
    assert_eq!(pairs[0].relation, Relation::Covers);
    // An update tool taking the parameter another tool is named after.
    let tools = [
        tool(
            "update_task",
            "Update a task's fields.",
            params(&["task_id", "name", "parent", "notes"]),
        ),
        tool(
            "set_parent_for_task",
            "Set the parent of a task.",
            params(&["task_id", "parent"]),
        ),
        tool("get_project", "Get a project.", params(&["project_id"])),
        tool(
            "delete_project",
            "Delete a project.",
            params(&["project_id"]),
        ),
    ];
    let pairs = confusable_pairs(&tools);
    assert_eq!(pairs.len(), 1, "{pairs:?}");
    assert_eq!(pairs[0].relation, Relation::Covers);
}

#[test]
fn get_or_create_is_a_create() {
    let tools = [
        tool(
            "create_label",
            "Create a new label.",
            params(&["name", "color"]),
        ),
        tool(
            "get_or_create_label",
            "Get a label by name, creating it when missing.",
            params(&["name", "color"]),
        ),
        tool("delete_label", "Delete a label.", params(&["id"])),
    ];
    assert_eq!(
        names(&tools),
        [("create_label".into(), "get_or_create_label".into())]
    );
}

#[test]
fn an_update_tool_that_sets_a_state_covers_the_state_tool() {
    let tools = [
        tool(
            "update_list",
            "Update a list name, archive state, subscription state, or board.",
            params(&["listId", "name", "closed", "subscribed", "idBoard"]),
        ),
        tool(
            "watch_list",
            "Subscribe or unsubscribe from watching a list.",
            params(&["listId", "subscribed"]),
        ),
        tool(
            "archive_list",
            "Send a list to the archive.",
            params(&["boardId", "listId"]),
        ),
        tool("get_board", "Get a board.", params(&["boardId"])),
        // An update that says nothing of publishing, and a publish that takes only ids.
        tool(
            "update_entry",
            "Update an existing entry's fields.",
            params(&["entryId", "fields"]),
        ),
        tool("publish_entry", "Publish an entry.", params(&["entryId"])),
    ];
    let got = names(&tools);
    assert!(
        got.contains(&("update_list".into(), "watch_list".into())),
        "{got:?}"
    );
    assert!(
        got.contains(&("update_list".into(), "archive_list".into())),
        "{got:?}"
    );
    assert!(
        !got.iter()
            .any(|p| p.0.contains("entry") || p.1.contains("entry")),
        "{got:?}"
    );
}

#[test]
fn a_get_of_a_plural_object_is_a_listing_and_an_update_covers_a_setter() {
    let tools = [
        tool(
            "get_tickets",
            "Fetch the latest tickets with pagination.",
            // (Sorting, not only paging: a listing that only pages is no search.)
            params(&["page", "per_page", "sort_by"]),
        ),
        tool(
            "search_tickets",
            "Search tickets with a query.",
            params(&["query", "page"]),
        ),
        tool(
            "get_ticket",
            "Get one ticket by id.",
            params(&["ticket_id"]),
        ),
        tool(
            "update_ticket",
            "Update a ticket's fields.",
            params(&["ticket_id", "subject", "status", "priority"]),
        ),
        tool(
            "set_ticket_status",
            "Set the status of a ticket.",
            params(&["ticket_id", "status"]),
        ),
        // Named with the object first, the plural is the server's style, not a listing.
        tool("pods_get", "Get a pod by name.", params(&["name"])),
        tool("pods_list", "List the pods.", params(&["namespace"])),
    ];
    let got = names(&tools);
    assert!(
        got.contains(&("get_tickets".into(), "search_tickets".into())),
        "{got:?}"
    );
    assert!(
        got.contains(&("update_ticket".into(), "set_ticket_status".into())),
        "{got:?}"
    );
    assert!(
        !got.iter().any(|p| p.0 == "pods_get" || p.1 == "pods_get"),
        "{got:?}"
    );
    assert!(
        !got.contains(&("get_ticket".into(), "get_tickets".into())),
        "{got:?}"
    );
}

/// `tools` on a surface with a few unrelated ones, so that words weigh as on a real surface.
fn on_a_surface(mut tools: Vec<Tool>) -> Vec<Tool> {
    for (n, d) in [
        ("send_email", "Send an email to a recipient."),
        ("get_weather", "Get the weather forecast for a city."),
        ("translate_text", "Translate text into another language."),
        ("convert_currency", "Convert an amount between currencies."),
        ("ping_host", "Ping a host and report the latency."),
    ] {
        tools.push(tool(n, d, json!({})));
    }
    tools
}

fn props(keys: &[(&str, &str)], required: &[&str]) -> Value {
    let p: serde_json::Map<String, Value> = keys
        .iter()
        .map(|(k, t)| ((*k).to_owned(), json!({"type": t})))
        .collect();
    json!({"type": "object", "properties": p, "required": required})
}

#[test]
fn a_kind_of_an_object_is_confusable_with_it_but_another_objects_part_is_not() {
    let page = || props(&[("page_id", "string")], &["page_id"]);
    let tools = on_a_surface(vec![
        tool("get_comments", "Get comments for a page.", page()),
        tool(
            "get_inline_comments",
            "Get all inline comments for a page.",
            page(),
        ),
        tool("get_labels", "Get the labels of a page.", page()),
    ]);
    assert_eq!(
        names(&tools),
        [("get_comments".into(), "get_inline_comments".into())]
    );
    // `column width` is a column's width: the tool takes the column.
    let tools = on_a_surface(vec![
        tool(
            "set_table_width",
            "Set the width of a table in the document.",
            props(
                &[("table_index", "integer"), ("width", "number")],
                &["table_index", "width"],
            ),
        ),
        tool(
            "set_table_column_width",
            "Set the width of a table column in the document.",
            props(
                &[
                    ("table_index", "integer"),
                    ("col_index", "integer"),
                    ("width", "number"),
                ],
                &["table_index", "col_index", "width"],
            ),
        ),
    ]);
    assert!(names(&tools).is_empty(), "{:?}", names(&tools));
}

#[test]
fn an_update_taking_a_field_covers_the_tool_that_adds_or_moves_it() {
    let tools = on_a_surface(vec![
        tool(
            "update_ticket",
            "Update one or more fields on a ticket.",
            props(
                &[
                    ("ticket_id", "integer"),
                    ("subject", "string"),
                    ("tags", "array"),
                    ("status", "string"),
                ],
                &["ticket_id"],
            ),
        ),
        tool(
            "add_tag",
            "Add a tag to a ticket.",
            props(
                &[("ticket_id", "integer"), ("tag", "string")],
                &["ticket_id", "tag"],
            ),
        ),
        tool(
            "add_comment",
            "Add a comment to a ticket.",
            props(
                &[("ticket_id", "integer"), ("body", "string")],
                &["ticket_id", "body"],
            ),
        ),
        tool(
            "create_ticket",
            "Create a ticket.",
            props(&[("subject", "string"), ("tags", "array")], &["subject"]),
        ),
    ]);
    // add_comment: the update takes no comment; create_ticket is the opposite of the update.
    assert_eq!(names(&tools), [("update_ticket".into(), "add_tag".into())]);
    let tools = on_a_surface(vec![
        tool(
            "update_page",
            "Update an existing page.",
            props(
                &[
                    ("page_id", "string"),
                    ("title", "string"),
                    ("body", "string"),
                    ("parent_id", "string"),
                ],
                &["page_id", "title"],
            ),
        ),
        tool(
            "move_page",
            "Move a page to a new parent or space.",
            props(
                &[("page_id", "string"), ("target_parent_id", "string")],
                &["page_id"],
            ),
        ),
        tool(
            "move_card",
            "Move a card to a new list.",
            props(
                &[("card_id", "string"), ("list_id", "string")],
                &["card_id"],
            ),
        ),
    ]);
    assert_eq!(names(&tools), [("update_page".into(), "move_page".into())]);
    // Without a parent field the update does not move the page.
    let tools = on_a_surface(vec![
        tool(
            "update_page",
            "Update an existing page.",
            props(
                &[("page_id", "string"), ("title", "string")],
                &["page_id", "title"],
            ),
        ),
        tool(
            "move_page",
            "Move a page to a new parent or space.",
            props(
                &[("page_id", "string"), ("target_parent_id", "string")],
                &["page_id"],
            ),
        ),
    ]);
    assert!(names(&tools).is_empty(), "{:?}", names(&tools));
}

#[test]
fn a_tool_on_a_broader_kind_covers_the_narrower_one() {
    let card = |what: &str| {
        props(
            &[
                ("card_id", "string"),
                (&format!("{what}_url"), "string"),
                ("name", "string"),
            ],
            &["card_id"],
        )
    };
    let tools = on_a_surface(vec![
        tool(
            "attach_file_to_card",
            "Attach any file to a card from a URL.",
            card("file"),
        ),
        tool(
            "attach_image_to_card",
            "Attach an image to a card from a URL.",
            card("image"),
        ),
        tool(
            "attach_label_to_card",
            "Attach a label to a card.",
            props(&[("card_id", "string")], &["card_id"]),
        ),
    ]);
    assert_eq!(
        names(&tools),
        [("attach_file_to_card".into(), "attach_image_to_card".into())]
    );
}

#[test]
fn a_get_of_many_named_ones_is_not_a_listing() {
    let tools = on_a_surface(vec![
        tool(
            "read_file",
            "Read a file.",
            props(&[("path", "string")], &["path"]),
        ),
        tool(
            "read_multiple_files",
            "Read the contents of multiple files at once.",
            props(&[("paths", "array")], &["paths"]),
        ),
        tool(
            "search_files",
            "Search for files matching a pattern.",
            props(
                &[("path", "string"), ("pattern", "string")],
                &["path", "pattern"],
            ),
        ),
        tool(
            "open_nodes",
            "Open specific nodes by their names.",
            props(&[("names", "array")], &["names"]),
        ),
        tool(
            "search_nodes",
            "Search for nodes matching a query.",
            props(&[("query", "string")], &["query"]),
        ),
    ]);
    assert!(names(&tools).is_empty(), "{:?}", names(&tools));
    // A get of a plural object without such a list is a listing, as `search_` is.
    let tools = on_a_surface(vec![
        tool(
            "get_tickets",
            "Get tickets, a page at a time, sorted as asked.",
            props(&[("page", "integer"), ("sort_by", "string")], &[]),
        ),
        tool(
            "search_tickets",
            "Search tickets by keyword.",
            props(&[("keywords", "string")], &[]),
        ),
    ]);
    assert_eq!(
        names(&tools),
        [("get_tickets".into(), "search_tickets".into())]
    );
}

#[test]
fn abbreviations_and_synonyms_name_one_object() {
    let path = || props(&[("path", "string")], &["path"]);
    let tools = on_a_surface(vec![
        tool("create_folder", "Create a new folder at a path.", path()),
        tool(
            "create_directory",
            "Create a new directory at a path.",
            path(),
        ),
        tool(
            "list_repos",
            "List the repositories you can see.",
            json!({}),
        ),
        tool(
            "list_repositories",
            "List repositories of an organization.",
            json!({}),
        ),
        tool("delete_file", "Delete a file at a path.", path()),
    ]);
    assert_eq!(
        names(&tools),
        [
            ("create_folder".into(), "create_directory".into()),
            ("list_repos".into(), "list_repositories".into())
        ]
    );
}

#[test]
fn two_tools_quoting_the_same_request_are_confusable() {
    let tools = on_a_surface(vec![
        tool(
            "get_task_instance",
            "Get a task instance. Use when the user asks \"Why did task A fail?\" or \"When did task B start?\"",
            props(&[("task_id", "string")], &["task_id"]),
        ),
        tool(
            "get_task_logs",
            "Get the logs of a task. Use when the user asks \u{201c}Why did task C fail?\u{201d}",
            props(&[("task_id", "string")], &["task_id"]),
        ),
        // Quoted values are not requests.
        tool(
            "text_to_speech",
            "Speak text; output format such as \"mp3_44100_128\" or \"cloudwatch.aws/ec2\".",
            props(&[("text", "string")], &["text"]),
        ),
        tool(
            "text_to_sound_effects",
            "Make a sound; output format such as \"mp3_44100_128\" or \"cloudwatch.aws/ec2\".",
            props(&[("text", "string")], &["text"]),
        ),
    ]);
    let same: Vec<(&str, &str)> = confusable_pairs(&tools)
        .into_iter()
        .filter(|p| p.relation == Relation::SameExample)
        .map(|p| (tools[p.a].name.as_str(), tools[p.b].name.as_str()))
        .collect();
    assert_eq!(same, [("get_task_instance", "get_task_logs")]);
}

#[test]
fn one_object_looked_up_by_different_keys_is_not_confusable() {
    let tools = on_a_surface(vec![
        tool(
            "get_post_by_id",
            "Get a post by its id.",
            props(&[("id", "string")], &["id"]),
        ),
        tool(
            "get_post_by_slug",
            "Get a post by its slug.",
            props(&[("slug", "string")], &["slug"]),
        ),
        tool(
            "get_tags_by_note",
            "Get the tags of a note.",
            props(&[("note_id", "string")], &["note_id"]),
        ),
        tool(
            "list_tags",
            "List every tag.",
            props(&[("limit", "integer")], &[]),
        ),
    ]);
    assert!(names(&tools).is_empty(), "{:?}", names(&tools));
}

#[test]
fn two_named_targets_and_two_named_objects_are_told_apart() {
    let model = || props(&[("data_model", "object")], &["data_model"]);
    let page = || {
        props(
            &[
                ("title", "string"),
                ("html", "string"),
                ("status", "string"),
            ],
            &["title"],
        )
    };
    let tools = on_a_surface(vec![
        tool(
            "export_to_arrows_json",
            "Export the data model to the Arrows JSON format.",
            model(),
        ),
        tool(
            "export_to_owl_turtle",
            "Export the data model to the OWL Turtle format.",
            model(),
        ),
        // The same template and schema, the object swapped: the names tell them apart.
        tool(
            "create_page",
            "Create a new page with a title, HTML content and a status.",
            page(),
        ),
        tool(
            "create_post",
            "Create a new post with a title, HTML content and a status.",
            page(),
        ),
    ]);
    assert!(names(&tools).is_empty(), "{:?}", names(&tools));
}

#[test]
fn a_word_many_names_contain_but_few_start_with_is_no_server_prefix() {
    let tools = on_a_surface(vec![
        tool(
            "asset-update",
            "Update an asset's attributes by its asset ID.",
            json!({"type": "object", "properties": {"asset_id": {"type": "string"}, "request": {"type": "object", "properties": {"tags": {"type": "array"}, "context": {"type": "object"}}}}, "required": ["asset_id", "request"]}),
        ),
        tool(
            "manage-asset-tags",
            "Add, remove or replace tags on several assets.",
            props(
                &[("public_ids", "array"), ("command", "string")],
                &["public_ids", "command"],
            ),
        ),
        tool(
            "search-assets",
            "Search assets with a query.",
            props(&[("expression", "string")], &[]),
        ),
        tool(
            "asset-rename",
            "Rename an asset.",
            props(
                &[("public_id", "string"), ("to_public_id", "string")],
                &["public_id"],
            ),
        ),
    ]);
    // `asset` is the object of all four (not a prefix), and the update's request body takes
    // the tags the other manages.
    assert_eq!(
        names(&tools),
        [("asset-update".into(), "manage-asset-tags".into())]
    );
}

#[test]
fn sql_is_the_broader_kind_of_a_query() {
    let sql = |k: &str| props(&[(k, "string"), ("connection_string", "string")], &[k]);
    let tools = on_a_surface(vec![
        tool(
            "pg_execute_sql",
            "Execute arbitrary SQL statements.",
            sql("sql"),
        ),
        tool(
            "pg_execute_query",
            "Execute a read-only SELECT query.",
            sql("query"),
        ),
        tool(
            "pg_list_tables",
            "List the tables of a schema.",
            sql("schema"),
        ),
    ]);
    assert_eq!(
        names(&tools),
        [("pg_execute_sql".into(), "pg_execute_query".into())]
    );
}

#[test]
fn a_rename_is_an_update_only_when_the_update_takes_the_name() {
    let tools = on_a_surface(vec![
        tool(
            "update_page",
            "Update a page with new content.",
            props(
                &[("page_name", "string"), ("content", "string")],
                &["page_name"],
            ),
        ),
        tool(
            "rename_page",
            "Rename an existing page.",
            props(
                &[("old_name", "string"), ("new_name", "string")],
                &["old_name", "new_name"],
            ),
        ),
    ]);
    assert!(names(&tools).is_empty(), "{:?}", names(&tools));
    let tools = on_a_surface(vec![
        tool(
            "update_board",
            "Update a board.",
            props(
                &[
                    ("board_id", "string"),
                    ("name", "string"),
                    ("color", "string"),
                ],
                &["board_id"],
            ),
        ),
        tool(
            "rename_board",
            "Give a board a new name.",
            props(
                &[("board_id", "string"), ("new_name", "string")],
                &["board_id", "new_name"],
            ),
        ),
    ]);
    assert_eq!(
        names(&tools),
        [("update_board".into(), "rename_board".into())]
    );
}

#[test]
fn agent_nouns_are_actions_and_a_general_tool_naming_the_object_covers_them() {
    let id = || props(&[("id", "string")], &["id"]);
    let tools = on_a_surface(vec![
        tool(
            "fetch",
            "Fetch full details of a record: articles, trials, genes or variants, by identifier.",
            props(&[("id", "string"), ("domain", "string")], &["id", "domain"]),
        ),
        tool(
            "gene_getter",
            "Fetch detailed information for a gene by its symbol.",
            id(),
        ),
        tool(
            "trial_getter",
            "Fetch detailed information for a trial by its NCT id.",
            id(),
        ),
        // Not named by `fetch`'s description, and little text in common.
        tool(
            "alert_getter",
            "Return the alert rules configured for the account.",
            id(),
        ),
    ]);
    let got = names(&tools);
    assert!(
        got.contains(&("fetch".into(), "gene_getter".into())),
        "{got:?}"
    );
    assert!(
        got.contains(&("fetch".into(), "trial_getter".into())),
        "{got:?}"
    );
    assert!(!got.iter().any(|p| p.1 == "alert_getter"), "{got:?}");
}

#[test]
fn a_verb_word_spelled_plural_is_a_noun() {
    let q = || props(&[("query", "string")], &["query"]);
    let tools = on_a_surface(vec![
        tool("shodan_search", "Search the database for hosts.", q()),
        tool(
            "shodan_queries",
            "List the saved queries shared by users.",
            props(&[("page", "integer"), ("sort", "string")], &[]),
        ),
    ]);
    assert!(names(&tools).is_empty(), "{:?}", names(&tools));
}

#[test]
fn a_get_that_takes_its_objects_id_gets_one_whatever_its_plural() {
    let tools = on_a_surface(vec![
        tool(
            "get_trainings",
            "Get the current state of a training.",
            props(&[("training_id", "string")], &[]),
        ),
        tool(
            "list_trainings",
            "Get a paginated list of all trainings, filtered by status.",
            props(&[("status", "string")], &[]),
        ),
    ]);
    assert!(names(&tools).is_empty(), "{:?}", names(&tools));
}

#[test]
fn a_one_word_name_is_named_only_as_code_or_a_tool() {
    assert!(!names_tool("search pubmed for articles", "search"));
    assert!(names_tool(
        "use the `search` tool for several domains",
        "search"
    ));
    assert!(names_tool(
        "prefer the search tool for several domains",
        "search"
    ));
    assert!(names_tool("use get_dag_run for one run", "get_dag_run"));
    assert!(!names_tool("see get_dag_runs", "get_dag_run"));
    // A tool describing itself as a kind of search tool names no `search` tool.
    assert!(!names_tool(
        "comprehensive search tool for finding clinical trials",
        "search"
    ));
}

#[test]
fn a_parameter_value_choosing_the_other_object_does_its_job() {
    let domain = json!({"type": "object", "properties": {
        "query": {"type": "string"},
        "domain": {"anyOf": [{"type": "string", "enum": ["article", "trial", "nci_organization"]}, {"type": "null"}]}
    }, "required": ["query"]});
    let terms = json!({"type": "object", "properties": {"conditions": {"type": "string"}, "phase": {"type": "string"}}});
    let tools = [
        tool(
            "search",
            "Search biomedical literature and registries.",
            domain,
        ),
        tool(
            "trial_searcher",
            "Comprehensive search tool for finding clinical studies by condition.",
            terms.clone(),
        ),
        tool(
            "nci_organization_searcher",
            "Find cancer centres and sponsors.",
            terms.clone(),
        ),
        tool("gene_searcher", "Look up gene annotations.", terms),
    ];
    let mut got = names(&tools);
    got.sort();
    assert_eq!(
        got,
        [
            ("search".into(), "nci_organization_searcher".into()),
            ("search".into(), "trial_searcher".into())
        ]
    );
    // A value that scopes the tool's own object, or the many where the other is one, does not.
    let kinds = |values: &[&str]| json!({"type": "object", "properties": {"resource_type": {"type": "string", "enum": values}}});
    let tools = [
        tool(
            "list_tags",
            "List the tags of assets.",
            kinds(&["image", "video", "raw"]),
        ),
        tool("list_images", "List the images in the account.", json!({})),
        tool(
            "get_resource",
            "Get a resource of the canvas.",
            kinds(&["scene", "elements"]),
        ),
        tool(
            "get_element",
            "Get one element by id.",
            json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}),
        ),
    ];
    assert!(names(&tools).is_empty(), "{:?}", names(&tools));
}

#[test]
fn a_quoted_value_is_no_example_request() {
    let e = examples(
        r#"Use when asked "Why did task A fail?" or "Tell me about DAG X". Returns "Upscaling models that create images", "Available in MCP", "Authorization: Bearer $TOKEN". Example: {"text": "Tests failed on main"}."#,
    );
    assert_eq!(
        e.into_iter().collect::<Vec<_>>(),
        ["tell me about dag _", "why did task _ fail"]
    );
}

#[test]
fn an_un_verb_undoes_its_verb() {
    let note = || {
        props(
            &[("note_id", "string"), ("tag", "string")],
            &["note_id", "tag"],
        )
    };
    let tools = on_a_surface(vec![
        tool("tag_note", "Add a tag to a note.", note()),
        tool("untag_note", "Remove a tag from a note.", note()),
    ]);
    assert!(names(&tools).is_empty(), "{:?}", names(&tools));
}

#[test]
fn a_listing_that_only_pages_is_not_a_search() {
    let tools = on_a_surface(vec![
        tool(
            "list_models",
            "Get a paginated list of public models.",
            props(&[("cursor", "string")], &[]),
        ),
        tool(
            "search_models",
            "Get a list of public models matching a query.",
            props(&[("query", "string")], &["query"]),
        ),
        tool(
            "list_issues",
            "List issues with filters.",
            props(
                &[
                    ("state", "string"),
                    ("labels", "array"),
                    ("page", "integer"),
                ],
                &[],
            ),
        ),
        tool(
            "search_issues",
            "Search issues with a query.",
            props(&[("q", "string")], &["q"]),
        ),
    ]);
    assert_eq!(
        names(&tools),
        [("list_issues".into(), "search_issues".into())]
    );
}

#[test]
fn a_state_tool_naming_the_field_an_update_takes_is_covered() {
    let tools = on_a_surface(vec![
        tool(
            "update_comment",
            "Update an existing comment.",
            props(
                &[
                    ("comment_id", "integer"),
                    ("content", "string"),
                    ("status", "string"),
                ],
                &["comment_id"],
            ),
        ),
        tool(
            "moderate_comment",
            "Moderate a comment by changing its status.",
            props(
                &[("comment_id", "integer"), ("action", "string")],
                &["comment_id", "action"],
            ),
        ),
    ]);
    assert_eq!(
        names(&tools),
        [("update_comment".into(), "moderate_comment".into())]
    );
}

#[test]
fn figures_grouped_another_way_are_another_answer() {
    let realm = || props(&[("realm", "string")], &["realm"]);
    let tools = on_a_surface(vec![
        tool(
            "get_login_stats",
            "Get login statistics for the realm.",
            realm(),
        ),
        tool(
            "get_login_stats_by_client",
            "Get login statistics for the realm, per client.",
            realm(),
        ),
        tool(
            "get_login_stats_by_hour",
            "Get login statistics for the realm, per hour.",
            realm(),
        ),
    ]);
    assert!(names(&tools).is_empty(), "{:?}", names(&tools));
}

#[test]
fn two_bare_actions_spelled_apart_need_text_or_schema() {
    let tools = on_a_surface(vec![
        tool(
            "list",
            "Show every task of every task list.",
            props(&[("tasklist", "string")], &[]),
        ),
        tool(
            "search",
            "Find tasks by a keyword.",
            props(&[("query", "string")], &["query"]),
        ),
    ]);
    assert!(names(&tools).is_empty(), "{:?}", names(&tools));
}

#[test]
fn a_verb_inside_a_compound_noun_is_no_second_action() {
    let realm = || props(&[("realm", "string"), ("type", "string")], &["realm"]);
    let tools = on_a_surface(vec![
        tool(
            "get_events",
            "Get the events of a realm, filtered by event type.",
            realm(),
        ),
        tool(
            "get_password_update_events",
            "Get the events of a realm where a password was updated, filtered by event type.",
            realm(),
        ),
    ]);
    let s = Scorer::new(&tools);
    assert!(
        s.tools[1].more_verbs.is_empty(),
        "{:?}",
        s.tools[1].more_verbs
    );
    // `interact_stop` ends on a verb: that one is a second action.
    let t = on_a_surface(vec![tool("interact_stop", "Stop the session.", json!({}))]);
    assert!(Scorer::new(&t).tools[0].more_verbs.contains("stop"));
}

#[test]
fn a_search_scoped_by_an_input_the_general_one_lacks_is_told_apart() {
    let dates = |k: Option<&str>| {
        let mut p = vec![("start_date", "string"), ("end_date", "string")];
        let mut r = vec![];
        if let Some(k) = k {
            p.push((k, "string"));
            r.push(k);
        }
        props(&p, &r)
    };
    let tools = on_a_surface(vec![
        tool(
            "search_all_messages",
            "Search all messages across mailboxes with an optional date range.",
            dates(None),
        ),
        tool(
            "search_by_subject",
            "Search messages by subject keywords with an optional date range.",
            dates(Some("subject")),
        ),
    ]);
    assert!(names(&tools).is_empty(), "{:?}", names(&tools));
    // The general one says it covers that scope: confusable.
    let tools = on_a_surface(vec![
        tool(
            "search_all_messages",
            "Search all messages, by subject, sender or date range.",
            dates(None),
        ),
        tool(
            "search_by_subject",
            "Search messages by subject keywords with an optional date range.",
            dates(Some("subject")),
        ),
    ]);
    assert_eq!(names(&tools).len(), 1, "{:?}", names(&tools));
}

#[test]
fn inverse_look_ups_are_two_jobs() {
    let tools = on_a_surface(vec![
        tool(
            "get_card_dashboards",
            "Get the dashboards a card is on.",
            props(&[("card_id", "integer")], &["card_id"]),
        ),
        tool(
            "get_dashboard_cards",
            "Get the cards of a dashboard.",
            props(&[("dashboard_id", "integer")], &["dashboard_id"]),
        ),
    ]);
    assert!(names(&tools).is_empty(), "{:?}", names(&tools));
}

#[test]
fn a_generic_tool_addressing_any_object_by_id_covers_a_typed_one() {
    let tools = on_a_surface(vec![
        tool(
            "get_item",
            "Get one item by endpoint path and ID, e.g. path='Assets/Computer', item_id=12.",
            props(&[("path", "string"), ("item_id", "integer")], &["path"]),
        ),
        tool(
            "get_asset",
            "Get one asset by type and ID.",
            props(
                &[("asset_type", "string"), ("asset_id", "integer")],
                &["asset_type", "asset_id"],
            ),
        ),
        // Objects listed inside a bucket: the generic tool is scoped by the bucket.
        tool(
            "list_objects",
            "List the objects in a bucket.",
            props(
                &[("bucket_name", "string"), ("object_id", "string")],
                &["bucket_name"],
            ),
        ),
        tool(
            "list_buckets",
            "List the buckets of a project.",
            props(&[("project_id", "string")], &["project_id"]),
        ),
    ]);
    assert_eq!(names(&tools), [("get_item".into(), "get_asset".into())]);
}

#[test]
fn querying_in_a_query_language_runs_a_query() {
    let sql = |k: &str| json!({"type": "object", "properties": {"database": {"type": "string"}, k: {"type": "string", "description": "the SQL text"}}, "required": ["database", k]});
    let tools = [
        tool(
            "query_sql",
            "Run a read-only SQL query against a database and return the rows.",
            sql("q"),
        ),
        tool(
            "execute_query",
            "Execute a SQL query against a database. Returns the results as JSON.",
            sql("query"),
        ),
        tool(
            "query_issues",
            "Find issues matching a filter.",
            json!({"type": "object", "properties": {"filter": {"type": "string"}}}),
        ),
    ];
    assert_eq!(
        names(&tools),
        [("query_sql".into(), "execute_query".into())]
    );
}

#[test]
fn enumerated_values_are_read_within_bounds() {
    // Distinct words without digits (`kindbaf`), 60 per parameter.
    let word = |n: usize| -> String {
        let letters: String = [n / 676, (n / 26) % 26, n % 26]
            .iter()
            .map(|&d| char::from(b'a' + d as u8))
            .collect();
        format!("kind{letters}")
    };
    let mut props = serde_json::Map::new();
    for p in 0..10 {
        let values: Vec<String> = (0..60).map(|v| word(p * 60 + v)).collect();
        props.insert(format!("p{p}"), json!({"type": "string", "enum": values}));
    }
    // A vocabulary (over 64 values) is no choice of object.
    let long: Vec<String> = (0..65).map(|v| format!("lang{}", word(v))).collect();
    props.insert("language".into(), json!({"enum": long}));
    let schema = json!({"type": "object", "properties": props});
    let values = names::enum_values(Some(&schema));
    assert_eq!(values.len(), 256);
    assert!(
        values.iter().all(|(w, _)| w[0].starts_with("kind")),
        "{values:?}"
    );
    let one = json!({"type": "object", "properties": {"domain": {"anyOf": [{"enum": ["Articles", "trial"]}, {"type": "null"}]}}});
    assert_eq!(
        names::enum_values(Some(&one)),
        [
            (vec!["article".to_owned()], true),
            (vec!["trial".to_owned()], false)
        ]
    );
}
