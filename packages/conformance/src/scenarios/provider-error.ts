import { Agent, ResponseRefusedError } from '@parley/core';
import { expect } from 'vitest';
import type { ConformanceScenario } from '../scenario.js';
import { cannotReportErrors, withSession } from '../support.js';

/**
 * Provider errors surface as error events with the provider's code; the session stays usable. Its premise is an error
 * that leaves the connection open (`recoverableErrors`).
 */
export const providerErrorScenario: ConformanceScenario = {
  name: 'provider errors surface as error events with their code; the session stays usable',
  requires: ['recoverableErrors'],
  exercises: ['responseRequests'],
  async run(harness) {
    const { emitError, refuseNextResponse } = harness;
    if (!emitError) throw cannotReportErrors(harness, 'emitError()');
    // Refused and answered responses: where the app can ask for one.
    const refuses = harness.model.capabilities.responseRequests;
    if (refuses && !refuseNextResponse) throw cannotReportErrors(harness, 'refuseNextResponse()');
    await withSession(harness, new Agent({ name: 'Sturdy' }), async (session, events) => {
      await session.connect();
      await emitError.call(harness, { code: 'server_error', message: 'Something broke on our side.' });
      const unsolicited = await events.waitFor('error');
      expect(unsolicited).toMatchObject({ source: 'provider', code: 'server_error' });
      expect(session.status).toBe('connected');
      if (!refuses || !refuseNextResponse) return;

      await refuseNextResponse.call(harness, { code: 'rate_limit_exceeded', message: 'Slow down.' });
      const refused = session.generateResponse();
      const error = await refused.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseRefusedError);
      expect(error).toMatchObject({
        providerCode: 'rate_limit_exceeded',
        clientRequestId: refused.clientRequestId,
      });
      const refusal = await events.waitFor('error', (e) => e.clientRequestId === refused.clientRequestId);
      expect(refusal.code).toBe('rate_limit_exceeded');

      expect(session.status).toBe('connected');
      await harness.respondWith({ output: [{ type: 'message', text: 'Back to normal.' }] });
      const responseId = await session.generateResponse();
      await events.waitFor('response_done', (e) => e.responseId === responseId);
      expect(session.history.at(-1)).toMatchObject({ text: 'Back to normal.' });
    });
  },
};
