import type { MessageEntity } from "grammy/types";
import { badRequest } from "./errors.ts";

/** What the user sees: the text with the markup taken out, and the entities Telegram derived from it. */
export interface FormattedText {
  text: string;
  entities: MessageEntity[];
}

/**
 * Applies `parse_mode` the way Telegram does, closely enough to catch what matters in tests: broken
 * markup is refused with 400 "can't parse entities" (the bot's message would never arrive), and the
 * text a user reads has the tags removed.
 *
 * @example
 * parseFormatted("<b>Hi</b> &amp; bye", "HTML"); // { text: "Hi & bye", entities: [{ type: "bold", offset: 0, length: 2 }] }
 */
export function parseFormatted(source: string, parseMode: string | undefined): FormattedText {
  switch (parseMode) {
    case undefined:
    case "":
      return { text: source, entities: [] };
    case "HTML":
      return parseHtml(source);
    case "MarkdownV2":
      return parseMarkdownV2(source);
    case "Markdown":
      return parseMarkdownLegacy(source);
    default:
      throw badRequest(`unsupported parse_mode`);
  }
}

function cantParse(why: string): never {
  throw badRequest(`can't parse entities: ${why}`);
}

/** Telegram reports positions in UTF-8 bytes of the source. */
function byteOffset(source: string, index: number): number {
  return Buffer.byteLength(source.slice(0, index));
}

type EntityType = MessageEntity["type"];

const HTML_TAGS: Record<string, EntityType> = {
  b: "bold",
  strong: "bold",
  i: "italic",
  em: "italic",
  u: "underline",
  ins: "underline",
  s: "strikethrough",
  strike: "strikethrough",
  del: "strikethrough",
  span: "spoiler",
  "tg-spoiler": "spoiler",
  a: "text_link",
  code: "code",
  pre: "pre",
  blockquote: "blockquote",
  "tg-emoji": "custom_emoji",
};

const HTML_ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

interface OpenTag {
  order: number;
  name: string;
  start: number;
  attrs: Record<string, string>;
}

function parseHtml(source: string): FormattedText {
  let text = "";
  const entities: MessageEntity[] = [];
  const stack: OpenTag[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    if (c === "&") {
      const m = /^&(?:(lt|gt|amp|quot)|#(\d{1,7})|#x([0-9a-fA-F]{1,6}));/.exec(source.slice(i, i + 12));
      if (m === null) {
        // Telegram keeps an unknown "&name;" or a lone "&" as it is.
        text += c;
        i++;
        continue;
      }
      text += m[1]
        ? (HTML_ENTITIES[m[1]] as string)
        : String.fromCodePoint(Number.parseInt(m[2] ?? m[3] ?? "", m[2] ? 10 : 16));
      i += m[0].length;
      continue;
    }
    if (c !== "<") {
      text += c;
      i++;
      continue;
    }
    const end = source.indexOf(">", i);
    if (end < 0) cantParse(`Unclosed start tag at byte offset ${byteOffset(source, i)}`);
    const inner = source.slice(i + 1, end);
    if (inner.startsWith("/")) {
      const name = inner.slice(1).trim().toLowerCase();
      const open = stack.pop();
      if (open === undefined) cantParse(`Unexpected end tag at byte offset ${byteOffset(source, i)}`);
      if (name !== open.name) {
        cantParse(
          `Unmatched end tag at byte offset ${byteOffset(source, i)}, expected "</${open.name}>", found "</${name}>"`,
        );
      }
      const parent = stack.at(-1);
      const language = /^language-(.+)$/.exec(open.attrs.class ?? "")?.[1];
      if (
        open.name === "code" &&
        parent?.name === "pre" &&
        parent.start === open.start &&
        language !== undefined
      ) {
        // <pre><code class="language-x"> is one pre entity with a language, not two.
        parent.attrs.language = language;
      } else closeHtmlEntity(open, text.length, entities);
    } else {
      const m = /^([a-zA-Z][a-zA-Z0-9-]*)(\s[\s\S]*)?$/.exec(inner);
      const name = m?.[1]?.toLowerCase();
      if (m === null || name === undefined || !(name in HTML_TAGS)) {
        cantParse(
          `Unsupported start tag "${inner.split(/\s/)[0] ?? ""}" at byte offset ${byteOffset(source, i)}`,
        );
      }
      const attrs: Record<string, string> = {};
      for (const a of (m[2] ?? "").matchAll(/([a-zA-Z-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+)))?/g)) {
        attrs[(a[1] as string).toLowerCase()] = a[2] ?? a[3] ?? a[4] ?? "";
      }
      if (name === "span" && attrs.class !== "tg-spoiler") {
        cantParse(`Tag "span" must have class "tg-spoiler" at byte offset ${byteOffset(source, i)}`);
      }
      stack.push({ order: i, name, start: text.length, attrs });
    }
    i = end + 1;
  }
  const open = stack.at(-1);
  if (open !== undefined) cantParse(`Can't find end tag corresponding to start tag "${open.name}"`);
  return { text, entities: sortEntities(entities) };
}

