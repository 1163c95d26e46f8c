// The campaign ledger on disk: entries in order with the exact stored values each one replaced and wrote
// ("images"), the campaign clock, and game sessions. An image is keyed by what it holds:
//   character:<id>  → the character's state_json
//   record:<id>     → an injury row's changeable columns
//   newRecord:<id>  → a record the entry created: the row as written (NEW_RECORD_COLUMNS), or null when it does not exist
//   party           → the campaign's party_json
//   clock           → the campaign's day and open session
//   session:<id>    → a session row, or null when it does not exist
import { prepared, type Db } from './connection.ts';

export type ImageKey = `character:${string}` | `record:${string}` | `newRecord:${string}` | 'party' | 'clock' | `session:${string}`;
export type Images = Record<string, unknown>;

export interface SessionRow {
  id: string;
  campaign_id: string;
  number: number;
  title: string;
  real_date: string;
  notes: string;
  start_day: number;
  end_day: number | null;
  started_at: string;
  ended_at: string | null;
}

export interface LedgerEntryRow {
  campaign_id: string;
  seq: number;
  type: string;
  payload_json: string;
  log_json: string;
  day: number;
  session_id: string | null;
  subjects_json: string;
  before_json: string;
  after_json: string;
  state: 'done' | 'undone' | 'dropped';
  recorded_at: string;
}

export interface Clock {
  day: number;
  sessionId: string | null;
}

const RECORD_COLUMNS = ['name', 'data_json', 'healed_at', 'day_healed', 'session_healed', 'ledger_seq'] as const;
/**
 * What an entry that created a record keeps of it, to take it away and bring it back: every column but its id and
 * campaign (the key and the entry's), `updated_at` (any write moves it) and the fight's columns (always null: a
 * record a ledger entry creates has that entry's seq as `source_seq` and no encounter).
 */
export const NEW_RECORD_COLUMNS = ['character_id', 'name', 'category', 'data_json', 'source_seq', 'day_gained', 'session_gained', 'created_at',
  'healed_at', 'day_healed', 'session_healed', 'ledger_seq'] as const;
export type NewRecordImage = Record<(typeof NEW_RECORD_COLUMNS)[number], unknown>;

export function readClock(db: Db, campaignId: string): Clock {
  const row = prepared(db, 'SELECT day, session_id FROM campaigns WHERE id = ?').get(campaignId) as { day: number; session_id: string | null };
  return { day: row.day, sessionId: row.session_id };
}

/** The stored value behind one image key (JSON-safe, comparable with JSON.stringify). */
export function readImage(db: Db, campaignId: string, key: string): unknown {
  const [kind, id] = splitKey(key);
  switch (kind) {
    case 'character':
      return (prepared(db, 'SELECT state_json FROM characters WHERE id = ? AND campaign_id = ?').get(id, campaignId) as { state_json: string } | undefined)?.state_json ?? null;
    case 'record':
      return prepared(db, `SELECT ${RECORD_COLUMNS.join(', ')} FROM injuries WHERE id = ? AND campaign_id = ?`).get(id, campaignId) ?? null;
    case 'newRecord':
      return prepared(db, `SELECT ${NEW_RECORD_COLUMNS.join(', ')} FROM injuries WHERE id = ? AND campaign_id = ?`).get(id, campaignId) ?? null;
    case 'party':
      return (prepared(db, 'SELECT party_json FROM campaigns WHERE id = ?').get(campaignId) as { party_json: string }).party_json;
    case 'clock':
      return readClock(db, campaignId);
    case 'session':
      return prepared(db, 'SELECT * FROM sessions WHERE id = ? AND campaign_id = ?').get(id, campaignId) ?? null;
    default:
      throw new Error(`Unknown ledger image key ${key}.`);
  }
}

