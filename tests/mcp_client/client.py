"""A real MCP client (the official Python SDK, `mcp` on PyPI) driving `mf mcp` over stdio.

Run by tests/integration/mcp_server.rs with the venv of scripts/install-mcp-sdk.sh:

    python client.py --mf PATH/TO/mf --workdir DIR --cache-dir DIR

It plays an agent: lists the tools, scans the repository, lists the suite, runs an offline
`lexical` eval, adds a case, tries what the operator did not allow (a paid run, `root: /etc`,
`maxTrials` above the cap), and cancels a slow paid `run_eval` mid-way on a second server
started with --allow-paid-runs and a cache. It asserts nothing itself: it prints one JSON
object of observations on stdout, which the Rust test checks.
"""

import argparse
import json
import sys

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client


def field(obj, snake, camel):
    """SDK 2.x models use snake_case attributes; 1.x used the wire's camelCase."""
    return getattr(obj, snake, getattr(obj, camel, None))


def texts(result):
    return [c.text for c in result.content if getattr(c, "type", None) == "text"]


def observe(result):
    """isError, the summary line, and the JSON data (second text block) when there is one."""
    parts = texts(result)
    data = None
    if len(parts) > 1:
        try:
            data = json.loads(parts[1])
        except ValueError:
            data = None
    return {"isError": bool(field(result, "is_error", "isError")), "summary": parts[0] if parts else "", "data": data}


async def session(params, body):
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as s:
            await s.initialize()
            return await body(s)


async def free_session(args, out):
    params = StdioServerParameters(
        command=args.mf, args=["mcp", "--max-trials", "20"], cwd=args.workdir
    )

    async def body(s):
        listed = await s.list_tools()
        out["tools"] = [
            {
                "name": t.name,
                "description": t.description or "",
                "properties": sorted((field(t, "input_schema", "inputSchema") or {}).get("properties", {}).keys()),
                "readOnly": bool(t.annotations and field(t.annotations, "read_only_hint", "readOnlyHint")),
            }
            for t in listed.tools
        ]
        out["scan"] = observe(await s.call_tool("scan_tools", {"root": "acme"}))
        out["list"] = observe(await s.call_tool("list_suite", {"suite": "acme/mf.suite.yaml"}))
        progress = []

        async def on_progress(value, total, message):
            progress.append({"progress": value, "total": total, "message": message})

        out["eval"] = observe(
            await s.call_tool(
                "run_eval",
                {"suite": "acme/mf.suite.yaml", "models": ["lexical"], "repeat": 1, "resultFile": "runs/head.json"},
                progress_callback=on_progress,
            )
        )
        out["evalProgress"] = progress
        out["add"] = observe(
            await s.call_tool(
                "add_cases",
                {
                    "suite": "acme/mf.suite.yaml",
                    "cases": [
                        {
                            "input": "Can you check where order A-2002 is?",
                            "expectedTool": "lookup_order",
                            "expectedArgs": {"order_number": "A-2002"},
                            "tags": ["orders"],
                        }
                    ],
                },
            )
        )
        out["listAfterAdd"] = observe(await s.call_tool("list_suite", {"suite": "acme/mf.suite.yaml"}))
        out["addUnknownTool"] = observe(
            await s.call_tool(
                "add_cases",
                {"suite": "acme/mf.suite.yaml", "cases": [{"input": "where is it", "expectedTool": "lookup_ordr"}]},
            )
        )
        out["refusePaid"] = observe(
            await s.call_tool("run_eval", {"suite": "acme/mf.suite.yaml", "models": ["openai:gpt-4.1-mini"]})
        )
        out["paidDryRun"] = observe(
            await s.call_tool(
                "run_eval", {"suite": "acme/mf.suite.yaml", "models": ["openai:gpt-4.1-mini"], "dryRun": True}
            )
        )
        out["refuseRoot"] = observe(await s.call_tool("scan_tools", {"root": "/etc"}))
        out["refuseMaxTrials"] = observe(
            await s.call_tool("run_eval", {"suite": "acme/mf.suite.yaml", "maxTrials": 21})
        )
        out["refuseLive"] = observe(await s.call_tool("lint_surface", {"stdio": "echo hi"}))
        out["lint"] = observe(await s.call_tool("lint_surface", {"suite": "acme/mf.suite.yaml"}))
        out["compare"] = observe(
            await s.call_tool("compare_runs", {"base": "runs/head.json", "head": "runs/head.json"})
        )
        out["coverage"] = observe(await s.call_tool("coverage", {"suite": "acme/mf.suite.yaml"}))
        out["cluster"] = observe(await s.call_tool("cluster_surface", {"paths": ["acme/snapshots"]}))
        out["refuseUnknownArg"] = observe(await s.call_tool("list_suite", {"suit": "acme/mf.suite.yaml"}))
        out["aliveAfterRefusals"] = len((await s.list_tools()).tools)
        # Last, because the draft it writes is a new surface file under acme/.
        out["scanWrite"] = observe(await s.call_tool("scan_tools", {"root": "acme", "writeSuite": True}))

    await session(params, body)


async def cancel_session(args, out):
    params = StdioServerParameters(
        command=args.mf,
        args=["mcp", "--allow-paid-runs", "--cache-dir", args.cache_dir, "--concurrency", "1", "--max-trials", "100"],
        cwd=args.workdir,
    )

    async def body(s):
        seen = []
        first = anyio.Event()

        async def on_progress(value, total, message):
            seen.append(value)
            if value >= 3:
                first.set()

        call = {"suite": "slow/mf.suite.json", "models": ["slow"], "repeat": 1}
        cancelled = {"raised": False}
        async with anyio.create_task_group() as tg:

            async def run():
                try:
                    await s.call_tool("run_eval", call, progress_callback=on_progress)
                except anyio.get_cancelled_exc_class():
                    cancelled["raised"] = True
                    raise

            tg.start_soon(run)
            with anyio.fail_after(60):
                await first.wait()
            tg.cancel_scope.cancel()
        out["cancelledAt"] = max(seen) if seen else 0
        out["cancelRaised"] = cancelled["raised"]
        # The server is still there: it answers, and the same run now starts from the cache.
        out["aliveAfterCancel"] = len((await s.list_tools()).tools)
        out["rerun"] = observe(await s.call_tool("run_eval", call))

    await session(params, body)


async def main():
    p = argparse.ArgumentParser()
    p.add_argument("--mf", required=True)
    p.add_argument("--workdir", required=True)
    p.add_argument("--cache-dir", required=True)
    args = p.parse_args()
    out = {}
    await free_session(args, out)
    await cancel_session(args, out)
    json.dump(out, sys.stdout)


anyio.run(main)
