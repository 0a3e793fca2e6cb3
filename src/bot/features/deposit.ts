/**
 * /deposit: the user's deposit addresses, each copyable (`<code>`) with a button for its QR
 * picture, and "New address": pick a currency (buttons from the price list, or the code typed),
 * check that receiving it is open, generate the address and show it with its QR.
 *
 * Callback data never carries an address (64-byte limit, and a chat is no place to trust data
 * from): a QR button carries the address's position in the list and a short fingerprint of it,
 * so a list that changed in between still finds the right address or says it is gone.
 *
 * `/deposit new` starts the new-address flow; `/deposit new btc` skips the currency question.
 */
import { createHash } from "node:crypto";
import { InlineKeyboard, InputFile } from "grammy";
import type { Translate } from "../../domain/translate.ts";
import type { Address } from "../../exchange/schemas.ts";
import type { BotContext, Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { enterFlow } from "../flows/enter.ts";
import { sessionCall } from "../flows/session-call.ts";
import { waitAnswer } from "../flows/wait.ts";
import { requireLogin } from "../middleware/require-login.ts";
import type { FlowSpec } from "../runtime/conversations.ts";
import { Feature } from "../runtime/feature-router.ts";
import { CALLBACK } from "../ui/callback-data.ts";
import { chunkBlocks } from "../ui/chunks.ts";
import { escapeHtml } from "../ui/format.ts";
import { qrPng } from "../ui/qr-png.ts";
import { userText } from "../ui/user-text.ts";

export const DEPOSIT_NEW_FLOW = "deposit-new";
/** The newest this many addresses are listed (a message and a keyboard have limits). */
const MAX_LISTED = 20;
const CODE = /^[a-z0-9]{1,12}$/;
/** The new-address flow's currency picker: a currency or Cancel. */
const PICKER = new RegExp(
  `${CALLBACK.depositCurrency.pattern.source}|${CALLBACK.depositCancel.pattern.source}`,
);

interface Currency {
  code: string;
  name: string;
}

/** Eight characters that tell one address from another; not a secret, just an identity check. */
export function addressFingerprint(address: string): string {
  return createHash("sha256").update(address).digest("base64url").slice(0, 8);
}

/** The QR picture of an address as PNG bytes. */
export async function addressQr(address: string): Promise<Uint8Array> {
  return qrPng(address, { scale: 8 });
}

function findCurrency(currencies: readonly Currency[], typed: string): Currency | undefined {
  const wanted = typed.trim().toLowerCase();
  return currencies.find((c) => c.code === wanted || c.name.toLowerCase() === wanted);
}

function shortTail(address: string): string {
  return address.length > 10 ? `…${address.slice(-6)}` : address;
}

async function sendAddressPhoto(
  ctx: BotContext | FlowContext,
  t: Translate,
  captionKey: string,
  address: Address,
): Promise<void> {
  const png = await addressQr(address.address);
  await ctx.replyWithPhoto(new InputFile(png, "address.png"), {
    caption: t(captionKey, { name: escapeHtml(address.currency_name), address: escapeHtml(address.address) }),
    parse_mode: "HTML",
  });
}

/** The `DEPOSIT_NEW_FLOW` conversation, installed by bot.ts. */
export function depositNewConversation(deps: Pick<BotDeps, "sessions" | "profiles" | "phishing">): FlowSpec {
  return { id: DEPOSIT_NEW_FLOW, steps: newAddressFlow(deps) };
}

export function depositFeature(
  deps: Pick<BotDeps, "sessions" | "profiles" | "phishing">,
): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();

  async function startNew(ctx: BotContext, preset?: string): Promise<void> {
    await enterFlow(ctx, DEPOSIT_NEW_FLOW, preset);
  }

  composer.command("deposit", requireLogin(deps), async (ctx) => {
    const [word, code] = ctx.match.trim().toLowerCase().split(/\s+/);
    if (word === "new" || word === "neu") return startNew(ctx, code);
    const list = await deps.sessions.use(ctx.from.id, (client) => client.addresses());
    const keyboard = new InlineKeyboard();
    if (list.length === 0) {
      keyboard.text(ctx.t("deposit-button-new"), CALLBACK.depositNew.data());
      await ctx.reply(ctx.t("deposit-none"), { reply_markup: keyboard });
      return;
    }
    const first = Math.max(0, list.length - MAX_LISTED);
    const blocks = [ctx.t("deposit-title")];
    if (first > 0) blocks.push(ctx.t("deposit-showing-newest", { shown: MAX_LISTED, total: list.length }));
    for (let index = first; index < list.length; index++) {
      const item = list[index] as Address;
      blocks.push(
        ctx.t("deposit-item", { name: escapeHtml(item.currency_name), address: escapeHtml(item.address) }),
      );
      keyboard
        .text(
          ctx.t("deposit-button-qr", { name: item.currency_name, tail: shortTail(item.address) }),
          CALLBACK.depositQr.data(index, addressFingerprint(item.address)),
        )
        .row();
    }
    blocks.push(ctx.t("deposit-warning"));
    keyboard.text(ctx.t("deposit-button-new"), CALLBACK.depositNew.data());
    const messages = chunkBlocks(blocks);
    for (const [index, text] of messages.entries()) {
      const last = index === messages.length - 1;
      await ctx.reply(text, { parse_mode: "HTML", ...(last ? { reply_markup: keyboard } : {}) });
    }
  });

  composer.callbackQuery(CALLBACK.depositQr.pattern, requireLogin(deps), async (ctx) => {
    await ctx.answerCallbackQuery();
    const { index, fingerprint } = CALLBACK.depositQr.read(ctx);
    const list = await deps.sessions.use(ctx.from.id, (client) => client.addresses());
    const atIndex = list[index];
    const found =
      atIndex && addressFingerprint(atIndex.address) === fingerprint
        ? atIndex
        : list.find((item) => addressFingerprint(item.address) === fingerprint);
    if (!found) {
      await ctx.reply(ctx.t("deposit-address-gone"));
      return;
    }
    await sendAddressPhoto(ctx, ctx.t, "deposit-qr-caption", found);
  });

  composer.callbackQuery(CALLBACK.depositNew.data(), requireLogin(deps), async (ctx) => {
    await ctx.answerCallbackQuery();
    await startNew(ctx);
  });

  // A currency picker left over from a finished flow: say so instead of a spinning button.
  composer.callbackQuery(PICKER, async (ctx) => {
    await ctx.answerCallbackQuery({ text: ctx.t("deposit-picker-expired") });
  });
  return composer;
}

