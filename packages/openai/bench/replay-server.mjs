// The replay server of the realtime audio benchmark. Runs in its own process (forked by realtime-audio-bench.mjs)
// so that none of its CPU time is counted for the clients.
//
// It speaks just enough of the GA Realtime protocol for each client to get ready (session.created, session.updated
// for every session.update, conversation.item.added/done for created items) and answers every response.create with
// one long audio response: response.created, output_item.added, conversation.item.added, content_part.added, then
// AUDIO_DELTAS pairs of response.output_audio.delta (100 ms of PCM16 at 24 kHz: 4,800 bytes, 6,400 base64 chars)
// and response.output_audio_transcript.delta, then the done events. The delta frames are built once, before any
// client connects, and written as fast as the socket drains.
import { WebSocket, WebSocketServer } from 'ws';
import { BYTES_PER_DELTA, pcmChunk, streamFrames, WORDS } from './bench-audio.mjs';

const AUDIO_DELTAS = Number(process.env.BENCH_AUDIO_DELTAS ?? 20_000);
/** `burst` (default): one long response as fast as the socket drains; `interrupt`: short interruptible responses. */
const MODE = process.env.BENCH_MODE ?? 'burst';
/** In `interrupt` mode: audio deltas per response and the gap between them. */
const INTERRUPTIBLE_DELTAS = 40;
const INTERRUPTIBLE_GAP_MS = 5;
const DISTINCT_CHUNKS = 32;
const RESPONSE_ID = 'resp_CBenchReplay0000000001';
const ITEM_ID = 'item_CBenchReplay0000000002';

let eventCounter = 0;
const eventId = () => `event_${(eventCounter++).toString(36).padStart(21, '0')}`;

function buildDeltaFrames() {
  const chunks = Array.from({ length: DISTINCT_CHUNKS }, (_, seed) => pcmChunk(seed));
  const frames = [];
  let transcript = '';
  for (let i = 0; i < AUDIO_DELTAS; i++) {
    const ids = { response_id: RESPONSE_ID, item_id: ITEM_ID, output_index: 0, content_index: 0 };
    const word = WORDS[i % WORDS.length];
    transcript += word;
    frames.push(
      Buffer.from(
        JSON.stringify({
          type: 'response.output_audio_transcript.delta',
          event_id: eventId(),
          ...ids,
          delta: word,
          obfuscation: 'q2Xh7Zk',
        }),
      ),
      Buffer.from(
        JSON.stringify({
          type: 'response.output_audio.delta',
          event_id: eventId(),
          ...ids,
          delta: chunks[i % DISTINCT_CHUNKS],
        }),
      ),
    );
  }
  return { frames, transcript };
}

const { frames: deltaFrames, transcript } = buildDeltaFrames();

const defaultSession = {
  type: 'realtime',
  object: 'realtime.session',
  id: 'sess_CBenchReplay0000000000',
  model: 'gpt-realtime',
  output_modalities: ['audio'],
  instructions: 'You are a helpful assistant.',
  tools: [],
  tool_choice: 'auto',
  max_output_tokens: 'inf',
  tracing: null,
  truncation: 'auto',
  prompt: null,
  expires_at: Math.floor(Date.now() / 1000) + 3600,
  audio: {
    input: {
      format: { type: 'audio/pcm', rate: 24_000 },
      transcription: null,
      noise_reduction: null,
      turn_detection: {
        type: 'server_vad',
        threshold: 0.5,
        prefix_padding_ms: 300,
        silence_duration_ms: 200,
        idle_timeout_ms: null,
        create_response: true,
        interrupt_response: true,
      },
    },
    output: { format: { type: 'audio/pcm', rate: 24_000 }, voice: 'alloy', speed: 1 },
  },
  include: null,
};

function merge(base, patch) {
  const out = { ...base };
  for (const [key, value] of Object.entries(patch ?? {})) {
    const current = out[key];
    out[key] =
      value && typeof value === 'object' && !Array.isArray(value) && current && typeof current === 'object'
        ? merge(current, value)
        : value;
  }
  return out;
}

function send(ws, event) {
  if (ws.readyState === WebSocket.OPEN)
    ws.send(JSON.stringify({ type: event.type, event_id: eventId(), ...event }));
}

