#!/usr/bin/env node
// A misbehaving MCP server for tests/integration/live_faults.rs. Usage: node server.js MODE PIDFILE
// Writes its own pid and a grandchild's pid (a `sleep` in the same process group) to PIDFILE,
// so the test can check mf killed the whole group. Modes:
//   exit          exit(3) at once, after a line on stderr
//   hang          read requests, never answer
//   garbage       answer every line with non-JSON text
//   same-cursor   paginate forever with the same nextCursor
//   new-cursor    paginate forever with a fresh nextCursor each page
//   huge          pages of ~10 MB of tool descriptions, forever
//   exit-mid-list answer initialize, then exit on tools/list
//   no-tools      answer tools/list with -32601 method not found
//   bad-protocol  answer initialize with protocol version 1999-01-01
//   ok            two pages, three tools
// And a well-behaved one: `node server.js catalog FILE` serves the tools listed in FILE (a JSON
// array of tool objects, read at start-up), two per page — a server whose tools no scan can
// read from its source, for tests/integration/snapshot_cli.rs.
const fs = require("fs");
const { spawn } = require("child_process");
const [mode, arg] = process.argv.slice(2);
const catalog = mode === "catalog" ? JSON.parse(fs.readFileSync(arg, "utf8")) : null;
const pidfile = mode === "catalog" ? undefined : arg;
const sleeper = mode === "catalog" ? null : spawn("sleep", ["300"], { stdio: "ignore" });
if (pidfile) fs.writeFileSync(pidfile, `${process.pid}\n${sleeper.pid}\n`);
process.stderr.write(`fake server starting in mode ${mode}\n`);
if (mode === "exit") {
  process.stderr.write("fatal: missing configuration FAKE_TOKEN\n");
  setTimeout(() => process.exit(3), 50);
}
const send = (msg) => process.stdout.write(JSON.stringify(msg) + "\n");
const tool = (name, description) => ({ name, description, inputSchema: { type: "object", properties: { q: { type: "string" } } }, "x-extra": { kept: true } });
let page = 0;
let buf = "";
process.stdin.on("data", (chunk) => {
  buf += chunk;
  let i;
  while ((i = buf.indexOf("\n")) >= 0) {
    const line = buf.slice(0, i);
    buf = buf.slice(i + 1);
    if (line.trim()) handle(JSON.parse(line));
  }
});
function handle(msg) {
  if (mode === "hang" || mode === "exit") return;
  if (mode === "garbage") { process.stdout.write("Server listening... ready!\n"); return; }
  if (msg.id === undefined) return;
  if (msg.method === "initialize") {
    const protocolVersion = mode === "bad-protocol" ? "1999-01-01" : msg.params.protocolVersion;
    send({ jsonrpc: "2.0", id: msg.id, result: { protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "fake", version: "0.0.1" } } });
    return;
  }
  if (msg.method !== "tools/list") { send({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "Method not found" } }); return; }
  page += 1;
  switch (mode) {
    case "exit-mid-list": process.stderr.write("crashed while listing\n"); process.exit(4);
    case "no-tools": send({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "Method not found" } }); return;
    case "same-cursor": send({ jsonrpc: "2.0", id: msg.id, result: { tools: [tool(`t${page}`, "a tool")], nextCursor: "again" } }); return;
    case "new-cursor": send({ jsonrpc: "2.0", id: msg.id, result: { tools: [tool(`t${page}`, "a tool")], nextCursor: `c${page}` } }); return;
    case "catalog": {
      const from = Number((msg.params && msg.params.cursor) || 0);
      const result = { tools: catalog.slice(from, from + 2) };
      if (from + 2 < catalog.length) result.nextCursor = String(from + 2);
      send({ jsonrpc: "2.0", id: msg.id, result });
      return;
    }
    case "huge": {
      const big = "x".repeat(1024 * 1024);
      const tools = Array.from({ length: 10 }, (_, k) => tool(`t${page}_${k}`, big));
      send({ jsonrpc: "2.0", id: msg.id, result: { tools, nextCursor: `c${page}` } });
      return;
    }
    default: {
      const cursor = msg.params && msg.params.cursor;
      if (!cursor) send({ jsonrpc: "2.0", id: msg.id, result: { tools: [tool("search", "Search things."), tool("fetch", "Fetch a thing.")], nextCursor: "p2" } });
      else send({ jsonrpc: "2.0", id: msg.id, result: { tools: [{ name: "weird", description: "odd hints", inputSchema: { type: "object" }, annotations: { readOnlyHint: "yes", custom: 1 } }] } });
    }
  }
}
