// Encounters: prepared from the campaign's characters, run by appending GM events, undone and redone.
import type { HandlerContext } from '../app.ts';
import { GmError, LOG_TAIL_EVENTS, STALE_SCREEN, type CarryPreview, type EncounterDetail, type EncounterLog, type LogPage, type LogPageLine } from '../../core/api/contract.ts';
import { showsEveryLine, type LogFilter } from '../../core/encounter/log-filter.ts';
import type { CombatantSeed, CombatantView, EncounterInput, EncounterView, GmEvent } from '../../core/encounter/types.ts';
import { numberedNames } from '../../core/encounter/copy-names.ts';
import { resolveOptions } from '../../core/rulesets/options.ts';
import { defaultSheet, normalizeSheet } from '../../core/rulesets/sheet.ts';
import { withMainPool } from '../../core/rulesets/main-pool.ts';
import { campaignHead, getCampaign, getCharacter, listCharacters, noteCampaignActivity } from '../../db/campaigns.ts';
import * as store from '../../db/encounters.ts';
import { runningInjuries } from '../../db/consequences.ts';
import { toEncounterSummary, type EncounterRow } from '../../db/rows.ts';
import type { EncounterListRow as EncounterHead } from '../../db/encounters.ts';
import { EndingToCheck, rulesFor, type CarryAdjustment } from '../encounter-store.ts';
import { carryFields, carryLabel } from '../../core/ledger/carry.ts';
import { sessionForEncounter } from './ledger.ts';
import { conditionNamesOf, requireCampaign, rulesetOf } from './campaigns.ts';

export function requireEncounter(ctx: HandlerContext, id: string): EncounterHead {
  const row = store.getEncounter(ctx.db, id);
  if (!row) throw new GmError('That encounter does not exist (it may have been removed).', 'notFound');
  return row;
}

/** How many of the newest events' log lines come with every encounter detail (the renderer trims to the same). */
export { LOG_TAIL_EVENTS };

const logEntries = (ctx: HandlerContext, id: string, afterSeq = 0) =>
  store.readLog(ctx.db, id, afterSeq).flatMap(({ seq, lines }) => lines.map((line) => ({ ...line, seq })));

/**
 * The log lines of the encounter's events after `afterSeq`: none after the newest, the newest event's own from the
 * write that stored it (a runner write's reply), else read from the file.
 */
function logAfterSeq(ctx: HandlerContext, row: EncounterHead, afterSeq: number) {
  if (afterSeq >= row.event_count) return [];
  const newest = afterSeq === row.event_count - 1 ? ctx.encounters.newestLines(row) : null;
  return newest ? newest.map((line) => ({ ...line, seq: row.event_count })) : logEntries(ctx, row.id, afterSeq);
}

/** What the screen says it shows of the encounter (see logSinceSchema). */
type LogSince = { eventCount: number; version: string } | undefined;

/**
 * The encounter as a screen shows it. `logAfter` (a seq) sends only the lines of the events after it: a write
 * passes it when the screen already has every line up to there (see `shownLog`).
 */
function detail(ctx: HandlerContext, row: EncounterHead, logAfter?: number, shownView?: EncounterView | null): EncounterDetail {
  const id = row.id;
  const engine = ctx.encounters.engine(row);
  const view = engine.view();
  // The screen shows `shownView` already: send only the combatants that differ from it, with the order by id.
  const patch = shownView ? changedCombatants(shownView, view) : null;
  // An undo the campaign has moved past is not offered: its label says why (see EncounterStore.undoRefusal).
  const undoRefusal = ctx.encounters.undoRefusal(row);
  const undoLabel = undoRefusal ?? ctx.encounters.undoLabel(row);
  const redoLabel = ctx.encounters.redoLabel(row);
  // The runner shows the newest lines: the whole log travels only on request (encounters:log).
  const tailFrom = Math.max(0, row.event_count - LOG_TAIL_EVENTS);
  const delta = logAfter !== undefined && logAfter >= tailFrom;
  const campaign = campaignHead(ctx.db, row.campaign_id);
  return {
    encounter: { ...toEncounterSummary(row), rulesetId: rulesetOf(row).id, campaignName: campaign?.name ?? '' },
    view: patch ? { ...view, order: patch } : view,
    conditionNames: conditionNamesOf({ ruleset_id: row.ruleset_id, conditions_json: campaign?.conditions_json ?? null }),
    ...(patch ? { orderIds: view.order.map((c) => c.id) } : {}),
    log: logAfterSeq(ctx, row, delta ? logAfter : tailFrom),
    logComplete: row.event_count <= LOG_TAIL_EVENTS,
    canUndo: undoRefusal === null && undoLabel !== null,
    canRedo: redoLabel !== null,
    undoLabel,
    redoLabel,
    ...(delta ? { logAfter } : {}),
  };
}

