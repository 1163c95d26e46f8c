// Append, Resume and Campaign: what the GM waits for on the database side.
//  - Append: committing one GM event through `encounters:append` (WAL, synchronous FULL as shipped) over the first
//    1,000 events of a fight and over the last 1,000 of 100,000 (flat with the fight's length), the time to write
//    all of them in a row, and a bare better-sqlite3 insert of the same row on the same file as a baseline.
//  - Resume: the first `encounters:get` of a freshly opened app on an encounter of 10,000 events (newest snapshot
//    plus the events after it), beside a bare SELECT of the same rows and JSON.parse.
//  - Campaign: a campaign of 2,000 encounters and 1,000,000 events with injuries and ledger history; campaign home
//    ready (`campaigns:get`, all the screen requests on open) and one character's history (`characters:history`),
//    each beside the bare SQL reading the same rows (the very statements the handler ran), and the history at
//    10, 200, 1,000 and 2,000 encounters as the campaign grows.
import Database from 'better-sqlite3';
import type { EncounterInput, GmEvent } from '../core/encounter/types.ts';
import { noteActivityParams, noteActivitySql } from '../db/campaigns.ts';
import { openDatabase, writeTransaction, type Db } from '../db/connection.ts';
import { SNAPSHOT_EVERY, type EventRow } from '../db/encounters.ts';
import { generateFight } from './fight.ts';
import { benchResult, type BenchOptions, type BenchResult } from './result.ts';
import { databaseIn, ok, open, prepareCampaign, withDatabase, writeEvents } from './store.ts';
import { median, percentile } from './timing.ts';

/** Seeds for an Enigma fight of the prepared campaign: party members on even places, NPC templates on odd ones. */
function combatantIds(characterIds: readonly string[], party: number): string[] {
  return characterIds.slice(0, party * 2).map((_, i) => characterIds[i % 2 === 0 ? i / 2 : party + (i - 1) / 2]!);
}

