#!/usr/bin/env node
// gmw, the command line of GM Workstation (built to dist/cli/gmw.cjs; `npm run gmw -- …`, or `gmw` once linked).
// The commands live in server/cli/; `gmw --help` lists them with the exit codes.
import { main } from './cli/main.ts';

void main(process.argv.slice(2), {
  stdout: (text) => void process.stdout.write(text),
  stderr: (line) => void process.stderr.write(`${line}\n`),
  stderrIsTTY: Boolean(process.stderr.isTTY),
  env: process.env,
  cwd: process.cwd(),
}).then((code) => {
  process.exitCode = code;
});
