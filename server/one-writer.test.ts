// One writer per database: the app takes the process lock when asked (web mode, desktop, CLI), a second opening
// is refused with a sentence naming the holder, and closing lets the next one in.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { lockPathFor } from '../db/lock.ts';
import { tempDir, type TempDir } from '../db/testing/temp-db.ts';
import { openApp, type AppService } from './app.ts';

let dir: TempDir | null = null;
const opened: AppService[] = [];
afterEach(() => {
  for (const app of opened.splice(0)) app.close();
  dir?.remove();
  dir = null;
});

describe('one writer', () => {
  it('refuses a second process kind on a locked database, and lets it in once the first closes', async () => {
    dir = tempDir();
    const databasePath = dir.file();
    const web = openApp({ databasePath, transport: 'web', version: 'test', lock: 'web' });
    opened.push(web);
    expect(existsSync(lockPathFor(databasePath))).toBe(true);
    expect(() => openApp({ databasePath, transport: 'cli', version: 'test', lock: 'cli' })).toThrow(
      `Another GM Workstation (web mode, pid ${process.pid}) is using this database; close it first.`,
    );
    expect(await web.dispatch('campaigns:list', {})).toEqual({ result: [] });
    opened.pop()!.close();
    expect(existsSync(lockPathFor(databasePath))).toBe(false);
    const cli = openApp({ databasePath, transport: 'cli', version: 'test', lock: 'cli' });
    opened.push(cli);
    expect(await cli.dispatch('campaigns:list', {})).toEqual({ result: [] });
  });

  it('opens without a lock when none is asked for (tests, tools)', () => {
    dir = tempDir();
    opened.push(openApp({ databasePath: dir.file(), transport: 'cli', version: 'test' }));
    expect(existsSync(lockPathFor(dir.file()))).toBe(false);
  });
});
