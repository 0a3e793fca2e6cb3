import type { z } from "zod";
import { ExchangeError } from "./errors.ts";
import type { HttpResponse } from "./http.ts";

/**
 * Checks a success body against its schema. A mismatch is a `bad-response` error that names the
 * fields that were wrong, never their values (a value could be personal data).
 */
export function parseResponse<T extends z.ZodType>(
  schema: T,
  response: HttpResponse,
  method: string,
  path: string,
): z.output<T> {
  const result = schema.safeParse(response.data);
  if (result.success) return result.data;
  const fields = result.error.issues.map((issue) => issue.path.join(".") || "(body)");
  throw new ExchangeError(
    `${method} ${path}: the exchange's answer did not have the expected shape (${[...new Set(fields)].join(", ")})`,
    {
      kind: "bad-response",
      method,
      path,
      status: response.status,
      requestId: response.requestId,
      cause: { name: "SchemaMismatch", message: `unexpected fields: ${fields.join(", ")}` },
    },
  );
}
