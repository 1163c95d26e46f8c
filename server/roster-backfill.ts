// Events stored before version 7 have no roster change (migration 0007), and a fight with one such event has its
// round summary built by replaying every event through the machine: the first export of a 10,000-event fight took
// about 230–390 ms that way instead of 110–210 ms. The desktop app and web mode fill those changes in the
// background, a few milliseconds at a time between GM requests: each old fight is replayed once, from its first
// event, and each old event is given the change the app would have stored when it was written (the view before it,
// the view after).
//
// Safe beside the GM's writes: a chunk reads, steps and writes in one synchronous run (no request runs inside it),
// and between chunks an undo can only take events off the end of a fight. A row still without a change was never
// taken away (the app stores a change with every event it writes, redo included), so no event before it was either:
// the replay that reached it stepped the events it follows as they still are. Rows are read afresh by each chunk,
// and a change is written only where none is (the GM's own writes are never overwritten). A fight whose events no
// longer replay (edited on disk, or refused by today's rules) is left as it is; its exports replay it and say where
// it stops.
import { EncounterEngine } from '../core/encounter/kernel.ts';
import type { GmEvent } from '../core/encounter/types.ts';
import { rosterChange } from '../core/export/summary.ts';
import { prepared, writeTransaction, type Db } from '../db/connection.ts';
import { readInput } from '../db/encounters.ts';
import { rulesFor } from './encounter-store.ts';

/** Events read from the file at a time while a fight is replayed. */
const PAGE = 64;

interface Job {
  encounterId: string;
  engine: EncounterEngine;
  /** The last event read and stepped. */
  seq: number;
  /** The newest event without a change when the job began: nothing after it needs one. */
  last: number;
  /** Events read, not yet stepped. */
  queue: { seq: number; payload: string; missing: number }[];
}

export class RosterBackfill {
  private db: Db | null = null;
  private job: Job | null = null;
  /** Fights are taken in the order of their ids; every fight up to this one is done or left as it is. */
  private after = '';
  /** Events given a change since this backfill began, and fights of the current file left as they are. */
  filled = 0;
  readonly skipped: string[] = [];

  /**
   * Works on `db` for about `budgetMs` (one event at least), writing what it found in one transaction; returns true
   * when no event is left without a change. A new connection (a restored backup) starts it over.
   */
  run(db: Db, budgetMs: number): boolean {
    if (db !== this.db) {
      this.db = db;
      this.job = null;
      this.after = '';
      this.skipped.length = 0;
    }
    const deadline = performance.now() + budgetMs;
    const changes: [roster: string, encounterId: string, seq: number][] = [];
    let done = false;
    do {
      const job = this.job ?? (this.job = this.nextJob(db));
      if (!job) {
        done = true;
        break;
      }
      if (!job.queue.length && job.seq < job.last) {
        job.queue = (prepared(db, 'SELECT seq, payload_json AS payload, roster_json IS NULL AS missing FROM encounter_events WHERE encounter_id = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?')
          .all(job.encounterId, job.seq, job.last, PAGE) as Job['queue']).reverse();
      }
      const step = job.queue.pop();
      if (!step || step.seq !== job.seq + 1) {
        // Every event it needed is stepped, or one is missing (taken away by an undo since): the fight is done.
        this.finish(job);
        continue;
      }
      try {
        const before = job.engine.view();
        job.engine.step(JSON.parse(step.payload) as GmEvent);
        job.seq = step.seq;
        if (step.missing) changes.push([JSON.stringify(rosterChange(job.engine.rules, before, job.engine.view())), job.encounterId, step.seq]);
      } catch {
        this.skipped.push(job.encounterId);
        this.finish(job);
      }
    } while (performance.now() < deadline);
    // Read again by the next chunk: between two chunks the GM may undo past them and write others in their place.
    if (this.job) this.job.queue = [];
    if (changes.length) {
      writeTransaction(db, () => {
        const fill = prepared(db, 'UPDATE encounter_events SET roster_json = ? WHERE encounter_id = ? AND seq = ? AND roster_json IS NULL');
        for (const change of changes) this.filled += fill.run(...change).changes;
      });
    }
    return done;
  }

