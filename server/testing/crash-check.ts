// What the crash-safety harness checks on a database file after a process writing to it was killed: the file is
// sound, every encounter's head matches its events, snapshots and ledger sequences have no holes, injuries point at
// events that exist, and each encounter the app resumes equals a fresh replay of its stored events.
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { EncounterEngine } from '../../core/encounter/kernel.ts';
import type { EncounterInput, EncounterView, GmEvent } from '../../core/encounter/types.ts';
import { SNAPSHOT_EVERY } from '../../db/encounters.ts';
import { checkDatabaseHealth, judgeWal, markDatabaseClosed } from '../../db/health.ts';
import { openApp } from '../app.ts';
import { rulesFor } from '../encounter-store.ts';

/** A small seeded generator (mulberry32), so a run's choices and kill delays can be repeated from its seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** JSON with object keys sorted, so two equal views give the same text whatever order their keys were built in. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

export function viewHash(view: EncounterView): string {
  return createHash('sha256').update(canonicalJson(view)).digest('hex').slice(0, 16);
}

export interface EncounterFound {
  /** encounters.event_count, which equals the number of stored events when the check passes. */
  eventCount: number;
  /** Hash of the view `encounters:get` returns after reopening; null when the encounter was not replayed. */
  viewHash: string | null;
}

export interface DatabaseCheck {
  integrity: boolean;
  /** Every broken promise, one sentence each (empty when the file is consistent). */
  problems: string[];
  encounters: Map<string, EncounterFound>;
  /** Highest ledger seq per campaign. */
  ledger: Map<string, number>;
  eventRows: number;
  ledgerRows: number;
  injuryRows: number;
}

interface EncounterFacts {
  id: string;
  ruleset_id: string;
  input_json: string;
  phase: string;
  round: number;
  event_count: number;
  rows: number;
  first: number | null;
  last: number | null;
}

/**
 * Checks the file. `replayed` maps encounter ids to the event count already verified by replay; encounters whose
 * count is unchanged are not replayed again (pass an empty map to replay everything).
 */
