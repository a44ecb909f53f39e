import { Readable } from 'node:stream';
import { main, type Output } from '@parley/cli';
import { expect, test } from 'vitest';

/** An Output that keeps every write separately, to see how the text arrived. */
function writes(): Output & { chunks: string[] } {
  const chunks: string[] = [];
  return {
    chunks,
    isTTY: false,
    line: (text = '') => chunks.push(`${text}\n`),
    write: (text) => chunks.push(text),
  };
}

test('parley chat streams the answer token by token as the model sends it, not as one line', async () => {
  const out = writes();
  const code = await main(['chat'], {
    out,
    err: writes(),
    stdin: Readable.from(['what about order A1001?\n']),
  });
  expect(code).toBe(0);
  const answer = 'Order A1001 (Noise-cancelling headphones, $42.50) was charged 2 times.';
  const start = out.chunks.indexOf(
    '  Assistant  ',
    out.chunks.findIndex((c) => c.includes('lookup_order returned')),
  );
  const streamed = out.chunks.slice(start + 1, start + 1 + Math.ceil(answer.length / 4));
  expect(streamed.join('')).toBe(answer);
  expect(streamed.length).toBeGreaterThan(10);
});
