// What fights leave on the campaign: injuries linked to the event that caused them, and the condition an ended
// encounter carried onto characters and the party (kept so that undoing the end puts the old values back).
import type { Consequences } from '../core/encounter/types.ts';
import { prepared, type Db } from './connection.ts';
import { GmError } from '../core/api/contract.ts';
import { readClock } from './ledger.ts';

export interface InjuryRow {
  id: string;
  campaign_id: string;
  character_id: string;
  name: string;
  category: string;
  data_json: string;
  source_encounter_id: string | null;
  source_seq: number | null;
  created_at: string;
  updated_at: string;
  healed_at: string | null;
  day_gained?: number | null;
  session_gained?: string | null;
  day_healed?: number | null;
  session_healed?: string | null;
  ledger_seq?: number | null;
  /** The first log line of the event that caused it (migration 0005). */
  source_text?: string | null;
  /** The seqs of the ledger entries that changed it, ascending, joined by commas (migration 0017). */
  treatment_seqs?: string | null;
}

/** What recovery and a fight's start read of a running record: all held by the index injuries_history. */
export type RunningInjuryRow = Pick<InjuryRow, 'id' | 'character_id' | 'name' | 'category' | 'data_json' | 'day_gained'>;

/**
 * A character's running records, oldest first. Only the columns its readers use, so the walk of the index
 * injuries_history reads no row: every ledger write loads the whole party's (a party member of a long campaign has
 * 1,900), and reading each row whole took twice as long.
 */
export function runningInjuries(db: Db, characterId: string): RunningInjuryRow[] {
  return prepared(db, `SELECT id, character_id, name, category, data_json, day_gained FROM injuries INDEXED BY injuries_history
    WHERE character_id = ? AND healed_at IS NULL ORDER BY created_at`).all(characterId) as RunningInjuryRow[];
}

/** What the campaign's home shows of an open record (toInjuryRecord): all held by the index injuries_history. */
export type OpenInjuryRow = Pick<InjuryRow, 'id' | 'character_id' | 'name' | 'category' | 'data_json' | 'source_encounter_id' | 'source_seq' | 'created_at' | 'healed_at'>;
const OPEN_INJURY_COLUMNS = 'id, character_id, name, category, data_json, source_encounter_id, source_seq, created_at, healed_at';

/**
 * The campaign's open records for its home screen: each character's newest `perCharacter` (oldest first), and how
 * many each character has open. The healed ones, and the rest of a long list, are in the character's history.
 *
 * Read character by character, walking back from the newest in the index that holds them, instead of one sort of
 * every open record of the campaign (thousands in a long one, each read from its row). The records are those that
 * sort gave, in its order: newest first by time and event, records of one moment in the order of their ids (SQLite's
 * sort keeps the order the index gave them in); then all by time and event, then character and id.
 */
