// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/**
 * The model worker's protocol and its fallback, with the worker's own server run in a stand-in
 * Worker (answers come in a later microtask, as a worker's messages do): sandwiches merged
 * through it have google/pprof `-peek`'s values, a frame goes over once, a worker that forgot it
 * is sent it again, and a worker that fails or cannot be made sends every caller back to the
 * main thread.
 */
import fs from 'fs';
import path from 'path';
import { DataFrameJSON, dataFrameFromJSON } from '@grafana/data';
import { FlameData, flameDataLike, readFlameData } from '../../shared/flameData';
import { parsePeek } from '../testing/pprofText';
import { ModelWorkerClient, WorkerGone, WorkerLike } from './client';
import { modelServer } from './serve';
import { Reply, Request } from './protocol';
import { CallGraph } from '../model/callGraph';
import { sizeCallGraph } from '../model/callGraphLayout';

const REPO = path.join(__dirname, '../../..');
const frames: DataFrameJSON[] = JSON.parse(
  fs.readFileSync(path.join(REPO, 'pkg/datasource/plugin/testdata/grafana/profile_labeled.golden.json'), 'utf8')
);
const data = readFlameData(dataFrameFromJSON(frames[0]));
const peek = parsePeek(
  fs.readFileSync(path.join(REPO, 'internal/fixtures/pyroscope/pushed-profiles/labeled.peek.txt'), 'utf8')
);

/** A Worker stand-in running the worker's server; `sent` keeps what it was posted. */
class FakeWorker implements WorkerLike {
  onmessage: ((e: MessageEvent<Reply>) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;
  onmessageerror: ((e: Event) => void) | null = null;
  sent: Request[] = [];
  terminated = false;
  serve = modelServer();
  postMessage(msg: Request) {
    this.sent.push(msg);
    void Promise.resolve().then(() => {
      if (!this.terminated) {
        this.onmessage?.({ data: this.serve(msg).reply } as MessageEvent<Reply>);
      }
    });
  }
  terminate() {
    this.terminated = true;
  }
}

/** The level-1 children of a half: name → total. */
function firstLevel(d: FlameData): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 1; i < d.count; i++) {
    if (d.level[i] === 1) {
      const name = d.names[d.nameIdx[i]];
      out.set(name, (out.get(name) ?? 0) + d.value[i]);
    }
  }
  return out;
}

describe('the model worker', () => {
  it.each([...peek.keys()])(
    'merges the sandwich of %s with pprof -peek flat, cum, callers and callees',
    async (name) => {
      const fake = new FakeWorker();
      const client = new ModelWorkerClient(() => fake);
      const parts = await client.sandwich(data, data.names.indexOf(name));
      const p = peek.get(name)!;
      expect([parts.self, parts.total]).toEqual([p.flat, p.cum]);
      expect(firstLevel(flameDataLike(data, parts.callers))).toEqual(p.callers);
      expect(firstLevel(flameDataLike(data, parts.callees))).toEqual(p.callees);
    }
  );

  it('is sent a frame once: the next sandwich of it names the frame only', async () => {
    const fake = new FakeWorker();
    const client = new ModelWorkerClient(() => fake);
    const [a, b] = [...peek.keys()];
    await client.sandwich(data, data.names.indexOf(a));
    const cut = await client.sandwich(data, data.names.indexOf(b), 2);
    expect(fake.sent.map((m) => m.kind === 'sandwich' && m.columns !== undefined)).toEqual([true, false]);
    expect(cut.depthLimit).toBe(2);
    expect(cut.total).toBe(peek.get(b)!.cum);
  });

  it('sends the frame again to a worker that no longer holds it', async () => {
    const fake = new FakeWorker();
    const client = new ModelWorkerClient(() => fake);
    const name = [...peek.keys()][0];
    await client.sandwich(data, data.names.indexOf(name));
    // the worker's frames gone (as when it keeps only the last few)
    fake.serve = modelServer();
    const again = await client.sandwich(data, data.names.indexOf(name));
    expect(again.total).toBe(peek.get(name)!.cum);
    expect(fake.sent.map((m) => m.kind === 'sandwich' && m.columns !== undefined)).toEqual([true, false, true]);
  });

  it('places a call graph as the main thread does', async () => {
    const graph: CallGraph = {
      nodes: [
        { name: 'main.main', flat: 0, cum: 10, in: [], out: [0, 1] },
        { name: 'main.work', flat: 6, cum: 6, in: [0], out: [] },
        { name: 'runtime.mallocgc', flat: 4, cum: 4, in: [1], out: [] },
      ],
      edges: [
        { from: 0, to: 1, weight: 6, residual: false },
        { from: 0, to: 2, weight: 4, residual: false },
      ],
      total: 10,
      shown: 10,
      droppedNodes: 0,
      nodeCutoff: 0,
      droppedEdges: 0,
      edgeCutoff: 0,
      beforeTop: 3,
      nodeCount: 80,
    };
    const sized = sizeCallGraph(graph, (t, size) => t.length * size * 0.6, String);
    const client = new ModelWorkerClient(() => new FakeWorker());
    const out = await client.layout(sized.input);
    // callers above callees, every drawn arrow from its caller's box down to its callee's
    expect(out.boxes[0].y).toBeLessThan(out.boxes[1].y);
    expect(out.boxes[0].y).toBeLessThan(out.boxes[2].y);
    for (const [k, e] of graph.edges.entries()) {
      const pts = out.arrows[k]!.points;
      expect(pts[0].y).toBeGreaterThan(out.boxes[e.from].y);
      expect(pts[pts.length - 1].y).toBeLessThan(out.boxes[e.to].y);
    }
  });

  it('that fails sends the requests in flight back to the main thread, and later ones too', async () => {
    const fake = new FakeWorker();
    fake.postMessage = function (msg: Request) {
      this.sent.push(msg);
      // the script refused (a content security policy) or broken: an error event, no answer
      void Promise.resolve().then(() => this.onerror?.(new Event('error')));
    };
    const client = new ModelWorkerClient(() => fake);
    expect(client.available).toBe(true);
    await expect(client.sandwich(data, 1)).rejects.toBeInstanceOf(WorkerGone);
    expect(fake.terminated).toBe(true);
    expect(client.available).toBe(false);
    await expect(client.sandwich(data, 1)).rejects.toBeInstanceOf(WorkerGone);
    expect(fake.sent).toHaveLength(1);
  });

  it('that cannot be made (refused at construction) is not available', async () => {
    const client = new ModelWorkerClient(() => {
      throw new DOMException('refused', 'SecurityError');
    });
    expect(client.available).toBe(false);
    await expect(client.layout({ boxes: [], arrows: [], dense: false })).rejects.toBeInstanceOf(WorkerGone);
  });
});
