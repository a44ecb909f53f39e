#!/usr/bin/env node
import { errorText } from '@parley/core/internal';
import { main } from './main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`parley: ${errorText(error)}\n`);
    process.exitCode = 1;
  },
);
