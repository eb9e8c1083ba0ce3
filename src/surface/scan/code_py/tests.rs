#![allow(clippy::unwrap_used)]
use super::*;
use serde_json::json;

fn py(src: &str) -> CodeFindings {
    extract("server.py", src)
}

fn one(src: &str) -> Tool {
    let f = py(src);
    assert_eq!(f.tools.len(), 1, "{f:?}");
    f.tools.into_iter().next().unwrap()
}

#[test]
fn fastmcp_quickstart() {
    let src = r#"from mcp.server.fastmcp import FastMCP

# Create an MCP server
mcp = FastMCP("Demo")


@mcp.tool()
def add(a: int, b: int) -> int:
    """Add two numbers"""
    return a + b
"#;
    let t = one(src);
    assert_eq!(t.name, "add");
    assert_eq!(t.description.as_deref(), Some("Add two numbers"));
    assert_eq!(
        t.input_schema,
        Some(
            json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
                        "required": ["a", "b"]})
        )
    );
    assert_eq!(
        t.origin,
        Origin::at(SourceFormat::PythonCode, "server.py", 8, 5)
    );
    assert_eq!(t.confidence, Confidence::Medium);
}

#[test]
fn google_docstring_args_and_async() {
    let src = r#"
@mcp.tool()
async def get_forecast(latitude: float, longitude: float, days: int = 3) -> str:
    """Get weather forecast for a location.

    Uses the NWS API.

    Args:
        latitude: Latitude of the location
        longitude (float): Longitude of the
            location, in degrees
        days: How many days

    Returns:
        The forecast text.
    """
    points_url = f"{NWS_API_BASE}/points/{latitude},{longitude}"
"#;
    let t = one(src);
    assert_eq!(t.name, "get_forecast");
    assert_eq!(
        t.description.as_deref(),
        Some(
            "Get weather forecast for a location.\n\n    Uses the NWS API.\n\n    Args:\n        latitude: Latitude of the location\n        longitude (float): Longitude of the\n            location, in degrees\n        days: How many days\n\n    Returns:\n        The forecast text.\n    "
        )
    );
    assert_eq!(
        t.input_schema.unwrap(),
        json!({"type": "object", "properties": {
                "latitude": {"type": "number"},
                "longitude": {"type": "number"},
                "days": {"type": "integer", "default": 3},
            }, "required": ["latitude", "longitude"]})
    );
    assert_eq!((t.origin.line, t.origin.column), (Some(3), Some(11)));
}

#[test]
fn numpy_docstring() {
    let src = "@server.tool\ndef f(x: str, y: bool = False):\n    \"\"\"Do f.\n\n    Parameters\n    ----------\n    x : str\n        The x.\n    y : bool\n        The y.\n\n    Returns\n    -------\n    str\n    \"\"\"\n";
    let t = one(src);
    // FastMCP sends the docstring whole and no per-parameter descriptions.
    assert_eq!(
        t.description.as_deref(),
        Some(
            "Do f.\n\n    Parameters\n    ----------\n    x : str\n        The x.\n    y : bool\n        The y.\n\n    Returns\n    -------\n    str\n    "
        )
    );
    assert_eq!(
        t.input_schema.unwrap(),
        json!({"type": "object", "properties": {
                "x": {"type": "string"},
                "y": {"type": "boolean", "default": false},
            }, "required": ["x"]})
    );
}

