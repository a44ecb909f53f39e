import { Agent } from '@parley/core';
import type { GeminiScriptedTurn } from '@parley/simulator';
import { getBalance } from '../voice-demo/voice-script.js';

/** What the caller asks, turn by turn. */
export const GEMINI_QUESTIONS = {
  balance: 'What is my balance?',
  story: 'How did the bank start?',
  interruption: 'Sorry, one more thing: what is my savings balance?',
  afterRecycle: 'Thanks. Which accounts did we talk about?',
} as const;

/** The Gemini demo's voice agent: a bank teller with one tool. */
export const geminiTellerAgent = new Agent({
  name: 'Teller',
  instructions: 'You are a bank teller on the phone. Be brief. Use get_balance for balances.',
  tools: [getBalance],
});

/** How long the long answer speaks before the simulator pauses it, so the caller barges in at an exact point. */
export const STORY_HOLD_MS = 600;

/** What the simulated model says, turn by turn (the simulator continues a turn after its tool responses). */
export const GEMINI_SIMULATOR_TURNS: GeminiScriptedTurn[] = [
  { outputs: [{ type: 'call', name: 'get_balance', args: { account: 'checking' }, id: 'call_checking' }] },
  { outputs: [{ type: 'speech', text: 'Your checking account holds 120 euros.' }] },
  {
    outputs: [
      {
        type: 'speech',
        text: 'The bank started in 1890 as a small savings club for the workers of a weaving mill by the river.',
        holdAfterMs: STORY_HOLD_MS,
      },
    ],
  },
  { outputs: [{ type: 'call', name: 'get_balance', args: { account: 'savings' }, id: 'call_savings' }] },
  { outputs: [{ type: 'speech', text: 'Your savings hold 2400 euros.' }] },
  { outputs: [{ type: 'speech', text: 'Your checking and your savings account.' }] },
];
