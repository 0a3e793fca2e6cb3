/**
 * Account mode's guided flows step by step, each step's "again" refusal included (/recurring,
 * /alert, /safety caps, quiet hours, the time zone), and the states a plan or an alert goes through
 * afterwards (pause, resume, stop, the limit, old taps on them).
 */
import { isoDate, loggedIn, tapAs } from "./account-steps.ts";
import { runPlansOnTime, type Scenario } from "./common.ts";

export const ACCOUNT_GUIDED_SCENARIOS: Scenario[] = [
  {
    name: "guided /recurring: every step and its refusals, then the plans' states",
    async run(d, h) {
      const user = await loggedIn(d, h);
      const step = (flow: string, ...texts: string[]) => d.answer(user, flow, ...texts);
      // A weekly plan ending after a number of runs; each step first answered wrongly.
      await d.fresh(user, "/recurring");
      await d.tap(user, /^rc:new$/, "/recurring → New plan");
      await step("guided plan: currency", "Dogecoin");
      await d.tap(user, /^rcf:.*:cur:btc$/, "guided plan → BTC");
      await step("guided plan: amount", "5", "50");
      await step("guided plan: how often", "often");
      await d.tap(user, /^rcf:.*:e:week$/, "guided plan → every week");
      await step("guided plan: weekday", "someday");
      await d.tap(user, /^rcf:.*:w:1$/, "guided plan → Monday");
      // The zone is asked before the hour, so the hour's question can name it.
      await step("guided plan: time zone", "Atlantis", "Berlin");
      await step("guided plan: hour", "25");
      await d.tap(user, /^rcf:.*:h:9$/, "guided plan → 09:00");
      await step("guided plan: end", "never");
      await d.tap(user, /^rcf:.*:end:runs$/, "guided plan → after a number of runs");
      await step("guided plan: runs", "0", "12");
      await d.tapIf(user, /^pl:c:/, "guided plan card → Confirm");
      // The exchange's minimum cannot be read: the amount is asked without it.
      await d.fresh(user, "/recurring");
      await d.tap(user, /^rc:new$/, "/recurring → New plan (no minimum known)");
      h.sandbox.faults.failNext(10, 503, { method: "GET", path: "/v1/limits*" });
      await d.tap(user, /^rcf:.*:cur:btc$/, "guided plan → BTC (its minimum unknown)");
      h.sandbox.faults.reset();
      // A monthly plan until a date.
      await d.fresh(user, "/recurring");
      await d.tap(user, /^rc:new$/, "/recurring → New plan (monthly)");
      await d.tap(user, /^rcf:.*:cur:eth$/, "guided plan → ETH");
      await step("guided plan: amount", "25");
      await d.tap(user, /^rcf:.*:e:month$/, "guided plan → every month");
      await step("guided plan: day of the month", "40", "15");
      await step("guided plan: hour", "18");
      await d.tap(user, /^rcf:.*:end:until$/, "guided plan → until a date");
      await step("guided plan: until", "someday", "2020-01-01", isoDate(h, 200));
      await d.tapIf(user, /^pl:c:/, "guided plan card → Confirm");
      // A daily plan with no end; an old step's button tapped after the flow is over.
      await d.fresh(user, "/recurring");
      await d.tap(user, /^rc:new$/, "/recurring → New plan (daily)");
      await d.tap(user, /^rcf:.*:cur:btc$/, "guided plan → BTC");
      await step("guided plan: amount", "30");
      await d.tap(user, /^rcf:.*:e:day$/, "guided plan → every day");
      await d.tap(user, /^rcf:.*:h:8$/, "guided plan → 08:00");
      await d.tap(user, /^rcf:.*:end:none$/, "guided plan → no end");
      await d.tapData(user, /^rcf:.*:cur:btc$/, "guided plan → a button of an earlier run", 0);
      await d.tapIf(user, /^pl:c:/, "guided plan card → Confirm");
      // An end before the first run: a monthly plan on the 28th, ending tomorrow.
      await d.fresh(
        user,
        `/recurring btc 25 monthly 28 9 until ${isoDate(h, 1)}`,
        "/recurring ending before it first runs",
      );
      // Another user taps this user's card.
      await d.fresh(user, "/recurring ltc 20 daily 10");
      const other = await loggedIn(d, h);
      await tapAs(d, other, d.button(user, /^pl:c:/)?.data, "someone else's plan card → Confirm");
      await d.tapIf(user, /^pl:c:/, "/recurring card → Confirm");
      // The fifth plan, then a sixth card confirmed over the limit.
      await d.fresh(user, "/recurring xrp 20 daily 11");
      await d.tapIf(user, /^pl:c:/, "/recurring card → Confirm");
      await d.fresh(user, "/recurring usdc 20 daily 12");
      await d.tapIf(user, /^pl:c:/, "/recurring card → Confirm over the limit");
      // Pause, resume, old taps on both, stop, and a tap on the stopped plan.
      await d.fresh(user, "/recurring");
      await d.tap(user, /^pl:a:/, "/recurring → Pause");
      await d.tapData(user, /^pl:a:/, "/recurring → Pause again (an old tap)");
      await d.tap(user, /^pl:r:/, "/recurring → Resume");
      await d.tapData(user, /^pl:r:/, "/recurring → Resume again (an old tap)");
      await d.tap(user, /^pl:k:/, "/recurring → Stop");
      await d.tapIf(user, /^pl:b:/, "/recurring → Stop → keep it");
      await d.tap(user, /^pl:k:/, "/recurring → Stop");
      await d.tap(user, /^pl:y:/, "/recurring → Stop → yes");
      await d.tapData(user, /^pl:a:/, "/recurring → Pause on the stopped plan (an old tap)");
      await tapAs(d, other, d.button(user, /^pl:a:/)?.data, "someone else's plan → Pause");
      await d.fresh(user, "/recurring eth 20 daily 13");
      await d.tapIf(user, /^pl:x:/, "/recurring card → Cancel");
      await d.tapData(user, /^pl:c:/, "/recurring card → Confirm on the cancelled card");
      // A plan of one run: its reminder says no run follows.
      await d.fresh(user, "/recurring btc 25 daily 7 runs 1");
      await d.tapIf(user, /^pl:c:/, "/recurring card → Confirm");
      await runPlansOnTime(d, h, user.id, "recurring plans due (reminders)");
      await d.fresh(user, "/recurring");
    },
  },
  {
    name: "guided /alert: every step, the limit, an alert that already fires",
    async run(d, h) {
      const user = await loggedIn(d, h);
      h.sandbox.setPrice("btc", "60000");
      await d.fresh(user, "/alert");
      await d.answer(user, "guided alert: currency", "zzz");
      await d.tap(user, /^alf:.*:cur:btc$/, "guided alert → BTC");
      await d.answer(user, "guided alert: kind", "up");
      await d.tap(user, /^alf:.*:k:above$/, "guided alert → above");
      await d.answer(user, "guided alert: level", "abc", "70000");
      await d.fresh(user, "/alert btc");
      await d.tap(user, /^alf:.*:k:below$/, "guided alert → below");
      await d.answer(user, "guided alert: level", "50000");
      await d.fresh(user, "/alert eth");
      await d.tap(user, /^alf:.*:k:change$/, "guided alert → change");
      await d.answer(user, "guided alert: change", "5");
      await d.tapData(user, /^alf:.*:k:change$/, "guided alert → a button of an earlier run");
      await d.fresh(user, "/alert btc below 100000", "/alert that fires already");
      for (let i = 0; i < 18; i++)
        await d.send(user, `/alert btc above ${80_000 + i * 1000}`, "/alert (up to the limit)");
      await d.fresh(user, "/alerts");
      await d.tap(user, /^alert:rm:/, "/alerts → remove");
      await d.tapData(user, /^alert:rm:/, "/alerts → remove the removed one again", 0);
    },
  },
  {
    name: "guided /safety cap, quiet hours and time zone steps",
    async run(d, h) {
      const user = await loggedIn(d, h);
      await d.fresh(user, "/safety");
      await d.tap(user, /^sf:cap$/, "/safety → a daily cap");
      await d.answer(user, "guided cap: which", "much");
      await d.tap(user, /^scf:.*:c:send$/, "guided cap → send");
      await d.answer(user, "guided cap: currency", "€", "btc");
      await d.answer(user, "guided cap: amount", "lots", "", "0.5");
      await d.fresh(user, "/safety");
      await d.tap(user, /^sf:cap$/, "/safety → a daily cap");
      await d.tap(user, /^scf:.*:c:buy$/, "guided cap → buy");
      await d.tap(user, /^scf:.*:off$/, "guided cap → no cap");
      await d.fresh(user, "/safety cooling 99");
      await d.fresh(user, "/notifications nonsense");
      await d.fresh(user, "/notifications zone");
      await d.answer(user, "time zone", "Atlantis", "Nowhere", "Elsewhere");
      await d.fresh(user, "/notifications zone Berlin");
      await d.fresh(user, "/notifications quiet");
      await d.answer(user, "guided quiet hours", "25", "22", "22", "7");
    },
  },
];
