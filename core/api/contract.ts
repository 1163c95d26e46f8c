// The typed handler contract shared by every transport (IPC, web mode, CLI): one named, schema-validated
// operation per thing the UI can ask for. Names are `area:verb`. Handlers return `{result}` or `{error}`.
import * as z from 'zod';
import { builtOnFirstRead, once } from '../lazy.ts';
import { conditionListSchema } from '../encounter/condition-list.ts';
import { idSchema, nameSchema } from '../encounter/schemas.ts';
import type { ActionForm, EncounterView, GmEvent, LogLine, RollRequest, SeveralTargets } from '../encounter/types.ts';
import type { OptionValues } from '../rulesets/options.ts';
import type { RulingOption } from '../rulesets/options.ts';
import type { LedgerForm, RecoveryCard } from '../ledger/types.ts';
import type { ExportFile, RoundSummary } from '../export/types.ts';
import type { SheetSchema, SheetValues } from '../rulesets/sheet.ts';
import type { RecordCategory, RulesetId } from '../rulesets/types.ts';
import type { PartyBadge } from '../ledger/types.ts';
import type { HandlerName } from './names.ts';
import { LOG_KIND_FILTERS } from '../encounter/log-filter.ts';
import type { ErrorKind } from './replies.ts';

export { cutText, ENTRY_TEXT_SENT, GmError, HEALED_RECORDS_SENT, ITEMS_SENT, LOG_TAIL_EVENTS, OPEN_RECORDS_SENT, STALE_SCREEN, type ErrorKind } from './replies.ts';

/**
 * A ruleset's id. Which ids exist is the registry's to say, and this module (read by the renderer too) never imports
 * the registry: `campaigns:create` refuses an unknown one in its handler, naming the rulesets.
 */
const rulesetIdSchema = once(() => z.string().max(64));
const optionValuesSchema = once(() => z.record(z.string().max(64), z.union([z.string().max(64), z.number(), z.boolean()])));
const sheetValuesSchema = once(() => z.record(z.string().max(64), z.union([z.string().max(4000), z.number(), z.boolean()])));
/**
 * What the screen showed of an encounter when the GM pressed (its event count and version). A write that carries it
 * is refused with STALE_SCREEN when the encounter has moved on since (another window, or a second press of the same
 * button), and otherwise replies with only the log lines the screen lacks. The runner always sends it; a script
 * (`gmw`) may leave it out, and its write then applies to the encounter as it stands.
 */
const logSinceSchema = once(() => z.strictObject({ eventCount: z.number().int().min(0), version: z.string().max(64) }));
const roleSchema = once(() => z.enum(['pc', 'npc'], { error: 'A character is a party member (pc) or an NPC template (npc).' }));
/** The GM's changes to what ending a fight carries onto the characters (from the review), logged as overrides. */
const carryAdjustSchema = once(() => z.array(z.strictObject({
  characterId: idSchema,
  key: z.string().min(1).max(64),
  value: z.number({ error: 'A carried value must be a number.' }).int({ error: 'A carried value must be a whole number.' }).min(-999).max(9999),
})).max(500));
/** A main pool's number typed on the prepare screen (an NPC typed in place, a copy of a template). */
const poolSchema = once(() => z.number({ error: 'The pool must be a number.' }).int({ error: 'The pool must be a whole number.' }));
const carryReasonSchema = once(() => z.string().trim().max(200, { error: 'A reason has at most 200 characters.' }));

/** The most lines one encounters:logPage reply holds, and the highest line number a page may start at. */
export const LOG_PAGE_MAX = 500;
export const LOG_LINES_MAX = 100_000_000;

/**
 * Each handler's input schema, built the first time a request of that name comes (server/start-schemas.test.ts): a
 * start asks three names, and building all of them was a tenth of its import.
 */
