// Node implementations of the notes tools: one export per tool, called with the arguments
// object. `mf exec` and `mf eval --execute` run them under Node's permission model.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

export function read_note({ name }) {
  return { name, text: readFileSync(join(here, "notes", `${name}.txt`), "utf8").trim() };
}

export function save_note({ name, text }) {
  writeFileSync(join(here, "notes", `${name}.txt`), text);
  return { saved: name };
}

export function count_words({ text }) {
  return text.split(/\s+/).filter(Boolean).length;
}
