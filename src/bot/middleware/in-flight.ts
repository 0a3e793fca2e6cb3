/**
 * Counts updates being handled, so shutdown can wait for them. @grammyjs/runner's `stop()`
 * resolves once fetching has stopped, while updates it already handed to its sink may still
 * be running (and a conversation may still be writing its state): stopping the store under
 * them would lose that write.
 */
import type { MiddlewareFn } from "grammy";
import { InFlight as InFlightWork } from "../../support/in-flight.ts";

export class InFlight extends InFlightWork {
  readonly middleware: MiddlewareFn = (_ctx, next) => this.track(next);
}
