#!/usr/bin/env python3
"""Generate a deterministic, repository-like tree for benchmarking `mf scan`.

The tree looks like a monorepo: nested packages of TypeScript, JavaScript, Python, Markdown and
JSON files of a few KB each, a small share of which define MCP tools (`server.tool(...)`,
`server.registerTool(...)`, `@mcp.tool()`, tools/list snapshots, OpenAI tool arrays, SKILL.md).
It also holds the things a walker must survive:

- a `.gitignore` excluding `node_modules/` (which holds a few thousand files) and `dist/`;
- a symlink loop `a/loop -> ..`;
- one large file (default 50 MB) that the scan must skip by size;
- a file that is not valid UTF-8.

Same arguments, same tree, byte for byte (seeded `random.Random`, no time or environment input).

Usage: gen_tree.py ROOT [--files N] [--node-modules N] [--big-mb N] [--seed N]
Prints one JSON line with counts to stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys

WORDS = (
    "account order ticket invoice refund customer session token cache queue worker job event "
    "payment shipment product catalog search index user profile address report metric alert "
    "policy config client server request response handler router store record batch stream "
    "export import sync audit note comment thread message channel webhook schedule retry"
).split()
VERBS = "get list create update delete sync fetch find load save send build parse check apply".split()


def ident(rng: random.Random, style: str = "snake", n: int = 2) -> str:
    parts = [rng.choice(VERBS)] + [rng.choice(WORDS) for _ in range(n - 1)]
    if style == "camel":
        return parts[0] + "".join(p.title() for p in parts[1:])
    if style == "pascal":
        return "".join(p.title() for p in parts)
    return "_".join(parts)


def sentence(rng: random.Random, lo: int = 6, hi: int = 16) -> str:
    words = [rng.choice(WORDS + VERBS) for _ in range(rng.randint(lo, hi))]
    return " ".join(words).capitalize() + "."


# ---------------------------------------------------------------------------------------------
# File bodies. Each returns text of roughly `size` bytes.


def ts_body(rng: random.Random, size: int, js: bool = False) -> str:
    out = ["// " + sentence(rng), 'import { z } from "zod";' if not js else 'const path = require("node:path");', ""]
    while sum(len(s) + 1 for s in out) < size:
        fn = ident(rng, "camel", 3)
        arg = ident(rng, "camel", 2)
        typ = "" if js else ": string"
        ret = "" if js else ": Promise<Record<string, unknown>>"
        out += [
            "/** " + sentence(rng) + " */",
            f"export async function {fn}({arg}{typ}, limit{'' if js else ': number'} = {rng.randint(1, 100)}){ret} {{",
            f"  const key = `{rng.choice(WORDS)}:${{{arg}}}`;",
            f"  if (!{arg}) throw new Error(\"{sentence(rng, 3, 6)}\");",
            f"  const rows = await db.query(\"select * from {rng.choice(WORDS)} where id = $1 limit $2\", [key, limit]);",
            "  return { count: rows.length, rows };",
            "}",
            "",
        ]
    return "\n".join(out) + "\n"


def ts_mcp_server(rng: random.Random, size: int, idx: int) -> str:
    out = [
        'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";',
        'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";',
        'import { z } from "zod";',
        "",
        f'const server = new McpServer({{ name: "svc-{idx}", version: "1.0.{idx % 10}" }});',
        "",
    ]
    for t in range(rng.randint(2, 6)):
        name = ident(rng, "snake", 2) + f"_{idx}_{t}"
        if t % 2 == 0:
            out += [
                "server.tool(",
                f'  "{name}",',
                f'  "{sentence(rng, 8, 20)}",',
                "  {",
                f'    {rng.choice(WORDS)}_id: z.string().describe("{sentence(rng, 4, 8)}"),',
                f"    limit: z.number().int().min(1).max(100).default(20).describe(\"{sentence(rng, 3, 6)}\"),",
                f'    mode: z.enum(["fast", "full"]).optional(),',
                "  },",
                "  async (args) => ({ content: [{ type: \"text\", text: JSON.stringify(args) }] }),",
                ");",
                "",
            ]
        else:
            out += [
                "server.registerTool(",
                f'  "{name}",',
                "  {",
                f'    title: "{name.replace("_", " ").title()}",',
                f'    description: "{sentence(rng, 8, 20)}",',
                "    inputSchema: {",
                f'      query: z.string().describe("{sentence(rng, 4, 8)}"),',
                "      tags: z.array(z.string()).optional(),",
                "    },",
                "    annotations: { readOnlyHint: true },",
                "  },",
                "  async ({ query }) => ({ content: [{ type: \"text\", text: query }] }),",
                ");",
                "",
            ]
    out += ["await server.connect(new StdioServerTransport());", ""]
    text = "\n".join(out)
    return text + ts_body(rng, max(0, size - len(text)))


def py_body(rng: random.Random, size: int) -> str:
    out = ['"""' + sentence(rng) + '"""', "", "from __future__ import annotations", "", "import json", ""]
    while sum(len(s) + 1 for s in out) < size:
        fn = ident(rng, "snake", 3)
        out += [
            "",
            f"def {fn}({rng.choice(WORDS)}_id: str, limit: int = {rng.randint(1, 50)}) -> dict:",
            f'    """{sentence(rng)}"""',
            f"    rows = [{{\"id\": i, \"{rng.choice(WORDS)}\": {rng.choice(WORDS)}_id}} for i in range(limit)]",
            f"    if not rows:",
            f'        raise ValueError("{sentence(rng, 3, 6)}")',
            "    return {\"count\": len(rows), \"rows\": json.dumps(rows)}",
            "",
        ]
    return "\n".join(out) + "\n"


def py_mcp_server(rng: random.Random, size: int, idx: int) -> str:
    out = [
        "from typing import Annotated, Literal, Optional",
        "",
        "from mcp.server.fastmcp import Context, FastMCP",
        "from pydantic import Field",
        "",
        f'mcp = FastMCP("svc-{idx}")',
        "",
    ]
    for t in range(rng.randint(2, 5)):
        name = ident(rng, "snake", 2) + f"_{idx}_{t}"
        if t == 0:
            out += [
                f'@mcp.tool(name="x_{name}", description="{sentence(rng, 8, 18)}")',
                f"def {name}(query: str, limit: int = 10, tags: Optional[list[str]] = None) -> list[dict]:",
                "    return []",
                "",
                "",
            ]
        else:
            out += [
                "@mcp.tool()",
                f"async def {name}(",
                f'    {rng.choice(WORDS)}_id: Annotated[str, Field(description="{sentence(rng, 4, 8)}")],',
                "    ctx: Context,",
                '    mode: Literal["fast", "full"] = "fast",',
                "    note: Optional[str] = None,",
                ") -> str:",
                f'    """{sentence(rng, 8, 18)}',
                "",
                "    Args:",
                f"        mode: {sentence(rng, 3, 6)}",
                f"        note: {sentence(rng, 3, 6)}",
                '    """',
                '    await ctx.info("working")',
                '    return "ok"',
                "",
                "",
            ]
    text = "\n".join(out)
    return text + py_body(rng, max(0, size - len(text)))