export function openInjuries(db: Db, campaignId: string, perCharacter: number): { rows: OpenInjuryRow[]; counts: Record<string, number> } {
  const characters = prepared(db, 'SELECT id FROM characters WHERE campaign_id = ? ORDER BY id').all(campaignId) as { id: string }[];
  const newest = prepared(db, `SELECT ${OPEN_INJURY_COLUMNS} FROM injuries INDEXED BY injuries_history
    WHERE character_id = ? AND campaign_id = ? AND healed_at IS NULL ORDER BY created_at DESC, source_seq DESC LIMIT ?`);
  const ofMoment = prepared(db, `SELECT ${OPEN_INJURY_COLUMNS} FROM injuries INDEXED BY injuries_history
    WHERE character_id = ? AND campaign_id = ? AND healed_at IS NULL AND created_at = ? AND source_seq IS ? ORDER BY id`);
  const openCount = prepared(db, 'SELECT count(*) AS n FROM injuries INDEXED BY injuries_moments WHERE character_id = ? AND campaign_id = ? AND healed_at IS NULL');
  const sameMoment = (a: OpenInjuryRow, b: OpenInjuryRow) => a.created_at === b.created_at && a.source_seq === b.source_seq;
  const rows: OpenInjuryRow[] = [];
  const openOf = new Map<string, number>();
  for (const { id } of characters) {
    const found = newest.all(id, campaignId, perCharacter) as OpenInjuryRow[];
    if (!found.length) continue;
    openOf.set(id, (openCount.get(id, campaignId) as { n: number }).n);
    const last = found.at(-1)!;
    // The oldest moment taken may hold more records than were taken: those first by id.
    const before = found.filter((r) => !sameMoment(r, last));
    rows.push(...before, ...(ofMoment.all(id, campaignId, last.created_at, last.source_seq) as OpenInjuryRow[]).slice(0, found.length - before.length));
  }
  const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  rows.sort((a, b) => text(a.created_at, b.created_at) || (a.source_seq ?? -Infinity) - (b.source_seq ?? -Infinity) || text(a.character_id, b.character_id) || text(a.id, b.id));
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row.character_id] = openOf.get(row.character_id)!;
  return { rows, counts };
}

/** An injury record of a fight as its row stores it: the rules' record with its data as JSON. */
export interface InjuryWrite {
  key: string;
  characterId: string;
  name: string;
  category: string;
  data: string;
}

/** What one write changes in an encounter's injury rows (server/encounter-store.ts works it out). */
export interface InjuryChanges {
  added: InjuryWrite[];
  changed: InjuryWrite[];
  /** Keys of records no longer given: their event was undone. */
  removed: string[];
}

/**
 * Makes the injury rows of one encounter match its state, reading all of them: new ones are inserted linked to event
 * `seq`, changed ones (an extended injury) updated, and ones whose event was undone deleted. A store that knows the
 * rows as they stand writes only its changes instead (writeInjuryChanges).
 */
export function syncInjuries(db: Db, campaignId: string, encounterId: string, injuries: readonly InjuryWrite[], seq: number, now: string): void {
  const existing = new Map((prepared(db, 'SELECT id, name, data_json, ledger_seq FROM injuries WHERE source_encounter_id = ?').all(encounterId) as { id: string; name: string; data_json: string; ledger_seq: number | null }[]).map((r) => [r.id, r]));
  const wanted = new Set<string>();
  for (const injury of injuries) {
    const id = injuryId(encounterId, injury.key);
    wanted.add(id);
    const row = existing.get(id);
    if (!row) insertInjury(db, campaignId, encounterId, injury, seq, now);
    else if (row.data_json !== injury.data && row.ledger_seq === null) updateInjury(db, encounterId, injury, now);
  }
  for (const [id, row] of existing) {
    if (wanted.has(id)) continue;
    refuseTreated(row);
    prepared(db, 'DELETE FROM injuries WHERE id = ?').run(id);
  }
}

/**
 * Writes one event's changes to an encounter's injury rows, touching only those rows: the added ones inserted
 * linked to event `seq`, the changed ones updated (unless the ledger has treated them), the removed ones deleted.
 */
export function writeInjuryChanges(db: Db, campaignId: string, encounterId: string, changes: InjuryChanges, seq: number, now: string): void {
  for (const injury of changes.added) insertInjury(db, campaignId, encounterId, injury, seq, now);
  for (const injury of changes.changed) updateInjury(db, encounterId, injury, now);
  for (const key of changes.removed) {
    const id = injuryId(encounterId, key);
    const row = prepared(db, 'SELECT name, ledger_seq FROM injuries WHERE id = ?').get(id) as { name: string; ledger_seq: number | null } | undefined;
    if (!row) continue;
    refuseTreated(row);
    prepared(db, 'DELETE FROM injuries WHERE id = ?').run(id);
  }
}

const injuryId = (encounterId: string, key: string) => `${encounterId}:${key}`;

