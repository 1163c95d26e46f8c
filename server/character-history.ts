// A character's history (`characters:history`): the character's lasting records with their treatments, the ledger
// lines those name, and everything that happened to the character in time order, of which the reply carries the
// newest ITEMS_SENT.
//
// A long campaign gives a character thousands of moments and a rest's line grows with every open record it counts
// down (30 KB, and as many record ids in `ledger_records`, after a thousand fights), so the history first reads
// only what places each moment in time (when, what kind, which entry or record): of its records and carry-overs the
// counts and the newest the reply can carry, counted and chosen in their indexes; it orders those, keeps the ones the
// reply carries, and only then reads and parses what those show: the lines of the entries kept, the treatments of
// the records sent, the names of the fights they name. The rows it reads of the records and carry-overs do not grow
// with the campaign; those of the entries naming the character and of the treatments do, never with the length of
// the lines it does not send (docs/performance.md).
import type { HandlerContext } from './app.ts';
import { ENTRY_TEXT_SENT, HEALED_RECORDS_SENT, ITEMS_SENT, OPEN_RECORDS_SENT, cutText, type CharacterHistory, type HistoryItem } from '../core/api/contract.ts';
import { isHarm } from '../core/ledger/records.ts';
import * as ledger from '../db/ledger.ts';
import { prepared, preparedRaw } from '../db/connection.ts';
import { FACT_RECORD_WIDTH, HISTORY_READS, factRecord, type FactRecord } from '../db/history-reads.ts';
import { requireCampaign, requireCharacter, rulesetOf } from './handlers/campaigns.ts';

/** A lasting record of the character, as far as ordering its moments and choosing the records sent need (a raw row). */
type RecordRow = [id: string, category: string, createdAt: string, sourceSeq: number | null, healedAt: string | null];
/** A healed record of the character: its healing, as far as ordering it and showing it need (a raw row). */
type HealedRow = [id: string, healedAt: string, name: string, dayHealed: number | null, sessionHealed: string | null];
/**
 * A done ledger entry naming the character, as far as ordering it needs, with the openings of its lines (all joined,
 * and the first; null if it has none) that show where the reply cuts it.
 */
interface EntryMoment {
  seq: number; type: string; day: number; sessionId: string | null; recordedAt: string; linesLead: string; firstLineLead: string | null; touchedRecords: boolean;
}
/** A fight carried onto the character: its encounter, the event holding the GM's adjustments (or null), its end (a raw row). */
type CarryRow = [encounterId: string, adjustedSeq: number | null, endedAt: string];
/** A fight as the history names it. */
interface FightName { id: string; name: string; sessionId: string | null; day: number | null }

/** One moment of the history before its text is read; `kind` and `seq` order moments of one time. */
type Moment = { at: string; seq: number | undefined } & (
  | { kind: 'gained'; record: RecordRow }
  | { kind: 'healed'; healing: HealedRow }
  | { kind: 'carried'; carry: CarryRow }
  | { kind: 'override'; fight: FightName; characterId: string; text: string }
  | { kind: 'treated' | 'recovery' | 'clock'; entry: EntryMoment }
);

// Things written in one transaction share a time: a session opens before its encounter, harm comes before care.
const RANK: Record<HistoryItem['kind'], number> = { clock: 0, encounter: 1, gained: 2, override: 3, treated: 4, recovery: 4, healed: 5, carried: 6 };
/** The history's order (the timeline's too, server/handlers/ledger.ts): by time, then kind, then event or entry. */
export const byTime = (a: { at: string; kind: HistoryItem['kind']; seq?: number | undefined }, b: { at: string; kind: HistoryItem['kind']; seq?: number | undefined }): number =>
  // ISO times (all written by toISOString) order as plain strings.
  (a.at < b.at ? -1 : a.at > b.at ? 1 : 0) || RANK[a.kind] - RANK[b.kind] || (a.seq ?? 0) - (b.seq ?? 0);

