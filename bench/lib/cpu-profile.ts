/**
 * Says where a CPU profile (the inspector's Profiler.stop result) spent its time: self time by
 * package (or src/ folder) and by function. Main thread only: SQLite's work on libuv's thread pool
 * is not in it. Only used with BENCH_PROFILE=1.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { table } from "./stats.ts";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a script belongs: `grammy`, `@keyv/sqlite`, `src/store`, `node:internal`, … */
export function owner(url: string): string {
  if (url === "") return "(native / GC / idle)";
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1] as string;
  // The bot process runs the build in bench/.out (child.ts): bench/.out/src/x.js is src/x.
  const src = /\/(src|bench)\/([^/]+)(\/|$)/.exec(url.replace("/bench/.out/", "/"));
  if (src) return `${src[1]}/${src[2]?.replace(/\.[jt]s$/, "")}`;
  if (url.startsWith("node:")) return url.split("/")[0]?.replace(/^node:internal.*/, "node:internal") ?? url;
  return url;
}

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

/** The CPU profile and the allocation sampling of one stretch (bot-process.ts's profileStop). */
export function summarizeProfile(data: unknown, title: string, top = 15): string {
  const { cpu, heap } = data as { cpu: unknown; heap: { head: HeapNode } };
  saveProfile(title, cpu, heap);
  return [summarizeCpu(cpu, title, top), summarizeAllocations(heap.head, title, top)].join("\n");
}

/** Sampled allocation (garbage included) by owner and by function, self size. */
function summarizeAllocations(head: HeapNode, title: string, top: number): string {
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  const walk = (node: HeapNode) => {
    const frame = node.callFrame;
    const who = owner(frame.url);
    const name = `${frame.functionName || "(anonymous)"} ${who}${frame.url ? `:${frame.lineNumber + 1}` : ""}`;
    byOwner.set(who, (byOwner.get(who) ?? 0) + node.selfSize);
    byFunction.set(name, (byFunction.get(name) ?? 0) + node.selfSize);
    total += node.selfSize;
    for (const child of node.children) walk(child);
  };
  walk(head);
  const rows = (m: Map<string, number>) =>
    [...m]
      .filter(([, bytes]) => bytes > 0)
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, bytes]) => [
        k,
        `${(bytes / 2 ** 20).toFixed(1)} MiB`,
        `${((bytes / total) * 100).toFixed(1)}%`,
      ]);
  return [
    table(
      `${title}: ${(total / 2 ** 20).toFixed(0)} MiB allocated (sampled) — by owner`,
      ["owner", "allocated", "of all"],
      rows(byOwner),
    ),
    table(`${title} — top allocating functions`, ["function", "allocated", "of all"], rows(byFunction)),
  ].join("\n");
}

function summarizeCpu(data: unknown, title: string, top: number): string {
  const profile = data as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  let totalUs = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    selfUs.set(id, (selfUs.get(id) ?? 0) + dt);
    totalUs += dt;
  });
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)?.callFrame;
    if (frame === undefined) continue;
    const isIdle = frame.functionName === "(idle)";
    const who = isIdle ? "(idle)" : owner(frame.url);
    byOwner.set(who, (byOwner.get(who) ?? 0) + us);
    const name = `${frame.functionName || "(anonymous)"} ${who}${frame.url ? `:${frame.lineNumber + 1}` : ""}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  }
  const busyUs = totalUs - (byOwner.get("(idle)") ?? 0);
  const rows = (m: Map<string, number>) =>
    [...m]
      .filter(([k]) => k !== "(idle)" && !k.startsWith("(idle)"))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => [k, `${(us / 1000).toFixed(0)} ms`, `${((us / busyUs) * 100).toFixed(1)}%`]);
  return [
    table(
      `${title}: ${(busyUs / 1000).toFixed(0)} ms busy of ${(totalUs / 1000).toFixed(0)} ms — self time by owner`,
      ["owner", "self", "of busy"],
      rows(byOwner),
    ),
    table(`${title} — top functions by self time`, ["function", "self", "of busy"], rows(byFunction)),
  ].join("\n");
}

/**
 * With BENCH_PROFILE_DIR, the raw profiles are also written there (`<title>.cpuprofile` and
 * `.heapprofile`, which Chrome's DevTools open) for a look at callers, not only self time.
 */
function saveProfile(title: string, cpu: unknown, heap: unknown): void {
  const dir = process.env.BENCH_PROFILE_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const name = title.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "");
  writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(cpu));
  writeFileSync(join(dir, `${name}.heapprofile`), JSON.stringify(heap));
}
