// The whole-campaign file (docs/export-schema.md, "Campaign file"): a campaign, its characters, sessions,
// encounters as events, lasting records and ledger, with every database id replaced by a reference local to the
// file (c1, e1, s1, r1). This module is pure: it turns stored rows into the file and a checked file back into rows
// with fresh ids. Reading the database and replaying the encounters live in server/import.ts.
import * as z from 'zod';
import { GmError } from '../api/contract.ts';
import { conditionListSchema } from '../encounter/condition-list.ts';
import { nameSchema } from '../encounter/schemas.ts';
import { RULESETS, findRuleset } from '../rulesets/registry.ts';
import { CAMPAIGN_FORMAT, ENCOUNTER_FORMAT, EXPORT_VERSION, IMPORT_MAX_MB } from './types.ts';
import { counted } from '../words.ts';
import { once } from '../lazy.ts';

// ---- limits ----

export { IMPORT_MAX_MB };
/** The largest file the importer reads (UTF-8 bytes): IMPORT_MAX_MB. */
export const IMPORT_MAX_BYTES = IMPORT_MAX_MB * 1024 * 1024;
/** No export nests deeper than about a dozen levels; a deeper file is refused before it is parsed. */
export const IMPORT_MAX_DEPTH = 64;
/** The most events one encounter in a file may hold (the app itself sets no limit; this bounds a hostile file). */
export const IMPORT_MAX_EVENTS = 1_000_000;
const tooManyEvents = { error: `An encounter in the file holds more than ${IMPORT_MAX_EVENTS.toLocaleString('en')} events, the most this app imports.` };
/**
 * A file travels as a JSON string inside a request (web mode), where escaping quotes and backslashes grows it:
 * the request may be twice the file's size.
 */
export const IMPORT_REQUEST_MAX_BYTES = 2 * IMPORT_MAX_BYTES + 64 * 1024;

/** Keys that could reach an object's prototype: never in an export, refused anywhere in a file. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const refuse = (message: string): never => {
  throw new GmError(message, 'invalid');
};

// ---- reading the text ----

/** The UTF-8 size of a string, without encoding it. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * How deep the JSON text nests arrays and objects, counted outside strings; stops counting past `limit`. Run
 * before JSON.parse so a pathological file never reaches a recursive parser or walker.
 */
export function nestingDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 0x7d || c === 0x5d) depth -= 1;
  }
  return deepest;
}

function forbiddenKey(value: unknown): string | null {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = forbiddenKey(item);
      if (found) return found;
    }
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.has(key)) return key;
    const found = forbiddenKey((value as Record<string, unknown>)[key]);
    if (found) return found;
  }
  return null;
}

/**
 * The file's text as a JSON value, or a refusal: too large, nested too deep, not JSON, or holding a key that
 * could reach a prototype. A UTF-8 byte-order mark is skipped.
 */
