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

// ---- the project pass: patterns real packages ship --------------------------------------

/// Scan a folder of files (path → text) with the real scan.
fn scan_files(files: &[(&str, &str)]) -> crate::surface::scan::ScanResult {
    let dir = tempfile::tempdir().unwrap();
    for (p, text) in files {
        let path = dir.path().join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    crate::surface::scan::scan(dir.path(), &crate::surface::scan::ScanOptions::default()).unwrap()
}

/// The tool names (sorted) and the `server-unread` findings of a scan of `files`.
fn project(
    files: &[(&str, &str)],
) -> (Vec<String>, Vec<crate::surface::scan::unread::UnreadServer>) {
    let r = scan_files(files);
    let mut names: Vec<String> = r.tools.iter().map(|t| t.name.clone()).collect();
    names.sort();
    (names, r.unread)
}

fn tool_in(files: &[(&str, &str)], name: &str) -> Tool {
    let r = scan_files(files);
    r.tools.into_iter().find(|t| t.name == name).unwrap()
}

const LOW_LEVEL_TS: &str = r#"import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { zodToJsonSchema } from "zod-to-json-schema";
import { z } from "zod";
import { issueTools } from "./tools/issues.js";
import * as files from "./operations/files.js";

const server = new Server({ name: "demo", version: "1.0.0" }, { capabilities: { tools: {} } });
const pingTool = { name: "ping", description: "Check the server answers.", inputSchema: { type: "object", properties: {} } };

server.setRequestHandler(ListToolsRequestSchema, async () => {
  return {
    tools: [
      pingTool,
      {
        name: "create_or_update_file",
        description: "Create or update a single file in a repository",
        inputSchema: zodToJsonSchema(files.CreateOrUpdateFileSchema),
      },
      ...issueTools,
    ],
  };
});
"#;

#[test]
fn low_level_list_handler_reads_inline_const_spread_and_imported_tools() {
    let issues = r#"import { z } from "zod";
export const IssueArgs = z.object({ owner: z.string(), repo: z.string(), title: z.string().optional() });
export const issueTools = [
  { name: "create_issue", description: "Open an issue.", inputSchema: z.toJSONSchema(IssueArgs) },
  { name: "list_issues", description: "List issues.", inputSchema: { type: "object", properties: { state: { type: "string" } } } },
];
"#;
    let files_ts = r#"import { z } from "zod";
export const CreateOrUpdateFileSchema = z.object({
  path: z.string().describe("Path where to create/update the file"),
  content: z.string(),
  sha: z.string().optional(),
});
"#;
    let (names, unread) = project(&[
        ("src/index.ts", LOW_LEVEL_TS),
        ("src/tools/issues.ts", issues),
        ("src/operations/files.ts", files_ts),
    ]);
    assert_eq!(
        names,
        [
            "create_issue",
            "create_or_update_file",
            "list_issues",
            "ping"
        ]
    );
    assert!(unread.is_empty(), "{unread:?}");
    let t = tool_in(
        &[
            ("src/index.ts", LOW_LEVEL_TS),
            ("src/tools/issues.ts", issues),
            ("src/operations/files.ts", files_ts),
        ],
        "create_or_update_file",
    );
    assert_eq!(
        t.input_schema,
        Some(json!({"type": "object", "properties": {
            "path": {"type": "string", "description": "Path where to create/update the file"},
            "content": {"type": "string"},
            "sha": {"type": "string"}
        }, "required": ["path", "content"]}))
    );
    assert_eq!(t.origin.file.as_deref(), Some("src/index.ts"));
}

#[test]
fn compiled_commonjs_follows_require_exports_and_reexports() {
    // What tsc emits for a low-level server whose tools live in feature modules.
    let server = r#""use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const index_js_1 = require("@modelcontextprotocol/sdk/server/index.js");
const types_js_1 = require("@modelcontextprotocol/sdk/types.js");
const users_1 = require("./features/users");
const server = new index_js_1.Server({ name: "x", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(types_js_1.ListToolsRequestSchema, () => {
    const tools = [...users_1.usersTools];
    return { tools };
});
"#;
    let index = r#""use strict";
var __exportStar = (this && this.__exportStar) || function(m, exports) {};
Object.defineProperty(exports, "__esModule", { value: true });
exports.handleUsersRequest = exports.isUsersRequest = void 0;
__exportStar(require("./tool-definitions"), exports);
"#;
    let defs = r#""use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.usersTools = void 0;
const to_json_schema_1 = require("../../shared/to-json-schema");
const schemas_1 = require("./schemas");
exports.usersTools = [
    {
        name: 'get_me',
        description: 'Get details of the authenticated user',
        inputSchema: (0, to_json_schema_1.toJsonSchema)(schemas_1.GetMeSchema),
    },
];
"#;
    let schemas = r#""use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.OtherSchema = exports.GetMeSchema = void 0;
const zod_1 = require("zod");
exports.GetMeSchema = zod_1.z.object({ organizationId: zod_1.z.string().optional() });
"#;
    let files = [
        ("dist/server.js", server),
        ("dist/features/users/index.js", index),
        ("dist/features/users/tool-definitions.js", defs),
        ("dist/features/users/schemas.js", schemas),
    ];
    let (names, unread) = project(&files);
    assert_eq!(names, ["get_me"]);
    assert!(unread.is_empty());
    let t = tool_in(&files, "get_me");
    assert_eq!(
        t.input_schema,
        Some(json!({"type": "object", "properties": {"organizationId": {"type": "string"}}}))
    );
    assert_eq!(
        t.origin.file.as_deref(),
        Some("dist/features/users/tool-definitions.js")
    );
}

#[test]
fn loops_callbacks_and_wrappers_register_each_item() {
    let src = r#"import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "x", version: "1" });
const TOOLS = [
  { name: "list_devices", description: "List devices.", schema: { all: z.boolean().optional() } },
  { name: "reboot_device", description: "Reboot one device.", schema: { id: z.string() } },
];
for (const t of TOOLS) {
  server.registerTool(t.name, { description: t.description, inputSchema: t.schema }, async () => ({ content: [] }));
}
const MORE = [{ id: "get_battery", text: "Battery level." }];
MORE.forEach(({ id, text }) => server.tool(id, text, {}, async () => ({ content: [] })));
const tool = (name, title, description, paramsSchema, cb) => {
  server.registerTool(name, { title, description, inputSchema: paramsSchema }, cb);
};
tool("take_screenshot", "Screenshot", "Take a screenshot.", { format: z.enum(["png", "jpg"]) }, async () => "");
tool("swipe", "Swipe", "Swipe on the screen.", {}, async () => "");
"#;
    let (names, unread) = project(&[("src/server.ts", src)]);
    assert_eq!(
        names,
        [
            "get_battery",
            "list_devices",
            "reboot_device",
            "swipe",
            "take_screenshot"
        ]
    );
    assert!(unread.is_empty(), "{unread:?}");
    let t = tool_in(&[("src/server.ts", src)], "take_screenshot");
    assert_eq!(t.title.as_deref(), Some("Screenshot"));
    assert_eq!(
        t.input_schema.unwrap()["properties"]["format"]["enum"],
        json!(["png", "jpg"])
    );
    let r = tool_in(&[("src/server.ts", src)], "reboot_device");
    assert_eq!(r.input_schema.unwrap()["required"], json!(["id"]));
    // Each looped tool's origin is its own name, not the loop's call.
    assert_eq!(r.origin.line, Some(6));
}

#[test]
fn names_from_enums_constants_templates_and_env_defaults() {
    let src = r#"import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
export enum ToolName { Search = "search_docs", Fetch = "fetch_doc" }
const PREFIX = "kb";
const TOOL_NAMES = { LIST: `${PREFIX}_list` } as const;
const server = new McpServer({ name: "x", version: "1" });
server.tool(ToolName.Search, "Search the docs.", {}, cb);
server.tool(ToolName.Fetch, "Fetch one doc.", {}, cb);
server.tool(TOOL_NAMES.LIST, "List the docs.", {}, cb);
server.tool(process.env.STATUS_TOOL_NAME || "status", "Service status.", {}, cb);
server.tool(PREFIX + "_count", "Count the docs.", {}, cb);
"#;
    let (names, unread) = project(&[("src/index.ts", src)]);
    assert_eq!(
        names,
        ["fetch_doc", "kb_count", "kb_list", "search_docs", "status"]
    );
    assert!(unread.is_empty());
}

#[test]
fn fastmcp_add_tool_class_members_and_pushed_tools() {
    let fast = r#"import { FastMCP } from "fastmcp";
import { z } from "zod";
const server = new FastMCP({ name: "x", version: "1.0.0" });
server.addTool({
  name: "scrape_as_markdown",
  description: "Scrape a page as markdown.",
  parameters: z.object({ url: z.string().url() }),
  execute: async ({ url }) => url,
});
"#;
    let classes = r#"import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
class SearchTool {
  name = "tavily_search";
  description = "Search the web.";
  inputSchema = { type: "object", properties: { query: { type: "string" } }, required: ["query"] };
}
class ExtractTool {
  constructor() { this.name = "tavily_extract"; this.description = "Extract a page."; }
}
const tools = [new SearchTool()];
tools.push(new ExtractTool());
tools.push({ name: "tavily_map", description: "Map a site.", inputSchema: { type: "object" } });
const server = new Server({ name: "t", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
"#;
    let (names, unread) = project(&[("fast/index.js", fast), ("classes/index.js", classes)]);
    assert_eq!(
        names,
        [
            "scrape_as_markdown",
            "tavily_extract",
            "tavily_map",
            "tavily_search"
        ]
    );
    assert!(unread.is_empty(), "{unread:?}");
    let t = tool_in(&[("fast/index.js", fast)], "scrape_as_markdown");
    assert_eq!(
        t.input_schema,
        Some(
            json!({"type": "object", "properties": {"url": {"type": "string", "format": "uri"}}, "required": ["url"]})
        )
    );
}

#[test]
fn custom_registration_methods_of_the_project_are_read() {
    let src = r#"import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
class CustomMcpServer extends McpServer {
  addToolWithReadAccess(...args) { return this.registerToolWithAccess("read", ...args); }
}
const server = new CustomMcpServer();
server.addToolWithReadAccess("stories-get", "Get a story.", { id: z.number() }, async () => 1);
server.addToolWithWriteAccess("stories-create", { description: "Create a story.", inputSchema: { name: z.string() } }, async () => 1);
"#;
    let (names, _) = project(&[("dist/index.js", src)]);
    assert_eq!(names, ["stories-create", "stories-get"]);
}

#[test]
fn a_server_whose_tools_cannot_be_read_is_said_even_beside_a_readable_tools_file() {
    let dynamic = r#"import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { readFileSync } from "node:fs";
const spec = JSON.parse(readFileSync(process.argv[2], "utf8"));
const server = new Server({ name: "openapi", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: Object.entries(spec.paths).map(([path, op]) => ({ name: op.operationId, description: op.summary, inputSchema: {} })),
}));
"#;
    let snapshot = r#"{"tools": [{"name": "other_tool", "description": "From another server.", "inputSchema": {"type": "object"}}]}"#;
    let (names, unread) = project(&[
        ("server/package.json", "{}"),
        ("server/src/index.ts", dynamic),
        ("other.tools.json", snapshot),
    ]);
    assert_eq!(names, ["other_tool"]);
    assert_eq!(unread.len(), 1, "{unread:?}");
    let u = &unread[0];
    assert_eq!(
        (u.code, u.file.as_str(), u.line),
        ("server-unread", "server/src/index.ts", Some(6))
    );
    assert!(u.saw.contains("ListToolsRequestSchema"), "{}", u.saw);
    assert!(u.fix.contains("mf snapshot"));

    // A server created with no registration the scan can see at all is said too.
    let framework = r#"import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { loadToolsFrom } from "./loader.js";
const server = new McpServer({ name: "x", version: "1" });
loadToolsFrom(server, "./tools");
"#;
    let (names, unread) = project(&[("package.json", "{}"), ("src/index.ts", framework)]);
    assert!(names.is_empty());
    assert_eq!(unread.len(), 1);
    assert_eq!(unread[0].line, Some(3));
}

#[test]
fn objects_with_a_name_are_not_tools_unless_registered_or_listed() {
    let src = r#"import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
const server = new McpServer({ name: "server_name_not_a_tool", version: "1" });
const user = { name: "alice", description: "a user", inputSchema: {} };
const config = [{ name: "retries", description: "how often" }];
server.tool("real_tool", "The only tool.", {}, cb);
"#;
    let (names, unread) = project(&[("src/index.ts", src)]);
    assert_eq!(names, ["real_tool"]);
    assert!(unread.is_empty());
}

#[test]
fn compiled_twins_of_typescript_sources_are_counted_once() {
    let ts = "import { McpServer } from \"@modelcontextprotocol/sdk/server/mcp.js\";\nconst server = new McpServer({name: \"x\", version: \"1\"});\nserver.tool(\"ping\", \"Ping.\", {}, cb);\n";
    let js = "const server = new McpServer({name: \"x\", version: \"1\"});\nserver.tool(\"ping\", \"Ping.\", {}, cb);\n";
    let (names, _) = project(&[("src/index.ts", ts), ("dist/index.js", js)]);
    assert_eq!(names, ["ping"]);
}

#[test]
fn class_state_own_exports_and_the_default_configuration() {
    // esbuild output: a server class that lists what its constructor was given.
    let bundle = r#"import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
var StudioServer = class {
  constructor(config) {
    this.config = config;
    this.server = new Server({ name: config.name, version: "1" }, { capabilities: { tools: {} } });
  }
  setup() {
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: this.config.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
    }));
  }
};
const LEGACY = process.env.ENABLE_LEGACY === "true";
const getAllTools = () => LEGACY ? [{ name: "legacy_tool", description: "Old." }] : [
  { name: "get_file_tree", description: "The project's files.", inputSchema: { type: "object" } },
];
const server = new StudioServer({ name: "studio", tools: getAllTools() });
"#;
    // tsc output: a project server class whose registerTool takes a definition.
    let tools = r#""use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.listAlertRules = void 0;
exports.listAlertRules = { name: "list_alert_rules", description: "List alert rules.", inputSchema: {} };
function registerAlertingTools(server) {
    server.registerTool(exports.listAlertRules);
}
"#;
    let (names, unread) = project(&[("dist/index.js", bundle), ("dist/tools/alerting.js", tools)]);
    assert_eq!(names, ["get_file_tree", "list_alert_rules"]);
    assert!(unread.is_empty(), "{unread:?}");
}

#[test]
fn tool_factories_over_module_namespaces_are_followed() {
    // chrome-devtools' shape: every export of each tools module is a factory; the server
    // calls each with its arguments and registers what comes back.
    let def = r#"export function definePageTool(definition) {
  return (args) => {
    const tool = definition(args);
    return { ...tool, schema: { ...tool.schema } };
  };
}
"#;
    let console = r#"import { definePageTool } from "./ToolDefinition.js";
const LIST_NAME = "list_console_messages";
export const listConsoleMessages = definePageTool((cliArgs) => ({
  name: LIST_NAME,
  description: "List all console messages.",
  schema: { pageSize: zod.number().int().optional() },
}));
"#;
    let all = r#"import * as consoleTools from "./console.js";
export const createTools = (args) => {
  const rawTools = [...Object.values(consoleTools)];
  const tools = [];
  for (const tool of rawTools) {
    tools.push(tool(args));
  }
  return tools;
};
"#;
    let index = r#"import { McpServer as SdkServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { createTools } from "./tools/tools.js";
export class McpServer {
  async init(args) {
    for (const tool of createTools(args)) {
      this.#registerTool(tool);
    }
  }
  #registerTool(tool) {
    this.server.registerTool(tool.name, { description: tool.description, inputSchema: tool.schema }, async () => ({}));
  }
}
"#;
    let files = [
        ("build/src/index.js", index),
        ("build/src/tools/tools.js", all),
        ("build/src/tools/console.js", console),
        ("build/src/tools/ToolDefinition.js", def),
    ];
    let (names, unread) = project(&files);
    assert_eq!(names, ["list_console_messages"]);
    assert!(unread.is_empty(), "{unread:?}");
    let t = tool_in(&files, "list_console_messages");
    assert_eq!(t.origin.file.as_deref(), Some("build/src/tools/console.js"));
    assert_eq!(
        t.input_schema.unwrap()["properties"]["pageSize"],
        json!({"type": "integer"})
    );
}

