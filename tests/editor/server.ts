import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildEmberscope, freePort, Playground, REPO } from '../support/playground';

/** Builds the editor's test page (tests/editor/harness) and returns the directory it is in. */
export function buildHarness(): string {
  execFileSync('npx', ['webpack', '-c', 'tests/editor/harness/webpack.config.ts'], { cwd: REPO, stdio: 'inherit' });
  const dir = path.join(os.tmpdir(), 'emberscope-editor-harness');
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    throw new Error(`the editor test page was not built into ${dir}`);
  }
  return dir;
}

/**
 * Starts `emberscope playground` with its embedded store, serving staticDir instead of the
 * playground page (tests/support/playground.ts always serves dist-playground/).
 */
export async function startPlaygroundServing(staticDir: string): Promise<Playground> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'emberscope-editor-e2e-'));
  const bin = buildEmberscope(tmp);
  const port = await freePort();
  const args = ['playground', '-listen', `127.0.0.1:${port}`, '-data', path.join(tmp, 'data'), '-static', staticDir];
  const child: ChildProcess = spawn(bin, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const storeUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`playground did not start within 60 s; output:\n${out}`)), 60_000);
    const onData = (b: Buffer) => {
      out += b.toString();
      const store = out.match(/send profiles to (http:\/\/[^\s)]+)\/ingest/);
      if (store && out.includes('playground at')) {
        clearTimeout(timer);
        resolve(store[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`playground exited with ${code} before it was ready; output:\n${out}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    storeUrl,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          fs.rmSync(tmp, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
