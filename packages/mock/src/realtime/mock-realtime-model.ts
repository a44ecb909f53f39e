import {
  AbortError,
  audioStreamBytesPerMs,
  type Clock,
  declaresCapability,
  ParleyError,
  PCM16_BYTES_PER_MS,
  REALTIME_SPECIFICATION_VERSION,
  type RealtimeAudioStreamFormat,
  type RealtimeCapabilities,
  type RealtimeCommand,
  type RealtimeConnectOptions,
  type RealtimeItem,
  type RealtimeModel,
  UserError,
} from '@parley/core';
import { brand, type OptionKeyList, optionKeys } from '@parley/core/internal';
import { MockScriptError } from '../text/errors.js';
import { checkConfig } from './check-config.js';
import { CommandLog } from './command-log.js';
import {
  type MockModelLink,
  MockRealtimeConnection,
  type MockSessionLifetime,
} from './mock-realtime-connection.js';
import { type MockResponseInput, type MockResponseScript, toScript } from './script.js';

/** Options of {@link MockRealtimeModel}. */
export interface MockRealtimeModelOptions {
  /**
   * Capabilities to change. By default every one is `true` except `autoToolResponseGeneration`, which is
   * `false` like the OpenAI adapter declares (the session requests tool follow-ups itself); pass
   * `{ autoToolResponseGeneration: true }` to test a provider that starts them on its own.
   */
  capabilities?: Partial<RealtimeCapabilities>;
  /**
   * What a response does when no script is queued for it: `'fail'` (default) ends it `failed` with a
   * `mock_script_exhausted` error event, and `assertComplete()` throws; `'wait'` holds it until
   * `respondWith()` queues one.
   */
  unscriptedResponses?: 'fail' | 'wait';
  /**
   * Allow one open connection at a time: a `connect()` while another connection is open rejects with a
   * `MockScriptError` (`mock_concurrent_connection`), and `assertComplete()` throws it. Default `false`.
   */
  strict?: boolean;
  /** Needed only by scripts with `delay` steps. Without it the mock uses no timers at all. */
  clock?: Clock;
  /** The provider name. Default `mock`. */
  provider?: string;
  /**
   * A provider session limit: each connection says when it expires (`expiresAt`) and, that long after it
   * opened (timed on `clock`, which it needs), ends like a real service does: `session_expired`, then a
   * disconnect.
   */
  sessionLifetimeMs?: number;
  /**
   * The audio formats each connection declares (`RealtimeConnection.audioFormats`), to test a provider with fixed
   * formats (e.g. PCM16 16 kHz in, 24 kHz out): the session then converts the app's audio to and from them. Scripted
   * `{ ms }` audio is generated in the output format. Default: none declared (the configured formats).
   */
  audioFormats?: { input: RealtimeAudioStreamFormat; output: RealtimeAudioStreamFormat };
}

/** Every capability of the specification, once: the key list `capabilities` overrides are checked against. */
const CAPABILITY_LIST: OptionKeyList<RealtimeCapabilities> = {
  ephemeralResponse: true,
  messageTruncation: true,
  mutableChatContext: true,
  turnDetection: true,
  userTranscription: true,
  audioOutput: true,
  mutableInstructions: true,
  mutableTools: true,
  autoToolResponseGeneration: true,
  responseRequests: true,
  delegation: true,
  contextAppends: true,
  continuousAudio: true,
  contentAcknowledgements: true,
  sessionResumption: true,
  contentDuringResponse: true,
  commitStartsResponse: true,
  responseInstructions: true,
  servicePlayback: true,
  recoverableErrors: true,
  compoundResponses: true,
  toolCallCancellation: true,
  hostedTools: true,
};
const CAPABILITY_KEYS = optionKeys<RealtimeCapabilities>('MockRealtimeModelOptions', CAPABILITY_LIST);
const MODEL_OPTIONS = optionKeys<MockRealtimeModelOptions>('MockRealtimeModelOptions', {
  capabilities: true,
  clock: true,
  provider: true,
  sessionLifetimeMs: true,
  audioFormats: true,
  unscriptedResponses: true,
  strict: true,
});

const {
  delegation: _delegation,
  contextAppends: _contextAppends,
  continuousAudio: _continuousAudio,
  servicePlayback: _servicePlayback,
  hostedTools: _hostedTools,
  ...allOn
} = CAPABILITY_LIST;

/**
 * Every capability on, except those of another kind of provider (`delegation`, `contextAppends` and
 * `continuousAudio`: a GPT-Live-style model; `servicePlayback`: a service that plays the audio itself) and
 * `hostedTools` (a list of tool kinds, not a switch).
 */
export const ALL_REALTIME_CAPABILITIES: Readonly<RealtimeCapabilities> = Object.freeze(allOn);

/**
 * The mock's default capabilities: every one on except `autoToolResponseGeneration`, `sessionResumption`,
 * `commitStartsResponse` and `toolCallCancellation`, matching what the OpenAI adapter declares, so tests on the mock
 * meet the tool follow-ups, reconnect replays and push-to-talk requests users meet in production.
 */
