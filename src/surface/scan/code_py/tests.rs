#![allow(clippy::unwrap_used)]
use super::*;
use crate::surface::{Confidence, Tool};
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
    // A name the scan cannot read is a `server-unread` place, not a bare warning.
    assert!(f.warnings.is_empty(), "{:?}", f.warnings);
    let seen = f.server.as_ref().unwrap();
    assert_eq!(seen.unresolved, [(24, "`@mcp.tool(name=…)`".to_owned())]);
    assert_eq!((seen.sites, seen.tools), (5, 4));
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

fn names(f: &CodeFindings) -> Vec<&str> {
    f.tools.iter().map(|t| t.name.as_str()).collect()
}

#[test]
fn server_with_a_computed_name_is_unresolved() {
    let src = r#"from mcp.server.fastmcp import FastMCP
from .naming import make_name

mcp = FastMCP("weather")


@mcp.tool(name=make_name("forecast"))
def forecast(city: str) -> str:
    """Forecast."""
"#;
    let f = py(src);
    assert!(f.tools.is_empty());
    let seen = f.server.unwrap();
    assert_eq!(seen.created_at, Some(4));
    assert_eq!((seen.sites, seen.tools), (1, 0));
    assert_eq!(seen.unresolved, [(7, "`@mcp.tool(name=…)`".to_owned())]);
}

#[test]
fn server_created_without_tools_is_seen() {
    let src = "from mcp.server import Server\n\nserver = Server(\"empty\")\n";
    let seen = py(src).server.unwrap();
    assert_eq!((seen.created_at, seen.sites), (Some(3), 0));
    // No server, no place: nothing to say.
    assert!(py("def tool():\n    pass\n").server.is_none());
}

#[test]
fn lowlevel_list_tools_inline() {
    let src = r#"import mcp.types as types
from mcp.server.lowlevel import Server

app = Server("mcp-habitica")


@app.list_tools()
async def list_tools() -> list[types.Tool]:
    """List available tools."""
    return [
        types.Tool(
            name="get_tasks",
            description="Get tasks, optionally by type",
            inputSchema={
                "type": "object",
                "properties": {"type": {"type": "string", "enum": ["habits", "dailys"]}},
            },
        ),
        types.Tool(
            name="score_task",
            description="Score a task up or down",
            inputSchema={
                "type": "object",
                "properties": {"task_id": {"type": "string"}, "direction": {"type": "string"}},
                "required": ["task_id", "direction"],
            },
            annotations=types.ToolAnnotations(destructiveHint=False),
        ),
    ]
"#;
    let f = py(src);
    assert_eq!(names(&f), ["get_tasks", "score_task"]);
    let t = &f.tools[1];
    assert_eq!(t.description.as_deref(), Some("Score a task up or down"));
    assert_eq!(
        t.input_schema.as_ref().unwrap()["required"],
        json!(["task_id", "direction"])
    );
    assert_eq!(t.annotations, Some(json!({"destructiveHint": false})));
    assert_eq!(
        (t.origin.line, t.confidence),
        (Some(20), Confidence::Medium)
    );
    let seen = f.server.unwrap();
    assert_eq!((seen.created_at, seen.sites, seen.tools), (Some(4), 2, 2));
    assert!(seen.unresolved.is_empty());
}

