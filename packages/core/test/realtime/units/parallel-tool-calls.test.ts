import { describe, expect, test } from 'vitest';
import { ParallelToolCalls, RECENTLY_ENDED_RESPONSES_LIMIT } from '#session-units';

/**
 * The calls of one response coalesce into one follow-up response: due when the last call finished after the
 * response ended `completed`, or when the response ended after every call finished.
 */
describe('ParallelToolCalls', () => {
  test('two calls of one response: one follow-up, when the last of them finished after the response ended', () => {
    const calls = new ParallelToolCalls();
    calls.started('a', 'resp_1');
    calls.started('b', 'resp_1');
    expect(calls.responseDone('resp_1', 'completed')).toBeUndefined();
    expect(calls.finished('a', false)).toBeUndefined();
    expect(calls.finished('b', false)).toEqual({ succeeded: true });
  });

  test('calls that all finished before the response ended: the follow-up is due at its end', () => {
    const calls = new ParallelToolCalls();
    calls.started('a', 'resp_1');
    calls.started('b', 'resp_1');
    expect(calls.finished('b', true)).toBeUndefined();
    expect(calls.finished('a', true)).toBeUndefined();
    expect(calls.responseDone('resp_1', 'completed')).toEqual({ succeeded: false });
  });

  test('succeeded: at least one call of the group did not fail', () => {
    const calls = new ParallelToolCalls();
    calls.started('a', 'resp_1');
    calls.started('b', 'resp_1');
    calls.finished('a', true);
    calls.finished('b', false);
    expect(calls.responseDone('resp_1', 'completed')).toEqual({ succeeded: true });
  });

  test('a response that did not complete (cancelled, failed, incomplete) asks for no follow-up', () => {
    for (const status of ['cancelled', 'failed', 'incomplete'] as const) {
      const calls = new ParallelToolCalls();
      calls.started('a', 'resp_1');
      expect(calls.responseDone('resp_1', status)).toBeUndefined();
      expect(calls.finished('a', false)).toBeUndefined();
    }
  });

  test('groups are per response: finishing one response’s calls does not release another’s', () => {
    const calls = new ParallelToolCalls();
    calls.started('a', 'resp_1');
    calls.started('b', 'resp_2');
    calls.responseDone('resp_1', 'completed');
    calls.responseDone('resp_2', 'completed');
    expect(calls.finished('b', false)).toEqual({ succeeded: true });
    expect(calls.finished('a', false)).toEqual({ succeeded: true });
  });

  test('a call with no response, or of a response that already ended, asks for its own follow-up', () => {
    const calls = new ParallelToolCalls();
    calls.started('loose', undefined);
    expect(calls.finished('loose', true)).toEqual({ succeeded: false });
    calls.responseDone('resp_1', 'completed');
    calls.started('late', 'resp_1');
    expect(calls.finished('late', false)).toEqual({ succeeded: true });
  });

  test('twice, late or unknown: a call started twice counts once; a finish of an unknown or finished call is nothing', () => {
    const calls = new ParallelToolCalls();
    calls.started('a', 'resp_1');
    calls.started('a', 'resp_1');
    calls.responseDone('resp_1', 'completed');
    expect(calls.finished('a', false)).toEqual({ succeeded: true });
    expect(calls.finished('a', false)).toBeUndefined();
    expect(calls.finished('never-started', false)).toBeUndefined();
    expect(calls.responseDone('resp_1', 'completed')).toBeUndefined();
  });

  test('after reset (the connection went away) nothing of the old groups is due', () => {
    const calls = new ParallelToolCalls();
    calls.started('a', 'resp_1');
    calls.reset();
    expect(calls.finished('a', false)).toBeUndefined();
    expect(calls.responseDone('resp_1', 'completed')).toBeUndefined();
  });

  test(`memory: only the last ${RECENTLY_ENDED_RESPONSES_LIMIT} ended responses are remembered`, () => {
    const calls = new ParallelToolCalls();
    for (let i = 0; i <= RECENTLY_ENDED_RESPONSES_LIMIT; i++) calls.responseDone(`resp_${i}`, 'completed');
    // resp_0 was forgotten: a call naming it forms a group again and waits for its end.
    calls.started('old', 'resp_0');
    expect(calls.finished('old', false)).toBeUndefined();
    // resp_1 is still remembered as ended: its late call is on its own.
    calls.started('recent', 'resp_1');
    expect(calls.finished('recent', false)).toEqual({ succeeded: true });
  });
});
