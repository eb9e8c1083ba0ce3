// Print a stdio MCP server's tools/list as `{"tools":[...]}`, exactly as served.
// Usage: node capture-tools.mjs OUT.json COMMAND [ARGS...]
// Run from a directory where @modelcontextprotocol/sdk is installed (scripts/capture-fixtures.sh).
import { writeFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [out, command, ...args] = process.argv.slice(2);
const transport = new StdioClientTransport({ command, args, env: { ...process.env }, stderr: "ignore" });
const client = new Client({ name: "mf-capture-fixtures", version: "1.0.0" });
await client.connect(transport);
const tools = [];
let cursor;
const seen = new Set();
do {
  const page = await client.listTools(cursor ? { cursor } : {});
  tools.push(...page.tools);
  cursor = page.nextCursor;
  if (cursor && seen.has(cursor)) throw new Error(`repeated cursor ${cursor}`);
  if (cursor) seen.add(cursor);
} while (cursor);
await client.close();
writeFileSync(out, JSON.stringify({ tools }, null, 2) + "\n");
