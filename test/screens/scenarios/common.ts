/**
 * What both modes' scripts share: a scenario is a named list of steps run on one catalogue run,
 * and `explore` shows a command and then each of its buttons, one tap per fresh copy of it.
 */
import type { FakeUser } from "../../../src/telegram-double/index.ts";
import type { Harness } from "../../support/harness.ts";
import type { Driver } from "../support/driver.ts";
import { catalogueLocales } from "../support/keys.ts";

export interface Scenario {
  name: string;
  run(d: Driver, h: Harness): Promise<void>;
}

/** A bitcoin address the sandbox takes (the send tests' own). */
export const BTC_ADDRESS = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";

/**
 * Buttons a tour of a screen leaves alone: a language switch (`switchLanguage` does it, and says
 * which language the screens after it are in).
 */
const SKIP = /^(?:language:|set:lang:)/;
/** Buttons that show the same screen for another currency or span: a tour taps the first only. */
const SAME_SCREEN = /^(?:price:|chart:|trade:p:|ptrade:p:|dep:cur:)/;

/**
 * The user switches to each other language with `command` (its argument the locale), and back:
 * the answers are checked in the language switched to.
 */
export async function switchLanguage(d: Driver, user: FakeUser, command: string): Promise<void> {
  for (const other of catalogueLocales().filter((locale) => locale !== d.locale)) {
    if (command === "/language") {
      // /language offers buttons: one per locale.
      await d.fresh(user, command);
      await d.tap(user, new RegExp(`^language:${other}$`), `${command} → ${other}`, undefined, other);
      await d.fresh(user, command);
      await d.tap(
        user,
        new RegExp(`^language:${d.locale}$`),
        `${command} → ${d.locale}`,
        undefined,
        d.locale,
      );
      continue;
    }
    await d.send(user, `${command} ${other}`, undefined, other);
    await d.send(user, `${command} ${d.locale}`, undefined, d.locale);
  }
}

/**
 * Sends `command`, then for each button on its answer sends it again and taps that one (and,
 * with `depth` 2, each button of what the tap showed), ending any flow with /cancel.
 */
export async function explore(
  d: Driver,
  user: FakeUser,
  command: string,
  options: { depth?: number; skip?: RegExp } = {},
): Promise<void> {
  const skip = options.skip ?? SKIP;
  await d.fresh(user, command);
  const count = d.lastButtons(user).length;
  const kinds = new Set<string>();
  for (let index = 0; index < count; index++) {
    await d.fresh(user, command, `${command} (again)`);
    // Flow buttons carry a nonce per run: the button is found by its place on the fresh copy.
    const data = d.lastButtons(user)[index];
    if (data === undefined || skip.test(data)) continue;
    const kind = SAME_SCREEN.exec(data)?.[0];
    if (kind !== undefined && kinds.has(kind)) continue;
    if (kind !== undefined) kinds.add(kind);
    await d.tap(user, exact(data), `${command} → button ${index + 1}`);
    if ((options.depth ?? 1) > 1) {
      const inner = d.lastButtons(user).length;
      for (let second = 0; second < Math.min(inner, 4); second++) {
        const next = d.lastButtons(user)[second];
        if (next === undefined || skip.test(next)) continue;
        await d.tap(user, exact(next), `${command} → button ${index + 1} → button ${second + 1}`);
      }
    }
    await d.send(user, "/cancel", `${command}: /cancel`);
  }
}

function exact(data: string): RegExp {
  return new RegExp(`^${data.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
}

/**
 * Runs each of `user`'s recurring plans when it is due (moving the clock there, and ticking the
 * jobs once): on time, so the run buys or reminds instead of being missed.
 */
export async function runPlansOnTime(d: Driver, h: Harness, userId: number, title: string): Promise<void> {
  for (const plan of await h.deps.plans.list(userId)) {
    const due = h.deps.plans.dueAt(plan);
    if (due === undefined) continue;
    if (due > h.clock.now()) h.clock.advance(due - h.clock.now() + 1_000);
    await d.tick(title);
  }
}
