/** A client event the simulated service refuses, with the real `error` fields. */
export class SimulatorServiceError extends Error {
  readonly code: string | null;
  readonly param: string | null;
  readonly errorType: string;

  constructor(
    code: string | null,
    message: string,
    param: string | null = null,
    errorType = 'invalid_request_error',
  ) {
    super(message);
    this.code = code;
    this.param = param;
    this.errorType = errorType;
  }
}

/** `invalid_value` for a bad field value. */
export function invalidValue(param: string, message: string): SimulatorServiceError {
  return new SimulatorServiceError('invalid_value', message, param);
}

/** `missing_required_parameter`. */
export function missingParameter(param: string): SimulatorServiceError {
  return new SimulatorServiceError(
    'missing_required_parameter',
    `Missing required parameter: '${param}'.`,
    param,
  );
}

/** `unknown_parameter`. */
export function unknownParameter(param: string): SimulatorServiceError {
  return new SimulatorServiceError('unknown_parameter', `Unknown parameter: '${param}'.`, param);
}

/** `invalid_type` for a field of the wrong JSON type. */
export function invalidType(param: string, expected: string): SimulatorServiceError {
  return new SimulatorServiceError(
    'invalid_type',
    `Invalid type for '${param}': expected ${expected}.`,
    param,
  );
}
