import { Agent, type RealtimeSessionEvent } from '@parley/core';
import { describe, expect, test } from 'vitest';
import {
  ContentDelivery,
  type ContentDeliveryPort,
  MessageOrder,
  ResponseEvents,
  type ResponseEventsPort,
} from '#session-units';

/** ResponseEvents and ContentDelivery, each built from its port alone; the fakes write each step they see. */

const speaker = new Agent({ name: 'speaker' });

function responseEventsOnFakes(stopped: readonly string[] = []) {
  const steps: string[] = [];
  const events: RealtimeSessionEvent[] = [];
  const tracked = new Map<string, ReturnType<ResponseEventsPort<unknown>['responses']['track']>>();
  const dropped = new Set<string>();
  const port: ResponseEventsPort<unknown> = {
    state: {
      status: 'connected',
      closing: false,
      emit: (event) => {
        events.push(event);
      },
      reportError: (_source, error) => {
        steps.push(`error ${(error as { code?: string }).code}`);
      },
    },
    responses: {
      get: (id) => tracked.get(id),
      track: (id, ephemeral = false) => {
        const known = tracked.get(id);
        if (known) return known;
        const info = {
          agent: speaker,
          ephemeral,
          started: false,
          done: false,
          interrupted: false,
          itemIds: new Set<string>(),
          clientRequestId: undefined,
        };
        tracked.set(id, info);
        return info;
      },
      wasDropped: (id) => dropped.has(id),
      drop: (id) => {
        dropped.add(id);
      },
    },
    generation: {
      responseStarted: (event) => {
        steps.push(`generation started ${event.responseId}`);
        return { request: undefined, abandoned: false };
      },
      answered: (event, wasStarted) => steps.push(`answered ${event.responseId} ${wasStarted}`),
      responseDone: (event) => steps.push(`generation done ${event.responseId}`),
      refused: () => ({}),
      stale: { seen: () => {}, staleMs: 5_000 } as never,
    },
    content: { flush: (id) => steps.push(`flush ${id}`) },
    interruptions: {
      abandoned: (id) => steps.push(`abandoned ${id}`),
      isStopped: (id) => stopped.includes(id),
      responseDone: (id) => steps.push(`truncations ${id}`),
    },
    guardrails: {
      begin: (id) => steps.push(`guardrails begin ${id}`),
      end: (id) => steps.push(`guardrails end ${id}`),
    },
    mirror: {
      responseInterrupted: (id) => steps.push(`interrupted ${id}`),
      responseEnded: () => steps.push('mirror ended'),
    },
    turns: { responseDone: (id, _agent, status) => steps.push(`turn ${id} ${status}`) },
  };
  const unit = new ResponseEvents({ runContext: { context: undefined, usage: {} } as never }, port);
  return { unit, steps, events };
}

describe('ResponseEvents from its port', () => {
  test('a stopped response ends: its truncations go out before the coordinator may request the next one', () => {
    const { unit, steps, events } = responseEventsOnFakes(['r1']);
    unit.started({ type: 'response_started', responseId: 'r1', ephemeral: false });
    unit.done({ type: 'response_done', responseId: 'r1', status: 'cancelled', ephemeral: false });
    expect(steps).toEqual([
      'generation started r1',
      'guardrails begin r1',
      'flush r1',
      'answered r1 true',
      'truncations r1',
      'generation done r1',
      'mirror ended',
      'guardrails end r1',
      'turn r1 cancelled',
    ]);
    expect(events.map((e) => e.type)).toEqual(['response_started', 'response_done']);
  });

  test('a start or an end reported twice is a warning and reaches no unit again', () => {
    const { unit, steps, events } = responseEventsOnFakes();
    unit.started({ type: 'response_started', responseId: 'r1', ephemeral: false });
    unit.started({ type: 'response_started', responseId: 'r1', ephemeral: false });
    unit.done({ type: 'response_done', responseId: 'r1', status: 'completed', ephemeral: false });
    const before = steps.length;
    unit.done({ type: 'response_done', responseId: 'r1', status: 'completed', ephemeral: false });
    expect(steps).toHaveLength(before);
    expect(steps.filter((step) => step.startsWith('generation started'))).toHaveLength(1);
    expect(events.map((e) => (e.type === 'warning' ? e.code : e.type))).toEqual([
      'response_started',
      'response_event_ignored',
      'response_done',
      'response_event_ignored',
    ]);
  });

  test('a stale response is abandoned, ended failed (reason stale) and reported; its late start is ignored', () => {
    const { unit, steps, events } = responseEventsOnFakes();
    unit.started({ type: 'response_started', responseId: 'r1', ephemeral: false });
    unit.dropStale('r1');
    expect(steps).toContain('abandoned r1');
    expect(steps.at(-1)).toBe('error response_stale');
    const done = events.find((e) => e.type === 'response_done');
    expect(done).toMatchObject({ status: 'failed', reason: 'stale' });
    unit.started({ type: 'response_started', responseId: 'r1', ephemeral: false });
    expect(events.at(-1)).toMatchObject({ type: 'warning', code: 'response_event_ignored' });
  });
});

