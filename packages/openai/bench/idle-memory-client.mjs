// One client run of the idle-memory benchmark, in a fresh process forked by idle-memory-bench.mjs:
//   node --expose-gc idle-memory-client.mjs <client> <url> <sessions>
// It opens <sessions> connected, idle sessions of one kind, then reports the heap they hold (after full GCs)
// divided by their number, over IPC, and exits.
import { WebSocket } from 'ws';

const [kind, url, sessionsArg] = process.argv.slice(2);
const SESSIONS = Number(sessionsArg);
const API_KEY = 'sk-bench-not-a-real-key';

function settledHeap() {
  for (let i = 0; i < 4; i++) globalThis.gc();
  return process.memoryUsage().heapUsed;
}

/** The baseline: a bare `ws` socket that has parsed the session.created frame and keeps its message handler. */
async function bareSocket() {
  const ws = new WebSocket(url, { headers: { Authorization: `Bearer ${API_KEY}` } });
  await new Promise((resolve, reject) => {
    ws.on('message', (data) => {
      const event = JSON.parse(data.toString());
      if (event.type === 'session.created') resolve();
    });
    ws.once('error', reject);
  });
  return { close: async () => ws.close() };
}

async function parleySession() {
  const { Agent, RealtimeSession } = await import('@parley/core');
  const { OpenAIRealtimeModel } = await import('@parley/openai');
  const model = new OpenAIRealtimeModel({ apiKey: API_KEY, url, WebSocket });
  const session = new RealtimeSession(new Agent({ name: 'Narrator', instructions: 'Tell long stories.' }), {
    model,
  });
  session.on('audio', () => {});
  await session.connect();
  return { close: () => session.close() };
}

async function agentsSession() {
  const { OpenAIRealtimeWebSocket, RealtimeAgent, RealtimeSession } = await import('@openai/agents-realtime');
  const agent = new RealtimeAgent({ name: 'Narrator', instructions: 'Tell long stories.' });
  const session = new RealtimeSession(agent, {
    transport: new OpenAIRealtimeWebSocket({ url }),
    model: 'gpt-realtime',
  });
  session.on('audio', () => {});
  await session.connect({ apiKey: API_KEY, url });
  return { close: async () => session.close() };
}

const clients = { socket: bareSocket, 'parley-session': parleySession, agents: agentsSession };
const open = clients[kind];
if (!open) throw new Error(`Unknown client "${kind}"; one of ${Object.keys(clients).join(', ')}.`);

// One session first, so module code and one-time caches are not counted per session. BENCH_IDLE_WARMUP (default 1)
// opens and closes more first, so that code the JIT compiles while the first sessions open is not counted either.
const warm = await open();
for (let i = 1; i < Number(process.env.BENCH_IDLE_WARMUP ?? 1); i++) await (await open()).close();
const before = settledHeap();
const sessions = [];
for (let i = 0; i < SESSIONS; i++) sessions.push(await open());
await new Promise((resolve) => setTimeout(resolve, 200));
const after = settledHeap();
process.send({ kind, sessions: SESSIONS, bytesPerSession: (after - before) / SESSIONS });
await Promise.all([warm, ...sessions].map((s) => s.close()));
process.disconnect();
process.exit(0);
