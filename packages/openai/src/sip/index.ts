export {
  type LiveSipSession,
  OpenAISipCallControl,
  type OpenAISipCallControlOptions,
  type RealtimeSipSession,
  type SipCallTarget,
} from './call-control.js';
export { OpenAISipWebhookError, type OpenAISipWebhookErrorCode, SipCallOptionError } from './errors.js';
export {
  type IncomingLiveSipCall,
  type IncomingRealtimeSipCall,
  type IncomingSipCall,
  type IncomingSipCallBase,
  type SipHeader,
  sipHeader,
} from './incoming-call.js';
export { type AnswerSipCallOptions, answerSipCall, type SipCall } from './sideband-session.js';
export {
  OpenAISipWebhookHandler,
  type OpenAISipWebhookHandlerOptions,
  type OpenAISipWebhookOutcome,
  type OpenAISipWebhookRequest,
} from './webhook-handler.js';