/**
 * Whether two rows of one combatant show the same, field by field: a field that is the same object or an equal
 * value is the same without more work (a ruleset reuses a row's parts while the combatant is unchanged), a
 * differing plain value ends the comparison at once, and only an object field that is another object with the same
 * keys is compared as JSON. So a row whose status or numbers moved costs nothing to compare, however many injuries
 * it lists.
 */
function sameRow(a: CombatantView, b: CombatantView): boolean {
  if (a === b) return true;
  const keys = Object.keys(a) as (keyof CombatantView)[];
  if (keys.length !== Object.keys(b).length) return false;
  const deep: (keyof CombatantView)[] = [];
  for (const key of keys) {
    if (!(key in b)) return false;
    const x = a[key];
    const y = b[key];
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    deep.push(key);
  }
  return deep.every((key) => JSON.stringify(a[key]) === JSON.stringify(b[key]));
}

/** The combatants of `after` that are new or differ from the same combatant in `before`. */
function changedCombatants(before: EncounterView, after: EncounterView): CombatantView[] {
  const old = new Map(before.order.map((c) => [c.id, c]));
  return after.order.filter((c) => {
    const was = old.get(c.id);
    return was === undefined || !sameRow(was, c);
  });
}

/** The view the screen shows before a write, when it is up to date (see shownLog); null otherwise. */
const shownView = (ctx: HandlerContext, row: EncounterHead, logAfter: number | undefined): EncounterView | null =>
  logAfter === undefined ? null : ctx.encounters.engine(row).view();

/**
 * Before a write: the seq up to which the screen's log lines are still right after this write, or undefined
 * when the write says nothing of a screen (a script), so it gets the whole tail. (A screen that is out of date
 * never gets here: see refuseStale.)
 * A write changes at most the newest event: an undo drops it, an append or a redo adds one after it.
 */
function shownLog(row: EncounterHead, since: LogSince): number | undefined {
  if (!since || since.eventCount !== row.event_count || since.version !== row.updated_at) return undefined;
  return row.event_count;
}

/**
 * A write from a screen the encounter has moved past (another window wrote, or this is the second press of a button
 * whose first already went through) is refused before anything is read or written: applied, it would act on a state
 * the GM did not see (two tabs pressing N advanced two turns). A write without `since` (a script) applies as it stands.
 */
function refuseStale(row: EncounterHead, since: LogSince): void {
  if (since && (since.eventCount !== row.event_count || since.version !== row.updated_at)) throw new GmError(STALE_SCREEN, 'stale');
}

/**
 * After a write: the campaign's lists change too. The notice carries the new version (see ChangeNotice). Returns
 * the encounter's row as the write left it.
 */
function touched(ctx: HandlerContext, row: EncounterHead): EncounterHead {
  return announced(ctx, requireEncounter(ctx, row.id));
}

/** `touched` for a write that returned the row as it left it. */
function announced(ctx: HandlerContext, head: EncounterHead): EncounterHead {
  noteCampaignActivity(ctx.db, head.campaign_id, ctx.now());
  ctx.changed({ area: 'encounters', id: head.id, version: head.updated_at });
  ctx.changed({ area: 'campaigns', id: head.campaign_id });
  return head;
}

/**
 * One write from the runner (append, undo, redo): `since` says what its screen shows, so the reply carries only
 * the new log lines and the combatants that changed. `removes` is how many shown events the write takes away (an
 * undo takes one). A write may decline to write and answer instead (`{carryCheck}`): the reply then shows the
 * encounter as it was, with that answer.
 */
