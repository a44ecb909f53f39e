// The example app (examples/browser-voice) in real Chromium, its microphone fed from a WAV file of the simulator's
// own synthesized speech: a question, a tool call answered in the page, a barge-in while the answer plays. The
// assertions are the rules of docs/browser.md: the model's copy of the answer is cut where the speaker worklet
// stopped, the transcript says so, and the microphone's audio reaches the service at its true length.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RealtimeKey, startExampleServer } from '@parley/example-browser-voice/server.mjs';
import { createClientSecret } from '@parley/openai';
import { type RealtimeSimulator, startRealtimeSimulator } from '@parley/simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bounded, STEP_TIMEOUT_MS } from './bounded.js';
import { chromiumMissing, launchChromium } from './chromium.js';
import {
  ANSWER_AUDIO_MS,
  BARGE_IN,
  conversationSimulatorOptions,
  expectQuestionAtItsLength,
  expectQuestionHeard,
  expectToolAnswered,
  expectTranscript,
  MICROPHONE_PARTS,
  QUESTION,
} from './conversation.js';
import { installDrivenMicrophone, say } from './driven-microphone.js';
import { type MicrophoneScript, writeMicrophoneWav } from './fake-microphone.js';
import type { Lab } from './lab/lab.js';
import { startLabServer } from './lab/lab-server.js';

/**
 * What the speaker played beyond the position the session cut at (docs/browser.md, "What was heard"): the frames the
 * audio thread renders between the barge-in and its next look at the stop, at most a device buffer (`baseLatency`,
 * 10 ms here) and usually under a millisecond; a few buffers when the audio thread runs late on a loaded machine.
 */
const STOP_TOLERANCE_MS = 50;

const skip = chromiumMissing();
let directory: string;
let microphone: MicrophoneScript;
let browser: Browser | undefined;

beforeAll(async () => {
  if (skip) return;
  directory = await mkdtemp(join(tmpdir(), 'parley-browser-'));
  const wav = join(directory, 'microphone.wav');
  microphone = await writeMicrophoneWav(wav, MICROPHONE_PARTS);
  browser = await launchChromium(wav);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (directory) await rm(directory, { recursive: true, force: true });
});

interface PageStop {
  itemId: string | undefined;
  heardMs: number | undefined;
  playedMs: [string, number][];
  sampleRate: number;
}

function readStop(page: Page): Promise<PageStop | undefined> {
  return page.evaluate(() => {
    const { voice } = (
      globalThis as unknown as { parleyExample: { voice?: import('@parley/browser').BrowserVoice } }
    ).parleyExample;
    const stop = voice?.lastStop;
    return stop && voice
      ? {
          itemId: stop.itemId,
          heardMs: stop.heardMs,
          playedMs: [...stop.playedMs],
          sampleRate: voice.audioContext.sampleRate,
        }
      : undefined;
  });
}

/** A new page at `url` once the lab (lab.ts) has loaded in it; closed again if it never does. */
async function openLabPage(url: string): Promise<Page> {
  const page = await (browser as Browser).newPage();
  try {
    await page.goto(url);
    await page.waitForFunction(() => 'lab' in globalThis, undefined, { timeout: STEP_TIMEOUT_MS });
    return page;
  } catch (error) {
    await page.close();
    throw error;
  }
}

/** Runs `body` on a lab page of a fresh lab server; the page and the server are closed whatever happens. */
async function withLabPage(body: (page: Page, labUrl: string) => Promise<void>): Promise<void> {
  const server = await startLabServer();
  try {
    const page = await openLabPage(server.url);
    try {
      await body(page, server.url);
    } finally {
      await page.close();
    }
  } finally {
    await server.close();
  }
}

/**
 * Runs `body` on the example app (examples/browser-voice) over a simulator of the conversation, its app server
 * answering `/realtime-key` with `realtimeKey`, once the user pressed Start; `beforeLoad` runs on the page before the
 * app loads (an init script). The page, the app server and the simulator are closed whatever happens.
 */
async function withExampleApp(
  options: {
    realtimeKey: (sim: RealtimeSimulator) => Promise<RealtimeKey>;
    beforeLoad?: (page: Page) => Promise<unknown>;
  },
  body: (page: Page, app: { sim: RealtimeSimulator; url: string }) => Promise<void>,
): Promise<void> {
  const sim = await startRealtimeSimulator(conversationSimulatorOptions());
  try {
    const server = await startExampleServer({ realtimeKey: () => options.realtimeKey(sim) });
    try {
      const page = await (browser as Browser).newPage();
      try {
        await options.beforeLoad?.(page);
        await page.goto(server.url);
        await page.click('#start');
        await body(page, { sim, url: server.url });
      } finally {
        await page.close();
      }
    } finally {
      await server.close();
    }
  } finally {
    await sim.close();
  }
}

