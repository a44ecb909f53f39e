import { Agent, tool } from '@parley/core';
import type { BrainResponse, BrainTurn, Hold } from '@parley/simulator';
import { z } from 'zod';

/** What the caller says out loud, turn by turn (sent as speech audio). */
export const QUESTIONS = {
  balance: 'What is my balance?',
  savingsAndLimit: 'And my savings, and my card limit?',
  lostCard: 'I lost my card.',
} as const;

/** What the caller asks when ringing back: only the store can tell the agent. */
export const RING_BACK_QUESTION = 'I called earlier. What did I report?';

/** The instructions of the ephemeral response; the code must never enter the conversation. */
export const ONE_TIME_CODE_INSTRUCTIONS = 'Read the one-time code 4711 to the caller.';

/** How much of the interrupted answer the caller heard before barging in. */
export const HEARD_MS = 700;

/** How the one-time code sounds in a transcript. */
export const CODE_WORDS = '4 7 1 1';

const BALANCE_AUDIO_MS = 1200;
const BOTH_AUDIO_MS = 2000;
const CODE_AUDIO_MS = 1500;
const BLOCKED_BEFORE_HOLD = 'Cards here: I blocked the card ending in 4242. ';
const BLOCKED_AFTER_HOLD = 'A new card is on its way and arrives within three working days.';

const BALANCES: Record<string, number> = { checking: 120, savings: 2400 };

/** The balance of one of the caller's accounts (the demos' bank). */
export const getBalance = tool({
  name: 'get_balance',
  description: "The balance of one of the caller's accounts.",
  parameters: z.object({ account: z.enum(['checking', 'savings']) }),
  execute: ({ account }) => ({ account, balance: BALANCES[account], currency: 'EUR' }),
});

const getCardLimit = tool({
  name: 'get_card_limit',
  description: "The monthly limit of the caller's card.",
  parameters: z.object({}),
  execute: () => ({ limit: 1000, currency: 'EUR' }),
});

/** Card services: takes over lost cards. */
export const cardsAgent = new Agent({
  name: 'Cards',
  handoffDescription: 'Lost or stolen cards.',
  instructions: 'You handle lost and stolen cards. Be brief.',
});

/** The first voice agent of the demo: a bank teller with two tools and a handoff to Cards. */
export const tellerAgent = new Agent({
  name: 'Teller',
  instructions:
    'You are a bank teller on the phone. Be brief. Use the tools for balances and limits; hand lost cards to Cards.',
  tools: [getBalance, getCardLimit],
  handoffs: [cardsAgent],
});

/** The call ids the simulated model gives its calls (the demo prints them). */
export const CALL_IDS = {
  balance: 'call_balance',
  savings: 'call_savings',
  limit: 'call_limit',
  handoff: 'call_handoff',
} as const;

/**
 * What the simulated model "decides" each turn, from the caller's words: `get_balance` for the first question, `get_balance` and
 * `get_card_limit` in ONE response for the second (answered by one follow-up), a handoff to Cards for the lost card,
 * Cards' answer that stops at `midAnswer` (so the caller can barge in at an exact point), and the one-time code for
 * the out-of-band response.
 */
export function bankBrain(midAnswer: Hold): (turn: BrainTurn) => BrainResponse {
  return (turn) => {
    if (turn.conversation === 'none')
      return { type: 'message', text: `Your one-time code is ${CODE_WORDS}.`, audioMs: CODE_AUDIO_MS };
    const outputs = new Map(turn.toolOutputs.map((o) => [o.callId, JSON.parse(o.output) as unknown]));
    if (outputs.has(CALL_IDS.handoff))
      return { type: 'message', text: [BLOCKED_BEFORE_HOLD, midAnswer, BLOCKED_AFTER_HOLD] };
    const savings = outputs.get(CALL_IDS.savings) as { balance: number } | undefined;
    const limit = outputs.get(CALL_IDS.limit) as { limit: number } | undefined;
    if (savings && limit)
      return {
        type: 'message',
        text: `Your savings hold ${savings.balance} euros, and your card limit is ${limit.limit} euros.`,
        audioMs: BOTH_AUDIO_MS,
      };
    const checking = outputs.get(CALL_IDS.balance) as { balance: number } | undefined;
    if (checking)
      return {
        type: 'message',
        text: `Your checking account holds ${checking.balance} euros.`,
        audioMs: BALANCE_AUDIO_MS,
      };
    const said = (turn.lastUserText ?? '').toLowerCase();
    if (said === RING_BACK_QUESTION.toLowerCase()) return rememberedCall(turn);
    if (/\b(lost|stolen)\b/.test(said))
      return { type: 'function_call', name: 'transfer_to_cards', arguments: {}, callId: CALL_IDS.handoff };
    if (said.includes('savings') && said.includes('limit'))
      return [
        {
          type: 'function_call',
          name: 'get_balance',
          arguments: { account: 'savings' },
          callId: CALL_IDS.savings,
        },
        { type: 'function_call', name: 'get_card_limit', arguments: {}, callId: CALL_IDS.limit },
      ];
    if (said.includes('balance'))
      return {
        type: 'function_call',
        name: 'get_balance',
        arguments: { account: 'checking' },
        callId: CALL_IDS.balance,
      };
    return 'Sorry, I can only help with balances, limits and lost cards.';
  };
}

/** The answer to the ring-back question, from the conversation the provider was given (the replayed memory). */
function rememberedCall(turn: BrainTurn): string {
  const earlier = turn.messages.filter((message) => message.role === 'user').slice(0, -1);
  if (earlier.length === 0) return 'I have no record of an earlier call from you.';
  const lost = earlier.some((message) => /\b(lost|stolen)\b/i.test(message.text));
  return `On your earlier call you asked ${earlier.length} things${lost ? ', and reported your card lost: it is blocked' : ''}.`;
}
