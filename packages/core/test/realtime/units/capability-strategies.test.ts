import { CapabilityNotSupportedError, type RealtimeCapabilities } from '@parley/core';
import { describe, expect, test } from 'vitest';
import {
  agentSwitchStrategy,
  commitRespondsByDefault,
  delegationStrategy,
  ephemeralResponseStrategy,
  historyReplayStrategy,
  inputTranscriptionStrategy,
  messageCorrectionStrategy,
  outputModalitiesStrategy,
  requireContextAppends,
  requireResponseRequests,
  toolFollowUpStrategy,
  turnDetectionStrategy,
} from '#session-units';

/** One strategy per capability flag (docs/capabilities.md names them): what each flag decides, both ways. */

const ALL: RealtimeCapabilities = {
  ephemeralResponse: true,
  messageTruncation: true,
  mutableChatContext: true,
  turnDetection: true,
  userTranscription: true,
  audioOutput: true,
  mutableInstructions: true,
  mutableTools: true,
  autoToolResponseGeneration: false,
  responseRequests: true,
};
const without = (flag: keyof RealtimeCapabilities): RealtimeCapabilities => ({ ...ALL, [flag]: false });

describe('capability strategies', () => {
  test('audioOutput: audio by default; a provider without it gets text, with a warning when audio was asked for', () => {
    expect(outputModalitiesStrategy(undefined, ALL, 'p')).toEqual({ outputModalities: ['audio'] });
    expect(outputModalitiesStrategy(undefined, without('audioOutput'), 'p')).toEqual({
      outputModalities: ['text'],
    });
    expect(outputModalitiesStrategy(['audio'], without('audioOutput'), 'p')).toMatchObject({
      outputModalities: ['text'],
      warning: { code: 'capability_fallback' },
    });
    expect(outputModalitiesStrategy(['text'], ALL, 'p')).toEqual({ outputModalities: ['text'] });
  });

  test('turnDetection: sent only where declared (null, push-to-talk, always); active unless turned off', () => {
    expect(turnDetectionStrategy.apply({}, ALL, 'p')).toEqual({ send: true });
    expect(turnDetectionStrategy.apply(null, without('turnDetection'), 'p')).toEqual({ send: true });
    expect(turnDetectionStrategy.apply(undefined, ALL, 'p')).toEqual({ send: false });
    expect(turnDetectionStrategy.apply({}, without('turnDetection'), 'p')).toMatchObject({
      send: false,
      warning: { code: 'capability_fallback' },
    });
    expect(turnDetectionStrategy.active(undefined, ALL)).toBe(true);
    expect(turnDetectionStrategy.active(null, ALL)).toBe(false);
    expect(turnDetectionStrategy.active({}, without('turnDetection'))).toBe(false);
    expect(turnDetectionStrategy.providerCancelsOnSpeech({}, ALL)).toBe(true);
    expect(turnDetectionStrategy.providerCancelsOnSpeech({ interruptResponse: false }, ALL)).toBe(false);
    expect(turnDetectionStrategy.providerCancelsOnSpeech(null, ALL)).toBe(false);
  });

  test('userTranscription: sent only where declared, else a warning', () => {
    expect(inputTranscriptionStrategy({ model: 'm' }, ALL, 'p')).toEqual({ send: true });
    expect(inputTranscriptionStrategy(undefined, ALL, 'p')).toEqual({ send: false });
    expect(inputTranscriptionStrategy({ model: 'm' }, without('userTranscription'), 'p')).toMatchObject({
      send: false,
      warning: { code: 'capability_fallback' },
    });
  });

  test('mutableInstructions / mutableTools: an agent switch sends what may change, and refuses what may not', () => {
    const current = { instructions: 'A', tools: [], hostedTools: [], toolChoice: 'auto' as const };
    const tool = { name: 't', description: 'd', parameters: { type: 'object' } };
    const next = { instructions: 'B', tools: [tool], hostedTools: [], toolChoice: 'auto' as const };
    expect(agentSwitchStrategy(current, next, ALL, 'p')).toEqual({
      instructions: 'B',
      tools: [tool],
      toolChoice: 'auto',
    });
    expect(() => agentSwitchStrategy(current, next, without('mutableInstructions'), 'p')).toThrow(
      CapabilityNotSupportedError,
    );
    expect(() =>
      agentSwitchStrategy(current, { ...next, instructions: 'A' }, without('mutableTools'), 'p'),
    ).toThrow(CapabilityNotSupportedError);
    // What does not change needs no capability.
    expect(
      agentSwitchStrategy(current, current, { ...without('mutableInstructions'), mutableTools: false }, 'p'),
    ).toEqual({});
  });

  test('messageTruncation / mutableChatContext: how an interrupted message is corrected, as far as the flags allow', () => {
    expect(messageCorrectionStrategy('full', true, 900, ALL)).toEqual({ delete: false });
    expect(messageCorrectionStrategy('partial', true, 900, ALL)).toEqual({
      truncateAtMs: 900,
      delete: false,
    });
    expect(messageCorrectionStrategy('partial', true, 900, without('messageTruncation'))).toEqual({
      delete: false,
      uncorrected: 'message_not_truncated',
    });
    expect(messageCorrectionStrategy('partial', false, 0, ALL)).toEqual({ delete: false });
    expect(messageCorrectionStrategy('skipped', true, 0, ALL)).toEqual({ truncateAtMs: 0, delete: true });
    expect(messageCorrectionStrategy('skipped', false, 0, without('mutableChatContext'))).toEqual({
      delete: false,
      uncorrected: 'message_not_removed',
    });
    expect(
      messageCorrectionStrategy('skipped', true, 0, {
        ...without('mutableChatContext'),
        messageTruncation: true,
      }),
    ).toEqual({ truncateAtMs: 0, delete: false });
  });

  test('ephemeralResponse: out of band where declared, else an ordinary reply with a warning', () => {
    expect(ephemeralResponseStrategy(ALL, 'p')).toEqual({ outOfBand: true });
    expect(ephemeralResponseStrategy(without('ephemeralResponse'), 'p')).toMatchObject({
      outOfBand: false,
      warning: { code: 'ephemeral_response_unsupported' },
    });
  });

  test('autoToolResponseGeneration: who starts the response after tool outputs', () => {
    expect(toolFollowUpStrategy(ALL)).toBe('session');
    expect(toolFollowUpStrategy({ ...ALL, autoToolResponseGeneration: true })).toBe('provider');
  });

  test('responseRequests: requests only where the provider answers them; committed audio asks for a reply only in push-to-talk', () => {
    expect(() => requireResponseRequests(ALL, 'p', 'send a message')).not.toThrow();
    expect(() => requireResponseRequests(without('responseRequests'), 'p', 'send a message')).toThrow(
      CapabilityNotSupportedError,
    );
    expect(commitRespondsByDefault(null, ALL)).toBe(true);
    expect(commitRespondsByDefault(undefined, ALL)).toBe(false);
    expect(commitRespondsByDefault({}, without('turnDetection'))).toBe(true);
    expect(commitRespondsByDefault(null, without('responseRequests'))).toBe(false);
  });

  test('contextAppends, delegation: appends only where declared; a delegate needs both', () => {
    expect(() => requireContextAppends(ALL, 'p')).toThrow(CapabilityNotSupportedError);
    expect(() => requireContextAppends({ ...ALL, contextAppends: true }, 'p')).not.toThrow();
    expect(delegationStrategy({ ...ALL, delegation: true })).toEqual({ delegateAllowed: false });
    expect(delegationStrategy({ ...ALL, delegation: true, contextAppends: true })).toEqual({
      delegateAllowed: true,
    });
  });

  test('reconnect replay: items where the context is mutable, one thought where it is append-only', () => {
    expect(historyReplayStrategy(ALL)).toBe('items');
    expect(historyReplayStrategy({ ...without('mutableChatContext'), contextAppends: true })).toBe('context');
    expect(historyReplayStrategy(without('mutableChatContext'))).toBe('items');
  });
});
