/**
 * The bank-account step of a withdrawal (account and partner mode alike): a button per account
 * (IBAN masked; accounts still waiting for their verification deposit shown as not usable yet),
 * or typed (its number or the IBAN's end). None at all, or none verified, is said and ends it.
 *
 * @example
 * const target = await pickBank(conversation, ctx, banks, await flowButtons(conversation, "wd", "withdraw-button-stale"));
 * if (target === undefined) return;
 */
import { InlineKeyboard } from "grammy";
import type { QuoteRefusal } from "../../orders/quote.ts";
import type { Flow, FlowContext } from "../context.ts";
import { type BankView, bankButtonLabel, bankLabel, pickTyped } from "../ui/bank-view.ts";
import { BANK_PICK, BANK_PICKED } from "../ui/callback-data.ts";
import { type WaitOptions, waitAnswer } from "./wait.ts";

const isVerified = (bank: { state: string }) => bank.state === "verified";

export async function pickBank(
  conversation: Flow,
  ctx: FlowContext,
  banks: readonly BankView[],
  { own, wait: step }: { own: string; wait: WaitOptions },
): Promise<BankView | undefined> {
  if (banks.length === 0) {
    await ctx.reply(ctx.t("withdraw-no-banks"));
    return undefined;
  }
  if (!banks.some(isVerified)) {
    const list = banks.map((bank) => `⏳ ${bankLabel(bank)}`).join("\n");
    await ctx.reply(ctx.t("withdraw-none-verified", { list }));
    return undefined;
  }

  // ── Bank account ──
  const keyboard = new InlineKeyboard();
  for (const bank of banks) {
    const verified = isVerified(bank);
    keyboard
      .text(
        verified ? `🏦 ${bankButtonLabel(bank)}` : `⏳ ${bankButtonLabel(bank)}`,
        own + BANK_PICK.bank(bank.id, verified),
      )
      .row();
  }
  const list = banks
    .map(
      (bank, index) =>
        `${index + 1}. ${bankLabel(bank)}${isVerified(bank) ? "" : ` ${ctx.t("withdraw-pending-mark")}`}`,
    )
    .join("\n");
  await ctx.reply(ctx.t("withdraw-ask-bank", { list }), { reply_markup: keyboard });
  let bank: BankView | undefined;
  while (bank === undefined) {
    const answer = await waitAnswer(conversation, step);
    const picked =
      answer.kind === "tap"
        ? banks.find((b) => BANK_PICKED.exec(answer.data)?.[1] === String(b.id))
        : pickTyped(answer.text, banks);
    if (picked === undefined) {
      if (answer.kind === "text")
        await answer.ctx.reply(ctx.t("withdraw-which-bank", { count: banks.length }));
      continue;
    }
    if (!isVerified(picked)) {
      await answer.ctx.reply(ctx.t("withdraw-bank-pending"));
      continue;
    }
    bank = picked;
  }
  return bank;
}

/**
 * A withdrawal's refusals that no other amount fixes (the account is gone, not verified, or still
 * in its cooling-off): said, and the flow ends.
 */
export function bankRefusalIsFinal(refusal: QuoteRefusal): boolean {
  return (
    refusal.reason === "bank-gone" || refusal.reason === "bank-pending" || refusal.reason === "bank-cooling"
  );
}
