import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  defineConformanceSuite,
  formatReport,
  type RealtimeHarness,
  runConformance,
} from '@parley/conformance';
import { MyRealtimeModel } from './my-provider.js';

/** How the scenarios drive your backend; see `RealtimeHarness` for what each method must do. */
export async function createMyHarness(): Promise<RealtimeHarness> {
  const model = new MyRealtimeModel(); // TODO: point it at your test backend (a fake server on loopback)
  const todo = async (): Promise<never> => {
    throw new Error('TODO: script this on your backend');
  };
  return {
    model,
    respondWith: todo,
    finishResponse: todo,
    userStartsSpeaking: todo,
    userStopsSpeaking: todo,
    emitError: todo,
    refuseNextResponse: todo,
    collideNextResponse: todo,
    disconnect: todo,
    commands: todo,
    waitForCommand: todo,
    sessionConfig: todo,
    conversation: todo,
    waitForClientClose: todo,
    dispose: async () => {
      // TODO: stop the backend, close its sockets and timers.
    },
  };
}

/** With vitest: one test per scenario, plus the capability honesty check. */
export function registerWithVitest(): void {
  defineConformanceSuite('my-provider', () => createMyHarness());
}

/** With node:test (or jest, with its own `test`): one test that runs the suite and prints the report. */
export function registerWithNodeTest(): void {
  test('my-provider passes the Parley conformance suite', async () => {
    const report = await runConformance(() => createMyHarness());
    assert.ok(report.ok, formatReport(report));
  });
}
