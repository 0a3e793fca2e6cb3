import { ExchangeError } from "../../src/exchange/errors.ts";

/** The ExchangeError a promise rejects with (fails the test if it resolves or throws another error). */
export async function failure(promise: Promise<unknown>): Promise<ExchangeError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ExchangeError) return error;
    throw error;
  }
  throw new Error("expected the call to fail, it succeeded");
}
