// Event-sourced encounter storage: the ordered events, the redo stack, and periodic machine snapshots.
import type { EncounterInput, GmEvent, LogLine } from '../core/encounter/types.ts';
import type { StoredStep } from '../core/export/encounter.ts';
import type { ExportLogLine } from '../core/export/types.ts';
import { prepared, preparedRaw, type Db } from './connection.ts';
import type { EncounterRow } from './rows.ts';

/** A snapshot is stored after every SNAPSHOT_EVERY-th event, so resume replays at most that many. */
export const SNAPSHOT_EVERY = 50;

/**
 * An encounter's row without its input (the combatants' sheets: tens of KB each). Only building an engine or an
 * export reads the input (`readInput`); a write to a warm encounter never does.
 */
export type EncounterListRow = Omit<EncounterRow, 'input_json'>;

const HEAD_COLUMNS = 'id, campaign_id, name, ruleset_id, phase, round, event_count, session_id, day, created_at, updated_at';

/** The campaign's encounters, newest first, without their inputs (a campaign of 1,000 fights read 50 MB for them). */
export function listEncounters(db: Db, campaignId: string): EncounterListRow[] {
  return prepared(db, `SELECT ${HEAD_COLUMNS} FROM encounters WHERE campaign_id = ? ORDER BY created_at DESC`).all(campaignId) as EncounterListRow[];
}

/** The encounters played in one session, in the order they were created. */
export function sessionEncounters(db: Db, sessionId: string): EncounterListRow[] {
  return prepared(db, `SELECT ${HEAD_COLUMNS} FROM encounters WHERE session_id = ? ORDER BY created_at, id`).all(sessionId) as EncounterListRow[];
}

export function getEncounter(db: Db, id: string): EncounterListRow | undefined {
  return prepared(db, `SELECT ${HEAD_COLUMNS} FROM encounters WHERE id = ?`).get(id) as EncounterListRow | undefined;
}

/** The encounter's input (its combatants' sheets, as prepared). */
export function readInput(db: Db, id: string): EncounterInput {
  const row = prepared(db, 'SELECT input_json FROM encounters WHERE id = ?').get(id) as { input_json: string } | undefined;
  if (!row) throw new Error(`Encounter ${id} is missing.`);
  return JSON.parse(row.input_json) as EncounterInput;
}

export function insertEncounter(db: Db, row: EncounterRow): void {
  prepared(db, `INSERT INTO encounters (id, campaign_id, name, ruleset_id, input_json, phase, round, event_count, session_id, day, created_at, updated_at)
    VALUES (@id, @campaign_id, @name, @ruleset_id, @input_json, @phase, @round, @event_count, @session_id, @day, @created_at, @updated_at)`).run({ session_id: null, day: null, ...row });
}

export interface EncounterHead {
  phase: EncounterRow['phase'];
  round: number;
  eventCount: number;
}

export function updateHead(db: Db, id: string, head: EncounterHead, now: string): void {
  prepared(db, 'UPDATE encounters SET phase = ?, round = ?, event_count = ?, updated_at = ? WHERE id = ?').run(head.phase, head.round, head.eventCount, now, id);
}

/** An event row's columns as stored, the JSON already made (an import has it from its own replay). */
export interface EventRow {
  type: string;
  payload_json: string;
  log_json: string;
  recorded_at: string;
  /** What the event changed in the roster (RosterChange); null for events stored before version 7. */
  roster_json: string | null;
  /** The number of the event's first log line: how many lines the events before it wrote (see readLogLines). */
  line_start: number;
}

/**
 * Stores `row` as event `seq` of the encounter. The writer knows how many log lines the events before it wrote
 * (`row.line_start`), so nothing is read: an append costs the same at event 100,000 as at event 10.
 */
export function insertEventRow(db: Db, encounterId: string, seq: number, row: EventRow): void {
  prepared(db, `INSERT INTO encounter_events (encounter_id, seq, type, payload_json, log_json, recorded_at, roster_json, line_start)
    VALUES (@encounterId, @seq, @type, @payload_json, @log_json, @recorded_at, @roster_json, @line_start)`).run(
    { encounterId, seq, type: row.type, payload_json: row.payload_json, log_json: row.log_json, recorded_at: row.recorded_at, roster_json: row.roster_json, line_start: row.line_start });
}

/** Deletes event `seq` (and the snapshots from it on): the event as it was stored and how many log lines it wrote. */
export function deleteEvent(db: Db, encounterId: string, seq: number): { event: GmEvent; lines: number } {
  const row = prepared(db, 'DELETE FROM encounter_events WHERE encounter_id = ? AND seq = ? RETURNING payload_json, json_array_length(log_json) AS lines').get(encounterId, seq) as { payload_json: string; lines: number } | undefined;
  if (!row) throw new Error(`Event ${seq} of encounter ${encounterId} is missing.`);
  prepared(db, 'DELETE FROM encounter_snapshots WHERE encounter_id = ? AND seq >= ?').run(encounterId, seq);
  return { event: JSON.parse(row.payload_json) as GmEvent, lines: row.lines };
}

