/**
 * The chart worker's side: a `node:worker_threads` Worker that runs this module draws each chart
 * it is sent (render.ts) and posts the bytes back. drawer.ts starts it with this module's own
 * address (`CHART_WORKER_URL`), which is right wherever the code runs: `src/charts/worker.ts`
 * under Node's type stripping (tests, the demo), `dist/charts/worker.js` under `npm start`. In the
 * main thread importing this module only reads that address and the message types.
 *
 * @example
 * new Worker(CHART_WORKER_URL, { workerData: CHART_WORKER_DATA });
 */
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { type ChartPicture, type ChartSpec, renderChart } from "./render.ts";

export const CHART_WORKER_URL = new URL(import.meta.url);

/** What the main thread passes as `workerData`: only a worker started with it serves charts. */
export const CHART_WORKER_DATA = "exchange-bot:chart-worker";

export interface DrawRequest {
  id: number;
  spec: ChartSpec;
  picture: ChartPicture;
}

export type DrawReply = { id: number; bytes: Uint8Array } | { id: number; error: string };

if (!isMainThread && workerData === CHART_WORKER_DATA && parentPort !== null) {
  const port = parentPort;
  port.on("message", (request: DrawRequest) => {
    renderChart(request.spec, request.picture).then(
      (bytes) => {
        const reply: DrawReply = { id: request.id, bytes };
        // The bytes move to the main thread instead of being copied (a Buffer may share its
        // ArrayBuffer with others: then it is copied).
        const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
        port.postMessage(reply, whole && bytes.buffer instanceof ArrayBuffer ? [bytes.buffer] : []);
      },
      (error: unknown) => {
        const reply: DrawReply = {
          id: request.id,
          error: error instanceof Error ? error.message : String(error),
        };
        port.postMessage(reply);
      },
    );
  });
}