#[test]
fn lowlevel_list_tools_built_up() {
    let src = r#"from mcp.server import Server
from mcp.types import Tool
import mcp

server = Server("built")

SEARCH_SCHEMA = {"type": "object", "properties": {"q": {"type": "string"}}}

TOOL_DEFS = [
    {"name": "alpha", "description": "First", "schema": {"type": "object"}},
    {"name": "beta", "description": "Second", "schema": {"type": "object"}},
]


def _front_door() -> list:
    return [Tool(name="order", description="Order", inputSchema={"type": "object"})]


def _build():
    all_tools = [Tool(name="search", description="Search", inputSchema=SEARCH_SCHEMA)]
    all_tools.append(mcp.types.Tool(name="fetch", description="Fetch", inputSchema=Fetch.model_json_schema()))
    all_tools.extend([Tool(name="index", inputSchema={"type": "object"})])
    all_tools = all_tools + [Tool(**{"name": "splat", "inputSchema": {"type": "object"}})]
    all_tools += [Tool(name=d["name"], description=d["description"], inputSchema=d["schema"]) for d in TOOL_DEFS]
    all_tools.append(Tool(name=compute_name(), inputSchema={}))
    return all_tools + _front_door()


@server.list_tools()
async def handle_list_tools() -> list[Tool]:
    return _build()
"#;
    let f = py(src);
    assert_eq!(
        names(&f),
        [
            "order", "search", "fetch", "index", "splat", "alpha", "beta"
        ]
    );
    let fetch = &f.tools[2];
    assert_eq!(fetch.input_schema, Some(json!({"type": "object"})));
    assert_eq!(fetch.confidence, Confidence::Low);
    assert_eq!(
        f.tools[1].input_schema.as_ref().unwrap()["properties"],
        json!({"q": {"type": "string"}})
    );
    assert_eq!(f.tools[6].description.as_deref(), Some("Second"));
    let seen = f.server.unwrap();
    assert_eq!((seen.sites, seen.tools), (7, 7));
    assert_eq!(
        seen.unresolved,
        [(25, "`Tool(name=…)` in a `list_tools()` handler".to_owned())]
    );
}

#[test]
fn lowlevel_handler_with_no_tool_objects_is_unresolved() {
    let src = "from mcp.server import Server\nfrom .catalog import TOOLS\napp = Server('x')\n\n@app.list_tools()\nasync def list_tools():\n    return TOOLS\n";
    let f = py(src);
    assert!(f.tools.is_empty());
    let seen = f.server.unwrap();
    assert_eq!(seen.unresolved.len(), 1);
    assert_eq!(seen.unresolved[0].0, 6);
}

#[test]
fn names_resolved_from_constants_enums_and_helpers() {
    let src = r#"import os
from enum import Enum, StrEnum

from mcp.server.fastmcp import FastMCP

TOOL_PREFIX = os.environ.get("TOOL_PREFIX", "")
NS = os.getenv("NS", "kb")
SUFFIX = "_v2"


class ToolName(str, Enum):
    SEARCH = "search"
    FETCH = "fetch"


class Plain(Enum):
    LIST = "list_items"


class Named(StrEnum):
    DELETE = "delete_item"


def _tool_name(name: str) -> str:
    """Prefix a tool name."""
    return f"{TOOL_PREFIX}_{name}" if TOOL_PREFIX else name


mcp = FastMCP(f"Prometheus MCP ({TOOL_PREFIX})" if TOOL_PREFIX else "Prometheus MCP")


@mcp.tool(name=_tool_name("health_check"))
def health_check() -> str: ...

@mcp.tool(name=ToolName.SEARCH.value)
def a(): ...

@mcp.tool(name=ToolName.FETCH)
def b(): ...

@mcp.tool(name=Plain.LIST.value)
def c(): ...

@mcp.tool(name=Named.DELETE)
def d(): ...

@mcp.tool(name=f"{NS}_lookup")
def e(): ...

@mcp.tool(name="get" + SUFFIX)
def g(): ...

@mcp.tool(name=Plain.LIST)
def h(): ...
"#;
    let f = py(src);
    assert_eq!(
        names(&f),
        [
            "health_check",
            "search",
            "fetch",
            "list_items",
            "delete_item",
            "kb_lookup",
            "get_v2"
        ]
    );
    // `Plain.LIST` is not a string (a plain Enum member): never guessed.
    let seen = f.server.unwrap();
    assert_eq!(seen.unresolved, [(53, "`@mcp.tool(name=…)`".to_owned())]);
}

