import { TwilioMediaStreamError } from './errors.js';

/** What Twilio says in `start`: the call, its stream, and the `<Parameter>`s of the TwiML's `<Stream>`. */
export interface MediaStreamStart {
  readonly streamSid: string;
  readonly callSid: string;
  readonly accountSid: string;
  /** `inbound`, `outbound`: the tracks this stream carries. */
  readonly tracks: readonly string[];
  /** The `<Parameter name value>` pairs of the `<Stream>` (untrusted unless your webhook set them). */
  readonly customParameters: Readonly<Record<string, string>>;
  /** Always µ-law 8 kHz mono on Twilio. */
  readonly mediaFormat: { readonly encoding: string; readonly sampleRate: number; readonly channels: number };
}

/** A message Twilio sends on a Media Streams WebSocket. */
export type MediaStreamInbound =
  | { readonly event: 'connected'; readonly protocol?: string; readonly version?: string }
  | { readonly event: 'start'; readonly streamSid: string; readonly start: MediaStreamStart }
  | {
      readonly event: 'media';
      readonly streamSid: string;
      readonly media: { readonly track?: string; readonly payload: string };
    }
  | { readonly event: 'mark'; readonly streamSid: string; readonly mark: { readonly name: string } }
  | { readonly event: 'dtmf'; readonly streamSid: string; readonly dtmf: { readonly digit: string } }
  | { readonly event: 'stop'; readonly streamSid: string };

/** A message the server sends to Twilio. */
export type MediaStreamOutbound =
  | { readonly event: 'media'; readonly streamSid: string; readonly media: { readonly payload: string } }
  | { readonly event: 'mark'; readonly streamSid: string; readonly mark: { readonly name: string } }
  | { readonly event: 'clear'; readonly streamSid: string };

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(detail: string): TwilioMediaStreamError {
  return new TwilioMediaStreamError('twilio_invalid_message', `A Media Streams message ${detail}.`);
}

function text(owner: Json, key: string, where: string): string {
  const value = owner[key];
  if (typeof value !== 'string') throw invalid(`has no string ${where}${key}`);
  return value;
}

function parseStart(message: Json): MediaStreamInbound {
  const start = message.start;
  if (!isObject(start)) throw invalid('of type start has no start object');
  const params = isObject(start.customParameters) ? start.customParameters : {};
  const format = isObject(start.mediaFormat) ? start.mediaFormat : {};
  return {
    event: 'start',
    streamSid: text(start, 'streamSid', 'start.'),
    start: {
      streamSid: text(start, 'streamSid', 'start.'),
      callSid: typeof start.callSid === 'string' ? start.callSid : '',
      accountSid: typeof start.accountSid === 'string' ? start.accountSid : '',
      tracks: Array.isArray(start.tracks) ? start.tracks.filter((t) => typeof t === 'string') : ['inbound'],
      customParameters: Object.fromEntries(
        Object.entries(params).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      ),
      mediaFormat: {
        encoding: typeof format.encoding === 'string' ? format.encoding : 'audio/x-mulaw',
        sampleRate: typeof format.sampleRate === 'number' ? format.sampleRate : 8000,
        channels: typeof format.channels === 'number' ? format.channels : 1,
      },
    },
  };
}

/**
 * Reads one Media Streams message. Throws {@link TwilioMediaStreamError} (`twilio_invalid_message`) for text that
 * is not JSON or a known event missing its fields; returns `undefined` for an event this version does not know
 * (Twilio may add some).
 */
export function parseMediaStreamMessage(data: string): MediaStreamInbound | undefined {
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    throw invalid('is not JSON');
  }
  if (!isObject(message)) throw invalid('is not a JSON object');
  switch (message.event) {
    case 'connected':
      return { event: 'connected' };
    case 'start':
      return parseStart(message);
    case 'media': {
      const media = message.media;
      if (!isObject(media)) throw invalid('of type media has no media object');
      return {
        event: 'media',
        streamSid: text(message, 'streamSid', ''),
        media: {
          payload: text(media, 'payload', 'media.'),
          ...(typeof media.track === 'string' && { track: media.track }),
        },
      };
    }
    case 'mark': {
      const mark = message.mark;
      if (!isObject(mark)) throw invalid('of type mark has no mark object');
      return {
        event: 'mark',
        streamSid: text(message, 'streamSid', ''),
        mark: { name: text(mark, 'name', 'mark.') },
      };
    }
    case 'dtmf': {
      const dtmf = message.dtmf;
      if (!isObject(dtmf)) throw invalid('of type dtmf has no dtmf object');
      return {
        event: 'dtmf',
        streamSid: text(message, 'streamSid', ''),
        dtmf: { digit: text(dtmf, 'digit', 'dtmf.') },
      };
    }
    case 'stop':
      return { event: 'stop', streamSid: typeof message.streamSid === 'string' ? message.streamSid : '' };
    default:
      if (typeof message.event !== 'string') throw invalid('has no event');
      return undefined;
  }
}
