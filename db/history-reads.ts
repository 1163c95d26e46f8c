// The statements that read a campaign's history and timeline: what they read of a lasting record and of a ledger
// entry, and a character's history, each part through the index that holds that character's rows together. Kept
// apart from the handlers (server/handlers/ledger.ts, server/character-history.ts) so a test can hold each to its plan.
import type { InjuryRow } from './consequences.ts';
import { ENTRY_TEXT_SENT, cutText } from '../core/api/contract.ts';

/** What the history and the timeline read of a lasting record (server/handlers/ledger.ts makes them objects). */
export const FACT_RECORD_COLUMNS = `id, character_id, name, category, data_json, source_encounter_id, source_seq, source_text, created_at, healed_at,
  day_gained, session_gained, day_healed, session_healed`;

/** The columns the history and the timeline read of a ledger entry, with whether it touched a lasting record. */
export const ENTRY_COLUMNS = `seq, type, day, session_id, state, recorded_at, log_json, subjects_json,
  EXISTS (SELECT 1 FROM ledger_records r WHERE r.campaign_id = ledger_entries.campaign_id AND r.seq = ledger_entries.seq) AS touched_records`;

/**
 * How much of a ledger entry's lines (their JSON array) the history reads where it shows only their first
 * ENTRY_TEXT_SENT characters: enough for those, quotes and escapes included, in all but odd lines (read whole then).
 */
export const LINES_LEAD_READ = 512;

/**
 * A character's history reads only that character's rows, each found through an index that holds them together
 * (migration 0010), and of a ledger entry first only what places it in time: its lines (a rest's counts every open
 * record down) and the records it touched are read for the entries the reply carries (server/character-history.ts).
 *  - records: the character's lasting records in order (those of one moment by the event that caused them), from
 *    the index that holds their columns, only what orders them and chooses those sent;
 *  - recordDetails: everything the history shows of the given records (a JSON array of their ids), by their key;
 *  - entries: the done entries naming the character (found in a narrow index of the entries' subjects), then their
 *    time, kind and day from the index that holds their columns, with whether each touched a lasting record (a rest
 *    touches every open record, so the first one found answers);
 *  - entryLines: the lines and subjects of the given done entries (a JSON array of their seqs), from the index that
 *    holds them (the table's rows carry the entries' before and after images: nine times slower to read);
 *  - entryLeads: the first LINES_LEAD_READ characters of the given done entries' lines (a JSON array of their
 *    seqs), where the reply shows only their opening (a rest's whole line runs to tens of thousands of characters);
 *  - carried: the character's carry rows, from their index by subject, kept to the fights of its campaign;
 *  - fights: the given fights' names, sessions, days and last changes (a JSON array of their ids), by their key;
 *  - treatments: which of the given entries (a JSON array of seqs) touched which of the given records (a JSON array
 *    of ids), each pair looked up by `ledger_records`' key: never an entry's whole list;
 *  - treatedOwn: which of the given entries touched one of the character's records, each answered by the first
 *    such record found (an entry's records are read in key order, each record's owner by its key).
 */
export const HISTORY_READS = {
  records: `SELECT id, category, created_at, source_seq, healed_at FROM injuries INDEXED BY injuries_history
    WHERE campaign_id = ? AND character_id = ? ORDER BY created_at, source_seq`,
  recordDetails: `SELECT ${FACT_RECORD_COLUMNS} FROM injuries WHERE id IN (SELECT value FROM json_each(?))`,
  entries: `SELECT seq, type, day, session_id, recorded_at,
    EXISTS (SELECT 1 FROM ledger_records r WHERE r.campaign_id = ledger_entries.campaign_id AND r.seq = ledger_entries.seq) AS touched_records
    FROM ledger_entries INDEXED BY ledger_entries_by_state WHERE campaign_id = ? AND state = 'done' AND seq IN (
    SELECT seq FROM ledger_entries INDEXED BY ledger_entries_by_subjects WHERE campaign_id = ? AND state = 'done'
      AND EXISTS (SELECT 1 FROM json_each(subjects_json) WHERE value = ?)) ORDER BY seq`,
  entryLines: `SELECT seq, log_json, subjects_json FROM ledger_entries INDEXED BY ledger_entries_by_state
    WHERE campaign_id = ? AND state = 'done' AND seq IN (SELECT value FROM json_each(?))`,
  entryLeads: `SELECT seq, substr(log_json, 1, ${LINES_LEAD_READ}) FROM ledger_entries INDEXED BY ledger_entries_by_state
    WHERE campaign_id = ? AND state = 'done' AND seq IN (SELECT value FROM json_each(?))`,
  carried: `SELECT c.encounter_id, c.adjusted_seq, c.ended_at FROM encounter_carry c INDEXED BY encounter_carry_by_subject
    CROSS JOIN encounters e ON e.id = c.encounter_id WHERE c.subject = ? AND e.campaign_id = ?`,
  fights: 'SELECT id, name, session_id, day, updated_at FROM encounters WHERE +campaign_id = ? AND id IN (SELECT value FROM json_each(?))',
  treatments: `SELECT seq, record_id FROM ledger_records WHERE campaign_id = ? AND seq IN (SELECT value FROM json_each(?))
    AND record_id IN (SELECT value FROM json_each(?)) ORDER BY seq`,
  treatedOwn: `SELECT value FROM json_each(?) WHERE EXISTS (SELECT 1 FROM ledger_records r CROSS JOIN injuries i ON i.id = r.record_id
    WHERE r.campaign_id = ? AND r.seq = value AND i.character_id = ? AND i.campaign_id = ?)`,
};

