#![allow(clippy::unwrap_used)]
use super::*;
use crate::surface::{Confidence, Origin, SourceFormat, Tool};
use serde_json::json;

fn ts(src: &str) -> CodeFindings {
    extract("src/server.ts", src, Dialect::TypeScript)
}

fn one(src: &str) -> Tool {
    let f = ts(src);
    assert_eq!(f.tools.len(), 1, "{:?}", f);
    f.tools.into_iter().next().unwrap()
}

#[test]
fn dialect_from_extension() {
    assert_eq!(Dialect::from_extension("ts"), Some(Dialect::TypeScript));
    assert_eq!(Dialect::from_extension("mts"), Some(Dialect::TypeScript));
    assert_eq!(Dialect::from_extension("cts"), Some(Dialect::TypeScript));
    assert_eq!(Dialect::from_extension("tsx"), Some(Dialect::Tsx));
    for e in ["js", "mjs", "cjs", "jsx", "JS"] {
        assert_eq!(Dialect::from_extension(e), Some(Dialect::JavaScript));
    }
    assert_eq!(Dialect::from_extension("py"), None);
    assert_eq!(Dialect::from_extension(""), None);
}

#[test]
fn register_tool_readme_example() {
    let src = r#"import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

const server = new McpServer({ name: "demo-server", version: "1.0.0" });

server.registerTool(
  "add",
  {
    title: "Addition Tool",
    description: "Add two numbers",
    inputSchema: { a: z.number(), b: z.number().describe("Second") },
    outputSchema: { result: z.number() },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async ({ a, b }) => {
    const output = { result: a + b };
    return { content: [{ type: "text", text: JSON.stringify(output) }], structuredContent: output };
  }
);
"#;
    let t = one(src);
    assert_eq!(t.name, "add");
    assert_eq!(t.title.as_deref(), Some("Addition Tool"));
    assert_eq!(t.description.as_deref(), Some("Add two numbers"));
    assert_eq!(
        t.input_schema,
        Some(json!({"type": "object", "properties": {
                "a": {"type": "number"},
                "b": {"type": "number", "description": "Second"}
            }, "required": ["a", "b"]}))
    );
    assert_eq!(
        t.output_schema,
        Some(
            json!({"type": "object", "properties": {"result": {"type": "number"}}, "required": ["result"]})
        )
    );
    assert_eq!(
        t.annotations,
        Some(json!({"readOnlyHint": true, "openWorldHint": false}))
    );
    assert_eq!(t.confidence, Confidence::Medium);
    assert_eq!(
        t.origin,
        Origin::at(SourceFormat::TypescriptCode, "src/server.ts", 7, 3)
    );
}

#[test]
fn tool_with_description_and_shape() {
    let src = r#"
server.tool(
  "fetch-weather",
  "Fetch the weather forecast for a city",
  {
    city: z.string().min(1).max(80).describe("City name"),
    days: z.number().int().min(1).max(7).default(3).describe("Days ahead"),
    units: z.enum(["metric", "imperial"]).optional(),
  },
  async ({ city, days }) => ({ content: [{ type: "text", text: `${city} ${days}` }] })
);"#;
    let t = one(src);
    assert_eq!(t.name, "fetch-weather");
    assert_eq!(
        t.description.as_deref(),
        Some("Fetch the weather forecast for a city")
    );
    assert_eq!(
        t.input_schema.unwrap(),
        json!({"type": "object", "properties": {
                "city": {"type": "string", "minLength": 1, "maxLength": 80, "description": "City name"},
                "days": {"type": "integer", "minimum": 1, "maximum": 7, "default": 3, "description": "Days ahead"},
                "units": {"type": "string", "enum": ["metric", "imperial"]}
            }, "required": ["city"]})
    );
    assert_eq!(t.confidence, Confidence::Medium);
    assert_eq!((t.origin.line, t.origin.column), (Some(3), Some(3)));
}

#[test]
fn tool_short_forms() {
    let src = r#"
server.tool("ping", async () => ({ content: [] }));
server.tool("now", "Current server time", async () => ({ content: [] }));
server.tool("echo", { message: z.string() }, async ({ message }) => ({ content: [] }));
server.tool("rm", "Delete a file", { path: z.string() }, { destructiveHint: true, title: "Delete" }, cb);
server.tool("ls", { dir: z.string() }, { readOnlyHint: true }, cb);
server.tool("noop", "Does nothing", {}, cb);
"#;
    let f = ts(src);
    assert!(f.warnings.is_empty(), "{:?}", f.warnings);
    let names: Vec<_> = f.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["ping", "now", "echo", "rm", "ls", "noop"]);
    let empty = json!({"type": "object", "properties": {}});
    let one_str =
        |k: &str| json!({"type": "object", "properties": {k: {"type": "string"}}, "required": [k]});
    let t = &f.tools;
    assert_eq!(
        (t[0].description.as_deref(), t[0].input_schema.as_ref()),
        (None, Some(&empty))
    );
    assert_eq!(t[1].description.as_deref(), Some("Current server time"));
    assert_eq!(t[1].input_schema.as_ref(), Some(&empty));
    assert_eq!(
        (t[2].description.as_deref(), t[2].input_schema.clone()),
        (None, Some(one_str("message")))
    );
    assert_eq!(t[3].description.as_deref(), Some("Delete a file"));
    assert_eq!(t[3].input_schema, Some(one_str("path")));
    assert_eq!(
        t[3].annotations,
        Some(json!({"destructiveHint": true, "title": "Delete"}))
    );
    assert_eq!(t[4].input_schema, Some(one_str("dir")));
    assert_eq!(t[4].annotations, Some(json!({"readOnlyHint": true})));
    assert_eq!(t[5].input_schema.as_ref(), Some(&empty));
    assert!(t.iter().all(|t| t.confidence == Confidence::Medium));
    assert_eq!(
        t.iter().map(|t| t.origin.line.unwrap()).collect::<Vec<_>>(),
        [2, 3, 4, 5, 6, 7]
    );
}