const CLOCK_ENTRIES = new Set(['SESSION_START', 'SESSION_END', 'ADVANCE_DAYS']);

export function characterHistory(ctx: HandlerContext, input: { id: string; allItems?: boolean | undefined; allRecords?: boolean | undefined }): CharacterHistory {
  const { db } = ctx;
  const character = requireCharacter(ctx, input.id);
  const campaign = requireCampaign(ctx, character.campaign_id);
  const ruleset = rulesetOf(campaign);
  const kinds = ruleset.records;
  const numberOf = new Map(ledger.listSessions(db, campaign.id).map((s) => [s.id, s.number]));
  const number = (id: string | null | undefined) => (id ? (numberOf.get(id) ?? null) : null);

  // What places each moment, counted where it is read and read only as far as the reply goes (a long campaign gives
  // a character thousands of records and carry-overs; the items are the newest ITEMS_SENT): the character's records
  // (each gained, and healed), the fights carried onto it and the done entries naming it, without their lines.
  const count = input.allItems ? -1 : ITEMS_SENT;
  const lasting = JSON.stringify([...new Set(kinds.categories.map((c) => c.key))].filter((key) => !isHarm(kinds.categories, key)));
  const whose = { campaign: campaign.id, character: character.id, lasting };
  const [recordCount, healedCount] = preparedRaw(db, HISTORY_READS.recordCounts).get(whose) as [number, number];
  const [lastingCount, lastingHealed] = lasting === '[]' ? [0, 0] : preparedRaw(db, HISTORY_READS.lastingCounts).get(whose) as [number, number];
  const healedHarm = healedCount - lastingHealed;
  const openHarm = recordCount - healedCount - (lastingCount - lastingHealed);
  const gained = (preparedRaw(db, HISTORY_READS.newestGained).all({ ...whose, count }) as RecordRow[]).reverse();
  const healed = (preparedRaw(db, HISTORY_READS.newestHealed).all({ ...whose, count }) as HealedRow[]).reverse();
  // A party member joins only its own campaign's fights (encounters:addFromCampaign), so its carry rows are all of
  // its campaign's fights: read from their index alone, without each fight's row. Those the GM adjusted, all read
  // for their overrides, follow the others in the index (and so in the history's order among carry-overs of one end).
  const subject = `character:${character.id}`;
  const [carriedCount] = preparedRaw(db, HISTORY_READS.carriedCount).get(subject) as [number];
  const adjusted = preparedRaw(db, HISTORY_READS.adjustedCarried).all(subject) as CarryRow[];
  const carried = [...(preparedRaw(db, HISTORY_READS.newestCarried).all(subject, count) as CarryRow[]).reverse(), ...adjusted];
  const entries = (preparedRaw(db, HISTORY_READS.entries).all(campaign.id, character.id) as [number, string, number, string | null, string, string, string | null, 0 | 1][])
    .map(([seq, type, day, sessionId, recordedAt, linesLead, firstLineLead, touched]): EntryMoment => (
      { seq, type, day, sessionId, recordedAt, linesLead, firstLineLead, touchedRecords: touched === 1 }));

  const fights = new Map<string, FightName>();
  const readFights = (ids: Iterable<string>) => {
    const missing = [...new Set(ids)].filter((id) => !fights.has(id));
    if (!missing.length) return;
    for (const [id, name, sessionId, day] of preparedRaw(db, HISTORY_READS.fights).all(JSON.stringify(missing), campaign.id) as [string, string, string | null, number | null][]) {
      fights.set(id, { id, name, sessionId, day });
    }
  };

  // The GM's adjustments to a carry-over ride the event that ended the fight, with their log lines: read for the
  // fights that have them (the same event on every carry row of a fight), kept where they concern this character.
  const overrides: Moment[] = [];
  readFights(adjusted.map(([encounterId]) => encounterId));
  const ending = prepared(db, 'SELECT payload_json, log_json FROM encounter_events WHERE encounter_id = ? AND seq = ?');
  const changedAt = prepared(db, 'SELECT updated_at FROM encounters WHERE id = ?');
  for (const [encounterId, adjustedSeq] of adjusted) {
    const last = ending.get(encounterId, adjustedSeq) as { payload_json: string; log_json: string } | undefined;
    const fight = fights.get(encounterId);
    if (!last || !fight) continue;
    const adjust = (JSON.parse(last.payload_json) as { carryAdjust?: { characterId: string }[] }).carryAdjust ?? [];
    const lines = (JSON.parse(last.log_json) as { text: string }[]).filter((l) => l.text.startsWith('GM override:'));
    // An override is placed at the fight's last change.
    const at = (changedAt.get(encounterId) as { updated_at: string }).updated_at;
    adjust.forEach((a, i) => {
      if (lines[i] && a.characterId === character.id) overrides.push({ kind: 'override', at, seq: adjustedSeq!, fight, characterId: a.characterId, text: lines[i]!.text });
    });
  }
  // Each kind of moment in the history's order (byTime) on its own, each sorted stably from the order it was read
  // in, which breaks its ties: carried by their end, gained in the records' order, healed by their healing, entries
  // by their time and kind. Two moments of different lists never tie (each list is one rank, the entries' two
  // ranks are theirs alone), so the newest ITEMS_SENT are taken from the lists' ends, never sorting them all: each
  // list holds its newest ITEMS_SENT at least (the carried, the newest of those not adjusted and all adjusted).
  const entryKind = (e: EntryMoment) => (CLOCK_ENTRIES.has(e.type) ? 'clock' : e.touchedRecords ? 'treated' : 'recovery');
  const lists: MomentList[] = [
    momentList(carried, () => 'carried', ([, , endedAt]) => endedAt, () => undefined, (carry) => ({ kind: 'carried', at: carry[2], seq: undefined, carry })),
    momentList(overrides, (m) => m.kind, (m) => m.at, (m) => m.seq, (m) => m),
    momentList(gained, () => 'gained', (r) => r[2], (r) => r[3] || undefined, (record) => ({ kind: 'gained', at: record[2], seq: record[3] || undefined, record })),
    momentList(healed, () => 'healed', (r) => r[1], () => undefined, (healing) => ({ kind: 'healed', at: healing[1], seq: undefined, healing })),
    momentList(entries, entryKind, (e) => e.recordedAt, (e) => e.seq, (entry) => ({ kind: entryKind(entry), at: entry.recordedAt, seq: entry.seq, entry })),
  ];
  const momentCount = carriedCount + overrides.length + recordCount + healedCount + entries.length;
  const kept = newestMoments(lists, input.allItems ? momentCount : ITEMS_SENT);

  // The records sent, in the order gained: every lasting mark that is not harm, and of the injuries and wounds the
  // newest open and the newest healed ones the screen shows first, unless the GM asked for all of them.
  const sentIds = (preparedRaw(db, HISTORY_READS.sentRecords).all({
    ...whose, open: input.allRecords ? -1 : OPEN_RECORDS_SENT, healed: input.allRecords ? -1 : HEALED_RECORDS_SENT,
  }) as [string][]).map(([id]) => id);
  // What the records sent and the gains kept show of them, read by their key (a healing kept shows what was read),
  // with the seqs of the entries that changed each.
  const details = new Map<string, FactRecord>();
  const changedBy = new Map<string, string | null>();
  const detailed = new Set([...sentIds, ...kept.flatMap((m) => (m.kind === 'gained' ? [m.record[0]] : []))]);
  if (detailed.size) {
    for (const row of preparedRaw(db, HISTORY_READS.recordDetails).all(JSON.stringify([...detailed])) as unknown[][]) {
      const record = factRecord(row);
      details.set(record.id, record);
      changedBy.set(record.id, row[FACT_RECORD_WIDTH] as string | null);
    }
  }
  const sent = sentIds.map((id) => details.get(id)!);

  // Each sent record's treatments: the done entries naming the character that changed it, in entry order. The
  // record keeps the seqs of every entry that changed it (migration 0017), undone and dropped ones too: those
  // among the entries read above that touched records are its treatments.
  const treatments = new Map<string, number[]>();
  const touching = new Set(entries.flatMap((e) => (e.touchedRecords ? [e.seq] : [])));
  if (touching.size) {
    for (const r of sent) {
      const seqs = changedBy.get(r.id);
      if (seqs) treatments.set(r.id, seqs.split(',').map(Number).filter((seq) => touching.has(seq)).sort((a, b) => a - b));
    }
  }
  // An entry kept among the items that touched records is this character's treatment if it touched one of the
  // character's records, else (a party's rest that treated others' records only) its recovery.
  const treatedKept = kept.flatMap((m) => (m.kind === 'treated' ? [m.entry.seq] : []));
  const treatedOwn = new Set(treatedKept.length
    ? (preparedRaw(db, HISTORY_READS.treatedOwn).all(JSON.stringify(treatedKept), campaign.id, character.id, campaign.id) as [number][]).map(([seq]) => seq)
    : []);

  // The entries whose lines the reply carries: those kept among the items, those the sent records' treatments name,
  // and those that created a sent record (no encounter, the entry's seq: server/ledger-store.ts).
  const own = new Map(entries.map((e) => [e.seq, e]));
  const named = new Set(sent.flatMap((r) => treatments.get(r.id) ?? []));
  // The kept entries' lines are sent whole; of the others the reply shows only the opening, cut to ENTRY_TEXT_SENT,
  // which the entry keeps (a rest's whole line runs to tens of thousands of characters).
  const lines = new Map<number, { log: string[]; characterIds: string[] }>();
  const keptSeqs = kept.flatMap((m) => ('entry' in m ? [m.entry.seq] : []));
  if (keptSeqs.length) {
    for (const [seq, logJson, subjectsJson] of preparedRaw(db, HISTORY_READS.entryLines).all(campaign.id, JSON.stringify(keptSeqs)) as [number, string, string][]) {
      lines.set(seq, { log: JSON.parse(logJson) as string[], characterIds: JSON.parse(subjectsJson) as string[] });
    }
  }
  /** What the reply shows of an entry's lines: all joined, or the first alone (its kind if it has none), cut. */
  const shown = (seq: number, first: boolean): string => {
    const entry = own.get(seq)!;
    return cutText(first ? (entry.firstLineLead ?? entry.type) : entry.linesLead, ENTRY_TEXT_SENT);
  };

  // The fights named by what is sent: the sources of the sent records and of the kept records' gains, and the
  // carried fights kept.
  const fightOf = (m: Moment) => (m.kind === 'gained' ? details.get(m.record[0])!.source_encounter_id : m.kind === 'carried' ? m.carry[0] : null);
  readFights([...sent.map((r) => r.source_encounter_id), ...kept.map(fightOf)].filter((id): id is string => !!id));
  const sourceOf = (r: FactRecord) => (r.source_encounter_id ? fights.get(r.source_encounter_id) : undefined);

  const toItem = (m: Moment): HistoryItem => {
    switch (m.kind) {
      case 'gained': {
        const r = details.get(m.record[0])!;
        const source = sourceOf(r);
        return {
          kind: 'gained', at: r.created_at, day: r.day_gained ?? null, sessionNumber: number(r.session_gained),
          text: `${character.name} gained ${r.name}${source ? ` in “${source.name}”` : ''}.`, characterId: r.character_id, recordId: r.id,
          ...(source ? { encounterId: source.id } : {}), ...(r.source_seq ? { seq: r.source_seq } : {}),
        };
      }
      case 'healed': {
        const [id, healedAt, name, dayHealed, sessionHealed] = m.healing;
        return { kind: 'healed', at: healedAt, day: dayHealed ?? null, sessionNumber: number(sessionHealed), text: `${character.name}'s ${name} healed.`, characterId: character.id, recordId: id };
      }
      case 'carried': {
        const fight = fights.get(m.carry[0])!;
        return { kind: 'carried', at: m.carry[2], day: fight.day ?? null, sessionNumber: number(fight.sessionId), text: `${character.name}'s condition after “${fight.name}” carried onto the campaign.`, characterId: character.id, encounterId: fight.id };
      }
      case 'override':
        return { kind: 'override', at: m.at, day: m.fight.day ?? null, sessionNumber: number(m.fight.sessionId), text: m.text, characterId: m.characterId, encounterId: m.fight.id, seq: m.seq! };
      default: {
        const e = m.entry;
        const { log, characterIds } = lines.get(e.seq)!;
        return {
          kind: m.kind === 'treated' && !treatedOwn.has(e.seq) ? 'recovery' : m.kind,
          at: e.recordedAt, day: e.day, sessionNumber: number(e.sessionId), text: log.join(' '), seq: e.seq, characterId: null, characterIds,
        };
      }
    }
  };

  return {
    character: { id: character.id, name: character.name, campaignId: campaign.id, campaignName: campaign.name, rulesetId: ruleset.id },
    recordCounts: { open: openHarm, healed: healedHarm },
    records: sent.map((r) => {
      const source = sourceOf(r);
      const creator = !r.source_encounter_id && r.source_seq && own.has(r.source_seq) ? r.source_seq : null;
      return {
        id: r.id, name: r.name, category: r.category, permanent: kinds.isPermanent(JSON.parse(r.data_json)),
        source: source ? { encounterId: source.id, encounterName: source.name, seq: r.source_seq, text: r.source_seq ? (r.source_text ?? null) : null } : null,
        entry: creator === null ? null : { seq: creator, text: shown(creator, true) },
        dayGained: r.day_gained ?? null, sessionGained: number(r.session_gained), dayHealed: r.day_healed ?? null, sessionHealed: number(r.session_healed),
        healed: r.healed_at !== null,
        treatments: treatments.get(r.id) ?? [],
      };
    }),
    // Cut as the cards show them: a rest's line counts every open record down (the whole line is among the items).
    entries: entries.filter((e) => named.has(e.seq)).map((e) => ({ seq: e.seq, day: e.day, text: shown(e.seq, false) })),
    items: kept.map(toItem),
    itemCount: momentCount,
  };
}