export async function checkDatabase(databasePath: string, replayed: ReadonlyMap<string, number> = new Map()): Promise<DatabaseCheck> {
  const problems: string[] = [];
  const encounters = new Map<string, EncounterFound>();
  const ledger = new Map<string, number>();
  const toReplay: EncounterFacts[] = [];
  // The app's own start-up check must find a killed writer's file sound (its -wal is still beside it), never damaged.
  const health = checkDatabaseHealth(databasePath);
  if (health.state === 'damaged') problems.push(`The start-up check calls the file damaged after the kill: ${health.sentence} (${health.detail})`);
  // …and must take the killed writer's -wal for the file's own, never for another file's (db/health.ts judgeWal).
  const wal = judgeWal(databasePath);
  if (wal.state === 'foreign') problems.push(`The start-up check calls the killed writer's -wal another file's: ${wal.detail}`);
  const raw = new Database(databasePath);
  let counts: { events: number; entries: number; injuries: number };
  try {
    const integrity = raw.pragma('integrity_check') as { integrity_check: string }[];
    if (integrity.length !== 1 || integrity[0]!.integrity_check !== 'ok') {
      return { integrity: false, problems: [...problems, `integrity_check: ${integrity.map((r) => r.integrity_check).join('; ')}`], encounters, ledger, eventRows: 0, ledgerRows: 0, injuryRows: 0 };
    }
    const foreign = raw.pragma('foreign_key_check') as { table: string }[];
    if (foreign.length) problems.push(`foreign_key_check found ${foreign.length} dangling references (first in ${foreign[0]!.table}).`);

    const facts = raw.prepare(`SELECT e.id, e.ruleset_id, e.input_json, e.phase, e.round, e.event_count,
        (SELECT count(*) FROM encounter_events v WHERE v.encounter_id = e.id) AS rows,
        (SELECT min(seq) FROM encounter_events v WHERE v.encounter_id = e.id) AS first,
        (SELECT max(seq) FROM encounter_events v WHERE v.encounter_id = e.id) AS last
      FROM encounters e`).all() as EncounterFacts[];
    const snapshotsOf = raw.prepare('SELECT seq FROM encounter_snapshots WHERE encounter_id = ? ORDER BY seq');
    for (const f of facts) {
      encounters.set(f.id, { eventCount: f.event_count, viewHash: null });
      // No half-written append: the head counts exactly the stored events, numbered 1..n.
      if (f.rows !== f.event_count) problems.push(`Encounter ${f.id}: head says ${f.event_count} events, ${f.rows} are stored.`);
      if (f.rows > 0 && (f.first !== 1 || f.last !== f.rows)) problems.push(`Encounter ${f.id}: event seqs run ${f.first}..${f.last} over ${f.rows} rows.`);
      const snapshots = (snapshotsOf.all(f.id) as { seq: number }[]).map((s) => s.seq);
      const expected = Array.from({ length: Math.floor(f.event_count / SNAPSHOT_EVERY) }, (_, i) => (i + 1) * SNAPSHOT_EVERY);
      // A snapshot is written after its append's reply (server/app.ts): a kill in between leaves it out, and a resume
      // replays the events instead. One at any other seq, or past the head, is never the app's.
      if (snapshots.some((seq) => !expected.includes(seq))) problems.push(`Encounter ${f.id}: snapshots at [${snapshots.join(', ')}], expected [${expected.join(', ')}] for ${f.event_count} events.`);
      if (replayed.get(f.id) !== f.event_count) toReplay.push(f);
    }

    const ledgers = raw.prepare('SELECT campaign_id, count(*) AS n, min(seq) AS first, max(seq) AS last FROM ledger_entries GROUP BY campaign_id').all() as { campaign_id: string; n: number; first: number; last: number }[];
    for (const l of ledgers) {
      ledger.set(l.campaign_id, l.last);
      if (l.first !== 1 || l.last !== l.n) problems.push(`Campaign ${l.campaign_id}: ledger seqs run ${l.first}..${l.last} over ${l.n} entries.`);
    }

    const orphans = raw.prepare(`SELECT i.id, i.source_encounter_id, i.source_seq FROM injuries i
      WHERE i.source_encounter_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM encounter_events v WHERE v.encounter_id = i.source_encounter_id AND v.seq = i.source_seq)`).all() as { id: string; source_seq: number }[];
    for (const o of orphans) problems.push(`Injury ${o.id} points at event ${o.source_seq}, which is not stored.`);
    const ledgerOrphans = raw.prepare(`SELECT i.id, i.ledger_seq FROM injuries i WHERE i.ledger_seq IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM ledger_entries l WHERE l.campaign_id = i.campaign_id AND l.seq = i.ledger_seq)`).all() as { id: string; ledger_seq: number }[];
    for (const o of ledgerOrphans) problems.push(`Injury ${o.id} points at ledger entry ${o.ledger_seq}, which is not stored.`);

    counts = raw.prepare(`SELECT (SELECT count(*) FROM encounter_events) AS events, (SELECT count(*) FROM ledger_entries) AS entries,
      (SELECT count(*) FROM injuries) AS injuries`).get() as typeof counts;

    // A fresh replay of every stored event from the start, without snapshots or the app's warm engines.
    const eventsOf = raw.prepare('SELECT payload_json FROM encounter_events WHERE encounter_id = ? ORDER BY seq');
    for (const f of toReplay) {
      const events = (eventsOf.all(f.id) as { payload_json: string }[]).map((r) => JSON.parse(r.payload_json) as GmEvent);
      const fresh = EncounterEngine.resume(rulesFor(f.ruleset_id), JSON.parse(f.input_json) as EncounterInput, undefined, events).view();
      encounters.get(f.id)!.viewHash = viewHash(fresh);
      if (fresh.phase !== f.phase || fresh.round !== f.round) problems.push(`Encounter ${f.id}: head says ${f.phase} round ${f.round}, replay gives ${fresh.phase} round ${fresh.round}.`);
    }
  } finally {
    raw.close();
    // This connection closed cleanly (SQLite folded the WAL into the file and deleted it), as the CLI would.
    markDatabaseClosed(databasePath);
  }

  // The app's own resume (newest snapshot + the events after it) must give the same view as the fresh replay.
  if (toReplay.length) {
    const app = openApp({ databasePath, transport: 'cli', version: 'crash-check' });
    try {
      for (const f of toReplay) {
        const envelope = await app.dispatch('encounters:get', { id: f.id });
        if ('error' in envelope) {
          problems.push(`Encounter ${f.id}: the app cannot open it: ${envelope.error.message}`);
          continue;
        }
        const resumed = viewHash((envelope.result as { view: EncounterView }).view);
        const found = encounters.get(f.id)!;
        if (resumed !== found.viewHash) problems.push(`Encounter ${f.id}: the resumed view differs from a fresh replay of its ${f.event_count} events.`);
      }
    } finally {
      app.close();
    }
  }
  return { integrity: true, problems, encounters, ledger, eventRows: counts.events, ledgerRows: counts.entries, injuryRows: counts.injuries };
}
