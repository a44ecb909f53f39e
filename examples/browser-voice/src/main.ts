// The page: a voice agent with one tool. All audio is @parley/browser's; this file only wires the UI.
import { BrowserPlaybackTracker, type BrowserVoice, connectBrowserVoice } from '@parley/browser';
import { Agent, type RealtimeHistoryItem, RealtimeSession, tool } from '@parley/core';
import { OpenAIRealtimeModel } from '@parley/openai';
import { z } from 'zod';

/** What the server's `/realtime-key` answers: an ephemeral key, and the URL when it is not OpenAI's (the simulator). */
interface RealtimeKey {
  key: string;
  url?: string;
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

async function start(): Promise<void> {
  startButton.disabled = true;
  statusText.textContent = 'starting…';
  // The server says where to connect: OpenAI (no url), or the simulator while developing.
  const { url } = await fetchKey();
  const model = new OpenAIRealtimeModel({
    // Asked before every connection, so a reconnect gets a fresh key.
    apiKeyProvider: async () => (await fetchKey()).key,
    ...(url !== undefined && { url }),
  });
  session = new RealtimeSession(agent, {
    model,
    playbackTracker: new BrowserPlaybackTracker(), // what the speaker played, to the render quantum
    config: { inputTranscription: { model: 'gpt-4o-mini-transcribe' } },
  });
  session.on('history_added', (event) => render(event.item));
  session.on('history_updated', (event) => render(event.item));
  session.on('connection_status', (event) => {
    statusText.textContent = event.status;
  });
  try {
    // From the click: the browser lets the AudioContext start and asks for the microphone.
    voice = await connectBrowserVoice({ session });
    await session.connect();
  } catch (error) {
    statusText.textContent = `failed: ${(error as Error).message}`;
    await stop();
    startButton.disabled = false;
    return;
  }
  statusText.textContent = url === undefined ? 'connected' : `connected (${url})`;
  muteButton.disabled = false;
  stopButton.disabled = false;
}

async function fetchKey(): Promise<RealtimeKey> {
  const response = await fetch('/realtime-key');
  if (!response.ok) throw new Error(`/realtime-key answered ${response.status}`);
  return (await response.json()) as RealtimeKey;
}

async function stop(): Promise<void> {
  await voice?.close();
  await session?.close();
  voice = undefined;
  session = undefined;
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
  if (!voice) return;
  if (voice.muted) voice.unmute();
  else voice.mute();
  muteButton.textContent = voice.muted ? 'Unmute' : 'Mute';
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
  },
});