def md_body(rng: random.Random, size: int) -> str:
    out = ["# " + sentence(rng, 2, 5).rstrip("."), ""]
    while sum(len(s) + 1 for s in out) < size:
        out += ["## " + sentence(rng, 2, 4).rstrip("."), "", " ".join(sentence(rng) for _ in range(5)), ""]
        if rng.random() < 0.3:
            out += ["```sh", f"npm run {rng.choice(VERBS)}", "```", ""]
    return "\n".join(out) + "\n"


def skill_md(rng: random.Random, size: int, idx: int) -> str:
    head = f"---\nname: skill-{idx}\ndescription: {sentence(rng, 10, 24)}\n---\n\n"
    return head + md_body(rng, max(0, size - len(head)))


def json_body(rng: random.Random, size: int) -> str:
    obj: dict = {"name": f"@acme/{rng.choice(WORDS)}-{rng.randint(1, 999)}", "version": "1.0.0", "config": {}}
    while len(json.dumps(obj)) < size:
        obj["config"][ident(rng, "camel", 2)] = {
            "enabled": rng.random() < 0.5,
            "retries": rng.randint(0, 9),
            "note": sentence(rng),
        }
    return json.dumps(obj, indent=2) + "\n"


def tools_json(rng: random.Random, idx: int) -> str:
    def schema() -> dict:
        return {
            "type": "object",
            "properties": {
                f"{rng.choice(WORDS)}_id": {"type": "string", "description": sentence(rng, 4, 8)},
                "limit": {"type": "integer", "minimum": 1, "maximum": 100, "description": sentence(rng, 3, 6)},
            },
            "required": [],
        }

    kind = idx % 3
    names = [ident(rng, "snake", 2) + f"_{idx}_{t}" for t in range(rng.randint(2, 5))]
    if kind == 0:  # MCP tools/list snapshot
        doc: object = {
            "tools": [
                {"name": n, "description": sentence(rng, 8, 20), "inputSchema": schema(), "annotations": {"readOnlyHint": True}}
                for n in names
            ]
        }
    elif kind == 1:  # OpenAI chat
        doc = [{"type": "function", "function": {"name": n, "description": sentence(rng, 8, 20), "parameters": schema()}} for n in names]
    else:  # Anthropic
        doc = [{"name": n, "description": sentence(rng, 8, 20), "input_schema": schema()} for n in names]
    return json.dumps(doc, indent=2) + "\n"