function newAddressFlow(deps: Pick<BotDeps, "sessions" | "profiles" | "phishing">) {
  return async function depositNew(conversation: Flow, ctx: FlowContext, preset?: unknown): Promise<void> {
    const currencies: Currency[] = await sessionCall(conversation, ctx, deps, async (client) =>
      (await client.prices())
        .map((p) => ({ code: p.currency_code.toLowerCase(), name: p.currency_name }))
        .filter((c) => CODE.test(c.code)),
    );
    const list = currencies.map((c) => c.code.toUpperCase()).join(", ");

    let choice = typeof preset === "string" ? findCurrency(currencies, preset) : undefined;
    if (typeof preset === "string" && !choice) {
      await ctx.reply(ctx.t("deposit-unknown-currency", { currency: userText(preset, 32), list }));
    }
    if (!choice) {
      const keyboard = new InlineKeyboard();
      for (const [i, currency] of currencies.entries()) {
        keyboard.text(currency.code.toUpperCase(), CALLBACK.depositCurrency.data(currency.code));
        if (i % 4 === 3) keyboard.row();
      }
      keyboard.row().text(ctx.t("button-cancel"), CALLBACK.depositCancel.data());
      await ctx.reply(ctx.t("deposit-choose-currency"), { reply_markup: keyboard });
      for (;;) {
        const answer = await waitAnswer(conversation, { taps: PICKER });
        if (answer.kind === "tap" && answer.data === CALLBACK.depositCancel.data()) {
          await ctx.reply(ctx.t("flow-cancelled"));
          return;
        }
        const typed =
          answer.kind === "tap" ? (CALLBACK.depositCurrency.unpack(answer.data)?.code ?? "") : answer.text;
        choice = findCurrency(currencies, typed);
        if (choice) break;
        await ctx.reply(ctx.t("deposit-unknown-currency", { currency: userText(typed, 32), list }));
      }
    }
    const chosen = choice;
    const open = await sessionCall(conversation, ctx, deps, (client) =>
      client.assetStatus("receive", chosen.code),
    );
    if (!open) {
      await ctx.reply(
        ctx.t("deposit-receive-paused", { currency: chosen.code.toUpperCase(), name: chosen.name }),
      );
      return;
    }
    const created: Address = await sessionCall(conversation, ctx, deps, (client) =>
      client.createAddress(chosen.code),
    );
    await sendAddressPhoto(ctx, ctx.t, "deposit-new-created", created);
  };
}
