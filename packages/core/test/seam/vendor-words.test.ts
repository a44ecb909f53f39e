import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

/**
 * The core seam speaks no vendor's words: no file of packages/core/src names an OpenAI (Realtime or GPT-Live)
 * wire event, error code or field. Adapters translate; core only knows the neutral seam. The conformance
 * scenarios, which every provider runs, are held to the same rule.
 */

const PACKAGES = fileURLToPath(new URL('../../..', import.meta.url));
const SOURCES = ['core/src', 'conformance/src'].map((dir) => join(PACKAGES, dir));

/** Wire event names, as written in code and docs: quoted or in backticks. */
const WIRE_EVENT =
  /[`'"](?:conversation\.item|input_audio_buffer|output_audio_buffer|rate_limits|transcription_session|decision\.(?:create|item)|transport\.[a-z]+|response\.(?:output_[a-z_]+|content_part|function_call_arguments|create|created|cancel|done|completed|failed|incomplete|in_progress|audio|text|item)|session\.(?:update|updated|created|start|started|close|closed|input_audio|output_audio|input_transcript|output_transcript|commentary|thinking|instructions|delegation|usage\.updated))(?![\w(])/;

/**
 * Wire codes and fields: snake_case, so they never collide with the SDK's camelCase names (an OpenTelemetry
 * attribute such as `parley.interruption.item_id` is the SDK's own, hence not after a dot).
 */
const WIRE_WORDS = [
  // turn detection
  'server_vad',
  'semantic_vad',
  'prefix_padding_ms',
  'silence_duration_ms',
  'interrupt_response',
  'create_response',
  'idle_timeout_ms',
  // error codes
  'invalid_request_error',
  'conversation_already_has_active_response',
  'input_audio_buffer_commit_empty',
  'response_cancel_not_active',
  'item_truncate_invalid_item_id',
  'item_delete_invalid_item_id',
  'item_retrieve_invalid_item_id',
  'beta_api_shape_disabled',
  'missing_required_parameter',
  'unknown_parameter',
  'function_call_outputs_required',
  'credit_balance_exhausted',
  // fields
  'input_audio_buffer',
  'previous_item_id',
  'output_index',
  'content_index',
  'audio_start_ms',
  'audio_end_ms',
  'item_id',
  'call_id',
  'response_id',
  'event_id',
  'client_event_id',
  'expires_at',
  'client_secret',
  'output_modalities',
  'input_audio_format',
  'output_audio_format',
  'input_audio_transcription',
  'input_audio_noise_reduction',
  'turn_detection',
  'max_response_output_tokens',
  'status_details',
  'input_token_details',
  'output_token_details',
  'cached_tokens',
  'delegation_id',
  'offset_ms',
  'start_ms',
  'end_ms',
  'usage_ratio',
  'acknowledgement_delay_ms',
];
const WIRE_WORD = new RegExp(`(?<![\\w.])(?:${WIRE_WORDS.join('|')})\\b`);

/** Vendor product names that belong in an adapter's documentation, not in core's. */
const VENDOR_PRODUCT = /\bGPT-Live\b|\bgpt-realtime\b|\bRealtime API\b/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** `file:line: text` for every line of the checked sources that matches `pattern`. */
function findings(pattern: RegExp): string[] {
  return SOURCES.flatMap(sourceFiles).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        pattern.test(line) ? [`${relative(PACKAGES, file)}:${index + 1}: ${line.trim()}`] : [],
      ),
  );
}

describe('core and the conformance scenarios name no OpenAI wire vocabulary', () => {
  test('the check sees both packages', () => {
    expect(sourceFiles(SOURCES[0] as string).length).toBeGreaterThan(50);
    expect(sourceFiles(SOURCES[1] as string).length).toBeGreaterThan(10);
    expect(findings(/defineConformanceSuite/).length).toBeGreaterThan(0);
  });

  test('the patterns catch what they are for', () => {
    expect(WIRE_EVENT.test("type: 'response.create'")).toBe(true);
    expect(WIRE_EVENT.test('the `conversation.item.truncate` event')).toBe(true);
    expect(WIRE_EVENT.test('`session.thinking.append`')).toBe(true);
    expect(WIRE_EVENT.test("'session.usage.updated'")).toBe(true);
    expect(WIRE_EVENT.test('summed into `session.usage`')).toBe(false);
    expect(WIRE_EVENT.test('if (response.done) return;')).toBe(false);
    expect(WIRE_EVENT.test('call `session.close()` or `session.updateAgent()`')).toBe(false);
    expect(WIRE_EVENT.test("tracer.startSpan('realtime.response')")).toBe(false);
    expect(WIRE_WORD.test("type: 'server_vad'")).toBe(true);
    expect(WIRE_WORD.test('{ previous_item_id: null }')).toBe(true);
    expect(WIRE_WORD.test("'parley.interruption.item_id': itemId")).toBe(false);
    expect(WIRE_WORD.test('previousItemId')).toBe(false);
    expect(VENDOR_PRODUCT.test('Providers cap an append (GPT-Live: 500 tokens)')).toBe(true);
  });

  test('no wire event name', () => {
    expect(findings(WIRE_EVENT)).toEqual([]);
  });

  test('no wire code or field', () => {
    expect(findings(WIRE_WORD)).toEqual([]);
  });

  test('no vendor product name', () => {
    expect(findings(VENDOR_PRODUCT)).toEqual([]);
  });
});
