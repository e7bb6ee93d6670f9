// A stand-in for `emberscope playground` used only while the Go playground is not available:
// serves dist-playground/ and answers Grafana's HTTP shapes with a synthetic profile.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { flameFrameJSON, seriesFrameJSON, syntheticTree } from './synthetic.mjs';

const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.css': 'text/css',
  '.woff2': 'font/woff2',
};

/** Starts the fixture server on 127.0.0.1:port (0 = any); resolves to {url, close}. */
export function startFixtureServer({ root, port = 0, nodes = 3000 }) {
  const frame = flameFrameJSON(syntheticTree({ nodes, seed: 7, maxDepth: 24 }));
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const json = (code, body) => {
      res.writeHead(code, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/api/ds/query' && req.method === 'POST') {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const q = JSON.parse(body || '{}');
        const from = Number(q.from);
        const to = Number(q.to);
        const frames = [frame];
        if (q.queries?.[0]?.queryType !== 'profile') {
          frames.push(
            seriesFrameJSON(from, to, Math.max(10000, Math.round((to - from) / 60)), { service_name: 'fixture' })
          );
        }
        json(200, { results: { A: { status: 200, frames } } });
      });
      return;
    }
    if (url.pathname.endsWith('/resources/profileTypes')) {
      return json(200, [{ id: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds', name: 'process_cpu - cpu' }]);
    }
    if (url.pathname.endsWith('/resources/labelNames')) {
      return json(200, ['service_name']);
    }
    if (url.pathname.endsWith('/resources/labelValues')) {
      return json(200, ['fixture']);
    }
    const file = path.join(root, url.pathname === '/' ? 'index.html' : path.normalize(url.pathname));
    if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      const index = path.join(root, 'index.html');
      res.writeHead(200, { 'Content-Type': 'text/html' });
      return res.end(fs.readFileSync(index));
    }
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const a = server.address();
      resolve({ url: `http://127.0.0.1:${a.port}`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = path.resolve(process.argv[2] ?? 'dist-playground');
  startFixtureServer({ root, port: Number(process.argv[3] ?? 0) }).then((s) => console.log(s.url));
}
