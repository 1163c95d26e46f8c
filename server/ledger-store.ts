// The campaign ledger: recovery and clock actions applied to the campaign inside the caller's write transaction,
// each stored with the exact values it replaced and wrote, so it is committed before it is shown and undo puts
// back the exact previous state (GUIDE §2, same principles as encounters).
import * as z from 'zod';
import { GmError, cutText } from '../core/api/contract.ts';
import { fillRolls } from '../core/dice/fill-rolls.ts';
import type { GmEvent, RollRequest } from '../core/encounter/types.ts';
import { applyRecovery, parseRecoveryEvent } from '../core/ledger/kernel.ts';
import { isRefusal, type CampaignWorld, type NewRecord, type RecoveryChange, type RecoveryOutcome, type RecoveryRules } from '../core/ledger/types.ts';
import { resolveOptions } from '../core/rulesets/options.ts';
import { findRuleset } from '../core/rulesets/registry.ts';
import { normalizeSheet } from '../core/rulesets/sheet.ts';
import { listCharacters } from '../db/campaigns.ts';
import { prepared, type Db } from '../db/connection.ts';
import { endingSince, runningInjuries } from '../db/consequences.ts';
import * as ledger from '../db/ledger.ts';
import type { CampaignRow } from '../db/rows.ts';

export const SESSION_TITLE_MAX = 120;
export const NOTES_MAX = 10_000;

/** The campaign clock's own events, the same for every ruleset. */
export const clockEventSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('SESSION_START'),
    title: z.string().trim().min(1, { error: 'A session title cannot be empty.' }).max(SESSION_TITLE_MAX, { error: `A session title has at most ${SESSION_TITLE_MAX} characters.` }).optional(),
    date: z.iso.date({ error: 'The session date must be a date like 2026-11-22.' }).optional(),
    notes: z.string().max(NOTES_MAX, { error: `Session notes have at most ${NOTES_MAX.toLocaleString('en')} characters.` }).optional(),
  }),
  z.strictObject({
    type: z.literal('SESSION_END'),
    notes: z.string().max(NOTES_MAX, { error: `Session notes have at most ${NOTES_MAX.toLocaleString('en')} characters.` }).optional(),
  }),
  z.strictObject({
    type: z.literal('ADVANCE_DAYS'),
    days: z.number({ error: 'Say how many days pass.' }).int({ error: 'Days pass in whole numbers.' }).min(1, { error: 'At least one day must pass.' }).max(365, { error: 'Advance at most 365 days at once.' }),
  }),
]);
const CLOCK_EVENTS = new Set(['SESSION_START', 'SESSION_END', 'ADVANCE_DAYS']);

/** The recovery rules of a ruleset; one this version does not know (a newer database) is refused as rulesetOf does. */
export function recoveryRulesFor(rulesetId: string): RecoveryRules {
  const ruleset = findRuleset(rulesetId);
  if (!ruleset) throw new GmError(`This campaign uses a ruleset this version does not know (${rulesetId}).`, 'invalid');
  return ruleset.recovery;
}

/** The campaign as recovery sees it: clock, options, party values, party members with running records. */
export function loadWorld(db: Db, campaign: CampaignRow): CampaignWorld {
  const ruleset = findRuleset(campaign.ruleset_id)!;
  return {
    day: ledger.readClock(db, campaign.id).day,
    options: resolveOptions(ruleset.options, JSON.parse(campaign.options_json)),
    party: JSON.parse(campaign.party_json) as Record<string, unknown>,
    characters: listCharacters(db, campaign.id)
      .filter((c) => c.role === 'pc' && c.archived_at === null)
      .map((c) => ({
        id: c.id,
        name: c.name,
        role: c.role,
        sheet: normalizeSheet(ruleset.sheet, JSON.parse(c.sheet_json)) as Record<string, unknown>,
        state: JSON.parse(c.state_json ?? '{}') as Record<string, unknown>,
        records: runningInjuries(db, c.id).map((r) => ({
          id: r.id, characterId: r.character_id, name: r.name, category: r.category,
          data: JSON.parse(r.data_json) as Record<string, unknown>, dayGained: r.day_gained ?? null,
        })),
      })),
  };
}

