import { SimulatedCaller } from '@parley/twilio/testing';
import { describe, expect, test, vi } from 'vitest';
import { callerSays, heardMsOf, ofType, phoneRig, weatherCalls } from './helpers.js';

describe('a phone call: simulated caller → Twilio bridge → RealtimeSession → Realtime simulator', () => {
  test('a tool call, a barge-in truncated at the last acknowledged mark, DTMF, and a hang-up that ends the call', async () => {
    const rig = await phoneRig({ dtmfMessage: (digit) => `The caller pressed ${digit}.` });
    rig.sim.script(
      { type: 'function_call', name: 'get_weather', arguments: { city: 'Lisbon' } },
      {
        type: 'message',
        text: 'It is sunny and twenty one degrees in Lisbon today, a fine day.',
        audioMs: 3000,
      },
      { type: 'message', text: 'Sorry, go ahead.', audioMs: 600 },
      {
        type: 'message',
        text: 'You pressed five. Connecting you to an agent, please hold the line.',
        audioMs: 4000,
      },
    );
    const truncates: { item_id: string; audio_end_ms: number; heardBytesThen: number }[] = [];
    const caller = await SimulatedCaller.dial({
      url: rig.url,
      clock: rig.clock,
      customParameters: { customer: 'c-42 & <friends>' },
    });
    rig.sim.onClientEvent(({ event }) => {
      const wire = event as { type: string; item_id?: string; audio_end_ms?: number };
      if (wire.type !== 'conversation.item.truncate') return;
      const last = caller.echoedMarks.at(-1);
      truncates.push({
        item_id: String(wire.item_id),
        audio_end_ms: Number(wire.audio_end_ms),
        heardBytesThen: last?.heardBytes ?? 0,
      });
    });
    const call = rig.calls[0];
    if (!call) throw new Error('no call');
    const digits: string[] = [];
    call.on('dtmf', (event) => digits.push(event.digit));

    // The caller asks; the model calls the tool, then answers with 3 s of audio.
    caller.say(callerSays('what is the weather in lisbon'));
    await caller.until((c) => c.heardBytes >= 1000 * 8);
    expect(rig.starts[0]?.customParameters).toEqual({ customer: 'c-42 & <friends>' });
    expect(weatherCalls).toEqual(['Lisbon']);
    expect(ofType(rig.events, 'tool_done')).toMatchObject([{ name: 'get_weather', status: 'completed' }]);
    // Outbound audio is in fixed 20 ms frames, each followed by a mark.
    const media = caller.received.filter((m) => m.event === 'media');
    expect(media.length).toBeGreaterThan(50);
    for (const m of media) expect(Buffer.from(m.media.payload, 'base64').length).toBe(160);
    expect(caller.received.slice(0, 4).map((m) => m.event)).toEqual(['media', 'mark', 'media', 'mark']);
    // The model generates faster than real time: the line holds audio the caller has not heard yet.
    expect(caller.receivedBytes).toBeGreaterThan(caller.heardBytes + 1000 * 8);

    // Barge-in: the caller speaks over the answer.
    const answerItem = ofType(rig.events, 'audio_started')[0]?.itemId;
    caller.say(callerSays('stop'));
    await caller.until((c) => c.clears === 1);
    await caller.until(() => truncates.length === 1);
    const truncate = truncates[0];
    expect(truncate?.item_id).toBe(answerItem);
    // Cut exactly where the last acknowledged mark says the caller was, not at what was sent.
    expect(truncate?.audio_end_ms).toBe(Math.floor((truncate?.heardBytesThen ?? 0) / 8));
    expect(truncate?.audio_end_ms).toBeGreaterThanOrEqual(1000);
    expect(truncate?.audio_end_ms).toBeLessThan(2000);
    await caller.until(() => ofType(rig.events, 'turn_done').length >= 2);
    expect(ofType(rig.events, 'turn_done')[1]).toMatchObject({
      outcome: 'partial',
      messages: [{ itemId: answerItem, heardMs: truncate?.audio_end_ms }],
    });

    // DTMF reaches the app, and becomes user input for the model.
    await caller.until(() => ofType(rig.events, 'turn_done').length >= 3);
    const heardBefore = caller.heardBytes;
    caller.pressDigit('5');
    await caller.until(() => digits.length === 1);
    expect(digits).toEqual(['5']);
    // A session event too, from the line.
    expect(ofType(rig.events, 'dtmf')).toEqual([{ type: 'dtmf', digit: '5', source: 'line' }]);
    await caller.until((c) => c.heardBytes >= heardBefore + 500 * 8);
    const userTexts = rig.sim.connections[0]?.conversation.items
      .filter((i) => i.type === 'message' && i.role === 'user')
      .flatMap((i) => (i.type === 'message' ? i.content : []))
      .map((c) => ('text' in c ? c.text : undefined));
    expect(userTexts).toContain('The caller pressed 5.');

    // The caller hangs up while the last answer plays: the call ends, the session closes, the open turn is reported.
    await caller.hangUp();
    expect(await call.ended).toBe('stop');
    expect(rig.sessions[0]?.status).toBe('closed');
    // The open turn is reported as the session closes, after the call ended.
    await vi.waitFor(() => expect(ofType(rig.events, 'turn_done')).toHaveLength(4));
    const turns = ofType(rig.events, 'turn_done');
    expect(turns[3]?.outcome).toBe('partial');
    expect(rig.streams.calls.size).toBe(0);
    // The hang-up cut the last answer where the caller stopped hearing it, on the provider and in the store.
    expect(truncates).toHaveLength(2);
    expect(truncates[1]?.audio_end_ms).toBeGreaterThanOrEqual(500);
    expect(truncates[1]?.audio_end_ms).toBeLessThan(4000);
    expect(heardMsOf(turns[3]?.messages[0])).toBe(truncates[1]?.audio_end_ms);
    const remembered = JSON.stringify(await rig.memory.getItems());
    expect(remembered).toContain('The caller pressed 5.');
    expect(remembered).toContain('Sunny and 21 °C in Lisbon');
    expect(remembered).not.toContain('please hold the line');
  });
});
