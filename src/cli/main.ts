#!/usr/bin/env node
/** The `chainlet` command (src/cli/program.ts); the build replaces this entry with one that loads the bundle. */
import { runCli } from './program.js';

await runCli(process.argv);