/** A record the ledger has treated belongs to the campaign: undoing the fight's event that made it is refused. */
function refuseTreated(row: { name: string; ledger_seq: number | null }): void {
  if (row.ledger_seq !== null) throw new GmError(`${row.name} has been treated in the ledger since; undo those treatments first.`);
}

function insertInjury(db: Db, campaignId: string, encounterId: string, injury: InjuryWrite, seq: number, now: string): void {
  const clock = readClock(db, campaignId);
  // The event's log lines are already written (the commit inserts the event first): its first line is the cause.
  prepared(db, `INSERT INTO injuries (id, campaign_id, character_id, name, category, data_json, source_encounter_id, source_seq, day_gained, session_gained, created_at, updated_at, source_text)
    VALUES (@id, @campaignId, @characterId, @name, @category, @data, @encounterId, @seq, @day, @sessionId, @now, @now,
      (SELECT json_extract(log_json, '$[0].text') FROM encounter_events WHERE encounter_id = @encounterId AND seq = @seq))`)
    .run({ id: injuryId(encounterId, injury.key), campaignId, characterId: injury.characterId, name: injury.name, category: injury.category, data: injury.data, encounterId, seq, day: clock.day, sessionId: clock.sessionId, now });
}

/** Once the ledger has treated a record the campaign owns it: the fight goes on without rewriting it. */
function updateInjury(db: Db, encounterId: string, injury: InjuryWrite, now: string): void {
  prepared(db, 'UPDATE injuries SET name = ?, category = ?, data_json = ?, updated_at = ? WHERE id = ? AND ledger_seq IS NULL').run(injury.name, injury.category, injury.data, now, injuryId(encounterId, injury.key));
}

/** Whether an ended encounter's carry-over has already been written. */
export function carryApplied(db: Db, encounterId: string): boolean {
  return Boolean(prepared(db, 'SELECT 1 FROM encounter_carry WHERE encounter_id = ? LIMIT 1').get(encounterId));
}

/**
 * Writes an ended encounter's carry-over once, remembering the values it replaced and the event that ended the fight
 * (`endedSeq`, already stored): its place in the campaign's history, whatever events a ruleset allows after it.
 */
export function applyCarry(db: Db, encounterId: string, campaignId: string, carry: NonNullable<Consequences['carry']>, party: Record<string, unknown>, now: string, endedSeq: number): void {
  if (carryApplied(db, encounterId)) return;
  const endedAt = (prepared(db, 'SELECT recorded_at FROM encounter_events WHERE encounter_id = ? AND seq = ?').get(encounterId, endedSeq) as { recorded_at: string } | undefined)?.recorded_at ?? now;
  const insert = prepared(db, 'INSERT INTO encounter_carry (encounter_id, subject, previous_json, ended_seq, ended_at) VALUES (?, ?, ?, ?, ?)');
  const remember = (subject: string, previous: string) => insert.run(encounterId, subject, previous, endedSeq, endedAt);
  for (const { characterId, state } of carry) {
    const row = prepared(db, 'SELECT state_json FROM characters WHERE id = ?').get(characterId) as { state_json: string } | undefined;
    if (!row) continue;
    remember(`character:${characterId}`, row.state_json);
    prepared(db, 'UPDATE characters SET state_json = ?, updated_at = ? WHERE id = ?').run(JSON.stringify({ ...JSON.parse(row.state_json), ...state }), now, characterId);
  }
  const campaign = prepared(db, 'SELECT party_json FROM campaigns WHERE id = ?').get(campaignId) as { party_json: string };
  remember('campaign', campaign.party_json);
  prepared(db, 'UPDATE campaigns SET party_json = ? WHERE id = ?').run(JSON.stringify({ ...JSON.parse(campaign.party_json), ...party }), campaignId);
  noteCarryAdjustments(db, encounterId);
}

