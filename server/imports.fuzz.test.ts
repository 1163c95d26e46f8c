// The importers under random input (fast-check): arbitrary JSON, valid exports with keys dropped and added, wrong
// types, deep nesting, huge strings and prototype keys, damaged text and random bytes. Whatever comes in, the
// handler answers with a sentence (never an internal error) and a refused file leaves every table as it was.
// Runs are bounded and seeded: FUZZ_SEED=<n> repeats a run; the seed is printed when a property fails.
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Envelope } from '../core/api/contract.ts';
import { CAMPAIGN_FORMAT, ENCOUNTER_FORMAT, EXPORT_VERSION } from '../core/export/types.ts';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok } = t;

const SEED = Number(process.env['FUZZ_SEED'] ?? Math.floor(Math.random() * 0x7fffffff));
const RUNS = 200;

/** One read-only connection for the whole test, to fingerprint every table quickly. */
let reader: Database.Database;
let tables: string[];
beforeEach(() => {
  reader = new Database(t.dir.file(), { readonly: true });
  tables = (reader.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
});
afterEach(() => reader.close());
const fingerprint = () => JSON.stringify(tables.map((table) => reader.prepare(`SELECT * FROM "${table}" ORDER BY 1, 2`).all()));

/** A fight with an injury, a GM override at its end, and a ledger that treated the injury: a valid file to damage. */
async function richCampaign() {
  const campaign = await ok('campaigns:create', { name: 'Vault', rulesetId: 'enigma' });
  const ash = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ash', sheet: {} });
  const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: {} });
  const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Bridge' });
  const added = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [ash.id], npcs: [{ templateId: goblin.id, count: 2 }] });
  const id = Object.fromEntries(added.view.order.map((c) => [c.name, c.id])) as Record<string, string>;
  const append = (event: unknown, extra: Record<string, unknown> = {}) => ok('encounters:append', { id: encounter.id, event, ...extra });
  await append({ type: 'START' });
  await append({ type: 'APPLY_DAMAGE', targetId: id['Ash'], amount: 20, source: 'trap' });
  await append({ type: 'RESOLVE_PERIL', combatantId: id['Ash'], choice: 'survive', costText: 'a limp', injury: { mode: 'new', name: 'Sprained Ankle', category: 'speed', baseRoll: 2 } });
  await append({ type: 'ATTACK', attackerId: id['Ash'], targetId: id['Goblin 1'], mode: 'melee', sight: 'clear', damage: 'full' });
  await append({ type: 'END_COMBAT', outcome: 'Victory' }, { carryAdjust: [{ characterId: ash.id, key: 'lp', value: 3 }], carryReason: 'agreed' });
  const record = String(t.rows('SELECT id FROM injuries')[0]!['id']);
  const ledger = (event: unknown) => ok('ledger:append', { campaignId: campaign.id, event });
  await ledger({ type: 'STITCHER_TREAT', characterId: ash.id, recordId: record, stitcherId: ash.id, healingKind: 'natural' });
  await ledger({ type: 'SESSION_END', notes: 'Crossed.' });
  await ledger({ type: 'ADVANCE_DAYS', days: 1 });
  await ok('ledger:undo', { campaignId: campaign.id });
  const file = (await ok('exports:campaign', { id: campaign.id })).content;
  const events = t.rows('SELECT payload_json FROM encounter_events WHERE encounter_id = ? ORDER BY seq', encounter.id).map((r) => JSON.parse(String(r['payload_json'])));
  const detail = await ok('encounters:get', { id: encounter.id });
  const encounterFile = JSON.stringify({
    format: ENCOUNTER_FORMAT, version: EXPORT_VERSION, exportedAt: '2026-11-21T09:00:00.000Z', rulesetId: 'enigma',
    encounter: { id: encounter.id, name: 'Bridge', campaignName: 'Vault', createdAt: '2026-11-20T10:00:00.000Z', phase: detail.encounter.phase, round: detail.encounter.round, input: JSON.parse(String(t.rows('SELECT input_json FROM encounters WHERE id = ?', encounter.id)[0]!['input_json'])) },
    events, log: detail.log, summary: [],
  });
  return { campaign, file, encounterFile };
}

/** Runs one import; a refusal must be a sentence of kind invalid/refused/notFound and must change nothing. */
async function attempt(name: 'imports:campaign' | 'imports:encounter', input: Record<string, unknown>): Promise<Envelope<unknown>> {
  const before = fingerprint();
  const envelope = await t.app.dispatch(name, input);
  if ('error' in envelope) {
    expect(envelope.error.kind, envelope.error.message).not.toBe('internal');
    expect(envelope.error.message).not.toMatch(/\n|\bat .+\.ts:\d+/);
    expect(envelope.error.message.length).toBeLessThan(1200);
    expect(fingerprint()).toBe(before);
  } else {
    expect(envelope.result).toMatchObject({ id: expect.any(String) });
  }
  return envelope;
}

/** A bounded, seeded run of one property; a failure names the seed that repeats it. */
async function check<T>(property: fc.IAsyncPropertyWithHooks<[T]>): Promise<void> {
  try {
    await fc.assert(property, { numRuns: RUNS, seed: SEED });
  } catch (error) {
    console.error(`Fuzz property failed: repeat it with FUZZ_SEED=${SEED}`);
    throw error;
  }
}

// ---- mutations of a valid file ----

type Path = (string | number)[];