/** `paced` mode: the response starts now, its deltas come on the shared clock. */
function startPacedResponse(ws, request) {
  const metadata = request.response?.metadata ?? null;
  const ids = { response_id: RESPONSE_ID, item_id: ITEM_ID, output_index: 0, content_index: 0 };
  const item = {
    id: ITEM_ID,
    object: 'realtime.item',
    type: 'message',
    status: 'in_progress',
    role: 'assistant',
    content: [],
  };
  send(ws, {
    type: 'response.created',
    response: { object: 'realtime.response', id: RESPONSE_ID, status: 'in_progress', output: [], metadata },
  });
  send(ws, { type: 'response.output_item.added', response_id: RESPONSE_ID, output_index: 0, item });
  send(ws, { type: 'conversation.item.added', previous_item_id: null, item });
  send(ws, { type: 'response.content_part.added', ...ids, part: { type: 'audio', transcript: '' } });
  paced.set(ws, metadata);
}

async function respond(ws, request, previousItemId) {
  const metadata = request.response?.metadata ?? null;
  const response = {
    object: 'realtime.response',
    id: RESPONSE_ID,
    status: 'in_progress',
    status_details: null,
    output: [],
    conversation_id: 'conv_CBenchReplay0000000000',
    output_modalities: ['audio'],
    max_output_tokens: 'inf',
    audio: { output: { format: { type: 'audio/pcm', rate: 24_000 }, voice: 'alloy' } },
    usage: null,
    metadata,
  };
  const ids = { response_id: RESPONSE_ID, item_id: ITEM_ID, output_index: 0, content_index: 0 };
  const emptyItem = {
    id: ITEM_ID,
    object: 'realtime.item',
    type: 'message',
    status: 'in_progress',
    role: 'assistant',
    content: [],
  };
  send(ws, { type: 'response.created', response });
  send(ws, {
    type: 'response.output_item.added',
    response_id: RESPONSE_ID,
    output_index: 0,
    item: emptyItem,
  });
  send(ws, { type: 'conversation.item.added', previous_item_id: previousItemId, item: emptyItem });
  send(ws, { type: 'response.content_part.added', ...ids, part: { type: 'audio', transcript: '' } });
  await streamFrames(ws, deltaFrames);
  const item = { ...emptyItem, status: 'completed', content: [{ type: 'output_audio', transcript }] };
  send(ws, { type: 'response.output_audio.done', ...ids });
  send(ws, { type: 'response.output_audio_transcript.done', ...ids, transcript });
  send(ws, { type: 'response.content_part.done', ...ids, part: { type: 'audio', transcript } });
  send(ws, { type: 'response.output_item.done', response_id: RESPONSE_ID, output_index: 0, item });
  send(ws, { type: 'conversation.item.done', previous_item_id: previousItemId, item });
  const usage = { total_tokens: 3_000, input_tokens: 100, output_tokens: 2_900 };
  send(ws, { type: 'response.done', response: { ...response, status: 'completed', output: [item], usage } });
}

/**
 * `interrupt` mode: a response with fresh ids whose audio deltas arrive every INTERRUPTIBLE_GAP_MS; a response.cancel
 * ends it `cancelled` (after the deltas already on their way), as the service does.
 */
