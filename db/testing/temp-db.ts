// Tests use real SQLite files in a temporary folder, never a mock.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempDir {
  path: string;
  file(name?: string): string;
  remove(): void;
}

export function tempDir(prefix = 'gmw-test-'): TempDir {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return {
    path,
    file: (name = 'gm-workstation.sqlite') => join(path, name),
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}
