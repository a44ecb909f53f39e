// Twilio bridge CPU per call-second. Not a test: run `pnpm bench` (it builds first).
//
// One call-second on a Media Streams socket is 50 inbound `media` frames (20 ms of µ-law each) from the caller, one
// second of the agent's audio (8000 bytes, here in 10 chunks of 800 bytes as a provider streams it) re-framed into
// 50 outbound `media` frames each followed by a `mark`, and the 50 mark echoes. The bench drives a real `TwilioCall`
// in process through a socket stand-in (the frames Twilio would send are precomputed, what the bridge sends is
// dropped) and a session stand-in (it takes `sendAudio` and `playback` reports and emits `audio` events), so the CPU
// measured is the bridge's own: parsing, base64, framing, marks, playback reports. The baseline, in the same run and
// alternating with it, is the floor any bridge pays for the same call-second: JSON.parse and base64 decode of every
// inbound frame and echo, base64 encode and JSON.stringify of every outbound frame and mark.
// The bridge is measured twice: (b) with a provider that speaks G.711 (µ-law passed through both ways, as OpenAI
// Realtime), and (c) with one that speaks PCM (as Gemini Live: PCM16 16 kHz in, 24 kHz out), where the session stand-in
// converts the caller's µ-law to PCM16 16 kHz and the agent's PCM16 24 kHz (10 chunks of 4800 bytes a second) to µ-law
// with core's `AudioConverter`, exactly as the session's audio-format bridge does. Concurrent calls on two cores are
// 2 × 1 000 000 µs of CPU a second divided by the µs one call-second costs (the provider connection, the session's
// other work and the OS's networking are extra: an upper bound for the bridge and the conversion alone).
// BENCH_ROUNDS rounds (default 7) of BENCH_CALL_SECONDS call-seconds (default 2000); medians are shown.

import { EventEmitter } from 'node:events';
import os from 'node:os';
import { AudioConverter } from '@parley/core';
import { TwilioCall } from '../dist/index.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const CALL_SECONDS = Number(process.env.BENCH_CALL_SECONDS ?? 2000);
const FRAMES = 50;
const CHUNKS = 10;
const CHUNK_BYTES = 800;
const STREAM = 'MZ00000000000000000000000000000000';

const inboundPayload = Buffer.alloc(160, 0x7f).toString('base64');
const inbound = Array.from({ length: FRAMES }, (_, i) =>
  JSON.stringify({
    event: 'media',
    sequenceNumber: String(i + 3),
    media: { track: 'inbound', chunk: String(i + 1), timestamp: String(i * 20), payload: inboundPayload },
    streamSid: STREAM,
  }),
);
const agentChunk = new Uint8Array(CHUNK_BYTES).fill(0x55);
/** 100 ms of the agent's voice as a PCM provider speaks it: PCM16 24 kHz, a 300 Hz tone. */
const pcmAgentChunk = new Uint8Array(CHUNK_BYTES * 6);
{
  const view = new DataView(pcmAgentChunk.buffer);
  for (let i = 0; i < pcmAgentChunk.length / 2; i++)
    view.setInt16(i * 2, Math.round(Math.sin((2 * Math.PI * 300 * i) / 24_000) * 8000), true);
}
const ULAW = { encoding: 'g711_ulaw' };
const PCM16K = { encoding: 'pcm16', sampleRate: 16_000 };
const PCM24K = { encoding: 'pcm16', sampleRate: 24_000 };
const echoes = (first) =>
  Array.from({ length: FRAMES }, (_, i) =>
    JSON.stringify({
      event: 'mark',
      sequenceNumber: '1',
      streamSid: STREAM,
      mark: { name: `m${first + i}` },
    }),
  );

class SocketStandIn extends EventEmitter {
  OPEN = 1;
  CONNECTING = 0;
  readyState = 1;
  sent = 0;
  send() {
    this.sent += 1;
  }
  close() {
    this.readyState = 3;
  }
}

class SessionStandIn {
  /** Set for a PCM provider: the caller's audio on its way to it, the agent's on its way to the app. */
  toProvider;
  toApp;
  constructor(transcoding = false) {
    if (!transcoding) return;
    this.toProvider = new AudioConverter(ULAW, PCM16K);
    this.toApp = new AudioConverter(PCM24K, ULAW);
  }
  listeners = new Map();
  status = 'connected';
  confirmedConfig = undefined;
  received = 0;
  playback = { tracker: {}, played: () => {}, finished: () => {} };
  on(type, listener) {
    this.listeners.set(type, listener);
    return () => this.listeners.delete(type);
  }
  emit(event) {
    this.listeners.get(event.type)?.(event);
  }
  /** The agent's audio as the provider sends it, reaching the app's listeners in the app's format. */
  speak(itemId) {
    const data = this.toApp ? this.toApp.convert(pcmAgentChunk) : agentChunk;
    this.emit({ type: 'audio', responseId: 'r', itemId, data });
  }
  sendAudio(audio) {
    this.received += audio.length;
    if (this.toProvider) this.toProvider.convert(audio);
  }
  connect() {
    return Promise.resolve();
  }
  close() {
    return Promise.resolve();
  }
}