export function readImportText(content: string): unknown {
  if (content.length > IMPORT_MAX_BYTES || utf8Length(content) > IMPORT_MAX_BYTES) {
    refuse(`The file is larger than ${IMPORT_MAX_MB} MB, the most this app imports.`);
  }
  const text = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  if (text.trim() === '') refuse('The file is empty.');
  if (nestingDepth(text, IMPORT_MAX_DEPTH) > IMPORT_MAX_DEPTH) {
    refuse(`The file nests data more than ${IMPORT_MAX_DEPTH} levels deep, which no export of this app does.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    refuse('The file is not valid JSON: it is damaged, or it is not an export of this app.');
  }
  const bad = forbiddenKey(value);
  if (bad !== null) refuse(`The file contains a key named “${bad}”, which no export of this app has.`);
  return value;
}

/** Checks the format name and version before the shape, so an old or foreign file gets the right sentence. */
export function checkFormat(value: unknown, expected: typeof CAMPAIGN_FORMAT | typeof ENCOUNTER_FORMAT): void {
  const format = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as { format?: unknown }).format : undefined;
  if (format !== expected) {
    if (format === CAMPAIGN_FORMAT) refuse('This is a whole-campaign file: import it as a campaign, not as an encounter.');
    if (format === ENCOUNTER_FORMAT) refuse('This is an encounter file: import it into a campaign, not as a campaign.');
    refuse(`This is not a GM Workstation ${expected === CAMPAIGN_FORMAT ? 'campaign' : 'encounter'} file.`);
  }
  const version = (value as { version?: unknown }).version;
  if (typeof version === 'number' && Number.isInteger(version) && version > EXPORT_VERSION) {
    refuse(`This file was made by a newer GM Workstation (format version ${version}); update the app to import it.`);
  }
  if (version !== EXPORT_VERSION) refuse('The file has no valid format version.');
}

/** The first problem zod found, as one sentence that says where in the file it is. */
export function describeFileProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The file does not fit the format.';
  const where = issue.path.length ? issue.path.map(String).join('.') : 'its top level';
  if (issue.code === 'unrecognized_keys') {
    return `The file has fields this app does not know at ${where}: ${issue.keys.map((k) => k.slice(0, 40)).join(', ').slice(0, 200)}.`;
  }
  const message = issue.message.slice(0, 300);
  return `The file does not fit the format at ${where}: ${/[.!?]$/.test(message) ? message : `${message}.`}`;
}

export function parseWith<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) refuse(describeFileProblem(parsed.error));
  return (parsed as { data: T }).data;
}

// ---- the file's shape ----

const REF_PATTERN = /^[cers][1-9]\d{0,8}$/;
/** A text in the free-form parts (events, conditions, records) that looks like a reference is escaped with a `~`. */
const ESCAPED_PATTERN = /^~+[cers][1-9]\d{0,8}$/;

/**
 * The file's schemas, built the first time a file is read, not as the module loads: a start reads no file
 * (docs/performance.md "Start"; server/start-schemas.test.ts).
 */
const fileSchemas = once(() => {
  const refSchema = (prefix: 'c' | 'e' | 's' | 'r', what: string) =>
    z.string({ error: `${article(what)} reference must be text.` }).regex(new RegExp(`^${prefix}[1-9]\\d{0,8}$`), { error: `${article(what)} reference looks like ${prefix}1.` });
  const article = (what: string) => `${/^[aeiou]/.test(what) ? 'An' : 'A'} ${what}`;
  const characterRef = refSchema('c', 'character');
  const encounterRef = refSchema('e', 'encounter');
  const sessionRef = refSchema('s', 'session');
  const recordRef = refSchema('r', 'record');

  const timestamp = z.string({ error: 'A time must be text.' }).min(1, { error: 'A time cannot be empty.' }).max(40, { error: 'A time is at most 40 characters.' });
  const whole = (min: number, max: number, what: string) =>
    z.number({ error: `${what} must be a number.` }).int({ error: `${what} must be a whole number.` }).min(min, { error: `${what} is at least ${min}.` }).max(max, { error: `${what} is at most ${max}.` });
  const dayNumber = whole(1, 1_000_000, 'A day');
  const seqNumber = whole(1, 1_000_000, 'A sequence number');
  /** Free-form ruleset data (conditions, party values, records, event payloads): checked by the rulesets. */
  const jsonObject = z.record(z.string().max(200, { error: 'A key is at most 200 characters.' }), z.unknown(), { error: 'This must be an object.' });
  const optionValues = z.record(z.string().max(64), z.union([z.string().max(64), z.number(), z.boolean()]), { error: 'Options must be an object.' });
  const sheetValues = z.record(z.string().max(64), z.union([z.string().max(4000), z.number(), z.boolean()]), { error: 'A sheet must be an object.' });

  const sessionFields = {
    number: whole(1, 100_000, 'A session number'),
    title: z.string({ error: 'A session title must be text.' }).min(1, { error: 'A session title cannot be empty.' }).max(120, { error: 'A session title has at most 120 characters.' }),
    date: z.iso.date({ error: 'A session date must be a date like 2026-11-22.' }),
    notes: z.string({ error: 'Session notes must be text.' }).max(10_000, { error: 'Session notes have at most 10,000 characters.' }),
    startDay: dayNumber,
    endDay: dayNumber.nullable(),
    startedAt: timestamp,
    endedAt: timestamp.nullable(),
  };
  const recordName = z.string({ error: 'A record name must be text.' }).min(1, { error: 'A record name cannot be empty.' }).max(200, { error: 'A record name is at most 200 characters.' });

  /** Each image kind's value as the file holds it (see the ledger's image keys in db/ledger.ts). */
  const imageValueSchemas = {
    character: jsonObject.nullable(),
    record: z.strictObject({
      name: recordName, data: jsonObject, healedAt: timestamp.nullable(), dayHealed: dayNumber.nullable(),
      sessionHealed: sessionRef.nullable(), ledgerSeq: seqNumber.nullable(),
    }).nullable(),
    /** A record the entry created, whole (db/ledger.ts NEW_RECORD_COLUMNS), or null when it does not exist. */
    newRecord: z.strictObject({
      character: characterRef, name: recordName, category: z.string({ error: 'A record category must be text.' }).min(1).max(64, { error: 'A record category is at most 64 characters.' }),
      data: jsonObject, entry: seqNumber.nullable(), dayGained: dayNumber.nullable(), sessionGained: sessionRef.nullable(), createdAt: timestamp,
      healedAt: timestamp.nullable(), dayHealed: dayNumber.nullable(), sessionHealed: sessionRef.nullable(), ledgerSeq: seqNumber.nullable(),
    }).nullable(),
    party: jsonObject,
    clock: z.strictObject({ day: dayNumber, session: sessionRef.nullable() }),
    session: z.strictObject(sessionFields).nullable(),
  } as const;

  /** The values a ledger entry replaced or wrote, keyed `character:c1`, `record:r1`, `session:s1`, `party`, `clock`. */
  const imagesSchema = z.record(z.string().max(40), z.unknown(), { error: 'Images must be an object.' }).superRefine((images, ctx) => {
    for (const [key, value] of Object.entries(images)) {
      const kind = imageKind(key);
      if (!kind) {
        ctx.addIssue({ code: 'custom', path: [key], message: `“${key.slice(0, 40)}” is not a ledger image key.` });
        continue;
      }
      const parsed = imageValueSchemas[kind.kind].safeParse(value);
      for (const issue of parsed.success ? [] : parsed.error.issues) ctx.addIssue({ ...issue, path: [key, ...issue.path] } as never);
    }
  });

  const characterSchema = z.strictObject({
    ref: characterRef,
    role: z.enum(['pc', 'npc'], { error: 'A character is a party member (pc) or an NPC template (npc).' }),
    name: nameSchema,
    sheet: sheetValues,
    condition: jsonObject,
    archivedAt: timestamp.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  });

  const sessionSchema = z.strictObject({ ref: sessionRef, ...sessionFields });

  const encounterInputSchema = z.strictObject({
    options: optionValues,
    carried: z.record(z.string().max(64), z.number().nullable(), { error: 'Carried values must be an object.' }),
  });

  const encounterSchema = z.strictObject({
    ref: encounterRef,
    name: nameSchema,
    session: sessionRef.nullable(),
    day: dayNumber.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    input: encounterInputSchema,
    events: z.array(z.strictObject({ recordedAt: timestamp, event: jsonObject }), { error: 'Events must be a list.' }).max(IMPORT_MAX_EVENTS, tooManyEvents),
    /** What the encounter's end replaced on the campaign, so undoing the end puts it back. */
    carried: z.array(z.strictObject({ subject: z.union([z.literal('campaign'), characterRef], { error: 'A carry subject is “campaign” or a character reference.' }), previous: jsonObject })).max(10_000),
  });

  const recordSchema = z.strictObject({
    ref: recordRef,
    character: characterRef,
    name: recordName,
    category: z.string({ error: 'A record category must be text.' }).min(1).max(64, { error: 'A record category is at most 64 characters.' }),
    data: jsonObject,
    /** The ledger entry that created it (an injury between sessions), when no encounter did. */
    entry: seqNumber.optional(),
    /** The encounter event that caused it, and the key that names it within that encounter. */
    source: z.strictObject({
      encounter: encounterRef,
      seq: seqNumber.nullable(),
      key: z.string({ error: 'A record key must be text.' }).min(1).max(200, { error: 'A record key is at most 200 characters.' }).nullable(),
    }).nullable(),
    dayGained: dayNumber.nullable(),
    sessionGained: sessionRef.nullable(),
    dayHealed: dayNumber.nullable(),
    sessionHealed: sessionRef.nullable(),
    ledgerSeq: seqNumber.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    healedAt: timestamp.nullable(),
  });

  const entrySchema = z.strictObject({
    seq: seqNumber,
    type: z.string({ error: 'An entry type must be text.' }).min(1).max(64),
    payload: jsonObject,
    log: z.array(z.string().max(4000, { error: 'A log line is at most 4000 characters.' })).max(2000),
    day: dayNumber,
    session: sessionRef.nullable(),
    subjects: z.array(characterRef).max(10_000),
    before: imagesSchema,
    after: imagesSchema,
    state: z.enum(['done', 'undone', 'dropped'], { error: 'An entry is done, undone or dropped.' }),
    recordedAt: timestamp,
  });

  /** A registered ruleset's id (core/rulesets/registry.ts), or a sentence naming them. */
  const unknownRuleset = () => `The ruleset must be one of: ${RULESETS.map((r) => r.id).join(', ')}.`;
  const rulesetIdSchema = z.string({ error: unknownRuleset }).refine((id) => findRuleset(id) !== undefined, { error: unknownRuleset });

  const campaignFileSchema = z.strictObject({
    format: z.literal(CAMPAIGN_FORMAT),
    version: z.literal(EXPORT_VERSION),
    exportedAt: timestamp,
    campaign: z.strictObject({
      name: nameSchema,
      rulesetId: rulesetIdSchema,
      options: optionValues,
      party: jsonObject,
      /** The campaign's own condition list; absent while it uses its ruleset's (and in files made before the list). */
      conditions: conditionListSchema.optional(),
      day: dayNumber,
      /** The session being played, or null between sessions. */
      session: sessionRef.nullable(),
      archivedAt: timestamp.nullable(),
    }),
    characters: z.array(characterSchema).max(10_000),
    sessions: z.array(sessionSchema).max(10_000),
    encounters: z.array(encounterSchema).max(10_000),
    records: z.array(recordSchema).max(100_000),
    ledger: z.array(entrySchema).max(100_000),
  });

  const LOG_KINDS = ['setup', 'turn', 'round', 'order', 'removal', 'escalation', 'decision', 'attack', 'damage', 'end', 'condition'] as const;
  const figure = whole(-1_000_000, 1_000_000, 'A figure');

  /** The encounter file as core/export/types.ts EncounterExport describes it; its log and summary are read, never trusted. */
  const encounterFileSchema = z.strictObject({
    format: z.literal(ENCOUNTER_FORMAT),
    version: z.literal(EXPORT_VERSION),
    exportedAt: timestamp,
    rulesetId: rulesetIdSchema,
    encounter: z.strictObject({
      id: z.string().max(200),
      name: nameSchema,
      campaignName: z.string().max(200),
      createdAt: timestamp,
      phase: z.enum(['setup', 'running', 'ended'], { error: 'An encounter is in setup, running or ended.' }),
      round: whole(0, 1_000_000, 'A round'),
      input: encounterInputSchema,
    }),
    events: z.array(jsonObject, { error: 'Events must be a list.' }).max(IMPORT_MAX_EVENTS, tooManyEvents),
    log: z.array(z.strictObject({
      seq: seqNumber,
      round: whole(0, 1_000_000, 'A round'),
      kind: z.enum(LOG_KINDS),
      text: z.string().max(4000),
      actorId: z.string().max(200).nullable().optional(),
      rulings: z.array(z.string().max(40)).max(100).optional(),
    })).max(10 * IMPORT_MAX_EVENTS),
    summary: z.array(z.strictObject({
      round: whole(0, 1_000_000, 'A round'),
      measure: z.enum(['damage', 'loads']),
      combatants: z.array(z.strictObject({
        id: z.string().max(200), name: z.string().max(200), side: z.string().max(64),
        dealt: figure, taken: figure, healed: figure, statuses: z.array(z.string().max(200)).max(200), down: z.boolean(),
      })).max(10_000),
    })).max(IMPORT_MAX_EVENTS),
  });
  return { campaignFileSchema, encounterFileSchema, encounterInputSchema, imageValueSchemas };
});

type ImageValueSchemas = ReturnType<typeof fileSchemas>['imageValueSchemas'];
export const encounterInputSchema = z.lazy(() => fileSchemas().encounterInputSchema);
export const campaignFileSchema = z.lazy(() => fileSchemas().campaignFileSchema);

type ImageKind = 'character' | 'record' | 'newRecord' | 'party' | 'clock' | 'session';
const IMAGE_KEY = /^(?:(character):(c[1-9]\d{0,8})|(record):(r[1-9]\d{0,8})|(newRecord):(r[1-9]\d{0,8})|(session):(s[1-9]\d{0,8})|(party)|(clock))$/;

function imageKind(key: string): { kind: ImageKind; ref: string | null } | null {
  const m = IMAGE_KEY.exec(key);
  if (!m) return null;
  if (m[1]) return { kind: 'character', ref: m[2]! };
  if (m[3]) return { kind: 'record', ref: m[4]! };
  if (m[5]) return { kind: 'newRecord', ref: m[6]! };
  if (m[7]) return { kind: 'session', ref: m[8]! };
  return { kind: (m[9] ?? m[10]) as ImageKind, ref: null };
}

export type CampaignFile = z.infer<typeof campaignFileSchema>;
type FileEncounter = CampaignFile['encounters'][number];
type FileRecord = CampaignFile['records'][number];
type FileEntry = CampaignFile['ledger'][number];
type FileSession = CampaignFile['sessions'][number];

// ---- stored rows ----

/** A campaign as the database holds it (JSON columns as text); what the file is made from and turns back into. */
export interface StoredCampaign {
  campaign: { name: string; ruleset_id: string; options_json: string; party_json: string; conditions_json: string | null; day: number; session_id: string | null; archived_at: string | null };
  characters: { id: string; role: 'pc' | 'npc'; name: string; sheet_json: string; state_json: string; archived_at: string | null; created_at: string; updated_at: string }[];
  sessions: StoredSession[];
  encounters: {
    id: string; name: string; input_json: string; session_id: string | null; day: number | null; created_at: string; updated_at: string;
    /** In order: event `seq` is the position + 1. */
    events: { payload_json: string; recorded_at: string }[];
    /** Subject 'campaign' or 'character:<id>'. */
    carry: { subject: string; previous_json: string }[];
  }[];
  injuries: {
    id: string; character_id: string; name: string; category: string; data_json: string; source_encounter_id: string | null; source_seq: number | null;
    day_gained: number | null; session_gained: string | null; day_healed: number | null; session_healed: string | null; ledger_seq: number | null;
    created_at: string; updated_at: string; healed_at: string | null;
  }[];
  ledger: {
    seq: number; type: string; payload_json: string; log_json: string; day: number; session_id: string | null; subjects_json: string;
    before_json: string; after_json: string; state: 'done' | 'undone' | 'dropped'; recorded_at: string;
  }[];
}

export interface StoredSession {
  id: string; number: number; title: string; real_date: string; notes: string; start_day: number; end_day: number | null; started_at: string; ended_at: string | null;
}

type Kind = 'c' | 'e' | 's' | 'r';

// ---- rows → file ----

/**
 * Database ids → references. Things in the campaign's tables are numbered in their stored order; ids the ledger's
 * history still names after the thing is gone (an undone session start, a record whose fight was undone) are
 * numbered after them, in the order the file meets them, so the same campaign always gives the same file.
 */
class ExportRefs {
  private readonly refs = new Map<string, string>();
  private readonly counts: Record<Kind, number> = { c: 0, e: 0, s: 0, r: 0 };

  add(kind: Kind, id: string | null | undefined): void {
    if (id === null || id === undefined || this.refs.has(id)) return;
    this.counts[kind] += 1;
    this.refs.set(id, `${kind}${this.counts[kind]}`);
  }

  ref(kind: Kind, id: string): string;
  ref(kind: Kind, id: string | null): string | null;
  ref(kind: Kind, id: string | null): string | null {
    if (id === null) return null;
    this.add(kind, id);
    return this.refs.get(id)!;
  }

  /** A free-form value with every known id replaced by its reference, and reference-like texts escaped. */
  walk(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((item) => this.walk(item));
    if (value === null || typeof value !== 'object') return value;
    // fromEntries defines own properties, so no key can ever reach a prototype.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [this.text(key), this.walk(item)]));
  }

  private text(value: string): string {
    const ref = this.refs.get(value);
    if (ref !== undefined) return ref;
    return REF_PATTERN.test(value) || ESCAPED_PATTERN.test(value) ? `~${value}` : value;
  }
}

const parseJson = (text: string): unknown => JSON.parse(text);
const splitImageKey = (key: string): [string, string] => {
  const at = key.indexOf(':');
  return at < 0 ? [key, ''] : [key.slice(0, at), key.slice(at + 1)];
};

/** A `newRecord:` image as db/ledger.ts stores it (NEW_RECORD_COLUMNS): the record an entry created. */
interface StoredNewRecord {
  character_id: string; name: string; category: string; data_json: string; source_seq: number | null; day_gained: number | null; session_gained: string | null;
  created_at: string; healed_at: string | null; day_healed: number | null; session_healed: string | null; ledger_seq: number | null;
}

/** Every stored image's ids, numbered in the order the ledger names them (see ExportRefs). */
function collectImageIds(refs: ExportRefs, images: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(images)) {
    const [kind, id] = splitImageKey(key);
    if (kind === 'character') refs.add('c', id);
    else if (kind === 'record') {
      refs.add('r', id);
      refs.add('s', (value as { session_healed?: string | null } | null)?.session_healed);
    } else if (kind === 'newRecord') {
      refs.add('r', id);
      const row = value as StoredNewRecord | null;
      refs.add('c', row?.character_id);
      refs.add('s', row?.session_gained);
      refs.add('s', row?.session_healed);
    } else if (kind === 'session') refs.add('s', id);
    else if (kind === 'clock') refs.add('s', (value as { sessionId: string | null }).sessionId);
  }
}

const sessionOut = (row: Omit<StoredSession, 'id'>) => ({
  number: row.number, title: row.title, date: row.real_date, notes: row.notes, startDay: row.start_day, endDay: row.end_day, startedAt: row.started_at, endedAt: row.ended_at,
});

function imagesOut(refs: ExportRefs, images: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(images)) {
    const [kind, id] = splitImageKey(key);
    switch (kind) {
      case 'character':
        out[`character:${refs.ref('c', id)}`] = value === null ? null : refs.walk(parseJson(value as string));
        break;
      case 'record': {
        const row = value as { name: string; data_json: string; healed_at: string | null; day_healed: number | null; session_healed: string | null; ledger_seq: number | null } | null;
        out[`record:${refs.ref('r', id)}`] = row === null ? null : {
          name: row.name, data: refs.walk(parseJson(row.data_json)), healedAt: row.healed_at, dayHealed: row.day_healed,
          sessionHealed: refs.ref('s', row.session_healed), ledgerSeq: row.ledger_seq,
        };
        break;
      }
      case 'newRecord': {
        const row = value as StoredNewRecord | null;
        out[`newRecord:${refs.ref('r', id)}`] = row === null ? null : {
          character: refs.ref('c', row.character_id), name: row.name, category: row.category, data: refs.walk(parseJson(row.data_json)), entry: row.source_seq,
          dayGained: row.day_gained, sessionGained: refs.ref('s', row.session_gained), createdAt: row.created_at,
          healedAt: row.healed_at, dayHealed: row.day_healed, sessionHealed: refs.ref('s', row.session_healed), ledgerSeq: row.ledger_seq,
        };
        break;
      }
      case 'session':
        out[`session:${refs.ref('s', id)}`] = value === null ? null : sessionOut(value as StoredSession);
        break;
      case 'party':
        out['party'] = refs.walk(parseJson(value as string));
        break;
      case 'clock': {
        const clock = value as { day: number; sessionId: string | null };
        out['clock'] = { day: clock.day, session: refs.ref('s', clock.sessionId) };
        break;
      }
      default:
        throw new Error(`Unknown ledger image key ${key}.`);
    }
  }
  return out;
}

/** The campaign file for stored rows. */
export function campaignFile(stored: StoredCampaign, exportedAt: string): CampaignFile {
  const refs = new ExportRefs();
  // Numbering: the tables first, in stored order, then whatever the history still names.
  for (const c of stored.characters) refs.add('c', c.id);
  for (const e of stored.encounters) refs.add('e', e.id);
  for (const s of stored.sessions) refs.add('s', s.id);
  for (const r of stored.injuries) refs.add('r', r.id);
  refs.add('s', stored.campaign.session_id);
  for (const e of stored.encounters) refs.add('s', e.session_id);
  for (const r of stored.injuries) {
    refs.add('s', r.session_gained);
    refs.add('s', r.session_healed);
  }
  const entries = stored.ledger.map((entry) => ({ entry, before: parseJson(entry.before_json) as Record<string, unknown>, after: parseJson(entry.after_json) as Record<string, unknown> }));
  for (const { entry, before, after } of entries) {
    refs.add('s', entry.session_id);
    for (const id of parseJson(entry.subjects_json) as string[]) refs.add('c', id);
    collectImageIds(refs, before);
    collectImageIds(refs, after);
  }

  const encounterIds = new Set(stored.encounters.map((e) => e.id));
  return {
    format: CAMPAIGN_FORMAT,
    version: EXPORT_VERSION,
    exportedAt,
    campaign: {
      name: stored.campaign.name,
      rulesetId: stored.campaign.ruleset_id as CampaignFile['campaign']['rulesetId'],
      options: parseJson(stored.campaign.options_json) as CampaignFile['campaign']['options'],
      party: refs.walk(parseJson(stored.campaign.party_json)) as Record<string, unknown>,
      ...(stored.campaign.conditions_json === null ? {} : { conditions: parseJson(stored.campaign.conditions_json) as string[] }),
      day: stored.campaign.day,
      session: refs.ref('s', stored.campaign.session_id),
      archivedAt: stored.campaign.archived_at,
    },
    characters: stored.characters.map((c) => ({
      ref: refs.ref('c', c.id), role: c.role, name: c.name, sheet: parseJson(c.sheet_json) as CampaignFile['characters'][number]['sheet'],
      condition: refs.walk(parseJson(c.state_json)) as Record<string, unknown>, archivedAt: c.archived_at, createdAt: c.created_at, updatedAt: c.updated_at,
    })),
    sessions: stored.sessions.map((s) => ({ ref: refs.ref('s', s.id), ...sessionOut(s) })),
    encounters: stored.encounters.map((e) => ({
      ref: refs.ref('e', e.id), name: e.name, session: refs.ref('s', e.session_id), day: e.day, createdAt: e.created_at, updatedAt: e.updated_at,
      input: parseJson(e.input_json) as FileEncounter['input'],
      events: e.events.map((event) => ({ recordedAt: event.recorded_at, event: refs.walk(parseJson(event.payload_json)) as Record<string, unknown> })),
      carried: e.carry
        .map((c) => ({ subject: c.subject === 'campaign' ? 'campaign' : refs.ref('c', c.subject.slice('character:'.length)), previous: refs.walk(parseJson(c.previous_json)) as Record<string, unknown> }))
        .sort((a, b) => subjectOrder(a.subject) - subjectOrder(b.subject)),
    })),
    records: stored.injuries.map((r) => {
      const fromEncounter = r.source_encounter_id !== null && encounterIds.has(r.source_encounter_id);
      const prefix = `${r.source_encounter_id}:`;
      return {
        ref: refs.ref('r', r.id), character: refs.ref('c', r.character_id), name: r.name, category: r.category, data: refs.walk(parseJson(r.data_json)) as Record<string, unknown>,
        // A record a ledger entry created has no encounter and that entry's seq (server/ledger-store.ts).
        ...(r.source_encounter_id === null && r.source_seq !== null ? { entry: r.source_seq } : {}),
        source: fromEncounter ? { encounter: refs.ref('e', r.source_encounter_id!), seq: r.source_seq, key: r.id.startsWith(prefix) && r.id.length > prefix.length ? r.id.slice(prefix.length) : null } : null,
        dayGained: r.day_gained, sessionGained: refs.ref('s', r.session_gained), dayHealed: r.day_healed, sessionHealed: refs.ref('s', r.session_healed),
        ledgerSeq: r.ledger_seq, createdAt: r.created_at, updatedAt: r.updated_at, healedAt: r.healed_at,
      };
    }),
    ledger: entries.map(({ entry, before, after }) => ({
      seq: entry.seq, type: entry.type, payload: refs.walk(parseJson(entry.payload_json)) as Record<string, unknown>, log: parseJson(entry.log_json) as string[],
      day: entry.day, session: refs.ref('s', entry.session_id), subjects: (parseJson(entry.subjects_json) as string[]).map((id) => refs.ref('c', id)),
      before: imagesOut(refs, before), after: imagesOut(refs, after), state: entry.state, recordedAt: entry.recorded_at,
    })),
  };
}

/** 'campaign' first, then characters by their number, so the order never depends on database ids. */
const subjectOrder = (subject: string) => (subject === 'campaign' ? 0 : Number(subject.slice(1)));

// ---- file → rows ----

/**
 * The checked file's references → fresh ids. A reference is declared by the lists (characters, sessions,
 * encounters, records) or, for a session or record the history still names after it was gone, by the ledger.
 */
class ImportRefs {
  readonly ids = new Map<string, string>();

  constructor(private readonly newId: () => string) {}

  declare(ref: string, id?: string): void {
    if (!this.ids.has(ref)) this.ids.set(ref, id ?? this.newId());
  }

  id(ref: string): string;
  id(ref: string | null): string | null;
  id(ref: string | null): string | null {
    return ref === null ? null : this.ids.get(ref)!;
  }

  /** A free-form value with references replaced by fresh ids and escaped texts unescaped; `where` names it in a refusal. */
  walk(value: unknown, where: string): unknown {
    if (typeof value === 'string') return this.text(value, where);
    if (Array.isArray(value)) return value.map((item) => this.walk(item, where));
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [this.text(key, where), this.walk(item, where)]));
  }

  private text(value: string, where: string): string {
    if (REF_PATTERN.test(value)) {
      const id = this.ids.get(value);
      if (id === undefined) refuse(`${where} refers to ${value}, which is not in the file.`);
      return id!;
    }
    return ESCAPED_PATTERN.test(value) ? value.slice(1) : value;
  }
}

/** What a checked file needs beyond its shape: unique references, and every reference to something in the file. */
function checkReferences(file: CampaignFile): void {
  const unique = <T>(items: T[], key: (item: T) => string | number, sentence: (dup: string | number) => string) => {
    const seen = new Set<string | number>();
    for (const item of items) {
      const k = key(item);
      if (seen.has(k)) refuse(sentence(k));
      seen.add(k);
    }
    return seen;
  };
  const twice = (ref: string | number) => `The file names ${ref} twice.`;
  const characters = new Map(file.characters.map((c) => [c.ref, c]));
  unique(file.characters, (c) => c.ref, twice);
  const sessions = unique(file.sessions, (s) => s.ref, twice);
  unique(file.sessions, (s) => s.number, (n) => `The file has two sessions numbered ${n}.`);
  const encounters = new Map(file.encounters.map((e) => [e.ref, e]));
  unique(file.encounters, (e) => e.ref, twice);
  unique(file.records, (r) => r.ref, twice);
  const seqs = unique(file.ledger, (e) => e.seq, (n) => `The file has two ledger entries numbered ${n}.`);

  const missing = (where: string, ref: string): never => refuse(`${where} refers to ${ref}, which is not in the file.`);
  if (file.campaign.session !== null && !sessions.has(file.campaign.session)) missing('The campaign clock', file.campaign.session);
  for (const e of file.encounters) {
    if (e.session !== null && !sessions.has(e.session)) missing(`Encounter “${e.name}”`, e.session);
    unique(e.carried, (c) => c.subject, (s) => `Encounter “${e.name}” carries ${s} twice.`);
    for (const c of e.carried) if (c.subject !== 'campaign' && !characters.has(c.subject)) missing(`Encounter “${e.name}”`, c.subject);
  }
  unique(file.records.filter((r) => r.source?.key != null), (r) => `${r.source!.encounter}:${r.source!.key}`, (k) => `The file has two records with the key ${String(k).slice(0, 80)}.`);
  for (const r of file.records) {
    const where = `Record ${r.ref} (${r.name.slice(0, 80)})`;
    if (!characters.has(r.character)) missing(where, r.character);
    if (r.source) {
      const source = encounters.get(r.source.encounter) ?? missing(where, r.source.encounter);
      if (r.source.seq !== null && r.source.seq > source.events.length) refuse(`${where} comes from event ${r.source.seq} of “${source.name}”, which has ${counted(source.events.length, 'event')}.`);
    }
    if (r.ledgerSeq !== null && !seqs.has(r.ledgerSeq)) refuse(`${where} was last changed by ledger entry ${r.ledgerSeq}, which is not in the file.`);
    if (r.entry !== undefined && r.source) refuse(`${where} comes from a fight and from ledger entry ${r.entry}: only one can have made it.`);
    if (r.entry !== undefined && !seqs.has(r.entry)) refuse(`${where} comes from ledger entry ${r.entry}, which is not in the file.`);
  }
  let undone = false;
  for (const entry of file.ledger) {
    if (entry.payload['type'] !== entry.type) refuse(`Ledger entry ${entry.seq} is marked ${entry.type.slice(0, 40)} but holds a different action.`);
    if (entry.state === 'undone') undone = true;
    else if (entry.state === 'done' && undone) refuse(`Ledger entry ${entry.seq} is done after an undone entry, which cannot happen.`);
    for (const images of [entry.before, entry.after]) {
      for (const [key, value] of Object.entries(images)) {
        if (key.startsWith('record:') && value !== null) {
          const seq = (value as { ledgerSeq: number | null }).ledgerSeq;
          if (seq !== null && !seqs.has(seq)) refuse(`Ledger entry ${entry.seq} names ledger entry ${seq}, which is not in the file.`);
        }
      }
    }
  }
}

/** Every reference the file declares, mapped to a fresh id (records from an encounter keep `<encounter>:<key>`). */
function declareAll(file: CampaignFile, newId: () => string): ImportRefs {
  const refs = new ImportRefs(newId);
  for (const c of file.characters) refs.declare(c.ref);
  for (const e of file.encounters) refs.declare(e.ref);
  for (const s of file.sessions) refs.declare(s.ref);
  for (const r of file.records) refs.declare(r.ref, r.source?.key != null ? `${refs.id(r.source.encounter)}:${r.source.key}` : undefined);
  // The history may name sessions and records that are gone: they get ids of their own and no rows.
  const ghostSession = (ref: string | null) => {
    if (ref !== null) refs.declare(ref);
  };
  for (const r of file.records) {
    ghostSession(r.sessionGained);
    ghostSession(r.sessionHealed);
  }
  for (const entry of file.ledger) {
    ghostSession(entry.session);
    for (const images of [entry.before, entry.after]) {
      for (const [key, value] of Object.entries(images)) {
        const kind = imageKind(key)!;
        if (kind.ref !== null) refs.declare(kind.ref);
        if (kind.kind === 'clock') ghostSession((value as { session: string | null }).session);
        if (kind.kind === 'record' && value !== null) ghostSession((value as { sessionHealed: string | null }).sessionHealed);
        if (kind.kind === 'newRecord' && value !== null) {
          const created = value as { character: string; sessionGained: string | null; sessionHealed: string | null };
          // Its character may be gone since (deleted with its records): it gets an id of its own, like a session.
          refs.declare(created.character);
          ghostSession(created.sessionGained);
          ghostSession(created.sessionHealed);
        }
      }
    }
  }
  for (const entry of file.ledger) for (const subject of entry.subjects) if (!refs.ids.has(subject)) missingRef(`Ledger entry ${entry.seq}`, subject);
  return refs;
}

const missingRef = (where: string, ref: string): never => refuse(`${where} refers to ${ref}, which is not in the file.`);

/** The file checked in full (format, version, shape, references), or a refusal naming the first problem. */
export function parseCampaignFile(value: unknown): CampaignFile {
  checkFormat(value, CAMPAIGN_FORMAT);
  const file = parseWith(campaignFileSchema, value);
  checkReferences(file);
  return file;
}

const sessionIn = (id: string, campaignId: string, s: Omit<FileSession, 'ref'>) => ({
  id, campaign_id: campaignId, number: s.number, title: s.title, real_date: s.date, notes: s.notes,
  start_day: s.startDay, end_day: s.endDay, started_at: s.startedAt, ended_at: s.endedAt,
});

/** Images back to stored values, in the file's key order, shaped exactly as db/ledger.ts readImage gives them. */
function imagesIn(refs: ImportRefs, images: FileEntry['before'], campaignId: string, where: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(images)) {
    const { kind, ref } = imageKind(key)!;
    switch (kind) {
      case 'character':
        out[`character:${refs.id(ref!)}`] = value === null ? null : JSON.stringify(refs.walk(value, where));
        break;
      case 'record': {
        const r = value as z.infer<ImageValueSchemas['record']>;
        out[`record:${refs.id(ref!)}`] = r === null ? null : {
          name: r.name, data_json: JSON.stringify(refs.walk(r.data, where)), healed_at: r.healedAt, day_healed: r.dayHealed,
          session_healed: refs.id(r.sessionHealed), ledger_seq: r.ledgerSeq,
        };
        break;
      }
      case 'newRecord': {
        const r = value as z.infer<ImageValueSchemas['newRecord']>;
        const row: StoredNewRecord | null = r === null ? null : {
          character_id: refs.id(r.character), name: r.name, category: r.category, data_json: JSON.stringify(refs.walk(r.data, where)), source_seq: r.entry,
          day_gained: r.dayGained, session_gained: refs.id(r.sessionGained), created_at: r.createdAt,
          healed_at: r.healedAt, day_healed: r.dayHealed, session_healed: refs.id(r.sessionHealed), ledger_seq: r.ledgerSeq,
        };
        out[`newRecord:${refs.id(ref!)}`] = row;
        break;
      }
      case 'session':
        out[`session:${refs.id(ref!)}`] = value === null ? null : sessionIn(refs.id(ref!), campaignId, value as FileSession);
        break;
      case 'party':
        out['party'] = JSON.stringify(refs.walk(value, where));
        break;
      case 'clock': {
        const clock = value as { day: number; session: string | null };
        out['clock'] = { day: clock.day, sessionId: refs.id(clock.session) };
        break;
      }
    }
  }
  return out;
}

/** A checked file as rows of a new campaign `campaignId`, every reference replaced by a fresh id. */
export function campaignRows(file: CampaignFile, campaignId: string, newId: () => string): StoredCampaign & { sessions: (StoredSession & { campaign_id: string })[] } {
  const refs = declareAll(file, newId);
  const characterName = new Map(file.characters.map((c) => [c.ref, c.name]));
  return {
    campaign: {
      name: file.campaign.name, ruleset_id: file.campaign.rulesetId, options_json: JSON.stringify(file.campaign.options),
      party_json: JSON.stringify(refs.walk(file.campaign.party, 'The party')),
      conditions_json: file.campaign.conditions === undefined ? null : JSON.stringify(file.campaign.conditions),
      day: file.campaign.day, session_id: refs.id(file.campaign.session),
      archived_at: file.campaign.archivedAt,
    },
    characters: file.characters.map((c) => ({
      id: refs.id(c.ref), role: c.role, name: c.name, sheet_json: JSON.stringify(c.sheet),
      state_json: JSON.stringify(refs.walk(c.condition, `The condition of ${c.name}`)), archived_at: c.archivedAt, created_at: c.createdAt, updated_at: c.updatedAt,
    })),
    sessions: file.sessions.map((s) => sessionIn(refs.id(s.ref), campaignId, s)),
    encounters: file.encounters.map((e) => ({
      id: refs.id(e.ref), name: e.name, input_json: JSON.stringify(e.input), session_id: refs.id(e.session), day: e.day, created_at: e.createdAt, updated_at: e.updatedAt,
      events: e.events.map((event, i) => ({ payload_json: JSON.stringify(refs.walk(event.event, `Encounter “${e.name}”, event ${i + 1},`)), recorded_at: event.recordedAt })),
      carry: e.carried.map((c) => ({
        subject: c.subject === 'campaign' ? 'campaign' : `character:${refs.id(c.subject)}`,
        previous_json: JSON.stringify(refs.walk(c.previous, `What “${e.name}” carried onto ${c.subject === 'campaign' ? 'the campaign' : characterName.get(c.subject)}`)),
      })),
    })),
    injuries: file.records.map((r: FileRecord) => ({
      id: refs.id(r.ref), character_id: refs.id(r.character), name: r.name, category: r.category, data_json: JSON.stringify(refs.walk(r.data, `Record ${r.ref}`)),
      source_encounter_id: r.source ? refs.id(r.source.encounter) : null, source_seq: r.source?.seq ?? r.entry ?? null,
      day_gained: r.dayGained, session_gained: refs.id(r.sessionGained), day_healed: r.dayHealed, session_healed: refs.id(r.sessionHealed), ledger_seq: r.ledgerSeq,
      created_at: r.createdAt, updated_at: r.updatedAt, healed_at: r.healedAt,
    })),
    ledger: file.ledger.map((entry) => {
      const where = `Ledger entry ${entry.seq}`;
      return {
        seq: entry.seq, type: entry.type, payload_json: JSON.stringify(refs.walk(entry.payload, where)), log_json: JSON.stringify(entry.log), day: entry.day,
        session_id: refs.id(entry.session), subjects_json: JSON.stringify(entry.subjects.map((s) => refs.id(s))),
        before_json: JSON.stringify(imagesIn(refs, entry.before, campaignId, where)), after_json: JSON.stringify(imagesIn(refs, entry.after, campaignId, where)),
        state: entry.state, recorded_at: entry.recordedAt,
      };
    }),
  };
}

// ---- the encounter file (imported into a campaign) ----

export const encounterFileSchema = z.lazy(() => fileSchemas().encounterFileSchema);

export type EncounterFile = z.infer<typeof encounterFileSchema>;

/** The encounter file checked (format, version, shape), or a refusal naming the first problem. */
export function parseEncounterFile(value: unknown): EncounterFile {
  checkFormat(value, ENCOUNTER_FORMAT);
  return parseWith(encounterFileSchema, value);
}

/**
 * An event from another campaign, cut loose: every `characterId` link set to null (an imported fight never writes
 * onto this campaign's characters) and the carry-over adjustments, which only make sense for linked characters,
 * left out.
 */
export function unlinkEvent(event: Record<string, unknown>): Record<string, unknown> {
  const { carryAdjust: _adjust, carryReason: _reason, ...rest } = event;
  const unlink = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(unlink);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, key === 'characterId' ? null : unlink(item)]));
  };
  return unlink(rest) as Record<string, unknown>;
}
