import { Agent, tool } from '@parley/core';
import type { BrainResponse, GeminiScriptedTurn } from '@parley/simulator';
import { z } from 'zod';

/** The phone demo's agent: a pharmacy line with one tool. */
export const pharmacyAgent = new Agent({
  name: 'Pharmacy',
  instructions: 'You answer the phone for a pharmacy. Be brief.',
  tools: [
    tool({
      name: 'check_prescription',
      description: 'Whether a prescription is ready for pickup',
      parameters: z.object({ prescriptionId: z.string() }),
      execute: ({ prescriptionId }) => ({ prescriptionId, ready: true, counter: 2 }),
    }),
  ],
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

/** What the caller says, in order (the simulator hears the speech; G.711 carries no words, so the script decides). */
export const CALLER_LINES = ['Is my prescription RX-1001 ready?', 'Sorry, can I have it delivered?'] as const;
