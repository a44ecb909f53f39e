import { type Clock, type RealtimeModel, RealtimeSession } from '@parley/core';
import { type MemoryStore, storeSession } from '@parley/memory';
import type { TranscriptPrinter } from '../transcript-printer.js';
import { nextEvent } from './next-event.js';
import { guarded } from './step-guard.js';
import { RING_BACK_QUESTION, tellerAgent } from './voice-script.js';

/** What {@link ringBack} needs: the provider, the store and conversation of the first call, and the demo's guard. */
export interface RingBack {
  model: RealtimeModel;
  store: MemoryStore;
  conversationId: string;
  printer: TranscriptPrinter;
  clock: Clock;
  stepTimeoutMs: number;
}

/**
 * The caller rings back: a new session on the same conversation starts the provider's conversation from the store
 * (nothing else carries over), and the agent answers from what was heard on the first call. In text, for brevity.
 */
export async function ringBack({
  model,
  store,
  conversationId,
  printer,
  clock,
  stepTimeoutMs,
}: RingBack): Promise<string> {
  const session = new RealtimeSession(tellerAgent, {
    model,
    memory: storeSession(store, conversationId),
    config: { turnDetection: null, outputModalities: ['text'] },
    reconnect: false,
  });
  try {
    await guarded(clock, stepTimeoutMs, 'the second call connects', session.connect());
    printer.say(
      'caller',
      `☎ rings back: a new session on ${conversationId}, started from the ${session.history.length} items it holds`,
    );
    printer.say('caller', `💬 "${RING_BACK_QUESTION}"`);
    let answer = '';
    const off = session.on('text_delta', (event) => {
      answer += event.delta;
    });
    const done = nextEvent(session, 'turn_done');
    session.sendMessage(RING_BACK_QUESTION);
    await guarded(clock, stepTimeoutMs, 'the answer on the second call', done);
    off();
    printer.say('Teller', `💬 "${answer}"`);
    return answer;
  } finally {
    await session.close();
  }
}
