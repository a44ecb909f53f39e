import { ParleyError } from '@parley/core';
import { brand } from '@parley/core/internal';

/** Why a mock's script failed the test. */
export type MockScriptErrorCode =
  /** A call (or realtime response) came with nothing scripted for it. */
  | 'mock_script_exhausted'
  /** Part of the script was never used. */
  | 'mock_script_incomplete'
  /** An `expect_input` step of a realtime script did not match what the session sent. */
  | 'mock_expectation_failed'
  /** A `strict` realtime mock was connected to while another connection was open. */
  | 'mock_concurrent_connection';

/**
 * A mock's script was used wrongly: a call past its end, a script left unused, an unmet input
 * expectation, or a second connection to a `strict` realtime mock.
 */
export class MockScriptError extends ParleyError {
  static {
    brand(MockScriptError, 'mock.MockScriptError');
  }

  constructor(code: MockScriptErrorCode, message: string) {
    super(code, message);
  }
}
