import { Agent, type RealtimeSessionEvent, tool } from '@parley/core';
import { ManualClock } from '@parley/mock';
import { answerSipCall, type SipCall, sipHeader } from '@parley/openai';
import { startRealtimeSimulator } from '@parley/simulator';
import { afterEach, describe, expect, test } from 'vitest';
import { WebSocket } from 'ws';
import { z } from 'zod';
import { type PhoneApp, startPhoneApp } from '../sip-phone-app.js';
import { API_KEY, sent } from './helpers.js';

const SECRET = `whsec_${Buffer.from('the simulator signs with this secret').toString('base64')}`;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const lookup = tool({
  name: 'lookup_order',
  description: 'Look an order up',
  parameters: z.object({ order: z.string() }),
  execute: ({ order }) => `Order ${order} ships tomorrow`,
});

/** The app, answering Realtime calls (and no other) with a support agent told who the caller says they are. */
async function phoneApp(sim: Awaited<ReturnType<typeof startRealtimeSimulator>>): Promise<PhoneApp> {
  const app = await startPhoneApp(SECRET, (call) => {
    if (call.api !== 'realtime') return undefined;
    const customer = sipHeader(call, 'X-Customer-Id');
    return answerSipCall(call, {
      agent: new Agent({
        name: 'Support',
        instructions: `Help the caller (they say they are ${customer}; unverified).`,
        tools: [lookup],
      }),
      apiKey: API_KEY,
      baseURL: sim.httpBaseURL,
      realtimeURL: sim.url,
      WebSocket,
    });
  });
  cleanups.push(() => app.close());
  return app;
}

describe('OpenAI SIP through a signed webhook and the sideband, against the simulator', () => {
  test('the call is answered once, runs on the sideband with service playback: tool, barge-in, hang-up', async () => {
    const clock = new ManualClock();
    const sim = await startRealtimeSimulator({ clock, msPerChar: 20 });
    cleanups.push(() => sim.close());
    const app = await phoneApp(sim);
    const incoming = await sim.incomingSipCall({
      webhookUrl: app.webhookUrl,
      secret: SECRET,
      deliveries: 2,
      sipHeaders: [
        { name: 'From', value: '<sip:+14155550100@carrier.example>' },
        { name: 'Call-ID', value: 'abc@carrier.example' },
        { name: 'X-Customer-Id', value: 'cust_42' },
      ],
    });
    // Delivered twice (a retry), handled once.
    expect(incoming.statuses).toEqual([200, 200]);
    expect(app.calls).toHaveLength(1);
    expect(app.answered).toHaveLength(1);
    const call = await (app.answered[0] as Promise<SipCall<unknown>>);
    cleanups.push(() => call.hangUp());
    expect(call.callId).toBe(incoming.callId);
    expect(sipHeader(call, 'X-Customer-Id')).toBe('cust_42');
    expect(sim.call(incoming.callId)).toMatchObject({
      state: 'accepted',
      control: [{ action: 'accept', session: { type: 'realtime', model: 'gpt-realtime' } }],
    });
    const server = await sim.waitForConnection(0);
    expect(server.path).toBe(`/v1/realtime?call_id=${incoming.callId}`);
    expect(sent(server, 'session.update')[0]?.session).toMatchObject({
      instructions: 'Help the caller (they say they are cust_42; unverified).',
      tools: [{ name: 'lookup_order' }],
    });

    // A tool call runs on the server.
    sim.script(
      [{ type: 'function_call', name: 'lookup_order', arguments: { order: 'A17' } }],
      (turn) => `${turn.toolOutputs[0]?.output}.`,
    );
    const { session } = call;
    const interrupted = new Promise<RealtimeSessionEvent>((resolve) =>
      session.on('audio_interrupted', resolve),
    );
    session.sendMessage('Where is my order A17?');
    await server.waitForClientEvent('response.create');
    await clock.advance(600);
    await server.waitForClientEvent('response.create', 2);
    expect(sent(server, 'conversation.item.create').at(-1)?.item).toMatchObject({
      type: 'function_call_output',
      output: 'Order A17 ships tomorrow',
    });
    await clock.advance(2_000);
    await server.waitForServerEvent('output_audio_buffer.stopped');

    // A barge-in while the answer plays on the line: cancel + clear; the service truncates.
    sim.script('Let me tell you everything about the shipping options we have for you today, one by one.');
    const started = new Promise((resolve) => session.on('response_started', resolve));
    session.generateResponse();
    await server.waitForClientEvent('response.create', 3);
    await clock.advance(700);
    await server.waitForServerEvent('output_audio_buffer.started', 2);
    await started;
    session.interrupt();
    await server.waitForClientEvent('output_audio_buffer.clear');
    const truncated = await server.waitForServerEvent('conversation.item.truncated');
    const wire = server.clientEvents.map((e) => (e as { type: string }).type);
    expect(wire.slice(wire.lastIndexOf('response.cancel'))).toEqual([
      'response.cancel',
      'output_audio_buffer.clear',
    ]);
    expect(sent(server, 'conversation.item.truncate')).toEqual([]);
    // Cut where the line stopped playing it (the simulator's playout position), not where it was generated.
    const heard = server.playedMs(truncated.item_id as string);
    expect(heard).toBeGreaterThan(0);
    expect(truncated.audio_end_ms).toBe(heard);
    expect(await interrupted).toMatchObject({ itemId: truncated.item_id, heardMs: heard });

    await call.hangUp();
    expect(sim.call(incoming.callId)?.state).toBe('ended');
    expect(session.status).toBe('closed');
    await server.closed;
  });

  test('a webhook signed with another secret is refused with 401 and answers no call', async () => {
    const sim = await startRealtimeSimulator();
    cleanups.push(() => sim.close());
    const app = await phoneApp(sim);
    const forged = await sim.incomingSipCall({
      webhookUrl: app.webhookUrl,
      secret: `whsec_${Buffer.from('someone else').toString('base64')}`,
    });
    expect(forged.statuses).toEqual([401]);
    expect(app.calls).toEqual([]);
    expect(sim.call(forged.callId)?.control ?? []).toEqual([]);
  });
});
