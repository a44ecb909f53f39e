import type { CreateResponseCommand } from '@parley/core';
import { ResponseCoordinator } from '@parley/core/internal';
import { describe, expect, test } from 'vitest';

function setup(options: { autoToolResponseGeneration?: boolean; failSends?: boolean } = {}) {
  const sent: CreateResponseCommand[] = [];
  const failed: { id: string; error: unknown }[] = [];
  let seq = 0;
  let failSends = options.failSends ?? false;
  const coordinator = new ResponseCoordinator({
    autoToolResponseGeneration: options.autoToolResponseGeneration ?? false,
    createRequestId: () => `req_${++seq}`,
    send: (command) => {
      if (failSends) throw new Error('connection closed');
      sent.push(command);
    },
    failed: (request, error) => failed.push({ id: request.clientRequestId, error }),
  });
  const start = (responseId: string, clientRequestId?: string) =>
    coordinator.responseStarted({ responseId, ephemeral: false, clientRequestId });
  const done = (responseId: string, status: 'completed' | 'cancelled' = 'completed') =>
    coordinator.responseDone({ responseId, status, ephemeral: false });
  return {
    coordinator,
    sent,
    failed,
    start,
    done,
    setFailSends: (value: boolean) => {
      failSends = value;
    },
  };
}

describe('ResponseCoordinator: one active response', () => {
  test('sends a request at once when nothing is active', () => {
    const { coordinator, sent } = setup();
    const request = coordinator.request({ instructions: 'Say hi' }, 'generate_response');
    expect(request.state).toBe('sent');
    expect(sent).toEqual([
      { type: 'createResponse', clientRequestId: 'req_1', ephemeral: false, instructions: 'Say hi' },
    ]);
  });

  test('a request made while one is requested or active waits for its response_done', () => {
    const { coordinator, sent, start, done } = setup();
    coordinator.request({}, 'generate_response');
    const second = coordinator.request({}, 'generate_response');
    expect(second.state).toBe('queued');
    expect(sent).toHaveLength(1);
    start('resp_1', 'req_1');
    expect(coordinator.activeResponseId).toBe('resp_1');
    expect(sent).toHaveLength(1);
    done('resp_1');
    expect(sent.map((c) => c.clientRequestId)).toEqual(['req_1', 'req_2']);
  });

  test('a provider-initiated response (no clientRequestId) also blocks requests', () => {
    const { coordinator, sent, start, done } = setup();
    start('resp_vad');
    coordinator.request({}, 'generate_response');
    expect(sent).toHaveLength(0);
    done('resp_vad');
    expect(sent).toHaveLength(1);
  });

  test('out-of-band requests skip the queue and do not block it', () => {
    const { coordinator, sent, start } = setup();
    start('resp_1');
    coordinator.request({ ephemeral: true }, 'generate_response');
    expect(sent.map((c) => c.ephemeral)).toEqual([true]);
    const info = coordinator.responseStarted({
      responseId: 'resp_2',
      clientRequestId: 'req_1',
      ephemeral: true,
    });
    expect(info.request?.clientRequestId).toBe('req_1');
    expect(coordinator.activeResponseId).toBe('resp_1');
  });

  test('a refused request releases the queue and is returned to the caller', () => {
    const { coordinator, sent } = setup();
    coordinator.request({}, 'generate_response');
    coordinator.request({}, 'generate_response');
    const refused = coordinator.requestRefused('req_1');
    expect(refused?.clientRequestId).toBe('req_1');
    expect(sent.map((c) => c.clientRequestId)).toEqual(['req_1', 'req_2']);
    expect(coordinator.requestRefused('unknown')).toBeUndefined();
  });

  test('an abandoned request releases the queue; if it starts later it is flagged for cancelling', () => {
    const { coordinator, sent, start } = setup();
    coordinator.request({}, 'generate_response');
    coordinator.request({}, 'generate_response');
    coordinator.abandon('req_1');
    expect(sent.map((c) => c.clientRequestId)).toEqual(['req_1', 'req_2']);
    expect(start('resp_late', 'req_1')).toEqual({ request: undefined, abandoned: true });
  });

  test('abandoning a queued request drops it', () => {
    const { coordinator, sent, start, done } = setup();
    start('resp_1');
    coordinator.request({}, 'generate_response');
    coordinator.abandon('req_1');
    done('resp_1');
    expect(sent).toHaveLength(0);
  });

  test('a send that fails at once throws; a queued one that fails is reported and the queue moves on', () => {
    const { coordinator, sent, failed, start, done, setFailSends } = setup({ failSends: true });
    expect(() => coordinator.request({}, 'generate_response')).toThrow('connection closed');
    expect(coordinator.busy).toBe(false);
    start('resp_1');
    coordinator.request({}, 'generate_response');
    coordinator.request({}, 'generate_response');
    done('resp_1');
    expect(failed.map((f) => f.id)).toEqual(['req_2', 'req_3']);
    setFailSends(false);
    coordinator.request({}, 'generate_response');
    expect(sent.map((c) => c.clientRequestId)).toEqual(['req_4']);
  });

  test('reset returns what will never start and forgets the active response', () => {
    const { coordinator, start } = setup();
    start('resp_1');
    coordinator.request({}, 'generate_response');
    expect(coordinator.reset().map((r) => r.clientRequestId)).toEqual(['req_1']);
    expect(coordinator.busy).toBe(false);
  });
});

