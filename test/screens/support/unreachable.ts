/**
 * Sentences of the locale files the catalogue cannot make the bot say, each with why. Keep it
 * short: a sentence that some state of the sandbox (its fault switches included) can bring about
 * belongs in a scenario instead.
 */
export const UNREACHABLE: Record<string, string> = {};
