/** The exchange: its address and the API client the operator registered there. */
import { z } from "zod";
import type { Env } from "../error.ts";
import type { Config } from "../types.ts";
import { required, url, withoutPlaceholder } from "./fields.ts";
import { parseSection } from "./section.ts";

const SECRET_WHAT = "the API client secret the exchange gave you";

const exchangeSchema = z.object({
  EXCHANGE_CLIENT_ID: required("EXCHANGE_CLIENT_ID", "the API client id the exchange gave you (a number)")
    .regex(/^\d+$/, { error: "EXCHANGE_CLIENT_ID must be a whole number." })
    .transform(Number),
  EXCHANGE_API_URL: url(required("EXCHANGE_API_URL", "the exchange's base URL"), "EXCHANGE_API_URL", [
    "https:",
    "http:",
  ]),
  EXCHANGE_CLIENT_SECRET: withoutPlaceholder(
    required("EXCHANGE_CLIENT_SECRET", SECRET_WHAT),
    "EXCHANGE_CLIENT_SECRET",
    SECRET_WHAT,
  ),
});

export function exchangeSection(env: Env): Pick<Config, "exchange"> {
  const read = parseSection(exchangeSchema, env);
  return {
    exchange: {
      url: read.EXCHANGE_API_URL,
      clientId: read.EXCHANGE_CLIENT_ID,
      clientSecret: read.EXCHANGE_CLIENT_SECRET,
    },
  };
}
