// A process that resumes a paused run if it wins the claim: approves the refund, runs it, finishes the claim.
// The refund's side effect is a row in PostgreSQL, so the test can count how many times it really ran.
// Usage: node approval-worker.mjs <postgres url> <run id> <conversation id>. Prints CLAIMED or NOT-CLAIMED.
import { Agent, run, tool } from '@parley/core';
import { PausedRuns, storeSession } from '@parley/memory';
import { openPostgresStore } from '@parley/memory/postgres';
import { MockModel } from '@parley/mock';
import pg from 'pg';
import { z } from 'zod';

const [connectionString, runId, conversation] = process.argv.slice(2);
const db = new pg.Client({ connectionString });
await db.connect();
const store = await openPostgresStore({ connectionString });
try {
  const refund = tool({
    name: 'refund',
    description: 'Refunds an order',
    parameters: z.object({ order: z.string() }),
    needsApproval: true,
    execute: async ({ order }) => {
      await db.query('insert into refunds (order_id, pid) values ($1, $2)', [order, process.pid]);
      return `refunded ${order}`;
    },
  });
  const agent = new Agent({
    name: 'Support',
    tools: [refund],
    model: new MockModel([MockModel.text('Your refund is on its way.')]),
  });
  // Both processes start together: the one whose compare-and-set wins resumes, the other gets undefined.
  const claimed = await new PausedRuns(store).claim(runId, agent);
  if (claimed) {
    for (const item of claimed.state.getInterruptions()) claimed.state.approve(item);
    const resumed = await run(agent, claimed.state, { session: storeSession(store, conversation) });
    await claimed.finish(resumed.state);
    process.stdout.write(`CLAIMED ${resumed.finalOutput}\n`);
  } else {
    process.stdout.write('NOT-CLAIMED\n');
  }
} finally {
  await store.close();
  await db.end();
}
