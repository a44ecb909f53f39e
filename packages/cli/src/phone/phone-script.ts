import { Agent, tool } from '@parley/core';
import type { BrainResponse } from '@parley/simulator';
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

/** What the simulated model says, in order, for the call the demo places. */
export const PHONE_SCRIPT: readonly BrainResponse[] = [
  { type: 'function_call', name: 'check_prescription', arguments: { prescriptionId: 'RX-1001' } },
  {
    type: 'message',
    text: 'Your prescription RX-1001 is ready at counter two. We are open until eight tonight, and you can also ask us to deliver it.',
    audioMs: 6000,
  },
  // 910 ms: not a whole number of 20 ms frames (the last one goes out padded with silence).
  { type: 'message', text: 'Of course, go ahead.', audioMs: 910 },
  { type: 'message', text: 'You pressed one: I am sending a delivery request now.', audioMs: 2500 },
];

/** What the caller says, in order (the simulator hears the speech; G.711 carries no words, so the script decides). */
export const CALLER_LINES = ['Is my prescription RX-1001 ready?', 'Sorry, can I have it delivered?'] as const;