# ---------------------------------------------------------------------------------------------


def count_tools(ext: str, text: str) -> int:
    if ext == ".ts":
        return text.count("server.tool(") + text.count("server.registerTool(")
    if ext == ".py":
        return text.count("@mcp.tool(")
    doc = json.loads(text)
    return len(doc["tools"] if isinstance(doc, dict) else doc)


def write(path: str, data: str | bytes) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)


def source_file(rng: random.Random, idx: int, tool_rate: float) -> tuple[str, str, bool]:
    """Pick an extension and body for the idx-th file. Returns (ext, text, defines_tools)."""
    size = int(rng.triangular(600, 9000, 2500))
    r = rng.random()
    tool = rng.random() < tool_rate
    if r < 0.30:
        return (".ts", ts_mcp_server(rng, size, idx) if tool else ts_body(rng, size), tool)
    if r < 0.45:
        return (".js", ts_body(rng, size, js=True), False)
    if r < 0.70:
        return (".py", py_mcp_server(rng, size, idx) if tool else py_body(rng, size), tool)
    if r < 0.85:
        return (".md", md_body(rng, size), False)
    if r < 0.95:
        return (".json", tools_json(rng, idx) if tool else json_body(rng, size), tool)
    ext = rng.choice([".yaml", ".toml", ".txt", ".css"])
    return (ext, md_body(rng, size), False)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root")
    ap.add_argument("--files", type=int, default=50_000, help="total regular files to create (incl. node_modules)")
    ap.add_argument("--node-modules", type=int, default=-1, help="files under the ignored node_modules/ (default: 6%% of --files, 50..4000)")
    ap.add_argument("--big-mb", type=int, default=50, help="size of the one large file in MB (0 = none)")
    ap.add_argument("--tool-rate", type=float, default=0.02, help="share of source files that define MCP tools")
    ap.add_argument("--seed", type=int, default=20250101)
    args = ap.parse_args()

    root = os.path.abspath(args.root)
    if os.path.exists(root) and os.listdir(root):
        print(f"gen_tree.py: {root} exists and is not empty; refusing to write into it", file=sys.stderr)
        return 2
    os.makedirs(root, exist_ok=True)
    rng = random.Random(args.seed)

    nm = args.node_modules if args.node_modules >= 0 else max(50, min(4000, args.files * 6 // 100))
    fixed = 6  # .gitignore, README.md, package.json, big file, non-UTF-8 file, a/README.md
    nm = min(nm, max(0, args.files - fixed))
    n_src = max(0, args.files - fixed - nm)

    # "tools": tool definitions outside node_modules/ that a scan should report (the non-UTF-8
    # file's one decorator is not counted: that file must be skipped with a warning).
    counts = {"files": 0, "ignored": 0, "tool_files": 0, "tools": 0, "skill_files": 0, "dirs": 0}

    write(os.path.join(root, ".gitignore"), "node_modules/\ndist/\n*.log\n.env\n")
    write(os.path.join(root, "README.md"), md_body(rng, 3000))
    write(os.path.join(root, "package.json"), json.dumps({"name": "bench-monorepo", "private": True, "workspaces": ["packages/*"]}, indent=2) + "\n")
    counts["files"] += 3

    # Nested directories: packages/pkg-NNN/{src,lib,tests,docs}/mod-NN/[sub-N/]
    n_pkgs = max(1, n_src // 400)
    dirs: list[str] = []
    for p in range(n_pkgs):
        for area in ("src", "lib", "tests", "docs"):
            for m in range(rng.randint(2, 6)):
                d = os.path.join("packages", f"pkg-{p:03d}", area, f"mod-{m:02d}")
                dirs.append(d)
                if rng.random() < 0.5:
                    dirs.append(os.path.join(d, f"sub-{rng.randint(0, 3)}", "deep"))
    dirs.append(os.path.join("services", "agents", "skills"))
    counts["dirs"] = len(set(dirs))

    skill_every = 500
    for i in range(n_src):
        d = dirs[rng.randrange(len(dirs))]
        if i % skill_every == skill_every - 1:
            write(os.path.join(root, d, f"skill-{i}", "SKILL.md"), skill_md(rng, 1500, i))
            counts["skill_files"] += 1
        else:
            ext, text, tool = source_file(rng, i, args.tool_rate)
            name = ident(rng, "snake" if ext == ".py" else "camel", 2) + f"_{i}{ext}"
            if ext == ".json" and tool:
                name = f"tools_{i}.json"
            write(os.path.join(root, d, name), text)
            counts["tool_files"] += tool
            if tool:
                counts["tools"] += count_tools(ext, text)
        counts["files"] += 1

    # Ignored dependency tree: node_modules/<pkg>/{index.js,package.json,lib/*.js}; some define tools
    # (SDK examples) that the scan must NOT report.
    for i in range(nm):
        pkg = f"dep-{i // 20:04d}"
        if i % 20 == 0:
            path, text = os.path.join(root, "node_modules", pkg, "package.json"), json_body(rng, 400)
        elif i % 20 == 1:
            path, text = os.path.join(root, "node_modules", pkg, "index.js"), ts_mcp_server(rng, 1500, 900_000 + i)
        else:
            path, text = os.path.join(root, "node_modules", pkg, "lib", f"m{i}.js"), ts_body(rng, 1500, js=True)
        write(path, text)
        counts["ignored"] += 1
        counts["files"] += 1

    # Symlink loop: a/loop -> .. (points back at the root).
    write(os.path.join(root, "a", "README.md"), "# a\n\nHolds a symlink loop: `loop -> ..`.\n")
    counts["files"] += 1
    try:
        os.symlink("..", os.path.join(root, "a", "loop"))
    except OSError as e:  # e.g. a filesystem without symlinks
        print(f"gen_tree.py: warning: no symlink loop: {e}", file=sys.stderr)

    # A file that is not UTF-8 (Latin-1 comment and a stray 0xFF) in a recognizable place.
    write(
        os.path.join(root, "packages", "legacy", "latin1_tools.py"),
        b"# -*- coding: latin-1 -*-\n# caf\xe9 r\xe9sum\xe9 \xff\n@mcp.tool()\ndef na\xefve(x: str) -> str:\n    return x\n",
    )
    counts["files"] += 1

    # One big file, over the scan's size cap. A JSON-looking name so the size check, not the
    # extension, has to skip it. Written in 1 MiB chunks.
    if args.big_mb > 0:
        chunk = (json.dumps({"k": "v" * 1000}) + ",\n").encode() * 1024
        chunk = chunk[: 1 << 20]
        path = os.path.join(root, "data", "fixtures", "big-dump.json")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(b"[\n")
            for _ in range(args.big_mb):
                f.write(chunk)
        counts["files"] += 1
    else:
        write(os.path.join(root, "data", "fixtures", "small.json"), "[]\n")
        counts["files"] += 1

    print(json.dumps(counts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