function respondInterruptible(ws, connection, request) {
  const n = ++connection.responses;
  const responseId = `resp_bench${n}`;
  const itemId = `item_bench${n}`;
  const ids = { response_id: responseId, item_id: itemId, output_index: 0, content_index: 0 };
  const metadata = request.response?.metadata ?? null;
  const response = {
    object: 'realtime.response',
    id: responseId,
    status: 'in_progress',
    output: [],
    metadata,
  };
  const item = {
    id: itemId,
    object: 'realtime.item',
    type: 'message',
    status: 'in_progress',
    role: 'assistant',
    content: [],
  };
  send(ws, { type: 'response.created', response });
  send(ws, { type: 'response.output_item.added', response_id: responseId, output_index: 0, item });
  send(ws, { type: 'conversation.item.added', previous_item_id: null, item });
  send(ws, { type: 'response.content_part.added', ...ids, part: { type: 'audio', transcript: '' } });
  let sent = 0;
  const finish = (status) => {
    connection.current = undefined;
    const done = { ...item, status: status === 'completed' ? 'completed' : 'incomplete' };
    send(ws, { type: 'response.output_item.done', response_id: responseId, output_index: 0, item: done });
    send(ws, { type: 'response.done', response: { ...response, status, output: [done] } });
  };
  const tick = () => {
    if (connection.current?.responseId !== responseId) return;
    if (connection.current.cancelled) return finish('cancelled');
    if (sent === INTERRUPTIBLE_DELTAS) return finish('completed');
    send(ws, { type: 'response.output_audio.delta', ...ids, delta: deltaAudio });
    sent++;
    setTimeout(tick, INTERRUPTIBLE_GAP_MS);
  };
  connection.current = { responseId, cancelled: false };
  tick();
}
const deltaAudio = pcmChunk(1);

function onInterruptModeMessage(ws, connection, event) {
  if (event.type === 'response.create' && !connection.current) respondInterruptible(ws, connection, event);
  else if (event.type === 'response.cancel' && connection.current) connection.current.cancelled = true;
  else if (event.type === 'conversation.item.truncate')
    send(ws, {
      type: 'conversation.item.truncated',
      item_id: event.item_id,
      content_index: 0,
      audio_end_ms: event.audio_end_ms,
    });
}

const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
wss.on('connection', (ws) => {
  let session = defaultSession;
  let lastItemId = null;
  let itemCounter = 0;
  let streaming = false;
  const interruptible = { responses: 0, current: undefined };
  send(ws, { type: 'session.created', session });
  ws.on('message', (data) => {
    let event;
    try {
      event = JSON.parse(data.toString());
    } catch {
      return;
    }
    if (
      MODE === 'interrupt' &&
      event.type !== 'session.update' &&
      event.type !== 'conversation.item.create'
    ) {
      onInterruptModeMessage(ws, interruptible, event);
      return;
    }
    switch (event.type) {
      case 'session.update':
        session = merge(session, event.session);
        send(ws, { type: 'session.updated', session });
        return;
      case 'conversation.item.create': {
        const item = {
          ...event.item,
          id: event.item?.id ?? `item_user${++itemCounter}`,
          status: 'completed',
        };
        send(ws, { type: 'conversation.item.added', previous_item_id: lastItemId, item });
        send(ws, { type: 'conversation.item.done', previous_item_id: lastItemId, item });
        lastItemId = item.id;
        return;
      }
      case 'response.create':
        if (MODE === 'paced') {
          startPacedResponse(ws, event);
          return;
        }
        if (streaming) return;
        streaming = true;
        void respond(ws, event, lastItemId);
        return;
      default:
        return;
    }
  });
});
/** `paced` mode: connections that asked for a response, fed on the shared clock the parent starts. */
const paced = new Map();
const pacedFrames = { transcript: deltaFrames[0], audio: deltaFrames[1] };
function startPaced({ at, ticks }) {
  let k = 0;
  const tick = () => {
    for (const ws of paced.keys()) {
      if (ws.readyState !== WebSocket.OPEN) {
        paced.delete(ws);
        continue;
      }
      ws.send(pacedFrames.transcript, { binary: false });
      ws.send(pacedFrames.audio, { binary: false });
    }
    if (++k < ticks) setTimeout(tick, Math.max(0, at + k * 100 - Date.now()));
    else {
      for (const [ws, metadata] of paced)
        send(ws, {
          type: 'response.done',
          response: {
            id: RESPONSE_ID,
            object: 'realtime.response',
            status: 'completed',
            output: [],
            metadata,
          },
        });
      paced.clear();
    }
  };
  setTimeout(tick, Math.max(0, at - Date.now()));
}

wss.on('listening', () => {
  process.send?.({
    type: 'listening',
    port: wss.address().port,
    audioDeltas: AUDIO_DELTAS,
    bytesPerDelta: BYTES_PER_DELTA,
  });
});
process.on('message', (message) => {
  if (message?.type === 'start') startPaced(message);
  if (message?.type === 'stop') wss.close(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
