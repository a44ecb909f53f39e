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
 * The rig of the tests about connections (cuts, reconnects, recycles, resumption): `agent`'s session on the model
 * `createModel` makes, both on one ManualClock, with exact reconnect backoff (no jitter) unless `options` says
 * otherwise, its events recorded.
 */
export function sessionRig<M extends RealtimeModel>(
  agent: Agent,
  createModel: (clock: ManualClock) => M,
  options: Partial<RealtimeSessionOptions> = {},
) {
  const clock = new ManualClock();
  const model = createModel(clock);
  const session = new RealtimeSession(agent, { model, clock, reconnect: { jitter: 0 }, ...options });
  const log = new EventRecorder(session);
  return { clock, model, session, log };
}

/**
 * {@link sessionRig} with one tool, `book({ at })` (answers `booked for <at>`; `runs` lists each `at` it ran with): the
 * rig of the tests about inputs lost at a cut.
 */
export function bookingSession<M extends RealtimeModel>(
  createModel: (clock: ManualClock) => M,
  options: Partial<RealtimeSessionOptions> = {},
) {
  const runs: string[] = [];
  return {
    ...sessionRig(new Agent({ name: 'Host', tools: [bookingTool(runs)] }), createModel, options),
    runs,
  };
}
