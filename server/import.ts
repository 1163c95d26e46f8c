// Whole-campaign export and import, and importing one encounter into a campaign, on the database. The file's
// format lives in core/export/campaign.ts; here the rows are read and written, and every encounter in an
// imported file is replayed through its ruleset before anything is kept: the stored log lines, snapshots and heads
// are rebuilt from the replay, never taken from the file. An import runs inside the handler's write transaction,
// so a refusal (a GmError) leaves the database as it was.
import type { z } from 'zod';
import { GmError, type CampaignSummary, type EncounterSummary } from '../core/api/contract.ts';
import { EncounterEngine, RuleRefusal, parseEvent } from '../core/encounter/kernel.ts';
import { carryAnnotationSchema } from '../core/encounter/schemas.ts';
import { rosterChange } from '../core/export/summary.ts';
import type { EncounterInput, EncounterRules, GmEvent, LogLine } from '../core/encounter/types.ts';
import {
  campaignFile,
  campaignRows,
  parseCampaignFile,
  parseEncounterFile,
  readImportText,
  unlinkEvent,
  type StoredCampaign,
} from '../core/export/campaign.ts';
import type { ExportFile } from '../core/export/types.ts';
import { carryLabel } from '../core/ledger/carry.ts';
import { optionsValidator } from '../core/rulesets/options.ts';
import { findRuleset } from '../core/rulesets/registry.ts';
import { normalizeSheet, sheetValidator } from '../core/rulesets/sheet.ts';
import type { RulesetDefinition } from '../core/rulesets/types.ts';
import { getCampaign, touchCampaign } from '../db/campaigns.ts';
import type { Db } from '../db/connection.ts';
import { SNAPSHOT_EVERY, insertEventRow, saveSnapshot, type EncounterHead, type EventRow } from '../db/encounters.ts';
import { noteCarryAdjustments } from '../db/consequences.ts';
import { ENTRY_LEADS, fillTreatmentSeqs, insertEntryRecords, readClock } from '../db/ledger.ts';
import { toCampaignSummary, toEncounterSummary, type CampaignRow, type EncounterRow } from '../db/rows.ts';
import type { HandlerContext } from './app.ts';
import { rulesFor } from './encounter-store.ts';
import { parseLedgerEvent } from './ledger-store.ts';

const refuse = (message: string): never => {
  throw new GmError(message, 'invalid');
};
/** A reason from the rules, ending as a sentence does. */
const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

// ---- export ----

/** Every row of one campaign, in stored order (rowid: the order things were made in). */
export function loadStoredCampaign(db: Db, campaignId: string): StoredCampaign {
  const all = <T>(sql: string, ...args: unknown[]) => db.prepare(sql).all(...args) as T[];
  return {
    campaign: db.prepare('SELECT name, ruleset_id, options_json, party_json, conditions_json, day, session_id, archived_at FROM campaigns WHERE id = ?').get(campaignId) as StoredCampaign['campaign'],
    characters: all('SELECT id, role, name, sheet_json, state_json, archived_at, created_at, updated_at FROM characters WHERE campaign_id = ? ORDER BY rowid', campaignId),
    sessions: all('SELECT id, number, title, real_date, notes, start_day, end_day, started_at, ended_at FROM sessions WHERE campaign_id = ? ORDER BY number', campaignId),
    encounters: all<Omit<StoredCampaign['encounters'][number], 'events' | 'carry'>>(
      'SELECT id, name, input_json, session_id, day, created_at, updated_at FROM encounters WHERE campaign_id = ? ORDER BY rowid', campaignId,
    ).map((e) => ({
      ...e,
      events: all('SELECT payload_json, recorded_at FROM encounter_events WHERE encounter_id = ? ORDER BY seq', e.id),
      carry: all('SELECT subject, previous_json FROM encounter_carry WHERE encounter_id = ? ORDER BY subject', e.id),
    })),
    injuries: all(`SELECT id, character_id, name, category, data_json, source_encounter_id, source_seq, day_gained, session_gained, day_healed, session_healed,
      ledger_seq, created_at, updated_at, healed_at FROM injuries WHERE campaign_id = ? ORDER BY rowid`, campaignId),
    ledger: all(`SELECT seq, type, payload_json, log_json, day, session_id, subjects_json, before_json, after_json, state, recorded_at
      FROM ledger_entries WHERE campaign_id = ? ORDER BY seq`, campaignId),
  };
}