/** Every place in a JSON value, so a mutation can pick one. */
function paths(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((item, i) => paths(item, [...at, i], out));
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) paths(item, [...at, key], out);
  return out;
}

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i += 1) value = i % 2 ? [value] : { deep: value };
  return value;
};

const mutation = fc.record({
  where: fc.nat(),
  op: fc.constantFrom('drop', 'add', 'replace', 'nest', 'huge', 'ref', 'number', 'duplicate'),
  key: fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'extra', 'ref', 'type', 'characterId', 'c1', 'r1', '~c1'), fc.string({ maxLength: 12 })),
  value: fc.jsonValue({ maxDepth: 4 }),
  depth: fc.integer({ min: 10, max: 400 }),
  ref: fc.constantFrom('c1', 'c2', 'c99', 'e1', 'e7', 's1', 's9', 'r1', 'r5', '~c1', 'x1'),
  number: fc.constantFrom(-1, 0, 0.5, 1, 2, 51, 1e9, 1e300, -1e300, 2 ** 53),
});
type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function mutate(root: unknown, m: Mutation): unknown {
  const all = paths(root);
  const path = all[m.where % all.length]!;
  if (path.length === 0) return m.op === 'replace' ? m.value : root;
  const parent = path.slice(0, -1).reduce<any>((node, key) => node[key], root);
  const key = path.at(-1)!;
  const current = parent[key];
  switch (m.op) {
    case 'drop':
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
      break;
    case 'add':
      if (current !== null && typeof current === 'object' && !Array.isArray(current)) setOwn(current, m.key, m.value);
      else if (Array.isArray(current)) current.push(m.value);
      else setOwn(parent, m.key, m.value);
      break;
    case 'replace':
      parent[key] = m.value;
      break;
    case 'nest':
      parent[key] = nested(m.depth);
      break;
    case 'huge':
      parent[key] = 'x'.repeat(200_000 + m.depth);
      break;
    case 'ref':
      parent[key] = m.ref;
      break;
    case 'number':
      parent[key] = m.number;
      break;
    case 'duplicate':
      if (Array.isArray(parent)) parent.splice(Number(key), 0, structuredClone(current));
      else if (Array.isArray(current) && current.length) current.push(structuredClone(current[0]));
      break;
  }
  return root;
}

describe('the campaign importer under random input', () => {
  it('answers arbitrary JSON with a sentence and changes nothing', async () => {
    await richCampaign();
    await check(fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), async (value) => {
      await attempt('imports:campaign', { content: JSON.stringify(value) ?? 'null' });
    }));
  });

  it('answers objects that claim the format with a sentence', async () => {
    await check(fc.asyncProperty(fc.dictionary(fc.constantFrom('campaign', 'characters', 'sessions', 'encounters', 'records', 'ledger', 'exportedAt', 'x'), fc.jsonValue({ maxDepth: 5 })), async (rest) => {
      await attempt('imports:campaign', { content: JSON.stringify({ format: CAMPAIGN_FORMAT, version: EXPORT_VERSION, ...rest }) });
    }));
  });

  it('survives a valid export with keys dropped and added, wrong types, deep nesting, huge strings and prototype keys', async () => {
    const { file } = await richCampaign();
    const parsed = JSON.parse(file);
    let imported = 0;
    await check(fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (mutations) => {
      const damaged = mutations.reduce<unknown>((root, m) => mutate(root, m), structuredClone(parsed));
      const envelope = await attempt('imports:campaign', { content: JSON.stringify(damaged) ?? 'null' });
      if ('result' in envelope) imported += 1;
    }));
    // Some mutations leave a valid file (a changed note, a dropped optional field): those import, the rest are refused.
    expect(imported).toBeLessThan(RUNS);
  });

  it('survives damaged text and random bytes', async () => {
    const { file } = await richCampaign();
    const damagedText = fc.record({ at: fc.nat({ max: file.length }), cut: fc.nat({ max: 200 }), insert: fc.string({ maxLength: 20 }) })
      .map(({ at, cut, insert }) => file.slice(0, at) + insert + file.slice(at + cut));
    const bytes = fc.uint8Array({ maxLength: 4000 }).chain((raw) => fc.constantFrom(new TextDecoder().decode(raw), Buffer.from(raw).toString('latin1')));
    const lone = fc.array(fc.integer({ min: 0xd800, max: 0xdfff }), { maxLength: 50 }).map((codes) => `{"format":"${String.fromCharCode(...codes)}"}`);
    await check(fc.asyncProperty(fc.oneof(damagedText, bytes, lone, fc.string({ unit: 'binary', maxLength: 300 })), async (content) => {
      await attempt('imports:campaign', { content });
    }));
  });
});

describe('the encounter importer under random input', () => {
  it('survives arbitrary JSON, a damaged encounter file and random bytes', async () => {
    const { encounterFile } = await richCampaign();
    const target = await ok('campaigns:create', { name: 'Elsewhere', rulesetId: 'enigma' });
    const parsed = JSON.parse(encounterFile);
    const content = fc.oneof(
      fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v) ?? 'null'),
      fc.array(mutation, { minLength: 1, maxLength: 3 }).map((ms) => JSON.stringify(ms.reduce<unknown>((root, m) => mutate(root, m), structuredClone(parsed))) ?? 'null'),
      fc.uint8Array({ maxLength: 2000 }).map((raw) => new TextDecoder().decode(raw)),
    );
    await check(fc.asyncProperty(content, async (text) => {
      await attempt('imports:encounter', { campaignId: target.id, content: text });
    }));
  });
});
