// The crash-safety harness: starts the crash child (crash-child.ts) as a separate Node process on one database
// file, kills it with SIGKILL after a random (seeded) delay, checks the file (crash-check.ts) against what the child
// acknowledged, and repeats on the same file, so it grows and resumes many times.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkDatabase, mulberry32 } from './crash-check.ts';
import { nodeBundle } from '../../scripts/node-bundle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Bundles the crash child with esbuild (the app's Node bundle settings, scripts/node-bundle.mjs) into dist/crash/. */
export async function buildCrashChild(outfile = join(root, 'dist', 'crash', 'crash-child.cjs')): Promise<string> {
  const { build } = await import('esbuild');
  mkdirSync(dirname(outfile), { recursive: true });
  await build({
    entryPoints: [join(root, 'server', 'testing', 'crash-child.ts')],
    outfile,
    ...nodeBundle({ version: 'crash-test', format: 'cjs' }),
    absWorkingDir: root,
  });
  return outfile;
}

export interface CrashRunOptions {
  databasePath: string;
  /** The bundled child (buildCrashChild). */
  childScript: string;
  kills: number;
  seed: number;
  minDelayMs?: number;
  maxDelayMs?: number;
  /** Progress lines (one per kill when given). */
  log?: (line: string) => void;
}

export interface CrashFigures {
  seed: number;
  kills: number;
  /** Writes the child acknowledged (encounter events, encounters created, ledger entries). */
  acknowledged: number;
  /** Acknowledged writes found in the file after the kill that followed them. */
  found: number;
  lost: number;
  /** The most writes committed but not acknowledged at one kill (a kill between commit and ack): 0 or 1. */
  maxCommittedNotAcknowledged: number;
  /** Kills that landed between a commit and its acknowledgement. */
  killsBetweenCommitAndAck: number;
  integrityFailures: number;
  /** Every other broken promise, one sentence each. */
  problems: string[];
  refusals: number;
  eventRows: number;
  ledgerRows: number;
  injuryRows: number;
  encounters: number;
  elapsedMs: number;
}

interface ChildRun {
  lines: string[];
  stderr: string;
  /** True when the child stopped by itself instead of being killed. */
  exitedEarly: boolean;
}

/** A child that has loaded its modules and waits for "go" before it opens the database. */
interface WaitingChild {
  process: ChildProcessByStdio<Writable, Readable, Readable>;
  loaded: Promise<void>;
  closed: Promise<ChildRun>;
  /** Opens the database and starts writing; SIGKILL `delayMs` after the go (or after `ready` when `fromReady`). */
  go(delayMs: number, fromReady: boolean): Promise<ChildRun>;
}

function spawnChild(childScript: string, databasePath: string, seed: number): WaitingChild {
  const child = spawn(process.execPath, [childScript, '--db', databasePath, '--seed', String(seed)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let killed = false;
  let timer: NodeJS.Timeout | undefined;
  let onLoaded: () => void = () => undefined;
  let onReady: () => void = () => undefined;
  const loaded = new Promise<void>((resolve) => (onLoaded = resolve));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (stdout.startsWith('loaded\n')) onLoaded();
    if (stdout.includes('\nready ')) onReady();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.on('error', () => undefined);
  const closed = new Promise<ChildRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      onLoaded();
      // Only whole lines count: a line cut by the kill was never acknowledged.
      const lines = stdout.split('\n');
      lines.pop();
      resolve({ lines, stderr, exitedEarly: !killed });
    });
  });
  return {
    process: child,
    loaded,
    closed,
    go(delayMs, fromReady) {
      const arm = () => {
        timer ??= setTimeout(() => {
          killed = true;
          child.kill('SIGKILL');
        }, delayMs);
      };
      if (fromReady) onReady = arm;
      child.stdin.write('go\n');
      if (!fromReady) arm();
      return closed;
    },
  };
}

