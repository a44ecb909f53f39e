import type { Output } from '@parley/cli';

/** An Output that keeps what was written, as lines. */
export function capture(): Output & { lines: string[]; text(): string } {
  let buffer = '';
  return {
    isTTY: false,
    get lines() {
      return buffer.replace(/\n$/, '').split('\n');
    },
    line: (text = '') => {
      buffer += `${text}\n`;
    },
    write: (text) => {
      buffer += text;
    },
    text: () => buffer,
  };
}
