import { codeRegion } from '@parley/conformance';
import { expect, test } from 'vitest';

test('codeRegion returns the marked code of a file, un-indented one level', async () => {
  // #region sample
  const answer = 6 * 7;
  if (answer > 0) {
    expect(answer).toBe(42);
  }
  // #endregion sample
  expect(await codeRegion(import.meta.url, 'sample')).toBe(
    ['const answer = 6 * 7;', 'if (answer > 0) {', '  expect(answer).toBe(42);', '}'].join('\n'),
  );
});

test('a region without its markers is a UserError that names them', async () => {
  await expect(codeRegion(import.meta.url, 'absent')).rejects.toMatchObject({
    code: 'code_region_missing',
    message: expect.stringContaining('no "// #region absent'),
  });
});
