/**
 * Charts drawn in a worker thread, so that what drawing costs in memory is handed back when the
 * bot stops drawing. ECharts' bundle, resvg's WebAssembly memory (a linear memory never shrinks)
 * and the garbage ECharts leaves per chart would otherwise stay in the bot's own heap for good
 * (bench/README.md, "(h) Price charts": 225 MiB peak RSS in the main thread). The worker starts
 * at the first chart, is reused while charts are asked for, and ends after `idleMs` without one,
 * taking all of that with it. Its V8 heap is capped small (`resourceLimits`): a small young
 * generation is collected often, which keeps the heap, and so the process's RSS, small.
 *
 * One worker, one chart at a time (drawing is CPU; the machine's other core serves updates), at
 * most `maxWaiting` asked for at once: more fail at once instead of queueing up memory and
 * latency. A worker that crashes, runs out of its heap, is stopped or takes longer than
 * `timeoutMs` fails the charts it holds with a ChartDrawError (the features answer with the text
 * card instead); the next chart starts a fresh one.
 *
 * @example
 * const png = await drawChart(spec); // PNG, for sendPhoto
 * const jpeg = await drawChart(spec, { format: "jpeg", width: 320, quality: 80 });
 */
import { type ResourceLimits, Worker } from "node:worker_threads";
import type { ChartPicture, ChartSpec } from "./render.ts";
import { CHART_WORKER_DATA, CHART_WORKER_URL, type DrawReply, type DrawRequest } from "./worker.ts";

/** A chart that could not be drawn: the caller answers without it. */
export class ChartDrawError extends Error {
  override name = "ChartDrawError";
}

export interface ChartDrawerOptions {
  /** How long the worker stays after its last chart. */
  idleMs?: number;
  /** Charts drawn or waiting at once; one more fails at once. */
  maxWaiting?: number;
  /** The longest one chart may take, waiting included, before its worker is ended. */
  timeoutMs?: number;
  /** The worker's heap (bench/README.md, "(h) Price charts", for how these were chosen). */
  resourceLimits?: ResourceLimits;
}

const DEFAULTS = {
  idleMs: 30_000,
  maxWaiting: 16,
  timeoutMs: 15_000,
  resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 96 },
} satisfies Required<ChartDrawerOptions>;

interface Waiting {
  resolve: (bytes: Buffer) => void;
  reject: (error: ChartDrawError) => void;
  timer: NodeJS.Timeout;
}

export class ChartDrawer {
  readonly #options: Required<ChartDrawerOptions>;
  #worker: Worker | undefined;
  readonly #waiting = new Map<number, Waiting>();
  #lastId = 0;
  #idle: NodeJS.Timeout | undefined;
  /** Workers started so far (a test sees a fresh one after a crash). */
  started = 0;

  constructor(options: ChartDrawerOptions = {}) {
    this.#options = { ...DEFAULTS, ...options };
  }

  /** Whether a worker is running now. */
  get running(): boolean {
    return this.#worker !== undefined;
  }

  /** The chart's bytes; PNG unless told otherwise. Rejects with a ChartDrawError. */
  draw(spec: ChartSpec, picture: ChartPicture = { format: "png" }): Promise<Buffer> {
    if (this.#waiting.size >= this.#options.maxWaiting) {
      return Promise.reject(new ChartDrawError(`${this.#waiting.size} charts are being drawn already`));
    }
    clearTimeout(this.#idle);
    const worker = this.#worker ?? this.#start();
    const id = ++this.#lastId;
    return new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(
        () => this.#end(worker, new ChartDrawError(`no chart within ${this.#options.timeoutMs} ms`)),
        this.#options.timeoutMs,
      );
      this.#waiting.set(id, { resolve, reject, timer });
      const request: DrawRequest = { id, spec, picture };
      worker.postMessage(request);
    });
  }

  /** Ends the worker now; the charts it holds fail. The next chart starts another. */
  async stop(): Promise<void> {
    const worker = this.#worker;
    if (worker !== undefined) await this.#end(worker, new ChartDrawError("the chart worker was stopped"));
  }

  #start(): Worker {
    const worker = new Worker(CHART_WORKER_URL, {
      workerData: CHART_WORKER_DATA,
      resourceLimits: this.#options.resourceLimits,
    });
    this.started++;
    this.#worker = worker;
    // A worker waiting for charts does not keep the process alive.
    worker.unref();
    worker.on("message", (reply: DrawReply) => this.#settle(reply));
    worker.on(
      "error",
      (error) => void this.#end(worker, new ChartDrawError(error.message, { cause: error })),
    );
    worker.on(
      "exit",
      (code) => void this.#end(worker, new ChartDrawError(`the chart worker exited (${code})`)),
    );
    return worker;
  }

  #settle(reply: DrawReply): void {
    const waiting = this.#waiting.get(reply.id);
    if (waiting === undefined) return;
    this.#waiting.delete(reply.id);
    clearTimeout(waiting.timer);
    if ("bytes" in reply) {
      waiting.resolve(Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength));
    } else {
      waiting.reject(new ChartDrawError(reply.error));
    }
    if (this.#waiting.size === 0) {
      this.#idle = setTimeout(() => void this.stop(), this.#options.idleMs);
      this.#idle.unref();
    }
  }

  /** Fails every chart `worker` holds and ends it (once: a later error or exit finds it gone). */
  async #end(worker: Worker, error: ChartDrawError): Promise<void> {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    clearTimeout(this.#idle);
    for (const waiting of this.#waiting.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(error);
    }
    this.#waiting.clear();
    await worker.terminate();
  }
}

/** The bot's one drawer. */
const drawer = new ChartDrawer();

/** The chart drawn in the bot's chart worker: PNG unless told otherwise. Rejects with a ChartDrawError. */
export function drawChart(spec: ChartSpec, picture?: ChartPicture): Promise<Buffer> {
  return drawer.draw(spec, picture);
}