#[test]
fn decorator_forms() {
    let src = r#"
TOOL = "from_const"

@mcp.tool
def bare() -> str:
    """
        Indented first line.
          More indented.
    """

@app.tool(name="renamed", description="Explicit description", title="Nice title",
          annotations={"readOnlyHint": True, "idempotentHint": False})
def original(self, ctx: Context, q: str) -> str:
    """Ignored docstring."""

@mcp.tool("positional")
def g(cls, c: Context[ServerSession, None], *args, **kwargs):
    pass

@server.tool(name=TOOL, annotations=ToolAnnotations(destructiveHint=True))
def h(x):
    pass

@mcp.tool(name=get_name())
def dynamic():
    pass

@pytest.fixture
def not_a_tool():
    pass

@mcp.resource("config://app")
def also_not(): ...
"#;
    let f = py(src);
    assert_eq!(
        f.warnings,
        ["server.py:24: tool name is not a string literal; skipped"]
    );
    let names: Vec<_> = f.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["bare", "renamed", "positional", "from_const"]);
    let t = &f.tools;
    assert_eq!(
        t[0].description.as_deref(),
        Some("\n        Indented first line.\n          More indented.\n    ")
    );
    assert_eq!(
        t[0].input_schema,
        Some(json!({"type": "object", "properties": {}}))
    );
    assert_eq!(t[1].description.as_deref(), Some("Explicit description"));
    assert_eq!(t[1].title.as_deref(), Some("Nice title"));
    assert_eq!(
        t[1].annotations,
        Some(json!({"readOnlyHint": true, "idempotentHint": false}))
    );
    assert_eq!(
        t[1].input_schema,
        Some(json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}))
    );
    assert_eq!(t[2].description, None);
    assert_eq!(
        t[2].input_schema,
        Some(json!({"type": "object", "properties": {}}))
    );
    assert_eq!(t[3].annotations, Some(json!({"destructiveHint": true})));
    assert_eq!(
        t[3].input_schema,
        Some(json!({"type": "object", "properties": {"x": {}}, "required": ["x"]}))
    );
    assert!(t.iter().all(|t| t.confidence == Confidence::Medium));
}

#[test]
fn type_mapping() {
    let src = r#"
@mcp.tool()
def search(
    query: Annotated[str, Field(description="Search terms", min_length=1)],
    tags: list[str],
    ids: List[int] = [],
    scores: Sequence[float] = (),
    meta: dict[str, int] | None = None,
    raw: Dict = {},
    maybe: Optional[str] = None,
    either: Union[int, str],
    pipe: int | None,
    mode: Literal["fast", 'slow'] = "fast",
    level: Literal[1, 2, 3] = 1,
    limit: int = Field(default=10, ge=1, le=100, description="Max results"),
    items: list[str] = Field(description="Items", max_length=5),
    anything=None,
    untyped=-1.5,
    flag: typing.Optional[bool] = True,
    stamp: datetime = None,
    pair: tuple[int, str] = (1, "a"),
    custom: MyModel = None,
) -> list[dict]:
    """Search things."""
"#;
    let t = one(src);
    assert_eq!(
        t.input_schema.unwrap(),
        json!({"type": "object", "properties": {
                "query": {"type": "string", "description": "Search terms", "minLength": 1},
                "tags": {"type": "array", "items": {"type": "string"}},
                "ids": {"type": "array", "items": {"type": "integer"}, "default": []},
                "scores": {"type": "array", "items": {"type": "number"}, "default": []},
                "meta": {"anyOf": [{"type": "object", "additionalProperties": {"type": "integer"}}, {"type": "null"}], "default": null},
                "raw": {"type": "object", "default": {}},
                "maybe": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null},
                "either": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
                "pipe": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
                "mode": {"type": "string", "enum": ["fast", "slow"], "default": "fast"},
                "level": {"type": "integer", "enum": [1, 2, 3], "default": 1},
                "limit": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Max results", "default": 10},
                "items": {"type": "array", "items": {"type": "string"}, "description": "Items", "maxItems": 5},
                "anything": {"default": null},
                "untyped": {"default": -1.5},
                "flag": {"anyOf": [{"type": "boolean"}, {"type": "null"}], "default": true},
                "stamp": {"type": "string", "format": "date-time", "default": null},
                "pair": {"type": "array", "default": [1, "a"]},
                "custom": {"default": null},
            }, "required": ["query", "tags", "either", "pipe", "items"]})
    );
    // `MyModel` is not resolvable statically.
    assert_eq!(t.confidence, Confidence::Low);
}

