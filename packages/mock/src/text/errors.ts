import { ParleyError } from '@parley/core';

/** A {@link MockModel} script was used wrongly: called past its end, or left unused. */
export class MockScriptError extends ParleyError {
  constructor(code: 'mock_script_exhausted' | 'mock_script_incomplete', message: string) {
    super(code, message);
  }
}