/** Echo strings for every mark of the run, precomputed (they are Twilio's work, not the bridge's). */
const allEchoes = Array.from({ length: CALL_SECONDS }, (_, second) => echoes(second * FRAMES + 1));

async function bridgeRun(transcoding = false) {
  const socket = new SocketStandIn();
  const session = new SessionStandIn(transcoding);
  const call = new TwilioCall(socket, session);
  socket.emit(
    'message',
    Buffer.from(
      JSON.stringify({
        event: 'start',
        streamSid: STREAM,
        start: { streamSid: STREAM, callSid: 'CA1', tracks: ['inbound'] },
      }),
    ),
    false,
  );
  await new Promise((resolve) => setImmediate(resolve));
  globalThis.gc?.();
  const start = process.cpuUsage();
  for (let second = 0; second < CALL_SECONDS; second++) {
    for (const frame of inbound) socket.emit('message', frame, false);
    for (let c = 0; c < CHUNKS; c++) session.speak(`item${second >> 6}`);
    for (const echo of allEchoes[second]) socket.emit('message', echo, false);
  }
  const used = process.cpuUsage(start);
  await call.hangUp();
  if (session.received !== CALL_SECONDS * FRAMES * 160)
    throw new Error(`the bridge lost caller audio: ${session.received}`);
  if (socket.sent < CALL_SECONDS * FRAMES * 2) throw new Error(`the bridge sent too little: ${socket.sent}`);
  return (used.user + used.system) / 1000;
}

function floorRun() {
  globalThis.gc?.();
  let sink = 0;
  const start = process.cpuUsage();
  for (let second = 0; second < CALL_SECONDS; second++) {
    for (const frame of inbound) sink += Buffer.from(JSON.parse(frame).media.payload, 'base64').length;
    for (let f = 0; f < FRAMES; f++) {
      const payload = Buffer.from(agentChunk.buffer, 0, 160).toString('base64');
      sink += JSON.stringify({ event: 'media', streamSid: STREAM, media: { payload } }).length;
      sink += JSON.stringify({ event: 'mark', streamSid: STREAM, mark: { name: `m${f}` } }).length;
    }
    for (const echo of allEchoes[second]) sink += JSON.parse(echo).mark.name.length;
  }
  const used = process.cpuUsage(start);
  if (sink === 0) throw new Error('unreachable');
  return (used.user + used.system) / 1000;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const floor = [];
const bridge = [];
const transcoded = [];
const ratios = [];
const transcodedRatios = [];
await bridgeRun(); // warm-up
await bridgeRun(true);
floorRun();
for (let round = 0; round < ROUNDS; round++) {
  const f = floorRun();
  const b = await bridgeRun();
  const t = await bridgeRun(true);
  floor.push(f);
  bridge.push(b);
  transcoded.push(t);
  ratios.push(b / f);
  transcodedRatios.push(t / f);
}
const perCallSecond = (ms) => (ms / CALL_SECONDS) * 1000; // µs of CPU per call-second
const bridgeUs = perCallSecond(median(bridge));
const transcodedUs = perCallSecond(median(transcoded));
const calls = (us) => Math.floor((2 * 1_000_000) / us);
console.log(
  `\nTwilio bridge: CPU per call-second (${CALL_SECONDS} call-seconds × ${ROUNDS} rounds, medians; ${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(1)})`,
);
console.log(`  (a) floor: JSON + base64 of the same frames   ${perCallSecond(median(floor)).toFixed(1)} µs`);
console.log(
  `  (b) TwilioCall (framing, marks, reports)       ${bridgeUs.toFixed(1)} µs   ${median(ratios).toFixed(2)}× the floor (per round ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}×)`,
);
console.log(
  `  (c) TwilioCall + PCM conversion (Gemini-style) ${transcodedUs.toFixed(1)} µs   ${median(transcodedRatios).toFixed(2)}× the floor (per round ${Math.min(...transcodedRatios).toFixed(2)}–${Math.max(...transcodedRatios).toFixed(2)}×), ${(transcodedUs / bridgeUs).toFixed(2)}× (b)`,
);
console.log(
  `  two cores (2 × 10⁶ µs of CPU a second ÷ µs per call-second) carry ~${calls(bridgeUs)} concurrent calls passed through (b), ~${calls(transcodedUs)} transcoded (c): the bridge and the conversion alone; the provider connection and the session are extra`,
);
