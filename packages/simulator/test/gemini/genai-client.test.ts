import { GoogleGenAI, type LiveServerMessage, Modality, type Session } from '@google/genai';
import {
  FastForwardClock,
  type GeminiSimulator,
  geminiSilence,
  geminiSpeech,
  startGeminiSimulator,
} from '@parley/simulator';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The official client as witness: `@google/genai`'s Live session runs conversations against the simulator, and every
 * message the simulator sends parses with that package's own types (what its parser keeps equals what was sent:
 * no field it does not know, none renamed).
 */

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

let simulator: GeminiSimulator | undefined;
let session: Session | undefined;

afterEach(async () => {
  session?.close();
  session = undefined;
  await simulator?.close();
  simulator = undefined;
});

function inbox() {
  const messages: LiveServerMessage[] = [];
  const waiters: { match: (m: LiveServerMessage) => boolean; resolve: (m: LiveServerMessage) => void }[] = [];
  let closed: { code: number; reason: string } | undefined;
  const onClose: ((event: { code: number; reason: string }) => void)[] = [];
  return {
    messages,
    callbacks: {
      onmessage: (message: LiveServerMessage) => {
        messages.push(message);
        for (const waiter of [...waiters]) {
          if (waiter.match(message)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(message);
          }
        }
      },
      onclose: (event: CloseEvent) => {
        closed = { code: event.code, reason: event.reason };
        for (const listener of onClose) listener(closed);
      },
    },
    next(match: (m: LiveServerMessage) => boolean): Promise<LiveServerMessage> {
      const found = messages.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    closed(): Promise<{ code: number; reason: string }> {
      if (closed) return Promise.resolve(closed);
      return new Promise((resolve) => onClose.push(resolve));
    },
  };
}

/** What `@google/genai` kept of each message, as plain JSON (its getters are not data). */
function plain(message: LiveServerMessage): unknown {
  return JSON.parse(JSON.stringify(message));
}

describe('@google/genai Live client against the Gemini simulator', () => {
  // Paced on a fast-forward clock: a loaded machine stretches it (no timing is asserted).
  it('runs a spoken conversation with a tool call; every message parses with the SDK types', {
    timeout: 60_000,
  }, async () => {
    simulator = await startGeminiSimulator({ clock: new FastForwardClock() });
    simulator.respondWith(
      { outputs: [{ type: 'call', name: 'get_weather', args: { city: 'Paris' } }] },
      { outputs: [{ type: 'speech', text: 'It is sunny in Paris.' }] },
    );
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: simulator.baseUrl } });
    const box = inbox();
    session = await ai.live.connect({
      model: 'gemini-live-2.5-flash-preview',
      config: {
        responseModalities: [Modality.AUDIO],
        inputAudioTranscription: {},
        outputAudioTranscription: {},
        sessionResumption: {},
        systemInstruction: 'You report the weather.',
        tools: [
          {
            functionDeclarations: [
              {
                name: 'get_weather',
                parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } },
              },
            ],
          },
        ],
      },
      callbacks: box.callbacks,
    });
    const sim = simulator.latest;
    expect(sim?.setup?.model).toBe('models/gemini-live-2.5-flash-preview');
    expect(simulator.upgrades[0]?.path).toMatch(
      /^\/ws\/google\.ai\.generativelanguage\.v1(beta)?\.GenerativeService\.BidiGenerateContent\?key=test-key$/,
    );

    session.sendRealtimeInput({
      audio: { data: base64(geminiSpeech('Weather in Paris?')), mimeType: 'audio/pcm;rate=16000' },
    });
    session.sendRealtimeInput({
      audio: { data: base64(geminiSilence(700)), mimeType: 'audio/pcm;rate=16000' },
    });

    const call = await box.next((m) => m.toolCall !== undefined);
    const fn = call.toolCall?.functionCalls?.[0];
    expect(fn).toMatchObject({ name: 'get_weather', args: { city: 'Paris' } });
    expect(typeof fn?.id).toBe('string');
    session.sendToolResponse({
      functionResponses: [{ id: fn?.id, name: 'get_weather', response: { output: 'sunny' } }],
    });

    await box.next((m) => m.serverContent?.turnComplete === true);
    const transcript = box.messages.map((m) => m.serverContent?.outputTranscription?.text ?? '').join('');
    expect(transcript).toBe('It is sunny in Paris.');
    const heard = box.messages.map((m) => m.serverContent?.inputTranscription?.text ?? '').join('');
    expect(heard).toBe('Weather in Paris?');
    const audio = box.messages.filter((m) => m.data !== undefined);
    expect(audio.length).toBeGreaterThan(0);
    expect(box.messages.some((m) => m.serverContent?.generationComplete === true)).toBe(true);
    expect(box.messages.some((m) => m.usageMetadata?.totalTokenCount !== undefined)).toBe(true);
    expect(box.messages.some((m) => m.sessionResumptionUpdate?.newHandle !== undefined)).toBe(true);

    // The server-side context holds the whole exchange.
    expect(sim?.history.map((turn) => turn.role)).toEqual(['user', 'model', 'user', 'model']);

    // Everything the simulator sent is what the SDK's parser kept.
    expect(box.messages.map(plain)).toEqual(JSON.parse(JSON.stringify(sim?.sent)));
  });

  it('resumes a session from its handle after goAway: the new connection keeps the context', async () => {
    simulator = await startGeminiSimulator({ pace: 'instant' });
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: simulator.baseUrl } });
    const first = inbox();
    session = await ai.live.connect({
      model: 'gemini-live-2.5-flash-preview',
      config: { responseModalities: [Modality.AUDIO], sessionResumption: {} },
      callbacks: first.callbacks,
    });
    session.sendClientContent({
      turns: [{ role: 'user', parts: [{ text: 'My name is Ada.' }] }],
      turnComplete: true,
    });
    await first.next((m) => m.serverContent?.turnComplete === true);
    simulator.latest?.goAway(5_000);
    const goAway = await first.next((m) => m.goAway !== undefined);
    expect(goAway.goAway?.timeLeft).toBe('5s');
    const handle = first.messages.filter((m) => m.sessionResumptionUpdate?.newHandle).at(-1)
      ?.sessionResumptionUpdate?.newHandle;
    expect(handle).toBeDefined();
    session.close();

    const second = inbox();
    session = await ai.live.connect({
      model: 'gemini-live-2.5-flash-preview',
      config: { responseModalities: [Modality.AUDIO], sessionResumption: { handle } },
      callbacks: second.callbacks,
    });
    expect(simulator.latest?.resumed).toBe(true);
    expect(simulator.latest?.history[0]).toEqual({ role: 'user', parts: [{ text: 'My name is Ada.' }] });
    expect(second.messages.map(plain)).toEqual(JSON.parse(JSON.stringify(simulator.latest?.sent)));
  });

  it('ends a connection with an unknown model, an invalid key or an expired handle by a close code', async () => {
    simulator = await startGeminiSimulator({ pace: 'instant', models: ['gemini-live-2.5-flash-preview'] });
    const connect = (apiKey: string, model: string, handle?: string) =>
      new GoogleGenAI({
        apiKey,
        httpOptions: { baseUrl: (simulator as GeminiSimulator).baseUrl },
      }).live.connect({
        model,
        config: { responseModalities: [Modality.AUDIO], ...(handle && { sessionResumption: { handle } }) },
        callbacks: { onmessage: () => {} },
      });
    await expect(connect('test-key', 'no-such-model')).rejects.toThrow(/code 1008.*not found/);
    await expect(connect('wrong-key', 'gemini-live-2.5-flash-preview')).rejects.toThrow(
      /code 1007.*API key not valid/,
    );
    await expect(connect('test-key', 'gemini-live-2.5-flash-preview', 'sim-resume-unknown')).rejects.toThrow(
      /code 1008.*handle/,
    );
  });
});
