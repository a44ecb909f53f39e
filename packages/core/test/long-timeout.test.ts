import { MAX_TIMER_DELAY_MS, setLongTimeout } from '@parley/core/internal';
import { ManualClock } from '@parley/mock';
import { describe, expect, test } from 'vitest';

const DAY_MS = 86_400_000;

describe('setLongTimeout', () => {
  test('a wait longer than one timer can hold fires once, at its time', async () => {
    const clock = new ManualClock();
    const fired: number[] = [];
    setLongTimeout(clock, () => fired.push(clock.now()), 60 * DAY_MS);
    await clock.advance(MAX_TIMER_DELAY_MS + 1);
    expect(fired).toEqual([]);
    await clock.advance(60 * DAY_MS - MAX_TIMER_DELAY_MS - 2);
    expect(fired).toEqual([]);
    await clock.advance(1);
    expect(fired).toEqual([60 * DAY_MS]);
    expect(clock.pendingTimers).toBe(0);
  });

  test('cancel() between steps, or twice, leaves no timer and no call', async () => {
    const clock = new ManualClock();
    let calls = 0;
    const wait = setLongTimeout(clock, () => calls++, 3 * MAX_TIMER_DELAY_MS);
    await clock.advance(MAX_TIMER_DELAY_MS + 5);
    wait.cancel();
    wait.cancel();
    expect(clock.pendingTimers).toBe(0);
    await clock.advance(3 * MAX_TIMER_DELAY_MS);
    expect(calls).toBe(0);
  });

  test('a short wait is one ordinary timer', async () => {
    const clock = new ManualClock();
    let calls = 0;
    setLongTimeout(clock, () => calls++, 1_000);
    await clock.advance(999);
    expect(calls).toBe(0);
    await clock.advance(1);
    expect(calls).toBe(1);
  });
});
