import { Agent, tool } from '@parley/core';
import type { BrainReply, BrainTurn, Hold } from '@parley/openai/testing';
import { z } from 'zod';

/** What the caller says out loud (sent as simulated speech audio). */
export const SPOKEN_QUESTION = 'What is my balance?';

/** What the caller types next. */
export const TYPED_QUESTION = 'Can you read me my last three payments?';

/** The instructions of the ephemeral reply; the code must never enter the conversation. */
export const ONE_TIME_CODE_INSTRUCTIONS = 'Read the one-time code 4711 to the caller.';

/** How much of the interrupted answer the caller heard before barging in. */
export const HEARD_MS = 700;

/** How the one-time code sounds in a transcript. */
export const CODE_WORDS = '4 7 1 1';

const BALANCE_AUDIO_MS = 1200;
const CODE_AUDIO_MS = 1500;
const PAYMENTS_BEFORE_HOLD = 'Your last three payments were: ';
const PAYMENTS_AFTER_HOLD = '12 euros to the bakery, 40 euros for gas, and 9 euros to the library.';

const ACCOUNTS: Record<string, { balance: number; currency: string }> = {
  'ACC-42': { balance: 120, currency: 'EUR' },
};

const getBalance = tool({
  name: 'get_balance',
  description: "The caller's account balance.",
  parameters: z.object({ accountId: z.string() }),
  execute: ({ accountId }) => ACCOUNTS[accountId] ?? { error: `No account ${accountId}` },
});

/** The voice agent of the demo: a bank teller with one tool. */
export const tellerAgent = new Agent({
  name: 'Teller',
  instructions: 'You are a bank teller on the phone. Be brief. Use get_balance for balance questions.',
  tools: [getBalance],
});

/**
 * What the simulated model "decides" each turn: a `get_balance` call for the spoken question, the spoken balance
 * once the tool answered, a payments answer that stops at `midAnswer` (so the caller can barge in at an exact
 * point), and the one-time code for the out-of-band reply.
 */
export function tellerBrain(midAnswer: Hold): (turn: BrainTurn) => BrainReply {
  return (turn) => {
    if (turn.conversation === 'none')
      return { type: 'message', text: `Your one-time code is ${CODE_WORDS}.`, audioMs: CODE_AUDIO_MS };
    const [output] = turn.toolOutputs;
    if (output !== undefined) {
      const { balance } = JSON.parse(output.output) as { balance: number };
      return { type: 'message', text: `Your balance is ${balance} euros.`, audioMs: BALANCE_AUDIO_MS };
    }
    if (turn.lastUserText?.includes('balance'))
      return {
        type: 'function_call',
        name: 'get_balance',
        arguments: { accountId: 'ACC-42' },
        callId: 'call_balance',
      };
    if (turn.lastUserText?.includes('payments'))
      return { type: 'message', text: [PAYMENTS_BEFORE_HOLD, midAnswer, PAYMENTS_AFTER_HOLD] };
    return 'Sorry, I can only help with your balance and payments.';
  };
}
