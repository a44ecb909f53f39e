import { Agent, RealtimeSession, ReportedPlaybackTracker } from '@parley/core';
import { createHold } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { modelFor, sent, simulator } from './helpers.js';

describe('a G.711 session end to end (OpenAIRealtimeModel + RealtimeSession on the simulator)', () => {
  test.each([
    ['g711_ulaw', 'audio/pcmu'],
    ['g711_alaw', 'audio/pcma'],
  ] as const)(
    '%s: formats on the wire, audio in the format, played and truncated ms at 8 bytes per ms',
    async (format, wire) => {
      const sim = await simulator();
      const session = new RealtimeSession(new Agent({ name: 'Phone', instructions: 'Answer the phone.' }), {
        model: modelFor(sim),
        playbackTracker: new ReportedPlaybackTracker(),
        config: { turnDetection: null, inputAudioFormat: format, outputAudioFormat: format },
        reconnect: false,
      });
      const audio: Uint8Array[] = [];
      session.on('audio', (event) => audio.push(event.data));
      try {
        await session.connect();
        const server = await sim.waitForConnection(0);
        await server.waitForServerEvent('session.updated');
        expect(sent(server, 'session.update')[0]?.session).toMatchObject({
          audio: { input: { format: { type: wire } }, output: { format: { type: wire } } },
        });
        expect(server.session.audio).toMatchObject({
          input: { format: { type: wire } },
          output: { format: { type: wire } },
        });

        const hold = createHold('after 1.5 s');
        sim.script({
          type: 'message',
          text: ['The first part of a long answer ', hold, 'and the rest.'],
          audioMs: 3000,
        });
        session.sendMessage('Hello?');
        await hold.reached;
        const responseId = server.activeResponses[0]?.id as string;
        const itemId = server.conversation.items.at(-1)?.id as string;
        const sentBytes = server.serverEvents
          .filter((e) => e.type === 'response.output_audio.delta')
          .reduce((n, e) => n + Buffer.from(String(e.delta), 'base64').length, 0);
        const sentMs = sentBytes / 8;
        expect(sentMs).toBeGreaterThan(1000);
        await new Promise<void>((resolve) => {
          const check = () => {
            if (audio.reduce((n, a) => n + a.length, 0) >= sentBytes) resolve();
            else setImmediate(check);
          };
          check();
        });
        // The app's audio is in the session's format, byte for byte what the service sent.
        expect(audio.reduce((n, a) => n + a.length, 0)).toBe(sentBytes);

        session.playback.played(itemId, 1000);
        session.interrupt();
        const truncate = await server.waitForClientEvent('conversation.item.truncate');
        expect(truncate).toMatchObject({ item_id: itemId, audio_end_ms: 1000 });
        const truncated = await server.waitForServerEvent('conversation.item.truncated');
        expect(truncated.audio_end_ms).toBe(1000);
        expect(server.serverEvents.filter((e) => e.type === 'error')).toEqual([]);
        expect(responseId).toMatch(/^resp_/);
        hold.release();
      } finally {
        await session.close();
      }
    },
  );

  test('an unknown audio format is refused before connecting', () => {
    expect(
      () =>
        new RealtimeSession(new Agent({ name: 'A' }), {
          model: { provider: 'x' } as never,
          config: { outputAudioFormat: 'opus' as never },
        }),
    ).toThrow(expect.objectContaining({ code: 'invalid_session_options' }));
  });
});
