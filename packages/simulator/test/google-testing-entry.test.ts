import * as deprecated from '@parley/google/testing';
import * as simulator from '@parley/simulator';
import { expect, test } from 'vitest';

// `@parley/google/testing` is where the Gemini Live simulator lived before this package: apps that import it keep working.
test('@parley/google/testing re-exports every name of @parley/simulator, the same values', () => {
  const old = new Map<string, unknown>(Object.entries(deprecated));
  const moved = new Map<string, unknown>(Object.entries(simulator));
  expect([...old.keys()].sort()).toEqual([...moved.keys()].sort());
  for (const [name, value] of moved) expect(old.get(name), name).toBe(value);
  expect(old.get('startGeminiSimulator')).toBeTypeOf('function');
});

test('a Gemini Live simulator started through the deprecated entry serves on loopback', async () => {
  const sim = await deprecated.startGeminiSimulator();
  try {
    expect(sim.wsBaseUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
  } finally {
    await sim.close();
  }
});
