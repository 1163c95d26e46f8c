// Between fights: the campaign clock and sessions, the recovery ledger, a character's history and the campaign
// timeline.
import type { HandlerContext } from '../app.ts';
import { GmError, ITEMS_SENT, type CampaignTimeline, type CharacterHistory, type HistoryItem, type LedgerEntryView, type RecoveryDetail, type SessionSummary } from '../../core/api/contract.ts';
import { isHarm } from '../../core/ledger/records.ts';
import { findRuleset } from '../../core/rulesets/registry.ts';
import * as ledger from '../../db/ledger.ts';
import type { EncounterListRow } from '../../db/encounters.ts';
import { touchCampaign } from '../../db/campaigns.ts';
import { prepared, preparedRaw } from '../../db/connection.ts';
import { ENTRY_COLUMNS, FACT_RECORD_COLUMNS, factRecord } from '../../db/history-reads.ts';
import type { CampaignRow } from '../../db/rows.ts';
import { byTime, characterHistory } from '../character-history.ts';
import * as store from '../ledger-store.ts';
import { requireCampaign, rulesetOf } from './campaigns.ts';

export const toSession = (row: ledger.SessionRow): SessionSummary => ({
  id: row.id, number: row.number, title: row.title, date: row.real_date, notes: row.notes,
  startDay: row.start_day, endDay: row.end_day, startedAt: row.started_at, endedAt: row.ended_at,
});

/** The campaign clock for the campaign detail. */
export function clockOf(ctx: HandlerContext, campaignId: string): { day: number; session: SessionSummary | null; sessions: SessionSummary[] } {
  const clock = ledger.readClock(ctx.db, campaignId);
  const sessions = ledger.listSessions(ctx.db, campaignId).map(toSession);
  return { day: clock.day, session: sessions.find((s) => s.id === clock.sessionId) ?? null, sessions };
}

/** Encounters belong to a session: creating one between sessions starts the next session (an entry in the ledger). */
export function sessionForEncounter(ctx: HandlerContext, campaign: CampaignRow): { sessionId: string; day: number } {
  let clock = ledger.readClock(ctx.db, campaign.id);
  if (!clock.sessionId) {
    store.appendLedger(write(ctx, campaign), { type: 'SESSION_START' });
    clock = ledger.readClock(ctx.db, campaign.id);
    ctx.changed({ area: 'ledger', id: campaign.id });
  }
  return { sessionId: clock.sessionId!, day: clock.day };
}

const write = (ctx: HandlerContext, campaign: CampaignRow): store.LedgerWrite => ({ db: ctx.db, campaign, now: ctx.now(), newId: ctx.newId });

function detail(ctx: HandlerContext, campaignId: string): RecoveryDetail {
  const campaign = requireCampaign(ctx, campaignId);
  const ruleset = rulesetOf(campaign);
  const rules = ruleset.recovery;
  const world = store.loadWorld(ctx.db, campaign);
  const { day, session, sessions } = clockOf(ctx, campaignId);
  const numbers = new Map(sessions.map((s) => [s.id, s.number]));
  // Not offered under a later fight's end: the label says why (see ledger-store fightEndedSince).
  const undoRefusal = store.undoRefusal(ctx.db, campaignId);
  const redoRefusal = store.redoRefusal(ctx.db, campaignId);
  const undoLabel = undoRefusal ?? store.undoLabel(ctx.db, campaignId);
  const redoLabel = redoRefusal ?? store.redoLabel(ctx.db, campaignId);
  return {
    campaignId, campaignName: campaign.name, rulesetId: ruleset.id, day, session,
    party: rules.partyStats?.(world) ?? [],
    characters: world.characters.map((c) => ({ id: c.id, name: c.name, card: rules.card(world, c.id) })),
    entries: ledger.listEntries(ctx.db, campaignId, 200).map((e) => toEntry(e, numbers)),
    canUndo: undoRefusal === null && undoLabel !== null, canRedo: redoRefusal === null && redoLabel !== null, undoLabel, redoLabel,
  };
}

