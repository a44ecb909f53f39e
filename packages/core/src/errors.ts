import { brand } from './brand.js';
/** Every error Parley throws or emits carries a stable, machine-readable `code`. */
export class ParleyError extends Error {
  static {
    brand(ParleyError, 'core.ParleyError');
  }

  /** A stable identifier for this kind of failure, e.g. `max_turns_exceeded`. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** The caller used the API in a way it does not support; the message says what to do instead. */
export class UserError extends ParleyError {
  static {
    brand(UserError, 'core.UserError');
  }

  constructor(message: string, options?: { cause?: unknown; code?: string }) {
    super(options?.code ?? 'user_error', message, options);
  }
}

/** The model produced something the agent cannot accept (e.g. final output that fails `outputType`). */
export class ModelBehaviorError extends ParleyError {
  static {
    brand(ModelBehaviorError, 'core.ModelBehaviorError');
  }

  constructor(message: string, options?: { cause?: unknown }) {
    super('model_behavior', message, options);
  }
}

/** A tool's `execute` did not finish within its `timeoutMs`. */
export class ToolTimeoutError extends ParleyError {
  static {
    brand(ToolTimeoutError, 'core.ToolTimeoutError');
  }

  /** The tool that timed out. */
  readonly toolName: string;
  /** The timeout it exceeded, in milliseconds. */
  readonly timeoutMs: number;

  constructor(toolName: string, timeoutMs: number) {
    super(
      'tool_timeout',
      `Tool "${toolName}" did not finish within ${timeoutMs} ms. Raise its timeoutMs or make it faster.`,
    );
    this.toolName = toolName;
    this.timeoutMs = timeoutMs;
  }
}

/** A tool guardrail asked to stop the run instead of returning a replacement output. */
export class ToolGuardrailTripwireTriggered extends ParleyError {
  static {
    brand(ToolGuardrailTripwireTriggered, 'core.ToolGuardrailTripwireTriggered');
  }

  /** The guardrail that tripped. */
  readonly guardrailName: string;
  /** The tool it guarded. */
  readonly toolName: string;
  /** What the guardrail reported with its tripwire. */
  readonly outputInfo: unknown;

  constructor(guardrailName: string, toolName: string, outputInfo: unknown) {
    super('tool_guardrail_tripwire', `Tool guardrail "${guardrailName}" stopped tool "${toolName}".`);
    this.guardrailName = guardrailName;
    this.toolName = toolName;
    this.outputInfo = outputInfo;
  }
}

/** The operation was cancelled (an aborted signal, a closed session). */
export class AbortError extends ParleyError {
  static {
    brand(AbortError, 'core.AbortError');
  }

  constructor(message = 'The operation was aborted.', options?: { cause?: unknown }) {
    super('aborted', message, options);
  }
}

/**
 * The provider's service could not be reached: no answer came back (a refused or reset connection, DNS, TLS, a
 * proxy). `cause` is the network error; `service` names what was called and `url` where. Every adapter reports
 * it the same way (code `service_unreachable`), whether a text call, a realtime connect or a key minting failed.
 */
export class ServiceUnreachableError extends ParleyError {
  static {
    brand(ServiceUnreachableError, 'core.ServiceUnreachableError');
  }

  /** What was called, e.g. `the OpenAI API`. */
  readonly service: string;
  /** Where (never carries a key). */
  readonly url: string | undefined;

  constructor(service: string, url: string | undefined, detail: string, options?: { cause?: unknown }) {
    super(
      'service_unreachable',
      `Could not reach ${service}${url ? ` at ${url}` : ''}: ${detail}. Check the network, the URL (baseURL / url) and any proxy.`,
      options,
    );
    this.service = service;
    this.url = url;
  }
}