#[test]
fn non_decorator_registrations() {
    let src = r#"from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.tools import Tool
from .ops import imported_op, other as renamed_op

mcp = FastMCP("forms")


def add(a: int, b: int = 1) -> int:
    """Add numbers."""
    return a + b


def sub(a: int) -> int:
    """Subtract."""


def mul(x: float) -> float:
    """Multiply."""


def div(x: float) -> float:
    """Divide."""


def never_registered(x: int) -> int:
    """Not a tool."""


mcp.add_tool(add, name="add_numbers", description="Adds two numbers")
mcp.tool(name="subtract")(sub)
mcp.tool()(mul)
div_tool = Tool.from_function(div, name="divide")
mcp.add_tool(div_tool)
mcp.add_tool(imported_op)
mcp.add_tool(renamed_op)
"#;
    let f = py(src);
    assert_eq!(
        names(&f),
        ["add_numbers", "subtract", "mul", "divide", "imported_op"]
    );
    let add = &f.tools[0];
    assert_eq!(add.description.as_deref(), Some("Adds two numbers"));
    assert_eq!(
        add.input_schema,
        Some(
            json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer", "default": 1}}, "required": ["a"]})
        )
    );
    assert_eq!(add.origin.line, Some(8));
    assert_eq!(f.tools[1].description.as_deref(), Some("Subtract."));
    assert_eq!(f.tools[3].description.as_deref(), Some("Divide."));
    assert_eq!(f.tools[4].confidence, Confidence::Low);
    let seen = f.server.unwrap();
    assert_eq!((seen.sites, seen.tools), (6, 5));
    assert_eq!(seen.unresolved.len(), 1);
    assert_eq!(seen.unresolved[0].0, 35);
}

#[test]
fn custom_decorators_delegating_to_tool() {
    let src = r#"from functools import wraps
from mcp.server.fastmcp import FastMCP
from .telemetry import telemetry_tool

mcp = FastMCP("custom")
_mcp_tool = mcp.tool


def tool(**kwargs):
    def deco(fn):
        return mcp.tool(**kwargs)(fn)
    return deco


def listmonk_tool(*, annotations):
    def decorator(func):
        @wraps(func)
        async def guarded(*args, **kwargs):
            return await func(*args, **kwargs)

        if allowed(func.__name__):
            return _mcp_tool(annotations=annotations)(guarded)
        return guarded

    return decorator


def timed(fn):
    return fn


@tool(name="renamed", description="Custom description")
def first(q: str) -> str:
    """Docstring."""


@tool()
def second(n: int) -> int:
    """Second tool."""


@listmonk_tool(annotations=READ_ONLY)
async def check_health() -> dict:
    """Health."""


@_mcp_tool(title="Aliased")
def third() -> str: ...


@timed
def not_a_tool(): ...


@telemetry_tool("also_not")
def helper(): ...
"#;
    let f = py(src);
    assert_eq!(names(&f), ["renamed", "second", "check_health", "third"]);
    assert_eq!(
        f.tools[0].description.as_deref(),
        Some("Custom description")
    );
    assert_eq!(f.tools[1].description.as_deref(), Some("Second tool."));
    assert_eq!(f.tools[3].title.as_deref(), Some("Aliased"));
    let seen = f.server.unwrap();
    assert_eq!((seen.sites, seen.tools), (4, 4));
    assert!(seen.unresolved.is_empty());
}

#[test]
fn class_method_wrapper() {
    let src = r#"from mcp.server.fastmcp import FastMCP


class Runtime:
    def __init__(self, name):
        self.server = FastMCP(name)

    def tool(self, *, annotations):
        return self.server.tool(annotations=annotations.to_mcp())


runtime = Runtime("wrapped")


@runtime.tool(annotations=READ_ONLY)
def read_thing(key: str) -> str:
    """Read a thing."""
"#;
    let f = py(src);
    assert_eq!(names(&f), ["read_thing"]);
    assert_eq!(f.tools[0].confidence, Confidence::Low);
    assert_eq!(f.server.unwrap().created_at, Some(6));
}