const toEntry = (e: ledger.ListedEntryRow, numbers: Map<string, number>): LedgerEntryView => ({
  seq: e.seq, type: e.type, day: e.day, sessionNumber: e.session_id ? (numbers.get(e.session_id) ?? null) : null,
  log: JSON.parse(e.log_json) as string[], state: e.state, recordedAt: e.recorded_at, characterIds: JSON.parse(e.subjects_json) as string[],
});

function changed(ctx: HandlerContext, campaignId: string): void {
  touchCampaign(ctx.db, campaignId, ctx.now());
  ctx.changed({ area: 'ledger', id: campaignId });
  ctx.changed({ area: 'campaigns', id: campaignId });
}

/** A write that changes the ledger: run it, announce it, return the new detail. */
function ledgerWrite(ctx: HandlerContext, campaignId: string, work: (w: store.LedgerWrite) => unknown): RecoveryDetail {
  const campaign = requireCampaign(ctx, campaignId);
  if (campaign.archived_at) throw new GmError(`${campaign.name} is archived; restore it first.`);
  work(write(ctx, campaign));
  changed(ctx, campaignId);
  return detail(ctx, campaignId);
}

export const ledgerHandlers = {
  'ledger:get': (ctx: HandlerContext, input: { campaignId: string }) => detail(ctx, input.campaignId),
  'ledger:append': (ctx: HandlerContext, input: { campaignId: string; event?: unknown }) => ledgerWrite(ctx, input.campaignId, (w) => store.appendLedger(w, input.event)),
  'ledger:preview': (ctx: HandlerContext, input: { campaignId: string; event?: unknown }) => ({ rolls: store.ledgerRolls(ctx.db, requireCampaign(ctx, input.campaignId), input.event) }),
  'ledger:undo': (ctx: HandlerContext, input: { campaignId: string }) => ledgerWrite(ctx, input.campaignId, store.undoLedger),
  'ledger:redo': (ctx: HandlerContext, input: { campaignId: string }) => ledgerWrite(ctx, input.campaignId, store.redoLedger),

  'sessions:update': (ctx: HandlerContext, input: { id: string; title?: string | undefined; notes?: string | undefined; date?: string | undefined }) => {
    const row = ledger.getSession(ctx.db, input.id);
    if (!row) throw new GmError('That session does not exist.', 'notFound');
    ledger.updateSessionText(ctx.db, row.id, {
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.notes !== undefined ? { notes: input.notes } : {}),
      ...(input.date !== undefined ? { real_date: input.date } : {}),
    });
    changed(ctx, row.campaign_id);
    return toSession(ledger.getSession(ctx.db, row.id)!);
  },

  'characters:history': (ctx: HandlerContext, input: { id: string; allItems?: boolean | undefined; allRecords?: boolean | undefined }): CharacterHistory => characterHistory(ctx, input),

  'campaigns:timeline': (ctx: HandlerContext, input: { id: string; allItems?: boolean | undefined }): CampaignTimeline => {
    const campaign = requireCampaign(ctx, input.id);
    const facts = campaignFacts(ctx, campaign);
    const { sessions } = facts;
    const groups: CampaignTimeline['groups'] = sessions.map((s) => ({ session: toSession(s), ...newestItems(facts.items.filter((i) => i.sessionNumber === s.number), input.allItems) }));
    const outside = facts.items.filter((i) => i.sessionNumber === null);
    if (outside.length) groups.push({ session: null, ...newestItems(outside, input.allItems) });
    // A campaign of a ruleset this version does not know still shows its timeline: its records count as harm.
    const categories = findRuleset(campaign.ruleset_id)?.records.categories ?? [];
    const harm = facts.records.filter((r) => isHarm(categories, r.category));
    const chart = sessions.map((s) => {
      // Everything up to the session's end: gained before it and not healed by then.
      const end = s.ended_at ?? '\uffff';
      return {
        sessionNumber: s.number,
        label: `S${s.number}`,
        open: harm.filter((r) => r.created_at <= end && (r.healed_at === null || r.healed_at > end)).length,
        gained: harm.filter((r) => r.session_gained === s.id).length,
        healed: harm.filter((r) => r.session_healed === s.id).length,
      };
    });
    return { campaignId: campaign.id, campaignName: campaign.name, groups, chart };
  },
};

/**
 * A list of items as a reply carries it: the newest ITEMS_SENT (the screens show those first; a long campaign has
 * thousands, megabytes the screen would parse to show none of them), or all when the GM asked for the earlier ones.
 */
