/**
 * SAFETY_ALLOWLIST_DEFAULT: the operator's choice for users who never set the allowlist. Under
 * `off` a new user's send to an address never saved goes to the exchange; under `on` (the default)
 * it is refused. Either way the user's own change follows today's rules: turning it off waits for
 * the cooling-off, turning it on holds at once.
 */
import { afterEach, describe, expect, it } from "vitest";
import { HOUR_MS } from "../../src/safety/cooling.ts";
import { type Harness, startHarness } from "../support/harness.ts";

const UNSAVED = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh";
const send = { kind: "send", currency: "btc", address: UNSAVED, amount: "0.001" } as const;

describe("the allowlist's default for new users (SAFETY_ALLOWLIST_DEFAULT)", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  async function harness(allowlistDefault?: boolean): Promise<Harness> {
    h = await startHarness(allowlistDefault === undefined ? {} : { allowlistDefault });
    h.sandbox.setPrice("btc", "60000");
    return h;
  }

  it("off: a new user sends to an unsaved address; turning it on holds at once and refuses the next", async () => {
    const { deps, sandbox } = await harness(false);
    const ada = await (h as Harness).loggedInUser();
    expect((await deps.safety.allowlist.get(ada.id)).on).toBe(false);
    const quoted = await deps.orders.quoteAs(ada.id, send);
    if (!quoted.ok) throw new Error(`refused: ${quoted.refusal.reason}`);
    expect((await deps.orders.confirm(quoted.action.id, ada.id)).ok).toBe(true);
    const before = sandbox.countRequests("POST", "/v1/send");
    expect((await deps.orders.place(quoted.action.id, ada.id, sandbox.currentCode())).kind).toBe("placed");
    expect(sandbox.countRequests("POST", "/v1/send")).toBe(before + 1);

    expect(await deps.safety.setAllowlist(ada.id, true)).toEqual({ ok: true, effectiveAt: deps.clock.now() });
    expect(await deps.orders.quoteAs(ada.id, send)).toMatchObject({
      ok: false,
      refusal: { reason: "address-unsaved" },
    });
  });

  it("on (and unset): a new user's send to an unsaved address is refused; off again only after the cooling-off", async () => {
    for (const setting of [true, undefined]) {
      const { deps } = await harness(setting);
      const ada = await (h as Harness).loggedInUser();
      expect(await deps.orders.quoteAs(ada.id, send)).toMatchObject({
        ok: false,
        refusal: { reason: "address-unsaved", vars: { currency: "btc" } },
      });
      const off = await deps.safety.setAllowlist(ada.id, false);
      expect(off).toEqual({ ok: true, effectiveAt: deps.clock.now() + 24 * HOUR_MS });
      expect((await deps.safety.allowlist.get(ada.id)).on).toBe(true);
      await (h as Harness).stop();
      h = undefined;
    }
  });
});