/** A file name from a campaign name: lower case, ASCII, dashes. */
export function fileSlug(name: string): string {
  const slug = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);
  return slug || 'campaign';
}

export function exportCampaign(ctx: HandlerContext, campaign: CampaignRow): ExportFile {
  const file = campaignFile(loadStoredCampaign(ctx.db, campaign.id), ctx.now());
  return { filename: `${fileSlug(campaign.name)}.campaign.json`, mime: 'application/json', content: `${JSON.stringify(file, null, 2)}\n` };
}

// ---- replay ----

/** A stored event's carry-over adjustments, read with the engine's own schema (core/encounter/schemas.ts). */
type CarryExtras = z.infer<typeof carryAnnotationSchema>;

/** Two JSON values equal whatever the order of their keys. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** An event as the import stores it: the app's event row, with what it changed in the roster always computed. */
type ReplayedEvent = EventRow & { roster_json: string };

interface Replayed {
  events: ReplayedEvent[];
  snapshots: { seq: number; snapshot: unknown }[];
  head: EncounterHead;
  /** The event that ended the fight (its carry-over's place in the campaign's history), or null while it runs. */
  endedSeq: number | null;
}

/**
 * An encounter's events replayed from its input, as the runner applied them: each one parsed by the ruleset,
 * refused if the rules refuse it at that point, applied, and its log lines written anew (with the GM's carry-over
 * overrides, as server/encounter-store.ts writes them). An import never rolls: a missing die is a refusal.
 */
function replay(rules: EncounterRules, name: string, input: EncounterInput, events: { payload: Record<string, unknown>; recordedAt: string }[], characterNames: ReadonlyMap<string, string>): Replayed {
  const label = `Encounter “${name}”`;
  let engine: EncounterEngine;
  try {
    engine = EncounterEngine.create(rules, input);
  } catch {
    return refuse(`${label} cannot be started from its saved rulings.`);
  }
  const out: ReplayedEvent[] = [];
  const snapshots: Replayed['snapshots'] = [];
  let endedSeq: number | null = null;
  // The number of the next event's first log line: the lines the events before it wrote.
  let lineStart = 0;
  events.forEach(({ payload, recordedAt }, index) => {
    const seq = index + 1;
    const type = typeof payload['type'] === 'string' ? payload['type'].slice(0, 40) : '';
    const at = `${label}, event ${seq}${type ? ` (${type})` : ''},`;
    try {
      const { carryAdjust, carryReason, ...action } = payload;
      let extras: CarryExtras | null = null;
      if (carryAdjust !== undefined || carryReason !== undefined) {
        const carry = carryAnnotationSchema.safeParse({ carryAdjust, carryReason });
        if (!carry.success) refuse(`${at} has a malformed carry-over adjustment.`);
        extras = carry.data!;
      }
      const parsed = parseEvent(rules, action);
      if (!linksOnly(parsed, characterNames)) refuse(`${at} links a combatant to a character that is not in the file.`);
      const applied: GmEvent = extras ? { ...parsed, ...extras } : parsed;
      // The app rolls what an event leaves empty before it is applied; a replay must find every die inside.
      for (const request of engine.rollsFor(applied)) {
        let slot: unknown = applied;
        for (const key of request.path) slot = slot !== null && typeof slot === 'object' ? (slot as Record<string | number, unknown>)[key] : undefined;
        const faces = slot !== null && typeof slot === 'object' ? (slot as { faces?: unknown }).faces : undefined;
        if (!Array.isArray(faces) || faces.length === 0) refuse(`${at} is missing its dice (${request.label.slice(0, 80)}).`);
      }
      const reason = engine.refusal(applied);
      if (reason !== null) refuse(`${at} is refused: ${sentence(reason)}`);
      if (extras && rules.consequences?.(engine.snapshot).carry) refuse(`${at} adjusts a carry-over after the fight had already ended.`);
      const before = engine.view();
      const lines = engine.apply(applied);
      if (extras) lines.push(...overrideLines(engine, extras, characterNames, at));
      const roster = rosterChange(rules, before, engine.view());
      // The file's own payload is kept when it is what the ruleset reads it as, so a file imports to itself.
      const stored = sameJson(action, parsed) ? payload : applied;
      out.push({ type: parsed.type, payload_json: JSON.stringify(stored), log_json: JSON.stringify(lines), recorded_at: recordedAt, roster_json: JSON.stringify(roster), line_start: lineStart });
      lineStart += lines.length;
      if (endedSeq === null && rules.consequences?.(engine.snapshot).carry) endedSeq = seq;
      if (seq % SNAPSHOT_EVERY === 0) snapshots.push({ seq, snapshot: engine.persisted() });
    } catch (error) {
      if (error instanceof GmError) throw error;
      if (error instanceof RuleRefusal) refuse(`${at} is not valid: ${sentence(error.message)}`);
      refuse(`${at} cannot be replayed: the ruleset fails on it.`);
    }
  });
  const view = engine.view();
  return { events: out, snapshots, head: { phase: view.phase, round: view.round, eventCount: out.length }, endedSeq };
}