function runnerWrite(ctx: HandlerContext, input: { id: string; since?: LogSince }, write: (row: EncounterHead) => EncounterHead | { answer: Partial<EncounterDetail> }, removes = 0): EncounterDetail {
  const row = requireEncounter(ctx, input.id);
  refuseStale(row, input.since);
  const logAfter = shownLog(row, input.since);
  const shown = shownView(ctx, row, logAfter);
  const written = write(row);
  if ('answer' in written) return { ...detail(ctx, row, logAfter, shown), ...written.answer };
  return detail(ctx, announced(ctx, written), logAfter === undefined ? undefined : logAfter - removes, shown);
}

/**
 * Tries the event without committing it: the event with its dice rolled (send exactly that to append, so the
 * dice are rolled once), and what it would carry onto the campaign if it ends the fight (null when it does not).
 */
function carryPreview(ctx: HandlerContext, row: EncounterHead, raw: unknown): { event: GmEvent; carry: CarryPreview | null } {
  const engine = ctx.encounters.engine(row);
  const alreadyEnded = Boolean(engine.rules.consequences?.(engine.snapshot).carry);
  const { consequences, event } = ctx.encounters.trial(row, raw);
  if (alreadyEnded || !consequences?.carry) return { event, carry: null };
  return { event, carry: previewOf(ctx, row, { ...consequences, carry: consequences.carry }) };
}

/** What an ending would write onto each character and the party, beside what they hold now. */
function previewOf(ctx: HandlerContext, row: EncounterHead, consequences: EndingToCheck['consequences']): CarryPreview {
  const campaign = getCampaign(ctx.db, row.campaign_id)!;
  const party = JSON.parse(campaign.party_json) as Record<string, unknown>;
  const sheetOf = rulesetOf(campaign).sheet;
  return {
    characters: consequences.carry.map(({ characterId, state }) => {
      const character = getCharacter(ctx.db, characterId)!;
      // What the character holds now: what the campaign kept of it, else (its first fight) the value on its sheet.
      const held = { ...normalizeSheet(sheetOf, JSON.parse(character.sheet_json)), ...(JSON.parse(character.state_json ?? '{}') as Record<string, unknown>) };
      return {
        characterId, name: character.name,
        fields: carryFields(held, state),
        newRecords: consequences.injuries.filter((i) => i.characterId === characterId).map((i) => ({ name: i.name, category: i.category })),
      };
    }),
    party: Object.entries(consequences.party ?? {}).flatMap(([key, after]) => {
      // A value kept per NPC template (Factions: morale immunity for the stretch) is keyed by the template's id: one
      // line per field, named after the template.
      const template = after && typeof after === 'object' ? getCharacter(ctx.db, key) : undefined;
      if (!template || template.campaign_id !== row.campaign_id) return [{ key, label: carryLabel(key), before: party[key] ?? null, after }];
      const was = (party[key] && typeof party[key] === 'object' ? party[key] : {}) as Record<string, unknown>;
      return Object.entries(after as Record<string, unknown>).map(([field, value]) => ({ key: `${key}.${field}`, label: `${template.name}: ${carryLabel(field).toLowerCase()}`, before: was[field] ?? null, after: value }));
    }),
  };
}

