export type {
  TwilioCallEndReason,
  TwilioCallEvent,
  TwilioCallEventOf,
  TwilioCallEventType,
} from './call-events.js';
export { TwilioMediaStreamError, TwilioWebhookError } from './errors.js';
export {
  type MediaStreamInbound,
  type MediaStreamOutbound,
  type MediaStreamStart,
  parseMediaStreamMessage,
} from './media-stream-messages.js';
export { TwilioMediaStreamServer, type TwilioMediaStreamServerOptions } from './media-stream-server.js';
export { TwilioCall, type TwilioCallOptions, type TwilioSessionSource } from './twilio-call.js';
export { type ConnectStreamTwimlOptions, connectStreamTwiml, escapeXml } from './twiml.js';
export { type TwilioWebhookParams, twilioSignature } from './webhook-signature.js';
export {
  type TwilioWebhookRequest,
  TwilioWebhookVerifier,
  type TwilioWebhookVerifierOptions,
} from './webhook-verifier.js';