/** Puts an image's value back into the database. */
export function writeImage(db: Db, campaignId: string, key: string, value: unknown, now: string): void {
  const [kind, id] = splitKey(key);
  switch (kind) {
    case 'character':
      prepared(db, 'UPDATE characters SET state_json = ?, updated_at = ? WHERE id = ? AND campaign_id = ?').run(value as string, now, id, campaignId);
      return;
    case 'record': {
      // The image's `ledger_seq` is the entry that last changed the record, so one of its treatments: kept among
      // them if the record lost it (a fight's undone event deleted the record and its redo wrote it anew while the
      // entry was undone; migration 0017). Taking an entry back leaves its seq there (an older one is restored).
      const row = value as Record<(typeof RECORD_COLUMNS)[number], unknown>;
      prepared(db, `UPDATE injuries SET ${RECORD_COLUMNS.map((c) => `${c} = @${c}`).join(', ')}, updated_at = @now,
          treatment_seqs = CASE WHEN @ledger_seq IS NULL OR instr(',' || coalesce(treatment_seqs, '') || ',', ',' || CAST(@ledger_seq AS INTEGER) || ',') THEN treatment_seqs
            ELSE coalesce(treatment_seqs || ',', '') || CAST(@ledger_seq AS INTEGER) END
        WHERE id = @id AND campaign_id = @campaignId`)
        .run({ ...row, now, id, campaignId });
      return;
    }
    case 'newRecord': {
      if (value === null) {
        prepared(db, 'DELETE FROM injuries WHERE id = ? AND campaign_id = ?').run(id, campaignId);
        return;
      }
      prepared(db, `INSERT INTO injuries (id, campaign_id, ${NEW_RECORD_COLUMNS.join(', ')}, updated_at)
        VALUES (@id, @campaignId, ${NEW_RECORD_COLUMNS.map((c) => `@${c}`).join(', ')}, @now)`).run({ ...(value as NewRecordImage), id, campaignId, now });
      return;
    }
    case 'party':
      prepared(db, 'UPDATE campaigns SET party_json = ? WHERE id = ?').run(value as string, campaignId);
      return;
    case 'clock': {
      const clock = value as Clock;
      prepared(db, 'UPDATE campaigns SET day = ?, session_id = ? WHERE id = ?').run(clock.day, clock.sessionId, campaignId);
      return;
    }
    case 'session': {
      if (value === null) {
        prepared(db, 'DELETE FROM sessions WHERE id = ? AND campaign_id = ?').run(id, campaignId);
        return;
      }
      const row = value as SessionRow;
      prepared(db, `INSERT INTO sessions (id, campaign_id, number, title, real_date, notes, start_day, end_day, started_at, ended_at)
        VALUES (@id, @campaign_id, @number, @title, @real_date, @notes, @start_day, @end_day, @started_at, @ended_at)
        ON CONFLICT (id) DO UPDATE SET number = excluded.number, title = excluded.title, real_date = excluded.real_date, notes = excluded.notes,
          start_day = excluded.start_day, end_day = excluded.end_day, started_at = excluded.started_at, ended_at = excluded.ended_at`).run(row);
      return;
    }
    default:
      throw new Error(`Unknown ledger image key ${key}.`);
  }
}

export function readImages(db: Db, campaignId: string, keys: Iterable<string>): Images {
  return Object.fromEntries([...keys].map((key) => [key, readImage(db, campaignId, key)]));
}

/** The keys whose stored value differs from the image (compared as JSON). */
export function changedSince(db: Db, campaignId: string, images: Images): string[] {
  return Object.entries(images).filter(([key, value]) => JSON.stringify(readImage(db, campaignId, key)) !== JSON.stringify(value)).map(([key]) => key);
}

function splitKey(key: string): [string, string] {
  const at = key.indexOf(':');
  return at < 0 ? [key, ''] : [key.slice(0, at), key.slice(at + 1)];
}

// ---- entries ----

/** The seq the next entry of the campaign gets. */
export function nextSeq(db: Db, campaignId: string): number {
  return ((prepared(db, 'SELECT max(seq) AS seq FROM ledger_entries WHERE campaign_id = ?').get(campaignId) as { seq: number | null }).seq ?? 0) + 1;
}

/**
 * How many characters of an entry's lines it keeps as their openings (`lines_lead`: the lines joined by spaces;
 * `first_line_lead`: the first line, null if none): one more than a character's history shows of them
 * (ENTRY_TEXT_SENT), so cutting an opening gives what cutting the whole would (migration 0014).
 */
export const LINES_LEAD = 201;
/**
 * The values of `lines_lead, first_line_lead` for an entry whose lines are the parameter @log_json, computed by
 * SQLite as migration 0014 computed them for the entries before it (the same decoding of the JSON, the same count
 * of characters). Every statement that writes an entry takes them from here.
 */
export const ENTRY_LEADS = `(SELECT coalesce(substr(group_concat(value, ' ' ORDER BY key), 1, ${LINES_LEAD}), '') FROM json_each(@log_json)),
  substr(json_extract(@log_json, '$[0]'), 1, ${LINES_LEAD})`;

export function insertEntry(db: Db, row: Omit<LedgerEntryRow, 'seq' | 'state'>): number {
  // The undone entries found through the index by state (see ENTRY_IN_STATE), each then updated by its key.
  prepared(db, `UPDATE ledger_entries SET state = 'dropped' WHERE campaign_id = ? AND seq IN
    (SELECT seq FROM ledger_entries INDEXED BY ledger_entries_by_state WHERE campaign_id = ? AND state = 'undone')`).run(row.campaign_id, row.campaign_id);
  const seq = nextSeq(db, row.campaign_id);
  prepared(db, `INSERT INTO ledger_entries (campaign_id, seq, type, payload_json, log_json, day, session_id, subjects_json, before_json, after_json, state, recorded_at,
      lines_lead, first_line_lead)
    VALUES (@campaign_id, @seq, @type, @payload_json, @log_json, @day, @session_id, @subjects_json, @before_json, @after_json, 'done', @recorded_at,
      ${ENTRY_LEADS})`).run({ ...row, seq });
  insertEntryRecords(db, row.campaign_id, seq, row.after_json);
  return seq;
}