#[test]
fn strings_and_non_ascii() {
    let src = "DESC = 'Grüße ' 'aus Köln'\n\n@mcp.tool(description=DESC + \"\\u2014 \\x41\\n\")\ndef grüßen(name: str = r\"\\d\") -> str:\n    return f\"Hallo {name}\"\n";
    let t = one(src);
    assert_eq!(t.name, "grüßen");
    assert_eq!(t.description.as_deref(), Some("Grüße aus Köln— A\n"));
    assert_eq!(
        t.input_schema.unwrap()["properties"]["name"],
        json!({"type": "string", "default": "\\d"})
    );
    assert_eq!((t.origin.line, t.origin.column), (Some(4), Some(5)));
    assert_eq!(unescape_py(r"a\tb\\c\101\0\q\"), "a\tb\\cA\0\\q\\");
}

#[test]
fn nested_and_methods() {
    let src = r#"
def register(mcp: FastMCP) -> None:
    @mcp.tool()
    async def inner(path: str, ctx: "Context") -> str:
        '''Read a file.'''

class Tools:
    @self.mcp.tool(description=f"x{y}")
    def method(self, n: int):
        pass
"#;
    let f = py(src);
    assert_eq!(f.tools.len(), 2);
    assert_eq!(f.tools[0].name, "inner");
    assert_eq!(f.tools[0].origin.line, Some(4));
    assert_eq!(
        f.tools[0].input_schema.as_ref().unwrap()["required"],
        json!(["path"])
    );
    assert_eq!(
        (f.tools[1].description.as_deref(), f.tools[1].confidence),
        (None, Confidence::Low)
    );
}

#[test]
fn robustness() {
    assert!(py("").tools.is_empty());
    assert!(py("import os\nprint('hello')\n").tools.is_empty());
    // An error in a body leaves the signature readable.
    let f = py(
        "@mcp.tool()\ndef ok(x: str):\n    \"\"\"Ok.\"\"\"\n    return x +* 2\n\n@mcp.tool()\ndef ok2(y: int):\n    return $$\n",
    );
    let got: Vec<_> = f
        .tools
        .iter()
        .map(|t| (t.name.as_str(), t.description.as_deref()))
        .collect();
    assert_eq!(got, [("ok", Some("Ok.")), ("ok2", None)]);
    assert_eq!(
        f.tools[1].input_schema.as_ref().unwrap()["required"],
        json!(["y"])
    );
    // A broken signature: tree-sitter recovers somehow; only require no panic and a tool.
    let f = py(
        "@mcp.tool()\ndef broken(a: int, b: \n    pass\n\n@mcp.tool()\ndef fine(x: str):\n    pass\n",
    );
    assert!(!f.tools.is_empty());
    for junk in [
        "@mcp.tool(",
        "@mcp.tool\ndef",
        "@x.tool()\ndef f(a: \"",
        "@a.tool\ndef f(x: List[[[[",
        "\"\"\"\\",
    ] {
        let _ = py(junk);
    }
    let deep = format!(
        "@m.tool\ndef f(a: {}int{}): pass\n",
        "List[".repeat(3000),
        "]".repeat(3000)
    );
    assert_eq!(one(&deep).confidence, Confidence::Low);
    let mut consts = String::from("D0 = 'ab'\n");
    for i in 1..=60 {
        consts.push_str(&format!("D{i} = D{p} + D{p}\n", p = i - 1));
    }
    consts.push_str("@mcp.tool(description=D60)\ndef f(): pass\n");
    assert_eq!(one(&consts).confidence, Confidence::Low);
    let union = format!("@m.tool\ndef f(a: {}None): pass\n", "int | ".repeat(3000));
    let _ = py(&union);
}

#[test]
fn large_file() {
    let mut src = String::from("from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('big')\n");
    while src.len() < 1_000_000 {
        src.push_str("def helper(a, b=2):\n    return a * b  # filler to make the file large\n");
    }
    src.push_str("@mcp.tool()\ndef last(q: str) -> str:\n    \"\"\"At the end.\"\"\"\n");
    let t = one(&src);
    assert_eq!(t.name, "last");
    assert_eq!(
        t.origin.line,
        Some(u32::try_from(src.lines().count()).unwrap() - 1)
    );
}
