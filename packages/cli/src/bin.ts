#!/usr/bin/env node
import { configureLogging } from '@parley/core';
import { errorText } from '@parley/core/internal';
import { main } from './main.js';

// The commands report what went wrong in their own words; Parley's log lines would repeat it. PARLEY_LOG still wins.
if (process.env.PARLEY_LOG === undefined) configureLogging({ level: 'silent' });

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`parley: ${errorText(error)}\n`);
    process.exitCode = 1;
  },
);