export const inputSchemas = builtOnFirstRead({
  'app:info': () => z.strictObject({}),
  'rulesets:get': () => z.strictObject({ id: rulesetIdSchema() }),
  'campaigns:list': () => z.strictObject({ includeArchived: z.boolean().optional() }),
  'campaigns:create': () => z.strictObject({ name: nameSchema, rulesetId: rulesetIdSchema(), options: optionValuesSchema().optional() }),
  'campaigns:get': () => z.strictObject({ id: idSchema }),
  'campaigns:rename': () => z.strictObject({ id: idSchema, name: nameSchema }),
  'campaigns:archive': () => z.strictObject({ id: idSchema, archived: z.boolean() }),
  'campaigns:setOptions': () => z.strictObject({ id: idSchema, options: optionValuesSchema() }),
  /** The campaign's own condition list (one name a line on the campaign home), or null for its ruleset's list. */
  'campaigns:setConditions': () => z.strictObject({ id: idSchema, names: conditionListSchema.nullable() }),
  'characters:create': () => z.strictObject({ campaignId: idSchema, role: roleSchema(), name: nameSchema, sheet: sheetValuesSchema() }),
  'characters:update': () => z.strictObject({ id: idSchema, name: nameSchema, sheet: sheetValuesSchema() }),
  'characters:archive': () => z.strictObject({ id: idSchema, archived: z.boolean() }),
  'encounters:create': () => z.strictObject({ campaignId: idSchema, name: nameSchema }),
  'encounters:get': () => z.strictObject({ id: idSchema }),
  'encounters:log': () => z.strictObject({
    id: idSchema,
    /** What the screen already has: the lines of every event up to `seq`, as of `mark` (see EncounterLog). */
    after: z.strictObject({ seq: z.number().int().min(0), mark: z.string().max(64) }).optional(),
  }),
  /** A page of the full log screen: lines `from` to `from + count - 1` of the log as `filter` shows it (see LogPage). */
  'encounters:logPage': () => z.strictObject({
    id: idSchema,
    from: z.number({ error: 'A log page starts at a line number.' }).int({ error: 'A log page starts at a whole line number.' })
      .min(0, { error: 'A log page starts at line 0 or later.' }).max(LOG_LINES_MAX, { error: `A log holds at most ${LOG_LINES_MAX.toLocaleString('en')} lines.` }),
    count: z.number({ error: 'A log page has a number of lines.' }).int({ error: 'A log page has a whole number of lines.' })
      .min(1, { error: 'A log page holds at least one line.' }).max(LOG_PAGE_MAX, { error: `A log page holds at most ${LOG_PAGE_MAX} lines.` }),
    filter: z.strictObject({
      kind: z.enum(LOG_KIND_FILTERS, { error: `A kind of line is one of ${LOG_KIND_FILTERS.join(', ')}.` }),
      combatant: z.strictObject({ id: idSchema, name: z.string().max(200) }).nullable(),
      query: z.string().max(200, { error: 'A search has at most 200 characters.' }),
    }).optional(),
  }),
  'encounters:addFromCampaign': () => z.strictObject({
    id: idSchema,
    since: logSinceSchema().optional(),
    pcIds: z.array(idSchema).max(100),
    /** Also every party member not yet in the encounter, but the dead (named in the reply's `skipped`). */
    wholeParty: z.boolean().optional(),
    /** After combat starts: where late arrivals join the frozen order (0-based slot), or null for the end (R-E4). */
    position: z.number().int().min(0).max(500).nullable().optional(),
    /**
     * After combat starts, for a ruleset whose late arrival takes one (`lateInitiative`): the initiative total every
     * newcomer of this request joins at; absent or null, the ruleset rolls it. The ruleset's schema checks its range.
     */
    initiative: z.number({ error: 'An initiative must be a number.' }).int({ error: 'An initiative is a whole number.' }).min(-999).max(999).nullable().optional(),
    /** NPCs typed in place without a template: a name, a side, the number of the sheet's main pool (mainPool). */
    typed: z.array(z.strictObject({
      name: z.string().max(80, { error: 'A name is at most 80 characters.' }),
      side: z.string().max(32),
      pool: poolSchema(),
    })).max(20).optional(),
    npcs: z.array(z.strictObject({
      templateId: idSchema,
      count: z.number({ error: 'A count must be a number.' }).int({ error: 'A count must be a whole number.' }).min(1, { error: 'A count is at least 1.' }).max(50, { error: 'Add at most 50 copies of a template at once.' }),
      /** Each copy's name, one per copy; a blank one keeps its numbered default ("Goblin 2"). */
      names: z.array(z.string().max(80, { error: 'A name is at most 80 characters.' })).max(50).optional(),
      /** The copies' main pool (mainPool): one number for all, or one per copy (null keeps the template's). */
      pool: z.union([poolSchema(), z.array(poolSchema().nullable()).max(50)], { error: 'A pool is a whole number, or one whole number per copy.' }).optional(),
    })).max(50),
  }),
  'encounters:append': () => z.strictObject({
    id: idSchema,
    event: z.unknown(),
    /**
     * The runner's opt-in: if the event would end the fight with something to carry onto the characters, commit
     * nothing and reply with the event as filled (dice rolled) and the carry-over, so the GM can check it first.
     */
    ask: z.boolean().optional(),
    since: logSinceSchema().optional(),
    /** When the event ends the fight: the GM's changes to what is carried onto the characters, logged as overrides. */
    carryAdjust: carryAdjustSchema().optional(),
    carryReason: carryReasonSchema().optional(),
  }),
  'encounters:preview': () => z.strictObject({ id: idSchema, event: z.unknown() }),
  'encounters:undo': () => z.strictObject({ id: idSchema, since: logSinceSchema().optional() }),
  'encounters:redo': () => z.strictObject({
    id: idSchema, since: logSinceSchema().optional(),
    /**
     * Redoing an event that ends the fight shows the same review as ending it did: `ask` commits nothing and replies
     * with `carryCheck`; `confirm` writes it, with the review's `carryAdjust` (an empty list: none) or else the
     * undone event's own. Without either such a redo is refused.
     */
    ask: z.boolean().optional(),
    confirm: z.boolean().optional(),
    carryAdjust: carryAdjustSchema().optional(),
    carryReason: carryReasonSchema().optional(),
  }),
  'encounters:carryPreview': () => z.strictObject({ id: idSchema, event: z.unknown() }),
  'ledger:get': () => z.strictObject({ campaignId: idSchema }),
  'ledger:append': () => z.strictObject({ campaignId: idSchema, event: z.unknown() }),
  'ledger:preview': () => z.strictObject({ campaignId: idSchema, event: z.unknown() }),
  'ledger:undo': () => z.strictObject({ campaignId: idSchema }),
  'ledger:redo': () => z.strictObject({ campaignId: idSchema }),
  'sessions:update': () => z.strictObject({
    id: idSchema,
    title: z.string().trim().min(1, { error: 'A session title cannot be empty.' }).max(120, { error: 'A session title has at most 120 characters.' }).optional(),
    notes: z.string().max(10_000, { error: 'Session notes have at most 10,000 characters.' }).optional(),
    date: z.iso.date({ error: 'The session date must be a date like 2026-11-22.' }).optional(),
  }),
  'campaigns:timeline': () => z.strictObject({ id: idSchema, allItems: z.boolean().optional() }),
  'characters:history': () => z.strictObject({ id: idSchema, allItems: z.boolean().optional(), allRecords: z.boolean().optional() }),
  'encounters:summary': () => z.strictObject({ id: idSchema }),
  'exports:encounter': () => z.strictObject({ id: idSchema, format: z.enum(['md', 'html', 'json'], { error: 'The format is md, html or json.' }) }),
  'exports:session': () => z.strictObject({ id: idSchema, format: z.enum(['md', 'html'], { error: 'A session recap is md or html.' }) }),
  'exports:campaign': () => z.strictObject({ id: idSchema }),
  /** The file's text; the importer checks its size, nesting and content itself so every rejection is a sentence. */
  'imports:campaign': () => z.strictObject({ content: z.string({ error: 'Choose a file to import.' }) }),
  'imports:encounter': () => z.strictObject({ campaignId: idSchema, content: z.string({ error: 'Choose a file to import.' }) }),
  /** Another tracker's file: the party, templates and encounters it holds, read by one of the ruleset's readers. */
  'imports:table': () => z.strictObject({
    campaignId: idSchema,
    reader: z.string({ error: 'Choose what kind of file it is.' }).min(1, { error: 'Choose what kind of file it is.' }).max(64),
    content: z.string({ error: 'Choose a file to import.' }),
  }),
  'campaigns:demo': () => z.strictObject({}),
  'backups:list': () => z.strictObject({}),
  'backups:create': () => z.strictObject({}),
  'backups:restore': () => z.strictObject({ name: z.string({ error: 'Choose a backup.' }).min(1, { error: 'Choose a backup.' }).max(200) }),
  /** Recovery mode (a damaged database at start): what happened, and the two ways out. */
  'recovery:status': () => z.strictObject({}),
  'recovery:restore': () => z.strictObject({ name: z.string({ error: 'Choose a backup.' }).min(1, { error: 'Choose a backup.' }).max(200) }),
  'recovery:startEmpty': () => z.strictObject({}),
  /** Only when the file itself is sound and what was lost is its write-ahead log: go on with it as it is. */
  'recovery:keep': () => z.strictObject({}),
});

