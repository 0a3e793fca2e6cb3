/**
 * Partner mode (the operator's partner account serves its customers): sign-up and verification,
 * every customer command with its flows, cards and PIN steps, the notices of the background jobs,
 * and the operator desk.
 */
import Big from "big.js";
import { registerCommands } from "../../../src/bot/commands.ts";
import type { FakeUser } from "../../../src/telegram-double/index.ts";
import type { Harness } from "../../support/harness.ts";
import { readAsClient } from "../../support/partner-answers.ts";
import type { Driver } from "../support/driver.ts";
import { explore, runPlansOnTime, type Scenario, switchLanguage } from "./common.ts";

/** The operator of the catalogue's partner runs (OPERATOR_IDS). */
/** Status values the partner screens word (ui/coded-values.ts), one of each worded state. */
const STATUS_VALUES = [
  "inactive",
  "blocked",
  "closed",
  "unverified",
  "failed",
  "declined",
  "not_started",
  "required",
  "confirmed",
  "cancelled",
  "expired",
  "paused",
  "listed",
  "basic",
];

export const OPERATOR = 777_001;

const TOURED = [
  "/home",
  "/me",
  "/profile",
  "/balance",
  "/prices",
  "/price btc",
  "/price",
  "/deposit",
  "/banks",
  "/transactions",
  "/limits",
  "/notifications",
  "/recurring",
  "/safety",
  "/language",
  "/buy",
  "/sell",
  "/withdraw",
  "/pin",
];

/** A group where the bot is a plain member (it may not delete others' messages). */
const PLAIN_GROUP = -1001000000077;

/** The whole sign-up: e-mail, names, phone, consent and PIN; what the exchange answers ends it. */
async function signUp(d: Driver, user: FakeUser, email: string, title: string): Promise<void> {
  await d.fresh(user, "/start", `${title}: /start`);
  await d.answer(user, title, email, "Ada", "Lovelace", "+49 151 2345 6789");
  await d.tapIf(user, /:agree$/, `${title} → I agree`);
  await d.answer(user, `${title}: PIN`, "482913", "482913");
}

/**
 * The partner API answering some calls as the exchange might some day (a status or a shape the
 * spec leaves open): each named method returns its answer (or calls it with the call's
 * arguments). Returns the undo.
 */