describe('ResponseCoordinator: tool follow-ups', () => {
  test('parallel calls: outputs start nothing while siblings run; the last one starts exactly one response', () => {
    const { coordinator, sent, start, done } = setup();
    start('resp_1');
    coordinator.toolCallStarted('a', 'resp_1');
    coordinator.toolCallStarted('b', 'resp_1');
    coordinator.toolCallStarted('c', 'resp_1');
    done('resp_1');
    coordinator.toolCallFinished('b');
    coordinator.toolCallFinished('a');
    expect(sent).toHaveLength(0);
    coordinator.toolCallFinished('c');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ type: 'createResponse', ephemeral: false });
  });

  test('parallel calls that all finish before response_done: the response end starts exactly one', () => {
    const { coordinator, sent, start, done } = setup();
    start('resp_1');
    coordinator.toolCallStarted('a', 'resp_1');
    coordinator.toolCallFinished('a');
    coordinator.toolCallStarted('b', 'resp_1');
    coordinator.toolCallFinished('b');
    expect(sent).toHaveLength(0);
    done('resp_1');
    expect(sent).toHaveLength(1);
  });

  test('calls without a responseId get a follow-up after each output', () => {
    const { coordinator, sent, start, done } = setup();
    coordinator.toolCallStarted('a', undefined);
    coordinator.toolCallStarted('b', undefined);
    coordinator.toolCallFinished('a');
    expect(sent).toHaveLength(1);
    start('resp_2', 'req_1');
    coordinator.toolCallFinished('b');
    expect(sent).toHaveLength(1);
    done('resp_2');
    expect(sent).toHaveLength(2);
  });

  test('a call reported after its response ended is treated like one without a responseId', () => {
    const { coordinator, sent, start, done } = setup();
    start('resp_1');
    done('resp_1');
    coordinator.toolCallStarted('late', 'resp_1');
    coordinator.toolCallFinished('late');
    expect(sent).toHaveLength(1);
  });

  test('no follow-up after a response that did not complete (outputs stay for the next turn)', () => {
    const { coordinator, sent, start, done } = setup();
    start('resp_1');
    coordinator.toolCallStarted('a', 'resp_1');
    done('resp_1', 'cancelled');
    coordinator.toolCallFinished('a');
    expect(sent).toHaveLength(0);
  });

  test('with autoToolResponseGeneration the coordinator never requests a follow-up', () => {
    const { coordinator, sent, start, done } = setup({ autoToolResponseGeneration: true });
    start('resp_1');
    coordinator.toolCallStarted('a', 'resp_1');
    coordinator.toolCallStarted('b', undefined);
    done('resp_1');
    coordinator.toolCallFinished('a');
    coordinator.toolCallFinished('b');
    expect(sent).toHaveLength(0);
  });

  test('a follow-up requested while another response is active waits for it', () => {
    const { coordinator, sent, start, done } = setup();
    start('resp_1');
    coordinator.toolCallStarted('a', 'resp_1');
    done('resp_1');
    start('resp_vad');
    coordinator.toolCallFinished('a');
    expect(sent).toHaveLength(0);
    done('resp_vad');
    expect(sent).toHaveLength(1);
  });
});
