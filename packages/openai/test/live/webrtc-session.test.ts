import { UserError } from '@parley/core';
import { createLiveWebRTCSession, DEFAULT_BROWSER_CLIENT_EVENTS, OpenAILiveError } from '@parley/openai';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';

const API_KEY = 'sk-test-live-webrtc-0123456789';
const OFFER = 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\n';
const ANSWER = 'v=0\r\no=- 3 4 IN IP4 127.0.0.1\r\ns=-\r\n';
const requests: { auth: string | null; body: Record<string, unknown> }[] = [];
let reply: () => Response = () =>
  HttpResponse.json({ session: { id: 'sess_live_1' }, transport: { type: 'webrtc', sdp: ANSWER } });

const server = setupServer(
  http.post('https://api.openai.com/v1/live/sessions', async ({ request }) => {
    requests.push({ auth: request.headers.get('authorization'), body: (await request.json()) as never });
    return reply();
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  requests.length = 0;
  reply = () =>
    HttpResponse.json({ session: { id: 'sess_live_1' }, transport: { type: 'webrtc', sdp: ANSWER } });
});
afterAll(() => server.close());

describe('createLiveWebRTCSession: the server side of a browser GPT-Live call', () => {
  test('starts the session with the offer and, by default, lets the browser only mute and unmute', async () => {
    const started = await createLiveWebRTCSession({
      apiKey: API_KEY,
      offerSdp: OFFER,
      session: { instructions: 'Be brief.' },
    });
    expect(started).toEqual({ sessionId: 'sess_live_1', answerSdp: ANSWER });
    expect(requests).toEqual([
      {
        auth: `Bearer ${API_KEY}`,
        body: {
          session: {
            type: 'live',
            model: 'gpt-live-1',
            instructions: 'Be brief.',
            client: {
              data_channel: {
                allowed_client_events: ['session.input_audio.mute', 'session.input_audio.unmute'],
                allowed_server_events: 'all',
              },
            },
          },
          transport: { type: 'webrtc', sdp: OFFER },
        },
      },
    ]);
    expect(DEFAULT_BROWSER_CLIENT_EVENTS).not.toContain('session.update');
  });

  test('an explicit allow-list is sent as given (deduplicated), or all', async () => {
    await createLiveWebRTCSession({
      apiKey: API_KEY,
      offerSdp: OFFER,
      allowedClientEvents: ['response.create', 'session.close', 'response.create'],
      allowedServerEvents: [{ type: 'session.output_transcript.delta' }],
    });
    await createLiveWebRTCSession({ apiKey: API_KEY, offerSdp: OFFER, allowedClientEvents: 'all' });
    const dataChannels = requests.map(
      (r) => (r.body.session as { client: { data_channel: unknown } }).client.data_channel,
    );
    expect(dataChannels).toEqual([
      {
        allowed_client_events: ['response.create', 'session.close'],
        allowed_server_events: [{ type: 'session.output_transcript.delta' }],
      },
      { allowed_client_events: 'all', allowed_server_events: 'all' },
    ]);
  });

  test.each([
    'transport.dtmf.send',
    'session.output_audio.fixture.play',
    'session.start',
    'session.input_audio.append',
    'session.updat',
  ])('"%s" cannot be allowed on a data channel: refused before any request', async (type) => {
    const failure = await createLiveWebRTCSession({
      apiKey: API_KEY,
      offerSdp: OFFER,
      allowedClientEvents: [type as never],
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UserError);
    expect((failure as Error).message).toContain(`"${type}" cannot be sent on a WebRTC data channel`);
    expect(requests).toEqual([]);
  });

  test('bad options fail before any request: no offer, audio.format, session.client, unknown keys', async () => {
    const attempts = [
      { apiKey: API_KEY, offerSdp: 'hello' },
      { apiKey: API_KEY, offerSdp: OFFER, session: { audio: { format: { type: 'audio/pcm' } } } },
      { apiKey: API_KEY, offerSdp: OFFER, session: { client: { data_channel: {} } } },
      { apiKey: API_KEY, offerSdp: OFFER, allowedClientEvent: ['session.close'] },
    ];
    for (const options of attempts) {
      await expect(createLiveWebRTCSession(options as never)).rejects.toBeInstanceOf(UserError);
    }
    expect(requests).toEqual([]);
  });

  test('a refusal is a typed error with the status, and the key is never in it', async () => {
    reply = () =>
      HttpResponse.json({ error: { message: `Incorrect API key provided: ${API_KEY}` } }, { status: 401 });
    const failure = await createLiveWebRTCSession({ apiKey: API_KEY, offerSdp: OFFER }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(OpenAILiveError);
    expect(failure).toMatchObject({ code: 'live_auth_failed', status: 401 });
    expect(JSON.stringify({ ...(failure as object), message: (failure as Error).message })).not.toContain(
      API_KEY,
    );
  });
});