/** The stored JSON of every event after `afterSeq` and up to `upTo`, in order (a snapshot's check hashes it as stored). */
export function readPayloads(db: Db, encounterId: string, afterSeq: number, upTo: number): string[] {
  const rows = prepared(db, 'SELECT payload_json FROM encounter_events WHERE encounter_id = ? AND seq > ? AND seq <= ? ORDER BY seq').all(encounterId, afterSeq, upTo) as { payload_json: string }[];
  return rows.map((row) => row.payload_json);
}

export function readEvents(db: Db, encounterId: string, afterSeq = 0): GmEvent[] {
  const rows = prepared(db, 'SELECT payload_json FROM encounter_events WHERE encounter_id = ? AND seq > ? ORDER BY seq').all(encounterId, afterSeq) as { payload_json: string }[];
  return rows.map((row) => JSON.parse(row.payload_json) as GmEvent);
}

/**
 * The events after `afterSeq` with the log lines each wrote and what each changed in the roster (when stored), in
 * order. Each line carries its event's `seq`, set as it is parsed (an export's log wants it: no copy of every line).
 * Events stored as the same JSON (every END_TURN, a repeated heal) are parsed once and share one object: an event is a
 * value, never changed once read (core/encounter/kernel.ts, ParsedEvent).
 */
export function readSteps(db: Db, encounterId: string, afterSeq = 0): StoredStep[] {
  // Raw rows: an object per row cost better-sqlite3 about as much as reading the rows (10,000 events: 4.5 MB of JSON).
  const rows = preparedRaw(db, 'SELECT seq, payload_json, log_json, roster_json FROM encounter_events WHERE encounter_id = ? AND seq > ? ORDER BY seq').all(encounterId, afterSeq) as [number, string, string, string | null][];
  const events = new Map<string, GmEvent>();
  const steps: StoredStep[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const [seq, payload, log, roster] = rows[i]!;
    let event = events.get(payload);
    if (event === undefined) {
      event = JSON.parse(payload) as GmEvent;
      events.set(payload, event);
    }
    const lines = JSON.parse(log) as ExportLogLine[];
    for (const line of lines) line.seq = seq;
    steps[i] = roster === null ? { seq, event, lines } : { seq, event, lines, rosterJson: roster };
  }
  return steps;
}

/** The log lines of every event after `afterSeq` (all of them by default), in order. */
export function readLog(db: Db, encounterId: string, afterSeq = 0): { seq: number; lines: LogLine[] }[] {
  return readLogJson(db, encounterId, afterSeq).map((row) => ({ seq: row.seq, lines: JSON.parse(row.log_json) as LogLine[] }));
}

/** The stored log JSON of every event after `afterSeq`, in order, unparsed (a filter's first scan parses what it needs). */
export function readLogJson(db: Db, encounterId: string, afterSeq: number): { seq: number; log_json: string }[] {
  return prepared(db, 'SELECT seq, log_json FROM encounter_events WHERE encounter_id = ? AND seq > ? ORDER BY seq').all(encounterId, afterSeq) as { seq: number; log_json: string }[];
}

/** The events `seqs` (given as a JSON array) read by key, one row each: the lines a filtered page shows. */
export const EVENT_LOGS_SQL = 'SELECT seq, log_json FROM encounter_events WHERE encounter_id = ? AND seq IN (SELECT value FROM json_each(?))';

/** The log lines of the events `seqs`, by seq: each event read once, by its key, however far apart they are. */
export function readEventLogs(db: Db, encounterId: string, seqs: readonly number[]): Map<number, LogLine[]> {
  const rows = prepared(db, EVENT_LOGS_SQL).all(encounterId, JSON.stringify(seqs)) as { seq: number; log_json: string }[];
  return new Map(rows.map((row) => [row.seq, JSON.parse(row.log_json) as LogLine[]]));
}

/** Log lines by number (from 0, in the order the events wrote them), each with the event that wrote it. */
export interface NumberedLogLine extends LogLine {
  seq: number;
  /** The line's number in the whole log. */
  line: number;
}

/** The events holding lines [from, to): from the last to start at or before `from`, to the last to start before `to`. */
export const LOG_LINES_SQL = `SELECT seq, line_start, log_json FROM encounter_events
  WHERE encounter_id = @encounterId AND line_start < @to
    AND line_start >= (SELECT MAX(line_start) FROM encounter_events WHERE encounter_id = @encounterId AND line_start <= @from)
  ORDER BY line_start, seq`;

/**
 * The log lines numbered `from` to `to - 1` (fewer at the end of the log): only the events that hold them are read,
 * found through the line-number index (encounter_events_by_line), so a page costs the same in a log of any length.
 */