/** True when every `characterId` in an event is null or one of the campaign's characters. */
function linksOnly(value: unknown, characters: ReadonlyMap<string, string>): boolean {
  if (Array.isArray(value)) return value.every((item) => linksOnly(item, characters));
  if (value === null || typeof value !== 'object') return true;
  return Object.entries(value).every(([key, item]) =>
    key === 'characterId' ? item === null || (typeof item === 'string' && characters.has(item)) : linksOnly(item, characters));
}

/** The GM's carry-over overrides as log lines, worded as server/encounter-store.ts words them. */
function overrideLines(engine: EncounterEngine, extras: CarryExtras, names: ReadonlyMap<string, string>, at: string): LogLine[] {
  const carry = engine.rules.consequences?.(engine.snapshot).carry;
  if (!carry) return refuse(`${at} adjusts a carry-over, but it does not end the fight.`);
  const reason = extras.carryReason ? ` (${extras.carryReason})` : '';
  const round = engine.view().round;
  return extras.carryAdjust.map(({ characterId, key, value }) => {
    const state = carry.find((c) => c.characterId === characterId)?.state;
    if (!state) refuse(`${at} adjusts the carry-over of a character the fight does not carry.`);
    if (typeof state![key] !== 'number') refuse(`${at} adjusts “${key.slice(0, 40)}”, which is not a number the fight carries.`);
    return { round, kind: 'decision' as const, text: `GM override: ${names.get(characterId) ?? 'A character'}'s ${carryLabel(key)} is carried as ${value} instead of ${String(state![key])}${reason}.` };
  });
}

function checkInput(ruleset: RulesetDefinition, input: EncounterInput, what: string): void {
  const parsed = optionsValidator(ruleset.options).safeParse(input.options);
  if (parsed.success) return;
  const issue = parsed.error.issues[0];
  if (issue?.code === 'unrecognized_keys') refuse(`${what} has rulings ${ruleset.name} does not know: ${issue.keys.join(', ').slice(0, 200)}.`);
  refuse(`${what} has a ruling that is not valid: ${sentence(issue?.message ?? 'a value is wrong')}`);
}

// ---- writing ----

function writeEncounter(db: Db, row: EncounterRow, replayed: Replayed): void {
  db.prepare(`INSERT INTO encounters (id, campaign_id, name, ruleset_id, input_json, phase, round, event_count, session_id, day, created_at, updated_at)
    VALUES (@id, @campaign_id, @name, @ruleset_id, @input_json, @phase, @round, @event_count, @session_id, @day, @created_at, @updated_at)`).run({
    ...row, phase: replayed.head.phase, round: replayed.head.round, event_count: replayed.head.eventCount,
  });
  replayed.events.forEach((e, i) => insertEventRow(db, row.id, i + 1, e));
  for (const { seq, snapshot } of replayed.snapshots) saveSnapshot(db, row.id, seq, snapshot);
}

// ---- import a campaign ----