export const DEFAULT_MOCK_REALTIME_CAPABILITIES: Readonly<RealtimeCapabilities> = Object.freeze({
  ...ALL_REALTIME_CAPABILITIES,
  autoToolResponseGeneration: false,
  sessionResumption: false,
  commitStartsResponse: false,
  toolCallCancellation: false,
});

/** The error a mock connect fails with by default. */
export class MockConnectError extends ParleyError {
  static {
    brand(MockConnectError, 'mock.MockConnectError');
  }

  constructor(message = 'The mock realtime provider refused the connection.', code = 'mock_connect_failed') {
    super(code, message);
  }
}

type ConnectPlan = { kind: 'reject'; error: unknown } | { kind: 'closed_on_arrival' };

interface ConnectGate {
  promise: Promise<void>;
  release: () => void;
  ignoreAbort: boolean;
}

type Taken = { script: MockResponseScript };

/**
 * A scriptable in-memory realtime provider for tests and demos. Queue what the model says with
 * {@link respondWith}; every response (requested by the session or started by the provider) plays the
 * next queued script (with none queued it fails, see `unscriptedResponses`). Drive the rest through
 * {@link connection}; end a test with {@link assertComplete}.
 *
 * ```ts
 * const model = new MockRealtimeModel().respondWith('Hello!');
 * const session = new RealtimeSession(agent, { model });
 * ```
 */
export class MockRealtimeModel implements RealtimeModel {
  readonly specificationVersion = REALTIME_SPECIFICATION_VERSION;
  readonly provider: string;
  readonly capabilities: RealtimeCapabilities;
  /** Every connection made, oldest first. */
  readonly connections: MockRealtimeConnection[] = [];
  readonly #scripts: MockResponseScript[] = [];
  readonly #takers: { promise: Promise<Taken>; resolve: (taken: Taken) => void }[] = [];
  readonly #plans: ConnectPlan[] = [];
  readonly #commands = new CommandLog();
  readonly #link: MockModelLink;
  readonly #lifetime: MockSessionLifetime | undefined;
  readonly #audioFormats: MockRealtimeModelOptions['audioFormats'];
  #gate: ConnectGate | undefined;
  #nextId = 0;
  readonly #waitForScripts: boolean;
  readonly #strict: boolean;
  readonly #failures: MockScriptError[] = [];
  /** The conversations kept under resume tokens (`sessionResumption`); the mock's tokens never expire. */
  readonly #resumable = new Map<string, readonly RealtimeItem[]>();
  #nextToken = 0;

