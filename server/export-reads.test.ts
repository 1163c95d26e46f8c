// What the first export of a fight after the app opens parses (docs/performance.md, Export): every stored JSON it
// reads is parsed once — the encounter's input once (not again for the final view), each event's log lines and
// roster change once, and events stored as the same JSON (every END_TURN, a repeated heal) once for them all. Counted
// with a spy on JSON.parse, on a real SQLite file; the file's bytes are held by server/golden/exports.test.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EncounterInput } from '../core/encounter/types.ts';
import { generateFight } from '../bench/fight.ts';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok, rows } = t;

/** Not a multiple of the snapshot interval (50): resuming the final view steps the events after the newest one. */
const EVENTS = 310;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the first export after the app opens', () => {
  it('parses each stored JSON it reads once, in every format', async () => {
    const campaign = await ok('campaigns:create', { name: 'Reads', rulesetId: 'enigma' });
    const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Long fight' });
    const [row] = rows('SELECT input_json FROM encounters WHERE id = ?', encounter.id) as { input_json: string }[];
    const fight = generateFight('enigma', 6, EVENTS, 3, [], undefined, JSON.parse(row!.input_json) as EncounterInput);
    for (const event of fight.events) await ok('encounters:append', { id: encounter.id, event });
    const stored = rows('SELECT payload_json, log_json, roster_json FROM encounter_events WHERE encounter_id = ? ORDER BY seq', encounter.id) as { payload_json: string; log_json: string; roster_json: string }[];
    const events = stored.length;
    const payloads = new Set(stored.map((r) => r.payload_json));
    const logs = new Set(stored.map((r) => r.log_json));
    const rosters = new Set(stored.map((r) => r.roster_json));
    // The fight repeats itself enough for sharing to show.
    expect(payloads.size).toBeLessThan(events / 2);

    const parse = JSON.parse;
    for (const format of ['md', 'html', 'json'] as const) {
      t.reopen();
      const counts = { input: 0, payload: 0, log: 0, roster: 0 };
      vi.spyOn(JSON, 'parse').mockImplementation(function (this: JSON, text: string, reviver?: (key: string, value: unknown) => unknown) {
        if (text === row!.input_json) counts.input += 1;
        else if (payloads.has(text)) counts.payload += 1;
        else if (logs.has(text)) counts.log += 1;
        else if (rosters.has(text)) counts.roster += 1;
        return parse.call(this, text, reviver) as unknown;
      });
      await ok('exports:encounter', { id: encounter.id, format });
      vi.restoreAllMocks();

      expect(counts.input, format).toBe(1);
      expect(counts.log, format).toBe(events);
      expect(counts.roster, format).toBe(events);
      // Each distinct payload once, and again only the events after the newest snapshot (the final view steps them).
      expect(counts.payload, format).toBeLessThanOrEqual(payloads.size + (events % 50));
    }
  });
});