export const encounterHandlers = {
  'encounters:create': (ctx: HandlerContext, input: { campaignId: string; name: string }) => {
    const campaign = requireCampaign(ctx, input.campaignId);
    const ruleset = rulesetOf(campaign);
    const party = JSON.parse(campaign.party_json) as Record<string, unknown>;
    const encounterInput: EncounterInput = {
      options: resolveOptions(ruleset.options, JSON.parse(campaign.options_json)),
      carried: ruleset.encounter.carriedFromParty?.(party) ?? {},
    };
    const now = ctx.now();
    const { sessionId, day } = sessionForEncounter(ctx, campaign);
    const row: EncounterRow = {
      id: ctx.newId(), campaign_id: campaign.id, name: input.name, ruleset_id: ruleset.id,
      input_json: JSON.stringify(encounterInput), phase: 'setup', round: 0, event_count: 0, session_id: sessionId, day, created_at: now, updated_at: now,
    };
    store.insertEncounter(ctx.db, row);
    touched(ctx, row);
    return toEncounterSummary(row);
  },

  'encounters:get': (ctx: HandlerContext, input: { id: string }) => detail(ctx, requireEncounter(ctx, input.id)),

  /** The log of an encounter for the full log screen: the whole of it, or the lines after those it has (see EncounterLog). */
  'encounters:log': (ctx: HandlerContext, input: { id: string; after?: { seq: number; mark: string } | undefined }): EncounterLog => {
    const row = requireEncounter(ctx, input.id);
    const mark = ctx.encounters.logMark(row.id);
    const after = input.after && input.after.mark === mark && input.after.seq <= row.event_count ? input.after.seq : 0;
    return { entries: logEntries(ctx, row.id, after), after, eventCount: row.event_count, mark };
  },

  /**
   * A page of the full log screen. Every line: read by line number, only the events that hold the page (and the line
   * before it, whose round says whether the page opens with a heading). Filtered: the lines the filter matches are
   * found once and kept by the store (EncounterStore.logMatches, which matches only the events appended since), and
   * the page reads only the events that hold its lines and the matching line before it, by key.
   */
  'encounters:logPage': (ctx: HandlerContext, input: { id: string; from: number; count: number; filter?: LogFilter | undefined }): LogPage => {
    const row = requireEncounter(ctx, input.id);
    const lineCount = ctx.encounters.lineCount(row);
    const head = { lineCount, eventCount: row.event_count, version: row.updated_at };
    if (!input.filter || showsEveryLine(input.filter)) {
      const before = Math.max(0, input.from - 1);
      const read = store.readLogLines(ctx.db, row.id, before, input.from + input.count);
      const lines = read.flatMap(({ line, ...entry }, i) => line < input.from ? [] : [{ ...entry, index: line, opensRound: line === 0 || read[i - 1]?.round !== entry.round }]);
      return { lines, shown: lineCount, ...head };
    }
    const matched = ctx.encounters.logMatches(row, input.filter);
    const shown = matched.length;
    const to = Math.min(shown, input.from + input.count);
    if (input.from >= to) return { lines: [], shown, ...head };
    const first = Math.max(0, input.from - 1);
    const seqs = new Set<number>();
    for (let i = first; i < to; i += 1) seqs.add(matched.seqAt(i));
    const logs = store.readEventLogs(ctx.db, row.id, [...seqs]);
    const lines: LogPageLine[] = [];
    let round: number | null = null;
    for (let i = first; i < to; i += 1) {
      const seq = matched.seqAt(i);
      const line = logs.get(seq)?.[matched.placeAt(i)];
      if (!line) throw new Error(`Line ${matched.placeAt(i)} of event ${seq} of encounter ${row.id} is missing.`);
      if (i >= input.from) lines.push({ ...line, seq, index: i, opensRound: line.round !== round });
      round = line.round;
    }
    return { lines, shown, ...head };
  },

  /**
   * Adds party members and copies of NPC templates. With `wholeParty`, every party member not yet in the fight joins
   * but the dead, who are skipped and named in `skipped` with why (one dead PC does not stop the others).
   */
  'encounters:addFromCampaign': (ctx: HandlerContext, input: { id: string; since?: LogSince; pcIds: string[]; wholeParty?: boolean | undefined; position?: number | null | undefined; initiative?: number | null | undefined; npcs: { templateId: string; count: number; names?: string[] | undefined; pool?: number | (number | null)[] | undefined }[]; typed?: { name: string; side: string; pool: number }[] | undefined }): EncounterDetail => {
    const row = requireEncounter(ctx, input.id);
    refuseStale(row, input.since);
    const ruleset = rulesetOf(row);
    const rules = rulesFor(row.ruleset_id);
    const view = ctx.encounters.engine(row).view();
    if (view.phase === 'ended') throw new GmError('This encounter has ended.');
    const [partySide, gmSide] = rules.sides;
    const inEncounter = new Set(view.order.map((c) => c.name));
    const seeds: CombatantSeed[] = [];
    let partyValues: Record<string, unknown> | null = null;
    const party = () => (partyValues ??= JSON.parse(getCampaign(ctx.db, row.campaign_id)!.party_json) as Record<string, unknown>);
    const load = (id: string, role: 'pc' | 'npc') => {
      const character = getCharacter(ctx.db, id);
      if (!character || character.campaign_id !== row.campaign_id || character.role !== role) {
        throw new GmError(role === 'pc' ? 'That party member is not in this campaign.' : 'That NPC template is not in this campaign.', 'notFound');
      }
      if (character.archived_at) throw new GmError(`${character.name} is archived; restore them first.`);
      const state = JSON.parse(character.state_json ?? '{}') as Record<string, unknown>;
      if (state['dead']) throw new GmError(`${character.name} is dead and cannot join a fight.`);
      // A party member brings its condition and running injuries; an NPC template starts fresh every time, but for
      // what the campaign's party values keep of it when its ruleset reads them (Factions: morale immunity, R-F8).
      const carried = role === 'pc'
        ? (rules.carriedIn ? rules.carriedIn(state, runningInjuries(ctx.db, id).map((i) => JSON.parse(i.data_json))) : {})
        : (rules.npcCarriedIn ? rules.npcCarriedIn(party(), id) : {});
      return { character, sheet: normalizeSheet(ruleset.sheet, JSON.parse(character.sheet_json)) as CombatantSeed['sheet'], carried };
    };
    const pcIds = [...input.pcIds];
    const skipped: { name: string; reason: string }[] = [];
    if (input.wholeParty) {
      for (const pc of listCharacters(ctx.db, row.campaign_id)) {
        if (pc.role !== 'pc' || pc.archived_at || inEncounter.has(pc.name) || pcIds.includes(pc.id)) continue;
        const dead = Boolean((JSON.parse(pc.state_json ?? '{}') as Record<string, unknown>)['dead']);
        if (dead) skipped.push({ name: pc.name, reason: 'dead' });
        else pcIds.push(pc.id);
      }
      if (pcIds.length === 0 && input.npcs.length === 0) {
        throw new GmError(skipped.length
          ? `Nobody to add: ${skipped.map((s) => s.name).join(', ')} ${skipped.length === 1 ? 'is' : 'are'} dead.`
          : 'Every living party member is already in this encounter.');
      }
    }
    for (const id of pcIds) {
      const { character, sheet, carried } = load(id, 'pc');
      if (view.order.some((c) => c.name === character.name) || seeds.some((s) => s.characterId === id)) {
        throw new GmError(`${character.name} is already in this encounter.`);
      }
      seeds.push({ id: ctx.newId().slice(0, 12), name: character.name, side: partySide!.key, characterId: id, sheet, ...(Object.keys(carried).length ? { carried } : {}) });
      inEncounter.add(character.name);
    }
    // Copies of a template: each may have its own name (blank: the numbered default) and its own main pool (null or
    // absent: the template's), checked as a typed NPC's is.
    for (const { templateId, count, names, pool } of input.npcs) {
      const { character, sheet, carried } = load(templateId, 'npc');
      if (names && names.length !== count) throw new GmError(`${character.name}: ${names.length} name${names.length === 1 ? '' : 's'} for ${count} cop${count === 1 ? 'y' : 'ies'}; give one for each (a blank one keeps its number).`);
      if (Array.isArray(pool) && pool.length !== count) throw new GmError(`${character.name}: ${pool.length} pool${pool.length === 1 ? '' : 's'} for ${count} cop${count === 1 ? 'y' : 'ies'}; give one for each.`);
      const numbered = numberedNames(character.name, count, inEncounter);
      const chosen = numbered.map((name, i) => names?.[i]?.trim() || name);
      chosen.forEach((name, i) => {
        if (inEncounter.has(name)) throw new GmError(`${name} is already in this encounter: choose another name.`);
        if (chosen.indexOf(name) !== i) throw new GmError(`Two copies are named ${name}: choose another name.`);
      });
      chosen.forEach((name, i) => {
        const own = Array.isArray(pool) ? pool[i] : pool;
        let copySheet = sheet;
        if (own !== null && own !== undefined) {
          const set = withMainPool(ruleset.sheet, ruleset.name, sheet, name, own);
          if ('refusal' in set) throw new GmError(set.refusal);
          copySheet = set.sheet as CombatantSeed['sheet'];
        }
        seeds.push({ id: ctx.newId().slice(0, 12), name, side: gmSide!.key, characterId: templateId, sheet: copySheet, ...(Object.keys(carried).length ? { carried } : {}) });
      });
      chosen.forEach((name) => inEncounter.add(name));
    }
    // An NPC typed in place: no template (characterId null, so nothing is carried back to the campaign), the ruleset's
    // default sheet with its main pool set to the number typed.
    for (const typed of input.typed ?? []) {
      const name = typed.name.trim();
      if (!name) throw new GmError('Give the NPC a name.');
      if (inEncounter.has(name)) throw new GmError(`${name} is already in this encounter: choose another name.`);
      const side = rules.sides.find((s) => s.key === typed.side);
      if (!side) throw new GmError('Choose the side the NPC fights on.');
      const set = withMainPool(ruleset.sheet, ruleset.name, defaultSheet(ruleset.sheet), name, typed.pool);
      if ('refusal' in set) throw new GmError(set.refusal);
      seeds.push({ id: ctx.newId().slice(0, 12), name, side: side.key, characterId: null, sheet: set.sheet as CombatantSeed['sheet'] });
      inEncounter.add(name);
    }
    if (seeds.length === 0) throw new GmError('Choose at least one party member or NPC template to add.');
    const initiative = input.initiative ?? null;
    if (initiative !== null && !rules.lateInitiative) throw new GmError(`${ruleset.name} late arrivals take no typed initiative.`);
    if (initiative !== null && view.phase === 'setup') throw new GmError('An initiative is typed for a late arrival: the fight has not started yet.');
    if (view.phase === 'setup') {
      ctx.encounters.append(row, { type: 'ADD_COMBATANTS', combatants: seeds }, ctx.now());
    } else {
      // After the start each newcomer is a late arrival (R-E4), one event each, in the same transaction.
      seeds.forEach((combatant, i) => {
        const position = input.position === null || input.position === undefined ? null : input.position + i;
        ctx.encounters.append(requireEncounter(ctx, row.id), { type: 'ADD_LATE_COMBATANT', combatant, position, ...(initiative !== null ? { initiative } : {}) }, ctx.now());
      });
    }
    const added = detail(ctx, touched(ctx, row));
    return input.wholeParty ? { ...added, skipped } : added;
  },

  'encounters:append': (ctx: HandlerContext, input: {
    id: string; event?: unknown; carryAdjust?: CarryAdjustment['adjust'] | undefined; carryReason?: string | undefined; ask?: boolean | undefined; since?: LogSince;
  }): EncounterDetail => runnerWrite(ctx, input, (row) => {
    try {
      // With `ask` (the runner), an event that would end the fight with a carry-over stops before anything is
      // written and goes back to the GM with its dice and what it would carry: one round trip, one apply.
      return ctx.encounters.append(row, input.event, ctx.now(), input.carryAdjust ? { adjust: input.carryAdjust, reason: input.carryReason } : undefined, input.ask === true);
    } catch (error) {
      if (!(error instanceof EndingToCheck)) throw error;
      return { answer: { carryCheck: { event: error.event, carry: previewOf(ctx, row, error.consequences) } } };
    }
  }),

  'encounters:preview': (ctx: HandlerContext, input: { id: string; event?: unknown }) => ({
    rolls: ctx.encounters.rollsFor(requireEncounter(ctx, input.id), input.event),
  }),

  /** Tries the event without committing it (see carryPreview). */
  'encounters:carryPreview': (ctx: HandlerContext, input: { id: string; event?: unknown }): { event: GmEvent; carry: CarryPreview | null } =>
    carryPreview(ctx, requireEncounter(ctx, input.id), input.event),

  'encounters:undo': (ctx: HandlerContext, input: { id: string; since?: LogSince }) =>
    runnerWrite(ctx, input, (row) => ctx.encounters.undo(row, ctx.now()), 1),

  /**
   * Redoing an ending shows the same review as the first (EncounterStore.redo): `ask` answers with it
   * (`{carryCheck}`), `confirm` writes it with the review's adjustments; a redo of an ending with neither is refused.
   */
  'encounters:redo': (ctx: HandlerContext, input: {
    id: string; since?: LogSince; ask?: boolean | undefined; confirm?: boolean | undefined; carryAdjust?: CarryAdjustment['adjust'] | undefined; carryReason?: string | undefined;
  }) => runnerWrite(ctx, input, (row) => {
    try {
      return ctx.encounters.redo(row, ctx.now(), { ask: input.ask, confirm: input.confirm, carry: input.carryAdjust ? { adjust: input.carryAdjust, reason: input.carryReason } : undefined });
    } catch (error) {
      if (!(error instanceof EndingToCheck)) throw error;
      return { answer: { carryCheck: { event: error.event, carry: previewOf(ctx, row, error.consequences), ...(error.adjusted ? { adjusted: error.adjusted } : {}) } } };
    }
  }),
};
