import { Agent, tool } from '@parley/core';
import { MockModel } from '@parley/mock';
import { z } from 'zod';

/** What the caller says, turn by turn (sent as speech audio). */
export const LIVE_QUESTIONS = {
  balance: 'What is my balance?',
  blockCard: 'I lost my card ending in 4242. Please block it.',
} as const;

/** The voice front: GPT-Live talks and listens, and delegates anything that needs data or an action. */
export const voiceAgent = new Agent({
  name: 'Voice',
  instructions:
    "You are a bank's phone voice. Be brief. Delegate anything that needs account data or an action.",
});

/** A delegated tool call, as the demo prints it. */
export interface BankToolCall {
  name: string;
  arguments: string;
  output: string;
}

/**
 * The delegated backend: a Parley text agent with two tools (blocking a card needs the app's approval), run by the
 * session's Runner on a scripted text model. `onCall` sees every call that ran.
 */
export function bankAgent(onCall: (call: BankToolCall) => void): Agent {
  const getBalance = tool({
    name: 'get_balance',
    description: "The balance of one of the caller's accounts.",
    parameters: z.object({ account: z.enum(['checking', 'savings']) }),
    execute: (args) => {
      const result = { account: args.account, balance: 120, currency: 'EUR' };
      onCall({ name: 'get_balance', arguments: JSON.stringify(args), output: JSON.stringify(result) });
      return result;
    },
  });
  const blockCard = tool({
    name: 'block_card',
    description: 'Blocks a card and orders a new one.',
    parameters: z.object({ last4: z.string().regex(/^\d{4}$/) }),
    needsApproval: true,
    execute: (args) => {
      const result = { blocked: args.last4, replacementDays: 3 };
      onCall({ name: 'block_card', arguments: JSON.stringify(args), output: JSON.stringify(result) });
      return result;
    },
  });
  return new Agent({
    name: 'Bank',
    instructions: 'You serve the voice agent of a bank. Use the tools; answer in one short sentence.',
    model: new MockModel([
      MockModel.toolCall('get_balance', { account: 'checking' }),
      MockModel.text('Your checking account holds 120 euros.'),
      MockModel.toolCall('block_card', { last4: '4242' }),
      MockModel.text('I blocked the card ending in 4242; a new one arrives within three working days.'),
    ]),
    tools: [getBalance, blockCard],
  });
}