/**
 * What the history and the timeline read of a lasting record (FACT_RECORD_COLUMNS), read raw (arrays, in the order
 * selected) and made into objects by the handler. A long campaign gives a character a thousand records and more,
 * and better-sqlite3's own row objects took longer to build than the read itself.
 */
export type FactRecord = Pick<InjuryRow, 'id' | 'character_id' | 'name' | 'category' | 'data_json' | 'source_encounter_id' | 'source_seq' | 'source_text' | 'created_at'
  | 'healed_at' | 'day_gained' | 'session_gained' | 'day_healed' | 'session_healed'>;
export const factRecord = ([id, character_id, name, category, data_json, source_encounter_id, source_seq, source_text, created_at, healed_at,
  day_gained, session_gained, day_healed, session_healed]: unknown[]) => ({
  id, character_id, name, category, data_json, source_encounter_id, source_seq, source_text, created_at, healed_at, day_gained, session_gained, day_healed, session_healed,
}) as FactRecord;

/** The lines a JSON array of strings opens with, as far as its first characters hold them (`whole` of them complete). */
export interface LeadingLines { lines: string[]; whole: number; closed: boolean }
// A JSON string's characters, up to its closing quote or to where the text was cut (never inside an escape).
const STRING_BODY = /(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*/y;

/**
 * Reads the lines an entry's lines (`["…","…"]`, as JSON.stringify writes them) open with from its first characters
 * (HISTORY_READS.entryLeads): the last line cut where the text was, unless the array closed. Null if the text is not
 * such an array (the lines are then read whole).
 */
export function leadingLines(lead: string): LeadingLines | null {
  if (lead[0] !== '[') return null;
  const lines: string[] = [];
  if (lead[1] === ']') return { lines, whole: 0, closed: true };
  for (let at = 1; ;) {
    if (at === lead.length) return { lines, whole: lines.length, closed: false };
    if (lead[at] !== '"') return null;
    STRING_BODY.lastIndex = at + 1;
    const body = STRING_BODY.exec(lead)![0];
    const end = at + 1 + body.length;
    lines.push(JSON.parse(`"${body}"`) as string);
    // Cut inside the string, or inside an escape (at most five characters of `\uXXXX`).
    if (end === lead.length || (lead[end] === '\\' && lead.length - end < 6)) return { lines, whole: lines.length - 1, closed: false };
    if (lead[end] !== '"') return null;
    at = end + 1;
    if (lead[at] === ']') return { lines, whole: lines.length, closed: true };
    if (at < lead.length && lead[at++] !== ',') return null;
  }
}

/**
 * What a sent entry shows of its lines, from their lead: all joined, or the first alone (`fallback` if there is none),
 * cut to ENTRY_TEXT_SENT; null if the lead does not hold enough to tell (the same text as from the whole lines).
 */
export function leadText({ lines, whole, closed }: LeadingLines, first: boolean, fallback: string): string | null {
  const text = first ? lines[0] : lines.join(' ');
  const known = closed || (first && whole >= 1) || (text !== undefined && text.length > ENTRY_TEXT_SENT);
  return known ? cutText(text ?? fallback, ENTRY_TEXT_SENT) : null;
}
