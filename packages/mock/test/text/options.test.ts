import { UnknownOptionError } from '@parley/core';
import { MockModel, MockModelProvider } from '@parley/mock';
import { expect, test } from 'vitest';

test.each([
  [
    () => new MockModel([], { chunksize: 2 } as never),
    "Unknown option 'chunksize' in MockModelOptions. Did you mean 'chunkSize'?",
  ],
  [
    () => new MockModel([], { capabilities: { tool: false } } as never),
    "Unknown option 'capabilities.tool' in MockModelOptions. Did you mean 'capabilities.tools'?",
  ],
  [
    () => new MockModelProvider({ default: new MockModel() } as never),
    "Unknown option 'default' in MockModelProviderOptions. Did you mean 'defaultModel'?",
  ],
  [
    () => MockModel.toolCall('lookup', {}, { callID: 'c1' } as never),
    "Unknown option 'callID' in MockOutputOptions. Did you mean 'callId'?",
  ],
  [
    () => MockModel.handoff('Billing', { callid: 'c1' } as never),
    "Unknown option 'callid' in MockOutputOptions. Did you mean 'callId'?",
  ],
])('text mock option typo %# is an UnknownOptionError naming the nearest key', (create, message) => {
  expect(create).toThrow(UnknownOptionError);
  expect(create).toThrow(message);
});
