// A backup in web mode is copied on its worker thread, however the process was started: a process started as
// `node --input-type=module -e …` (as the tests start web mode) once handed that flag to the worker, whose CommonJS
// code then failed, and every backup fell back to the app's thread.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BackupSummary } from '../core/api/contract.ts';
import { tempDir, type TempDir } from './testing/temp-db.ts';
import { startWebMode, type WebProcess } from './testing/web-process.ts';

const root = join(import.meta.dirname, '..');
let dir: TempDir | undefined;
let web: WebProcess | undefined;
beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--node-only', '--quiet'], { cwd: root, stdio: 'inherit' });
}, 120_000);
afterEach(async () => {
  if (web && web.child.exitCode === null) {
    web.child.kill('SIGTERM');
    await web.ended;
  }
  web = undefined;
  dir?.remove();
});

describe('a backup in web mode started with --input-type=module', () => {
  it('is copied on the worker thread, not on the app\'s', async () => {
    dir = tempDir('gmw-backup-worker-');
    web = await startWebMode(dir.file());
    await web.call('campaigns:create', { name: 'The Vault', rulesetId: 'enigma' });
    const backup = await web.call<BackupSummary>('backups:create');
    expect(backup.name).toBeTruthy();
    expect(web.output()).not.toMatch(/backup on a worker thread failed/);
  }, 60_000);
});