#[test]
fn registration_loops() {
    let src = r#"from mcp.server.fastmcp import FastMCP
from .tools.registry import ALL_TOOLS

mcp = FastMCP("loops")


def a(x: int) -> int:
    """A."""


def b(y: str) -> str:
    """B."""


def c() -> None:
    """C."""


def d() -> None:
    """D."""


TOOLS = [c, d]
NAMED = {"alpha": a, "beta": b}

for fn in [a, b]:
    mcp.tool()(fn)

for fn in TOOLS:
    mcp.add_tool(fn)

for name, fn in NAMED.items():
    mcp.tool(name=name)(fn)

for _tool_fn in ALL_TOOLS.values():
    mcp.tool(_tool_fn)
"#;
    let f = py(src);
    assert_eq!(names(&f), ["a", "b", "c", "d", "alpha", "beta"]);
    assert_eq!(f.tools[5].description.as_deref(), Some("B."));
    assert_eq!(
        f.tools[5].input_schema,
        Some(json!({"type": "object", "properties": {"y": {"type": "string"}}, "required": ["y"]}))
    );
    let seen = f.server.unwrap();
    assert_eq!((seen.sites, seen.tools), (4, 6));
    assert_eq!(seen.unresolved.len(), 1);
    assert_eq!(seen.unresolved[0].0, 36);
}

#[test]
fn loop_over_an_imported_registry() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = dir.path().join("aero");
    std::fs::create_dir_all(pkg.join("tools")).unwrap();
    std::fs::write(pkg.join("tools/__init__.py"), "").unwrap();
    std::fs::write(
        pkg.join("tools/core.py"),
        "def search_airports(query: str, limit: int = 10) -> str:\n    \"\"\"Search airports.\"\"\"\n\n\ndef plan_flight(origin: str) -> str:\n    \"\"\"Plan a flight.\"\"\"\n",
    )
    .unwrap();
    std::fs::write(
        pkg.join("tools/registry.py"),
        "from collections.abc import Callable\n\nfrom .core import (\n    plan_flight,\n    search_airports,\n)\nfrom .units import convert as convert_units\n\nALL_TOOLS: dict[str, Callable[..., str]] = {\n    \"search_airports\": search_airports,\n    \"plan_flight\": plan_flight,\n}\nNAMES = [\"a_b\", \"c_d\"]\n",
    )
    .unwrap();
    let server = "from mcp.server.fastmcp import FastMCP\n\nfrom .tools.registry import ALL_TOOLS\nfrom .tools.core import plan_flight as plan\nfrom .missing import EXTRA\n\nmcp = FastMCP(\"aero\")\n\nfor _tool_fn in ALL_TOOLS.values():\n    mcp.tool(_tool_fn)\n\nfor name, fn in ALL_TOOLS.items():\n    mcp.tool(name=\"x_\" + name)(fn)\n\nmcp.add_tool(plan, name=\"plan_again\")\n\nfor fn in EXTRA:\n    mcp.add_tool(fn)\n";
    let path = pkg.join("server.py");
    std::fs::write(&path, server).unwrap();
    let f = extract_at("aero/server.py", server, &path, dir.path(), 1_000_000);
    assert_eq!(
        names(&f),
        [
            "search_airports",
            "plan_flight",
            "x_search_airports",
            "x_plan_flight",
            "plan_again"
        ]
    );
    let t = &f.tools[0];
    assert_eq!(t.description.as_deref(), Some("Search airports."));
    assert_eq!(t.origin.file.as_deref(), Some("aero/tools/core.py"));
    assert_eq!(t.origin.line, Some(1));
    assert_eq!(
        t.input_schema,
        Some(
            json!({"type": "object", "properties": {"query": {"type": "string"}, "limit": {"type": "integer", "default": 10}}, "required": ["query"]})
        )
    );
    let seen = f.server.unwrap();
    assert_eq!((seen.sites, seen.tools), (4, 5));
    assert_eq!(seen.unresolved.len(), 1);
    assert_eq!(seen.unresolved[0].0, 18);
    // Read as one file, the loop is an unresolved place, not a guess.
    let alone = py(server);
    // (`plan` is an aliased import: its served name is not guessed either.)
    assert!(alone.tools.is_empty());
    assert_eq!(alone.server.unwrap().unresolved.len(), 4);
}

