// mf exec harness (Node): loads the entry module, calls one export with the arguments read from
// stdin, and writes one envelope line `NONCE{json}` on stdout. Everything the tool logs with
// console.* goes to stderr so stdout holds the envelope. Written by mf into a fresh temp folder.
import { pathToFileURL } from "node:url";

const [entry, tool, exportName, nonce] = process.argv.slice(2);
const write = process.stdout.write.bind(process.stdout);
for (const level of ["log", "info", "debug"]) {
  console[level] = (...args) => console.error(...args);
}

function describe(error) {
  if (error === null || typeof error !== "object") {
    return { type: "Thrown", message: String(error).slice(0, 2000) };
  }
  const out = { type: String(error.name ?? error.constructor?.name ?? "Error"), message: String(error.message ?? error).slice(0, 2000) };
  if (error.code !== undefined) out.code = String(error.code);
  return out;
}

function finish(envelope) {
  try {
    envelope.peakRssBytes = process.resourceUsage().maxRSS * 1024;
  } catch {
    envelope.peakRssBytes = null;
  }
  write("\n" + nonce + JSON.stringify(envelope) + "\n", () => process.exit(0));
}

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString("utf8");
  const args = text.trim() === "" ? {} : JSON.parse(text);
  let mod;
  try {
    mod = await import(pathToFileURL(entry).href);
  } catch (error) {
    return finish({ ok: false, stage: "load", error: describe(error) });
  }
  const holder = exportName ? (mod[exportName] ?? mod.default?.[exportName]) : mod;
  let fn = holder?.[tool];
  if (fn === undefined && !exportName) fn = mod.default?.[tool];
  if (typeof fn !== "function") {
    const where = exportName ? `the export ${JSON.stringify(exportName)}` : "the module's exports";
    return finish({ ok: false, stage: "lookup", error: { type: "LookupError", message: `${where} has no function ${JSON.stringify(tool)}` } });
  }
  let result;
  const started = performance.now();
  try {
    result = await fn.call(holder, args);
  } catch (error) {
    return finish({ ok: false, error: describe(error), durationMs: performance.now() - started });
  }
  const durationMs = performance.now() - started;
  let json;
  try {
    json = JSON.stringify(result === undefined ? null : result);
  } catch (error) {
    return finish({ ok: false, stage: "serialize", durationMs, error: { type: "SerializationError", message: `the result is not JSON: ${describe(error).message}` } });
  }
  return finish({ ok: true, result: JSON.parse(json), durationMs });
}

main().catch((error) => finish({ ok: false, stage: "harness", error: describe(error) }));