export type { HandlerName } from './names.ts';
export { HANDLER_NAMES, isHandlerName } from './names.ts';
// Compile-time check that the schema table and the name list agree.
const _everyNameHasASchema: Record<HandlerName, unknown> = inputSchemas;
void _everyNameHasASchema;
const _everySchemaIsNamed: Record<keyof typeof inputSchemas, unknown> = {} as Record<HandlerName, unknown>;
void _everySchemaIsNamed;
export type HandlerInput<N extends HandlerName> = z.input<(typeof inputSchemas)[N]>;

/** What the campaign list shows of a ruleset (app:info); the rest is asked for by the screens that read it. */
export interface RulesetName {
  id: RulesetId;
  name: string;
  summary: string;
}

/** All a ruleset tells the screens (`rulesets:get`): its sheet, options and forms. */
export interface RulesetInfo extends RulesetName {
  sheet: SheetSchema;
  options: readonly RulingOption[];
  /** The runner's action forms for this ruleset's GM events. */
  actionForms: readonly ActionForm[];
  /** Harm and healing for one target, for the selection bar (several targets at once); null when it has none. */
  severalTargets: SeveralTargets | null;
  /** The ruleset's own condition names, suggested when the GM puts a condition on. */
  conditionNames: readonly string[];
  /** Whether its late arrival takes a typed initiative total (the late-arrival form offers one). */
  lateInitiative: boolean;
  /** The recovery screen's forms. */
  recoveryForms: readonly LedgerForm[];
  /** The kinds of lasting record its characters carry: their labels, and which are harm (the character's history). */
  records: readonly RecordCategory[];
  /** The other trackers' files its campaigns read (`imports:table`), for the campaign screen's import. */
  readers: readonly { key: string; label: string; extensions: readonly string[] }[];
}