  constructor(options: MockRealtimeModelOptions = {}) {
    MODEL_OPTIONS.check(options);
    if (options.capabilities) CAPABILITY_KEYS.check(options.capabilities, 'capabilities');
    this.provider = options.provider ?? 'mock';
    this.capabilities = Object.freeze({ ...DEFAULT_MOCK_REALTIME_CAPABILITIES, ...options.capabilities });
    const unscripted = options.unscriptedResponses ?? 'fail';
    if (unscripted !== 'fail' && unscripted !== 'wait') {
      throw new UserError(`unscriptedResponses must be 'fail' or 'wait', got ${JSON.stringify(unscripted)}.`);
    }
    this.#waitForScripts = unscripted === 'wait';
    this.#strict = options.strict === true;
    this.#audioFormats = options.audioFormats;
    const lifetimeMs = options.sessionLifetimeMs;
    if (lifetimeMs !== undefined) {
      if (typeof lifetimeMs !== 'number' || !Number.isFinite(lifetimeMs) || lifetimeMs <= 0) {
        throw new UserError(
          `sessionLifetimeMs must be a positive number of milliseconds, got ${String(lifetimeMs)}.`,
        );
      }
      if (!options.clock) {
        throw new UserError(
          'sessionLifetimeMs needs a clock: new MockRealtimeModel({ clock, sessionLifetimeMs }).',
        );
      }
      this.#lifetime = { ms: lifetimeMs, clock: options.clock };
    }
    this.#link = {
      capabilities: this.capabilities,
      clock: options.clock,
      outputBytesPerMs: options.audioFormats
        ? audioStreamBytesPerMs(options.audioFormats.output)
        : PCM16_BYTES_PER_MS,
      nextId: (prefix) => `${prefix}_${++this.#nextId}`,
      takeScript: (responseId) => {
        const script = this.#scripts.shift();
        if (script) return { script };
        if (!this.#waitForScripts) {
          return {
            missing: `MockRealtimeModel: response ${responseId} started, but no script is queued for it. Queue one with model.respondWith(…) before the session asks for a response (or pass unscriptedResponses: 'wait').`,
          };
        }
        let resolve!: (taken: Taken) => void;
        const promise = new Promise<Taken>((r) => {
          resolve = r;
        });
        this.#takers.push({ promise, resolve });
        return promise;
      },
      cancelTake: (promise) => {
        const index = this.#takers.findIndex((t) => t.promise === promise);
        if (index >= 0) this.#takers.splice(index, 1);
      },
      recorded: (command) => this.#commands.record(command),
      keepForResume: (conversation) => {
        const token = `resume_${++this.#nextToken}`;
        this.#resumable.set(token, structuredClone(conversation));
        return token;
      },
      scriptFailed: (code, message) => {
        this.#failures.push(new MockScriptError(code, message));
      },
    };
  }

  /** The latest connection. Throws when nothing connected yet. */
  get connection(): MockRealtimeConnection {
    const last = this.connections.at(-1);
    if (!last)
      throw new UserError(
        'Nothing has connected to this MockRealtimeModel yet. Call session.connect() first.',
      );
    return last;
  }

  /** Every command received on every connection, in order. */
  get commands(): readonly RealtimeCommand[] {
    return [...this.#commands.commands];
  }

  /** Scripts queued and not yet played. */
  get queuedResponses(): number {
    return this.#scripts.length;
  }

  /**
   * Throws a {@link MockScriptError} when the script went wrong: a response came with nothing scripted, an
   * `expect_input` step did not match, a `strict` mock saw a second open connection, or queued scripts
   * were never played. Call it at the end of a test.
   */
  assertComplete(): void {
    const [failure] = this.#failures;
    if (failure) throw failure;
    if (this.#scripts.length > 0) {
      throw new MockScriptError(
        'mock_script_incomplete',
        `MockRealtimeModel: ${this.#scripts.length} queued response script(s) were never played (${this.connections.length} connection(s) made). Remove them or check why the session stopped early.`,
      );
    }
  }

  /** Queues what the model does for the next responses, in order. A waiting response takes it at once. */
  respondWith(...inputs: MockResponseInput[]): this {
    const compound = declaresCapability(this.capabilities, 'compoundResponses');
    for (const input of inputs) {
      const script = toScript(input, { compound });
      const taker = this.#takers.shift();
      if (taker) taker.resolve({ script });
      else this.#scripts.push(script);
    }
    return this;
  }

  /** Resolves once `count` commands (on any connection) match `predicate`, counting earlier ones. */
  waitForCommands(predicate: (command: RealtimeCommand) => boolean, count = 1): Promise<RealtimeCommand[]> {
    return this.#commands.waitFor(predicate, count);
  }

  /** The next `connect()` rejects with `error` (default a {@link MockConnectError}). */
  failNextConnect(error: unknown = new MockConnectError()): void {
    this.#plans.push({ kind: 'reject', error });
  }

  /** The next `connect()` resolves with a connection that is already closed (the socket dropped at once). */
  closeNextConnectionOnArrival(): void {
    this.#plans.push({ kind: 'closed_on_arrival' });
  }

  /**
   * Holds every `connect()` until `release()`. An aborted signal rejects a held connect with an
   * `AbortError`, unless `ignoreAbort` (a provider that ignores the signal and connects anyway).
   */
  holdConnects(options: { ignoreAbort?: boolean } = {}): { release(): void } {
    let release!: () => void;
    const promise = new Promise<void>((resolve) => {
      release = resolve;
    });
    const gate: ConnectGate = { promise, release, ignoreAbort: options.ignoreAbort ?? false };
    this.#gate = gate;
    return {
      release: () => {
        if (this.#gate === gate) this.#gate = undefined;
        gate.release();
      },
    };
  }

  async connect(options: RealtimeConnectOptions): Promise<MockRealtimeConnection> {
    const { signal } = options;
    const gate = this.#gate;
    if (gate) {
      await new Promise<void>((resolve, reject) => {
        if (!gate.ignoreAbort && signal) {
          if (signal.aborted) reject(new AbortError('connect aborted'));
          signal.addEventListener('abort', () => reject(new AbortError('connect aborted')), { once: true });
        }
        gate.promise.then(resolve);
      });
    } else {
      await Promise.resolve();
    }
    if (signal?.aborted && !gate?.ignoreAbort) throw new AbortError('connect aborted');
    const plan = this.#plans.shift();
    if (plan?.kind === 'reject') throw plan.error;
    const open = this.connections.find((connection) => connection.status === 'open');
    if (this.#strict && open) {
      const failure = new MockScriptError(
        'mock_concurrent_connection',
        `MockRealtimeModel (strict): connect() while connection #${this.connections.indexOf(open) + 1} is still open. Close the previous connection first.`,
      );
      this.#failures.push(failure);
      throw failure;
    }
    const problem = checkConfig(options.config, this.capabilities, false);
    if (problem) throw new MockConnectError(problem, 'capability_not_supported');
    // A token it kept resumes that conversation; one it does not know starts a new one (`resumed: false`).
    const resumedConversation =
      options.resumeToken !== undefined && declaresCapability(this.capabilities, 'sessionResumption')
        ? this.#resumable.get(options.resumeToken)
        : undefined;
    const connection = new MockRealtimeConnection(
      this.#link,
      options.config,
      this.#lifetime,
      options.rawEvents === true,
      resumedConversation,
      this.#audioFormats,
    );
    this.connections.push(connection);
    if (plan?.kind === 'closed_on_arrival') connection.disconnect('closed_on_arrival');
    return connection;
  }
}
