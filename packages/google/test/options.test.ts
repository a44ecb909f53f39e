import { UnknownOptionError, UserError } from '@parley/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GeminiLiveError, GeminiLiveModel } from '../src/index.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('GeminiLiveModel options, checked before any socket', () => {
  it('takes the key from GEMINI_API_KEY, then GOOGLE_API_KEY; without one it says what to set', () => {
    vi.stubEnv('GEMINI_API_KEY', '');
    vi.stubEnv('GOOGLE_API_KEY', '');
    const missing = (() => {
      try {
        new GeminiLiveModel();
      } catch (error) {
        return error;
      }
    })();
    expect(missing).toBeInstanceOf(GeminiLiveError);
    expect(missing).toMatchObject({ code: 'gemini_missing_credentials' });
    expect((missing as Error).message).toMatch(/GEMINI_API_KEY.*ephemeralToken.*vertex/);
    vi.stubEnv('GOOGLE_API_KEY', 'from-google-env');
    expect(() => new GeminiLiveModel()).not.toThrow();
    vi.stubEnv('GEMINI_API_KEY', 'from-gemini-env');
    expect(() => new GeminiLiveModel()).not.toThrow();
  });

  it('refuses unknown keys (naming the nearest), conflicting credentials and invalid values with a typed error', () => {
    expect(() => new GeminiLiveModel({ apiKey: 'k', modle: 'x' } as never)).toThrow(UnknownOptionError);
    expect(() => new GeminiLiveModel({ apiKey: 'k', modle: 'x' } as never)).toThrow(/Did you mean 'model'/);
    const invalid = (options: object, message: RegExp) => {
      let error: unknown;
      try {
        new GeminiLiveModel(options as never);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(UserError);
      expect(error).toMatchObject({ code: 'invalid_option' });
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('secret-key');
    };
    invalid(
      { apiKey: 'secret-key', vertex: { project: 'p', location: 'l', accessToken: 't' } },
      /one of apiKey/,
    );
    invalid({ apiKey: 'secret-key', model: 'models/gemini-live-2.5-flash-preview' }, /without "models\/"/);
    invalid({ apiKey: 'secret-key', baseUrl: 'https://example.com' }, /ws: or wss:/);
    invalid(
      { apiKey: 'secret-key', contextWindowCompression: { triggerTokens: 1000, targetTokens: 2000 } },
      /below/,
    );
    invalid({ apiKey: 'secret-key', connectTimeoutMs: -1 }, /connectTimeoutMs/);
    invalid({ vertex: { project: 'p', location: '', accessToken: 't' } }, /vertex\.location/);
    expect(
      () => new GeminiLiveModel({ vertex: { project: 'p', location: 'l', token: 't' } } as never),
    ).toThrow(/Unknown option 'vertex\.token'.*vertex\.accessToken/);
  });

  it('declares what the protocol offers: no truncation, deletion, ephemeral responses, acknowledgements, recoverable errors or compound responses', () => {
    expect(new GeminiLiveModel({ apiKey: 'k' }).capabilities).toEqual({
      ephemeralResponse: false,
      messageTruncation: false,
      mutableChatContext: false,
      turnDetection: true,
      userTranscription: true,
      audioOutput: true,
      mutableInstructions: true,
      mutableTools: true,
      autoToolResponseGeneration: true,
      responseRequests: true,
      contentAcknowledgements: false,
      contentDuringResponse: false,
      commitStartsResponse: true,
      responseInstructions: false,
      sessionResumption: true,
      recoverableErrors: false,
      compoundResponses: false,
      toolCallCancellation: true,
    });
    const fixed = new GeminiLiveModel({ apiKey: 'k', sessionResumption: false }).capabilities;
    expect([fixed.mutableInstructions, fixed.mutableTools, fixed.sessionResumption]).toEqual([
      false,
      false,
      false,
    ]);
  });
});