/** What another tracker's file added to a campaign (`imports:table`). */
export interface TableImportResult {
  /** The tool the file came from, in words. */
  source: string;
  /** Names of the party members added, and of those already in the campaign (matched by name, kept as they were). */
  party: { added: string[]; kept: string[] };
  /** The same for NPC templates. */
  templates: { added: string[]; kept: string[] };
  /** The encounters created, each in setup with its combatants added. */
  encounters: EncounterSummary[];
  /** What was read but not kept as it was (a rolled count taken as 1, notes cut): one sentence each. */
  warnings: string[];
}

/**
 * The app's facts and its rulesets' names, which the first screen (the campaign list) waits for: a few hundred bytes
 * where every ruleset's sheet, options and forms were 129 KB (docs/decisions.md).
 */
export interface AppInfo {
  version: string;
  transport: 'ipc' | 'web' | 'cli';
  databasePath: string;
  rulesets: RulesetName[];
}

export interface CampaignSummary {
  id: string;
  name: string;
  rulesetId: RulesetId;
  archived: boolean;
  createdAt: string;
  updatedAt: string;
  characterCount: number;
  encounterCount: number;
}

export interface Character {
  id: string;
  campaignId: string;
  role: 'pc' | 'npc';
  name: string;
  sheet: SheetValues;
  /** Ruleset state carried between fights (current LP, diminished dice, restrictions, death). */
  condition: Record<string, unknown>;
  archived: boolean;
  updatedAt: string;
}

/** A lasting injury or wound on a character, linked to the encounter event that caused it. */
export interface InjuryRecord {
  id: string;
  characterId: string;
  name: string;
  category: string;
  data: Record<string, unknown>;
  sourceEncounterId: string | null;
  sourceSeq: number | null;
  createdAt: string;
  healedAt: string | null;
}

export interface EncounterSummary {
  id: string;
  campaignId: string;
  name: string;
  phase: EncounterView['phase'];
  round: number;
  eventCount: number;
  updatedAt: string;
  /** On the campaign home: the session it belongs to and the in-game day it was prepared on. */
  sessionId?: string | null;
  day?: number | null;
}