#[test]
fn custom_decorator_registering_under_a_default_condition() {
    let src = r#"import functools
import os

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("listmonk")
_mcp_tool = mcp.tool

AGENTIC_TOOL_NAMES: set[str] = {
    "check_health",
    "get_lists",
}


def _raw_mcp_mode() -> str:
    value = os.getenv("LISTMONK_MCP_MODE", "agentic").strip().lower()
    return value if value in {"agentic", "full"} else "agentic"


def agentic_tool_allowed(tool_name: str) -> bool:
    return _raw_mcp_mode() == "full" or tool_name in AGENTIC_TOOL_NAMES


def listmonk_tool(*, annotations):
    def decorator(fn):
        tool_name = fn.__name__

        @functools.wraps(fn)
        async def guarded(*args, **kwargs):
            return await fn(*args, **kwargs)

        if agentic_tool_allowed(tool_name):
            return _mcp_tool(annotations=annotations)(guarded)
        return guarded

    return decorator


@listmonk_tool(annotations=READ_ONLY)
async def check_health() -> dict:
    """Health."""


@listmonk_tool(annotations=READ_ONLY)
async def get_settings() -> dict:
    """Only in full mode."""


@listmonk_tool(annotations=MUTATING)
async def get_lists(page: int = 1) -> dict:
    """Lists."""
"#;
    let f = py(src);
    // `get_settings` is registered only when LISTMONK_MCP_MODE=full, not by default.
    assert_eq!(names(&f), ["check_health", "get_lists"]);
    assert!(f.server.unwrap().unresolved.is_empty());
}

#[test]
fn openapi_generated_tools_are_unresolved() {
    let src = "from fastmcp import FastMCP\n\nmain = FastMCP(\"api\")\nsub = FastMCP.from_openapi(openapi_spec=spec, client=client)\nmain.mount(sub)\n\n@main.tool()\ndef extra() -> str:\n    \"\"\"Extra.\"\"\"\n";
    let f = py(src);
    assert_eq!(names(&f), ["extra"]);
    let seen = f.server.unwrap();
    assert_eq!((seen.sites, seen.tools), (2, 1));
    assert_eq!(seen.unresolved.len(), 1);
    assert_eq!(seen.unresolved[0].0, 4);
}

