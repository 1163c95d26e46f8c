// Export: an encounter of 10,000 varied events (attacks, damage, healing, Mortal Peril, many rounds) to Markdown,
// HTML and JSON through `exports:encounter`, beside JSON.stringify of the same stored events; and the same at
// 100,000 events, reported without a target. Two figures per format at 10,000 events: an app that keeps the
// encounter's summary (it has exported it or shown its log: the summary then takes only the events since), and the
// first export after the app opens, which adds up what every event changed in the roster as stored with it; and,
// reported without a target, that first export for the same fight as a version before 7 stored it, which replays
// every event through the machine; then that fight's roster changes filled in as the desktop app and web mode do in
// the background (the time it works, its longest chunk), and its first exports after (held to the target).
import { openDatabase, type Db } from '../db/connection.ts';
import { CHECKPOINT_EVERY } from '../server/app.ts';
import { BACKFILL_TIMING, RosterBackfill } from '../server/roster-backfill.ts';
import { generateFight, seeds } from './fight.ts';
import { benchResult, type BenchOptions, type BenchResult } from './result.ts';
import { databaseIn, ok, open, prepareCampaign, withDatabase, writeEvents } from './store.ts';
import { median, sample } from './timing.ts';

const FORMATS = [['md', 'Markdown'], ['html', 'HTML'], ['json', 'JSON']] as const;

/** A campaign whose encounters hold the first `sizes[i]` events of one generated Enigma fight of six combatants. */
async function exportFixture(options: BenchOptions, sizes: readonly number[]): Promise<{ databasePath: string; encounters: { id: string; events: number }[] }> {
  const databasePath = databaseIn(options.folder, 'export');
  const app = open(databasePath);
  const { campaignId, characterIds } = await prepareCampaign(app, 'enigma', 3, 3);
  const ids = characterIds.map((_, i) => characterIds[i % 2 === 0 ? i / 2 : 3 + (i - 1) / 2]!);
  const longest = Math.max(...sizes);
  options.note(`Export: generating an Enigma fight of ${longest.toLocaleString('en')} events`);
  const fight = generateFight('enigma', 6, longest, 7, ids);
  if (fight.events.length < longest) throw new Error(`The generated fight stopped after ${fight.events.length} events.`);
  if (fight.events[0]?.type !== 'ADD_COMBATANTS' || (fight.events[0]['combatants'] as unknown[]).length !== seeds('enigma', 6).length) throw new Error('The generated fight does not start with its combatants.');
  const encounters: { id: string; events: number }[] = [];
  for (const size of sizes) {
    const encounter = await ok<{ id: string }>(app, 'encounters:create', { campaignId, name: `A fight of ${size} events` });
    encounters.push({ id: encounter.id, events: size });
  }
  app.close();
  withDatabase(databasePath, (db) => {
    for (const { id, events } of encounters) {
      options.note(`Export: writing ${events.toLocaleString('en')} events through EncounterStore`);
      writeEvents(db, id, fight.events.slice(0, events), new Date().toISOString());
    }
  });
  return { databasePath, encounters };
}

