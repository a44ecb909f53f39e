import { codeRegion } from '@parley/conformance';
import { expect, test } from 'vitest';
import { realtimeDoc } from './realtime-doc.js';

test('the interruptions, playback and ephemeral responses example in docs/realtime.md works', async () => {
  const printed: string[] = [];
  const console = { log: (...parts: unknown[]) => printed.push(parts.join(' ')) };
  const { Agent, RealtimeSession, ReportedPlaybackTracker } = await import('@parley/core');
  const { MockRealtimeModel } = await import('@parley/mock');

  // #region turn-taking
  const model = new MockRealtimeModel().respondWith(
    {
      output: [
        { type: 'message', text: 'Your balance is 120 euros.', audio: { ms: 600 } },
        { type: 'message', text: 'Shall I read your last five payments?', audio: { ms: 900 } },
        { type: 'pause' }, // the model is still talking when the caller cuts in
      ],
    },
    'Your one-time code is 4 7 1 1.',
  );

  // This app plays the audio itself (say, a phone gateway) and reports what the caller heard.
  await using session = new RealtimeSession(new Agent({ name: 'Teller' }), {
    model,
    playbackTracker: new ReportedPlaybackTracker(),
  });
  const said = new Map<string, string>();
  session.on('transcript_delta', (e) => said.set(e.responseId, (said.get(e.responseId) ?? '') + e.delta));
  const messages: string[] = [];
  const bothArrived = new Promise<void>((resolve) => {
    session.on('audio_done', (e) => {
      if (messages.push(e.itemId) === 2) resolve();
    });
  });
  await session.connect();

  const response = session.generateResponse();
  await bothArrived;
  const [first = '', second = ''] = messages;
  session.playback.finished(first); // the caller heard all of the first message
  session.playback.played(second, 400); // and 400 ms of the second, then said "no, thanks"
  session.interrupt();
  await response.done;
  for (const item of session.history) {
    if (item.type === 'message') console.log(`${item.interrupted ? 'cut' : 'heard'}: ${item.text}`);
  }
  for (const command of model.commands) {
    if (command.type === 'truncateItem') console.log(`the model keeps ${command.heardMs} ms of the second`);
  }

  // Read a one-time code out loud without the model (or the history) ever remembering it.
  const code = session.generateResponse({
    instructions: 'Read the one-time code 4711 to the caller.',
    addToHistory: false,
  });
  const codeResponseId = await code;
  await code.done;
  console.log(`said out of band: ${said.get(codeResponseId)}`);
  console.log(
    `history: ${session.history.length} items, the model's context: ${model.connection.conversation.length}`,
  );
  // #endregion turn-taking

  expect(printed).toEqual([
    'heard: Your balance is 120 euros.',
    'cut: Shall I read your last five payments?',
    'the model keeps 400 ms of the second',
    'said out of band: Your one-time code is 4 7 1 1.',
    "history: 2 items, the model's context: 2",
  ]);
  expect(realtimeDoc).toContain(await codeRegion(import.meta.url, 'turn-taking'));
});
