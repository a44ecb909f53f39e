// A voice worker that dies mid-call: a RealtimeSession writing its call to PostgreSQL, which the test kills with
// SIGKILL while an answer is still streaming. Usage: node voice-worker.mjs <postgres url> <conversation id>.
import { Agent, RealtimeSession, tool } from '@parley/core';
import { storeSession } from '@parley/memory';
import { openPostgresStore } from '@parley/memory/postgres';
import { MockRealtimeModel } from '@parley/mock';
import { z } from 'zod';

const [connectionString, conversation] = process.argv.slice(2);
const store = await openPostgresStore({ connectionString });
const memory = storeSession(store, conversation);
const getBalance = tool({
  name: 'get_balance',
  description: "Returns an account's balance",
  parameters: z.object({ account: z.string() }),
  execute: ({ account }) => `${account}: 120 EUR`,
});
const agent = new Agent({ name: 'Teller', tools: [getBalance] });
const model = new MockRealtimeModel({ unscriptedResponses: 'wait' });
model.respondWith(
  {
    output: [
      { type: 'function_call', name: 'get_balance', arguments: { account: 'checking' }, callId: 'c1' },
    ],
  },
  'Your checking account holds 120 euros.',
  { output: [{ type: 'message', text: 'I am blocking the card ending in' }, { type: 'pause' }] },
);
const session = new RealtimeSession(agent, { model, memory });

/** Resolves once the store holds `count` items (bounded: the test's own limit kills this process). */
async function stored(count) {
  while ((await memory.getItems()).length < count) await new Promise((resolve) => setTimeout(resolve, 10));
}

await session.connect();
session.sendMessage('What is my balance?');
await stored(4); // the question, the call, its output, the answer
const answering = new Promise((resolve) =>
  session.on('transcript_delta', (event) => event.delta.includes('blocking') && resolve()),
);
session.sendMessage('I lost my card.');
await Promise.all([stored(5), answering]);
process.stdout.write('MID-ANSWER\n');
setInterval(() => {}, 60_000); // alive, mid-answer, until killed
