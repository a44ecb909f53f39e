import { EventRecorder } from '@parley/conformance';
import {
  Agent,
  type RealtimeCommand,
  type RealtimeItemInput,
  type RealtimeModel,
  RealtimeSession,
  type RealtimeSessionOptions,
  tool,
} from '@parley/core';
import { ManualClock } from '@parley/mock';
import { z } from 'zod';
import { bookingTool } from './shared-fixtures.js';

/** The session tests' shared tool: `lookup({ q })` answers `found <q>`. */
export const lookup = tool({
  name: 'lookup',
  description: 'Looks something up',
  parameters: z.object({ q: z.string() }),
  execute: ({ q }) => `found ${q}`,
});

/** The items a connection was asked to create, in order. */
export const createdItems = (connection: { commands: readonly RealtimeCommand[] }): RealtimeItemInput[] =>
  connection.commands.flatMap((c) => (c.type === 'createItem' ? [c.item] : []));

/**
 * A session on the model `createModel` makes, with one tool, `book({ at })` (answers `booked for <at>`; `runs`
 * lists each `at` it ran with), one ManualClock and exact reconnect backoff: the rig of the tests about inputs lost
 * at a cut.
 */
export function bookingSession<M extends RealtimeModel>(
  createModel: (clock: ManualClock) => M,
  options: Partial<RealtimeSessionOptions> = {},
) {
  const clock = new ManualClock();
  const model = createModel(clock);
  const runs: string[] = [];
  const session = new RealtimeSession(new Agent({ name: 'Host', tools: [bookingTool(runs)] }), {
    model,
    clock,
    reconnect: { jitter: 0 },
    ...options,
  });
  const log = new EventRecorder(session);
  return { clock, model, session, log, runs };
}
