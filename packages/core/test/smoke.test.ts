import { VERSION } from '@parley/core';
import { expect, test } from 'vitest';

test('v', () => {
  expect(VERSION).toBe('0.1.0');
});
