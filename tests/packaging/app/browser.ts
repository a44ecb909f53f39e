// What a browser app writes: no Node types, only the DOM and the disposable lib (see docs/realtime.md).
import { BrowserPlaybackTracker, connectBrowserVoice } from '@parley/browser';
import { Agent, RealtimeSession } from '@parley/core';
import { OpenAIRealtimeModel } from '@parley/openai';

export async function talk(): Promise<void> {
  const model = new OpenAIRealtimeModel({
    apiKeyProvider: async () => ((await (await fetch('/realtime-key')).json()) as { key: string }).key,
  });
  await using session = new RealtimeSession(new Agent({ name: 'Concierge', instructions: 'Be brief.' }), {
    model,
  });
  session.on('audio', (event) => play(event.data)); // PCM16, 24 kHz, mono
  await session.connect();
  session.sendMessage('Hello!');
}

function play(_pcm: Uint8Array): void {}

// With @parley/browser: the microphone and the speaker, no audio code (see docs/browser.md).
export async function talkAloud(): Promise<void> {
  const model = new OpenAIRealtimeModel({
    apiKeyProvider: async () => ((await (await fetch('/realtime-key')).json()) as { key: string }).key,
  });
  await using session = new RealtimeSession(new Agent({ name: 'Concierge', instructions: 'Be brief.' }), {
    model,
    playbackTracker: new BrowserPlaybackTracker(),
  });
  await using voice = await connectBrowserVoice({ session, microphone: { mode: 'push-to-talk' } });
  await session.connect();
  voice.startTalking();
}
