// A character's history, word for word: a campaign of 48 fights with injuries that heal and injuries that stay
// open, GM overrides of the carry-over, rests, a party's rests that name a character with no record, and rests
// undone, written through the real handlers with a counted clock and counted ids, so every run writes the same file.
// Each party member's history, as the screen asks for it and with all its items and records, is compared with what
// the files beside the golden replays hold (server/golden/character-history.json): a change to how the history is
// read must keep every reply byte for byte (its JSON, key order included).
//
// A deliberate change of output: `GOLDEN_UPDATE=1 npx vitest run server/history-replies.test.ts` writes the file
// again; review its diff before committing it.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { HandlerName, HandlerResults } from '../core/api/contract.ts';
import { tempDir } from '../db/testing/temp-db.ts';
import { openApp, type AppService } from './app.ts';

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), 'golden', 'character-history.json');
const UPDATE = process.env['GOLDEN_UPDATE'] === '1';

/** What the golden file holds of each party member: the reply the screen gets whole, the full one by its digest. */
interface GoldenHistory {
  name: string;
  reply: unknown;
  all: { sha256: string; length: number; itemCount: number; records: number };
}

const dir = tempDir('gmw-history-replies-');
afterAll(() => dir.remove());

/** The campaign, written the same way every time (ids and times counted from fixed starts). */
async function writeCampaign(): Promise<{ app: AppService; party: { id: string; name: string }[] }> {
  let ids = 0;
  let seconds = 0;
  const app = openApp({
    databasePath: dir.file(), transport: 'cli', version: 'test',
    newId: () => `${String(++ids).padStart(8, '0')}-0000-4000-8000-000000000000`,
    now: () => new Date(Date.UTC(2026, 0, 1) + 1000 * seconds++).toISOString(),
  });
  const ok = async <N extends HandlerName>(name: N, input: unknown): Promise<HandlerResults[N]> => {
    const envelope = await app.dispatch(name, input);
    if ('error' in envelope) throw new Error(`${name}: ${envelope.error.message}`);
    return envelope.result as HandlerResults[N];
  };
  const campaign = await ok('campaigns:create', { name: 'Long road', rulesetId: 'enigma' });
  const pc = (name: string) => ok('characters:create', { campaignId: campaign.id, role: 'pc', name, sheet: { endure: 10, navigate: 8 } });
  const berrik = await pc('Berrik');
  const wren = await pc('Wren “the Quoted”');
  const cole = await pc('Cole');
  const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { endure: 6 } });
  const ledger = (event: unknown) => ok('ledger:append', { campaignId: campaign.id, event });
  for (let n = 1; n <= 48; n++) {
    const encounter = await ok('encounters:create', { campaignId: campaign.id, name: `Ambush ${n}` });
    await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [berrik.id, wren.id], npcs: [{ templateId: goblin.id, count: 1 }] });
    const started = await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
    const order = Object.fromEntries(started.view.order.map((x) => [x.name, x.id])) as Record<string, string>;
    // Berrik takes two injuries a fight (one heals after a rest or two, one lasts), Wren one every other fight.
    const hurt = [{ who: berrik.name, injury: `Cut ${n}`, baseRoll: 1 + (n % 2) }, { who: berrik.name, injury: `Scar ${n}`, baseRoll: 4 }];
    if (n % 2 === 0) hurt.push({ who: wren.name, injury: `Graze ${n}`, baseRoll: 2 });
    for (const { who, injury, baseRoll } of hurt) {
      await ok('encounters:append', { id: encounter.id, event: { type: 'APPLY_DAMAGE', targetId: order[who], amount: 20, source: 'a trap' } });
      await ok('encounters:append', { id: encounter.id, event: { type: 'RESOLVE_PERIL', combatantId: order[who], choice: 'survive', costText: 'a limp', injury: { mode: 'new', name: injury, category: 'speed', baseRoll } } });
    }
    // Every seventh fight's end is adjusted by the GM, for Berrik and for Wren.
    const adjust = n % 7 === 0 ? { carryAdjust: [{ characterId: berrik.id, key: 'lp', value: 7 }, { characterId: wren.id, key: 'lp', value: 6 }], carryReason: 'a draught' } : {};
    await ok('encounters:append', { id: encounter.id, event: { type: 'END_COMBAT', outcome: 'Victory' }, ...adjust });
    await ledger({ type: 'ADVANCE_DAYS', days: 1 });
    // Berrik rests through the first 20 fights only: his later injuries stay open.
    if (n <= 20) await ledger({ type: 'REST', characterId: berrik.id });
    // A party's rest that names Cole (no record) beside Wren; a rest of Wren's, sometimes undone.
    if (n % 4 === 0) await ledger({ type: 'PARTY', action: { type: 'REST' }, characterIds: [cole.id, wren.id] });
    if (n % 3 === 0) {
      await ledger({ type: 'ADVANCE_DAYS', days: 1 });
      await ledger({ type: 'REST', characterId: wren.id });
      if (n % 6 === 0) await ok('ledger:undo', { campaignId: campaign.id });
    }
  }
  return { app, party: [berrik, wren, cole] };
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

describe("a character's history, word for word", () => {
  it('gives every party member the reply it gave when the golden file was written, as asked and whole', async () => {
    const { app, party } = await writeCampaign();
    try {
      const history = async (input: Record<string, unknown>) => {
        const envelope = await app.dispatch('characters:history', input);
        if ('error' in envelope) throw new Error(envelope.error.message);
        return envelope.result as HandlerResults['characters:history'];
      };
      const got: GoldenHistory[] = [];
      for (const character of party) {
        const reply = await history({ id: character.id });
        const all = await history({ id: character.id, allItems: true, allRecords: true });
        const text = JSON.stringify(all);
        got.push({ name: character.name, reply: JSON.parse(JSON.stringify(reply)), all: { sha256: digest(text), length: text.length, itemCount: all.itemCount, records: all.records.length } });
      }
      // The campaign reaches what the history cuts: more than 200 items, 50 open and 24 healed records (Berrik).
      const berrik = got[0]!.reply as HandlerResults['characters:history'];
      expect(berrik.itemCount).toBeGreaterThan(200);
      expect(berrik.recordCounts.open).toBeGreaterThan(50);
      expect(berrik.recordCounts.healed).toBeGreaterThan(24);
      if (UPDATE) {
        writeFileSync(GOLDEN, `${JSON.stringify(got, null, 1)}\n`);
        return;
      }
      expect(existsSync(GOLDEN), 'server/golden/character-history.json is missing: write it with GOLDEN_UPDATE=1').toBe(true);
      const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as GoldenHistory[];
      got.forEach((history, i) => {
        // The reply as sent, key order included, then the whole one by its digest.
        expect(JSON.stringify(history.reply), history.name).toBe(JSON.stringify(golden[i]!.reply));
        expect(history.all, history.name).toEqual(golden[i]!.all);
      });
    } finally {
      app.close();
    }
  }, 120_000);
});
