/**
 * How a section of the environment is read: its zod schema over the variables, and the first of
 * zod's issues turned into the ConfigError an operator reads (each issue's message is already that
 * sentence, written by the schema's fields).
 */
import type { z } from "zod";
import { ConfigError, type Env } from "../error.ts";

/** Every value trimmed; an empty one counts as unset, as if the line were not in the file. */
export function cleaned(env: Env): Env {
  const out: Env = {};
  for (const [name, value] of Object.entries(env)) {
    const trimmed = value?.trim();
    out[name] = trimmed === "" ? undefined : trimmed;
  }
  return out;
}

/** The section's values, or the sentence of its first bad variable (zod reports them in the schema's order). */
export function parseSection<T extends z.ZodObject>(schema: T, env: Env): z.output<T> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const [first] = result.error.issues;
  throw new ConfigError(
    String(first?.path[0] ?? ""),
    first?.message ?? "The configuration could not be read.",
  );
}
