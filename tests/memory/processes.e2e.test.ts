import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Agent, type ConversationItem, RealtimeSession, run, tool } from '@parley/core';
import { PausedRuns, storeSession } from '@parley/memory';
import { openPostgresStore } from '@parley/memory/postgres';
import { ServerUnavailableError, startPostgresServer, type TestServer } from '@parley/memory/testing';
import { MockModel, MockRealtimeModel } from '@parley/mock';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';

const worker = fileURLToPath(new URL('./voice-worker.mjs', import.meta.url));
const approver = fileURLToPath(new URL('./approval-worker.mjs', import.meta.url));
let server: TestServer | undefined;
let skip: string | undefined;

beforeAll(async () => {
  try {
    server = await startPostgresServer();
  } catch (error) {
    if (!(error instanceof ServerUnavailableError) || process.env.PARLEY_REQUIRE_SERVERS === '1') throw error;
    skip = error.reason;
  }
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const line = (item: ConversationItem) =>
  item.type === 'message'
    ? `${item.role}: ${item.content}`
    : item.type === 'function_call'
      ? `call ${item.name}(${item.arguments})`
      : item.type === 'function_call_output'
        ? `output ${item.output}`
        : item.type;

/** Runs the worker until it reports it is mid-answer, then kills it with SIGKILL: no cleanup, no last write. */
async function killMidAnswer(url: string, conversation: string): Promise<NodeJS.Signals | null> {
  const child = spawn(process.execPath, [worker, url, conversation], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => resolve(signal)),
  );
  const limit = setTimeout(() => child.kill('SIGKILL'), 60_000);
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('MID-ANSWER')) resolve();
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', () => reject(new Error(`the worker exited before it was mid-answer:\n${output}`)));
  });
  child.kill('SIGKILL');
  const signal = await exited;
  clearTimeout(limit);
  return signal;
}

describe('a voice worker killed mid-call (kill -9)', () => {
  test('another process resumes the call from PostgreSQL with what was heard, and nothing that was not', {
    timeout: 90_000,
  }, async (context) => {
    if (!server) return context.skip(skip);
    const conversation = `caller:${randomUUID()}`;
    expect(await killMidAnswer(server.url, conversation)).toBe('SIGKILL');

    const store = await openPostgresStore({ connectionString: server.url });
    try {
      const memory = storeSession(store, conversation);
      // What the dead worker left: the finished turn, and the question asked while the answer was cut off.
      const heard = [
        'user: What is my balance?',
        'call get_balance({"account":"checking"})',
        'output checking: 120 EUR',
        'assistant: Your checking account holds 120 euros.',
        'user: I lost my card.',
      ];
      expect((await memory.getItems()).map(line)).toEqual(heard);

      // The caller rings back; a new worker starts the provider's conversation from the store.
      const model = new MockRealtimeModel();
      const session = new RealtimeSession(new Agent({ name: 'Teller' }), { model, memory });
      await session.connect();
      const replayed = model.connection.commands.flatMap((command) =>
        command.type === 'createItem' ? [command.item] : [],
      );
      expect(
        replayed.map((item) =>
          item.type === 'message'
            ? `${item.role}: ${item.content[0]?.type === 'text' ? item.content[0].text : ''}`
            : item.type,
        ),
      ).toEqual([
        'user: What is my balance?',
        'function_call',
        'function_call_output',
        'assistant: Your checking account holds 120 euros.',
        'user: I lost my card.',
      ]);
      expect(JSON.stringify(model.connection.commands)).not.toContain('blocking the card');
      expect(session.history.map((item) => (item.type === 'message' ? item.text : item.type))).toEqual([
        'What is my balance?',
        'function_call',
        'Your checking account holds 120 euros.',
        'I lost my card.',
      ]);
      model.respondWith('Your card is blocked.');
      await session.generateResponse().done;
      await session.close();
      expect((await memory.getItems()).map(line)).toEqual([...heard, 'assistant: Your card is blocked.']);
    } finally {
      await store.close();
    }
  });
});

/** Runs a process to the end and returns what it printed. */
async function runToEnd(script: string, args: string[]): Promise<string> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const limit = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) =>
    child.once('exit', (exitCode) => resolve(exitCode)),
  );
  clearTimeout(limit);
  if (code !== 0) throw new Error(`${script} exited with ${code}:\n${output}`);
  return output.trim();
}

describe('a paused run two processes race to resume', () => {
  test('one claims it and the refund runs once (one row in the database); the other gets nothing', {
    timeout: 90_000,
  }, async (context) => {
    if (!server) return context.skip(skip);
    const db = new pg.Client({ connectionString: server.url });
    await db.connect();
    const store = await openPostgresStore({ connectionString: server.url });
    try {
      await db.query('create table if not exists refunds (order_id text not null, pid integer not null)');
      const refund = tool({
        name: 'refund',
        description: 'Refunds an order',
        parameters: z.object({ order: z.string() }),
        needsApproval: true,
        execute: () => 'never here: this process only pauses',
      });
      const agent = new Agent({
        name: 'Support',
        tools: [refund],
        model: new MockModel([MockModel.toolCall('refund', { order: 'A-1' })]),
      });
      const conversation = `ticket:${randomUUID()}`;
      const runId = `approval:${conversation}`;
      const paused = await run(agent, 'Refund order A-1', { session: storeSession(store, conversation) });
      expect(paused.interruptions.map((item) => item.rawItem.name)).toEqual(['refund']);
      await new PausedRuns(store).save(runId, paused.state);

      const outcomes = await Promise.all([
        runToEnd(approver, [server.url, runId, conversation]),
        runToEnd(approver, [server.url, runId, conversation]),
      ]);
      expect(outcomes.sort()).toEqual(['CLAIMED Your refund is on its way.', 'NOT-CLAIMED']);
      const rows = await db.query('select order_id from refunds');
      expect(rows.rows).toEqual([{ order_id: 'A-1' }]);
      // Finished: the run is gone, so a late third process finds nothing to resume.
      expect(await runToEnd(approver, [server.url, runId, conversation])).toBe('NOT-CLAIMED');
      expect((await db.query('select count(*)::int as n from refunds')).rows).toEqual([{ n: 1 }]);
      const items = (await storeSession(store, conversation).getItems()).map(line);
      expect(items.filter((item) => item.startsWith('output '))).toEqual(['output refunded A-1']);
      expect(items.at(-1)).toBe('assistant: Your refund is on its way.');
    } finally {
      await store.close();
      await db.end();
    }
  });
});
