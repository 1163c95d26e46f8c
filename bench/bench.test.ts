// The node benchmarks in quick mode: every section runs and yields complete, sane records. Never a time target:
// the figures themselves are for `npm run bench` to report.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { withDatabase } from './store.ts';
import { runNodeBenchmarks, SECTIONS } from './node.ts';
import { benchResult } from './result.ts';

describe('benchmark records', () => {
  it('computes the ratio and the pass from the value, the baseline and the target', () => {
    const base = { section: 'Export', name: 'x', unit: 'ms', baseline: { name: 'bare', value: 50 } };
    expect(benchResult({ ...base, value: 100 }).ratio).toBe(2);
    expect(benchResult({ ...base, value: 100, target: { op: '<=', value: 300, of: 'value' } }).pass).toBe(true);
    expect(benchResult({ ...base, value: 400, target: { op: '<=', value: 300, of: 'value' } }).pass).toBe(false);
    expect(benchResult({ ...base, value: 10, target: { op: '>=', value: 1 / 3, of: 'ratio' } }).pass).toBe(false);
    expect(benchResult({ ...base, value: 20, target: { op: '>=', value: 1 / 3, of: 'ratio' } }).pass).toBe(true);
  });

  it('runs every node section in quick mode with finite positive figures', async () => {
    // The generated campaign kept where the caller asks, for the UI's campaign screens.
    const folder = mkdtempSync(join(tmpdir(), 'gmw-bench-test-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const campaignAt = join(folder, 'campaign.sqlite');
    const results = await runNodeBenchmarks({ quick: true, campaignAt });
    expect(withDatabase(campaignAt, (db) => db.prepare('SELECT count(*) AS n FROM encounters').get() as { n: number }).n).toBe(20);
    expect(new Set(results.map((r) => r.section))).toEqual(new Set(SECTIONS));
    for (const r of results) {
      expect(r.name.length, `${r.section}: a name`).toBeGreaterThan(0);
      expect(r.unit.length, `${r.name}: a unit`).toBeGreaterThan(0);
      expect(r.baseline.name.length, `${r.name}: a baseline name`).toBeGreaterThan(0);
      for (const value of [r.value, r.baseline.value, r.ratio]) {
        expect(Number.isFinite(value) && value > 0, `${r.name}: ${value}`).toBe(true);
      }
      expect(r.ratio).toBeCloseTo(r.value / r.baseline.value, 9);
      if (r.target) {
        expect(['>=', '<=']).toContain(r.target.op);
        expect(r.pass).toBe((r.target.op === '>=' ? (x: number, y: number) => x >= y : (x: number, y: number) => x <= y)(r.target.of === 'ratio' ? r.ratio : r.value, r.target.value));
      } else {
        expect(r.pass).toBe(true);
      }
    }
    // Every ruleset replays, held to the bare actor and reported beside the copying one; every export format is measured.
    const replays = results.filter((r) => r.section === 'Replay');
    expect(replays.filter((r) => r.target).map((r) => r.name.split(' ')[0])).toEqual(['enigma', 'teams', 'factions', 'cairn-errant', 'thrum']);
    expect(replays.filter((r) => !r.target).map((r) => r.name.split(' ')[0])).toEqual(['enigma', 'teams', 'factions', 'cairn-errant', 'thrum']);
    const exports = results.filter((r) => r.section === 'Export');
    const formats = ['Markdown', 'HTML', 'JSON'];
    expect(exports.map((r) => r.name.split(',')[0])).toEqual([...formats, ...formats, ...formats, ...formats, 'filling in the roster changes of 500 events stored before version 7', 'the longest chunk of that filling in (the longest a GM request waits for it)', ...formats]);
    // The first export after opening, from stored roster changes (held to the target) and for a fight stored before
    // them: replayed (reported), then filled in as the app does in the background (held to the target).
    expect(exports.filter((r) => r.name.includes('adds up the stored roster changes') && r.target).length).toBe(3);
    expect(exports.filter((r) => r.name.includes('stored before version 7, first export') && !r.target).length).toBe(3);
    expect(exports.filter((r) => r.name.includes('stored before version 7 and filled in, first export') && r.target).length).toBe(3);
  }, 300_000);
});