export interface CampaignDetail extends CampaignSummary {
  options: OptionValues;
  /** Party-level values kept between fights (Enigma: escalation; null after a reset). */
  party: Record<string, unknown>;
  /** The party-level figures the ruleset shows on the campaign home (Enigma: Escalation). */
  partyBadges: PartyBadge[];
  /** The condition names its fights suggest: the campaign's own list, or its ruleset's while it has none. */
  conditionNames: readonly string[];
  /** Whether `conditionNames` is the campaign's own list (false: its ruleset's). */
  conditionNamesOwn: boolean;
  characters: Character[];
  encounters: EncounterSummary[];
  /**
   * The characters' open injuries and wounds: each character's newest few (at most 8), oldest first. A long
   * campaign holds thousands of records; the healed ones and the rest are in each character's history.
   */
  injuries: InjuryRecord[];
  /** How many injuries and wounds each character has open (characters with none are absent). */
  openInjuries: Record<string, number>;
  /** The campaign clock: the in-game day and the session being played (null between sessions). */
  day: number;
  session: SessionSummary | null;
  sessions: SessionSummary[];
}

export interface SessionSummary {
  id: string;
  number: number;
  title: string;
  /** The real date it was played (YYYY-MM-DD). */
  date: string;
  notes: string;
  startDay: number;
  endDay: number | null;
  startedAt: string;
  endedAt: string | null;
}

/** One ledger entry as the recovery screen lists it. */
export interface LedgerEntryView {
  seq: number;
  type: string;
  day: number;
  sessionNumber: number | null;
  log: string[];
  state: 'done' | 'undone' | 'dropped';
  recordedAt: string;
  characterIds: string[];
}

export interface RecoveryDetail {
  campaignId: string;
  campaignName: string;
  rulesetId: RulesetId;
  day: number;
  session: SessionSummary | null;
  party: { label: string; value: string }[];
  characters: { id: string; name: string; card: RecoveryCard }[];
  /** Newest first. */
  entries: LedgerEntryView[];
  canUndo: boolean;
  canRedo: boolean;
  undoLabel: string | null;
  redoLabel: string | null;
  /**
   * Set when the write was asked with `since` and nothing else changed the encounter in between: `log` then holds
   * only the lines of the events after this seq, to be added to the lines the screen has (after dropping any it
   * has past `encounter.eventCount`, which an undo removed).
   */
  logAfter?: number;
  /**
   * Set only by encounters:append (or encounters:redo) with `ask` when the event would end the fight with something
   * to carry onto the characters: nothing was committed; send `event` again (a redo: redo with `confirm`), with any
   * adjustments, to end the fight. `adjusted`: on a redo, the adjustments the undone ending held.
   */
  /** Set only by encounters:addFromCampaign with `wholeParty`: the party members it left out, and why ("dead"). */
  skipped?: { name: string; reason: string }[];
  carryCheck?: { event: GmEvent; carry: CarryPreview; adjusted?: { adjust: { characterId: string; key: string; value: number }[]; reason: string } };
}

/** One thing that happened, for a character's history or the campaign timeline. */
export interface HistoryItem {
  kind: 'encounter' | 'gained' | 'treated' | 'healed' | 'recovery' | 'clock' | 'carried' | 'override';
  at: string;
  day: number | null;
  sessionNumber: number | null;
  text: string;
  characterId?: string | null;
  /** For a ledger entry: every character it concerned. */
  characterIds?: string[];
  recordId?: string;
  encounterId?: string;
  /** The encounter event or ledger entry behind it. */
  seq?: number;
}

