import { defineTextConformanceSuite } from '@parley/conformance';
import { responsesHarness } from '../text-conformance/responses-harness.js';
import { useMockServer } from './helpers.js';

const server = useMockServer();

defineTextConformanceSuite('openai responses', () => responsesHarness(server));
