import {
  Agent,
  assistantMessage,
  MODEL_SPECIFICATION_VERSION,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type RealtimeSession,
} from '@parley/core';
import { emptyUsage } from '@parley/core/internal';
import { expect } from 'vitest';
import type { ConformanceScenario } from '../scenario.js';
import { commandsOf, withSession } from '../support.js';

const ANSWER = 'Staging is healthy: 12 of 12 checks passed.';
const FRAME_BYTES = 4800; // 100 ms of PCM16 24 kHz

/** A text model that answers every request with {@link ANSWER} and keeps the requests. */
function answeringModel(requests: ModelRequest[]): Model {
  const respond = async (request: ModelRequest): Promise<ModelResponse> => {
    requests.push(request);
    return { output: [assistantMessage(ANSWER)], usage: emptyUsage() };
  };
  return {
    specificationVersion: MODEL_SPECIFICATION_VERSION,
    provider: 'conformance',
    capabilities: { streaming: false, tools: true, structuredOutput: false, parallelToolCalls: false },
    getResponse: respond,
    async *streamResponse(request) {
      yield { type: 'response_done', response: await respond(request) };
    },
  };
}

/**
 * The user's microphone for a provider whose clock is its input audio: `speech`, then silence, one 100 ms frame in
 * for every frame out (speech or silence), so the timeline moves as fast as the provider answers. Returns its stop.
 */
function microphone(session: RealtimeSession, speech: Uint8Array): () => void {
  const silence = new Uint8Array(FRAME_BYTES);
  let at = 0;
  let open = true;
  const next = () => {
    if (!open || session.status !== 'connected') return;
    const frame = at < speech.byteLength ? speech.subarray(at, at + FRAME_BYTES) : silence;
    at += FRAME_BYTES;
    session.sendAudio(frame);
  };
  const offs = [session.on('audio', next), session.on('output_silence', next)];
  next();
  return () => {
    open = false;
    for (const off of offs) off();
  };
}

/**
 * A voice model that delegates: the session's `delegate` agent runs (with the Runner) on the conversation so far, its
 * answer goes back as commentary with the delegation's id, is acknowledged on the provider's timeline and spoken.
 */
export const delegationScenario: ConformanceScenario = {
  name: 'delegation: the delegate agent answers with the conversation so far; its answer is appended, acknowledged and spoken',
  requires: ['delegation', 'contextAppends', 'continuousAudio'],
  exercises: ['userTranscription', 'audioOutput'],
  async run(harness) {
    if (!harness.userSpeech || !harness.delegateNext) {
      throw new Error(
        'A harness whose model declares delegation implements userSpeech() and delegateNext().',
      );
    }
    const { userTranscription, audioOutput } = harness.model.capabilities;
    const requests: ModelRequest[] = [];
    const delegate = new Agent({ name: 'Ops', model: answeringModel(requests) });
    const speech = await harness.userSpeech('is staging healthy');
    await withSession(
      harness,
      new Agent({ name: 'Voice', instructions: 'Be brief. Delegate anything that needs data.' }),
      async (session, events) => {
        await session.connect();
        await harness.delegateNext?.();
        const stop = microphone(session, speech);
        try {
          const requested = await events.waitFor('delegation_requested');
          expect(requested.target).toBe('app');
          const done = await events.waitFor('delegation_done');
          expect(done).toEqual({
            type: 'delegation_done',
            delegationId: requested.delegationId,
            status: 'completed',
            output: ANSWER,
          });
          expect(requests).toHaveLength(1);
          if (userTranscription) expect(JSON.stringify(requests[0]?.input)).toContain('is staging healthy');
          const appended = await events.waitFor('context_appended', (e) => e.kind === 'commentary');
          const appends = commandsOf(await harness.commands(), 'appendContext');
          expect(appends).toEqual([
            {
              type: 'appendContext',
              kind: 'commentary',
              text: ANSWER,
              clientRequestId: appended.clientRequestId,
              delegationId: requested.delegationId,
            },
          ]);
          const spoken = await events.waitFor(
            'history_updated',
            (e) =>
              e.item.type === 'message' &&
              e.item.role === 'assistant' &&
              e.item.status === 'completed' &&
              e.item.text.includes(ANSWER),
          );
          if (audioOutput && spoken.item.type === 'message') expect(spoken.item.hasAudio).toBe(true);
          // One continuous track: the silence between replies arrives as output_silence, and input never stopped.
          expect(events.of('output_silence').length).toBeGreaterThan(0);
          expect(events.of('error')).toEqual([]);
        } finally {
          stop();
        }
      },
      { delegate },
    );
  },
};
