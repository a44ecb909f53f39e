import { AzureOpenAILiveModel, AzureOpenAIRealtimeModel } from '@parley/azure';
import {
  type ConformanceScenario,
  type RealtimeHarnessFactory,
  servicePlaybackScenario,
} from '@parley/conformance';
import type { RealtimeCapability } from '@parley/core';
import { ALL_REALTIME_CAPABILITIES, ManualClock } from '@parley/mock';
import { OpenAILiveModel, OpenAIRealtimeModel } from '@parley/openai';
import { createLiveSimulatorHarness, createSimulatorHarness } from '@parley/simulator';
import { createMockHarness } from '../../packages/mock/test/realtime/mock-harness.js';
import { createGeminiLiveHarness } from '../../packages/simulator/test/gemini/gemini-harness.js';

/** One column of the matrix. */
export interface MatrixColumn {
  readonly title: string;
  /** The conformance runs behind the column; a run with `only` gives the cell of that capability alone. */
  readonly runs: readonly {
    name: string;
    create: RealtimeHarnessFactory;
    only?: RealtimeCapability;
    /** The scenarios of the run, when not all (a capability that changes what other scenarios expect). */
    scenarios?: readonly ConformanceScenario[];
  }[];
}

const AZURE_KEY = 'azure-matrix-key';

function azure(apiVersion?: string): RealtimeHarnessFactory {
  return () =>
    createSimulatorHarness({
      sessionClock: new ManualClock(),
      simulator: { auth: { kind: 'azure', apiKeys: [AZURE_KEY] } },
      createModel: (simulator, transport) =>
        new AzureOpenAIRealtimeModel({
          endpoint: `http://127.0.0.1:${simulator.port}`,
          deployment: 'gpt-realtime',
          apiKey: AZURE_KEY,
          ...transport,
          ...(apiVersion !== undefined && { apiVersion, onWarning: () => {} }),
        }),
    });
}

/** The providers of docs/capabilities.md and the conformance runs that fill their columns. */
export const MATRIX_COLUMNS: readonly MatrixColumn[] = [
  {
    title: '`MockRealtimeModel`',
    runs: [
      // The service playing the audio (WebRTC, SIP) changes what an interruption sends: its own scenario, its own run.
      {
        name: 'mock with servicePlayback',
        create: () => createMockHarness({ servicePlayback: true }),
        only: 'servicePlayback',
        scenarios: [servicePlaybackScenario],
      },
      { name: 'mock', create: () => createMockHarness() },
    ],
  },
  {
    title: '`MockRealtimeModel`, that capability off',
    runs: (Object.keys(ALL_REALTIME_CAPABILITIES) as RealtimeCapability[]).map((capability) => ({
      name: `mock without ${capability}`,
      create: () => createMockHarness({ [capability]: false }),
      only: capability,
    })),
  },
  {
    title: '`OpenAIRealtimeModel`',
    runs: [
      {
        name: 'openai',
        create: () =>
          createSimulatorHarness({
            sessionClock: new ManualClock(),
            createModel: (simulator, transport) =>
              new OpenAIRealtimeModel({ apiKey: 'sk-matrix', url: simulator.url, ...transport }),
          }),
      },
    ],
  },
  { title: '`AzureOpenAIRealtimeModel` (GA)', runs: [{ name: 'azure GA', create: azure() }] },
  {
    title: '`AzureOpenAIRealtimeModel` (legacy preview)',
    runs: [{ name: 'azure legacy', create: azure('2025-04-01-preview') }],
  },
  {
    title: '`OpenAILiveModel` (client delegation)',
    runs: [
      {
        name: 'openai live',
        create: () =>
          createLiveSimulatorHarness({
            createModel: (simulator, transport) =>
              new OpenAILiveModel({ apiKey: 'sk-matrix', url: simulator.url, ...transport }),
          }),
      },
    ],
  },
  {
    title: '`OpenAILiveModel` (Responses delegation)',
    runs: [
      {
        name: 'openai live responses',
        create: () =>
          createLiveSimulatorHarness({
            createModel: (simulator, transport) =>
              new OpenAILiveModel({
                apiKey: 'sk-matrix',
                url: simulator.url,
                ...transport,
                delegation: 'responses',
                backend: { model: 'gpt-5.5' },
              }),
          }),
      },
    ],
  },
  {
    title: '`AzureOpenAILiveModel`',
    runs: [
      {
        name: 'azure live',
        create: () =>
          createLiveSimulatorHarness({
            simulator: { azure: true, apiKeys: [AZURE_KEY] },
            createModel: (simulator, transport) =>
              new AzureOpenAILiveModel({
                endpoint: `http://127.0.0.1:${simulator.port}`,
                deployment: 'gpt-live',
                apiKey: AZURE_KEY,
                ...transport,
              }),
          }),
      },
    ],
  },
  { title: '`GeminiLiveModel`', runs: [{ name: 'gemini', create: createGeminiLiveHarness }] },
];
