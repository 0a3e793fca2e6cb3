/**
 * Method + path pattern → handler, with `:name` segments. A path that exists under another
 * method answers 405 like Laravel; anything else 404.
 */
import { HttpError, type Input, type Reply } from "./http-kit.ts";

export interface RequestContext {
  method: string;
  /** Without query and without a trailing slash. */
  path: string;
  query: Record<string, string>;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** Parsed JSON (or form) body; undefined when there was none. */
  body: unknown;
  /** Query and body merged, body winning: Laravel's `$request->input()`. */
  input: Input;
  params: Record<string, string>;
  /** Extra headers for the reply (rate-limit counters). */
  replyHeaders: Record<string, string>;
}

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

interface Route {
  method: string;
  regex: RegExp;
  names: string[];
  handler: Handler;
}

export class Router {
  readonly #routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler): this {
    const names: string[] = [];
    const source = pattern
      .split("/")
      .map((segment) => {
        if (!segment.startsWith(":")) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        names.push(segment.slice(1));
        return "([^/]+)";
      })
      .join("/");
    this.#routes.push({ method, regex: new RegExp(`^${source}$`), names, handler });
    return this;
  }

  get(pattern: string, handler: Handler): this {
    return this.add("GET", pattern, handler);
  }

  post(pattern: string, handler: Handler): this {
    return this.add("POST", pattern, handler);
  }

  delete(pattern: string, handler: Handler): this {
    return this.add("DELETE", pattern, handler);
  }

  /** The handler and its path parameters, or the 404/405 to answer. */
  find(
    method: string,
    path: string,
  ): { handler: Handler; params: Record<string, string> } | HttpError | undefined {
    const allowed: string[] = [];
    for (const route of this.#routes) {
      const match = route.regex.exec(path);
      if (!match) continue;
      if (route.method !== method) {
        allowed.push(route.method);
        continue;
      }
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => {
        params[name] = decodeURIComponent(match[i + 1] ?? "");
      });
      return { handler: route.handler, params };
    }
    if (allowed.length > 0) {
      return new HttpError(
        405,
        {
          message: `The ${method} method is not supported for route ${path.replace(/^\//, "")}. Supported methods: ${allowed.join(", ")}.`,
        },
        { allow: allowed.join(", ") },
      );
    }
    return undefined;
  }
}