#[test]
fn cycles_and_recursion_end_without_a_name() {
    // Constants, functions, imports, classes and loops that refer to themselves: each place
    // ends unread (bounded by depth and budget), nothing hangs or overflows.
    let a = r#"import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { B } from "./b.js";
export const A = B;
const x = y; const y = x;
function f(n) { return f(n); }
const g = (t) => g(t)(t);
class C { constructor(c) { this.c = this.c; } }
const server = new McpServer({ name: "x", version: "1" });
server.tool(A, "a", {}, cb);
server.tool(x, "x", {}, cb);
server.tool(f(1), "f", {}, cb);
server.tool(g(1), "g", {}, cb);
server.tool(new C(1).c, "c", {}, cb);
const list = [];
for (const t of list) list.push(t);
for (const t of list) server.registerTool(t.name, {}, cb);
const wrap = (n) => wrap(n);
function reg(name) { server.tool(name, "w", {}, cb); reg(name); }
reg(reg);
"#;
    let b = "import { A } from \"./a.js\";\nexport const B = A;\n";
    let (names, unread) = project(&[("src/a.ts", a), ("src/b.ts", b)]);
    assert!(names.is_empty(), "{names:?}");
    assert_eq!(unread.len(), 1);
    assert!(unread[0].unresolved >= 6, "{:?}", unread[0]);
}

#[test]
fn register_app_tool_takes_the_name_second() {
    let src = r#"import { registerAppTool } from "@modelcontextprotocol/ext-apps/server";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
const server = new McpServer({ name: "x", version: "1" });
registerAppTool(server, "show_chart", { description: "Show a chart.", inputSchema: { type: "object", properties: {} } }, async () => ({}));
"#;
    let (names, unread) = project(&[("src/index.ts", src)]);
    assert_eq!(names, ["show_chart"]);
    assert!(unread.is_empty(), "{unread:?}");
}