/** Telegram lists entities by offset, an enclosing one before those inside it. */
function sortEntities(entities: MessageEntity[]): MessageEntity[] {
  // Equal spans keep the order their start tags came in (a stable sort on closing order would invert them).
  const opened = new Map(entities.map((e) => [e, openOrder.get(e) ?? 0]));
  return entities.sort(
    (a, b) => a.offset - b.offset || b.length - a.length || (opened.get(a) ?? 0) - (opened.get(b) ?? 0),
  );
}

/** The position of an HTML entity's start tag, for ordering entities that cover the same text. */
const openOrder = new WeakMap<MessageEntity, number>();

function closeHtmlEntity(open: OpenTag, end: number, all: MessageEntity[]): void {
  const entities = {
    push(entity: MessageEntity) {
      openOrder.set(entity, open.order);
      all.push(entity);
    },
  };
  const length = end - open.start;
  // Telegram drops entities that cover no text.
  if (length === 0) return;
  const type = HTML_TAGS[open.name] as EntityType;
  const offset = open.start;
  if (type === "text_link") {
    const url = open.attrs.href;
    if (url === undefined || url === "") return;
    entities.push({ type, offset, length, url });
  } else if (type === "pre") {
    const language = open.attrs.language;
    entities.push(language === undefined ? { type, offset, length } : { type, offset, length, language });
  } else if (type === "blockquote") {
    entities.push({
      type: "expandable" in open.attrs ? "expandable_blockquote" : "blockquote",
      offset,
      length,
    });
  } else if (type === "custom_emoji") {
    entities.push({ type, offset, length, custom_emoji_id: open.attrs["emoji-id"] ?? "" });
  } else {
    entities.push({ type, offset, length } as MessageEntity);
  }
}

const MDV2_RESERVED = "_*[]()~`>#+-=|{}.!";

const MDV2_NAMES: Partial<Record<EntityType, string>> = {
  bold: "Bold",
  italic: "Italic",
  underline: "Underline",
  strikethrough: "Strikethrough",
  spoiler: "Spoiler",
  code: "Code",
  pre: "Pre",
  text_link: "TextUrl",
};