#[test]
fn zod_mapping() {
    let src = r#"
this.server.registerTool("all", {
  description: `All the types`,
  inputSchema: z.object({
    s: z.string().email(),
    n: z.number().gt(0).lte(1.5),
    i: z.int().nonnegative(),
    b: z.boolean().default(false),
    arr: z.array(z.string()).min(1).max(3),
    arr2: z.string().array().nonempty(),
    lit: z.literal("fixed"),
    nested: z.object({ x: z.number(), y: z.number().optional() }).describe("A point"),
    rec: z.record(z.string(), z.number()),
    un: z.union([z.string(), z.number()]).describe("Either"),
    any: z.any(),
    nul: z.string().nullable(),
    maybe: z.string().nullish(),
    c: z.coerce.number(),
    re: z.string().regex(/^[a-z]+$/),
    opt: z.optional(z.boolean()),
    neg: z.number().default(-2),
  }).strict(),
}, cb);"#;
    let t = one(src);
    assert_eq!(t.description.as_deref(), Some("All the types"));
    assert_eq!(
        t.input_schema.unwrap(),
        json!({"type": "object", "properties": {
                "s": {"type": "string", "format": "email"},
                "n": {"type": "number", "exclusiveMinimum": 0, "maximum": 1.5},
                "i": {"type": "integer", "minimum": 0},
                "b": {"type": "boolean", "default": false},
                "arr": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3},
                "arr2": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                "lit": {"type": "string", "const": "fixed"},
                "nested": {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
                           "required": ["x"], "description": "A point"},
                "rec": {"type": "object", "additionalProperties": {"type": "number"}},
                "un": {"description": "Either"},
                "any": {},
                "nul": {"type": ["string", "null"]},
                "maybe": {"type": ["string", "null"]},
                "c": {"type": "number"},
                "re": {"type": "string", "pattern": "^[a-z]+$"},
                "opt": {"type": "boolean"},
                "neg": {"type": "number", "default": -2},
            }, "required": ["s", "n", "i", "arr", "arr2", "lit", "nested", "rec", "un", "any", "nul", "c", "re"]})
    );
    assert_eq!(t.confidence, Confidence::Medium);
}

#[test]
fn json_schema_literal_input() {
    let src = r#"
server.registerTool("search", {
  description: "Search " + 'the web',
  inputSchema: {
    type: "object",
    properties: { q: { type: "string", description: "Query" }, limit: { type: "integer", maximum: 50 } },
    required: ["q"],
  },
}, cb);"#;
    let t = one(src);
    assert_eq!(t.description.as_deref(), Some("Search the web"));
    assert_eq!(
        t.input_schema.unwrap(),
        json!({"type": "object", "properties": {
                "q": {"type": "string", "description": "Query"},
                "limit": {"type": "integer", "maximum": 50}
            }, "required": ["q"]})
    );
    assert_eq!(t.confidence, Confidence::Medium);
}

