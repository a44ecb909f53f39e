import { codeRegion } from '@parley/conformance';
import { expect, test } from 'vitest';
import { liveDoc } from './live-doc.js';

// The example streams its audio in real time as a user's would (about 2 s; more on a loaded machine).
test('the simulator example in docs/providers/openai-live.md works', { timeout: 20_000 }, async () => {
  const printed: string[] = [];
  const console = { log: (...parts: unknown[]) => printed.push(parts.join(' ')) };
  const { silenceAudio, speechAudio, startLiveSimulator } = await import('@parley/simulator');
  const { default: OpenAI } = await import('openai');
  const { LiveWS } = await import('openai/resources/live/ws');

  // #region simulator
  const sim = await startLiveSimulator();
  sim.script({ type: 'delegate' }); // the voice model delegates the next utterance to the client

  const live = new LiveWS(new OpenAI({ apiKey: 'sk-test', baseURL: sim.baseURL }));
  live.on('session.input_transcript.delta', (e) => console.log(`user:${e.delta}`));
  live.on('session.output_transcript.delta', (e) => console.log(`assistant:${e.delta}`));
  live.on('session.delegation.created', (e) => {
    // Client delegation carries no task text: the app answers from what was said so far.
    live.send({
      type: 'session.commentary.append',
      delegation_id: e.delegation.id,
      content: 'Staging is healthy.',
    });
  });
  live.send({ type: 'session.start', session: { model: 'gpt-live-1' } });

  // Input audio drives the session's timeline, so it never stops: speech, then silence, in 100 ms frames.
  const audio = Buffer.concat([speechAudio('check staging', { durationMs: 600 }), silenceAudio(3000)]);
  const frames: string[] = [];
  for (let at = 0; at < audio.length; at += 4800) {
    frames.push(audio.subarray(at, at + 4800).toString('base64'));
  }
  // One frame in per frame out stands in for a microphone's clock.
  const sendNext = () => {
    const frame = frames.shift();
    live.send(frame ? { type: 'session.input_audio.append', audio: frame } : { type: 'session.close' });
  };
  live.on('session.output_audio.delta', sendNext);
  sendNext();
  await new Promise((resolve) => live.on('session.closed', resolve));
  await sim.close();
  // #endregion simulator

  expect(printed).toEqual([
    'user:check',
    'user: staging',
    'assistant:One',
    'assistant: moment,',
    'assistant: let',
    'assistant: me',
    'assistant: check.',
    'assistant: Staging',
    'assistant: is',
    'assistant: healthy.',
  ]);
  expect(liveDoc).toContain(await codeRegion(import.meta.url, 'simulator'));
});
