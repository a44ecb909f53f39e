import { UnknownOptionError, UserError } from '@parley/core';
import { optionKeys } from '@parley/core/internal';
import { describe, expect, test } from 'vitest';

interface ExampleOptions {
  apiKey?: string;
  baseURL?: string;
  toolTimeoutMs?: number;
  voice?: string;
}

const EXAMPLE = optionKeys<ExampleOptions>('ExampleOptions', {
  apiKey: true,
  baseURL: true,
  toolTimeoutMs: true,
  voice: true,
});

function caught(run: () => void): UnknownOptionError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UnknownOptionError);
    expect(error).toBeInstanceOf(UserError);
    return error as UnknownOptionError;
  }
  throw new Error('expected an UnknownOptionError');
}

describe('optionKeys().check', () => {
  test.each([
    ['toolTimeout', 'toolTimeoutMs'],
    ['apikey', 'apiKey'],
    ['baseUrl', 'baseURL'],
    ['vocie', 'voice'],
    ['voise', 'voice'],
    ['toolTimoutMs', 'toolTimeoutMs'],
    ['tool', 'toolTimeoutMs'],
    ['url', 'baseURL'],
    ['key', 'apiKey'],
  ])('%s is refused, naming %s', (typo, nearest) => {
    const error = caught(() => EXAMPLE.check({ [typo]: 1 }));
    expect(error.code).toBe('unknown_option');
    expect(error.option).toBe(typo);
    expect(error.suggestion).toBe(nearest);
    expect(error.message).toBe(`Unknown option '${typo}' in ExampleOptions. Did you mean '${nearest}'?`);
  });

  test('a key near none of the valid keys lists them all', () => {
    const error = caught(() => EXAMPLE.check({ temperature: 0.2 }));
    expect(error.suggestion).toBeUndefined();
    expect(error.message).toBe(
      "Unknown option 'temperature' in ExampleOptions. Valid options: apiKey, baseURL, toolTimeoutMs, voice.",
    );
  });

  test('a nested object names the key by its path', () => {
    const error = caught(() => EXAMPLE.check({ vocie: 'alloy' }, 'config'));
    expect(error.option).toBe('config.vocie');
    expect(error.message).toBe(
      "Unknown option 'config.vocie' in ExampleOptions. Did you mean 'config.voice'?",
    );
  });

  test('an unknown key is refused even when its value is undefined', () => {
    expect(() => EXAMPLE.check({ apikey: undefined })).toThrow(UnknownOptionError);
  });

  test('valid keys, an empty object and inherited keys pass', () => {
    EXAMPLE.check({ apiKey: 'k', baseURL: 'https://example.test', toolTimeoutMs: 5, voice: 'alloy' });
    EXAMPLE.check({});
    EXAMPLE.check(Object.create({ inherited: true }));
    expect(EXAMPLE.keys).toEqual(['apiKey', 'baseURL', 'toolTimeoutMs', 'voice']);
  });

  test('the key list is checked against the options type', () => {
    // @ts-expect-error a key of the type is missing from the list
    optionKeys<ExampleOptions>('ExampleOptions', { apiKey: true, baseURL: true, voice: true });
    optionKeys<ExampleOptions>('ExampleOptions', {
      apiKey: true,
      baseURL: true,
      toolTimeoutMs: true,
      voice: true,
      // @ts-expect-error a key that is not in the type
      vocie: true,
    });
  });
});