#[test]
fn resolves_same_file_constants() {
    let src = r#"
const TOOL_NAME = "get_user";
const DESCRIPTION = `Look up a user by id`;
export const GetUserSchema = z.object({ id: z.string().uuid() });
const shape = { q: z.string() };
server.registerTool(TOOL_NAME, { description: DESCRIPTION, inputSchema: GetUserSchema }, cb);
server.tool("find", DESCRIPTION, shape, cb);
server.registerTool("by_shape", { inputSchema: GetUserSchema.shape }, cb);
server.tool("spread", { ...GetUserSchema.shape, n: z.number().optional() }, cb);
server.tool("ext", GetUserSchema.extend(shape).partial(), cb);
"#;
    let f = ts(src);
    assert!(f.warnings.is_empty(), "{:?}", f.warnings);
    let t = &f.tools[0];
    assert_eq!(
        (t.name.as_str(), t.description.as_deref()),
        ("get_user", Some("Look up a user by id"))
    );
    assert_eq!(
        t.input_schema,
        Some(
            json!({"type": "object", "properties": {"id": {"type": "string", "format": "uuid"}}, "required": ["id"]})
        )
    );
    assert_eq!(t.confidence, Confidence::Medium);
    assert_eq!(
        f.tools[1].input_schema.as_ref().unwrap()["required"],
        json!(["q"])
    );
    assert_eq!(f.tools[2].input_schema, t.input_schema);
    let uuid = json!({"type": "string", "format": "uuid"});
    assert_eq!(
        f.tools[3].input_schema,
        Some(
            json!({"type": "object", "properties": {"id": uuid, "n": {"type": "number"}}, "required": ["id"]})
        )
    );
    assert_eq!(
        f.tools[4].input_schema,
        Some(json!({"type": "object", "properties": {"id": uuid, "q": {"type": "string"}}}))
    );
    assert!(f.tools.iter().all(|t| t.confidence == Confidence::Medium));
}

#[test]
fn unresolved_parts_are_low_with_warnings() {
    let src = r#"
import { InputSchema, DESC } from "./schemas";
server.registerTool("imported", { description: "x", inputSchema: InputSchema }, cb);
server.tool("desc", DESC, { a: z.string() }, cb);
server.tool(names.dynamic, "x", cb);
server.tool(`tool_${n}`, "x", cb);
"#;
    let f = ts(src);
    assert_eq!(f.tools.len(), 2);
    assert_eq!(f.tools[0].input_schema, None);
    assert_eq!(f.tools[0].confidence, Confidence::Low);
    assert_eq!(f.tools[1].description, None);
    assert_eq!(
        f.tools[1].input_schema.as_ref().unwrap()["required"],
        json!(["a"])
    );
    assert_eq!(f.tools[1].confidence, Confidence::Low);
    assert_eq!(
        f.warnings,
        [
            "src/server.ts:3: tool \"imported\": input schema `InputSchema` is not resolvable statically; parameters unknown",
            "src/server.ts:4: tool \"desc\": description is not a string literal",
        ]
    );
    let m = Module::parse("src/server.ts", None, src, Dialect::TypeScript).unwrap();
    let loader = Loader::new(None, vec![m], Vec::new(), 0);
    let found = extract_project(&loader);
    let lines: Vec<u32> = found[0].server.unresolved.iter().map(|u| u.0).collect();
    assert_eq!(lines, [5, 6]);
    assert_eq!(found[0].server.sites, 4);
}

#[test]
fn javascript_and_tsx_dialects() {
    let js =
        "const { z } = require('zod');\nmcp.tool('greet', 'Say hi', { who: z.string() }, cb);\n";
    let f = extract("index.js", js, Dialect::JavaScript);
    assert_eq!(f.tools.len(), 1);
    assert_eq!(
        f.tools[0].origin,
        Origin::at(SourceFormat::TypescriptCode, "index.js", 2, 10)
    );
    let tsx = "const App = () => <div>{x}</div>;\nserver.tool(\"t\", \"d\", { a: z.string() as any }, cb);\n";
    let f = extract("app.tsx", tsx, Dialect::Tsx);
    assert_eq!(f.tools.len(), 1);
    assert_eq!(
        f.tools[0].input_schema.as_ref().unwrap()["required"],
        json!(["a"])
    );
}