export async function runCrashTest(options: CrashRunOptions): Promise<CrashFigures> {
  const { databasePath, childScript, kills, seed, minDelayMs = 5, maxDelayMs = 400, log } = options;
  const random = mulberry32(seed);
  const started = Date.now();
  /** Per encounter: the newest acknowledged event count and the view hash the child reported with it. */
  const acked = new Map<string, { count: number; hash: string }>();
  const ledgerAcked = new Map<string, number>();
  /** What the file held at the last check; writes beyond it and beyond the acks are committed-not-acknowledged. */
  const verified = new Map<string, number>();
  const ledgerVerified = new Map<string, number>();
  const figures: CrashFigures = {
    seed, kills: 0, acknowledged: 0, found: 0, lost: 0, maxCommittedNotAcknowledged: 0, killsBetweenCommitAndAck: 0, integrityFailures: 0,
    problems: [], refusals: 0, eventRows: 0, ledgerRows: 0, injuryRows: 0, encounters: 0, elapsedMs: 0,
  };
  mkdirSync(dirname(databasePath), { recursive: true });
  // Each run's child gets its own seed derived from the run's, so one printed seed repeats the whole run.
  const childSeed = (run: number) => (Math.imul(seed, 2654435761) + run) >>> 0;
  // The next child loads its modules (about a second) while this one runs and the file is checked.
  const waiting: WaitingChild[] = [];
  try {
    for (let run = 1; run <= kills; run += 1) {
      const child = waiting.shift() ?? spawnChild(childScript, databasePath, childSeed(run));
      if (run < kills) waiting.push(spawnChild(childScript, databasePath, childSeed(run + 1)));
      await runOnce(run, child);
    }
  } finally {
    // A child still waiting for its go never opened the database.
    for (const child of waiting) child.process.kill('SIGKILL');
  }
  figures.elapsedMs = Date.now() - started;
  return figures;

  async function runOnce(run: number, child: WaitingChild): Promise<void> {
    const delayMs = Math.round(minDelayMs + random() * (maxDelayMs - minDelayMs));
    await child.loaded;
    // Most kills are timed from the child's `ready` line, so they land while it writes; every fifth from the go,
    // so kills also land while the database is being opened and its WAL recovered.
    const outcome = await child.go(delayMs, run % 5 !== 0);
    figures.kills += 1;
    if (outcome.exitedEarly) figures.problems.push(`Run ${run}: the child stopped by itself: ${outcome.stderr.trim() || 'no message'}`);

    // What this run acknowledged.
    const ackedThisRun: { kind: 'enc' | 'ledger'; id: string; count: number }[] = [];
    for (const line of outcome.lines) {
      const [kind, id, count, hash] = line.split(' ');
      if (kind === 'enc') {
        // A new encounter (count 0) is one write; so is each event.
        acked.set(id!, { count: Number(count), hash: hash! });
        ackedThisRun.push({ kind, id: id!, count: Number(count) });
      } else if (kind === 'ledger') {
        ledgerAcked.set(id!, Math.max(ledgerAcked.get(id!) ?? 0, Number(count)));
        ackedThisRun.push({ kind, id: id!, count: Number(count) });
      } else if (kind === 'refused') {
        figures.refusals += 1;
      }
    }
    const runAcks = ackedThisRun.length;
    figures.acknowledged += runAcks;

    const check = await checkDatabase(databasePath, verified);
    if (!check.integrity) figures.integrityFailures += 1;
    figures.problems.push(...check.problems.map((p) => `Run ${run}: ${p}`));

    // Every write acknowledged in this run is in the file.
    let lostNow = 0;
    for (const ack of ackedThisRun) {
      const have = ack.kind === 'enc' ? check.encounters.get(ack.id)?.eventCount : check.ledger.get(ack.id);
      if (have === undefined || have < ack.count) lostNow += 1;
    }
    figures.lost += lostNow;
    figures.found += runAcks - lostNow;
    if (lostNow) figures.problems.push(`Run ${run}: ${lostNow} acknowledged writes are missing after the kill.`);

    // Writes committed beyond the newest acknowledgement and beyond the previous check.
    let extra = 0;
    for (const [id, found] of check.encounters) {
      const known = Math.max(acked.get(id)?.count ?? -1, verified.get(id) ?? -1);
      extra += known < 0 ? found.eventCount + 1 : Math.max(0, found.eventCount - known);
      const ack = acked.get(id);
      // The resumed fight equals the state the child reported for its last acknowledged event.
      if (ack && found.eventCount === ack.count && found.viewHash !== null && found.viewHash !== ack.hash) {
        figures.problems.push(`Run ${run}: encounter ${id} resumed at event ${ack.count} differs from what the child reported there.`);
      }
    }
    for (const [id, seq] of check.ledger) extra += Math.max(0, seq - Math.max(ledgerAcked.get(id) ?? 0, ledgerVerified.get(id) ?? 0));
    figures.maxCommittedNotAcknowledged = Math.max(figures.maxCommittedNotAcknowledged, extra);
    if (extra > 0) figures.killsBetweenCommitAndAck += 1;
    if (extra > 1) figures.problems.push(`Run ${run}: ${extra} writes were committed but not acknowledged; at most one can be.`);

    for (const [id, found] of check.encounters) verified.set(id, found.eventCount);
    for (const [id, seq] of check.ledger) ledgerVerified.set(id, seq);
    Object.assign(figures, { eventRows: check.eventRows, ledgerRows: check.ledgerRows, injuryRows: check.injuryRows, encounters: check.encounters.size });
    log?.(`kill ${run}/${kills}: after ${delayMs} ms${run % 5 === 0 ? ' from the go' : ' from ready'}, ${runAcks} acknowledged, ${extra} committed not acknowledged, ${check.eventRows} events stored${check.problems.length || lostNow ? ' — PROBLEMS' : ''}`);
  }
}