export interface LedgerWrite {
  db: Db;
  campaign: CampaignRow;
  now: string;
  newId: () => string;
}

/** Parses an untrusted ledger event: a clock event or one of the ruleset's recovery events. */
export function parseLedgerEvent(rulesetId: string, raw: unknown): GmEvent {
  const type = raw && typeof raw === 'object' ? (raw as { type?: unknown }).type : undefined;
  if (typeof type === 'string' && CLOCK_EVENTS.has(type)) {
    const parsed = clockEventSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new GmError(issue.code === 'unrecognized_keys' ? `The ${type.toLowerCase().replace('_', ' ')} has fields this app does not know: ${issue.keys.join(', ')}.` : issue.message, 'invalid');
    }
    return parsed.data as GmEvent;
  }
  try {
    return parseRecoveryEvent(recoveryRulesFor(rulesetId), raw);
  } catch (error) {
    if (isRefusal(error)) throw new GmError(error.message, 'invalid');
    throw error;
  }
}

/** The rolls a recovery event would need now, so the GM can type physical dice in. */
export function ledgerRolls(db: Db, campaign: CampaignRow, raw: unknown): RollRequest[] {
  const event = parseLedgerEvent(campaign.ruleset_id, raw);
  if (CLOCK_EVENTS.has(event.type) || event.type === 'PARTY') return [];
  return recoveryRulesFor(campaign.ruleset_id).rollsFor?.(loadWorld(db, campaign), event) ?? [];
}

/** Appends one ledger event: applied, written, and recorded with its images, in the caller's transaction. */
export function appendLedger(w: LedgerWrite, raw: unknown): number {
  const event = parseLedgerEvent(w.campaign.ruleset_id, raw);
  const clock = ledger.readClock(w.db, w.campaign.id);
  const seq = ledger.nextSeq(w.db, w.campaign.id);

  if (event.type === 'SESSION_START' || event.type === 'SESSION_END') return sessionEvent(w, event, clock);
  const rules = recoveryRulesFor(w.campaign.ruleset_id);

  const world = loadWorld(w.db, w.campaign);
  let outcome: RecoveryOutcome;
  const keys = new Set<string>();
  let newClock: ledger.Clock | null = null;
  if (event.type === 'ADVANCE_DAYS') {
    const days = event['days'] as number;
    newClock = { ...clock, day: clock.day + days };
    keys.add('clock');
    const passed = guard(() => rules.daysPassed?.({ ...world, day: newClock!.day }, days) ?? null);
    const from = clock.day;
    outcome = {
      change: passed?.change ?? {},
      log: [`${days === 1 ? 'A day passes' : `${days} days pass`}: day ${from} → day ${newClock.day}.`, ...(passed?.log ?? [])],
    };
  } else {
    const filled = fillRolls(rules.rollsFor?.(world, event) ?? [], event);
    outcome = guard(() => applyRecovery(rules, world, filled));
    Object.assign(event, filled);
  }

  const recordOwner = new Map(world.characters.flatMap((c) => c.records.map((r) => [r.id, c.id] as const)));
  for (const c of outcome.change.characters ?? []) keys.add(`character:${c.id}`);
  for (const r of outcome.change.records ?? []) {
    if (!recordOwner.has(r.id)) throw new Error(`Recovery changed record ${r.id}, which is not running in this campaign.`);
    keys.add(`record:${r.id}`);
  }
  if (outcome.change.party) keys.add('party');
  const created = (outcome.change.newRecords ?? []).map((r) => ({ ...checkNewRecord(w.campaign.ruleset_id, world, r), id: w.newId() }));
  for (const r of created) keys.add(`newRecord:${r.id}`);

  const subjects = new Set<string>([
    ...(outcome.change.characters ?? []).map((c) => c.id),
    ...(outcome.change.records ?? []).map((r) => recordOwner.get(r.id)!),
    ...created.map((r) => r.characterId),
    ...(event.type === 'PARTY' ? (event['characterIds'] as string[]) : typeof event['characterId'] === 'string' ? [event['characterId']] : []),
  ]);
  return record(w, keys, () => {
    if (newClock) ledger.writeImage(w.db, w.campaign.id, 'clock', newClock, w.now);
    const day = newClock?.day ?? clock.day;
    writeChange(w, outcome.change, day, clock.sessionId, seq);
    // Gained on the day and in the session the entry is written in, as a fight's records are (db/consequences.ts),
    // with the entry as their source: no encounter, and the entry's seq.
    for (const r of created) {
      const row: ledger.NewRecordImage = {
        character_id: r.characterId, name: r.name, category: r.category, data_json: JSON.stringify(r.data), source_seq: seq,
        day_gained: day, session_gained: clock.sessionId, created_at: w.now, healed_at: null, day_healed: null, session_healed: null, ledger_seq: null,
      };
      ledger.writeImage(w.db, w.campaign.id, `newRecord:${r.id}`, row, w.now);
    }
  }, { event, log: outcome.log, day: clock.day, sessionId: clock.sessionId, subjects: [...subjects] });
}