/** MarkdownV2: every reserved character outside markup must be escaped, or Telegram refuses the message. */
function parseMarkdownV2(source: string): FormattedText {
  let text = "";
  const entities: MessageEntity[] = [];
  const open: { type: EntityType; start: number; at: number }[] = [];
  const toggle = (type: EntityType, at: number) => {
    const top = open.at(-1);
    if (top?.type === type) {
      open.pop();
      if (text.length > top.start)
        entities.push({ type, offset: top.start, length: text.length - top.start } as MessageEntity);
    } else open.push({ type, start: text.length, at });
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    if (c === "\\") {
      const next = source[i + 1];
      if (next === undefined)
        cantParse(`Can't find end of the escape sequence at byte offset ${byteOffset(source, i)}`);
      text += next;
      i += 2;
    } else if (c === "`") {
      const fence = source.startsWith("```", i);
      const close = source.indexOf(fence ? "```" : "`", i + (fence ? 3 : 1));
      if (close < 0)
        cantParse(
          `Can't find end of ${fence ? "Pre" : "Code"} entity at byte offset ${byteOffset(source, i)}`,
        );
      let body = source.slice(i + (fence ? 3 : 1), close);
      if (fence && /^[^\s`]*\n/.test(body)) body = body.slice(body.indexOf("\n") + 1);
      body = body.replace(/\\([`\\])/g, "$1");
      if (body.length > 0)
        entities.push({ type: fence ? "pre" : "code", offset: text.length, length: body.length });
      text += body;
      i = close + (fence ? 3 : 1);
    } else if (c === "*") {
      toggle("bold", i++);
    } else if (c === "_") {
      if (source[i + 1] === "_") {
        toggle("underline", i);
        i += 2;
      } else toggle("italic", i++);
    } else if (c === "~") {
      toggle("strikethrough", i++);
    } else if (c === "|" && source[i + 1] === "|") {
      toggle("spoiler", i);
      i += 2;
    } else if (c === "[") {
      open.push({ type: "text_link", start: text.length, at: i++ });
    } else if (c === "]" && open.at(-1)?.type === "text_link" && source[i + 1] === "(") {
      const close = source.indexOf(")", i + 2);
      if (close < 0) cantParse(`Can't find end of a url at byte offset ${byteOffset(source, i)}`);
      const top = open.pop() as { start: number };
      const url = source.slice(i + 2, close).replace(/\\([)\\])/g, "$1");
      if (text.length > top.start)
        entities.push({ type: "text_link", offset: top.start, length: text.length - top.start, url });
      i = close + 1;
    } else if (c === ">" && (i === 0 || source[i - 1] === "\n")) {
      // A quote line: the marker is markup, not text.
      i++;
    } else if (MDV2_RESERVED.includes(c)) {
      cantParse(`Character '${c}' is reserved and must be escaped with the preceding '\\'`);
    } else {
      text += c;
      i++;
    }
  }
  const top = open.at(-1);
  if (top !== undefined) {
    cantParse(
      `Can't find end of ${MDV2_NAMES[top.type] ?? top.type} entity at byte offset ${byteOffset(source, top.at)}`,
    );
  }
  return { text, entities: sortEntities(entities) };
}

/** Legacy Markdown: no nesting, no escapes inside entities; an unclosed marker is refused. */
function parseMarkdownLegacy(source: string): FormattedText {
  let text = "";
  const entities: MessageEntity[] = [];
  const markers: Record<string, EntityType> = { "*": "bold", _: "italic", "`": "code" };
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    const fence = source.startsWith("```", i);
    const marker = fence ? "```" : c in markers ? c : c === "[" ? "]" : undefined;
    if (c === "\\" && i + 1 < source.length && "_*`[".includes(source[i + 1] as string)) {
      text += source[i + 1];
      i += 2;
      continue;
    }
    if (marker === undefined) {
      text += c;
      i++;
      continue;
    }
    const start = i + (fence ? 3 : 1);
    const close = source.indexOf(marker, start);
    if (close < 0) cantParse(`Can't find end of the entity starting at byte offset ${byteOffset(source, i)}`);
    const body = source.slice(start, close);
    if (c === "[") {
      const m = /^\(([^)]*)\)/.exec(source.slice(close + 1));
      if (m === null) {
        text += source.slice(i, close + 1);
        i = close + 1;
        continue;
      }
      if (body.length > 0)
        entities.push({ type: "text_link", offset: text.length, length: body.length, url: m[1] ?? "" });
      text += body;
      i = close + 1 + m[0].length;
      continue;
    }
    const type = fence ? "pre" : (markers[c] as EntityType);
    if (body.length > 0) entities.push({ type, offset: text.length, length: body.length } as MessageEntity);
    text += body;
    i = close + marker.length;
  }
  return { text, entities };
}

/**
 * Marks `/commands` (also `/cmd@botname`) as `bot_command` entities, as a Telegram client does when a
 * user sends them; grammY's `bot.command()` only matches a command that carries this entity.
 *
 * @example
 * commandEntities("/price btc"); // [{ type: "bot_command", offset: 0, length: 6 }]
 */
export function commandEntities(text: string): MessageEntity[] {
  const entities: MessageEntity[] = [];
  for (const m of text.matchAll(/(^|\s)(\/[a-zA-Z0-9_]{1,32}(?:@[a-zA-Z0-9_]{3,32})?)(?=$|\s)/g)) {
    entities.push({
      type: "bot_command",
      offset: (m.index ?? 0) + (m[1] as string).length,
      length: (m[2] as string).length,
    });
  }
  return entities;
}
