import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Clock, PCM16_SAMPLE_RATE, type RealtimeSessionEvent, systemClock } from '@parley/core';
import { answerSipCall, OpenAISipWebhookError, OpenAISipWebhookHandler, type SipCall } from '@parley/openai';
import { silenceAudio, speechAudio, startLiveSimulator } from '@parley/simulator';
import { encodeWav } from '../audio/wav.js';
import type { Output } from '../output.js';
import { callSummaryParts, followCall } from './call-timeline.js';
import {
  CALLER_LINES,
  keyMessage,
  LIVE_PHONE_SCRIPT,
  pharmacyBackend,
  pharmacyVoice,
} from './phone-script.js';
import type { PhoneCallOptions, PhoneCallSummary } from './run-phone-call.js';

const PCM24_BYTES_PER_MS = 48;
const SIMULATOR_KEY = 'sk-simulator';

function utterance(text: string): Uint8Array {
  return Buffer.concat([speechAudio(text, { durationMs: 900 }), silenceAudio(500)]);
}

/** Rejects after `ms` on `clock` unless `until` resolves first. */
function bounded<T>(clock: Clock, ms: number, what: string, until: Promise<T>): Promise<T> {
  let timer: unknown;
  const timeout = new Promise<never>((_, reject) => {
    timer = clock.setTimeout(
      () => reject(new Error(`parley phone --sip: ${what} did not happen within ${ms} ms.`)),
      ms,
    );
  });
  return Promise.race([until, timeout]).finally(() => clock.clearTimeout(timer as never));
}

/**
 * The same phone call over OpenAI's SIP path, on this machine: the GPT-Live simulator rings the app's webhook with
 * signed `live.transport.incoming` and `live.call.incoming` webhooks (each delivered twice), the app's
 * `OpenAISipWebhookHandler` answers the call once with `answerSipCall` (accept, then a `RealtimeSession` on the call's
 * sideband), and a simulated phone line speaks: the voice delegates, the delegate calls the tool, the caller barges in
 * (GPT-Live stops by itself; the session cuts the answer where the line stopped), presses a key and hangs up.
 */