/** The longest record name a campaign file carries (core/export/campaign.ts): a longer one could not be exported. */
const RECORD_NAME_MAX = 200;

/** A record a ruleset's recovery creates, checked against the campaign: a wrong one is a bug in the ruleset, not the GM's. */
function checkNewRecord(rulesetId: string, world: CampaignWorld, record: NewRecord): NewRecord {
  const ruleset = findRuleset(rulesetId)!;
  if (!world.characters.some((c) => c.id === record.characterId)) throw new Error(`Recovery created a record for ${record.characterId}, who is not a party member of this campaign.`);
  if (!ruleset.records.categories.some((c) => c.key === record.category)) throw new Error(`Recovery created a record of category "${record.category}", which ${ruleset.name} does not declare.`);
  if (record.name.length < 1 || record.name.length > RECORD_NAME_MAX) throw new Error(`Recovery created a record named with ${record.name.length} characters (1–${RECORD_NAME_MAX}).`);
  return record;
}

/** Runs a ledger write between two readings of what it touches, and stores the entry with both. */
function record(w: LedgerWrite, keys: Iterable<string>, write: () => void, entry: { event: GmEvent; log: string[]; day: number; sessionId: string | null; subjects: string[] }): number {
  const touched = [...keys];
  const before = ledger.readImages(w.db, w.campaign.id, touched);
  write();
  const after = ledger.readImages(w.db, w.campaign.id, touched);
  return ledger.insertEntry(w.db, {
    campaign_id: w.campaign.id, type: entry.event.type, payload_json: JSON.stringify(entry.event), log_json: JSON.stringify(entry.log),
    day: entry.day, session_id: entry.sessionId, subjects_json: JSON.stringify(entry.subjects),
    before_json: JSON.stringify(before), after_json: JSON.stringify(after), recorded_at: w.now,
  });
}

function sessionEvent(w: LedgerWrite, event: GmEvent, clock: ledger.Clock): number {
  let log: string;
  let sessionKey: string;
  let write: () => void;
  if (event.type === 'SESSION_START') {
    if (clock.sessionId) {
      const open = ledger.getSession(w.db, clock.sessionId)!;
      throw new GmError(`${open.title} is still being played: end it before starting another.`);
    }
    const number = ledger.nextSessionNumber(w.db, w.campaign.id);
    const row: ledger.SessionRow = {
      id: w.newId(), campaign_id: w.campaign.id, number, title: (event['title'] as string | undefined) ?? `Session ${number}`,
      real_date: (event['date'] as string | undefined) ?? w.now.slice(0, 10), notes: (event['notes'] as string | undefined) ?? '',
      start_day: clock.day, end_day: null, started_at: w.now, ended_at: null,
    };
    sessionKey = `session:${row.id}`;
    log = `${row.title} starts (${row.real_date}) on day ${clock.day}.`;
    event['sessionId'] = row.id;
    write = () => {
      ledger.writeImage(w.db, w.campaign.id, sessionKey, row, w.now);
      ledger.writeImage(w.db, w.campaign.id, 'clock', { ...clock, sessionId: row.id }, w.now);
    };
  } else {
    if (!clock.sessionId) throw new GmError('No session is being played: there is nothing to end.');
    const open = ledger.getSession(w.db, clock.sessionId)!;
    sessionKey = `session:${open.id}`;
    const notes = event['notes'] as string | undefined;
    log = `${open.title} ends on day ${clock.day}.`;
    write = () => {
      ledger.writeImage(w.db, w.campaign.id, sessionKey, { ...open, end_day: clock.day, ended_at: w.now, ...(notes !== undefined ? { notes } : {}) }, w.now);
      ledger.writeImage(w.db, w.campaign.id, 'clock', { ...clock, sessionId: null }, w.now);
    };
  }
  const sessionId = event.type === 'SESSION_START' ? (event['sessionId'] as string) : clock.sessionId;
  return record(w, ['clock', sessionKey], write, { event, log: [log], day: clock.day, sessionId, subjects: [] });
}

