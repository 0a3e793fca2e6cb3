/**
 * What is left of one of the exchange's limits: today's or this month's room, whichever is
 * smaller (the one that binds), never below zero. Every quote that counts against a limit uses it.
 *
 * @example
 * const left = limitLeft(await client.limits("fiat_withdrawal"), "fiat_withdrawal");
 * if (left !== undefined && amount.gt(left.left)) refuse("limit", left);
 */
import Big from "big.js";
import { EUR } from "../domain/currency.ts";
import type { LimitRecord, LimitType } from "../exchange/schemas.ts";

/**
 * The currency every limit of the exchange counts in: euros, one reading for /limits, every
 * quote's check and every card. The exchange's API reference gives ceilings and their use as plain
 * numbers without a unit; it is a euro platform, its fiat limits are euros, and a crypto send is
 * checked by its euro value against `crypto_withdrawal` (send.ts), so the crypto limits are read
 * as euros too rather than shown as bare numbers.
 */
export function limitCurrency(_type?: string): string {
  return EUR;
}

export interface LimitLeft {
  type: LimitType;
  /** In {@link limitCurrency}, clamped at zero. */
  left: Big;
  /** Which ceiling binds. */
  period: "day" | "month";
}

/** The limit a quote noted for its card: absent when the exchange reports none of the kind's type. */
export interface LimitNote {
  limitType?: string;
  /** EUR. */
  limitLeft?: string;
  limitPeriod?: string;
}

/** One limit's ceilings and what was used of them, however the exchange's record spelled them. */
export interface Ceiling {
  daily: Big;
  monthly: Big;
  dayUsed: Big;
  monthUsed: Big;
}

/** Undefined when the exchange reports no record of that type (then no limit is shown or checked). */
export function limitLeft(records: readonly LimitRecord[], type: LimitType): LimitLeft | undefined {
  const record = records.find((r) => r.limit.code === type);
  if (record === undefined) return undefined;
  const { daily, monthly } = record.limit;
  return roomLeft(
    { daily, monthly, dayUsed: record.spent.day_used, monthUsed: record.spent.month_used },
    type,
  );
}

/** The room left under one ceiling: the smaller of today's and this month's, never below zero. */
export function roomLeft(ceiling: Ceiling, type: LimitType): LimitLeft {
  const dayLeft = ceiling.daily.minus(ceiling.dayUsed);
  const monthLeft = ceiling.monthly.minus(ceiling.monthUsed);
  const left = dayLeft.lt(monthLeft) ? dayLeft : monthLeft;
  return { type, left: left.lt(0) ? new Big(0) : left, period: dayLeft.lt(monthLeft) ? "day" : "month" };
}

/**
 * Notes the limit of `type` on the quote (`limitType`, `limitLeft`, `limitPeriod`: the card shows
 * it) and checks `counted` (EUR) against it. Returns the refusal's figures when it is over the
 * limit, undefined otherwise (also when the exchange reports no such limit).
 */
export function checkLimit(
  quote: LimitNote,
  records: readonly LimitRecord[],
  type: LimitType,
  counted: Big,
): { left: string; period: string; type: string } | undefined {
  return noteLimit(quote, limitLeft(records, type), counted);
}

/** {@link checkLimit} for a room already worked out (undefined: no such limit, nothing noted). */
export function noteLimit(
  quote: LimitNote,
  left: LimitLeft | undefined,
  counted: Big,
): { left: string; period: string; type: string } | undefined {
  if (left === undefined) return undefined;
  const { type } = left;
  const figures = { left: left.left.toFixed(), period: left.period, type };
  quote.limitType = type;
  quote.limitLeft = figures.left;
  quote.limitPeriod = figures.period;
  return counted.gt(left.left) ? figures : undefined;
}
