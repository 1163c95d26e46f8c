// Web mode as a real process (the built dist/server/web.cjs, as `npm run web` loads it), for tests that kill it: its address, one call over
// HTTP, and a kill.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..', '..');

export interface WebProcess {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  call<T>(name: string, input?: unknown): Promise<T>;
  /** Resolves when the process has ended. */
  ended: Promise<void>;
}

/**
 * Starts web mode on `databasePath` and resolves once it printed its address; `bundle`, another copy of the built
 * server (dist/server/web.cjs by default), loaded the same way.
 */
export function startWebMode(databasePath: string, bundle?: string): Promise<WebProcess> {
  const args = JSON.stringify(['--db', databasePath]);
  const script = `const { runWebMode } = await import(${JSON.stringify(pathToFileURL(join(root, 'scripts/web-server.mjs')).href)}); await runWebMode(${args}${bundle ? `, ${JSON.stringify(bundle)}` : ''});`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const seen = () => {
      const address = /http:\/\/\S+\?token=(\S+)/.exec(output);
      if (!address) return;
      const url = new URL(address[0]);
      const token = address[1]!;
      resolve({
        child,
        output: () => output,
        ended,
        async call<T>(name: string, input: unknown = {}): Promise<T> {
          const response = await fetch(`${url.origin}/api/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(input) });
          const envelope = (await response.json()) as { result?: T; error?: { message: string } };
          if (envelope.error) throw new Error(`${name}: ${envelope.error.message}`);
          return envelope.result as T;
        },
      });
    };
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      seen();
    });
    child.stderr!.on('data', (chunk) => (output += chunk));
    void ended.then(() => reject(new Error(`web mode ended before it printed its address:\n${output}`)));
  });
}
