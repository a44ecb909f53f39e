import * as deprecated from '@parley/openai/testing';
import * as wire from '@parley/openai/wire';
import * as simulator from '@parley/simulator';
import { expect, test } from 'vitest';

// `@parley/openai/testing` is where the simulators lived before this package: apps that still import it keep working.
test('@parley/openai/testing re-exports every name of @parley/simulator and of @parley/openai/wire, the same values', () => {
  const old = new Map<string, unknown>(Object.entries(deprecated));
  const moved = new Map<string, unknown>([...Object.entries(simulator), ...Object.entries(wire)]);
  expect([...old.keys()].sort()).toEqual([...moved.keys()].sort());
  for (const [name, value] of moved) expect(old.get(name), name).toBe(value);
  // The wire catalogue's names the old entry had stay there.
  expect(old.get('WIRE_SERVER_EVENT_TYPES')).toBe(wire.WIRE_SERVER_EVENT_TYPES);
  expect(old.get('WIRE_CLIENT_EVENT_TYPES')).toBe(wire.WIRE_CLIENT_EVENT_TYPES);
});

test('a Realtime simulator started through the deprecated entry serves on loopback', async () => {
  const sim = await deprecated.startRealtimeSimulator();
  try {
    expect(sim.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\//);
  } finally {
    await sim.close();
  }
});
