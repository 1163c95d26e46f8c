// gmw: the handler table from the command line. `gmw <area:verb> ['<json input>'] [--db <path>]`.
// Prints the result as JSON; a refusal is one sentence on stderr and exit code 1.
import { join } from 'node:path';
import { HANDLER_NAMES } from '../core/api/names.ts';
import { openApp } from './app.ts';
import { DB_FILE, defaultDataDir, resolveDatabasePath } from './paths.ts';

declare const __GMW_VERSION__: string;

const USAGE = `Usage: gmw <request> ['<json input>'] [--db <path>]

Requests:
${HANDLER_NAMES.map((n) => `  ${n}`).join('\n')}

Example: gmw campaigns:create '{"name":"The Drowned Vault","rulesetId":"enigma"}'`;

export async function main(argv: readonly string[]): Promise<number> {
  const positional = argv.filter((arg, i) => !arg.startsWith('--db') && argv[i - 1] !== '--db');
  const [name, json] = positional;
  if (!name || name === '--help' || name === 'help') {
    console.log(USAGE);
    return name ? 0 : 2;
  }
  let input: unknown = {};
  if (json !== undefined) {
    try {
      input = JSON.parse(json);
    } catch {
      console.error('The input is not valid JSON.');
      return 2;
    }
  }
  const databasePath = resolveDatabasePath(argv, process.env, join(defaultDataDir(), DB_FILE));
  let service;
  try {
    service = openApp({ databasePath, transport: 'cli', version: __GMW_VERSION__ });
  } catch (error) {
    console.error(`Could not open the database at ${databasePath}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  try {
    const envelope = await service.dispatch(name, input);
    if ('error' in envelope) {
      console.error(envelope.error.message);
      return 1;
    }
    console.log(JSON.stringify(envelope.result, null, 2));
    return 0;
  } finally {
    service.close();
  }
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
