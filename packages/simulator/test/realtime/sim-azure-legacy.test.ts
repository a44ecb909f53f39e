import { type RealtimeSimulator, startRealtimeSimulator } from '@parley/simulator';
import { afterEach, expect, test } from 'vitest';
import { RawClient } from './raw-client.js';

const LEGACY = '/openai/realtime?api-version=2025-04-01-preview&deployment=dep';
let sim: RealtimeSimulator | undefined;

afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function legacyClient(): Promise<RawClient> {
  sim = await startRealtimeSimulator({ auth: { kind: 'azure' } });
  sim.script('Hi there.');
  return RawClient.connect(sim, { path: LEGACY, headers: { 'api-key': 'k' } });
}

test('the legacy Azure path reports a flat beta session', async () => {
  const client = await legacyClient();
  const created = (await client.waitFor('session.created')) as unknown as {
    session: Record<string, unknown>;
  };
  expect(created.session).toMatchObject({
    model: 'dep',
    modalities: ['text', 'audio'],
    input_audio_format: 'pcm16',
    output_audio_format: 'pcm16',
    voice: 'alloy',
    turn_detection: { type: 'server_vad' },
  });
  expect(created.session).not.toHaveProperty('type');
  expect(created.session).not.toHaveProperty('audio');
  client.ws.close();
});

test('a GA-shaped session.update is refused there as the preview service did; a beta one is applied', async () => {
  const client = await legacyClient();
  client.send({ type: 'session.update', event_id: 'ga', session: { type: 'realtime', instructions: 'x' } });
  const error = (await client.waitFor('error')) as unknown as { error: Record<string, unknown> };
  expect(error.error).toMatchObject({ code: 'unknown_parameter', param: 'session.type', event_id: 'ga' });
  client.send({
    type: 'session.update',
    session: { instructions: 'Be brief.', turn_detection: null, input_audio_format: 'g711_ulaw' },
  });
  const updated = (await client.waitFor('session.updated')) as unknown as {
    session: Record<string, unknown>;
  };
  expect(updated.session).toMatchObject({
    instructions: 'Be brief.',
    turn_detection: null,
    input_audio_format: 'g711_ulaw',
  });
  client.ws.close();
});

test('a reply there uses the beta event names, beta item parts, and no conversation.item.done', async () => {
  const client = await legacyClient();
  client.send({
    type: 'conversation.item.create',
    item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hello' }] },
  });
  client.send({ type: 'response.create', response: { modalities: ['text', 'audio'] } });
  const done = (await client.waitFor('response.done')) as unknown as { response: Record<string, unknown> };
  const types = client.events.map((e) => e.type);
  expect(types).toContain('conversation.item.created');
  expect(types).toContain('response.audio.delta');
  expect(types).toContain('response.audio_transcript.delta');
  expect(types).toContain('response.audio_transcript.done');
  expect(
    types.some(
      (t) =>
        t.startsWith('response.output_') &&
        t !== 'response.output_item.added' &&
        t !== 'response.output_item.done',
    ),
  ).toBe(false);
  expect(types).not.toContain('conversation.item.added');
  expect(types).not.toContain('conversation.item.done');
  expect(done.response).toMatchObject({ modalities: ['text', 'audio'] });
  expect(done.response).not.toHaveProperty('output_modalities');
  const [message] = done.response.output as { content: { type: string; transcript?: string }[] }[];
  expect(message?.content[0]).toMatchObject({ type: 'audio', transcript: 'Hi there.' });
  client.ws.close();
});

test('assistant items with GA content parts and GA response fields are refused there', async () => {
  const client = await legacyClient();
  client.send({
    type: 'conversation.item.create',
    event_id: 'item',
    item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'x' }] },
  });
  client.send({ type: 'response.create', event_id: 'resp', response: { output_modalities: ['text'] } });
  await client.waitFor('error', 2);
  expect(
    client.events.filter((e) => e.type === 'error').map((e) => (e.error as { param: string }).param),
  ).toEqual(['item.content[0].type', 'response.output_modalities']);
  client.ws.close();
});

test('a plain HTTP request to the endpoint gets the status an upgrade would', async () => {
  sim = await startRealtimeSimulator({ auth: { kind: 'azure', apiKeys: ['good'] } });
  const base = `http://127.0.0.1:${sim.port}`;
  const status = async (path: string, headers: Record<string, string>) =>
    (await fetch(`${base}${path}`, { headers })).status;
  expect(await status('/openai/v1/realtime?model=d', { 'api-key': 'bad' })).toBe(401);
  expect(await status('/openai/v1/realtime?model=d', { 'api-key': 'good' })).toBe(426);
  expect(await status('/elsewhere', { 'api-key': 'good' })).toBe(404);
});
