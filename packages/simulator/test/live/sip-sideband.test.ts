import { EventRecorder } from '@parley/conformance';
import { Agent, tool } from '@parley/core';
import { ManualClock, MockModel } from '@parley/mock';
import { answerSipCall, type SipCall } from '@parley/openai';
import { type LiveSimulator, speechAudio } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { WebSocket } from 'ws';
import { z } from 'zod';
import { type PhoneApp, startPhoneApp } from '../sip-phone-app.js';
import { closeAfterTest, liveSimulator } from './live-rig.js';

const SECRET = `whsec_${Buffer.from('the GPT-Live simulator signs with this').toString('base64')}`;
const API_KEY = 'sk-live-sip';

const checkPrescription = tool({
  name: 'check_prescription',
  description: 'Whether a prescription is ready',
  parameters: z.object({ id: z.string() }),
  execute: ({ id }) => `Prescription ${id} is ready at counter two`,
});

/** The app, answering GPT-Live calls for a pharmacy: its voice delegates to a backend agent with a tool. */
async function phoneApp(sim: LiveSimulator): Promise<PhoneApp> {
  const app = await startPhoneApp(SECRET, (call) =>
    answerSipCall(call, {
      agent: new Agent({ name: 'Pharmacy', instructions: 'Answer the phone for a pharmacy. Be brief.' }),
      delegate: new Agent({
        name: 'Pharmacy backend',
        model: new MockModel([
          MockModel.toolCall('check_prescription', { id: 'RX-1' }),
          MockModel.text(
            'Your prescription RX-1 is ready at counter two, and we are open until eight tonight.',
          ),
        ]),
        tools: [checkPrescription],
      }),
      apiKey: API_KEY,
      baseURL: sim.baseURL,
      liveURL: sim.url,
      WebSocket,
    }),
  );
  return closeAfterTest(app);
}

describe('GPT-Live over SIP: a signed webhook, call control and a RealtimeSession on the sideband', () => {
  test('answered once; the delegate runs the tool; a barge-in is cut where the line stopped; DTMF both ways; the caller hangs up', async () => {
    const clock = new ManualClock();
    const sim = await liveSimulator({ clock, msPerChar: 20, interimTranscriptMs: 200, apiKeys: [API_KEY] });
    sim.script({ type: 'delegate' }, 'Of course.');
    const app = await phoneApp(sim);
    // The current webhook and the deprecated one, each delivered twice: one call, one handler.
    const incoming = await sim.incomingSipCall({
      webhookUrl: app.webhookUrl,
      secret: SECRET,
      eventTypes: ['live.transport.incoming', 'live.call.incoming'],
      deliveries: 2,
    });
    expect(incoming.statuses).toEqual([200, 200, 200, 200]);
    expect(app.calls).toHaveLength(1);
    const call = await (app.answered[0] as Promise<SipCall<unknown>>);
    const { session } = call;
    // Recorded as they are emitted: the line is run until one is there.
    const events = new EventRecorder(session, { via: 'listeners' });
    expect(call.callId).toBe(incoming.sessionId);
    const simCall = sim.call(incoming.sessionId);
    expect(simCall).toMatchObject({
      state: 'accepted',
      control: [
        {
          action: 'accept',
          session: {
            type: 'live',
            model: 'gpt-live-1',
            instructions: 'Answer the phone for a pharmacy. Be brief.',
          },
        },
      ],
    });
    expect(sim.upgrades.at(-1)?.path).toBe(`/v1/live/sessions/${incoming.sessionId}/attach`);
    const line = simCall?.line;
    if (!line) throw new Error('no line');
    /** Lets the line run `ms` (100 ms frames), letting the app's socket traffic through between frames. */
    const run = async (ms: number) => {
      for (let at = 0; at < ms; at += 100) {
        await clock.advance(100);
        // Turns of the event loop for the sockets between the simulator and the app (no wall-clock wait).
        for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const until = async (what: () => boolean, limitMs = 20_000) => {
      for (let at = 0; !what(); at += 100) {
        if (at > limitMs) throw new Error('timed out on the line');
        await run(100);
      }
    };

    // The caller asks; the voice delegates; the delegate's tool runs on the app's server, answered as commentary.
    line.say(speechAudio('is RX-1 ready', { durationMs: 900 }));
    await until(() => events.of('delegation_done').length > 0);
    expect(events.of('tool_done')[0]).toMatchObject({
      name: 'check_prescription',
      output: 'Prescription RX-1 is ready at counter two',
      delegationId: expect.any(String),
    });
    const answer = 'Your prescription RX-1 is ready';
    const spoken = () => session.history.some((i) => i.type === 'message' && i.text.includes(answer));
    await until(spoken);
    await run(800);

    // The caller talks over the answer: the service stops the voice; the session cuts it where the line was.
    const sideband = () =>
      sim.clientEvents.filter((e) => e.socket === 'sideband').map((e) => (e.event as { type: string }).type);
    const sentBefore = sideband().length;
    line.say(speechAudio('sorry can I have it delivered', { durationMs: 900 }));
    await until(() => events.of('audio_interrupted').length > 0);
    const cut = events.of('audio_interrupted')[0] as { heardMs: number; responseId: string };
    expect(cut.heardMs).toBeGreaterThan(0);
    expect(events.of('response_done')).toContainEqual(
      expect.objectContaining({ type: 'response_done', responseId: cut.responseId, status: 'cancelled' }),
    );
    // Nothing on the wire: GPT-Live has no cancel, clear or truncate.
    expect(sideband().slice(sentBefore)).toEqual([]);
    const answered = session.history.find(
      (i) => i.type === 'message' && i.text.includes('Your prescription'),
    );
    expect(answered).toMatchObject({ interrupted: true });

    // Keys both ways on the call's sideband.
    line.press('1');
    await until(() => events.of('dtmf').length > 0);
    expect(events.of('dtmf')[0]).toMatchObject({ digit: '1', source: 'provider' });
    session.sendDtmf('5');
    await until(() => (simCall?.session?.digitsSent.length ?? 0) > 0);
    expect(simCall?.session?.digitsSent).toEqual(['5']);

    // The caller hangs up: the session ends with the call.
    line.hangUp();
    await until(() => session.status !== 'connected');
    expect(simCall?.state).toBe('ended');
    await call.hangUp();
    expect(session.status).toBe('closed');
  });

  test('a webhook signed with another secret is refused with 401 and answers no call', async () => {
    const sim = await liveSimulator();
    const app = await phoneApp(sim);
    const forged = await sim.incomingSipCall({
      webhookUrl: app.webhookUrl,
      secret: `whsec_${Buffer.from('someone else').toString('base64')}`,
    });
    expect(forged.statuses).toEqual([401]);
    expect(app.calls).toEqual([]);
    expect(sim.call(forged.sessionId)).toMatchObject({ state: 'ringing', control: [] });
  });
});
