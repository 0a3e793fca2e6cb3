/**
 * The registry of money kinds (src/orders/kinds/): each kind under its own name, with everything
 * the pipeline looks up. The `@ts-expect-error` lines are checked by `npm run typecheck` (tsc
 * reads test/): a descriptor that leaves a field out must not compile, and if it ever did, the
 * unused directive would fail the type check instead.
 */
import { describe, expect, it } from "vitest";
import { ACTION_KINDS, KINDS } from "../../src/orders/kinds/index.ts";
import type { KindDescriptor } from "../../src/orders/kinds/kind.ts";
import type { SendAction, SendRequest } from "../../src/orders/kinds/send.ts";
import { send } from "../../src/orders/kinds/send.ts";
import { PARTNER_KINDS } from "../../src/orders/ledger.ts";

describe("money kinds", () => {
  it("a descriptor without its transaction types (or any other field) does not compile", () => {
    const { transactionTypes: _, ...incomplete } = send;
    // @ts-expect-error: `transactionTypes` is missing, so this is no descriptor of a send.
    const broken: KindDescriptor<"send", SendRequest, SendAction> = incomplete;
    expect(Object.keys(broken)).not.toContain("transactionTypes");
  });

  it("a descriptor under another kind's name does not compile", () => {
    // @ts-expect-error: a send's descriptor is not a withdrawal's.
    const misplaced: (typeof KINDS)["withdraw"] = send;
    expect(misplaced.kind).toBe("send");
  });

  it("lists every kind under its own name, with the secret step and POST policy of each", () => {
    expect(ACTION_KINDS.map((kind) => [kind, KINDS[kind].kind])).toEqual(
      ACTION_KINDS.map((kind) => [kind, kind]),
    );
    expect(Object.fromEntries(ACTION_KINDS.map((kind) => [kind, KINDS[kind].secret]))).toEqual({
      buy: "none",
      sell: "none",
      send: "code",
      withdraw: "code",
      "partner-buy": "none",
      "partner-sell": "none",
      "partner-withdraw": "pin",
    });
    // Only the partner API promises that the same key is the same order (its buy and sell).
    expect(ACTION_KINDS.filter((kind) => KINDS[kind].retriedWithKey)).toEqual([
      "partner-buy",
      "partner-sell",
    ]);
    expect([...PARTNER_KINDS]).toEqual(["partner-buy", "partner-sell", "partner-withdraw"]);
    for (const kind of ACTION_KINDS) expect(KINDS[kind].transactionTypes.length).toBeGreaterThan(0);
  });

  it("says of each kind what the rest of the code asks: its family, where its money goes, its flow and words", () => {
    const facts = Object.fromEntries(
      ACTION_KINDS.map((kind) => {
        const { family, destination, flow, words } = KINDS[kind];
        return [kind, [family, destination.to, flow, words]];
      }),
    );
    expect(facts).toEqual({
      buy: ["buy", "nowhere", "trade", "trade"],
      sell: ["sell", "nowhere", "trade", "trade"],
      send: ["send", "address", "send", "send"],
      withdraw: ["withdraw", "bank-account", "withdraw", "withdraw"],
      "partner-buy": ["buy", "nowhere", "partner-trade", "partner-trade"],
      "partner-sell": ["sell", "nowhere", "partner-trade", "partner-trade"],
      "partner-withdraw": ["withdraw", "bank-account", "partner-withdraw", "partner-withdraw"],
    });
  });
});
