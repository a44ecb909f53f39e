#!/usr/bin/env node
// The example's server: bundles src/main.ts for the browser (rolldown), serves the page, and mints the browser's
// ephemeral key at /realtime-key. `node server.mjs` runs against the Realtime simulator (no key, no network);
// `OPENAI_API_KEY=sk-… node server.mjs --openai` against OpenAI, with a client secret per connection. `--webrtc`
// makes the page call over WebRTC instead of a WebSocket.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Bundles the page's code; in this repository the workspace's sources (`@parley/source`), elsewhere the packages. */
export async function bundlePage() {
  const { rolldown } = await import('rolldown');
  const bundle = await rolldown({
    input: join(here, 'src', 'main.ts'),
    platform: 'browser',
    resolve: { conditionNames: ['@parley/source', 'browser', 'import', 'module', 'default'] },
    logLevel: 'silent',
  });
  try {
    const { output } = await bundle.generate({ format: 'esm', minify: true, codeSplitting: false });
    return output[0].code;
  } finally {
    await bundle.close();
  }
}

/**
 * Serves the page on 127.0.0.1. `realtimeKey()` answers `/realtime-key` with `{ key, transport?, url?, baseURL? }`
 * (`transport`: `'websocket'` (default) or `'webrtc'`; `url`: where a WebSocket connects when it is not OpenAI;
 * `baseURL`: the API root a WebRTC call's offer goes to when it is not OpenAI). Resolves with `{ url, close() }`.
 */
export async function startExampleServer({ port = 0, realtimeKey }) {
  const [html, script] = await Promise.all([readFile(join(here, 'index.html'), 'utf8'), bundlePage()]);
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path === '/' || path === '/index.html') return send(response, 200, 'text/html', html);
    if (path === '/app.js') return send(response, 200, 'text/javascript', script);
    if (path === '/realtime-key') {
      realtimeKey().then(
        (answer) => send(response, 200, 'application/json', JSON.stringify(answer)),
        (error) => send(response, 502, 'text/plain', `No key: ${error?.message ?? error}`),
      );
      return;
    }
    send(response, 404, 'text/plain', 'Not found');
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const address = server.address();
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(response, status, type, body) {
  response.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
  response.end(body);
}

async function main() {
  const port = Number(process.env.PORT ?? 5173);
  const closers = [];
  const transport = process.argv.includes('--webrtc') ? 'webrtc' : 'websocket';
  const { createClientSecret } = await import('@parley/openai');
  let realtimeKey;
  if (process.argv.includes('--openai')) {
    const apiKey = process.env.OPENAI_API_KEY;
    if (!apiKey) throw new Error('--openai needs OPENAI_API_KEY in the environment.');
    realtimeKey = async () => ({
      key: (await createClientSecret({ apiKey, expiresAfterSeconds: 600 })).value,
      transport,
    });
  } else {
    const { startRealtimeSimulator } = await import('@parley/simulator');
    // The simulator's model asks for the weather, then reads the tool's answer back.
    const sim = await startRealtimeSimulator({
      brain: (turn) =>
        turn.toolOutputs.length > 0
          ? `Here is the weather: ${turn.toolOutputs.map((t) => t.output).join(' ')} Anything else I can do for you today?`
          : { type: 'function_call', name: 'get_weather', arguments: { city: 'Paris' } },
      transcribe: () => 'What is the weather in Paris?',
    });
    closers.push(() => sim.close());
    realtimeKey = async () =>
      transport === 'webrtc'
        ? {
            // The simulator mints client secrets as the service does.
            key: (await createClientSecret({ apiKey: 'sk-simulator', baseURL: sim.httpBaseURL })).value,
            transport,
            baseURL: sim.httpBaseURL,
          }
        : { key: 'ek_simulator', url: sim.url };
    console.log(`Realtime simulator on ${sim.url}`);
  }
  const page = await startExampleServer({ port, realtimeKey });
  closers.push(page.close);
  console.log(`Open ${page.url} and press Start (Ctrl+C to stop).`);
  process.once('SIGINT', async () => {
    for (const close of closers.reverse()) await close();
    process.exit(0);
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error?.message ?? error);
    process.exit(1);
  });
}
