/**
 * A reader for the part of YAML that deploy/compose.yaml is written in, so the compose test can
 * start what the file says without a YAML package: block mappings and block sequences by
 * indentation, flow sequences of scalars (`["a", "b"]`), plain, "double" and 'single' quoted
 * scalars (all read as strings; an empty value is null), comments, anchors on mappings (`&bot`),
 * aliases (`*bot`) and merge keys (`<<: *bot`, explicit keys win). Anything else throws with the
 * line, so an edit outside the subset fails the test instead of being misread.
 *
 * @example
 * readYamlSubset("a: &x\n  b: \"1\"\nc:\n  <<: *x\n  d: [e, 'f']\n");
 * // { a: { b: "1" }, c: { b: "1", d: ["e", "f"] } }
 */
export type YamlValue = string | null | YamlValue[] | { [key: string]: YamlValue };

interface Line {
  number: number;
  indent: number;
  text: string;
}

export function readYamlSubset(source: string): YamlValue {
  const lines: Line[] = [];
  source.split("\n").forEach((raw, i) => {
    const text = withoutComment(raw).trimEnd();
    if (text.trim() === "") return;
    if (/\t/.test(text.slice(0, text.length - text.trimStart().length))) fail(i + 1, "a tab in indentation");
    lines.push({ number: i + 1, indent: text.length - text.trimStart().length, text: text.trim() });
  });
  const anchors = new Map<string, YamlValue>();
  let at = 0;

  function block(indent: number): YamlValue {
    const first = lines[at];
    if (first === undefined || first.indent < indent) return null;
    return first.text.startsWith("- ") || first.text === "-" ? sequence(first.indent) : mapping(first.indent);
  }

  function sequence(indent: number): YamlValue[] {
    const items: YamlValue[] = [];
    for (let line = lines[at]; line !== undefined && line.indent === indent; line = lines[at]) {
      if (!line.text.startsWith("- ")) fail(line.number, `"${line.text}" among sequence items`);
      at++;
      const item = line.text.slice(2).trim();
      if (/^[^"'[\]{}]*?:(\s|$)/.test(item)) fail(line.number, "a mapping inside a sequence");
      items.push(scalarOrFlow(item, line.number));
    }
    return items;
  }

  function mapping(indent: number): { [key: string]: YamlValue } {
    const entries: { [key: string]: YamlValue } = {};
    const merged: { [key: string]: YamlValue }[] = [];
    for (let line = lines[at]; line !== undefined && line.indent === indent; line = lines[at]) {
      const match = /^("[^"]*"|'[^']*'|[^\s"'#][^:]*?):(?:\s+(.*))?$/.exec(line.text);
      if (!match) fail(line.number, `"${line.text}"`);
      at++;
      const key = unquote(match[1] ?? "", line.number);
      const rest = (match[2] ?? "").trim();
      const anchor = /^&([\w-]+)$/.exec(rest)?.[1];
      let value: YamlValue;
      if (rest === "" || anchor !== undefined) {
        const next = lines[at];
        value = next !== undefined && next.indent > indent ? block(next.indent) : null;
        if (anchor !== undefined) anchors.set(anchor, value);
      } else if (rest.startsWith("*")) {
        const name = rest.slice(1);
        if (!anchors.has(name)) fail(line.number, `the unknown alias *${name}`);
        value = structuredClone(anchors.get(name) ?? null);
      } else {
        value = scalarOrFlow(rest, line.number);
      }
      if (key === "<<") {
        if (value === null || typeof value !== "object" || Array.isArray(value))
          fail(line.number, "a merge of a non-mapping");
        merged.push(value);
      } else {
        if (key in entries) fail(line.number, `the repeated key "${key}"`);
        entries[key] = value;
      }
    }
    const next = lines[at];
    if (next !== undefined && next.indent > indent) fail(next.number, "an indentation that matches no block");
    return Object.assign({}, ...merged, entries);
  }

  const value = block(0);
  const left = lines[at];
  if (left !== undefined) fail(left.number, `"${left.text}" after the document`);
  return value;
}

/** A scalar, or a flow sequence of scalars. */
function scalarOrFlow(text: string, number: number): YamlValue {
  if (!text.startsWith("[")) return scalar(text, number);
  if (!text.endsWith("]")) fail(number, "a flow sequence over several lines");
  const inner = text.slice(1, -1).trim();
  if (inner === "") return [];
  const items: string[] = [];
  let current = "";
  let quote: string | undefined;
  for (const char of inner) {
    if (quote !== undefined) {
      current += char;
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") {
      quote = char;
      current += char;
    } else if (char === ",") {
      items.push(current.trim());
      current = "";
    } else current += char;
  }
  items.push(current.trim());
  return items.map((item) => scalar(item, number));
}

function scalar(text: string, number: number): string | null {
  if (text.startsWith('"') || text.startsWith("'")) return unquote(text, number);
  if (/^[&*!|>{[%@`]/.test(text)) fail(number, `the value "${text}"`);
  return text === "~" || text === "null" ? null : text;
}

function unquote(text: string, number: number): string {
  if (text.startsWith('"')) {
    if (!text.endsWith('"') || text.length < 2) fail(number, `the string ${text}`);
    return JSON.parse(text) as string;
  }
  if (text.startsWith("'")) {
    if (!text.endsWith("'") || text.length < 2) fail(number, `the string ${text}`);
    return text.slice(1, -1).replaceAll("''", "'");
  }
  return text;
}

/** The line without a comment: `#` at its start or after a space, outside quotes. */
function withoutComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === "#" && (i === 0 || /\s/.test(line[i - 1] ?? ""))) return line.slice(0, i);
  }
  return line;
}

function fail(number: number, what: string): never {
  throw new Error(`YAML line ${number}: ${what} is outside the subset test/support/yaml-subset.ts reads`);
}
