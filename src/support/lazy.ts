/**
 * A module loaded at its first use instead of at start-up: what a running bot rarely or never needs
 * (the QR encoder, the address validator, phone metadata) stays out of its memory until a user
 * reaches the feature. The first call starts the import; every later call gets the same promise.
 *
 * @example
 * const qrcode = lazy(() => import("qrcode"));
 * const png = await (await qrcode()).default.toBuffer(text);
 */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      // A load that failed is tried again at the next use, not remembered as failed.
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
