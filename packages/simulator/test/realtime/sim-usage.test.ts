import { speechAudio } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { simulator } from './helpers.js';
import { RawClient } from './raw-client.js';

type Response = Record<string, unknown> & {
  status: string;
  status_details: unknown;
  usage: Record<string, unknown> & {
    input_tokens: number;
    output_tokens: number;
    input_token_details: Record<string, unknown>;
    output_token_details: { text_tokens: number; audio_tokens: number };
  };
  output: { status: string; content?: { text?: string; transcript?: string }[] }[];
};

const userText = (text: string) => ({
  type: 'conversation.item.create',
  item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
});

describe('simulator: usage and max_output_tokens', () => {
  test('usage carries text, audio and cached token details; the next response finds the previous context cached', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    client.send({ type: 'session.update', session: { type: 'realtime', instructions: 'Be brief.' } });
    const audio = Buffer.from(speechAudio('what time is it', { durationMs: 1000 })).toString('base64');
    client.send({
      type: 'conversation.item.create',
      item: { type: 'message', role: 'user', content: [{ type: 'input_audio', audio }] },
    });
    sim.script({ type: 'message', text: 'It is noon.', audioMs: 1000 });
    client.send({ type: 'response.create' });
    const first = (await client.waitFor('response.done')).response as Response;
    // 'Be brief.' = 9 characters = 3 tokens; 1000 ms of user audio = 10 tokens; 11 characters and 1000 ms out.
    expect(first.usage).toEqual({
      total_tokens: 13 + 23,
      input_tokens: 13,
      output_tokens: 23,
      input_token_details: {
        text_tokens: 3,
        audio_tokens: 10,
        image_tokens: 0,
        cached_tokens: 0,
        cached_tokens_details: { text_tokens: 0, audio_tokens: 0, image_tokens: 0 },
      },
      output_token_details: { text_tokens: 3, audio_tokens: 20 },
    });
    client.send(userText('And tomorrow?'));
    sim.script('Sunny.');
    client.send({ type: 'response.create' });
    const second = (await client.waitFor('response.done', 2)).response as Response;
    expect(second.usage.input_token_details).toMatchObject({
      cached_tokens: 13,
      cached_tokens_details: { text_tokens: 3, audio_tokens: 10, image_tokens: 0 },
    });
    expect(second.usage.input_tokens).toBeGreaterThan(13);
  });

  test('max_output_tokens (session) ends a long response incomplete with reason max_output_tokens', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    client.send({
      type: 'session.update',
      session: { type: 'realtime', output_modalities: ['text'], max_output_tokens: 5 },
    });
    const long = 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen';
    sim.script(long);
    client.send({ type: 'response.create' });
    const done = (await client.waitFor('response.done')).response as Response;
    expect(done).toMatchObject({
      status: 'incomplete',
      status_details: { type: 'incomplete', reason: 'max_output_tokens' },
      max_output_tokens: 5,
    });
    expect(done.usage.output_tokens).toBe(5);
    const text = done.output[0]?.content?.[0]?.text ?? '';
    expect(done.output[0]?.status).toBe('incomplete');
    expect(long.startsWith(text)).toBe(true);
    expect(text.length).toBeLessThan(long.length);
    expect(client.ofType('response.output_text.done')[0]?.text).toBe(text);
  });

  test('max_output_tokens per response overrides the session; a short answer completes; audio tokens count', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    sim.script({ type: 'message', text: 'Hi.', audioMs: 200 });
    client.send({ type: 'response.create', response: { max_output_tokens: 100 } });
    const short = (await client.waitFor('response.done')).response as Response;
    expect(short).toMatchObject({ status: 'completed', status_details: null, max_output_tokens: 100 });
    // Spoken: 2 seconds of audio alone are 40 output tokens.
    sim.script({ type: 'message', text: 'A long spoken answer.', audioMs: 2000 });
    client.send({ type: 'response.create', response: { max_output_tokens: 10 } });
    const cut = (await client.waitFor('response.done', 2)).response as Response;
    expect(cut).toMatchObject({ status: 'incomplete', status_details: { reason: 'max_output_tokens' } });
    expect(cut.usage.output_token_details.audio_tokens).toBeGreaterThan(0);
    expect(cut.usage.output_tokens).toBeLessThan(40);
  });
});