function writeChange(w: LedgerWrite, change: RecoveryChange, day: number, sessionId: string | null, seq: number): void {
  // Statements from the connection's cache: a rest changes every record it counts down (1,863 on the bench's long
  // campaign), and preparing the update anew for each cost about 60 ms of such a rest's 470–635.
  for (const { id, state } of change.characters ?? []) {
    prepared(w.db, 'UPDATE characters SET state_json = ?, updated_at = ? WHERE id = ? AND campaign_id = ?').run(JSON.stringify(state), w.now, id, w.campaign.id);
  }
  for (const record of change.records ?? []) {
    // The record keeps the entry's seq among its treatments (migration 0017), in the one update made of it.
    prepared(w.db, `UPDATE injuries SET data_json = @data, name = coalesce(@name, name), ledger_seq = @seq, updated_at = @now,
        treatment_seqs = coalesce(treatment_seqs || ',', '') || CAST(@seq AS INTEGER),
        healed_at = CASE WHEN @healed THEN @now ELSE healed_at END,
        day_healed = CASE WHEN @healed THEN @day ELSE day_healed END,
        session_healed = CASE WHEN @healed THEN @sessionId ELSE session_healed END
      WHERE id = @id AND campaign_id = @campaignId`).run({
      data: JSON.stringify(record.data), name: record.name ?? null, seq, now: w.now, healed: record.healed ? 1 : 0, day, sessionId, id: record.id, campaignId: w.campaign.id,
    });
  }
  if (change.party) prepared(w.db, 'UPDATE campaigns SET party_json = ? WHERE id = ?').run(JSON.stringify(change.party), w.campaign.id);
}

/** Takes back the newest entry, if nothing it wrote has changed since (a fight, or a later edit). */
export function undoLedger(w: LedgerWrite): void {
  const entry = ledger.lastDone(w.db, w.campaign.id);
  if (!entry) throw new GmError('There is nothing to undo in the ledger.');
  const refusal = fightEndedSince(w.db, entry, 'undo');
  if (refusal) throw new GmError(refusal);
  const after = JSON.parse(entry.after_json) as ledger.Images;
  const moved = ledger.changedSince(w.db, w.campaign.id, after);
  if (moved.length) throw new GmError(`${describeKeys(w.db, moved)} changed after “${firstLine(entry)}”, so it can no longer be undone.`);
  const before = JSON.parse(entry.before_json) as ledger.Images;
  for (const [key, value] of Object.entries(before)) {
    if (key.startsWith('session:') && value === null && ledger.sessionHasEncounters(w.db, key.slice('session:'.length))) {
      throw new GmError('That session already has encounters, so its start can no longer be undone.');
    }
  }
  restore(w, before);
  ledger.setEntryState(w.db, w.campaign.id, entry.seq, 'undone');
}

