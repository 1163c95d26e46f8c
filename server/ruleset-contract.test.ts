// What the app asks of each ruleset comes from its definition in the registry (core/rulesets/types.ts): the ids a
// new campaign or an imported file may name, the record kinds the character's history sorts by, and the party
// figures of the campaign home. Through the handler table on a real temporary SQLite file.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { RULESETS, findRuleset } from '../core/rulesets/registry.ts';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok, refused, rows } = t;

/** The sentence that names the registered rulesets, in the registry's order. */
const ONE_OF = `The ruleset must be one of: ${RULESETS.map((r) => r.id).join(', ')}.`;
const campaignCount = () => rows('SELECT count(*) AS n FROM campaigns')[0]!['n'];

describe('the ruleset ids are the registry\'s', () => {
  it('a new campaign names a registered ruleset; another is refused with the list and nothing is written', async () => {
    expect(ONE_OF).toMatch(/^The ruleset must be one of: \w/);
    expect(await refused('campaigns:create', { name: 'A', rulesetId: 'dnd5e' })).toBe(ONE_OF);
    expect(await refused('campaigns:create', { name: 'A', rulesetId: '' })).toBe(ONE_OF);
    expect(await refused('campaigns:create', { name: 'A', rulesetId: 'x'.repeat(65) })).toMatch(/^The request's ruleset id cannot be read/);
    expect(await refused('campaigns:create', { name: 'A', rulesetId: 7 })).toMatch(/^The request's ruleset id cannot be read/);
    expect(campaignCount()).toBe(0);
    for (const ruleset of RULESETS) expect(await ok('campaigns:create', { name: ruleset.name, rulesetId: ruleset.id })).toMatchObject({ rulesetId: ruleset.id });
    expect(campaignCount()).toBe(RULESETS.length);
  });

  it('a campaign or encounter file naming a ruleset this app does not know is refused with the list, and nothing is written', async () => {
    const campaign = await ok('campaigns:create', { name: 'Vault', rulesetId: RULESETS[0]!.id });
    const file = JSON.parse((await ok('exports:campaign', { id: campaign.id })).content) as { campaign: { rulesetId: unknown } };
    file.campaign.rulesetId = 'dnd5e';
    expect(await refused('imports:campaign', { content: JSON.stringify(file) })).toContain(ONE_OF);
    file.campaign.rulesetId = 3;
    expect(await refused('imports:campaign', { content: JSON.stringify(file) })).toContain(ONE_OF);
    expect(campaignCount()).toBe(1);
  });
});

describe('what app:info, rulesets:get and the campaign carry of each ruleset', () => {
  it('rulesets:get sends each ruleset\'s record kinds: labels, and which are harm', async () => {
    const info = await ok('app:info', {});
    expect(info.rulesets.map((r) => r.id)).toEqual(RULESETS.map((r) => r.id));
    for (const ruleset of RULESETS) expect((await ok('rulesets:get', { id: ruleset.id })).records).toEqual(ruleset.records.categories);
    const teams = await ok('rulesets:get', { id: 'teams' });
    expect(teams.records).toContainEqual({ key: 'cheatDeath', label: 'Cheated death', harm: false });
    expect((await ok('rulesets:get', { id: 'enigma' })).records).toContainEqual({ key: 'armourRestrictive', label: 'Armor-Restrictive', harm: true });
  });

  it('the campaign carries the party figures its ruleset shows on the home: Enigma\'s Escalation, none for the others', async () => {
    const title = 'Party Escalation: carried into the next fight until a Breather or Rest (R-E20)';
    for (const ruleset of RULESETS) {
      const campaign = await ok('campaigns:create', { name: ruleset.name, rulesetId: ruleset.id });
      const detail = await ok('campaigns:get', { id: campaign.id });
      expect(detail.partyBadges, ruleset.id).toEqual(ruleset.recovery?.partyBadges?.({}) ?? []);
      if (ruleset.id === 'enigma') expect(detail.partyBadges).toEqual([{ label: 'Escalation', value: '1 (reset)', title }]);
      else expect(detail.partyBadges, ruleset.id).toEqual([]);
    }
    expect(findRuleset('enigma')!.recovery.partyBadges!({ escalation: 3 })).toEqual([{ label: 'Escalation', value: '3', title }]);
  });

  it('the character\'s history sorts records by its ruleset\'s kinds: a Teams death is a lasting mark, not an open injury', async () => {
    const campaign = await ok('campaigns:create', { name: 'Pact', rulesetId: 'teams' });
    const pc = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ana', sheet: {} });
    const db = new Database(t.dir.file());
    try {
      const insert = db.prepare(`INSERT INTO injuries (id, campaign_id, character_id, name, category, data_json, day_gained, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, 1, '2026-11-01T10:00:00.000Z', '2026-11-01T10:00:00.000Z')`);
      insert.run('r1', campaign.id, pc.id, 'Cheated death (difficulty 10 → 15)', 'cheatDeath', JSON.stringify({ kind: 'cheatDeath', before: 10, after: 15 }));
      insert.run('r2', campaign.id, pc.id, 'Died', 'death', JSON.stringify({ kind: 'death', cause: 'a spear' }));
    } finally {
      db.close();
    }
    const history = await ok('characters:history', { id: pc.id });
    expect(history.records.map((r) => [r.category, r.permanent])).toEqual([['cheatDeath', false], ['death', false]]);
    expect(history.recordCounts).toEqual({ open: 0, healed: 0 });
  });
});