export interface CharacterHistory {
  character: { id: string; name: string; campaignId: string; campaignName: string; rulesetId: RulesetId };
  /** How many injuries and wounds (harm) the character has open and healed in all. */
  recordCounts: { open: number; healed: number };
  /**
   * The records gained, oldest first, with where each came from and when it healed: every lasting mark that is not
   * harm, and of the injuries and wounds the newest OPEN_RECORDS_SENT open and HEALED_RECORDS_SENT healed ones,
   * unless asked for all (`allRecords`).
   */
  records: {
    id: string; name: string; category: string; permanent: boolean;
    source: { encounterId: string; encounterName: string; seq: number | null; text: string | null } | null;
    /** The ledger entry that created it (an injury between sessions), with its first line; null for a fight's record. */
    entry: { seq: number; text: string } | null;
    dayGained: number | null; sessionGained: number | null; dayHealed: number | null; sessionHealed: number | null;
    /** Whether it has healed (a record healed before the clock kept days has no day or session of healing). */
    healed: boolean;
    /** The ledger entries that treated or counted it down, by seq, oldest first (their text is in `entries`). */
    treatments: number[];
  }[];
  /** Every ledger entry the sent records' treatments name, once each, in order, its text cut to ENTRY_TEXT_SENT. */
  entries: { seq: number; day: number; text: string }[];
  /** Everything in time order, oldest first: the newest ITEMS_SENT (200) unless asked for all (`allItems`). */
  items: HistoryItem[];
  /** How many items there are in all. */
  itemCount: number;
}


export interface CampaignTimeline {
  campaignId: string;
  campaignName: string;
  /**
   * In order; the last group (session null) holds what happened outside any session. Each group's items are its
   * newest ITEMS_SENT unless asked for all (`allItems`); `itemCount` says how many it has in all.
   */
  groups: { session: SessionSummary | null; items: HistoryItem[]; itemCount: number }[];
  /** Open injuries and wounds at the end of each session (or now, for the one being played). */
  chart: { sessionNumber: number; label: string; open: number; gained: number; healed: number }[];
}

/** What ending an encounter will write onto each character, shown before it is committed. */
export interface CarryPreview {
  characters: {
    characterId: string;
    name: string;
    fields: { key: string; label: string; before: unknown; after: unknown; editable: boolean }[];
    newRecords: { name: string; category: string }[];
  }[];
  party: { key: string; label: string; before: unknown; after: unknown }[];
}

export interface LogEntry extends LogLine {
  seq: number;
}


/**
 * An encounter's log lines for the full log screen. `after` is the event the lines follow: 0 when this is the whole
 * log, or the `after.seq` the request gave when the lines up to it still stand, i.e. no event the screen has was
 * undone since it fetched them (`mark` changes with every undo, and with every start of the app). The next request
 * passes `{ seq: eventCount, mark }`.
 */
export interface EncounterLog {
  entries: LogEntry[];
  after: number;
  eventCount: number;
  mark: string;
}

/** One line of a log page: its number in the page's view, and whether a round's heading comes before it. */
export interface LogPageLine extends LogEntry {
  /** The line's number in the view the page was read from (0 is the view's first line). */
  index: number;
  /** The view's first line, or the first of another round than the line before it in the view: a heading goes above. */
  opensRound: boolean;
}

/**
 * A page of the log as the full log screen shows it (every line, or those its filter matches). `shown` is how many
 * lines the view has, `lineCount` how many the whole log has; `version` is the encounter's, so the screen knows
 * which pages it holds are still right.
 */
export interface LogPage {
  lines: LogPageLine[];
  shown: number;
  lineCount: number;
  eventCount: number;
  version: string;
}

export interface EncounterDetail {
  encounter: EncounterSummary & { rulesetId: RulesetId; campaignName: string };
  view: EncounterView;
  /** The condition names the runner suggests: the campaign's own list, or its ruleset's (CampaignDetail). */
  conditionNames: readonly string[];
  /** The log lines of the newest events (all of them when `logComplete`); encounters:log has the whole log. */
  log: LogEntry[];
  logComplete: boolean;
  canUndo: boolean;
  canRedo: boolean;
  /** What undo and redo would change, for their tooltips. */
  undoLabel: string | null;
  redoLabel: string | null;
  /**
   * Set when the write was asked with `since` and nothing else changed the encounter in between: `log` then holds
   * only the lines of the events after this seq, to be added to the lines the screen has (after dropping any it
   * has past `encounter.eventCount`, which an undo removed).
   */
  logAfter?: number;
  /**
   * Set with `logAfter` (the screen was up to date): `view.order` then holds only the combatants that changed, and
   * this the whole order by id; the screen keeps its own objects for the others.
   */
  orderIds?: string[];
  /**
   * Set only by encounters:append (or encounters:redo) with `ask` when the event would end the fight with something
   * to carry onto the characters: nothing was committed; send `event` again (a redo: redo with `confirm`), with any
   * adjustments, to end the fight. `adjusted`: on a redo, the adjustments the undone ending held.
   */
  /** Set only by encounters:addFromCampaign with `wholeParty`: the party members it left out, and why ("dead"). */
  skipped?: { name: string; reason: string }[];
  carryCheck?: { event: GmEvent; carry: CarryPreview; adjusted?: { adjust: { characterId: string; key: string; value: number }[]; reason: string } };
}

