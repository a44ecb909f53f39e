import type { DtmfDigit } from './seam.js';

const DIGITS: ReadonlySet<string> = new Set<DtmfDigit>([
  '0',
  '1',
  '2',
  '3',
  '4',
  '5',
  '6',
  '7',
  '8',
  '9',
  '*',
  '#',
  'A',
  'B',
  'C',
  'D',
]);

/** Whether `value` is a DTMF key: `0`–`9`, `*`, `#` or `A`–`D`. */
export function isDtmfDigit(value: unknown): value is DtmfDigit {
  return typeof value === 'string' && DIGITS.has(value);
}