/** Brings back the oldest undone entry, if everything it changes is still as it was before it. */
export function redoLedger(w: LedgerWrite): void {
  const entry = ledger.nextUndone(w.db, w.campaign.id);
  if (!entry) throw new GmError('There is nothing to redo in the ledger.');
  const refusal = fightEndedSince(w.db, entry, 'redo');
  if (refusal) throw new GmError(refusal);
  const before = JSON.parse(entry.before_json) as ledger.Images;
  const moved = ledger.changedSince(w.db, w.campaign.id, before);
  if (moved.length) throw new GmError(`The undone action no longer fits: ${describeKeys(w.db, moved)} changed since.`);
  restore(w, JSON.parse(entry.after_json) as ledger.Images);
  ledger.setEntryState(w.db, w.campaign.id, entry.seq, 'done');
}

/**
 * A fight's end written onto the campaign after the entry (db/consequences.ts): the entry is no longer the newest
 * thing written there, so undoing it, or bringing it back, would change the campaign under that fight's end.
 */
function fightEndedSince(db: Db, entry: ledger.LedgerEntryRow, action: 'undo' | 'redo'): string | null {
  const ending = endingSince(db, entry.campaign_id, entry.recorded_at);
  if (!ending) return null;
  return `“${cutText(firstLine(entry), 80)}” can no longer be ${action === 'undo' ? 'undone' : 'redone'}: the end of “${cutText(ending.name, 80)}” was written onto the campaign after it. Undo that fight's end first (in its runner), or leave the ledger as it is.`;
}

/** Sessions first when they come back (the clock names them), last when they go (nothing may name them). */
function restore(w: LedgerWrite, images: ledger.Images): void {
  const entries = Object.entries(images);
  const sessions = entries.filter(([key]) => key.startsWith('session:'));
  for (const [key, value] of sessions) if (value !== null) ledger.writeImage(w.db, w.campaign.id, key, value, w.now);
  for (const [key, value] of entries) if (!key.startsWith('session:')) ledger.writeImage(w.db, w.campaign.id, key, value, w.now);
  for (const [key, value] of sessions) if (value === null) ledger.writeImage(w.db, w.campaign.id, key, value, w.now);
}

export function undoLabel(db: Db, campaignId: string): string | null {
  const entry = ledger.lastDone(db, campaignId);
  return entry ? firstLine(entry) : null;
}

export function redoLabel(db: Db, campaignId: string): string | null {
  const entry = ledger.nextUndone(db, campaignId);
  return entry ? firstLine(entry) : null;
}

/** Why the newest done entry cannot be undone because a fight's end came after it, or null (see fightEndedSince). */
export function undoRefusal(db: Db, campaignId: string): string | null {
  const entry = ledger.lastDone(db, campaignId);
  return entry ? fightEndedSince(db, entry, 'undo') : null;
}

/** Why the oldest undone entry cannot be redone because a fight's end came after it, or null. */
export function redoRefusal(db: Db, campaignId: string): string | null {
  const entry = ledger.nextUndone(db, campaignId);
  return entry ? fightEndedSince(db, entry, 'redo') : null;
}

const firstLine = (entry: ledger.LedgerEntryRow) => (JSON.parse(entry.log_json) as string[])[0] ?? entry.type;

function describeKeys(db: Db, keys: string[]): string {
  const names = keys.map((key) => {
    if (key.startsWith('character:')) return (db.prepare('SELECT name FROM characters WHERE id = ?').get(key.slice(10)) as { name: string } | undefined)?.name ?? 'A character';
    if (key.startsWith('record:') || key.startsWith('newRecord:')) {
      const row = db.prepare('SELECT i.name, c.name AS who FROM injuries i JOIN characters c ON c.id = i.character_id WHERE i.id = ?').get(key.slice(key.indexOf(':') + 1)) as { name: string; who: string } | undefined;
      return row ? `${row.who}'s ${row.name}` : 'A record';
    }
    if (key === 'party') return 'The party';
    if (key === 'clock') return 'The campaign clock';
    return 'A session';
  });
  const unique = [...new Set(names)];
  return unique.length === 1 ? unique[0]! : `${unique.slice(0, -1).join(', ')} and ${unique.at(-1)}`;
}

function guard<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (isRefusal(error)) throw new GmError(error.message);
    throw error;
  }
}
