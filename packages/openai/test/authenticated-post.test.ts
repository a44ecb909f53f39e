/**
 * The package's HTTP calls (a client secret, a WebRTC call's offer, a GPT-Live WebRTC session) post the same way: the
 * key as a bearer token and nowhere else, `fetch` called as a browser requires, the service's error message in the
 * caller's own typed error, a body that is not JSON taken calmly, and no answer at all a `ServiceUnreachableError`.
 */
import { ServiceUnreachableError } from '@parley/core';
import {
  ClientSecretError,
  createClientSecret,
  createLiveWebRTCSession,
  OpenAILiveError,
  OpenAIRealtimeError,
} from '@parley/openai';
import { OpenAIRealtimeWebRTCModel, type PeerConnectionLike } from '@parley/openai/webrtc';
import { describe, expect, test } from 'vitest';

const KEY = 'sk-test-posted-0123456789abcdef';
const OFFER = 'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n';

/** A peer that makes an offer at once; the calls below fail at the POST, before it is needed again. */
function offeringPeer(): PeerConnectionLike {
  let described = false;
  const channel = {
    readyState: 'connecting' as const,
    send() {},
    close() {},
    addEventListener() {},
    removeEventListener() {},
  };
  return {
    connectionState: 'new',
    iceGatheringState: 'complete',
    get localDescription() {
      return described ? { sdp: OFFER } : null;
    },
    createDataChannel: () => channel,
    addTransceiver: () => undefined,
    createOffer: async () => ({ type: 'offer', sdp: OFFER }),
    setLocalDescription: async () => {
      described = true;
    },
    setRemoteDescription: async () => undefined,
    addEventListener() {},
    removeEventListener() {},
    close() {},
  };
}

type Fetch = typeof globalThis.fetch;

/** Each call, with the error class it reports the service's refusal with. */
const callers: {
  name: string;
  refusal: new (...args: never[]) => Error;
  call: (fetch: Fetch) => Promise<unknown>;
}[] = [
  {
    name: 'createClientSecret',
    refusal: ClientSecretError,
    call: (fetch) => createClientSecret({ apiKey: KEY, fetch }),
  },
  {
    name: 'OpenAIRealtimeWebRTCModel (the offer)',
    refusal: OpenAIRealtimeError,
    call: (fetch) =>
      new OpenAIRealtimeWebRTCModel({ clientSecret: KEY, fetch, createPeerConnection: offeringPeer }).connect(
        {
          config: {},
        },
      ),
  },
  {
    name: 'createLiveWebRTCSession',
    refusal: OpenAILiveError,
    call: (fetch) => createLiveWebRTCSession({ apiKey: KEY, offerSdp: OFFER, fetch }),
  },
];

/** The key is in no field of `error`, its message or its causes. */
function expectNoKey(error: unknown): void {
  let current: unknown = error;
  while (current instanceof Error) {
    expect(current.message).not.toContain(KEY);
    expect(current.stack ?? '').not.toContain(KEY);
    expect(JSON.stringify(current)).not.toContain(KEY);
    current = current.cause;
  }
}

describe.each(callers)('$name', ({ refusal, call }) => {
  test('the key goes as a bearer token, and fetch is called on no object (a browser requires it)', async () => {
    const seen: { receiver: unknown; authorization: string | null }[] = [];
    const fetch = function (this: unknown, _url: RequestInfo | URL, init?: RequestInit) {
      seen.push({ receiver: this, authorization: new Headers(init?.headers).get('authorization') });
      return Promise.resolve(new Response('{"error":{"message":"no"}}', { status: 400 }));
    } as Fetch;
    await call(fetch).catch(() => {});
    expect(seen).toEqual([{ receiver: undefined, authorization: `Bearer ${KEY}` }]);
  });

  test("a refusal echoing the key: the caller's typed error, with the service's message and no key", async () => {
    const body = JSON.stringify({
      error: { message: `Incorrect API key provided: ${KEY}.`, code: 'invalid_api_key' },
    });
    const fetch = (async () => new Response(body, { status: 401 })) as Fetch;
    const error = await call(fetch).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(refusal);
    expect(error).toMatchObject({ status: 401 });
    expectNoKey(error);
  });

  test("a body that is not JSON (a proxy's page): the caller's typed error with the status", async () => {
    const fetch = (async () => new Response('<html>Bad gateway</html>', { status: 502 })) as Fetch;
    const error = await call(fetch).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(refusal);
    expect(error).toMatchObject({ status: 502 });
    expect((error as Error).message).toContain('HTTP 502');
  });

  test('no answer at all: ServiceUnreachableError, the key in none of its fields', async () => {
    const fetch = (async () => {
      throw new TypeError(`fetch failed for Bearer ${KEY}`, {
        cause: new Error(`connect ECONNREFUSED ${KEY}`),
      });
    }) as Fetch;
    const error = await call(fetch).catch((e: unknown) => e);
    const unreachable = error instanceof ServiceUnreachableError ? error : (error as Error).cause;
    expect(unreachable).toBeInstanceOf(ServiceUnreachableError);
    expectNoKey(error);
  });
});