  private finish(job: Job): void {
    this.after = job.encounterId;
    this.job = null;
  }

  /** The next fight with an event that has no change (through the partial index of migration 0009). */
  private nextJob(db: Db): Job | null {
    for (;;) {
      const next = prepared(db, 'SELECT encounter_id AS id FROM encounter_events WHERE roster_json IS NULL AND encounter_id > ? ORDER BY encounter_id LIMIT 1').get(this.after) as { id: string } | undefined;
      if (!next) return null;
      const head = prepared(db, 'SELECT e.ruleset_id AS rulesetId, (SELECT max(seq) FROM encounter_events WHERE encounter_id = e.id AND roster_json IS NULL) AS last FROM encounters e WHERE e.id = ?')
        .get(next.id) as { rulesetId: string; last: number } | undefined;
      try {
        if (!head) throw new Error('events without an encounter');
        const engine = EncounterEngine.create(rulesFor(head.rulesetId), readInput(db, next.id));
        return { encounterId: next.id, engine, seq: 0, last: head.last, queue: [] };
      } catch {
        // Rules this version cannot run, or an input it cannot read: left as it is, like a fight that no longer replays.
        this.skipped.push(next.id);
        this.after = next.id;
      }
    }
  }
}

export interface BackfillTiming {
  /** After the app opens, before the first chunk (its first screen comes first). */
  delayMs?: number;
  /** How long one chunk works: the longest a GM request can wait for it. */
  budgetMs?: number;
  /** Between two chunks. */
  pauseMs?: number;
}

export interface BackgroundBackfill {
  /** Looks again (after the database was swapped for a restored backup). */
  wake(): void;
  stop(): void;
}

/** What the desktop app and web mode use. */
export const BACKFILL_TIMING = { delayMs: 2000, budgetMs: 3, pauseMs: 5 } as const satisfies BackfillTiming;

/**
 * Runs a RosterBackfill on `db()` in chunks while `busy()` is false; it stops when nothing is left, until woken.
 * `wrote` is called after each chunk that wrote: the app counts it towards its next checkpoint, which then runs in
 * a task of its own instead of inside a chunk's commit (SQLite's own, every 1,000 WAL pages, about 40 chunks).
 */
export function backfillInBackground(db: () => Db, busy: () => boolean, timing: BackfillTiming = {}, wrote: () => void = () => {}): BackgroundBackfill {
  const { delayMs, budgetMs, pauseMs } = { ...BACKFILL_TIMING, ...timing };
  const backfill = new RosterBackfill();
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const schedule = (ms: number) => {
    if (stopped || timer) return;
    timer = setTimeout(tick, ms);
    timer.unref();
  };
  const tick = () => {
    timer = null;
    if (busy()) return schedule(pauseMs);
    let done: boolean;
    const filled = backfill.filled;
    try {
      done = backfill.run(db(), budgetMs);
      if (backfill.filled !== filled) wrote();
    } catch (error) {
      // A chunk that cannot be written changes nothing; the next launch tries again.
      console.error('[gmw] filling in the roster changes of old events failed:', error);
      return;
    }
    if (!done) return schedule(pauseMs);
    const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
    if (backfill.filled || backfill.skipped.length) {
      const left = backfill.skipped.length ? `; ${plural(backfill.skipped.length, 'fight no longer replays and was left as it is', 'fights no longer replay and were left as they are')}` : '';
      console.error(`[gmw] roster changes filled in for ${plural(backfill.filled, 'event', 'events')} stored before version 7${left}.`);
    }
  };
  schedule(delayMs);
  return {
    wake: () => schedule(delayMs),
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
