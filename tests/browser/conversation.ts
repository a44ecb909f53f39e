// The conversation the browser tests hold with the simulator, whatever carries it (a WebSocket, or the simulator's
// WebRTC front: the same simulator options and the same checks): the microphone's script, the simulated model, and what the
// service and the page must show afterwards.
import type { RealtimeSimulatorOptions, SimulatorConnection } from '@parley/simulator';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { bounded, STEP_TIMEOUT_MS } from './bounded.js';
import type { MicrophonePart, MicrophoneScript } from './fake-microphone.js';

export const QUESTION = 'What is the weather in Paris?';
export const BARGE_IN = 'Stop, thank you.';
/**
 * The answer is long, so the barge-in (6 s after the question ends) lands while it plays, even when a loaded machine
 * takes seconds over the tool's round trip.
 */
export const ANSWER_AUDIO_MS = 12_000;
/** The server VAD's defaults: speech starts `prefix_padding_ms` early and stops after `silence_duration_ms`. */
const PREFIX_PADDING_MS = 300;
const SILENCE_DURATION_MS = 200;

/** What the fake microphone says: a question, silence while the model answers, a barge-in. */
export const MICROPHONE_PARTS: readonly MicrophonePart[] = [
  // The file starts when the page opens the microphone, before the session connects: the question waits until the
  // WebSocket carries it. (The WebRTC test, whose call takes longer to carry audio, speaks through a microphone it
  // drives: driven-microphone.ts.)
  { silenceMs: 4000 },
  { say: QUESTION },
  { silenceMs: 6000 },
  { say: BARGE_IN },
  { silenceMs: 1500 },
];

/** The simulated model: asks for the weather, reads the tool's answer at length, and takes a barge-in in its stride. */
export function conversationSimulatorOptions(): RealtimeSimulatorOptions {
  // The browser's resampled audio keeps the speech's energy but not the text the synthesizer hides in the low bits.
  const heard = [QUESTION, BARGE_IN];
  return {
    pace: { firstOutputMs: 300, speed: 5 },
    transcribe: () => heard.shift() ?? '',
    brain: (turn) => {
      if (turn.toolOutputs.length > 0)
        return {
          type: 'message',
          text: `Here is the weather: ${turn.toolOutputs.map((t) => t.output).join(' ')} Enjoy your day in Paris, and take a light jacket for the evening.`,
          audioMs: ANSWER_AUDIO_MS,
        };
      if (turn.lastUserText === BARGE_IN) return 'Okay.';
      return { type: 'function_call', name: 'get_weather', arguments: { city: 'Paris' } };
    },
  };
}

/** The service's VAD measure of the question: from its padded start to its end plus the silence that ended it. */
async function measuredQuestion(connection: SimulatorConnection): Promise<number> {
  const started = await bounded(
    'the service to hear the question start (input_audio_buffer.speech_started)',
    connection.waitForServerEvent('input_audio_buffer.speech_started'),
  );
  const stopped = await bounded(
    'the service to hear the question end (input_audio_buffer.speech_stopped)',
    connection.waitForServerEvent('input_audio_buffer.speech_stopped'),
  );
  return (stopped.audio_end_ms as number) - (started.audio_start_ms as number);
}

function spokenMs(microphone: MicrophoneScript): number {
  const question = microphone.spoken[0] as { startMs: number; endMs: number };
  return question.endMs - question.startMs;
}

/** The question reached the service at its true length, as its VAD measured it (the microphone's rate is right). */
export async function expectQuestionAtItsLength(
  connection: SimulatorConnection,
  microphone: MicrophoneScript,
): Promise<void> {
  const measured = await measuredQuestion(connection);
  expect(measured).toBeGreaterThanOrEqual(spokenMs(microphone) + PREFIX_PADDING_MS);
  expect(measured).toBeLessThanOrEqual(spokenMs(microphone) + PREFIX_PADDING_MS + SILENCE_DURATION_MS + 40);
}

/**
 * The question reached the service, and nothing longer than it: over WebRTC the call's audio flows only once ICE and
 * DTLS are done (on a loaded machine, possibly after the question began) and a busy loopback may drop a few packets,
 * so its measured length is no exact test of the rate; the browser's codec path is, the WebSocket test checks ours.
 */
export async function expectQuestionHeard(
  connection: SimulatorConnection,
  microphone: MicrophoneScript,
): Promise<void> {
  const measured = await measuredQuestion(connection);
  expect(measured).toBeGreaterThan(PREFIX_PADDING_MS + SILENCE_DURATION_MS);
  expect(measured).toBeLessThanOrEqual(spokenMs(microphone) + PREFIX_PADDING_MS + SILENCE_DURATION_MS + 40);
}

/** The tool ran in the page and its output went back to the model. */
export async function expectToolAnswered(connection: SimulatorConnection): Promise<void> {
  const output = await bounded(
    "the page's tool output (conversation.item.create of a function_call_output)",
    connection.waitForClientEvent(
      (event) =>
        event.type === 'conversation.item.create' &&
        (event.item as { type?: string }).type === 'function_call_output',
    ),
  );
  expect((output.item as { output: string }).output).toBe('Sunny and 21 degrees in Paris.');
}

/**
 * The transcript on the example page: the question, the tool call, the answer cut where it was heard, the barge-in.
 * `textCut`: whether the page can show where in the answer's text the cut fell; over WebRTC the audio never passes
 * through the session, which then knows the heard milliseconds but not the answer's length in audio.
 */
export async function expectTranscript(page: Page, textCut = true): Promise<void> {
  await page.waitForFunction(
    (text) => document.getElementById('transcript')?.textContent.includes(text),
    BARGE_IN,
    { timeout: STEP_TIMEOUT_MS },
  );
  const lines = await page.$$eval('#transcript p', (ps) =>
    ps.map((p) => ({ text: p.textContent, cut: p.classList.contains('cut') })),
  );
  expect(lines[0]).toEqual({ text: `You: ${QUESTION}`, cut: false });
  expect(lines[1]?.text).toBe('get_weather({"city":"Paris"}) → Sunny and 21 degrees in Paris.');
  const answer = lines[2] as { text: string; cut: boolean };
  expect(answer.cut).toBe(true);
  expect(answer.text).toMatch(/^Agent: Here is the .* …$/);
  if (!textCut) return expect(lines[3]).toEqual({ text: `You: ${BARGE_IN}`, cut: false });
  expect(answer.text.length).toBeLessThan(
    'Agent: Here is the weather: Sunny and 21 degrees in Paris.'.length + 60,
  );
  expect(lines[3]).toEqual({ text: `You: ${BARGE_IN}`, cut: false });
}
