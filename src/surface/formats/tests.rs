//! Loader tests: every shape of BEHAVIOR §1.1, positions, and errors that name where.

use super::*;

fn load(text: &str) -> Result<Option<Loaded>, LoadError> {
    let doc = parse_json(text, "t.json")?;
    let src = Source {
        file: "t.json",
        text,
        doc: &doc,
        base_dir: None,
    };
    load_doc(&src)
}

fn tools(text: &str) -> Vec<Tool> {
    load(text)
        .expect("loads")
        .expect("is a surface")
        .surface
        .tools
}

const READ: &str = r#"{"name":"read_file","description":"Read a file.","inputSchema":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}"#;

#[test]
fn mcp_tools_list_in_all_three_shapes() {
    for text in [
        format!(r#"{{"tools":[{READ}]}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"tools":[{READ}]}}}}"#),
        format!("[{READ}]"),
    ] {
        let t = tools(&text);
        assert_eq!(t.len(), 1, "{text}");
        assert_eq!(t[0].name, "read_file");
        assert_eq!(t[0].origin.format, SourceFormat::McpToolsList);
        assert_eq!(t[0].parameter_names(), vec!["path"]);
        assert_eq!(t[0].confidence, crate::surface::Confidence::High);
    }
}

#[test]
fn pages_are_merged_in_order() {
    let text = r#"[
 {"result":{"tools":[{"name":"a","inputSchema":{}}],"nextCursor":"c1"}},
 {"result":{"tools":[{"name":"b","inputSchema":{}}]}}
]"#;
    let t = tools(text);
    assert_eq!(
        t.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
        vec!["a", "b"]
    );
    assert_eq!(t[1].origin.line, Some(3));
}

#[test]
fn openai_chat_and_responses() {
    let chat = tools(
        r#"[{"type":"function","function":{"name":"get_weather","description":"Weather.","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}}]"#,
    );
    assert_eq!(chat[0].origin.format, SourceFormat::OpenaiChat);
    assert_eq!(chat[0].parameter_names(), vec!["city"]);
    let resp = tools(
        r#"[{"type":"function","name":"get_weather","description":"Weather.","parameters":{"type":"object"},"strict":true}]"#,
    );
    assert_eq!(resp[0].origin.format, SourceFormat::OpenaiResponses);
    assert_eq!(resp[0].description.as_deref(), Some("Weather."));
}

#[test]
fn anthropic_tools() {
    let t = tools(
        r#"[{"name":"get_stock_price","description":"Price.","input_schema":{"type":"object","properties":{"ticker":{"type":"string"}}}}]"#,
    );
    assert_eq!(t[0].origin.format, SourceFormat::Anthropic);
    assert_eq!(t[0].parameter_names(), vec!["ticker"]);
}

#[test]
fn function_json_with_parameters_or_input() {
    let a =
        tools(r#"{"name":"escalate","description":"Escalate.","parameters":{"type":"object"}}"#);
    assert_eq!(a[0].origin.format, SourceFormat::FunctionJson);
    let b = tools(
        r#"{"name":"escalate","description":"Escalate.","input":{"type":"object","properties":{"x":{}}}}"#,
    );
    assert_eq!(b[0].parameter_names(), vec!["x"]);
}

#[test]
fn suite_tools_inline_and_ref() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("fns")).expect("mkdir");
    std::fs::write(
        dir.path().join("fns/esc.json"),
        "\n{\"name\":\"escalate\",\"description\":\"E.\",\"parameters\":{\"type\":\"object\"}}",
    )
    .expect("write");
    let suite = r#"{"name":"s","tools":[{"ref":"fns/esc.json"},{"name":"inline","description":"I.","parameters":{"type":"object"}},{"ref":"missing.json"}],"cases":[],"skills":[{"name":"sk","description":"d"}]}"#;
    std::fs::write(dir.path().join("mf.suite.json"), suite).expect("write");
    let loaded =
        load_path(&dir.path().join("mf.suite.json"), "mf.suite.json").expect("suite loads");
    let names: Vec<&str> = loaded
        .surface
        .tools
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(names, vec!["escalate", "inline"]);
    assert_eq!(
        loaded.surface.tools[0].origin.file.as_deref(),
        Some("fns/esc.json")
    );
    assert_eq!(loaded.surface.tools[0].origin.line, Some(2));
    assert_eq!(loaded.surface.skills[0].name, "sk");
    assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
    assert!(
        loaded.warnings[0].contains("missing.json"),
        "{:?}",
        loaded.warnings
    );
}

