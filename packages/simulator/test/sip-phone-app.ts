import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type IncomingSipCall,
  OpenAISipWebhookError,
  OpenAISipWebhookHandler,
  type SipCall,
} from '@parley/openai';

/** The app's webhook endpoint on loopback, and what it did with the calls the service announced. */
export interface PhoneApp {
  readonly webhookUrl: string;
  /** Every call the handler accepted (verified, and once however often it was delivered). */
  readonly calls: IncomingSipCall[];
  /** The answer of each call the app answered, in order. */
  readonly answered: Promise<SipCall<unknown>>[];
  /** Stops the endpoint. */
  close(): Promise<void>;
}

/**
 * A node:http server in front of `OpenAISipWebhookHandler`, as an app writes it: a verified call goes to `answer`,
 * which answers it (`answerSipCall`) or leaves it (`undefined`); a refused webhook gets the handler's status.
 */
export async function startPhoneApp(
  secret: string,
  answer: (call: IncomingSipCall) => Promise<SipCall<unknown>> | undefined,
): Promise<PhoneApp> {
  const calls: IncomingSipCall[] = [];
  const answered: Promise<SipCall<unknown>>[] = [];
  const handler = new OpenAISipWebhookHandler({
    secret,
    onCall: (call) => {
      calls.push(call);
      const answering = answer(call);
      if (answering) answered.push(answering);
    },
  });
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    try {
      await handler.handle({ headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(200).end();
    } catch (error) {
      response.writeHead(error instanceof OpenAISipWebhookError ? error.status : 500).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    webhookUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    calls,
    answered,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