#[test]
fn robustness_of_the_evaluator_and_places() {
    // Recursive and mutually recursive helpers, self-referencing constants, nested loops.
    let src = r#"from mcp.server.fastmcp import FastMCP
mcp = FastMCP("r")
A = B
B = A
def f(x): return f(x)
def g(x): return h(x)
def h(x): return g(x)
def deco(**kw):
    return deco2(**kw)
def deco2(**kw):
    return deco(**kw)
@mcp.tool(name=f("x"))
def one(): ...
@mcp.tool(name=g(A))
def two(): ...
@deco(name="n")
def three(): ...
L = [a, a, a, a, a, a, a, a, a, a]
def a(): ...
for x in L:
    for y in L:
        for z in L:
            for w in L:
                mcp.tool(name=f"{x}")(a)
@mcp.tool(name=f"{'{'}")
def four(): ...
"#;
    let f = py(src);
    let seen = f.server.unwrap();
    assert!(seen.unresolved.len() >= 3, "{seen:?}");
    // A deep f-string and a long conditional chain neither overflow nor hang.
    let deep = format!(
        "@mcp.tool(name={}\"x\"{})\ndef d(): ...\n",
        "(\"a\" if True else ".repeat(2000),
        ")".repeat(2000)
    );
    let _ = py(&deep);
    let fs = format!("@mcp.tool(name=f\"{}\")\ndef d(): ...\n", "{f'".repeat(500));
    let _ = py(&fs);
    // Modules importing each other.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.py"),
        "from .b import X\nfrom .b import fn\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("b.py"),
        "from .a import X\nfrom .a import fn\n",
    )
    .unwrap();
    let server = "from mcp.server.fastmcp import FastMCP\nfrom .a import X, fn\nmcp = FastMCP('c')\nfor t in X:\n    mcp.add_tool(t)\nmcp.add_tool(fn)\n";
    let path = dir.path().join("server.py");
    std::fs::write(&path, server).unwrap();
    let f = extract_at("server.py", server, &path, dir.path(), 1_000_000);
    assert_eq!(f.tools.len(), 1, "{:?}", names(&f)); // `fn`, by its imported name
    assert_eq!(f.server.unwrap().unresolved.len(), 1);
    // A module outside the scan root is not read.
    let outside = tempfile::tempdir().unwrap();
    let inner = outside.path().join("pkg");
    std::fs::create_dir_all(&inner).unwrap();
    std::fs::write(outside.path().join("reg.py"), "T = [1]\n").unwrap();
    let server = "from mcp.server.fastmcp import FastMCP\nfrom ..reg import T\nmcp = FastMCP('o')\nfor t in T:\n    mcp.add_tool(t)\n";
    let path = inner.join("server.py");
    std::fs::write(&path, server).unwrap();
    let f = extract_at("server.py", server, &path, &inner, 1_000_000);
    assert_eq!(f.server.unwrap().unresolved.len(), 1);
}

#[test]
fn custom_decorator_imported_from_a_relative_module() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("app.py"),
        "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('d')\n\ndef tool(**kwargs):\n    def deco(fn):\n        return mcp.tool(**kwargs)(fn)\n    return deco\n\ndef timed(fn):\n    return fn\n",
    )
    .unwrap();
    let src = "from .app import tool, timed\n\n@tool(name=\"lookup\")\ndef find(q: str) -> str:\n    \"\"\"Find.\"\"\"\n\n@timed\ndef not_a_tool(): ...\n";
    let path = dir.path().join("tools.py");
    std::fs::write(&path, src).unwrap();
    let f = extract_at("tools.py", src, &path, dir.path(), 1_000_000);
    assert_eq!(names(&f), ["lookup"]);
    assert_eq!(f.tools[0].description.as_deref(), Some("Find."));
    // Read alone, the decorator is unknown: nothing is guessed.
    assert!(py(src).tools.is_empty());
}

#[test]
fn absolute_import_of_the_files_own_package() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = dir.path().join("src/weather_mcp");
    std::fs::create_dir_all(pkg.join("tools")).unwrap();
    std::fs::write(
        pkg.join("tools/forecast.py"),
        "def forecast(city: str) -> str:\n    \"\"\"Forecast for a city.\"\"\"\n",
    )
    .unwrap();
    let server = "from mcp.server.fastmcp import FastMCP\nfrom pydantic import Field\nfrom weather_mcp.tools.forecast import forecast\n\nmcp = FastMCP(\"w\")\nfor fn in [forecast]:\n    mcp.add_tool(fn)\n";
    let path = pkg.join("server.py");
    std::fs::write(&path, server).unwrap();
    let f = extract_at(
        "src/weather_mcp/server.py",
        server,
        &path,
        dir.path(),
        1_000_000,
    );
    assert_eq!(names(&f), ["forecast"]);
    let t = &f.tools[0];
    assert_eq!(t.description.as_deref(), Some("Forecast for a city."));
    assert_eq!(
        t.origin.file.as_deref(),
        Some("src/weather_mcp/tools/forecast.py")
    );
    assert_eq!(t.confidence, Confidence::Medium);
}
