// The processes a UI benchmark measures against: web mode on a database, and the bare baseline server.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { codeCacheFile, WEB_SERVER_BUNDLE } from '../../scripts/web-server.mjs';
import { root } from './common.mjs';


/** Spawns a server process and resolves with the address it prints, and when it was spawned (epoch ms). */
export function startProcess(args, pattern, env = {}) {
  const spawnedAt = Date.now();
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args[0]} did not start:\n${output}`)), 120_000);
    const onData = (chunk) => {
      output += chunk.toString();
      const match = output.match(pattern);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stderr.off('data', onData);
      resolve({
        url: match[0], origin: match[1], spawnedAt,
        stop: () => new Promise((done) => {
          if (child.exitCode !== null) return done();
          child.once('exit', () => done());
          child.kill('SIGTERM');
        }),
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}:\n${output}`)));
  });
}

/** Web mode as `npm run web` starts it; `codeCache`: whether a code cache an earlier start kept was beside the server. */
export async function startWeb(databasePath) {
  const codeCache = existsSync(codeCacheFile(WEB_SERVER_BUNDLE));
  const web = await startProcess([join(root, 'scripts/start.mjs'), '--web', '--db', databasePath], /(http:\/\/127\.0\.0\.1:\d+)\/\?token=[\w-]+/, { GMW_DB: '' });
  return { ...web, codeCache };
}
export const startBaseline = () => startProcess([join(root, 'bench/ui/baseline-server.mjs')], /(http:\/\/127\.0\.0\.1:\d+)\//);
