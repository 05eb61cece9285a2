#!/usr/bin/env node
// Plain JavaScript so that the bin entry needs no loader: Node strips the types of the .ts
// modules it imports (Node >= 24, see package.json "engines").
import { run } from '../src/cli/main.ts';

process.exitCode = await run(process.argv.slice(2));