export function readLogLines(db: Db, encounterId: string, from: number, to: number): NumberedLogLine[] {
  if (to <= from) return [];
  const rows = prepared(db, LOG_LINES_SQL).all({ encounterId, from, to }) as { seq: number; line_start: number; log_json: string }[];
  const lines: NumberedLogLine[] = [];
  for (const row of rows) {
    (JSON.parse(row.log_json) as LogLine[]).forEach((line, i) => {
      const number = row.line_start + i;
      if (number >= from && number < to) lines.push({ ...line, seq: row.seq, line: number });
    });
  }
  return lines;
}

/**
 * How many log lines the encounter's events wrote, read from its newest event alone: what a store reads once, when it
 * first writes to or pages through an encounter, and then keeps up to date itself (server/encounter-store.ts).
 */
export function logLineCount(db: Db, encounterId: string): number {
  const row = prepared(db, 'SELECT line_start + json_array_length(log_json) AS lines FROM encounter_events WHERE encounter_id = ? ORDER BY seq DESC LIMIT 1')
    .get(encounterId) as { lines: number } | undefined;
  return row?.lines ?? 0;
}

/** The first log line of event `seq` (what undoing it takes back). */
export function lastLogText(db: Db, encounterId: string, seq: number): string | null {
  const row = prepared(db, "SELECT json_extract(log_json, '$[0].text') AS text FROM encounter_events WHERE encounter_id = ? AND seq = ?").get(encounterId, seq) as { text: string | null } | undefined;
  return row?.text ?? null;
}

/**
 * Stores the machine's state after event `seq`. `covers` is the digest of the events that state is the replay of
 * (server/encounter-store.ts, `digestOf`): a resume uses the snapshot only while the stored events still give it.
 * Without it (an import's, or one stored before snapshots carried it) the snapshot is checked by a replay.
 * `rulesVersion` is the ruleset's context version the state was made under (EncounterRules.rulesVersion): a resume
 * under another version replays the events instead.
 */
export function saveSnapshot(db: Db, encounterId: string, seq: number, snapshot: unknown, covers?: string, rulesVersion = 1): void {
  const json = JSON.stringify(covers === undefined ? snapshot : { covers, machine: snapshot, rulesVersion });
  prepared(db, 'INSERT OR REPLACE INTO encounter_snapshots (encounter_id, seq, snapshot_json) VALUES (?, ?, ?)').run(encounterId, seq, json);
}

export interface StoredSnapshot {
  seq: number;
  snapshot: unknown;
  /** The digest of the events it was made from, or null for a snapshot stored without one. */
  covers: string | null;
  /** The ruleset's context version it was saved under: 1 for one saved before snapshots carried it. */
  rulesVersion: number;
}

export function latestSnapshot(db: Db, encounterId: string, atOrBefore: number): StoredSnapshot | null {
  const row = prepared(db, 'SELECT seq, snapshot_json FROM encounter_snapshots WHERE encounter_id = ? AND seq <= ? ORDER BY seq DESC LIMIT 1').get(encounterId, atOrBefore) as { seq: number; snapshot_json: string } | undefined;
  if (!row) return null;
  const stored = JSON.parse(row.snapshot_json) as { covers?: unknown; machine?: unknown; rulesVersion?: unknown };
  // A machine's own persisted state never has these two keys side by side.
  if (typeof stored.covers === 'string' && 'machine' in stored) {
    const rulesVersion = typeof stored.rulesVersion === 'number' ? stored.rulesVersion : 1;
    return { seq: row.seq, snapshot: stored.machine, covers: stored.covers, rulesVersion };
  }
  return { seq: row.seq, snapshot: stored, covers: null, rulesVersion: 1 };
}

// ---- redo stack ----

export function pushRedo(db: Db, encounterId: string, event: GmEvent): void {
  prepared(db, `INSERT INTO encounter_redo (encounter_id, depth, payload_json)
    VALUES (?, (SELECT coalesce(max(depth), 0) + 1 FROM encounter_redo WHERE encounter_id = ?), ?)`).run(encounterId, encounterId, JSON.stringify(event));
}

export function peekRedo(db: Db, encounterId: string): { depth: number; event: GmEvent } | null {
  const row = prepared(db, 'SELECT depth, payload_json FROM encounter_redo WHERE encounter_id = ? ORDER BY depth DESC LIMIT 1').get(encounterId) as { depth: number; payload_json: string } | undefined;
  return row ? { depth: row.depth, event: JSON.parse(row.payload_json) as GmEvent } : null;
}

export function popRedo(db: Db, encounterId: string, depth: number): void {
  prepared(db, 'DELETE FROM encounter_redo WHERE encounter_id = ? AND depth = ?').run(encounterId, depth);
}

export function clearRedo(db: Db, encounterId: string): void {
  prepared(db, 'DELETE FROM encounter_redo WHERE encounter_id = ?').run(encounterId);
}
