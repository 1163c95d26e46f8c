// Every handler in the table under random payloads (fast-check), through app.dispatch as every transport calls it,
// on a real database holding a campaign, a running fight and a ledger entry: arbitrary JSON, each schema field
// with a wrong type, real ids next to hostile values, huge strings, deep nesting and `__proto__` keys. Whatever
// comes in, dispatch returns an envelope (never throws), never an internal error, a refusal is one sentence
// without a stack, and a refused request leaves every table exactly as it was.
// Runs are bounded and seeded: FUZZ_SEED=<n> repeats a run, FUZZ_RUNS=<n> changes its length; the seed is
// printed when a property fails.
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { HANDLER_NAMES, WRITE_HANDLERS, inputSchemas, type HandlerName } from '../core/api/contract.ts';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok } = t;

const SEED = Number(process.env['FUZZ_SEED'] ?? Math.floor(Math.random() * 0x7fffffff));
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 60);

let reader: Database.Database;
let tables: string[];
/** Every table's rows, to prove a refusal wrote nothing (row counts alone would miss an UPDATE). */
const fingerprint = () => JSON.stringify(tables.map((table) => reader.prepare(`SELECT * FROM "${table}"`).all().map((row) => JSON.stringify(row)).sort()));

/** Real ids of the seeded database, so random payloads reach past "does not exist" into the handlers. */
let ids: string[] = [];

beforeEach(async () => {
  const campaign = await ok('campaigns:create', { name: 'Vault', rulesetId: 'enigma' });
  const ash = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ash', sheet: {} });
  const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: {} });
  const fight = await ok('encounters:create', { campaignId: campaign.id, name: 'Bridge' });
  const added = await ok('encounters:addFromCampaign', { id: fight.id, pcIds: [ash.id], npcs: [{ templateId: goblin.id, count: 2 }] });
  await ok('encounters:append', { id: fight.id, event: { type: 'START' } });
  const prep = await ok('encounters:create', { campaignId: campaign.id, name: 'Ambush' });
  await ok('ledger:append', { campaignId: campaign.id, event: { type: 'ADVANCE_DAYS', days: 1 } });
  const detail = await ok('campaigns:get', { id: campaign.id });
  ids = [campaign.id, ash.id, goblin.id, fight.id, prep.id, ...added.view.order.map((c) => c.id), ...detail.sessions.map((s) => s.id)];
  reader = new Database(t.dir.file(), { readonly: true });
  tables = (reader.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
});
afterEach(() => reader.close());

// Hostile values, built once: a 1 MB string, nesting 5,000 deep (arrays and objects), prototype keys.
const HUGE = 'x'.repeat(1_000_000);
const nest = (depth: number, wrap: (inner: unknown) => unknown): unknown => {
  let value: unknown = 0;
  for (let i = 0; i < depth; i++) value = wrap(value);
  return value;
};
const DEEP_ARRAY = nest(5000, (inner) => [inner]);
const DEEP_OBJECT = nest(5000, (inner) => ({ a: inner }));
const PROTO = JSON.parse('{"__proto__": {"polluted": true, "isAdmin": true}, "constructor": {"prototype": {"polluted": true}}}') as unknown;

const hostile = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom<unknown>(HUGE, DEEP_ARRAY, DEEP_OBJECT, PROTO, '', ' ', '\u0000', '🜲'.repeat(100), -1, 0, 1.5, 1e308, -1e308, Number.NaN, Infinity, null, true, [], {}, 'toString', '__proto__'),
);
const realId = fc.constantFrom(...Array.from({ length: 8 }, (_, i) => i)).map((i) => ids[i % ids.length]!);
const EVENT_TYPES = [
  'START', 'END_TURN', 'ATTACK', 'APPLY_DAMAGE', 'AREA_DAMAGE', 'HEAL', 'MOVE', 'HIDE', 'NOTICE', 'CHECK', 'USE_ITEM', 'USE_POWER',
  'USE_REACTION', 'RESOLVE_PERIL', 'END_COMBAT', 'REMOVE_COMBATANT', 'ADD_LATE_COMBATANT', 'ADD_COMBATANTS', 'SET_PARTY_ORDER',
  'SET_GM_ORDER', 'SET_FIRST_SIDE', 'CHOOSE_NPC', 'OVERRIDE', 'SET_CAN_ACT', 'RAISE_ESCALATION', 'BREATHER', 'REST', 'STITCHER_TREAT',
  'PAID_HEALING', 'RESET_ESCALATION', 'MARK_CURE_MET', 'ADVANCE_DAYS', 'SESSION_START', 'SESSION_END', '__proto__', 'constructor',
];
/** An event of a real type whose fields are real ids or hostile values. */
const event = fc
  .record({
    type: fc.constantFrom(...EVENT_TYPES),
    fields: fc.dictionary(
      fc.constantFrom('id', 'targetId', 'attackerId', 'characterId', 'recordId', 'amount', 'days', 'ids', 'choice', 'mode', 'rolls', 'dice', 'injury', 'source', '__proto__'),
      fc.oneof(realId, hostile, fc.array(realId, { maxLength: 4 })),
      { maxKeys: 5 },
    ),
  })
  .map(({ type, fields }) => ({ ...fields, type }));

