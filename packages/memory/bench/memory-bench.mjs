// A turn's memory write per store: latency (p50, p99) and its share of a turn. Not a test: run `pnpm bench`
// (it builds first). PostgreSQL and Redis run on servers the bench starts on loopback (skipped, with the
// reason, when they are not installed).
//
// A "turn's write" is what a voice turn or a text run's turn adds: the user message and the assistant's
// answer (about 300 characters each), in one addItems call with an operation id. Its share of a turn is
// measured against a Runner turn on a zero-latency MockModel without memory, in the same process and run
// (the lower bound of a turn: a real model's turn takes 300 ms and up, where the share is that much smaller).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent, Runner } from '@parley/core';
import { InMemoryStore, storeSession } from '@parley/memory';
import { openPGliteStore } from '@parley/memory/pglite';
import { openPostgresStore } from '@parley/memory/postgres';
import { openRedisStore } from '@parley/memory/redis';
import { startPostgresServer, startRedisServer } from '@parley/memory/testing';

const { MockModel } = await import(new URL('../../mock/dist/index.js', import.meta.url).href);

const WARMUP = 50;
const TURNS = Number(process.env.BENCH_TURNS ?? 500);
const sentence = 'The parcel left the depot this morning and should reach you before noon tomorrow. '.repeat(
  4,
);

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

async function turnWrites(store) {
  const session = storeSession(store, `bench-${globalThis.crypto.randomUUID()}`);
  const samples = [];
  for (let turn = 0; turn < WARMUP + TURNS; turn++) {
    const items = [
      { type: 'message', role: 'user', content: `${turn}: ${sentence}` },
      { type: 'message', role: 'assistant', content: sentence },
    ];
    const start = performance.now();
    await session.addItems(items, { operationId: `turn-${turn}` });
    if (turn >= WARMUP) samples.push(performance.now() - start);
  }
  return summary(samples);
}

async function runnerTurn() {
  const runner = new Runner();
  const samples = [];
  for (let turn = 0; turn < WARMUP + TURNS; turn++) {
    const agent = new Agent({
      name: 'A',
      model: new MockModel([MockModel.text(sentence)], { recordRequests: false }),
    });
    const start = performance.now();
    await runner.run(agent, sentence);
    if (turn >= WARMUP) samples.push(performance.now() - start);
  }
  return summary(samples);
}

const rows = [];
const cleanups = [];
const skipped = [];
try {
  const turn = await runnerTurn();
  const dir = await mkdtemp(join(tmpdir(), 'parley-bench-pglite-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const stores = [
    ['InMemoryStore', async () => new InMemoryStore()],
    ['PGliteStore (directory)', () => openPGliteStore({ dataDir: dir })],
    [
      'PostgresStore (loopback server)',
      async () => {
        const server = await startPostgresServer();
        cleanups.push(() => server.stop());
        return openPostgresStore({ connectionString: server.url, max: 2 });
      },
    ],
    [
      'RedisStore (loopback server)',
      async () => {
        const server = await startRedisServer();
        cleanups.push(() => server.stop());
        return openRedisStore({ url: server.url });
      },
    ],
  ];
  for (const [name, open] of stores) {
    let store;
    try {
      store = await open();
    } catch (error) {
      skipped.push(`${name}: ${error.reason ?? error.message}`);
      continue;
    }
    try {
      rows.push([name, await turnWrites(store)]);
    } finally {
      await store.close();
    }
  }
  console.log(
    `\nMemory: a turn's write (2 items, ~${sentence.length * 2} chars, with an operation id), ${TURNS} turns`,
  );
  console.log(
    `Baseline: a Runner turn on a zero-latency MockModel without memory: p50 ${turn.p50.toFixed(3)} ms, p99 ${turn.p99.toFixed(3)} ms\n`,
  );
  console.log(
    'store                              p50 ms    p99 ms   share of a mock turn (p50)   share of a 1 s voice turn (p99)',
  );
  for (const [name, { p50, p99 }] of rows) {
    const share = (p50 / (p50 + turn.p50)) * 100;
    const voice = (p99 / 1000) * 100;
    console.log(
      `${name.padEnd(34)} ${p50.toFixed(3).padStart(7)}   ${p99.toFixed(3).padStart(7)}   ${`${share.toFixed(1)} %`.padStart(26)}   ${`${voice.toFixed(2)} %`.padStart(30)}`,
    );
  }
  for (const line of skipped) console.log(`skipped ${line}`);
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup();
}
