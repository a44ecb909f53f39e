import { codeRegion } from '@parley/conformance';
import { expect, test } from 'vitest';
import { liveDoc } from './live-doc.js';

// Socket round trips per 100 ms frame (about 1.5 s; more on a loaded machine).
test('the delegation example in docs/providers/openai-live.md works', { timeout: 20_000 }, async () => {
  const printed: string[] = [];
  const console = { log: (...parts: unknown[]) => printed.push(parts.join(' ')) };
  const { Agent, RealtimeSession, tool } = await import('@parley/core');
  const { MockModel } = await import('@parley/mock');
  const { OpenAILiveModel } = await import('@parley/openai');
  const { silenceAudio, speechAudio, startLiveSimulator } = await import('@parley/simulator');
  const { z } = await import('zod');
  const textModel = new MockModel([
    MockModel.toolCall('check_environment', { name: 'staging' }),
    MockModel.text('Staging is healthy: 12 of 12 checks passed.'),
  ]);

  // #region delegate
  const sim = await startLiveSimulator();
  sim.script({ type: 'delegate' }); // the voice model will delegate the caller's next request

  const checkEnvironment = tool({
    name: 'check_environment',
    description: 'Health checks of an environment',
    parameters: z.object({ name: z.string() }),
    execute: ({ name }) => ({ name, passed: 12, failed: 0 }),
  });
  // The backend: a text agent with tools, run by the Runner (any text model; here a scripted one).
  const ops = new Agent({
    name: 'Ops',
    instructions: 'Answer questions about our systems. Use the tools.',
    model: textModel,
    tools: [checkEnvironment],
  });
  // The voice front: GPT-Live talks and listens; it delegates anything that needs data.
  const voice = new Agent({ name: 'Voice', instructions: 'Be brief. Delegate anything that needs data.' });
  const session = new RealtimeSession(voice, {
    model: new OpenAILiveModel({ apiKey: 'sk-test', url: sim.url }), // default url: OpenAI
    delegate: ops,
  });
  session.on('delegation_done', (e) => console.log(`backend: ${e.output}`));
  session.on('history_updated', (e) => {
    if (e.item.type === 'message' && e.item.status === 'completed')
      console.log(`${e.item.role}: ${e.item.text}`);
  });
  await session.connect();

  // The microphone: 100 ms frames of PCM16 24 kHz (the session sends silence by itself whenever none arrive).
  // One frame in per frame out stands in for the microphone's clock.
  const mic = Buffer.concat([speechAudio('is staging healthy', { durationMs: 800 }), silenceAudio(5000)]);
  await new Promise<void>((resolve) => {
    let at = 0;
    const next = () => {
      if (at >= mic.length) return resolve();
      const frame = mic.subarray(at, at + 4800);
      at += 4800;
      session.sendAudio(frame);
    };
    session.on('audio', next);
    session.on('output_silence', next);
    next();
  });
  await session.close();
  await sim.close();
  // #endregion delegate

  expect(printed).toEqual([
    'user: is staging healthy',
    'backend: Staging is healthy: 12 of 12 checks passed.',
    'assistant: One moment, let me check. Staging is healthy: 12 of 12 checks passed.',
  ]);
  expect(liveDoc).toContain(await codeRegion(import.meta.url, 'delegate'));
});