/** An input shaped like the handler's schema: each field a real id, a plausible event or a hostile value. */
function shapedInput(name: HandlerName): fc.Arbitrary<unknown> {
  const shape = (inputSchemas[name] as unknown as z.ZodObject).shape as Record<string, unknown>;
  const value = fc.oneof(realId, hostile, event);
  const fields = fc.record(Object.fromEntries(Object.keys(shape).map((key) => [key, value])), { requiredKeys: [] });
  const extra = fc.option(fc.constantFrom('__proto__', 'constructor', 'prototype', 'extra'), { nil: undefined });
  return fc.tuple(fields, extra, hostile).map(([input, key, extraValue]) => {
    if (key === undefined) return input;
    // Defined as an own property (as JSON.parse would), not through the __proto__ setter.
    return Object.defineProperty({ ...input }, key, { value: extraValue, enumerable: true, configurable: true, writable: true });
  });
}

/** Anything at all as the whole payload, or a payload shaped like the schema. */
const inputFor = (name: HandlerName) => fc.oneof(hostile, shapedInput(name));

/** Handlers a valid empty payload runs in full (building the demo campaigns, copying the database): fuzz only
 *  payloads that cannot be valid, so a run stays quick. Their refusals are checked like every other. */
const HEAVY: ReadonlySet<string> = new Set(['campaigns:demo', 'backups:create', 'recovery:startEmpty']);

async function attempt(name: HandlerName, input: unknown): Promise<void> {
  const before = fingerprint();
  let envelope: Awaited<ReturnType<typeof t.app.dispatch>>;
  try {
    envelope = await t.app.dispatch(name, input);
  } catch (error) {
    throw new Error(`${name} threw instead of answering: ${String(error)}`);
  }
  if ('error' in envelope) {
    const { message, kind } = envelope.error;
    expect(kind, `${name}: ${message}`).not.toBe('internal');
    expect(['invalid', 'refused', 'notFound']).toContain(kind);
    expect(message, name).toMatch(/^\S/);
    expect(message, name).toMatch(/[.!?)"']$/);
    expect(message, name).not.toMatch(/\n|\bat .+:\d+:\d+|Error:|TypeError|RangeError|undefined is not|Cannot read prop/);
    expect(message.length, `${name}: ${message.slice(0, 200)}`).toBeLessThanOrEqual(400);
    expect(fingerprint(), `${name} was refused ("${message}") but changed the database`).toBe(before);
  } else if (!WRITE_HANDLERS.has(name)) {
    expect(fingerprint(), `${name} only reads, but changed the database`).toBe(before);
  }
  // Nothing leaked onto shared prototypes.
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  expect(({} as Record<string, unknown>)['isAdmin']).toBeUndefined();
}

describe('every handler under random payloads', () => {
  it('covers the whole handler table', () => {
    expect(HANDLER_NAMES.length).toBe(Object.keys(inputSchemas).length);
  });

  for (const name of HANDLER_NAMES) {
    it(`${name}: an envelope, never internal, a sentence, and no write when refused`, async () => {
      const payloads = HEAVY.has(name) ? inputFor(name).filter((input) => !inputSchemas[name].safeParse(input ?? {}).success) : inputFor(name);
      try {
        await fc.assert(fc.asyncProperty(payloads, (input) => attempt(name, input)), { numRuns: RUNS, seed: SEED });
      } catch (error) {
        console.error(`Fuzz property for ${name} failed: repeat it with FUZZ_SEED=${SEED}`);
        throw error;
      }
    });
  }
});