/** Names the lasting records an entry touched (the `record:` keys of its after-image) in ledger_records. */
export function insertEntryRecords(db: Db, campaignId: string, seq: number, afterJson: string): void {
  prepared(db, `INSERT INTO ledger_records (campaign_id, seq, record_id)
    SELECT ?, ?, substr(key, 8) FROM json_each(?) WHERE key LIKE 'record:%'`).run(campaignId, seq, afterJson);
}

/**
 * Gives each record of a campaign the seqs of the entries that changed it, as ledger_records names them (an
 * import writes its entries after its records; migration 0017 did the same for every campaign).
 */
export function fillTreatmentSeqs(db: Db, campaignId: string): void {
  prepared(db, `UPDATE injuries SET treatment_seqs = t.seqs
    FROM (SELECT record_id, group_concat(seq, ',' ORDER BY seq) AS seqs FROM ledger_records WHERE campaign_id = ? GROUP BY record_id) AS t
    WHERE injuries.id = t.record_id AND injuries.campaign_id = ?`).run(campaignId, campaignId);
}

/** The entry undo would take back: the newest one still done. */
export function lastDone(db: Db, campaignId: string): LedgerEntryRow | undefined {
  return prepared(db, ENTRY_IN_STATE('done', 'DESC')).get(campaignId, campaignId) as LedgerEntryRow | undefined;
}

/**
 * The oldest or newest entry in a state: its seq from the index by state, then its row by its key. An entry's
 * `state` comes after its before and after images in the row, so a walk of the rows that reads it reads every
 * image on its way (a rest's are a megabyte each in a long campaign: 39 ms to find no undone entry in 400).
 */
const ENTRY_IN_STATE = (state: 'done' | 'undone', order: 'ASC' | 'DESC') => `SELECT * FROM ledger_entries WHERE campaign_id = ? AND seq =
  (SELECT seq FROM ledger_entries INDEXED BY ledger_entries_by_state WHERE campaign_id = ? AND state = '${state}' ORDER BY seq ${order} LIMIT 1)`;

/** The entry redo would bring back: the oldest undone one (undone entries always come after every done one). */
export function nextUndone(db: Db, campaignId: string): LedgerEntryRow | undefined {
  return prepared(db, ENTRY_IN_STATE('undone', 'ASC')).get(campaignId, campaignId) as LedgerEntryRow | undefined;
}

export function setEntryState(db: Db, campaignId: string, seq: number, state: LedgerEntryRow['state']): void {
  prepared(db, 'UPDATE ledger_entries SET state = ? WHERE campaign_id = ? AND seq = ?').run(state, campaignId, seq);
}

/** What the recovery screen shows of an entry: all held by the index by state, none of the entry's images. */
export type ListedEntryRow = Pick<LedgerEntryRow, 'seq' | 'type' | 'day' | 'session_id' | 'log_json' | 'state' | 'recorded_at' | 'subjects_json'>;

/** The newest `limit` entries, from the index by state (the rows hold the entries' images: 157 → 18 ms for 200 rests). */
export function listEntries(db: Db, campaignId: string, limit = 1000): ListedEntryRow[] {
  return prepared(db, `SELECT seq, type, day, session_id, log_json, state, recorded_at, subjects_json FROM ledger_entries INDEXED BY ledger_entries_by_state
    WHERE campaign_id = ? ORDER BY seq DESC LIMIT ?`).all(campaignId, limit) as ListedEntryRow[];
}

// ---- sessions ----

export function listSessions(db: Db, campaignId: string): SessionRow[] {
  return prepared(db, 'SELECT * FROM sessions WHERE campaign_id = ? ORDER BY number').all(campaignId) as SessionRow[];
}

export function getSession(db: Db, id: string): SessionRow | undefined {
  return prepared(db, 'SELECT * FROM sessions WHERE id = ?').get(id) as SessionRow | undefined;
}

export function nextSessionNumber(db: Db, campaignId: string): number {
  return ((prepared(db, 'SELECT max(number) AS n FROM sessions WHERE campaign_id = ?').get(campaignId) as { n: number | null }).n ?? 0) + 1;
}

export function updateSessionText(db: Db, id: string, fields: { title?: string; notes?: string; real_date?: string }): void {
  const sets = Object.keys(fields).map((key) => `${key} = @${key}`);
  if (sets.length) prepared(db, `UPDATE sessions SET ${sets.join(', ')} WHERE id = @id`).run({ ...fields, id });
}

export function sessionHasEncounters(db: Db, sessionId: string): boolean {
  return Boolean(prepared(db, 'SELECT 1 FROM encounters WHERE session_id = ? LIMIT 1').get(sessionId));
}
