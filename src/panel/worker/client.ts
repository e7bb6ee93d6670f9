// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameData } from '../../shared/flameData';
import { LayoutInput, LayoutOutput } from '../model/callGraphLayout';
import { SandwichParts } from '../model/sandwichMerge';
import { FrameColumns, Reply, Request } from './protocol';

/** What the client needs of a Worker (a test gives a stand-in). */
export interface WorkerLike {
  postMessage(msg: Request, transfer: Transferable[]): void;
  onmessage: ((e: MessageEvent<Reply>) => void) | null;
  onerror: ((e: Event) => void) | null;
  onmessageerror: ((e: Event) => void) | null;
  terminate(): void;
}

/** The worker could not be started, failed, or was refused (a content security policy): do the work here. */
export class WorkerGone extends Error {}

interface Pending {
  req: Request;
  data?: FlameData;
  resolve: (r: Reply) => void;
  reject: (e: Error) => void;
}

/**
 * The panel's side of the model worker: starts it on first use, sends a frame's columns once
 * (copies handed over, so the page keeps its own), and answers each request's promise. When the
 * worker cannot be made or fails (an error event: its script refused or broken), every request
 * in flight is rejected with WorkerGone, `available` turns false for good, and the callers do
 * the work on the main thread in idle slices.
 */
export class ModelWorkerClient {
  private worker?: WorkerLike | null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly frameIds = new WeakMap<FlameData, number>();
  private nextFrame = 1;

  constructor(private readonly spawn: () => WorkerLike | null) {}

  /** Whether work can go to the worker (it is started by this call when not yet). */
  get available(): boolean {
    return this.started() !== null;
  }

  /** Name k's sandwich of the frame (cut at depthLimit when given), merged in the worker. */
  sandwich(data: FlameData, nameIdx: number, depthLimit?: number): Promise<SandwichParts> {
    let frame = this.frameIds.get(data);
    const first = frame === undefined;
    if (frame === undefined) {
      frame = this.nextFrame++;
      this.frameIds.set(data, frame);
    }
    const req: Request = { id: this.nextId++, kind: 'sandwich', frame, nameIdx, depthLimit };
    return this.ask(req, first ? data : undefined, data).then((r) => {
      if (r.ok && r.kind === 'sandwich') {
        return r.parts;
      }
      throw new Error(r.ok ? 'unexpected reply' : 'error' in r ? r.error : 'frame missing');
    });
  }

  /** A measured call graph placed by dagre in the worker. */
  layout(input: LayoutInput): Promise<LayoutOutput> {
    return this.ask({ id: this.nextId++, kind: 'layout', input }).then((r) => {
      if (r.ok && r.kind === 'layout') {
        return r.output;
      }
      throw new Error(r.ok ? 'unexpected reply' : 'error' in r ? r.error : 'unexpected reply');
    });
  }

  private started(): WorkerLike | null {
    if (this.worker === undefined) {
      try {
        this.worker = this.spawn();
      } catch {
        // refused at construction (a cross-origin script, a policy that forbids it)
        this.worker = null;
      }
      const w = this.worker;
      if (w) {
        w.onmessage = (e) => this.answer(e.data);
        w.onerror = () => this.gone('the model worker failed');
        w.onmessageerror = () => this.gone('a model worker message could not be read');
      }
    }
    return this.worker;
  }

  private ask(req: Request, send?: FlameData, data?: FlameData): Promise<Reply> {
    const w = this.started();
    if (!w) {
      return Promise.reject(new WorkerGone('no model worker'));
    }
    return new Promise<Reply>((resolve, reject) => {
      this.pending.set(req.id, { req, data, resolve, reject });
      this.post(w, req, send);
    });
  }

  private post(w: WorkerLike, req: Request, send?: FlameData) {
    if (send && req.kind === 'sandwich') {
      const columns = columnsOf(send);
      w.postMessage({ ...req, columns }, buffersOf(columns));
    } else {
      w.postMessage(req, []);
    }
  }

  private answer(r: Reply) {
    const p = this.pending.get(r.id);
    if (!p) {
      return;
    }
    if (!r.ok && 'missingFrame' in r && p.data && this.worker) {
      // the worker let the frame go (it keeps the last few): sent again with its columns
      this.post(this.worker, p.req, p.data);
      return;
    }
    this.pending.delete(r.id);
    p.resolve(r);
  }

  private gone(reason: string) {
    const w = this.worker;
    this.worker = null;
    w?.terminate();
    for (const p of this.pending.values()) {
      p.reject(new WorkerGone(reason));
    }
    this.pending.clear();
  }
}

/** A frame's columns as fresh typed arrays (the worker gets these copies; the page keeps its own). */
export function columnsOf(d: FlameData): FrameColumns {
  // the constructors copy a typed array (or a plain one) in one go; `from` reads it element by element
  const f64 = (c: ArrayLike<number>) => new Float64Array(c);
  const i32 = (c: ArrayLike<number>) => new Int32Array(c);
  const cols: FrameColumns = {
    count: d.count,
    level: i32(d.level),
    value: f64(d.value),
    self: f64(d.self),
    nameIdx: i32(d.nameIdx),
    maxLevel: d.maxLevel,
    nameCount: d.names.length,
  };
  if (d.valueRight && d.selfRight) {
    cols.valueRight = f64(d.valueRight);
    cols.selfRight = f64(d.selfRight);
  }
  if (d.virtual && d.virtualLabelIdx) {
    cols.virtual = new Uint8Array(d.virtual);
    cols.virtualLabelIdx = i32(d.virtualLabelIdx);
  }
  return cols;
}

function buffersOf(cols: FrameColumns): Transferable[] {
  const out: Transferable[] = [];
  for (const v of Object.values(cols) as unknown[]) {
    if (ArrayBuffer.isView(v)) {
      out.push(v.buffer as ArrayBuffer);
    }
  }
  return out;
}

/** The worker script's file, beside the panel's module (see the webpack configs). */
export const WORKER_FILE = 'model-worker.js';

declare const __webpack_public_path__: string;

/**
 * Starts the model worker from the bundle's own public path. The same origin's script is started
 * as it is; one from another origin (a CDN: a worker of another origin is refused) through a
 * same-origin blob: script that imports it. Null where there is no bundle or no Worker (tests).
 */
export function spawnModelWorker(): WorkerLike | null {
  if (typeof Worker === 'undefined' || typeof document === 'undefined' || typeof __webpack_public_path__ !== 'string') {
    return null;
  }
  const url = new URL(__webpack_public_path__ + WORKER_FILE, document.baseURI);
  if (url.origin === window.location.origin) {
    return new Worker(url) as unknown as WorkerLike;
  }
  const boot = new Blob([`importScripts(${JSON.stringify(url.href)});`], { type: 'text/javascript' });
  return new Worker(URL.createObjectURL(boot)) as unknown as WorkerLike;
}

let shared: ModelWorkerClient | undefined;

/** The page's one model worker client. */
export function modelWorker(): ModelWorkerClient {
  return (shared ??= new ModelWorkerClient(spawnModelWorker));
}
