// Starts and stops the real web-mode server for a spec, as `npm run web` would, on a temporary database.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export interface RunningServer {
  launchUrl: string;
  origin: string;
  stop(): Promise<void>;
}

const root = join(import.meta.dirname, '..');

export function startServer(databasePath: string): Promise<RunningServer> {
  const child: ChildProcess = spawn(process.execPath, [join(root, 'scripts/start.mjs'), '--web', '--db', databasePath], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, GMW_DB: '' },
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`web mode did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/(http:\/\/127\.0\.0\.1:\d+)\/\?token=[\w-]+/);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        launchUrl: match[0],
        origin: match[1]!,
        // Stopping twice (a spec that restarts its server, then the fixture's afterAll) resolves at once.
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`web mode exited with ${code}:\n${output}`)));
  });
}