export async function runSipPhoneCall(
  output: Output,
  options: PhoneCallOptions = {},
): Promise<PhoneCallSummary> {
  const clock = options.clock ?? systemClock;
  const lines = [...CALLER_LINES];
  const sim = await startLiveSimulator({
    clock,
    interimTranscriptMs: 200,
    apiKeys: [SIMULATOR_KEY],
    transcribe: () => lines.shift() ?? '',
  });
  sim.script(...LIVE_PHONE_SCRIPT);
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const events: RealtimeSessionEvent[] = [];
  const audioMs = new Map<string, number>();
  const changed = new Set<() => void>();
  const note = (event: RealtimeSessionEvent) => {
    events.push(event);
    for (const listener of [...changed]) listener();
  };
  /** Resolves once `test` holds, checked after each event of the call (bounded: the simulator's clock runs). */
  const until = (what: string, test: () => boolean): Promise<void> =>
    bounded(
      clock,
      30_000,
      what,
      new Promise<void>((resolve) => {
        const check = () => {
          if (!test()) return;
          changed.delete(check);
          resolve();
        };
        changed.add(check);
        check();
      }),
    );
  let answered: Promise<SipCall<unknown>> | undefined;
  const webhooks = new OpenAISipWebhookHandler({
    secret,
    onCall: (call) => {
      if (call.api !== 'live') return;
      output.line(
        `webhook    ☎ ${call.eventType} for ${call.sessionId}: answered (accept, then the sideband)`,
      );
      answered = answerSipCall(call, {
        agent: pharmacyVoice,
        delegate: pharmacyBackend(),
        apiKey: SIMULATOR_KEY,
        baseURL: sim.baseURL,
        liveURL: sim.url,
        // The session's clock is the line's: what it counts as played moves with the simulated call.
        session: { clock },
      });
      answered.then(
        ({ session }) => {
          followCall(session, output, note);
          session.on('audio', (e) => {
            audioMs.set(e.itemId, (audioMs.get(e.itemId) ?? 0) + e.data.byteLength / PCM24_BYTES_PER_MS);
            for (const listener of [...changed]) listener();
          });
          // A key the caller pressed: GPT-Live takes no user messages, so the app tells it as commentary.
          session.on('dtmf', ({ digit }) => session.appendContext('commentary', keyMessage(digit)));
        },
        () => {},
      );
    },
  });
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    try {
      await webhooks.handle({ headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(200).end();
    } catch (error) {
      response.writeHead(error instanceof OpenAISipWebhookError ? error.status : 500).end();
    }
  });
  let call: SipCall<unknown> | undefined;
  try {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    output.line(
      'Parley phone over SIP: the GPT-Live simulator rings a signed webhook → OpenAISipWebhookHandler → answerSipCall → RealtimeSession on the sideband',
    );
    const incoming = await sim.incomingSipCall({
      webhookUrl: `http://127.0.0.1:${port}/`,
      secret,
      eventTypes: ['live.transport.incoming', 'live.call.incoming'],
      deliveries: 2,
    });
    output.line(
      `webhook    ${incoming.statuses.length} deliveries (2 event types × 2), HTTP ${incoming.statuses.join(', ')}: one handler ran`,
    );
    if (!answered) throw new Error('parley phone --sip: the webhook handler answered no call.');
    call = await answered;
    const { session } = call;
    const line = sim.call(incoming.sessionId)?.line;
    if (!line) throw new Error('parley phone --sip: the simulator has no line for the call.');
    output.line(
      `line       ☎ SIP, audio on the line (the service plays it); sideband ${sim.url}/${call.callId}/attach`,
    );

    output.line(`caller     🎙 "${CALLER_LINES[0]}"`);
    line.say(utterance(CALLER_LINES[0]));
    const answer = () => [...audioMs].find(([, ms]) => ms >= 2000)?.[0];
    await until('the answer', () => answer() !== undefined);
    const heardAtBargeIn = Math.floor(audioMs.get(answer() as string) ?? 0);
    output.line(
      `caller     ✋ barges in: "${CALLER_LINES[1]}" (the line has played ${heardAtBargeIn} ms of the answer)`,
    );
    line.say(utterance(CALLER_LINES[1]));
    const interrupted = () => events.find((e) => e.type === 'audio_interrupted');
    await until('the barge-in', () => interrupted() !== undefined);
    const heardAtInterruption = (interrupted() as { heardMs: number }).heardMs;
    output.line(
      `line       ⏹ GPT-Live stopped by itself; the caller heard ${heardAtInterruption} ms (where the line was): nothing to cancel or truncate on the wire`,
    );
    const before = new Set(events.flatMap((e) => (e.type === 'response_started' ? [e.responseId] : [])));
    await until('the reply to the barge-in', () =>
      events.some((e) => e.type === 'turn_done' && !before.has(e.responseId) && e.outcome === 'full'),
    );
    line.press('1');
    output.line(`caller     # pressed 1 → the app tells the model "${keyMessage('1')}"`);
    const heardBefore = line.heardAudio.byteLength;
    await until(
      'the reply to the key',
      () => line.heardAudio.byteLength >= heardBefore + 2500 * PCM24_BYTES_PER_MS,
    );
    output.line('caller     📴 hangs up mid-answer');
    line.hangUp();
    await until('the end of the call', () => session.status !== 'connected');
    const heardAudio = line.heardAudio;
    if (options.wavPath !== undefined) {
      await writeFile(options.wavPath, encodeWav(heardAudio, PCM16_SAMPLE_RATE));
      output.line(
        `The call as the caller heard it (${Math.round(heardAudio.byteLength / PCM24_BYTES_PER_MS)} ms, PCM16 24 kHz): ${options.wavPath}`,
      );
    }
    return {
      ...callSummaryParts(events),
      heardAtBargeInMs: heardAtBargeIn,
      heardAtInterruptionMs: heardAtInterruption,
      truncatedAtMs: undefined,
      digits: events.flatMap((e) => (e.type === 'dtmf' ? [e.digit] : [])),
      endReason: sim.call(incoming.sessionId)?.state === 'ended' ? 'hang_up' : 'session_ended',
      heardAudio,
    };
  } finally {
    await call?.hangUp().catch(() => {});
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await sim.close();
  }
}
