import { formatReport, type RealtimeHarness, runConformance, SeamCommandLog } from '@parley/conformance';
import type { RealtimeCommand, RealtimeConnection, RealtimeModel } from '@parley/core';
import { expect, test } from 'vitest';
import { createMockHarness } from './mock-harness.js';

/**
 * The second way to write a harness (docs/writing-a-provider.md, "A protocol without ids"): the backend does not
 * translate what it received back into seam commands (an id-less wire could not give the session's request ids back);
 * the harness records the commands at the seam with a `SeamCommandLog`, and the backend only confirms, per command
 * type, that it received each one. The mock stands in for such a backend: it confirms a command once it took it in.
 */
function idlessHarness(): RealtimeHarness {
  const base = createMockHarness();
  const log = new SeamCommandLog();
  // The backend's side: each command it receives confirms one command of its type, nothing more.
  const backend: RealtimeModel = {
    specificationVersion: base.model.specificationVersion,
    provider: base.model.provider,
    capabilities: base.model.capabilities,
    async connect(options) {
      const connection = await base.model.connect(options);
      const confirming: RealtimeConnection = {
        get status() {
          return connection.status;
        },
        get expiresAt() {
          return connection.expiresAt;
        },
        get confirmedConfig() {
          return connection.confirmedConfig;
        },
        get resumed() {
          return connection.resumed;
        },
        send: (command: RealtimeCommand) => {
          connection.send(command);
          log.received(command.type);
        },
        onEvent: (listener) => connection.onEvent(listener),
        close: () => connection.close(),
      };
      return confirming;
    },
  };
  return {
    ...base,
    model: log.wrap(backend),
    commands: async () => log.commands(),
    waitForCommand: (match, options) => log.waitForCommand(match, options),
  };
}

test('the conformance suite runs on a harness that reads the commands at the seam and confirms them on the backend', async () => {
  const report = await runConformance(idlessHarness, { name: 'id-less mock', probeUndeclared: false });
  expect(report.ok, formatReport(report)).toBe(true);
  expect(report.results.filter((r) => r.status === 'pass').length).toBeGreaterThan(30);
});
