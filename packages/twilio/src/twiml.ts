import { UserError } from '@parley/core';
import { optionKeys } from '@parley/core/internal';

/** Options of {@link connectStreamTwiml}. */
export interface ConnectStreamTwimlOptions {
  /** The `wss://` URL of the Media Streams endpoint (a {@link TwilioMediaStreamServer}'s path on your host). */
  url: string;
  /** `<Parameter>`s: they arrive in the stream's `start.customParameters`. */
  parameters?: Readonly<Record<string, string>>;
  /** Something Twilio says before connecting (`<Say>`), e.g. a recording notice. */
  say?: string;
}

const OPTIONS = optionKeys<ConnectStreamTwimlOptions>('ConnectStreamTwimlOptions', {
  url: true,
  parameters: true,
  say: true,
});

/** Escapes text for an XML attribute or element. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&apos;',
  );
}

/**
 * The TwiML that answers an incoming call by connecting it to a bidirectional Media Stream
 * (`<Connect><Stream>`), with custom parameters; every value is XML-escaped.
 */
export function connectStreamTwiml(options: ConnectStreamTwimlOptions): string {
  OPTIONS.check(options);
  if (typeof options.url !== 'string' || !/^wss:\/\/[^/\s]+/.test(options.url)) {
    throw new UserError(
      `connectStreamTwiml needs the stream's url as wss://host/path (Twilio connects over TLS only), got ${String(options.url)}.`,
      { code: 'invalid_option' },
    );
  }
  if (/[?#]/.test(options.url)) {
    throw new UserError(
      `connectStreamTwiml: Twilio's <Stream> url takes no query string (${options.url}); pass values as parameters instead.`,
      { code: 'invalid_option' },
    );
  }
  const parameters = Object.entries(options.parameters ?? {})
    .map(([name, value]) => {
      if (typeof value !== 'string') {
        throw new UserError(`connectStreamTwiml parameter '${name}' must be a string, got ${typeof value}.`, {
          code: 'invalid_option',
        });
      }
      return `<Parameter name="${escapeXml(name)}" value="${escapeXml(value)}"/>`;
    })
    .join('');
  const say = options.say === undefined ? '' : `<Say>${escapeXml(options.say)}</Say>`;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<Response>${say}<Connect><Stream url="${escapeXml(options.url)}">${parameters}</Stream></Connect></Response>`
  );
}
