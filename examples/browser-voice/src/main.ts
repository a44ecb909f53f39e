// The page: a voice agent with one tool, over a WebSocket (@parley/browser's microphone and speaker) or over WebRTC
// (the browser's peer connection carries the audio both ways). All audio is @parley/browser's; this file only wires
// the UI.
import {
  BrowserPlaybackTracker,
  type BrowserVoice,
  type CallAudio,
  connectBrowserVoice,
  openCallAudio,
} from '@parley/browser';
import { Agent, type RealtimeHistoryItem, type RealtimeModel, RealtimeSession, tool } from '@parley/core';
import { OpenAIRealtimeModel } from '@parley/openai';
import { OpenAIRealtimeWebRTCModel } from '@parley/openai/webrtc';
import { z } from 'zod';

/**
 * What the server's `/realtime-key` answers: an ephemeral key and the transport. Over a WebSocket `url` is where to
 * connect when it is not OpenAI (the simulator); over WebRTC `baseURL` is the API root the SDP offer goes to.
 */
interface RealtimeKey {
  key: string;
  transport?: 'websocket' | 'webrtc';
  url?: string;
  baseURL?: string;
}

const getWeather = tool({
  name: 'get_weather',
  description: 'The current weather in a city.',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => `Sunny and 21 degrees in ${city}.`,
});

const agent = new Agent({
  name: 'Concierge',
  instructions: 'You are a friendly concierge. Be brief.',
  tools: [getWeather],
});

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const startButton = $<HTMLButtonElement>('start');
const muteButton = $<HTMLButtonElement>('mute');
const stopButton = $<HTMLButtonElement>('stop');
const statusText = $('status');
const transcript = $('transcript');

let session: RealtimeSession | undefined;
let voice: BrowserVoice | undefined;
let call: CallAudio | undefined;

async function start(): Promise<void> {
  startButton.disabled = true;
  statusText.textContent = 'starting…';
  // The server says how and where to connect: OpenAI, or the simulator while developing.
  const { transport = 'websocket', url, baseURL } = await fetchKey();
  // Asked before every connection, so a reconnect gets a fresh key.
  const freshKey = async () => (await fetchKey()).key;
  let model: RealtimeModel;
  if (transport === 'webrtc') {
    try {
      // From the click: the browser asks for the microphone and lets the call's audio play.
      call = await openCallAudio({ microphone: { onEnded: microphoneLost } });
    } catch (error) {
      statusText.textContent = `failed: ${(error as Error).message}`;
      startButton.disabled = false;
      return;
    }
    model = new OpenAIRealtimeWebRTCModel({
      clientSecret: freshKey,
      ...(baseURL !== undefined && { baseURL }),
      inputTrack: call.inputTrack,
      // Each call's remote track: the browser plays it, and the service stops it at a barge-in.
      onRemoteAudio: call.play,
    });
  } else {
    model = new OpenAIRealtimeModel({ apiKeyProvider: freshKey, ...(url !== undefined && { url }) });
  }
  session = new RealtimeSession(agent, {
    model,
    // Over a WebSocket the speaker reports what it played, to the render quantum; over WebRTC the service knows.
    ...(transport === 'websocket' && { playbackTracker: new BrowserPlaybackTracker() }),
    config: { inputTranscription: { model: 'gpt-4o-mini-transcribe' } },
  });
  session.on('history_added', (event) => render(event.item));
  session.on('history_updated', (event) => render(event.item));
  session.on('connection_status', (event) => {
    statusText.textContent = event.status;
  });
  try {
    // From the click: the browser lets the AudioContext start and asks for the microphone.
    if (transport === 'websocket') {
      voice = await connectBrowserVoice({
        session,
        microphone: { onEnded: microphoneLost },
      });
    }
    await session.connect();
  } catch (error) {
    await stop();
    statusText.textContent = `failed: ${(error as Error).message}`;
    return;
  }
  statusText.textContent = `connected (${transport})`;
  muteButton.disabled = false;
  stopButton.disabled = false;
}

async function fetchKey(): Promise<RealtimeKey> {
  const response = await fetch('/realtime-key');
  if (!response.ok) throw new Error(`/realtime-key answered ${response.status}`);
  return (await response.json()) as RealtimeKey;
}

/** Unplugged, or its permission revoked: the helper released it; say so (the agent can still finish). */
function microphoneLost(): void {
  statusText.textContent = 'microphone lost: hang up and start again';
}

async function stop(): Promise<void> {
  await voice?.close();
  await session?.close();
  await call?.close();
  voice = undefined;
  session = undefined;
  call = undefined;
  muteButton.disabled = true;
  stopButton.disabled = true;
  startButton.disabled = false;
}

function render(item: RealtimeHistoryItem): void {
  let line = document.getElementById(`item-${item.itemId}`);
  if (!line) {
    line = document.createElement('p');
    line.id = `item-${item.itemId}`;
    transcript.append(line);
  }
  if (item.type === 'function_call') {
    line.className = 'tool';
    line.textContent = `${item.name}(${item.arguments})${item.output === undefined ? '' : ` → ${item.output}`}`;
    return;
  }
  line.className = item.role;
  line.dataset.role = item.role;
  // After a barge-in, what the listener heard (the model's memory is cut there too).
  const text = item.heardText ?? item.text;
  line.textContent = `${item.role === 'user' ? 'You' : 'Agent'}: ${text}${item.heardText === undefined ? '' : ' …'}`;
  if (item.heardMs !== undefined) line.classList.add('cut');
}

startButton.addEventListener('click', () => void start());
stopButton.addEventListener('click', () => void stop());
muteButton.addEventListener('click', () => {
  if (voice) {
    if (voice.muted) voice.unmute();
    else voice.mute();
  } else if (call) {
    if (call.muted) call.unmute();
    else call.mute();
  }
  muteButton.textContent = (voice?.muted ?? call?.muted) ? 'Unmute' : 'Mute';
});

// For the console (and the repository's browser test): the live session and voice.
Object.assign(globalThis, {
  parleyExample: {
    get session() {
      return session;
    },
    get voice() {
      return voice;
    },
    get call() {
      return call;
    },
  },
});