function answerAs(h: Harness, answers: Record<string, unknown>): () => void {
  const partner = h.deps.partner;
  if (partner === undefined) throw new Error("partner mode expected");
  const real = partner.api;
  partner.api = new Proxy(real, {
    get: (target, key) => {
      if (typeof key === "string" && Object.hasOwn(answers, key)) {
        const answer = answers[key];
        return async (...args: unknown[]) =>
          readAsClient(key, args, typeof answer === "function" ? await answer(...args) : answer);
      }
      const value: unknown = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return () => {
    partner.api = real;
  };
}

async function customer(d: Driver, h: Harness, options: { eur?: string; bankAccount?: boolean } = {}) {
  d.title("a partner customer (helper)");
  const user = await h.partnerUser(undefined, { languageCode: d.locale, ...options });
  await d.settle();
  return user;
}

export const PARTNER_SCENARIOS: Scenario[] = [
  {
    name: "a stranger: menu, help, sign-up with its mistakes, verification",
    async run(d, h) {
      d.title("the command menu");
      await registerCommands(h.bot.api, h.deps);
      await d.settle();
      const user = h.user(undefined, { languageCode: d.locale, firstName: "Ada" });
      await d.send(user, "/help", "not signed up: /help");
      await d.send(user, "/balance", "not signed up: /balance");
      await d.send(user, "/verify", "not signed up: /verify");
      await d.send(user, "/start");
      await d.answer(
        user,
        "/start",
        "not an e-mail",
        `ada-${d.locale}@partner.test`,
        "Ada 🚀",
        "Ada",
        "Lovelace",
        "12",
      );
      d.title("sign-up phone ← a sticker");
      await user.sendSticker();
      await d.settle();
      d.title("sign-up phone ← someone else's contact");
      await user.sendContact({ phone: "+491511111111", firstName: "Bob", userId: 424242 });
      await d.settle();
      await d.answer(user, "/start", "+49 151 2345 6789");
      await d.tapIf(user, /:decline$/, "sign-up → I do not agree");
      await d.send(user, "/start", "/start again");
      await d.answer(
        user,
        "/start again",
        `ada2-${d.locale}@partner.test`,
        "Ada",
        "Lovelace",
        "+49 151 2345 6789",
      );
      await d.send(user, "yes", "sign-up: typed instead of tapped");
      await d.tapIf(user, /:agree$/, "sign-up → I agree");
      await d.answer(user, "sign-up PIN", "12", "123456", "482913", "482914", "482913", "482913");
      await d.send(user, "/start", "/start while verification is open");
      const twin = h.user(undefined, { languageCode: d.locale, firstName: "Ada" });
      await signUp(d, twin, `ada2-${d.locale}@partner.test`, "sign-up with a taken e-mail");
      // The exchange refuses the new user (403), then cannot be reached (500).
      h.sandbox.faults.failNext(1, 403, { method: "POST", path: "/api/v1/partners/users" });
      await signUp(d, twin, `ada3-${d.locale}@partner.test`, "sign-up the exchange refuses");
      h.sandbox.faults.failNext(5, 500, { method: "POST", path: "/api/v1/partners/users" });
      await signUp(d, twin, `ada4-${d.locale}@partner.test`, "sign-up while the exchange is down");
      h.sandbox.faults.reset();
      await d.send(user, "/balance", "/balance before verification");
      await d.send(user, "/verify");
      await d.answer(user, "/verify", "short");
      await d.send(user, "/verify");
      await d.answer(user, "/verify", "invalid-token-0123456789");
      h.sandbox.faults.failNext(1, 500, { method: "POST", path: /kyc-import$/ });
      await d.send(user, "/verify sumsub-share-token-9876543210", "/verify while the exchange is down");
      h.sandbox.faults.reset();
      await d.send(user, "/verify sumsub-share-token-0123456789");
      await d.tick("verification checked");
      const signedUp = await h.deps.partner?.users.partnerIdOf(user.id);
      if (signedUp !== undefined) h.sandbox.faults.setPartnerUserStatus(signedUp, { kyc_status: "passed" });
      await d.tapData(user, /:agree$/, "sign-up → I agree (an old tap, once verified)");
      await d.sendInGroup(user, "/verify group-share-token-0123456789");
      // In a group where the bot may not delete others' messages, the token stays readable.
      h.telegram.denyDeletes(PLAIN_GROUP);
      d.title("group without the admin right: /verify TOKEN");
      await user.sendInGroup("/verify group-share-token-0123456789", PLAIN_GROUP);
      await d.settle();
      await d.sendInGroup(user, "/help");
      await d.sendInGroup(user, "/price btc");
    },
  },
  {
    name: "KYC changes, told by the background jobs",
    async run(d, h) {
      const pending = await h.partnerUser(undefined, { languageCode: d.locale, kycStatus: "pending" });
      await d.send(pending, "/balance", "/balance while KYC is pending");
      h.sandbox.faults.setPartnerUserStatus(pending.partnerUserId, { kyc_status: "passed" });
      await d.tick("KYC passed", 60 * 60_000);
      const declined = await h.partnerUser(undefined, { languageCode: d.locale, kycStatus: "pending" });
      await d.send(declined, "/start", "/start while KYC is pending");
      h.sandbox.faults.setPartnerUserStatus(declined.partnerUserId, { kyc_status: "declined" });
      await d.tick("KYC declined", 60 * 60_000);
      await d.send(declined, "/balance", "/balance after KYC declined");
      const edd = await h.partnerUser(undefined, { languageCode: d.locale });
      h.sandbox.faults.setPartnerUserStatus(edd.partnerUserId, { edd_status: "required" });
      await d.send(edd, "/balance", "/balance with enhanced due diligence required");
      h.sandbox.faults.setPartnerUserStatus(declined.partnerUserId, { edd_status: "required" });
      await d.send(declined, "/me", "/me with enhanced due diligence required");
    },
  },
  {
    name: "tour of every customer command",
    async run(d, h) {
      const user = await customer(d, h);
      h.sandbox.deposit({ amount: new Big(250), accountId: user.partnerUserId });
      await d.send(user, "/start", "/start when signed up");
      await d.send(user, "/help");
      for (const command of TOURED) await explore(d, user, command);
      // Fresh: the tour's last command (/pin) leaves its question open.
      await d.fresh(user, "/tx 1");
      await d.fresh(user, "/tx abc");
      await d.fresh(user, "/tx 99999");
      await d.send(user, "/price doge");
      await d.fresh(user, "/transactions btc");
      await d.send(user, "/profile address");
      // The country comes first (the postal code is checked against it), then street, number, postal code, city.
      await d.answer(
        user,
        "/profile address",
        "Germany",
        "deu",
        "…",
        "<b>Linden</b>",
        "Unter den Linden",
        "77 und noch viel mehr dazu",
        "77",
      );
      await d.answer(user, "/profile address", "Berlin", "10117", "Berlin");
      await d.send(user, "/profile");
      await d.tapIf(user, /^pf:phone$/, "/profile → phone");
      await d.answer(user, "/profile phone", "12", "+49 151 2345 6789");
      await d.fresh(user, "/profile name");
      await d.answer(user, "/profile name", "Ada 🚀", "Ada");
      h.sandbox.faults.failNext(1, 422, { method: "POST", path: "/api/v1/partners/users" });
      await d.fresh(user, "/profile surname", "/profile surname (the exchange refuses)");
      await d.answer(user, "/profile surname", "Lovelace");
      h.sandbox.faults.reset();
      await d.fresh(user, "/profile phone", "/profile phone (wrong until it gives up)");
      for (let i = 0; i < 20; i++) await d.send(user, "12", `/profile phone ← wrong number ${i + 1}`);
      await d.send(user, "/cancel", "/cancel with nothing to stop");
    },
  },
  {
    name: "buy, sell, withdraw with the PIN; order notices",
    async run(d, h) {
      const user = await customer(d, h);
      await d.fresh(user, "/buy");
      await d.tap(user, /^ptrade:p:buy:btc$/, "/buy → currency");
      await d.answer(user, "/buy BTC", "abc", "5", "100000", "100");
      await d.tap(user, /^ord:c:/, "/buy card → Confirm");
      await d.tapData(user, /^ord:c:/, "/buy card → Confirm again (an old tap)");
      await d.tick("buy settled", 10_000);
      await d.fresh(user, "/sell btc 0.0001");
      await d.answer(user, "/sell BTC", "0.0005");
      await d.tapIf(user, /^ord:c:/, "/sell card → Confirm");
      await d.tick("sell settled", 10_000);
      await d.fresh(user, "/sell doge 1");
      await d.fresh(user, "/buy doge 10");
      await d.send(user, "/balanse", "a typo of a command");
      await d.send(user, "hello", "text");
      await d.fresh(user, "/buy btc 40");
      await d.send(user, "/buy btc 45", "/buy again while a card is open");
      await d.tapData(user, /^ord:c:/, "the replaced card → Confirm", -2);
      await d.send(user, "confirm", "a typed Confirm");
      await d.tick("typed order settled", 10_000);
      h.sandbox.faults.settleOrdersAs("error");
      await d.fresh(user, "/buy eth 50");
      await d.tapIf(user, /^ord:c:/, "/buy card → Confirm (fails)");
      await d.tick("order failed", 10_000);
      h.sandbox.faults.settleOrdersAs("success");
      h.sandbox.faults.dropAnswerNext(1, { method: "POST" });
      await d.fresh(user, "/buy btc 15");
      await d.tapIf(user, /^ord:c:/, "/buy card → Confirm (the answer is lost)");
      await d.tick("the lost order reconciled", 10_000);
      await d.fresh(user, "/balance", "/balance (the lost order reconciled when its owner comes back)");
      await d.fresh(user, "/withdraw");
      await d.tapIf(user, /^pwd:/, "/withdraw → bank account");
      await d.answer(user, "/withdraw amount", "1,5x", "20");
      await d.tapIf(user, /^ord:c:/, "/withdraw card → Confirm");
      await d.answer(user, "/withdraw PIN", user.pin);
      await d.tick("withdrawal settled", 10_000);
      await d.fresh(user, "/transactions");
      await d.fresh(user, "/buy btc 30");
      await d.tapIf(user, /^ord:x:/, "/buy card → Cancel");
      await d.fresh(user, "/buy btc 30", "/buy (the quote runs out)");
      const stale = d.button(user, /^ord:c:/);
      h.clock.advance(10 * 60_000);
      await d.tapIf(user, /^ord:c:/, "/buy card → Confirm after the quote ran out");
      if (stale !== undefined) {
        d.title("the ran-out card → Confirm again (tap)");
        await user.tapData(stale.messageId, stale.data);
        await d.settle();
      }
      await d.send(user, "/cancel");
      for (let i = 0; i < 2; i++) {
        await d.fresh(user, "/withdraw", "/withdraw again (wrong PINs)");
        await d.tapIf(user, /^pwd:/, "/withdraw → bank account");
        await d.answer(user, "/withdraw amount", "10");
        await d.tapIf(user, /^ord:c:/, "/withdraw card → Confirm");
        await d.answer(user, "/withdraw wrong PIN", "12", "000000", "111111", "222222");
      }
    },
  },
  {
    name: "bank accounts: add, cooling-off, remove",
    async run(d, h) {
      const user = await customer(d, h, { bankAccount: false });
      await d.fresh(user, "/banks");
      await d.tapIf(user, /^pb:add$/, "/banks → Add");
      await d.answer(
        user,
        "/banks add",
        "Bank",
        "DE89 3704 0044 0532 0130 01",
        "GB82 WEST 1234 5698 7654 32",
      );
      await d.answer(user, "/banks add", "NWBK", "NWBKGB2L");
      await d.tapIf(user, /:add$/, "/banks add → Add this account");
      await d.fresh(user, "/withdraw", "/withdraw during cooling-off");
      await d.tapIf(user, /^pwd:/, "/withdraw during cooling-off → bank account");
      await d.answer(user, "/withdraw during cooling-off: amount", "10");
      await d.tick("cooling-off over", 25 * 3_600_000);
      await d.fresh(user, "/banks");
      await d.tapIf(user, /^pb:v:/, "/banks → view");
      await d.tapIf(user, /^pb:r:/, "/banks → remove");
      await d.tapIf(user, /^pb:k$/, "/banks → keep");
      await d.tapIf(user, /^pb:v:/, "/banks → view");
      await d.tapIf(user, /^pb:r:/, "/banks → remove");
      await d.tapIf(user, /^pb:rr:/, "/banks → really remove");
    },
  },
  {
    name: "recurring plans, notifications, safety, freeze",
    async run(d, h) {
      const user = await customer(d, h);
      await d.fresh(user, "/recurring btc 25 daily 9");
      await d.answer(user, "/recurring time zone", "München");
      await d.answer(user, "/recurring time zone", "Berlin");
      await d.tapIf(user, /^pl:c:/, "/recurring card → Confirm");
      await d.fresh(user, "/recurring btc 5 daily 9", "/recurring under the minimum");
      await d.tapIf(user, /^pl:c:/, "/recurring card → Confirm");
      await d.fresh(user, "/recurring eth 2000 weekly monday 18");
      await d.tapIf(user, /^pl:c:/, "/recurring card → Confirm");
      await d.fresh(user, "/recurring");
      await runPlansOnTime(d, h, user.id, "recurring plan runs on time");
      h.sandbox.faults.closeAsset("buy", "btc");
      await runPlansOnTime(d, h, user.id, "recurring plan runs while BTC is closed");
      h.sandbox.faults.openAsset("buy", "btc");
      await d.fresh(user, "/notifications");
      await d.tapIf(user, /^set:n:digest:1$/, "notifications → daily digest on");
      await d.tick("recurring plans run late (missed)", 7 * 24 * 3_600_000);
      await d.tick("daily digest", 24 * 3_600_000);
      await d.fresh(user, "/recurring");
      await d.tapIf(user, /^pl:s:/, "/recurring → skip next");
      await d.tapIf(user, /^pl:p:/, "/recurring → pause");
      await d.tapIf(user, /^pl:k:/, "/recurring → stop");
      await d.tick("daily digest", 24 * 3_600_000);
      await explore(d, user, "/notifications", { depth: 2 });
      await d.fresh(user, "/safety cap buy 500");
      await d.fresh(user, "/safety cap withdraw 100");
      await d.fresh(user, "/safety");
      await d.fresh(user, "/pin");
      await d.answer(user, "/pin", "12", "000000");
      await d.fresh(user, "/pin");
      await d.answer(user, "/pin", user.pin, "123456", "135790", "135791");
      await d.fresh(user, "/pin");
      await d.answer(user, "/pin", user.pin, "135790", "135790");
      await d.fresh(user, "/safety allowlist off");
      await d.answer(user, "/safety allowlist off (PIN)", "12", "000000", user.pin);
      await d.fresh(user, "/safety allowlist off");
      await d.fresh(user, "/safety allowlist on");
      await d.fresh(user, "/safety cooling 12");
      await switchLanguage(d, user, "/language");
      await d.fresh(user, "/freeze");
      await d.tapIf(user, /^frz$/, "/freeze → confirm");
      await d.fresh(user, "/buy btc 20", "/buy while frozen");
      await d.fresh(user, "/unfreeze");
      await d.fresh(user, "/freeze", "/freeze again");
    },
  },
  {
    name: "the exchange answering in its other shape, and failing",
    async run(d, h) {
      const user = await customer(d, h);
      h.sandbox.deposit({ amount: new Big(100), accountId: user.partnerUserId });
      h.sandbox.faults.alternateShapes(true);
      try {
        for (const text of [
          "/balance",
          "/me",
          "/limits",
          "/transactions",
          "/deposit",
          "/prices",
          "/banks",
          "/home",
        ])
          await d.fresh(user, text, `${text} (the other shape)`);
        await d.tapIf(user, /^ptx:/, "/transactions → next page (the other shape)");
        await d.tapIf(user, /^pb:v:/, "/banks → view (the other shape)");
      } finally {
        h.sandbox.faults.alternateShapes(false);
      }
      for (const status of [500, 403, 404, 429]) {
        h.sandbox.faults.failNext(20, status, { method: "GET" });
        await d.fresh(user, "/balance", `/balance while the exchange answers ${status}`);
        h.sandbox.faults.reset();
      }
      h.sandbox.faults.failNext(20, 500, { method: "GET" });
      await d.fresh(user, "/prices", "/prices while the exchange is down");
      await d.fresh(user, "/deposit", "/deposit while the exchange is down");
      h.sandbox.faults.reset();
      h.sandbox.faults.failNext(3, 422, { method: "POST" });
      await d.fresh(user, "/buy btc 20");
      await d.tapIf(user, /^ord:c:/, "/buy card → Confirm (the exchange refuses)");
      h.sandbox.faults.reset();
      const stranger = h.user(undefined, { languageCode: d.locale });
      await d.send(stranger, "/buy btc 20", "not signed up: /buy");
      await d.send(stranger, "confirm", "not signed up: a typed Confirm");
    },
  },
  {
    name: "answers in shapes nobody planned for: every field named",
    async run(d, h) {
      const user = await customer(d, h);
      const partner = h.deps.partner;
      if (partner === undefined) throw new Error("partner mode expected");
      const real = partner.api;
      // One field of each name the screens know how to label, with values of every kind.
      const fields = Object.fromEntries(
        (
          "amount balance currency_code iban swift_bic beneficiary reference bank_name state status " +
          "created_at updated_at price pair fee name type available locked total value fiat_amount code " +
          "base_currency quote_currency date timestamp id user_id crypto_amount fee_currency miner_fee " +
          "address note daily monthly day_used month_used decimals email surname phone date_of_birth " +
          "building_number city postal_code country kyc_status edd_status limit spent tier buy sell minimum " +
          "eur_value verified"
        )
          .split(" ")
          .map((name, index) => [
            name,
            index % 3 === 0 ? index % 2 === 0 : index % 3 === 1 ? String(index * 10.5) : `x${index}`,
          ]),
      );
      const list = Array.from({ length: 40 }, (_, index) => ({ ...fields, id: index + 1 }));
      const swap = (answers: Record<string, unknown>) => {
        partner.api = new Proxy(real, {
          get: (target, key) => {
            if (typeof key === "string" && Object.hasOwn(answers, key))
              return async (...args: unknown[]) => readAsClient(key, args, answers[key]);
            const value: unknown = Reflect.get(target, key);
            return typeof value === "function" ? value.bind(target) : value;
          },
        });
      };
      try {
        swap({
          userBalance: { status: true, data: fields },
          userLimits: { status: true, data: fields },
          userTransactions: { status: true, data: list },
          userTransaction: { status: true, data: fields },
          depositInstructions: { status: true, data: fields },
          exchangeRates: { status: true, data: fields },
        });
        for (const text of [
          "/balance",
          "/limits",
          "/transactions",
          "/tx 1",
          "/deposit",
          "/prices",
          "/price btc",
        ])
          await d.fresh(user, text, `${text} (unplanned shape)`);
        await d.tapIf(user, /^ptx:/, "/transactions → next page (unplanned shape)");
        // Every state word a status field may carry (the partner API shows no payload): worded.
        for (const status of STATUS_VALUES) {
          swap({ userTransaction: { status: true, data: { id: 1, status, kyc_status: status } } });
          await d.fresh(user, "/tx 1", `/tx 1 (status ${status})`);
        }
        swap({
          userBalance: { status: true, data: {} },
          userLimits: { status: true, data: [] },
          userTransactions: { status: true, data: [] },
          userTransaction: { status: true, data: {} },
          depositInstructions: { status: true, data: {} },
          exchangeRates: { status: true, data: {} },
        });
        for (const text of ["/balance", "/limits", "/transactions", "/tx 1", "/deposit", "/prices", "/me"])
          await d.fresh(user, text, `${text} (empty answer)`);
      } finally {
        partner.api = real;
      }
    },
  },
  {
    name: "the PIN: awaited, late, reset by the desk, set anew, locked",
    async run(d, h) {
      const user = await customer(d, h);
      const desk = h.user(OPERATOR, { languageCode: d.locale });
      const withdrawCard = async (title: string) => {
        await d.fresh(user, "/withdraw", title);
        await d.tapIf(user, /^pwd:/, `${title} → bank account`);
        await d.answer(user, `${title}: amount`, "10");
        await d.tapIf(user, /^ord:c:/, `${title} → Confirm`);
      };
      await withdrawCard("/withdraw (Confirm typed while the PIN is asked)");
      await d.send(user, "confirm", "/withdraw PIN ← a typed Confirm");
      await d.tapData(user, /^ord:c:/, "/withdraw card → Confirm again while the PIN is asked");
      h.clock.advance(6 * 60_000);
      await d.answer(user, "/withdraw PIN (after the deadline)", user.pin);
      await withdrawCard("/withdraw (the desk resets the PIN meanwhile)");
      await d.send(desk, `/pinreset ${user.partnerUserId}`, "desk: /pinreset");
      await d.answer(user, "/withdraw PIN (reset meanwhile)", user.pin);
      await d.fresh(user, "/safety allowlist off", "/safety allowlist off (no PIN set)");
      await d.answer(user, "/safety allowlist off (no PIN set)", user.pin);
      await d.fresh(user, "/pin", "/pin (none set)");
      await d.answer(user, "/pin (none set)", "135790", "135790");
      await d.fresh(user, "/safety allowlist off");
      await d.answer(user, "/safety allowlist off (PIN)", "135790");
      await d.tick("the allowlist's cooling-off over", 49 * 3_600_000);
      await d.fresh(user, "/safety", "/safety (allowlist off)");
      await d.fresh(user, "/safety allowlist off", "/safety allowlist off (already off)");
      await d.fresh(user, "/safety allowlist on");
      await d.fresh(user, "/safety cooling 99");
      await d.fresh(user, "/safety cooling 12", "/safety cooling 12 (shorter: needs the PIN)");
      await d.answer(user, "/safety cooling 12 (PIN)", "135790");
      await d.fresh(user, "/safety", "/safety (the shorter cooling-off pending)");
      await d.fresh(user, "/safety cap", "/safety cap (step by step)");
      await d.send(user, "withdraw", "/safety cap ← typed, not tapped");
      await d.tap(user, /:c:withdraw$/, "/safety cap → withdraw");
      await d.answer(user, "/safety cap withdraw", "lots", "500");
      // More than half the cap leaves at once: the user is told.
      await d.fresh(user, "/withdraw", "/withdraw (more than half the cap)");
      await d.tapIf(user, /^pwd:/, "/withdraw → bank account");
      await d.answer(user, "/withdraw amount", "300");
      await d.tapIf(user, /^ord:c:/, "/withdraw card → Confirm");
      await d.answer(user, "/withdraw PIN", "135790");
      for (let i = 0; i < 5; i++) {
        await d.fresh(user, "/pin", `/pin (wrong PIN ${i + 1})`);
        await d.answer(user, "/pin (wrong)", "000000");
      }
      await d.fresh(user, "/pin", "/pin (locked)");
      await d.fresh(user, "/safety allowlist off", "/safety allowlist off (PIN locked)");
      await d.answer(user, "/safety allowlist off (PIN locked)", "135790");
      await d.send(user, "/cancel");
      h.clock.advance(16 * 60_000);
    },
  },
  {
    name: "an order whose outcome is unknown",
    async run(d, h) {
      const user = await customer(d, h);
      // Every attempt (the first and the keyed repeats) gets a 500: nobody knows if it happened.
      h.sandbox.faults.failNext(10, 500, { method: "POST", path: /\/buy$/ });
      await d.fresh(user, "/buy btc 20", "/buy (the exchange answers 500 to every try)");
      await d.tapIf(user, /^ord:c:/, "/buy card → Confirm (outcome unknown)");
      h.sandbox.faults.reset();
      // The exchange's transactions cannot be read after the grace: the outcome stays unknown, and is said so.
      const undo = answerAs(h, { userTransactions: { status: true, data: [{ odd: "row" }] } });
      try {
        await d.tick("the unknown order, its transactions unreadable", 11 * 60_000);
      } finally {
        undo();
      }
      // Carried out, but every answer is cut: the exchange's list then shows it, still open.
      h.sandbox.faults.dropAnswerNext(10, { method: "POST", path: /\/buy$/ });
      await d.fresh(user, "/buy btc 25", "/buy (every answer is cut)");
      await d.tapIf(user, /^ord:c:/, "/buy card → Confirm (every answer is cut)");
      h.sandbox.faults.reset();
      await d.tick("the cut order found at the exchange");
      await d.tick("the cut order settled", 10_000);
    },
  },
  {
    name: "bank accounts: a second one removed, old buttons, the exchange refusing",
    async run(d, h) {
      const user = await customer(d, h);
      await d.fresh(user, "/banks add", "/banks add (mistakes)");
      await d.answer(user, "/banks add", "x".repeat(80), "<Bank>", "Commerzbank");
      await d.answer(
        user,
        "/banks add",
        "DE89 3704 0044 0532 0130 0!",
        "XX89 3704 0044 0532 0130 01",
        "DE89",
      );
      await d.answer(user, "/banks add", "DE89 3704 0044 0532 0130 0A", "DE02 1203 0000 0000 2020 51");
      await d.answer(user, "/banks add", "BYLA", "ABCDXX12", "BYLADEM1", "NWBKGB2L");
      await d.send(user, "maybe", "/banks add card ← typed text");
      await d.tapIf(user, /:add$/, "/banks add → Add this account");
      await d.fresh(user, "/banks");
      const view = d
        .lastButtons(user)
        .filter((data) => data.startsWith("pb:v:"))
        .at(-1);
      const remove = d
        .lastButtons(user)
        .filter((data) => data.startsWith("pb:r:"))
        .at(-1);
      if (view === undefined || remove === undefined) throw new Error("no second bank account to remove");
      h.sandbox.faults.failNext(1, 422, { method: "DELETE" });
      await d.tap(user, new RegExp(`^${remove}$`), "/banks → remove (the exchange refuses)");
      await d.tapIf(user, /^pb:rr:/, "/banks → really remove (refused)");
      h.sandbox.faults.reset();
      await d.fresh(user, "/banks");
      await d.tap(user, new RegExp(`^${remove}$`), "/banks → remove");
      await d.tapIf(user, /^pb:rr:/, "/banks → really remove");
      await d.tapData(user, /^pb:rr:/, "/banks → really remove again (an old tap)");
      await d.tapData(user, new RegExp(`^${view}$`), "/banks → view the removed account (an old tap)");
      await d.tapData(user, new RegExp(`^${remove}$`), "/banks → remove the removed account (an old tap)");
      for (const [status, title] of [
        [404, "the exchange has retired adding"],
        [422, "the exchange refuses"],
      ] as const) {
        h.sandbox.faults.failNext(1, status, { method: "POST", path: /bank-accounts$/ });
        await d.fresh(user, "/banks add", `/banks add (${title})`);
        await d.answer(
          user,
          `/banks add (${title})`,
          "Sparkasse Berlin",
          "DE75 5121 0800 1245 1261 99",
          "SOGEDEFFXXX",
        );
        await d.tapIf(user, /:add$/, `/banks add → Add this account (${title})`);
        h.sandbox.faults.reset();
      }
      await d.fresh(user, "/banks add", "/banks add (wrong until it gives up)");
      for (let i = 0; i < 20; i++) await d.send(user, "<>", `/banks add ← wrong name ${i + 1}`);
      await d.send(user, "/cancel");
    },
  },
  {
    name: "the tax tool's file, and the digest's portfolio",
    async run(d, h) {
      const user = await customer(d, h);
      h.sandbox.deposit({ amount: new Big(100), accountId: user.partnerUserId });
      await d.fresh(user, "/buy btc 50");
      await d.tapIf(user, /^ord:c:/, "/buy card → Confirm");
      await d.tick("buy settled", 10_000);
      await d.fresh(user, "/transactions");
      await d.tapIf(user, /^tx:x:menu$/, "/transactions → Export");
      await d.tapIf(user, /^tx:k:menu$/, "/transactions → Export → Koinly");
      await d.tapIf(user, /^tx:k:all$/, "/transactions → Export → Koinly → everything");
      await d.fresh(user, "/notifications");
      await d.tapIf(user, /^set:n:digest:1$/, "notifications → daily digest on");
      await d.answer(user, "daily digest: time zone", "Berlin");
      for (const title of ["daily digest with the portfolio", "daily digest: the portfolio's change"]) {
        // To the next 08:10 in Berlin (winter: UTC+1), when digests go out.
        const now = h.clock.now();
        const at = new Date(now);
        at.setUTCHours(7, 10, 0, 0);
        if (at.getTime() <= now) at.setUTCDate(at.getUTCDate() + 1);
        await d.tick(title, at.getTime() - now);
      }
    },
  },
  {
    name: "recurring plans: ends, old buttons, states, and every reason a run is skipped or fails",
    async run(d, h) {
      const user = await customer(d, h);
      const desk = h.user(OPERATOR, { languageCode: d.locale });
      const berlinDay = (ms: number) => new Date(ms + 3_600_000).toISOString().slice(0, 10);
      await d.fresh(user, "/recurring btc 20 daily 9 runs 1");
      await d.answer(user, "/recurring time zone", "Berlin");
      await d.tapIf(user, /^pl:c:/, "/recurring card → Confirm");
      await runPlansOnTime(d, h, user.id, "the plan's one run (it ends)");
      const later = berlinDay(h.clock.now() + 30 * 24 * 3_600_000);
      await d.fresh(user, `/recurring btc 20 daily 9 until ${later}`, "/recurring … until a date");
      await d.tapIf(user, /^pl:x:/, "/recurring card → Cancel");
      await d.tapData(user, /^pl:c:/, "/recurring card → Confirm after Cancel (an old tap)");
      const today = berlinDay(h.clock.now());
      await d.fresh(
        user,
        `/recurring btc 20 daily 0 until ${today}`,
        "/recurring … until before its first run",
      );
      // Plan states: one plan paused, resumed and stopped, each by an old tap too.
      await d.fresh(user, "/recurring eth 20 daily 10");
      await d.tapIf(user, /^pl:c:/, "/recurring card → Confirm");
      const [plan] = (await h.deps.plans.list(user.id)).filter((p) => p.state === "active");
      if (plan === undefined) throw new Error("no active plan");
      const verb = (v: string) => new RegExp(`^pl:${v}:${plan.id}$`);
      await d.fresh(user, "/recurring");
      await d.tap(user, verb("a"), "/recurring → pause");
      await d.tapData(user, verb("a"), "/recurring → pause again (an old tap)", 0);
      await d.tap(user, verb("r"), "/recurring → resume");
      await d.tapData(user, verb("r"), "/recurring → resume again (an old tap)", 0);
      // Every reason the plan's run is skipped, one run each.
      const run = async (why: string, answers?: Record<string, unknown>) => {
        const undo = answers === undefined ? () => {} : answerAs(h, answers);
        try {
          await runPlansOnTime(d, h, user.id, `recurring run: ${why}`);
        } finally {
          undo();
        }
      };
      await run("ETH has no rate", { exchangeRates: { status: true, data: [] } });
      await run("the minimum went up", {
        minimumLimits: { status: true, data: [{ pair: "etheur", buy: "50" }] },
      });
      h.sandbox.faults.setPartnerUserStatus(user.partnerUserId, { kyc_status: "pending" });
      await run("KYC pending again");
      h.sandbox.faults.setPartnerUserStatus(user.partnerUserId, { kyc_status: "passed" });
      // The link store lost the owner's link (no chat unlinks a user): the runner still says why.
      await h.deps.store.delete(`partner-user:${user.id}`);
      await run("the owner's account link is gone");
      await h.deps.partner?.users.link(user.id, user.partnerUserId);
      h.sandbox.faults.failNext(1, 403, { method: "POST", path: /\/buy$/ });
      await run("the exchange refuses the buy");
      h.sandbox.faults.failNext(10, 500, { method: "POST", path: /\/buy$/ });
      await run("the exchange answers 500");
      h.sandbox.faults.reset();
      await d.send(desk, "/plans", "desk: /plans (failed runs)");
      await d.send(desk, `/plans ${user.partnerUserId}`, "desk: /plans USER (failed runs)");
      await d.fresh(user, "/safety cap buy 10");
      await run("over the user's own cap");
      await d.fresh(user, "/recurring");
      await d.tap(user, verb("k"), "/recurring → stop");
      await d.tap(user, verb("y"), "/recurring → stop → yes");
      await d.tapData(user, verb("a"), "/recurring → pause a stopped plan (an old tap)", 0);
      // Up to the most plans a user may have, with two cards open: the second Confirm is one too many.
      for (const hour of [11, 12, 13, 14]) {
        await d.fresh(user, `/recurring eth 20 daily ${hour}`, "/recurring (one more plan)");
        await d.tapIf(user, /^pl:c:/, "/recurring card → Confirm");
      }
      await d.fresh(user, "/recurring eth 20 daily 15", "/recurring (the fifth plan)");
      const fifth = d.button(user, /^pl:c:/);
      await d.fresh(user, "/recurring eth 20 daily 16", "/recurring (a sixth plan)");
      const sixth = d.button(user, /^pl:c:/);
      for (const [button, title] of [
        [fifth, "the fifth plan's card → Confirm"],
        [sixth, "the sixth plan's card → Confirm"],
      ] as const) {
        if (button === undefined) continue;
        d.title(`${title} (tap)`);
        await user.tapData(button.messageId, button.data);
        await d.settle();
      }
    },
  },
  {
    name: "answers the spec leaves open: an unknown KYC status, a rate without a name, limits without use, long lists",
    async run(d, h) {
      const user = await customer(d, h);
      const real = h.deps.partner?.api;
      if (real === undefined) throw new Error("partner mode expected");
      const row = (index: number) => ({
        id: index + 1,
        type: "unheard_of",
        state: "completed",
        note: `Ada ${index + 1}`,
        created_at: "2026-11-20T10:00:00Z",
      });
      const undo = answerAs(h, {
        getUser: async (id: number) => ({ ...(await real.getUser(id)), kyc_status: "on_hold" }),
      });
      try {
        await d.fresh(user, "/balance", "/balance with a KYC status nobody planned for");
      } finally {
        undo();
      }
      const undoRates = answerAs(h, {
        exchangeRates: { status: true, data: [] },
        userBalance: {
          status: true,
          data: [
            { currency_code: "eur", balance: "10" },
            { currency_code: "btc", balance: "0.5" },
          ],
        },
      });
      try {
        await d.fresh(user, "/balance", "/balance while the exchange gives no rates");
      } finally {
        undoRates();
      }
      const undoShapes = answerAs(h, {
        exchangeRates: async () => {
          const rates = await real.exchangeRates();
          const list = Array.isArray(rates) ? rates : [];
          return [...list, { pair: "zzzeur", price: "1.5" }];
        },
        userLimits: [{ type: "fiat_withdrawal", currency_code: "eur", daily: "5000", monthly: "20000" }],
        userBalance: { status: true, data: Array.from({ length: 60 }, (_, i) => row(i)) },
        // Exactly one page and one more: the next page is then empty.
        userTransactions: (_id: number, query: { start?: number } = {}) =>
          (query.start ?? 0) === 0
            ? { status: true, data: Array.from({ length: 6 }, (_, i) => row(i)) }
            : { status: true, data: [] },
      });
      try {
        await d.fresh(user, "/prices", "/prices with a currency the list does not name");
        await d.fresh(user, "/limits", "/limits without their use");
        await d.fresh(user, "/balance", "/balance with a long list nobody planned for");
        await d.fresh(user, "/transactions", "/transactions with rows nobody planned for");
        await d.tapIf(user, /^ptx:1$/, "/transactions → next page (empty)");
        await d.fresh(user, "/transactions", "/transactions with rows nobody planned for");
        await d.tapIf(user, /^tx:x:menu$/, "/transactions → Export");
        await d.tapIf(user, /^tx:k:menu$/, "/transactions → Export → Koinly");
        await d.tapIf(user, /^tx:k:all$/, "/transactions → Export → Koinly → everything (unreadable rows)");
      } finally {
        undoShapes();
      }
    },
  },
  {
    name: "withdrawals: no bank, none verified, which bank, replaced, expired, refused, unknown, limits",
    async run(d, h) {
      const bank = (verified: boolean, iban: string) => ({
        name: verified ? "Commerzbank" : "Sparkasse",
        iban,
        swift_bic: "COBADEFFXXX",
        verificationAmount: new Big("1.00"),
        verified,
      });
      const accountOf = (user: { partnerUserId: number }) => {
        const account = h.sandbox.state.partnerUser(user.partnerUserId);
        if (account === undefined) throw new Error("no partner user at the sandbox");
        return account;
      };
      const none = await customer(d, h, { bankAccount: false });
      await d.fresh(none, "/withdraw", "/withdraw without a bank account");
      h.sandbox.state.addBankAccount(accountOf(none), bank(false, "DE02120300000000202051"));
      await d.fresh(none, "/withdraw", "/withdraw with only an unverified bank account");
      const user = await customer(d, h, { eur: "30000" });
      h.sandbox.state.addBankAccount(accountOf(user), bank(true, "DE02120300000000202051"));
      const card = async (title: string, amount = "10") => {
        await d.fresh(user, "/withdraw", title);
        await d.tapIf(user, /^pwd:/, `${title} → bank account`);
        await d.answer(user, `${title}: amount`, amount);
      };
      await d.fresh(user, "/withdraw", "/withdraw with two bank accounts");
      await d.send(user, "the blue one", "/withdraw bank ← typed, not tapped");
      await d.send(user, "/cancel");
      await card("/withdraw (a card replaced by the next)");
      // No /cancel between: the new card replaces the open one.
      await d.send(user, "/withdraw", "/withdraw (the card that replaces it)");
      await d.tapIf(user, /^pwd:/, "/withdraw (the card that replaces it) → bank account");
      await d.answer(user, "/withdraw (the card that replaces it): amount", "10");
      await d.tapData(user, /^ord:c:/, "the replaced card → Confirm", -2);
      await d.send(user, "/cancel");
      // The second bank account is removed at the exchange (another device) while its card is open.
      await d.fresh(user, "/withdraw", "/withdraw to the second bank account");
      const second = d.lastButtons(user).at(-1);
      if (second !== undefined)
        await d.tap(user, new RegExp(`^${second}$`), "/withdraw → the second bank account");
      await d.answer(user, "/withdraw to the second bank account: amount", "10");
      for (const [id, record] of h.sandbox.state.bankAccounts)
        if (record.accountId === accountOf(user).id && record.name === "Commerzbank")
          h.sandbox.state.bankAccounts.delete(id);
      await d.tapIf(user, /^ord:c:/, "/withdraw card → Confirm (the bank account is gone)");
      await d.answer(user, "/withdraw card → Confirm (the bank account is gone): PIN", user.pin);
      await d.send(user, "/cancel");
      await card("/withdraw (the quote runs out)");
      h.clock.advance(10 * 60_000);
      await d.tapIf(user, /^ord:c:/, "/withdraw card → Confirm after the quote ran out");
      await d.send(user, "/cancel");
      for (const [count, status, title] of [
        [1, 422, "the exchange refuses"],
        [10, 500, "the exchange answers 500"],
      ] as const) {
        await card(`/withdraw (${title})`);
        await d.tapIf(user, /^ord:c:/, `/withdraw card → Confirm (${title})`);
        h.sandbox.faults.failNext(count, status, { method: "POST", path: /\/withdraw$/ });
        await d.answer(user, `/withdraw PIN (${title})`, user.pin);
        h.sandbox.faults.reset();
      }
      await d.tapData(user, /^ord:x:/, "/withdraw card → Cancel after it was sent (an old tap)");
      await card("/withdraw over the daily limit", "6000");
      // The exchange lowers a limit while the card is open (its operator's decision): Confirm is refused.
      const ceilings = h.sandbox.state.ceilings;
      const before = ceilings.fiat_withdrawal;
      try {
        await card("/withdraw (the daily limit drops)", "100");
        ceilings.fiat_withdrawal = { daily: new Big(50), monthly: before.monthly };
        await d.tapIf(user, /^ord:c:/, "/withdraw card → Confirm over the new daily limit");
        await d.answer(user, "/withdraw card → Confirm over the new daily limit: PIN", user.pin);
        ceilings.fiat_withdrawal = { daily: before.daily, monthly: new Big(2000) };
        await card("/withdraw (the monthly limit is the tighter)", "100");
        await card("/withdraw over the monthly limit", "2500");
      } finally {
        ceilings.fiat_withdrawal = before;
      }
      await d.send(user, "/cancel");
      await d.tick("withdrawals settled", 10_000);
    },
  },
  {
    name: "a recurring plan step by step, with the partner's minimum",
    async run(d, h) {
      const user = await customer(d, h);
      await d.fresh(user, "/recurring btc 20 daily 9", "/recurring (to set the time zone)");
      await d.answer(user, "/recurring time zone", "Berlin");
      await d.tapIf(user, /^pl:x:/, "/recurring card → Cancel");
      const later = new Date(h.clock.now() + 90 * 24 * 3_600_000).toISOString().slice(0, 10);
      const guide = async (title: string, steps: Array<string | RegExp>) => {
        await d.fresh(user, "/recurring", `${title}: /recurring`);
        await d.tap(user, /^rc:new$/, `${title} → New plan`);
        for (const step of steps) {
          if (typeof step === "string") await d.send(user, step, `${title} ← "${step}"`);
          else await d.tap(user, step, `${title} → ${String(step)}`);
        }
        await d.tapIf(user, /^pl:x:/, `${title}: card → Cancel`);
      };
      await guide("monthly, ending after some runs", [
        "doge",
        "btc",
        "5",
        "20",
        "monthly",
        /:e:month$/,
        "40",
        "15",
        "9",
        /:end:runs$/,
        "0",
        "12",
      ]);
      await guide("weekly, ending on a date", [
        /:cur:eth$/,
        "20",
        /:e:week$/,
        /:w:1$/,
        /:h:18$/,
        /:end:until$/,
        "soon",
        "2020-01-01",
        later,
      ]);
      const undo = answerAs(h, { minimumLimits: { status: true, data: [] } });
      try {
        await guide("the exchange names no minimum", [/:cur:btc$/]);
      } finally {
        undo();
      }
      await guide("monthly on the last day, no end", [
        /:cur:btc$/,
        "25",
        /:e:month$/,
        /:d:last$/,
        "7",
        /:end:none$/,
      ]);
    },
  },
  {
    name: "notifications: a zone never found, hours of one's own, a digest held in quiet hours",
    async run(d, h) {
      const user = await customer(d, h);
      await d.fresh(user, "/notifications foo");
      await d.fresh(user, "/notifications");
      await d.tapIf(user, /^set:n:digest:1$/, "notifications → daily digest on");
      await d.answer(user, "notifications: time zone", "Atlantis", "Atlantis", "Atlantis");
      await d.fresh(user, "/notifications");
      await d.tapIf(user, /^set:n:digest:1$/, "notifications → daily digest on");
      await d.answer(user, "notifications: time zone", "Berlin");
      await d.fresh(user, "/notifications");
      await d.tapIf(user, /^set:qp$/, "notifications → other quiet hours");
      await d.answer(user, "notifications: quiet hours", "25", "7", "7", "6");
      // Quiet from 07:00 to 06:00 (Berlin): two days' digests (08:00) wait, and come together at 06:00.
      for (const [hour, title] of [
        [7, "daily digest during quiet hours (held)"],
        [7, "the next day's digest (held too)"],
        [5, "quiet hours over: what was held"],
      ] as const) {
        const now = h.clock.now();
        const at = new Date(now);
        at.setUTCHours(hour, 10, 0, 0);
        if (at.getTime() <= now) at.setUTCDate(at.getUTCDate() + 1);
        await d.tick(title, at.getTime() - now);
      }
    },
  },
  {
    name: "the operator desk",
    async run(d, h) {
      const customerUser = await customer(d, h);
      h.sandbox.deposit({ amount: new Big(100), accountId: customerUser.partnerUserId });
      const desk = h.user(OPERATOR, { languageCode: d.locale });
      const id = customerUser.partnerUserId;
      for (const text of [
        "/master",
        "/master eth",
        "/master alert",
        "/master alert zzz 5",
        "/master alert eur lots",
        "/master alert eur 100000000",
        "/user",
        `/user ${id}`,
        "/user nobody@partner.test",
        "/alltx",
        "/pairs",
        "/currencies",
        "/plans",
        `/plans ${id}`,
        "/plans nobody@partner.test",
        "/master alert eur 1000",
        "/master alert eur",
        "/master foo bar",
        "/master €",
        "/master alert",
        // Above the balance: the next check tells the operators.
        "/master alert eur 100000000",
        "/pinreset",
        `/pinreset ${id}`,
        "/pinreset 987654321",
        "/freeze someone",
        `/freeze ${id}`,
        `/unfreeze ${id}`,
        `/unfreeze ${id}`,
      ])
        await d.send(desk, text, `desk: ${text}`);
      await d.tapIf(desk, /^atx:/, "desk: /alltx → next page");
      await d.tick("master balance below its alert", 60 * 60_000);
      await d.send(desk, "/master alert", "desk: /master alert (after it fired)");
      await d.send(desk, "/master alert eur off", "desk: /master alert eur off");
      await d.send(desk, "/master alert eur off", "desk: /master alert eur off (again)");
      await d.send(customerUser, "/master", "a customer types /master");
    },
  },
];