/** A moment as read, placed in the history's order; made a Moment only when it is kept. */
interface Placed { at: string; kind: HistoryItem['kind']; seq: number | undefined; item: unknown }
/** Moments of one kind (or the entries' kinds), oldest first, and how one becomes a Moment. */
interface MomentList { placed: Placed[]; moment(item: unknown): Moment }

/** Moments as read, sorted stably by the history's order (ties keep the order read: the rows' index order). */
function momentList<T>(items: readonly T[], kind: (item: T) => HistoryItem['kind'], at: (item: T) => string, seq: (item: T) => number | undefined, moment: (item: T) => Moment): MomentList {
  return { placed: items.map((item) => ({ at: at(item), kind: kind(item), seq: seq(item), item })).sort(byTime), moment: moment as MomentList['moment'] };
}

/** The newest `count` moments of the lists together, oldest first, taken from the lists' ends. */
function newestMoments(lists: readonly MomentList[], count: number): Moment[] {
  const ends = lists.map((list) => list.placed.length);
  const newest: Moment[] = [];
  while (newest.length < count) {
    let next = -1;
    for (let k = 0; k < lists.length; k++) {
      if (ends[k]! > 0 && (next < 0 || byTime(lists[k]!.placed[ends[k]! - 1]!, lists[next]!.placed[ends[next]! - 1]!) > 0)) next = k;
    }
    if (next < 0) break;
    const list = lists[next]!;
    newest.push(list.moment(list.placed[--ends[next]!]!.item));
  }
  return newest.reverse();
}