#[test]
fn origins_point_at_each_tool() {
    let text = "{\n  \"tools\": [\n    {\"name\": \"a\", \"inputSchema\": {}},\n\n    {\"name\": \"b\", \"inputSchema\": {}}\n  ]\n}";
    let t = tools(text);
    assert_eq!((t[0].origin.line, t[0].origin.column), (Some(3), Some(5)));
    assert_eq!((t[1].origin.line, t[1].origin.column), (Some(5), Some(5)));
    assert_eq!(t[1].origin.file.as_deref(), Some("t.json"));
}

#[test]
fn wrong_types_name_file_line_column_and_expectation() {
    let text = "{\"tools\": [\n  {\"name\": \"ok\", \"inputSchema\": {}},\n  {\"name\": 42, \"inputSchema\": {}}\n]}";
    let err = load(text).expect_err("bad name");
    let msg = err.to_string();
    assert!(msg.starts_with("t.json:3:4:"), "{msg}");
    assert!(
        msg.contains("`/tools/1/name`")
            && msg.contains("the number 42")
            && msg.contains("non-empty string"),
        "{msg}"
    );

    let err = load(r#"{"tools":[{"name":"x","inputSchema":"object"}]}"#).expect_err("bad schema");
    assert!(
        err.to_string()
            .contains("`inputSchema` to be a JSON object"),
        "{err}"
    );

    let err = load(r#"[{"type":"function","function":"nope"}]"#).expect_err("bad function");
    assert!(err.to_string().contains("/0/function"), "{err}");
}

#[test]
fn truncated_json_is_a_syntax_error_with_position() {
    let err = load("{\"tools\": [\n  {\"name\": \"a\",").expect_err("truncated");
    assert!(
        matches!(err, LoadError::Syntax { line: 2.., .. }),
        "{err:?}"
    );
}

#[test]
fn unrelated_json_is_not_a_surface() {
    assert!(
        load(r#"{"compilerOptions":{"strict":true}}"#)
            .expect("parses")
            .is_none()
    );
    assert!(load("[1,2,3]").expect("parses").is_none());
    assert!(load("[]").expect("parses").is_none());
}

#[test]
fn load_path_refuses_unknown_shapes_and_large_or_binary_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("x.json");
    std::fs::write(&p, "{\"hello\": 1}").expect("write");
    let err = load_path(&p, "x.json").expect_err("unknown shape");
    assert!(
        err.to_string()
            .contains("expected an MCP tools/list result"),
        "{err}"
    );

    std::fs::write(&p, [b'{', 0xff, 0xfe, b'}']).expect("write");
    assert!(matches!(
        load_path(&p, "x.json"),
        Err(LoadError::NotUtf8 { offset: 1, .. })
    ));

    let big = dir.path().join("big.json");
    let f = std::fs::File::create(&big).expect("create");
    f.set_len(MAX_FILE_BYTES + 1).expect("grow");
    assert!(matches!(
        load_path(&big, "big.json"),
        Err(LoadError::TooLarge { .. })
    ));
}

#[test]
fn ten_thousand_tools_load() {
    let items: Vec<String> = (0..10_000).map(|i| format!(r#"{{"name":"tool_{i}","description":"Tool number {i}.","inputSchema":{{"type":"object","properties":{{"a":{{"type":"string"}}}}}}}}"#)).collect();
    let text = format!("{{\"tools\":[{}]}}", items.join(",\n"));
    let t = tools(&text);
    assert_eq!(t.len(), 10_000);
    assert_eq!(t[9_999].origin.line, Some(10_000));
}