function contentOnFakes(stopped: readonly string[] = []) {
  const steps: string[] = [];
  const app: string[] = [];
  const port: ContentDeliveryPort<unknown> = {
    stale: { seen: (id) => steps.push(`seen ${id}`) },
    interruptions: { isStopped: (id) => stopped.includes(id) },
    messageOrder: new MessageOrder(1),
    tracker: { audioReceived: (itemId, ms) => steps.push(`heard ${itemId} ${ms}`) },
    mirror: {
      messageStarted: (event) => steps.push(`message ${event.itemId}`),
      delta: (itemId, delta) => steps.push(`text ${itemId} ${delta}`),
      audio: (itemId) => steps.push(`spoken ${itemId}`),
      transcriptDone: () => {},
      messageDone: (event) => steps.push(`done ${event.itemId}`),
    },
    guardrails: { delta: () => {} },
    responses: { audio: () => {} },
    hub: {
      observed: () => true,
      emit: (event: RealtimeSessionEvent) =>
        app.push(`${event.type} ${'itemId' in event ? event.itemId : ''}`),
    } as never,
  };
  return { unit: new ContentDelivery(port), steps, app };
}

const audio = (itemId: string, bytes: number) => ({
  type: 'audio_delta' as const,
  responseId: 'r1',
  itemId,
  audio: new Uint8Array(bytes),
});

describe('ContentDelivery from its port', () => {
  test('a later message waits until the one before it is done, then follows in order', () => {
    const { unit, app } = contentOnFakes();
    unit.messageStarted({ type: 'message_started', responseId: 'r1', itemId: 'm1' });
    unit.messageStarted({ type: 'message_started', responseId: 'r1', itemId: 'm2' });
    unit.delta(audio('m2', 4));
    unit.delta(audio('m1', 2));
    expect(app).toEqual(['audio_started m1', 'audio m1']);
    unit.content({
      type: 'message_done',
      responseId: 'r1',
      itemId: 'm1',
      item: { type: 'message', itemId: 'm1', role: 'assistant', content: [{ type: 'audio' }] },
    });
    expect(app).toEqual(['audio_started m1', 'audio m1', 'audio_started m2', 'audio m2']);
  });

  test('audio of a stopped response is counted but never reaches the app or the tracker', () => {
    const { unit, steps, app } = contentOnFakes(['r1']);
    unit.delta(audio('m1', 8));
    expect(app).toEqual([]);
    expect(steps).toEqual(['seen r1']);
  });

  test('what a response still holds when it ends is delivered, in order', () => {
    const { unit, app } = contentOnFakes();
    unit.messageStarted({ type: 'message_started', responseId: 'r1', itemId: 'm1' });
    unit.messageStarted({ type: 'message_started', responseId: 'r1', itemId: 'm2' });
    unit.delta({ type: 'text_delta', responseId: 'r1', itemId: 'm2', delta: 'later' });
    expect(app).toEqual([]);
    unit.flush('r1');
    expect(app).toEqual(['text_delta m2']);
  });
});
