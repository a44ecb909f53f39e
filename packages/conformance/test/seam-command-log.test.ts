import { SeamCommandLog } from '@parley/conformance';
import {
  ConnectionClosedError,
  REALTIME_SPECIFICATION_VERSION,
  type RealtimeCommand,
  type RealtimeConnection,
  type RealtimeModel,
} from '@parley/core';
import { expect, test } from 'vitest';
import { NO_CAPABILITIES } from './inert-harness.js';

/** An adapter whose connection refuses `appendContext` before writing it; everything else it "writes". */
function adapter(): RealtimeModel {
  return {
    specificationVersion: REALTIME_SPECIFICATION_VERSION,
    provider: 'idless',
    capabilities: { ...NO_CAPABILITIES, responseRequests: true },
    modelId: 'idless-1',
    async connect(): Promise<RealtimeConnection> {
      return {
        status: 'open',
        send(command: RealtimeCommand) {
          if (command.type === 'appendContext') throw new ConnectionClosedError('cannot express it');
        },
        onEvent: () => () => {},
        close: async () => {},
      };
    },
  };
}

const request = (id: string): RealtimeCommand => ({
  type: 'createResponse',
  clientRequestId: id,
  ephemeral: false,
});

test('a command is reported with the session ids once the backend confirms its wire form, in order per type', async () => {
  const log = new SeamCommandLog();
  const model = log.wrap(adapter());
  expect(model.provider).toBe('idless');
  expect(model.modelId).toBe('idless-1');
  const connection = await model.connect({ config: {} });
  connection.send(request('req_1'));
  connection.send({ type: 'commitInputAudio' });
  connection.send(request('req_2'));
  expect(log.commands()).toEqual([]);
  log.received('createResponse');
  expect(log.commands()).toEqual([request('req_1')]);
  expect(log.unconfirmed().map((c) => c.type)).toEqual(['commitInputAudio', 'createResponse']);
  const waiting = log.waitForCommand('createResponse', { count: 2 });
  log.received('createResponse');
  await expect(waiting).resolves.toEqual([request('req_1'), request('req_2')]);
  expect(log.commands()).toEqual([request('req_1'), request('req_2')]);
});

test('a command the backend never confirms is never reported; the wait says what is missing', async () => {
  const log = new SeamCommandLog();
  const connection = await log.wrap(adapter()).connect({ config: {} });
  connection.send(request('req_lost'));
  await expect(log.waitForCommand('createResponse', { timeoutMs: 20 })).rejects.toThrow(
    /confirmed by the backend: none; sent but not confirmed: createResponse/,
  );
});

test('a command the adapter refuses before writing it is not recorded', async () => {
  const log = new SeamCommandLog();
  const connection = await log.wrap(adapter()).connect({ config: {} });
  expect(() =>
    connection.send({ type: 'appendContext', kind: 'thought', text: 'x', clientRequestId: 'a_1' }),
  ).toThrow(ConnectionClosedError);
  log.received('appendContext');
  expect(log.commands()).toEqual([]);
  expect(log.unconfirmed()).toEqual([]);
});