/**
 * Notes on the encounter's carry rows the event holding the GM's adjustments to them (the ending event), or none, as
 * migration 0006 did for the rows before it: a history reads only those events. The events are written first.
 */
export function noteCarryAdjustments(db: Db, encounterId: string): void {
  prepared(db, `UPDATE encounter_carry SET adjusted_seq = (
      SELECT v.seq FROM encounter_events v
      WHERE v.encounter_id = encounter_carry.encounter_id AND v.seq = encounter_carry.ended_seq AND json_extract(v.payload_json, '$.carryAdjust') IS NOT NULL
    ) WHERE encounter_id = ?`).run(encounterId);
}

/** Undoing an encounter's end puts back what its carry-over replaced. */
export function revertCarry(db: Db, encounterId: string, campaignId: string, now: string): void {
  const rows = prepared(db, 'SELECT subject, previous_json FROM encounter_carry WHERE encounter_id = ?').all(encounterId) as { subject: string; previous_json: string }[];
  for (const { subject, previous_json } of rows) {
    if (subject === 'campaign') prepared(db, 'UPDATE campaigns SET party_json = ? WHERE id = ?').run(previous_json, campaignId);
    else prepared(db, 'UPDATE characters SET state_json = ?, updated_at = ? WHERE id = ?').run(previous_json, now, subject.slice('character:'.length));
  }
  prepared(db, 'DELETE FROM encounter_carry WHERE encounter_id = ?').run(encounterId);
}

// ---- the campaign's history of writes: ledger entries and fights' ends ----
//
// What the ledger records and what an ended fight carries onto the characters are one history of the campaign:
// undo (of either) takes back only its newest item, so what stays is always what a replay of the encounters' events
// and the done ledger entries, in their order, gives. An item's place in that history is its write's time: the app
// gives every write its own, later time (server/app.ts), and an import keeps the times of the file. Two items of
// one time (one write made both: the demo fights, then rests) are put in a fixed order: a fight's end before a ledger
// entry, and two fights' ends by id.

/** Where an ended encounter's carry-over sits in the campaign's history (its ending event and that event's time), or null when none is written. */
export function carryWritten(db: Db, encounterId: string): { seq: number; at: string } | null {
  const row = prepared(db, 'SELECT ended_seq, ended_at FROM encounter_carry WHERE encounter_id = ? LIMIT 1').get(encounterId) as { ended_seq: number; ended_at: string } | undefined;
  return row ? { seq: row.ended_seq, at: row.ended_at } : null;
}

/**
 * The first fight of the campaign whose end was written onto it after `time` (the end of the fight `after`, or a
 * ledger entry recorded then: a fight's end of the same time comes before a ledger entry, after an end of a lower id).
 * Read from the carry rows' own end times (an index), so a campaign of a thousand fights reads only the later ends.
 */
export function endingSince(db: Db, campaignId: string, time: string, after?: { encounterId: string }): { name: string; day: number | null } | null {
  return (prepared(db, `SELECT e.name, e.day FROM encounter_carry c INDEXED BY encounter_carry_by_end JOIN encounters e ON e.id = c.encounter_id
    WHERE c.ended_at >= @time AND e.campaign_id = @campaignId AND (c.ended_at > @time OR e.id > @encounterId)
    ORDER BY c.ended_at LIMIT 1`).get({ campaignId, time, encounterId: after?.encounterId ?? '\uffff' }) as { name: string; day: number | null } | undefined) ?? null;
}

/** The newest ledger entry still done, if it was recorded at or after `time` (the one the ledger's undo takes first). */
export function entrySince(db: Db, campaignId: string, time: string): { type: string; log_json: string; day: number } | null {
  return (prepared(db, "SELECT type, log_json, day FROM ledger_entries WHERE campaign_id = ? AND state = 'done' AND recorded_at >= ? ORDER BY seq DESC LIMIT 1")
    .get(campaignId, time) as { type: string; log_json: string; day: number } | undefined) ?? null;
}