describe.skipIf(skip !== undefined)('the example app in Chromium', () => {
  test('over WebSocket: a question, a tool call, a barge-in cut where the speaker stopped', async () => {
    const realtimeKey = async (sim: RealtimeSimulator) => ({ key: 'ek_test', url: sim.url });
    await withExampleApp({ realtimeKey }, async (page, { sim }) => {
      const connection = await bounded('the page to connect', sim.waitForConnection(0));
      // The key reached the service as the browser's subprotocol, not a header.
      expect(sim.upgrades[0]?.headers['sec-websocket-protocol']).toContain('openai-insecure-api-key.ek_test');

      await expectQuestionAtItsLength(connection, microphone);
      await expectToolAnswered(connection);

      // The barge-in: the service cut the answer where the listener stopped hearing it.
      const truncate = await bounded(
        'the barge-in (conversation.item.truncate)',
        connection.waitForClientEvent('conversation.item.truncate'),
      );
      await page.waitForFunction(
        () =>
          (globalThis as unknown as { parleyExample: { voice?: { lastStop?: unknown } } }).parleyExample.voice
            ?.lastStop,
        undefined,
        { timeout: STEP_TIMEOUT_MS },
      );
      const stop = (await readStop(page)) as PageStop;
      const cutAt = truncate.audio_end_ms as number;
      expect(stop.itemId).toBe(truncate.item_id);
      expect(stop.heardMs).toBe(cutAt);
      const played = new Map(stop.playedMs).get(truncate.item_id as string) as number;
      // What came out of the speaker: at least what the session reported heard, and at most a few quanta more.
      expect(played).toBeGreaterThanOrEqual(cutAt);
      expect(played - cutAt).toBeLessThanOrEqual(STOP_TOLERANCE_MS);
      // The answer was playing: it started, and the speaker had not reached its end.
      expect(cutAt).toBeGreaterThan(500);
      expect(cutAt).toBeLessThan(ANSWER_AUDIO_MS - 500);

      await expectTranscript(page);
    });
  }, 45_000);

  test('over WebRTC: a client secret from the app server, a tool call, a barge-in the service cut where it stopped playing', async () => {
    // The app server's side: a client secret per call, minted with the standard key the browser never sees.
    const realtimeKey = async (sim: RealtimeSimulator): Promise<RealtimeKey> => ({
      key: (await createClientSecret({ apiKey: 'sk-app-server', baseURL: sim.httpBaseURL })).value,
      transport: 'webrtc',
      baseURL: sim.httpBaseURL,
    });
    // Counts the audio the browser's peer connection received (test instrumentation, not the example's code).
    const countPeers = (page: Page) =>
      page.addInitScript(() => {
        const peers: RTCPeerConnection[] = [];
        const Native = globalThis.RTCPeerConnection;
        globalThis.RTCPeerConnection = class extends Native {
          constructor(configuration?: RTCConfiguration) {
            super(configuration);
            peers.push(this);
          }
        };
        Object.assign(globalThis, { parleyPeers: peers });
      });
    const beforeLoad = async (page: Page) => {
      await countPeers(page);
      await installDrivenMicrophone(page);
    };
    await withExampleApp({ realtimeKey, beforeLoad }, async (page, { sim, url }) => {
      const receivedAudio = () =>
        page.evaluate(async () => {
          const [peer] = (globalThis as unknown as { parleyPeers: RTCPeerConnection[] }).parleyPeers;
          let packets = 0;
          (await peer?.getStats())?.forEach(
            (stat: { type: string; kind?: string; packetsReceived?: number }) => {
              if (stat.type === 'inbound-rtp' && stat.kind === 'audio') packets += stat.packetsReceived ?? 0;
            },
          );
          return packets;
        });
      const connection = await bounded('the WebRTC call to connect', sim.waitForConnection(0));
      // The offer came from the page (a cross-origin POST the service allows) with a key the app server minted.
      expect(connection.path).toBe('/v1/realtime/calls');
      expect(connection.headers.origin).toBe(new URL(url).origin);
      const minted = sim.clientSecrets.map((secret) => `Bearer ${secret.value}`);
      expect(minted).toContain(connection.headers.authorization);
      expect(sim.call(connection.callId as string)?.line).toBe('webrtc');
      await page.waitForFunction(
        () => document.getElementById('status')?.textContent === 'connected (webrtc)',
        undefined,
        {
          timeout: STEP_TIMEOUT_MS,
        },
      );

      // The question travels on the microphone's track (Opus or PCMU, through the browser's audio processing).
      // The test speaks when the call carries audio, and barges in once the service has played a second of the answer.
      const questionMs = await say(page, QUESTION);
      await expectQuestionHeard(connection, {
        spoken: [{ text: QUESTION, startMs: 0, endMs: questionMs }],
        durationMs: questionMs,
      });
      await expectToolAnswered(connection);
      const answer = await bounded(
        "the answer's message (response.output_item.added)",
        connection.waitForServerEvent(
          (event) =>
            event.type === 'response.output_item.added' &&
            (event.item as { type?: string }).type === 'message',
        ),
      );
      const answerId = (answer.item as { id: string }).id;
      await expect
        .poll(() => connection.playedMs(answerId), { timeout: STEP_TIMEOUT_MS, interval: 50 })
        .toBeGreaterThanOrEqual(1000);
      await say(page, BARGE_IN);

      // The barge-in, heard by the service on the track: it stops its playback and cuts the answer where it stopped.
      const truncated = await bounded(
        () =>
          "the service's truncation (conversation.item.truncated); its last events: " +
          connection.serverEvents
            .slice(-12)
            .map((e) => (e as { type?: string }).type)
            .join(', '),
        connection.waitForServerEvent('conversation.item.truncated'),
      );
      const packets = await receivedAudio();
      // The page played the call's voice: @parley/browser's call audio holds the peer's live remote track.
      const speaker = await page.evaluate(() => {
        const { call } = (
          globalThis as unknown as { parleyExample: { call?: import('@parley/browser').CallAudio } }
        ).parleyExample;
        const stream = call?.speaker.srcObject as MediaStream | null | undefined;
        return {
          playing: call?.speaker.paused === false,
          tracks: stream?.getAudioTracks().map((t) => t.readyState),
        };
      });
      expect(speaker).toEqual({ playing: true, tracks: ['live'] });
      const cutAt = truncated.audio_end_ms as number;
      const itemId = truncated.item_id as string;
      expect(cutAt).toBe(connection.playedMs(itemId));
      expect(cutAt).toBeGreaterThan(500);
      expect(cutAt).toBeLessThan(ANSWER_AUDIO_MS - 500);
      // The page asked for nothing: over WebRTC the service truncates, the client never does.
      expect(
        connection.clientEvents.filter((e) => (e as { type?: string }).type === 'conversation.item.truncate'),
      ).toEqual([]);
      // The browser received the answer's audio up to the cut (20 ms packets): what the service says was heard is
      // what reached the speaker, less the packets still in flight or dropped by a busy loopback, and never more
      // than the cut plus what followed it (the "Okay." after the barge-in, 250 ms).
      expect(packets * 20).toBeGreaterThanOrEqual(Math.min(cutAt - 100, cutAt * 0.8));
      expect(packets * 20).toBeLessThanOrEqual(cutAt + 400);
      // The session took the service's word for it: the message is cut at that position in the page's history.
      const heardMs = await page.waitForFunction(
        (id) => {
          const { session } = (
            globalThis as unknown as { parleyExample: { session?: import('@parley/core').RealtimeSession } }
          ).parleyExample;
          const item = session?.history.find((i) => i.itemId === id);
          return item?.type === 'message' ? item.heardMs : undefined;
        },
        itemId,
        { timeout: STEP_TIMEOUT_MS },
      );
      expect(await heardMs.jsonValue()).toBe(cutAt);

      await expectTranscript(page, false);
    });
  }, 60_000);

  test('the microphone ends by itself: the app is told (microphone_ended), the microphone is released, the rest goes on', async () => {
    await withLabPage(async (page) => {
      const ended = await page.evaluate(async () => {
        const { lab } = globalThis as unknown as { lab: Lab };
        const { session, model } = lab.mockSession();
        const reports: { code: string; typed: boolean; message: string }[] = [];
        const voice = await lab.connectBrowserVoice({
          session,
          microphone: {
            onEnded: (error) =>
              reports.push({
                code: error.code,
                typed: error instanceof lab.BrowserVoiceError,
                message: error.message,
              }),
          },
        });
        await session.connect();
        const context = voice.audioContext;
        const audioTime = (ms: number) => lab.audioTime(context, ms);
        const frames = () => model.commands.filter((c) => c.type === 'appendInputAudio').length;
        await audioTime(200);
        const before = frames();
        // The browser fires `ended` on the track when the device is unplugged or the permission revoked; headless
        // Chromium can do neither, so the same event is fired on the real track.
        const track = voice.microphoneTrack as MediaStreamTrack;
        track.dispatchEvent(new Event('ended'));
        track.dispatchEvent(new Event('ended'));
        const atEnd = frames();
        await audioTime(200);
        const after = {
          reports,
          error: voice.microphoneError?.code,
          sentBefore: before > 0,
          sentAfter: frames() - atEnd,
          track: track.readyState,
          closed: voice.closed,
          context: context.state,
          session: session.status,
        };
        await voice.close();
        await session.close();
        return { ...after, contextAfterClose: context.state };
      });
      expect(ended).toEqual({
        reports: [
          { code: 'microphone_ended', typed: true, message: expect.stringMatching(/stopped by itself/) },
        ],
        error: 'microphone_ended',
        sentBefore: true,
        sentAfter: 0,
        track: 'ended',
        closed: false,
        context: 'running',
        session: 'connected',
        contextAfterClose: 'closed',
      });
    });
  }, 30_000);

  test("a WebRTC call's audio: a typed error for no microphone, mute, a microphone that ends by itself, close", async () => {
    await withLabPage(async (page) => {
      const result = await page.evaluate(async () => {
        const { lab } = globalThis as unknown as { lab: Lab };
        const missing = await lab
          .openCallAudio({ microphone: { constraints: { deviceId: { exact: 'no-such-microphone' } } } })
          .catch((e) => ({ typed: e instanceof lab.BrowserVoiceError, code: e.code }));
        const reports: string[] = [];
        const call = await lab.openCallAudio({
          microphone: { muted: true, onEnded: (e) => reports.push(e.code) },
        });
        const startedMuted = { muted: call.muted, enabled: call.inputTrack.enabled };
        call.unmute();
        const unmuted = { muted: call.muted, enabled: call.inputTrack.enabled };
        // What the browser does when the device is unplugged or the permission revoked (see the test above).
        call.inputTrack.dispatchEvent(new Event('ended'));
        call.inputTrack.dispatchEvent(new Event('ended'));
        const ended = { reports: [...reports], error: call.microphoneError?.code };
        const first = call.close();
        const same = first === call.close();
        await first;
        return {
          missing,
          startedMuted,
          unmuted,
          ended,
          closed: { same, track: call.inputTrack.readyState, closed: call.closed, reports: reports.length },
        };
      });
      expect(result).toEqual({
        missing: { typed: true, code: 'microphone_not_found' },
        startedMuted: { muted: true, enabled: false },
        unmuted: { muted: false, enabled: true },
        ended: { reports: ['microphone_ended'], error: 'microphone_ended' },
        closed: { same: true, track: 'ended', closed: true, reports: 1 },
      });
    });
  }, 30_000);

  test('the helper alone: a missing or refused microphone releases everything; push-to-talk, mute, close, G.711', async () => {
    await withLabPage(async (page, labUrl) => {
      // No such microphone: a typed error, and the AudioContext the helper had opened is closed again.
      const notFound = await page.evaluate(async () => {
        const { lab } = globalThis as unknown as { lab: Lab };
        const { session } = lab.mockSession();
        const constraints = { deviceId: { exact: 'no-such-microphone' } };
        const error = await lab.connectBrowserVoice({ session, microphone: { constraints } }).catch((e) => e);
        return {
          typed: error instanceof lab.BrowserVoiceError,
          code: error.code,
          contexts: lab.contexts.map((c) => c.state),
        };
      });
      expect(notFound).toEqual({ typed: true, code: 'microphone_not_found', contexts: ['closed'] });

      // The microphone refused (here by the site's Permissions-Policy; a user's "Block" gives the same error).
      const deniedPage = await openLabPage(new URL('/denied', labUrl).href);
      try {
        const denied = await deniedPage.evaluate(async () => {
          const { lab } = globalThis as unknown as { lab: Lab };
          const error = await lab.connectBrowserVoice({ session: lab.mockSession().session }).catch((e) => e);
          return { code: error.code, message: error.message, contexts: lab.contexts.map((c) => c.state) };
        });
        expect(denied).toEqual({
          code: 'microphone_permission_denied',
          message: expect.stringMatching(/allow it for this site/),
          contexts: ['closed'],
        });
      } finally {
        await deniedPage.close();
      }

      // Push-to-talk: audio reaches the session only between startTalking() and stopTalking(), at its true length
      // in the session's format (PCM16 24 kHz: 48 bytes a millisecond), and stopTalking() commits the turn.
      const talk = await page.evaluate(async () => {
        const { lab } = globalThis as unknown as { lab: Lab };
        const { session, model } = lab.mockSession({ turnDetection: null });
        const voice = await lab.connectBrowserVoice({ session, microphone: { mode: 'push-to-talk' } });
        await session.connect();
        const context = voice.audioContext;
        // Waits on the audio clock (the microphone's frames come with it), not the page's timers.
        const audioTime = (ms: number) => lab.audioTime(context, ms);
        const sent = () =>
          model.commands.flatMap((c) => (c.type === 'appendInputAudio' ? [c.audio.byteLength / 48] : []));
        const total = (list: number[]) => list.reduce((a, b) => a + b, 0);
        await audioTime(200);
        const beforeTalking = sent().length;
        voice.startTalking();
        const startedAt = context.currentTime;
        await audioTime(500);
        const talkedMs = total(sent());
        const elapsedMs = (context.currentTime - startedAt) * 1000;
        voice.mute();
        const atMute = sent().length;
        await audioTime(200);
        const whileMuted = sent().length - atMute;
        voice.unmute();
        voice.stopTalking();
        const types = model.commands.map((c) => c.type);
        const atStop = sent().length;
        await audioTime(200);
        const afterStop = sent().length - atStop;
        // close(): one promise however often it is called; the track and the context end, the session stays.
        const track = voice.microphoneTrack;
        const first = voice.close();
        const same = first === voice.close();
        await first;
        const released = {
          same,
          track: track?.readyState,
          context: context.state,
          session: session.status,
          closed: voice.closed,
        };
        // A session that closes takes its voice with it.
        const second = await lab.connectBrowserVoice({ session });
        await session.close();
        const followed = { closed: second.closed, context: second.audioContext.state };
        await second.close();
        return {
          beforeTalking,
          talkedMs,
          elapsedMs,
          whileMuted,
          afterLastAudio: types.slice(types.lastIndexOf('appendInputAudio') + 1),
          afterStop,
          released,
          followed: { ...followed, contextAfterClose: second.audioContext.state },
        };
      });
      expect(talk.beforeTalking).toBe(0);
      // Within a frame, a step of the audio clock and the page's backlog of frames (a loaded machine) either way;
      // a wrong rate would be off by a third or more.
      expect(talk.talkedMs).toBeGreaterThan(talk.elapsedMs - 100);
      expect(talk.talkedMs).toBeLessThan(talk.elapsedMs + 100);
      expect(talk.whileMuted).toBe(0);
      // The turn is committed and, turn detection being off, answered.
      expect(talk.afterLastAudio).toEqual(['commitInputAudio', 'createResponse']);
      expect(talk.afterStop).toBe(0);
      expect(talk.released).toEqual({
        same: true,
        track: 'ended',
        context: 'closed',
        session: 'connected',
        closed: true,
      });
      expect(talk.followed).toEqual({
        closed: true,
        context: expect.any(String),
        contextAfterClose: 'closed',
      });

      // A G.711 session: the microphone sends µ-law at 8 kHz (8 bytes a millisecond), at its true length.
      const ulaw = await page.evaluate(async () => {
        const { lab } = globalThis as unknown as { lab: Lab };
        // The helper reads the session's formats (session.audioFormats): nothing to repeat.
        const { session, model } = lab.mockSession({ format: 'g711_ulaw' });
        const voice = await lab.connectBrowserVoice({ session });
        await session.connect();
        const context = voice.audioContext;
        const bytes = () =>
          model.commands.reduce(
            (sum, c) => sum + (c.type === 'appendInputAudio' ? c.audio.byteLength : 0),
            0,
          );
        const before = bytes();
        const startedAt = context.currentTime;
        await lab.audioTime(context, 500);
        const sentMs = (bytes() - before) / 8;
        const elapsedMs = (context.currentTime - startedAt) * 1000;
        await voice.close();
        await session.close();
        return { sentMs, elapsedMs };
      });
      expect(ulaw.sentMs).toBeGreaterThan(ulaw.elapsedMs - 100);
      expect(ulaw.sentMs).toBeLessThan(ulaw.elapsedMs + 100);
    });
  }, 30_000);
});