#[test]
fn angle_bracket_casts_in_ts_files_hide_no_tool() {
    // Under the TSX grammar `<number>` opens a JSX element that never closes: without the
    // blanking in ts_casts.rs every tool after the first cast was lost.
    let src = "const limit = <number>input.limit;\n\
                   const ids = <Array<string>>raw;\n\
                   const id = <T>(x: T) => x;\n\
                   server.tool(\"search\", <string>desc, <any>{ q: z.string() }, cb);\n\
                   function f() { return <any>x; }\n\
                   server.registerTool(\"fetch\", { description: \"Fetch one\", inputSchema: { id: z.number() } }, cb);\n";
    let f = ts(src);
    let names: Vec<&str> = f.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["search", "fetch"], "{f:?}");
    // A cast of the shape is read through: the schema is the shape's.
    assert_eq!(
        f.tools[0].input_schema.as_ref().unwrap()["required"],
        json!(["q"])
    );
    // `<string>desc` is the identifier `desc`, not a literal: reported as before.
    assert!(
        f.warnings[0].contains("description is not a string literal"),
        "{f:?}"
    );
    // Positions are the source's (blanking keeps every byte where it was): the name's.
    assert_eq!(
        f.tools[1].origin,
        Origin::at(SourceFormat::TypescriptCode, "src/server.ts", 6, 21)
    );
    assert_eq!(
        f.tools[1].input_schema.as_ref().unwrap()["properties"]["id"]["type"],
        "number"
    );
    // In a .tsx file the same text is JSX, as TypeScript reads it there: nothing is blanked.
    let tsx = extract(
        "a.tsx",
        "const a = <b>x</b>;\nserver.tool(\"t\", \"d\", cb);\n",
        Dialect::Tsx,
    );
    assert_eq!(tsx.tools.len(), 1);
}

#[test]
fn escapes_and_non_ascii() {
    let src = "const s = \"é\"; server.tool(\"café_☕\", \"Line\\none \\u00e9\\u{1F600}\\uD83D\\uDE00 \\x41\", cb);";
    let t = one(src);
    assert_eq!(t.name, "café_☕");
    assert_eq!(t.description.as_deref(), Some("Line\none é😀😀 A"));
    // Columns count characters, not bytes.
    assert_eq!(t.origin.column, Some(28)); // 29 in bytes
}

#[test]
fn not_tools() {
    assert!(ts("").tools.is_empty());
    assert!(ts("const x = 1;").tools.is_empty());
    let f = ts("obj.tool(); obj.tool({a: 1}, 2); toolbox.tools('x', 1); foo.tool('x');");
    assert!(f.tools.is_empty() && f.warnings.is_empty(), "{f:?}");
}

#[test]
fn syntax_errors_do_not_panic() {
    let f = ts(
        "server.tool(\"broken\", \"desc\", { a: z.string( , cb\nserver.tool(\"ok\", \"fine\", cb);",
    );
    assert!(f.tools.iter().any(|t| t.name == "ok"));
    for junk in [
        "server.tool(",
        "server.tool(\"",
        "x.registerTool(\"a\", {inputSchema: z.",
        "\"\\",
        "`${",
    ] {
        let _ = ts(junk);
        let _ = extract("a.js", junk, Dialect::JavaScript);
    }
    let deep = format!(
        "server.tool(\"d\", {{ a: {}z.string(){} }}, cb);",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    let _ = ts(&deep);
    let chain = format!(
        "server.tool(\"c\", {{ a: z.string(){} }}, cb);",
        ".optional()".repeat(5000)
    );
    assert_eq!(one(&chain).confidence, Confidence::Low);
}

#[test]
fn exponential_constants_hit_the_budget() {
    let mut src = String::from("const a0 = \"ab\";\n");
    for i in 1..=60 {
        src.push_str(&format!("const a{i} = a{p} + a{p};\n", p = i - 1));
    }
    src.push_str("server.tool(\"t\", a60, { a: z.string().describe(a3) }, cb);\n");
    let t = one(&src);
    assert_eq!(
        (t.description.as_deref(), t.confidence),
        (None, Confidence::Low)
    );
}

#[test]
fn large_file() {
    let mut src = String::from("import { z } from 'zod';\n");
    while src.len() < 1_000_000 {
        src.push_str("export function helper(a: number): number { return a * 2 + 1; } // filler\n");
    }
    src.push_str("server.tool(\"last\", \"At the end\", { a: z.string() }, cb);\n");
    let t = one(&src);
    assert_eq!(t.name, "last");
    assert_eq!(
        t.origin.line,
        Some(u32::try_from(src.lines().count()).unwrap())
    );
}