/** A campaign file as a new campaign (new ids, the name kept as it is), all of it or nothing. */
export function importCampaign(ctx: HandlerContext, content: string): CampaignSummary {
  const file = parseCampaignFile(readImportText(content));
  const ruleset = findRuleset(file.campaign.rulesetId)!;
  const rules = rulesFor(ruleset.id);
  checkInput(ruleset, { options: file.campaign.options, carried: {} }, 'The campaign');
  for (const c of file.characters) {
    const unknown = Object.keys(c.sheet).find((key) => !ruleset.sheet.fields.some((f) => f.key === key));
    if (unknown !== undefined) refuse(`${c.name}'s sheet has a field ${ruleset.name} sheets do not have: “${unknown.slice(0, 40)}”.`);
    const parsed = sheetValidator(ruleset.sheet, { capped: false }).safeParse(normalizeSheet(ruleset.sheet, c.sheet));
    if (!parsed.success) refuse(`${c.name}'s sheet is not valid: ${sentence(parsed.error.issues[0]?.message ?? 'a field is wrong')}`);
  }

  const campaignId = ctx.newId();
  const rows = campaignRows(file, campaignId, ctx.newId);
  const names = new Map(rows.characters.map((c) => [c.id, c.name]));
  const replayed = rows.encounters.map((e, i) => {
    const input = file.encounters[i]!.input;
    checkInput(ruleset, input, `Encounter “${e.name}”`);
    return replay(rules, e.name, input, e.events.map((event) => ({ payload: JSON.parse(event.payload_json) as Record<string, unknown>, recordedAt: event.recorded_at })), names);
  });
  for (const entry of rows.ledger) {
    const payload = JSON.parse(entry.payload_json) as Record<string, unknown>;
    const at = `Ledger entry ${entry.seq} (${entry.type.slice(0, 40)})`;
    // A session start stores the id of the session it opened beside what the GM asked for.
    const { sessionId, ...asked } = payload;
    if (payload['type'] === 'SESSION_START' && sessionId !== undefined && typeof sessionId !== 'string') refuse(`${at} names its session wrongly.`);
    try {
      parseLedgerEvent(ruleset.id, payload['type'] === 'SESSION_START' ? asked : payload);
    } catch (error) {
      if (error instanceof GmError) refuse(`${at} is not valid: ${sentence(error.message)}`);
      refuse(`${at} cannot be read.`);
    }
  }

  const { db } = ctx;
  const now = ctx.now();
  db.prepare(`INSERT INTO campaigns (id, name, ruleset_id, options_json, party_json, conditions_json, day, session_id, archived_at, created_at, updated_at)
    VALUES (@id, @name, @ruleset_id, @options_json, @party_json, @conditions_json, @day, @session_id, @archived_at, @now, @now)`).run({ ...rows.campaign, id: campaignId, now });
  const character = db.prepare(`INSERT INTO characters (id, campaign_id, role, name, sheet_json, state_json, archived_at, created_at, updated_at)
    VALUES (@id, @campaign_id, @role, @name, @sheet_json, @state_json, @archived_at, @created_at, @updated_at)`);
  for (const c of rows.characters) character.run({ ...c, campaign_id: campaignId });
  const session = db.prepare(`INSERT INTO sessions (id, campaign_id, number, title, real_date, notes, start_day, end_day, started_at, ended_at)
    VALUES (@id, @campaign_id, @number, @title, @real_date, @notes, @start_day, @end_day, @started_at, @ended_at)`);
  for (const s of rows.sessions) session.run(s);
  const carry = db.prepare('INSERT INTO encounter_carry (encounter_id, subject, previous_json, ended_seq, ended_at) VALUES (?, ?, ?, ?, ?)');
  rows.encounters.forEach((e, i) => {
    writeEncounter(db, {
      id: e.id, campaign_id: campaignId, name: e.name, ruleset_id: ruleset.id, input_json: e.input_json, phase: 'setup', round: 0, event_count: 0,
      session_id: e.session_id, day: e.day, created_at: e.created_at, updated_at: e.updated_at,
    }, replayed[i]!);
    // A carry-over sits in the campaign's history at the event that ended its fight, found by the replay.
    const { endedSeq, events } = replayed[i]!;
    if (e.carry.length && endedSeq === null) refuse(`Encounter “${e.name}” carries a condition onto the campaign, but its events never end the fight.`);
    for (const c of e.carry) carry.run(e.id, c.subject, c.previous_json, endedSeq, events[endedSeq! - 1]!.recorded_at);
    noteCarryAdjustments(db, e.id);
  });
  // The encounters are written first, so each injury takes its cause's first log line from its replayed event.
  const injury = db.prepare(`INSERT INTO injuries (id, campaign_id, character_id, name, category, data_json, source_encounter_id, source_seq, created_at, updated_at,
      healed_at, day_gained, session_gained, day_healed, session_healed, ledger_seq, source_text)
    VALUES (@id, @campaign_id, @character_id, @name, @category, @data_json, @source_encounter_id, @source_seq, @created_at, @updated_at,
      @healed_at, @day_gained, @session_gained, @day_healed, @session_healed, @ledger_seq,
      (SELECT json_extract(log_json, '$[0].text') FROM encounter_events WHERE encounter_id = @source_encounter_id AND seq = @source_seq))`);
  for (const r of rows.injuries) injury.run({ ...r, campaign_id: campaignId });
  const entry = db.prepare(`INSERT INTO ledger_entries (campaign_id, seq, type, payload_json, log_json, day, session_id, subjects_json, before_json, after_json, state, recorded_at,
      lines_lead, first_line_lead)
    VALUES (@campaign_id, @seq, @type, @payload_json, @log_json, @day, @session_id, @subjects_json, @before_json, @after_json, @state, @recorded_at, ${ENTRY_LEADS})`);
  for (const e of rows.ledger) {
    entry.run({ ...e, campaign_id: campaignId });
    insertEntryRecords(db, campaignId, e.seq, e.after_json);
  }
  fillTreatmentSeqs(db, campaignId);

  ctx.changed({ area: 'campaigns', id: campaignId });
  return toCampaignSummary(getCampaign(db, campaignId)!);
}

