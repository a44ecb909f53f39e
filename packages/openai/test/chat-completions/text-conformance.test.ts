import { defineTextConformanceSuite } from '@parley/conformance';
import { useMockServer } from '../responses/helpers.js';
import { chatHarness } from '../text-conformance/chat-harness.js';

const server = useMockServer();

defineTextConformanceSuite('openai chat completions', () => chatHarness(server));