function newestItems(items: HistoryItem[], all: boolean | undefined): { items: HistoryItem[]; itemCount: number } {
  return { items: all || items.length <= ITEMS_SENT ? items : items.slice(-ITEMS_SENT), itemCount: items.length };
}

/**
 * What the timeline reads of an encounter: only those columns, read raw (arrays, in the order selected) and made into
 * objects here, like its records (factRecord, db/history-reads.ts).
 */
const FACT_ENCOUNTER_COLUMNS = 'id, name, phase, round, session_id, day, created_at, updated_at';
type FactEncounter = Pick<EncounterListRow, 'id' | 'name' | 'phase' | 'round' | 'session_id' | 'day' | 'created_at' | 'updated_at'>;
const factEncounter = ([id, name, phase, round, session_id, day, created_at, updated_at]: unknown[]) =>
  ({ id, name, phase, round, session_id, day, created_at, updated_at }) as FactEncounter;

/**
 * Everything the timeline reads, gathered once: records, encounters, ledger entries, as items. (A character's
 * history reads its own: server/character-history.ts.)
 */
function campaignFacts(ctx: HandlerContext, campaign: CampaignRow) {
  const sessions = ledger.listSessions(ctx.db, campaign.id);
  const numberOf = new Map(sessions.map((s) => [s.id, s.number]));
  const number = (id: string | null | undefined) => (id ? (numberOf.get(id) ?? null) : null);
  // Only the columns read here: a long campaign has thousands of records.
  const records = (preparedRaw(ctx.db, `SELECT ${FACT_RECORD_COLUMNS} FROM injuries WHERE campaign_id = ? ORDER BY created_at, source_seq`).all(campaign.id) as unknown[][]).map(factRecord);
  const encounterRows = (preparedRaw(ctx.db, `SELECT ${FACT_ENCOUNTER_COLUMNS} FROM encounters WHERE campaign_id = ? ORDER BY created_at DESC`).all(campaign.id) as unknown[][])
    .map(factEncounter);
  const encounters = new Map(encounterRows.map((e) => [e.id, e]));
  const names = new Map((prepared(ctx.db, 'SELECT id, name FROM characters WHERE campaign_id = ?').all(campaign.id) as { id: string; name: string }[]).map((c) => [c.id, c.name]));
  // The done entries, read through their index without the before/after images, with whether each touched a
  // lasting record (ledger_records): a rest touches every open record, so the first one found answers.
  const entryRows = prepared(ctx.db, `SELECT ${ENTRY_COLUMNS} FROM ledger_entries INDEXED BY ledger_entries_by_state WHERE campaign_id = ? AND state = 'done' ORDER BY seq`).all(campaign.id) as
    (Pick<ledger.LedgerEntryRow, 'seq' | 'type' | 'day' | 'session_id' | 'state' | 'recorded_at' | 'log_json' | 'subjects_json'> & { touched_records: 0 | 1 })[];
  const entries = entryRows.map((e) => ({
    ...e,
    log: JSON.parse(e.log_json) as string[],
    characterIds: JSON.parse(e.subjects_json) as string[],
  }));
  // The characters' carry rows, each with the event holding the GM's adjustments to its fight's carry-over
  // (`adjusted_seq`, noted when the carry is written, the same on every row of a fight), or null. Raw, like the
  // records: one row per fight.
  const carried = preparedRaw(ctx.db, `SELECT c.encounter_id, c.subject, c.adjusted_seq, c.ended_at FROM encounter_carry c JOIN encounters e ON e.id = c.encounter_id
    WHERE e.campaign_id = ? AND c.subject LIKE 'character:%'`).all(campaign.id) as [encounterId: string, subject: string, adjustedSeq: number | null, endedAt: string][];

  const items: HistoryItem[] = [];
  // The day the campaign was on at a time: that of the first ledger entry written after it (an entry keeps the day
  // it was written on; a day passing is written on the day it ends), else today's. A fight is often prepared a day
  // or more before it is fought: its items fall on the day they happened, not the day it was prepared.
  const dayAt = (at: string, fallback: number | null): number | null => {
    // Entries are in the order written (seq), so their times rise: the first one after `at` by halving.
    let low = 0;
    let high = entries.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (entries[mid]!.recorded_at > at) high = mid;
      else low = mid + 1;
    }
    return entries[low]?.day ?? campaign.day ?? fallback;
  };
  // A fight happened when it started (its START event, read through the events' key: the first few of the fight),
  // not when it was prepared; one still in preparation is listed at its preparing.
  const started = prepared(ctx.db, "SELECT recorded_at FROM encounter_events WHERE encounter_id = ? AND type = 'START' LIMIT 1");
  for (const e of encounterRows) {
    const at = (started.get(e.id) as { recorded_at: string } | undefined)?.recorded_at ?? e.created_at;
    items.push({ kind: 'encounter', at, day: dayAt(at, e.day ?? null), sessionNumber: number(e.session_id), text: `Encounter “${e.name}” (${e.phase === 'ended' ? `ended after round ${e.round}` : e.phase === 'running' ? `round ${e.round}, still running` : 'in preparation'}).`, encounterId: e.id });
  }
  // A carry-over happened when its fight ended (events a ruleset allows after the end come later).
  for (const [encounterId, subject, , endedAt] of carried) {
    const e = encounters.get(encounterId)!;
    const who = subject.slice('character:'.length);
    items.push({ kind: 'carried', at: endedAt, day: dayAt(endedAt, e.day ?? null), sessionNumber: number(e.session_id), text: `${names.get(who) ?? 'A character'}'s condition after “${e.name}” carried onto the campaign.`, characterId: who, encounterId: e.id });
  }
  // The GM's adjustments to a carry-over ride the event that ended the fight, with their log lines. Only the
  // events the carry rows read above name are read, once per fight.
  const adjusted = new Map<string, number>();
  for (const [encounterId, , adjustedSeq] of carried) if (adjustedSeq !== null) adjusted.set(encounterId, adjustedSeq);
  const ending = prepared(ctx.db, 'SELECT payload_json, log_json FROM encounter_events WHERE encounter_id = ? AND seq = ?');
  for (const [encounterId, seq] of adjusted) {
    const last = ending.get(encounterId, seq) as { payload_json: string; log_json: string } | undefined;
    if (!last) continue;
    const e = encounters.get(encounterId)!;
    const adjust = (JSON.parse(last.payload_json) as { carryAdjust?: { characterId: string }[] }).carryAdjust ?? [];
    const lines = (JSON.parse(last.log_json) as { text: string }[]).filter((l) => l.text.startsWith('GM override:'));
    adjust.forEach((a, i) => {
      if (lines[i]) items.push({ kind: 'override', at: e.updated_at, day: dayAt(e.updated_at, e.day ?? null), sessionNumber: number(e.session_id), text: lines[i]!.text, characterId: a.characterId, encounterId: e.id, seq });
    });
  }
  for (const r of records) {
    const source = r.source_encounter_id ? encounters.get(r.source_encounter_id) : undefined;
    const who = names.get(r.character_id) ?? 'A character';
    items.push({
      kind: 'gained', at: r.created_at, day: r.day_gained ?? null, sessionNumber: number(r.session_gained),
      text: `${who} gained ${r.name}${source ? ` in “${source.name}”` : ''}.`, characterId: r.character_id, recordId: r.id,
      ...(source ? { encounterId: source.id } : {}), ...(r.source_seq ? { seq: r.source_seq } : {}),
    });
    if (r.healed_at) items.push({ kind: 'healed', at: r.healed_at, day: r.day_healed ?? null, sessionNumber: number(r.session_healed), text: `${who}'s ${r.name} healed.`, characterId: r.character_id, recordId: r.id });
  }
  for (const e of entries) {
    const clock = e.type === 'SESSION_START' || e.type === 'SESSION_END' || e.type === 'ADVANCE_DAYS';
    const base = { at: e.recorded_at, day: e.day, sessionNumber: number(e.session_id), text: e.log.join(' '), seq: e.seq };
    items.push({ kind: clock ? 'clock' : e.touched_records ? 'treated' : 'recovery', ...base, characterId: null, characterIds: e.characterIds });
  }
  items.sort(byTime);
  return { sessions, records, items };
}
