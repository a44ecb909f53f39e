import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { formatReport, runConformance } from '@parley/conformance';
import { expect, test } from 'vitest';
import { renderMatrix, replaceMatrix } from './matrix.js';
import { MATRIX_COLUMNS } from './runs.js';

const PAGE = fileURLToPath(new URL('../../docs/capabilities.md', import.meta.url));

test('docs/capabilities.md shows the matrix the conformance runs produce (`pnpm capabilities` regenerates it)', async () => {
  // Every column at once (each scenario has its own harness: an in-memory mock or a simulator on its own port); the
  // runs of one column one after another, so the in-process mock runs do not starve the simulators' paced audio.
  const reports = await Promise.all(
    MATRIX_COLUMNS.map(async (column) => {
      const columnReports = [];
      for (const run of column.runs)
        columnReports.push(
          await runConformance(run.create, {
            name: run.name,
            ...(run.scenarios && { scenarios: run.scenarios }),
          }),
        );
      return columnReports;
    }),
  );
  for (const report of reports.flat()) {
    if (!report.ok) throw new Error(formatReport(report));
  }
  const page = readFileSync(PAGE, 'utf8');
  const generated = replaceMatrix(page, renderMatrix(MATRIX_COLUMNS, reports));
  if (process.env.UPDATE_CAPABILITIES === '1') writeFileSync(PAGE, generated);
  else expect(page, 'docs/capabilities.md is out of date: run `pnpm capabilities`').toBe(generated);
}, 120_000);