// ---- import one encounter ----

/**
 * An encounter file as a new encounter of `campaign` (same ruleset), replayed with every character link cut: it
 * joins the session being played, if any, on the campaign's current day.
 */
export function importEncounter(ctx: HandlerContext, campaign: CampaignRow, content: string): EncounterSummary {
  const file = parseEncounterFile(readImportText(content));
  const ruleset = findRuleset(campaign.ruleset_id);
  if (!ruleset) return refuse(`This campaign uses a ruleset this version does not know (${campaign.ruleset_id}).`);
  if (file.rulesetId !== ruleset.id) {
    refuse(`This encounter was fought under ${findRuleset(file.rulesetId)!.name}, but “${campaign.name}” plays ${ruleset.name}.`);
  }
  const rules = rulesFor(ruleset.id);
  const { name, input } = file.encounter;
  checkInput(ruleset, input, `Encounter “${name}”`);
  const now = ctx.now();
  const replayed = replay(rules, name, input, file.events.map((event) => ({ payload: unlinkEvent(event), recordedAt: now })), new Map());
  if (replayed.head.phase !== file.encounter.phase || replayed.head.round !== file.encounter.round) {
    const state = (phase: string, round: number) => (phase === 'setup' ? 'in preparation' : `${phase === 'ended' ? 'ended' : 'running'} in round ${round}`);
    refuse(`The file says “${name}” is ${state(file.encounter.phase, file.encounter.round)}, but its events replay to ${state(replayed.head.phase, replayed.head.round)}: the file has been changed.`);
  }
  const clock = readClock(ctx.db, campaign.id);
  const row: EncounterRow = {
    id: ctx.newId(), campaign_id: campaign.id, name, ruleset_id: ruleset.id, input_json: JSON.stringify(input),
    phase: 'setup', round: 0, event_count: 0, session_id: clock.sessionId, day: clock.day, created_at: now, updated_at: now,
  };
  writeEncounter(ctx.db, row, replayed);
  touchCampaign(ctx.db, campaign.id, now);
  ctx.changed({ area: 'encounters', id: row.id, version: now });
  ctx.changed({ area: 'campaigns', id: campaign.id });
  return toEncounterSummary({ ...row, phase: replayed.head.phase, round: replayed.head.round, event_count: replayed.head.eventCount });
}
