import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, RealtimeSession, type RealtimeSessionEventOf } from '@parley/core';
import { GeminiLiveModel } from '@parley/google';
import { OpenAILiveModel, OpenAIRealtimeModel } from '@parley/openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runParley, startParley } from './run-parley.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-e2e-sim-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Connects a text session to `url` with `apiKey`, says `text`, and returns the reply's text (or the error). */
async function ask(url: string, apiKey: string, text: string): Promise<string> {
  return (await timedAsk(url, apiKey, text)).reply;
}

/** {@link ask}, and how long the reply took from the message to `response_done`. */
async function timedAsk(url: string, apiKey: string, text: string): Promise<{ reply: string; ms: number }> {
  const session = new RealtimeSession(new Agent({ name: 'Probe' }), {
    model: new OpenAIRealtimeModel({ url, apiKey }),
    config: { outputModalities: ['text'], turnDetection: null },
    reconnect: false,
  });
  try {
    await session.connect();
    const done = new Promise<RealtimeSessionEventOf<'response_done'>>((resolve) => {
      session.on('response_done', resolve);
    });
    const sent = performance.now();
    session.sendMessage(text);
    await done;
    const ms = performance.now() - sent;
    const last = session.history.at(-1);
    return { reply: last?.type === 'message' ? last.text : '', ms };
  } catch (error) {
    return { reply: `error: ${(error as { code?: string }).code}`, ms: 0 };
  } finally {
    await session.close();
  }
}

describe('parley simulator', () => {
  test('serves the Realtime protocol on 127.0.0.1 until Ctrl-C; echoes by default', async () => {
    const sim = startParley(['simulator', '--port', '0']);
    const [, url] = /listening on (ws:\S+)/.exec(await sim.line(/listening on ws:/)) ?? [];
    expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/v1\/realtime$/);
    expect(await ask(url as string, 'sk-anything', 'Hello there')).toBe('You said: Hello there');
    await sim.line(/conn_1 connected/);
    const run = await sim.stop('SIGINT');
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('Simulator stopped.');
  });

  test('--api live serves GPT-Live on /v1/live/sessions; OpenAILiveModel starts a session there', async () => {
    const sim = startParley(['simulator', '--api', 'live', '--port', '0', '--api-key', 'sk-live']);
    const [, url] = /listening on (ws:\S+)/.exec(await sim.line(/GPT-Live simulator listening on ws:/)) ?? [];
    expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/v1\/live\/sessions$/);
    const refused = await new OpenAILiveModel({ url: url as string, apiKey: 'sk-other' })
      .connect({ config: {} })
      .catch((e: { code?: string }) => e.code);
    expect(refused).toBe('live_auth_failed');
    const connection = await new OpenAILiveModel({ url: url as string, apiKey: 'sk-live' }).connect({
      config: {},
    });
    expect(await sim.line(/ started$/)).toMatch(/^ {2}live_\S+ started$/);
    await connection.close();
    const run = await sim.stop('SIGINT');
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('Simulator stopped.');
  });

  test('--api gemini serves Gemini Live; GeminiLiveModel sets up a session there and hears its answer', async () => {
    const sim = startParley([
      'simulator',
      '--api',
      'gemini',
      '--port',
      '0',
      '--instant',
      '--api-key',
      'g-key',
    ]);
    const [, baseUrl] =
      /listening on (ws:\S+)/.exec(await sim.line(/Gemini Live simulator listening on ws:/)) ?? [];
    expect(baseUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    const refused = await new GeminiLiveModel({ baseUrl: baseUrl as string, apiKey: 'other-key' })
      .connect({ config: {} })
      .catch((e: { code?: string }) => e.code);
    expect(refused).toBe('gemini_auth_failed');
    const session = new RealtimeSession(new Agent({ name: 'Probe' }), {
      model: new GeminiLiveModel({ baseUrl: baseUrl as string, apiKey: 'g-key' }),
      reconnect: false,
    });
    await session.connect();
    const done = new Promise((resolve) => session.on('response_done', resolve));
    session.sendMessage('Hello Gemini');
    await done;
    expect(session.history.at(-1)).toMatchObject({ role: 'assistant', text: 'You said: Hello Gemini' });
    await session.close();
    expect(await sim.line(/set up/)).toMatch(
      /^ {2}connection \d+ set up \(models\/gemini-live-2\.5-flash-preview\)$/,
    );
    const run = await sim.stop('SIGINT');
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('Simulator stopped.');
  });

  test('--script answers from a JSON file, then echoes; --api-key refuses other keys', async () => {
    const script = join(dir, 'brain.json');
    await writeFile(script, JSON.stringify(['Scripted first answer.']));
    const sim = startParley([
      'simulator',
      '--port',
      '0',
      '--instant',
      '--script',
      script,
      '--api-key',
      'sk-right',
    ]);
    const [, url] = /listening on (ws:\S+)/.exec(await sim.line(/listening on ws:/)) ?? [];
    expect(await ask(url as string, 'sk-wrong', 'hi')).toMatch(/^error: /);
    expect(await ask(url as string, 'sk-right', 'one')).toBe('Scripted first answer.');
    expect(await ask(url as string, 'sk-right', 'two')).toBe('You said: two');
    expect((await sim.stop('SIGTERM')).code).toBe(0);
  });

  test('--first-output-ms paces every response: the first output comes no earlier', async () => {
    const sim = startParley(['simulator', '--port', '0', '--first-output-ms', '400', '--speed', '1000']);
    const [, url] = /listening on (ws:\S+)/.exec(await sim.line(/listening on ws:/)) ?? [];
    const { reply, ms } = await timedAsk(url as string, 'sk-any', 'slowly');
    expect(reply).toBe('You said: slowly');
    expect(ms).toBeGreaterThanOrEqual(400);
    expect((await sim.stop()).code).toBe(0);
  });

  test('a script that is not a list of replies is refused before it listens, naming the bad entry', async () => {
    const script = join(dir, 'bad.json');
    await writeFile(script, JSON.stringify(['fine', { type: 'mesage', text: 'typo' }]));
    expect(await runParley(['simulator', '--script', script])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `parley simulator: the script ${script} is not a list of responses ([1].type: Invalid discriminator value. ` +
        `Expected 'message' | 'function_call' | 'fail'); e.g. ["Hello!", {"type":"function_call","name":"get_time"}] ` +
        '(see docs/simulator.md).\n',
    });
  });
});