export async function benchAppend(options: BenchOptions): Promise<BenchResult[]> {
  // One fight, measured twice: over its first 1,000 events and over the last 1,000 of `total`. Flat: the append at
  // event 100,000 costs what it cost at event 1,000 (the fight's injuries, log and snapshots grow meanwhile).
  const window = options.quick ? 500 : 1000;
  const total = options.quick ? 10_000 : 100_000;
  const databasePath = databaseIn(options.folder, 'append');
  const app = open(databasePath);
  const { campaignId, characterIds } = await prepareCampaign(app, 'enigma', 3, 3);
  const encounter = await ok<{ id: string }>(app, 'encounters:create', { campaignId, name: 'Append' });
  // The events a GM sends, with their dice: a generated fight replayed one request at a time.
  options.note(`Append: generating a fight of ${total.toLocaleString('en')} events`);
  const fight = generateFight('enigma', 6, total, 3, combatantIds(characterIds, 3));
  const events = fight.events;
  const first: number[] = [];
  const last: number[] = [];
  const bare: number[] = [];
  const writesAlone: number[] = [];
  // The turn of the event loop after each reply of the two windows, apart for the appends at a snapshot's seq: the
  // app writes the snapshot there, after the reply (server/app.ts), so that work shows here and not in the append.
  const afterFirst = { snapshot: [] as number[], other: [] as number[] };
  const afterLast = { snapshot: [] as number[], other: [] as number[] };
  let writing = 0;
  // The bare insert runs on a second connection to the same file, one after each measured append, so both see the
  // same WAL (its growth, its checkpoints) and the same moments of this machine.
  const db = openDatabase(databasePath);
  db.exec('CREATE TABLE bare_events (encounter_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, payload_json TEXT NOT NULL, log_json TEXT NOT NULL, recorded_at TEXT NOT NULL, roster_json TEXT, line_start INTEGER NOT NULL, PRIMARY KEY (encounter_id, seq)) STRICT');
  const written = db.prepare('SELECT type, payload_json, log_json, recorded_at, roster_json, line_start FROM encounter_events WHERE encounter_id = ? AND seq = ?');
  const insert = db.prepare('INSERT INTO bare_events (encounter_id, seq, type, payload_json, log_json, recorded_at, roster_json, line_start) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const writes = appendWrites(db, encounter.id);
  // The request the runner sends for each GM action: `ask` (stop before an unchecked ending) and `since` (the screen
  // is up to date, so the reply carries only the new log lines and the combatants that changed).
  let shown = await ok<{ encounter: { eventCount: number; updatedAt: string } }>(app, 'encounters:get', { id: encounter.id });
  for (const [index, event] of events.entries()) {
    // The first 10 warm the app up; the two windows run the same loop (bare insert and writes alone beside them).
    const into = index >= 10 && index < 10 + window ? first : index >= events.length - window ? last : null;
    let start = performance.now();
    shown = await ok(app, 'encounters:append', { id: encounter.id, event, ask: true, since: { eventCount: shown.encounter.eventCount, version: shown.encounter.updatedAt } });
    const took = performance.now() - start;
    writing += took;
    if (index > 0 && index % 10_000 === 0) options.note(`Append: ${index.toLocaleString('en')} events written`);
    if (into) {
      into.push(took);
      const row = written.get(encounter.id, shown.encounter.eventCount) as EventRow;
      // The bare insert and the append's writes alone take turns at running first.
      for (const which of index % 2 === 0 ? ['bare', 'writes'] : ['writes', 'bare']) {
        start = performance.now();
        if (which === 'bare') writeTransaction(db, () => insert.run(encounter.id, index + 1, row.type, row.payload_json, row.log_json, row.recorded_at, row.roster_json, row.line_start));
        else writes(row);
        if (into === first) (which === 'bare' ? bare : writesAlone).push(performance.now() - start);
      }
    }
    // Each GM request reaches the app as its own message (IPC or the socket): the event loop turns between two,
    // and what the app leaves for after a reply (a snapshot, a checkpoint) runs there, as it does at the table.
    start = performance.now();
    await new Promise<void>((resolve) => setImmediate(resolve));
    const after = into === first ? afterFirst : into === last ? afterLast : null;
    after?.[shown.encounter.eventCount % SNAPSHOT_EVERY === 0 ? 'snapshot' : 'other'].push(performance.now() - start);
  }
  const injuries = (db.prepare('SELECT count(*) AS n FROM injuries WHERE source_encounter_id = ?').get(encounter.id) as { n: number }).n;
  db.close();
  app.close();

  const at = (n: number) => `at event ${n.toLocaleString('en')}`;
  const firstAt = `events 11–${(10 + window).toLocaleString('en')}`;
  const lastAt = `events ${(total - window + 1).toLocaleString('en')}–${total.toLocaleString('en')}, ${injuries} injuries in the fight`;
  const early = (p: number) => benchResult({
    section: 'Append',
    name: `p${p} encounters:append, one GM event (${firstAt}, 6 combatants)`,
    value: percentile(first, p),
    unit: 'ms',
    // Reported, not held to a ratio (issue 30: the GM feels the round trip, which the UI figures hold).
    baseline: { name: `p${p} bare better-sqlite3 insert of the same row`, value: percentile(bare, p) },
  });
  const late = (p: number) => benchResult({
    section: 'Append',
    name: `p${p} encounters:append ${at(total)} (${lastAt})`,
    value: percentile(last, p),
    unit: 'ms',
    baseline: { name: `p${p} of the same fight's appends ${firstAt.replace('events', 'at events')}`, value: percentile(first, p) },
    // Flat with the fight's length: within 10 % of the early appends.
    ...(p === 99 ? { target: { op: '<=' as const, value: 1.1, of: 'ratio' as const } } : {}),
  });
  const p99 = early(99);
  return [
    early(50),
    p99,
    benchResult({ ...p99, name: `p99 encounters:append under 2 ms (${firstAt})`, target: { op: '<=', value: 2, of: 'value' } }),
    late(50),
    late(99),
    benchResult({
      section: 'Append',
      name: `writing ${total.toLocaleString('en')} events in a row through encounters:append`,
      value: writing / 1000,
      unit: 's',
      baseline: { name: `${total.toLocaleString('en')} × the median append of ${firstAt} (a flat cost)`, value: (total * median(first)) / 1000 },
    }),
    // The snapshot every SNAPSHOT_EVERY events, written after the reply: the turn after a snapshot append's reply,
    // late beside early (the state it holds grows with the fight's injuries), and beside the turns after the others
    // (a checkpoint every 16 writes).
    benchResult({
      section: 'Append',
      name: `p50 the turn after the reply of an append that owes a snapshot, written then in its own transaction (${lastAt}; ${afterLast.snapshot.length} snapshots)`,
      value: percentile(afterLast.snapshot, 50),
      unit: 'ms',
      baseline: { name: `the same ${firstAt.replace('events', 'at events')}`, value: percentile(afterFirst.snapshot, 50) },
    }),
    benchResult({
      section: 'Append',
      name: `the longest turn after the reply of an append that owes a snapshot (${lastAt})`,
      value: Math.max(...afterLast.snapshot),
      unit: 'ms',
      baseline: { name: `p99 the turn after the other appends' replies, at the same events (a checkpoint every 16 writes)`, value: percentile(afterLast.other, 99) },
    }),
    // Reported, not held to a target: how much of an append the database writes it must make take by themselves,
    // with no validation, rules or reply (docs/performance.md, "What still misses").
    benchResult({
      section: 'Append',
      name: `p99 the append's writes alone, no rules (${firstAt})`,
      value: percentile(writesAlone, 99),
      unit: 'ms',
      baseline: { name: 'p99 bare better-sqlite3 insert of the same row', value: percentile(bare, 99) },
    }),
  ];
}

/**
 * The database writes one append makes, by themselves: the same statements on copies of the encounter's tables
 * (same columns, checks and indexes) in the same file, one transaction per event: the encounter's head read, the
 * event's row, the new head and the campaign's last activity (noteCampaignActivity's statement); the redo stack an
 * append after an append leaves alone (EncounterStore knows it empty). No validation, no rules, no reply. Returns
 * the writer for one stored event row.
 */
function appendWrites(db: Db, encounterId: string): (row: EventRow) => void {
  const tables = ['campaigns', 'encounters', 'encounter_events'];
  // The tables and the indexes named after them (encounters_by_campaign, encounter_events_without_roster).
  const copyName = (sql: string) => sql.replace(new RegExp(`\\b((?:${tables.join('|')})\\w*)`, 'g'), 'copy_$1');
  const schema = db.prepare(`SELECT sql FROM sqlite_master WHERE tbl_name IN (${tables.map(() => '?').join(', ')}) AND sql IS NOT NULL ORDER BY type DESC`).all(...tables) as { sql: string }[];
  for (const { sql } of schema) db.exec(copyName(sql));
  const head = db.prepare('SELECT campaign_id FROM encounters WHERE id = ?').get(encounterId) as { campaign_id: string };
  db.prepare('INSERT INTO copy_campaigns SELECT * FROM campaigns WHERE id = ?').run(head.campaign_id);
  db.prepare('INSERT INTO copy_encounters SELECT * FROM encounters WHERE id = ?').run(encounterId);
  const read = db.prepare('SELECT id, campaign_id, name, ruleset_id, phase, round, event_count, session_id, day, created_at, updated_at FROM copy_encounters WHERE id = ?');
  const insert = db.prepare('INSERT INTO copy_encounter_events (encounter_id, seq, type, payload_json, log_json, recorded_at, roster_json, line_start) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const update = db.prepare('UPDATE copy_encounters SET phase = ?, round = ?, event_count = ?, updated_at = ? WHERE id = ?');
  const touch = db.prepare(noteActivitySql('copy_campaigns'));
  return (row) => writeTransaction(db, () => {
    const current = read.get(encounterId) as { campaign_id: string; phase: string; round: number; event_count: number };
    const seq = current.event_count + 1;
    insert.run(encounterId, seq, row.type, row.payload_json, row.log_json, row.recorded_at, row.roster_json, row.line_start);
    update.run(current.phase, current.round, seq, row.recorded_at, encounterId);
    touch.run(noteActivityParams(current.campaign_id, row.recorded_at));
  });
}

export async function benchResume(options: BenchOptions): Promise<BenchResult[]> {
  const events = options.quick ? 1000 : 10_000;
  // A fight of `combatants` cut to `length` events (a prefix of a legal fight is one), written, then resumed by a
  // freshly opened app: the stored snapshot every 50 events plus the events after the newest one.
  const resumeOf = async (combatants: number, length: number, seed: number, name: string): Promise<BenchResult> => {
    const databasePath = databaseIn(options.folder, `resume-${combatants}`);
    let app = open(databasePath);
    const { campaignId, characterIds } = await prepareCampaign(app, 'enigma', 3, 3);
    const encounter = await ok<{ id: string }>(app, 'encounters:create', { campaignId, name: 'Resume' });
    app.close();
    options.note(`Resume: writing a fight of ${length.toLocaleString('en')} events with ${combatants} combatants`);
    const fight = generateFight('enigma', combatants, length, seed, combatantIds(characterIds, 3));
    if (fight.events.length < length) throw new Error(`The generated resume fight stopped at ${fight.events.length} of ${length} events.`);
    const written = fight.events.slice(0, length);
    const after = withDatabase(databasePath, (db) => {
      writeEvents(db, encounter.id, written, new Date().toISOString());
      const newest = db.prepare('SELECT max(seq) AS seq FROM encounter_snapshots WHERE encounter_id = ?').get(encounter.id) as { seq: number | null };
      return length - (newest.seq ?? 0);
    });
    const ours: number[] = [];
    const bare: number[] = [];
    for (let run = 0; run < (options.quick ? 3 : 7); run++) {
      app = open(databasePath);
      const start = performance.now();
      const detail = await ok<{ encounter: { eventCount: number } }>(app, 'encounters:get', { id: encounter.id });
      ours.push(performance.now() - start);
      app.close();
      if (detail.encounter.eventCount !== length) throw new Error('The resumed encounter lost events.');
      bare.push(withDatabase(databasePath, (db) => {
        const begin = performance.now();
        bareResume(db, encounter.id);
        return performance.now() - begin;
      }));
    }
    return benchResult({
      section: 'Resume',
      name: `${name}, ${length.toLocaleString('en')} events (${combatants} combatants, ${after} events after the newest snapshot)`,
      value: median(ours),
      unit: 'ms',
      baseline: { name: 'bare SELECT of the same rows + JSON.parse', value: median(bare) },
      target: { op: '<=', value: 50, of: 'value' },
    });
  };
  // The worst case: the most combatants the runner is measured with and the most events replayed after a snapshot
  // (49, one short of the next); beside it a small fight whose newest snapshot is its last event.
  return [
    await resumeOf(6, events, 5, 'first encounters:get of a freshly opened app'),
    await resumeOf(200, events - 1, 5, 'first encounters:get of a freshly opened app, the worst case'),
  ];
}

/** What a resume reads, the plainest way: the head row, the newest snapshot, the events after it and the log tail. */
function bareResume(db: Db, encounterId: string): number {
  const head = db.prepare('SELECT * FROM encounters WHERE id = ?').get(encounterId) as { event_count: number; input_json: string };
  JSON.parse(head.input_json);
  const snapshot = db.prepare('SELECT seq, snapshot_json FROM encounter_snapshots WHERE encounter_id = ? ORDER BY seq DESC LIMIT 1').get(encounterId) as { seq: number; snapshot_json: string } | undefined;
  if (snapshot) JSON.parse(snapshot.snapshot_json);
  const tail = db.prepare('SELECT payload_json FROM encounter_events WHERE encounter_id = ? AND seq > ? ORDER BY seq').all(encounterId, snapshot?.seq ?? 0) as { payload_json: string }[];
  const log = db.prepare('SELECT seq, log_json FROM encounter_events WHERE encounter_id = ? AND seq > ? ORDER BY seq').all(encounterId, Math.max(0, head.event_count - 200)) as { log_json: string }[];
  return tail.map((r) => JSON.parse(r.payload_json) as GmEvent).length + log.map((r) => JSON.parse(r.log_json)).length;
}

export async function benchCampaign(options: BenchOptions): Promise<BenchResult[]> {
  const encounters = options.quick ? 20 : 2000;
  // A character's history is measured as the campaign grows (in the app writing it), so its growth shows.
  const historyAt = options.quick ? [10, 20] : [10, 200, 1000, 2000];
  const historyGrowth: { encounters: number; ms: number }[] = [];
  const perEncounter = 500;
  const party = 4;
  const databasePath = options.campaignAt ?? databaseIn(options.folder, 'campaign');
  const app = open(databasePath);
  const { campaignId, characterIds } = await prepareCampaign(app, 'enigma', party, party);
  // One fight of 500 events with Mortal Peril and injuries, ended, so every encounter carries onto the party.
  options.note(`Campaign: generating ${encounters} encounters of ${perEncounter} events`);
  // Each encounter starts from the Escalation the previous fight left: one fight per distinct machine input.
  const fights = new Map<string, GmEvent[]>();
  const fightFor = (inputJson: string): GmEvent[] => {
    let events = fights.get(inputJson);
    if (!events) {
      events = generateFight('enigma', party * 2, perEncounter - 1, 11 + fights.size, combatantIds(characterIds, party), { type: 'END_COMBAT', outcome: 'The raiders scatter' }, JSON.parse(inputJson) as EncounterInput).events;
      fights.set(inputJson, events);
    }
    return events;
  };
  const now = new Date().toISOString();
  // The fights go in through a second connection, one transaction per encounter, while the app records the
  // encounters and the ledger between them.
  const writer = openDatabase(databasePath);
  try {
    for (let i = 0; i < encounters; i++) {
      if (i % 100 === 0) options.note(`Campaign: encounter ${i + 1} of ${encounters}`);
      const { id } = await ok<{ id: string }>(app, 'encounters:create', { campaignId, name: `Skirmish ${i + 1}` });
      const row = writer.prepare('SELECT input_json FROM encounters WHERE id = ?').get(id) as { input_json: string };
      writeEvents(writer, id, fightFor(row.input_json), now, perEncounter);
      // Between fights: a rest (refused when the rules say it cannot be taken today) and a day passes.
      if (i % 10 === 9) {
        await ok(app, 'ledger:append', { campaignId, event: { type: 'REST', characterId: characterIds[Math.floor(i / 10) % party] } }).catch(() => undefined);
        await ok(app, 'ledger:append', { campaignId, event: { type: 'ADVANCE_DAYS', days: 1 } });
      }
      if (historyAt.includes(i + 1)) {
        const times: number[] = [];
        for (let run = 0; run < 6; run++) {
          const start = performance.now();
          await ok(app, 'characters:history', { id: characterIds[0] });
          if (run > 0) times.push(performance.now() - start);
        }
        historyGrowth.push({ encounters: i + 1, ms: median(times) });
      }
    }
  } finally {
    writer.close();
    app.close();
  }
  options.note(`Campaign: ${fights.size} distinct fights written`);
  const counts = withDatabase(databasePath, (db) => db.prepare(`SELECT (SELECT count(*) FROM encounter_events) AS events, (SELECT count(*) FROM injuries WHERE campaign_id = ?) AS injuries,
    (SELECT count(*) FROM ledger_entries WHERE campaign_id = ?) AS entries`).get(campaignId, campaignId) as { events: number; injuries: number; entries: number });
  if (counts.injuries === 0 || counts.entries === 0) throw new Error('The generated campaign has no injuries or no ledger entries: its history would be empty.');

  const reopened = open(databasePath);
  const homeMs: number[] = [];
  const historyMs: number[] = [];
  // The bare baselines run the very statements the handlers ran (caught on one call of each), nothing else.
  const homeReads = await statementsOf(() => ok(reopened, 'campaigns:get', { id: campaignId }));
  const historyReads = await statementsOf(() => ok(reopened, 'characters:history', { id: characterIds[0] }));
  try {
    for (let run = 0; run < (options.quick ? 3 : 7); run++) {
      let start = performance.now();
      await ok(reopened, 'campaigns:get', { id: campaignId });
      homeMs.push(performance.now() - start);
      start = performance.now();
      const history = await ok<{ records: unknown[] }>(reopened, 'characters:history', { id: characterIds[0] });
      historyMs.push(performance.now() - start);
      if (history.records.length === 0) throw new Error('The character history is empty.');
    }
  } finally {
    reopened.close();
  }
  const bare = withDatabase(databasePath, (db) => {
    const home = bareHome(db, homeReads);
    const history = bareHistory(db, historyReads);
    return { home: median(repeat(7, home)), history: median(repeat(7, history)) };
  });
  const size = `${encounters.toLocaleString('en')} encounters, ${counts.events.toLocaleString('en')} events, ${counts.injuries} injuries, ${counts.entries} ledger entries`;
  return [
    benchResult({ section: 'Campaign', name: `campaign home ready: campaigns:get (${size})`, value: median(homeMs), unit: 'ms', baseline: { name: 'bare SQL reading the same rows', value: bare.home }, target: { op: '<=', value: 100, of: 'value' } }),
    benchResult({ section: 'Campaign', name: 'one character\'s history: characters:history', value: median(historyMs), unit: 'ms', baseline: { name: 'bare SQL reading the same rows', value: bare.history }, target: { op: '<=', value: 50, of: 'value' } }),
    // The history as the campaign grew, each beside the history at the first size: linear or better, and at most
    // 20 ms at 2,000 encounters.
    ...historyGrowth.map(({ encounters: n, ms }) => benchResult({
      section: 'Campaign',
      name: `characters:history as the campaign grows: at ${n.toLocaleString('en')} encounters`,
      value: ms,
      unit: 'ms',
      baseline: { name: `the same at ${historyGrowth[0]!.encounters} encounters`, value: historyGrowth[0]!.ms },
      ...(n === 2000 ? { target: { op: '<=' as const, value: 20, of: 'value' as const } } : {}),
    })),
  ];
}

function repeat(times: number, work: () => unknown): number[] {
  const out: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    work();
    out.push(performance.now() - start);
  }
  return out;
}

/** A statement a handler ran, with its parameters. */
interface StatementRun { sql: string; params: unknown[] }

/**
 * The statements `call` runs on better-sqlite3 (its `all` and `get`), caught on one call: the handlers' reads, with
 * the parameters they were given, so a bare baseline can read exactly the same rows.
 */
async function statementsOf(call: () => Promise<unknown>): Promise<StatementRun[]> {
  const scratch = new Database(':memory:');
  const statement = Object.getPrototypeOf(scratch.prepare('SELECT 1')) as Record<'all' | 'get', (...params: unknown[]) => unknown>;
  scratch.close();
  const runs: StatementRun[] = [];
  const originals = { all: statement.all, get: statement.get };
  for (const method of ['all', 'get'] as const) {
    statement[method] = function (this: Database.Statement, ...params: unknown[]) {
      runs.push({ sql: this.source, params });
      return originals[method].apply(this, params);
    };
  }
  try {
    await call();
  } finally {
    statement.all = originals.all;
    statement.get = originals.get;
  }
  return runs;
}

/**
 * The bare baseline of a handler's reads: the same statements with the same parameters on a plain connection
 * (prepared once, outside the timing), every row read, and JSON.parse of each JSON column (`…_json`) of the rows
 * they return, which the handlers parse where they show it. Returns the work, to time.
 */
function bareReads(db: Db, runs: readonly StatementRun[]): () => number {
  const statements = runs.map((run) => {
    const statement = db.prepare(run.sql);
    const json = statement.columns().flatMap((c, i) => (c.name.endsWith('_json') ? [i] : []));
    statement.raw(true);
    return { statement, params: run.params, json };
  });
  return () => {
    let rows = 0;
    for (const { statement, params, json } of statements) {
      for (const row of statement.all(...params) as unknown[][]) {
        rows += 1;
        for (const i of json) if (typeof row[i] === 'string') JSON.parse(row[i]);
      }
    }
    return rows;
  };
}

/** The rows the campaign home reads (`campaigns:get`): the handler's own statements, bare. */
function bareHome(db: Db, runs: readonly StatementRun[]): () => number {
  return bareReads(db, runs);
}

/** The rows a character's history reads (`characters:history`): the handler's own statements, bare. */
function bareHistory(db: Db, runs: readonly StatementRun[]): () => number {
  return bareReads(db, runs);
}