export interface HandlerResults {
  'app:info': AppInfo;
  'rulesets:get': RulesetInfo;
  'campaigns:list': CampaignSummary[];
  'campaigns:create': CampaignSummary;
  'campaigns:get': CampaignDetail;
  'campaigns:rename': CampaignSummary;
  'campaigns:archive': CampaignSummary;
  'campaigns:setOptions': CampaignDetail;
  'campaigns:setConditions': CampaignDetail;
  'characters:create': Character;
  'characters:update': Character;
  'characters:archive': Character;
  'encounters:create': EncounterSummary;
  'encounters:get': EncounterDetail;
  'encounters:log': EncounterLog;
  'encounters:logPage': LogPage;
  'encounters:addFromCampaign': EncounterDetail;
  'encounters:append': EncounterDetail;
  'encounters:preview': { rolls: RollRequest[] };
  'encounters:undo': EncounterDetail;
  'encounters:redo': EncounterDetail;
  'encounters:carryPreview': { event: GmEvent; carry: CarryPreview | null };
  'ledger:get': RecoveryDetail;
  'ledger:append': RecoveryDetail;
  'ledger:preview': { rolls: RollRequest[] };
  'ledger:undo': RecoveryDetail;
  'ledger:redo': RecoveryDetail;
  'sessions:update': SessionSummary;
  'campaigns:timeline': CampaignTimeline;
  'characters:history': CharacterHistory;
  'encounters:summary': RoundSummary[];
  'exports:encounter': ExportFile;
  'exports:session': ExportFile;
  'exports:campaign': ExportFile;
  'imports:campaign': CampaignSummary;
  'imports:encounter': EncounterSummary;
  'imports:table': TableImportResult;
  'campaigns:demo': CampaignSummary[];
  'backups:list': BackupSummary[];
  'backups:create': BackupSummary;
  'backups:restore': { restored: string; safetyBackup: string };
  'recovery:status': RecoveryStatus;
  'recovery:restore': RecoveryDone;
  'recovery:startEmpty': RecoveryDone;
  'recovery:keep': RecoveryDone;
}

/** Whether the app started in recovery mode, and if so what it found (db/health.ts, server/recovery-mode.ts). */
export type RecoveryStatus =
  | { damaged: false }
  | {
      damaged: true;
      kind: 'missing' | 'empty' | 'notADatabase' | 'corrupt' | 'walMissing' | 'foreignWal';
      /** One sentence for the GM. */
      sentence: string;
      /** SQLite's own words, for whoever looks further. */
      detail: string;
      databasePath: string;
      backupsFolder: string;
      /** The newest backup that passed quick_check; null when none did. */
      newestGoodBackup: BackupSummary | null;
      /** How many backups there are in all, good or not. */
      backupCount: number;
    };

/** After recovery: where the damaged file was moved (null when there was no file), and the backup put in place. */
export interface RecoveryDone {
  damagedKeptAs: string | null;
  restored: string | null;
}

export interface BackupSummary {
  name: string;
  createdAt: string;
  bytes: number;
  /** Why it was made: start, auto (after changes), manual, before-restore. */
  reason: string;
}

export type HandlerResult<N extends HandlerName> = HandlerResults[N];

/** What travels back over every transport. */
export type Envelope<T> = { result: T } | { error: { message: string; kind: ErrorKind } };


/** Writes that change the database; every other handler only reads. */
export const WRITE_HANDLERS: ReadonlySet<HandlerName> = new Set<HandlerName>([
  'campaigns:create', 'campaigns:rename', 'campaigns:archive', 'campaigns:setOptions', 'campaigns:setConditions',
  'characters:create', 'characters:update', 'characters:archive',
  'encounters:create', 'encounters:addFromCampaign', 'encounters:append', 'encounters:undo', 'encounters:redo',
  'ledger:append', 'ledger:undo', 'ledger:redo', 'sessions:update',
  'imports:campaign', 'imports:encounter', 'imports:table', 'campaigns:demo',
]);
