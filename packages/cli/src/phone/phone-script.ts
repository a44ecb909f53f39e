import { Agent, tool } from '@parley/core';
import { MockModel } from '@parley/mock';
import type { BrainResponse, GeminiScriptedTurn, LiveReaction } from '@parley/simulator';
import { z } from 'zod';

const checkPrescription = tool({
  name: 'check_prescription',
  description: 'Whether a prescription is ready for pickup',
  parameters: z.object({ prescriptionId: z.string() }),
  execute: ({ prescriptionId }) => ({ prescriptionId, ready: true, counter: 2 }),
});

/** The phone demo's agent: a pharmacy line with one tool. */
export const pharmacyAgent = new Agent({
  name: 'Pharmacy',
  instructions: 'You answer the phone for a pharmacy. Be brief.',
  tools: [checkPrescription],
});

/** The tool call the model makes first. */
const CALL = { name: 'check_prescription', arguments: { prescriptionId: 'RX-1001' } } as const;

/** What the model says, in order, after the call: the answer the caller barges in on, then two short ones. */
const ANSWERS = [
  {
    text: 'Your prescription RX-1001 is ready at counter two. We are open until eight tonight, and you can also ask us to deliver it.',
    audioMs: 6000,
  },
  // 910 ms: not a whole number of 20 ms frames (the last one goes out padded with silence).
  { text: 'Of course, go ahead.', audioMs: 910 },
  { text: 'You pressed one: I am sending a delivery request now.', audioMs: 2500 },
] as const;

/** The call as the OpenAI Realtime simulator's brain plays it. */
export const PHONE_SCRIPT: readonly BrainResponse[] = [
  { type: 'function_call', ...CALL },
  ...ANSWERS.map((answer): BrainResponse => ({ type: 'message', ...answer })),
];

/** The same call as the Gemini Live simulator plays it (the answer after the call continues the model's turn). */
export const GEMINI_PHONE_SCRIPT: readonly GeminiScriptedTurn[] = [
  { outputs: [{ type: 'call', name: CALL.name, args: { ...CALL.arguments } }] },
  ...ANSWERS.map((answer): GeminiScriptedTurn => ({ outputs: [{ type: 'speech', ...answer }] })),
];

/** GPT-Live's voice front: it talks and listens, and delegates what needs the pharmacy's data. */
export const pharmacyVoice = new Agent({
  name: 'Pharmacy',
  instructions:
    'You answer the phone for a pharmacy. Be brief. Delegate anything that needs prescription data.',
});

/** GPT-Live's delegated backend: the same tool, run by the session's Runner on a scripted text model. */
export function pharmacyBackend(): Agent {
  return new Agent({
    name: 'Pharmacy backend',
    instructions: 'Use the tools; answer in one short sentence the voice can say.',
    model: new MockModel([
      MockModel.toolCall(CALL.name, { ...CALL.arguments }),
      MockModel.text(ANSWERS[0].text),
    ]),
    tools: [checkPrescription],
  });
}

/**
 * The same call as the GPT-Live simulator plays it: the voice delegates the first question (it acknowledges, then
 * says the backend's answer), answers the barge-in itself, and speaks about the key the caller pressed.
 */
export const LIVE_PHONE_SCRIPT: readonly LiveReaction[] = [
  { type: 'delegate' },
  { type: 'speak', text: ANSWERS[1].text },
];

/** What a key the caller pressed tells the model. */
export const keyMessage = (digit: string): string =>
  `The caller pressed ${digit}: send the prescription for delivery.`;

/** What the caller says, in order (the simulator hears the speech; G.711 carries no words, so the script decides). */
export const CALLER_LINES = ['Is my prescription RX-1001 ready?', 'Sorry, can I have it delivered?'] as const;
