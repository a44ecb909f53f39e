// A microphone the test speaks into when it chooses (test instrumentation, not the example's code): the page's
// getUserMedia returns a Web Audio stream, and `say` plays the simulator's synthesized speech into it. Chromium's
// file-backed fake microphone plays on its own schedule from the moment the page opens it, so a test that must speak
// relative to what the service does (a barge-in while the answer plays) drives this one instead.
import { speechAudio } from '@parley/simulator';
import type { Page } from 'playwright-core';

/** Replaces the page's getUserMedia before its scripts load. */
export async function installDrivenMicrophone(page: Page): Promise<void> {
  await page.addInitScript(() => {
    let context: AudioContext | undefined;
    let destination: MediaStreamAudioDestinationNode | undefined;
    const open = () => {
      context ??= new AudioContext({ sampleRate: 24_000 });
      if (!destination) {
        destination = context.createMediaStreamDestination();
        // Silence between the words: a stream with no source playing would carry nothing, and the service's VAD
        // would never hear the speech end.
        const silence = context.createConstantSource();
        silence.offset.value = 0;
        silence.connect(destination);
        silence.start();
      }
      return { context, destination };
    };
    navigator.mediaDevices.getUserMedia = async () => {
      const { context, destination } = open();
      await context.resume();
      return destination.stream;
    };
    Object.assign(globalThis, {
      parleyMicrophone: {
        /** Plays PCM16 24 kHz mono (base64) into the microphone's stream; resolves once it has played. */
        say(base64: string): Promise<void> {
          const { context, destination } = open();
          const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
          const samples = new Int16Array(bytes.buffer, 0, bytes.byteLength >> 1);
          const buffer = context.createBuffer(1, samples.length, 24_000);
          const channel = buffer.getChannelData(0);
          for (let i = 0; i < samples.length; i++) channel[i] = (samples[i] as number) / 32_768;
          const source = context.createBufferSource();
          source.buffer = buffer;
          source.connect(destination);
          const played = new Promise<void>((resolve) => {
            source.onended = () => resolve();
          });
          source.start();
          return played;
        },
      },
    });
  });
}

/** Says `text` into the page's driven microphone and resolves once it has played; returns its length in ms. */
export async function say(page: Page, text: string): Promise<number> {
  const pcm = speechAudio(text);
  await page.evaluate(
    (base64) =>
      (globalThis as unknown as { parleyMicrophone: { say(b: string): Promise<void> } }).parleyMicrophone.say(
        base64,
      ),
    Buffer.from(pcm).toString('base64'),
  );
  return pcm.byteLength / 48;
}