export async function benchExport(options: BenchOptions): Promise<BenchResult[]> {
  const small = options.quick ? 500 : 10_000;
  const large = options.quick ? 2_000 : 100_000;
  const { databasePath, encounters } = await exportFixture(options, [small, large, small]);
  // The third is the same fight as a version before 7 stored it, without what each event changed in the roster: its
  // summary replays every event through the machine (reported; fights this version stores never need it).
  const legacy = encounters[2]!.id;
  withDatabase(databasePath, (db) => db.prepare('UPDATE encounter_events SET roster_json = NULL WHERE encounter_id = ?').run(legacy));
  const app = open(databasePath);
  const reader = openDatabase(databasePath);
  const results: BenchResult[] = [];
  try {
    for (const { id, events } of encounters) {
      const old = id === legacy;
      const held = events === small && !old;
      // The plainest export of the same fight: its stored events read, parsed and written out as JSON.
      const bare = median(sample(() => storedJson(reader, id), { runs: held ? 5 : 2, warmup: 1 }));
      const size = `${events.toLocaleString('en')} events`;
      const figure = (name: string, samples: number[], target = held) => benchResult({
        section: 'Export',
        name,
        value: median(samples),
        unit: 'ms',
        baseline: { name: 'JSON.stringify of the stored events', value: bare },
        ...(target ? { target: { op: '<=' as const, value: 300, of: 'value' as const } } : {}),
      });
      if (events === small) {
        // Every format once before any is timed: the first export also compiles the replay and summary code that
        // all three share, which would otherwise be charged to whichever format is measured first.
        for (const [format] of FORMATS) await ok(app, 'exports:encounter', { id, format });
        const firsts = await firstExports(options, databasePath, id, size);
        for (const [, label] of FORMATS) {
          results.push(figure(old ? `${label}, ${size} stored before version 7, first export after the app opens (replays every event)` : `${label}, ${size}, first export after the app opens (adds up the stored roster changes)`, firsts.get(label)!));
        }
        if (old) {
          // The desktop app and web mode fill in what such a fight lacks, in the background (server/roster-backfill.ts).
          options.note(`Export: filling in the roster changes of ${size} stored before version 7`);
          const chunks = withDatabase(databasePath, (db) => fillIn(db, events));
          const [replayed] = results.slice(-3);
          results.push(benchResult({
            section: 'Export',
            name: `filling in the roster changes of ${size} stored before version 7, time working (${chunks.length} chunks of ${BACKFILL_TIMING.budgetMs} ms)`,
            value: chunks.reduce((a, b) => a + b, 0),
            unit: 'ms',
            baseline: { name: 'the same fight\'s first Markdown export, which replays every event', value: replayed!.value },
          }));
          results.push(benchResult({
            section: 'Export',
            name: 'the longest chunk of that filling in (the longest a GM request waits for it)',
            value: Math.max(...chunks),
            unit: 'ms',
            baseline: { name: 'its median chunk', value: median(chunks) },
          }));
          const filled = await firstExports(options, databasePath, id, `${size} filled in`);
          for (const [, label] of FORMATS) results.push(figure(`${label}, ${size} stored before version 7 and filled in, first export after the app opens`, filled.get(label)!, true));
          continue;
        }
      }
      for (const [format, label] of FORMATS) {
        options.note(`Export: ${label} of ${size}`);
        const samples: number[] = [];
        const runs = held ? 3 : 1;
        for (let i = 0; i < runs + 1; i++) {
          const start = performance.now();
          const file = await ok<{ content: string }>(app, 'exports:encounter', { id, format });
          if (i > 0) samples.push(performance.now() - start);
          if (!file.content.length) throw new Error(`The ${label} export is empty.`);
        }
        results.push(figure(`${label}, ${size}`, samples));
      }
    }
  } finally {
    reader.close();
    app.close();
  }
  return results;
}

/** Each format's first export after the app opens: three samples, a new app each. */
async function firstExports(options: BenchOptions, databasePath: string, id: string, size: string): Promise<Map<string, number[]>> {
  const samples = new Map<string, number[]>();
  for (const [format, label] of FORMATS) {
    options.note(`Export: ${label} of ${size}, first after the app opens`);
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const fresh = open(databasePath);
      try {
        const start = performance.now();
        await ok(fresh, 'exports:encounter', { id, format });
        times.push(performance.now() - start);
      } finally {
        fresh.close();
      }
    }
    samples.set(label, times);
  }
  return samples;
}

/**
 * Fills in the roster changes of the file's old events in the app's chunks, with the app's checkpoint after every
 * CHECKPOINT_EVERY chunks that wrote (a task of its own there, not timed here); returns each chunk's time.
 */
function fillIn(db: Db, events: number): number[] {
  const backfill = new RosterBackfill();
  const chunks: number[] = [];
  let writes = 0;
  for (let done = false; !done;) {
    const filled = backfill.filled;
    const start = performance.now();
    done = backfill.run(db, BACKFILL_TIMING.budgetMs);
    chunks.push(performance.now() - start);
    if (backfill.filled !== filled && ++writes % CHECKPOINT_EVERY === 0) db.pragma('wal_checkpoint(PASSIVE)');
  }
  if (backfill.filled !== events || backfill.skipped.length) throw new Error(`Filling in gave ${backfill.filled} of ${events} events a roster change.`);
  return chunks;
}

/** The stored events of one encounter read straight from the file, parsed, and written out as JSON. */
function storedJson(db: Db, encounterId: string): string {
  const rows = db.prepare('SELECT seq, payload_json, log_json FROM encounter_events WHERE encounter_id = ? ORDER BY seq').all(encounterId) as { seq: number; payload_json: string; log_json: string }[];
  return `${JSON.stringify(rows.map((r) => ({ seq: r.seq, event: JSON.parse(r.payload_json), lines: JSON.parse(r.log_json) })), null, 2)}\n`;
}
