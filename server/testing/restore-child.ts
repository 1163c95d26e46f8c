// The process the restore kill test (server/restore.test.ts) kills: it opens the app on a database as web mode
// does and restores one backup through the handler table. It says on stdout, each with a synchronous write:
//   restoring              (the app is open; the restore is asked for now)
//   restored <ms>          (the restore's reply came, after <ms> milliseconds)
//   failed <sentence>
import { writeSync } from 'node:fs';
import { openApp } from '../app.ts';

function argument(name: string): string {
  const at = process.argv.indexOf(name);
  if (at < 0 || !process.argv[at + 1]) throw new Error(`${name} is missing`);
  return process.argv[at + 1]!;
}

const say = (line: string) => writeSync(1, `${line}\n`);

async function main(): Promise<void> {
  const app = openApp({ databasePath: argument('--db'), transport: 'web', version: 'restore-test' });
  say('restoring');
  const started = performance.now();
  const answer = await app.dispatch('backups:restore', { name: argument('--backup') });
  if ('error' in answer) say(`failed ${answer.error.message}`);
  else say(`restored ${Math.round(performance.now() - started)}`);
  app.close();
}

main().catch((error: unknown) => {
  say(`failed ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
