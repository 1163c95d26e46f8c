// What the campaign list waits for at start: the page's first calls (recovery:status, campaigns:list, app:info) and
// their answers. app:info carried every ruleset's sheet, options, action forms, recovery forms and readers (129,040
// characters of JSON, most of a start's replies) where the list reads each ruleset's id, name and summary; those
// parts are asked for by the screens that read them (rulesets:get). docs/performance.md "Start".
import { describe, expect, it } from 'vitest';
import { RULESETS } from '../core/rulesets/registry.ts';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok, refused } = t;

const size = (value: unknown) => JSON.stringify(value).length;

describe('the campaign list at start', () => {
  it("is answered in a few kilobytes: app:info names the rulesets and leaves their sheets and forms out", async () => {
    await ok('campaigns:demo', {});
    const status = await ok('recovery:status', {});
    const list = await ok('campaigns:list', { includeArchived: true });
    const info = await ok('app:info', {});
    expect(info.rulesets).toEqual(RULESETS.map((r) => ({ id: r.id, name: r.name, summary: r.summary })));
    // 129,040 characters before; a ruleset's name and summary are a few hundred.
    expect(size(info)).toBeLessThan(2_000);
    expect(size(status) + size(list) + size(info)).toBeLessThan(4_000);
  });

  it("sends a ruleset's sheet, options and forms to the screen that asks for them, one ruleset at a time", async () => {
    const enigma = await ok('rulesets:get', { id: 'enigma' });
    expect(enigma.sheet.fields.length).toBeGreaterThan(0);
    expect(enigma.options.length).toBeGreaterThan(0);
    expect(enigma.recoveryForms.length).toBeGreaterThan(0);
    const all = await Promise.all(RULESETS.map((r) => ok('rulesets:get', { id: r.id })));
    expect(all.some((r) => r.actionForms.length > 0)).toBe(true);
    // Each is a share of what app:info sent whole.
    for (const ruleset of all) expect(size(ruleset)).toBeLessThan(size(all) / 2);
    expect(await refused('rulesets:get', { id: 'chess' })).toBe('This app has no ruleset called chess.');
  });
});
