// What a new encounter carries in from the campaign's party values is the ruleset's to say (carriedFromParty): an
// Enigma fight starts at the party's Escalation (R-E20), and a ruleset without the hook carries nothing.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { RULESETS } from '../core/rulesets/registry.ts';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok } = t;

/** The party values as earlier fights and the ledger leave them, written straight into the file. */
function setParty(campaignId: string, party: Record<string, unknown>): void {
  const db = new Database(t.dir.file());
  try {
    db.prepare('UPDATE campaigns SET party_json = ? WHERE id = ?').run(JSON.stringify(party), campaignId);
  } finally {
    db.close();
  }
}
const carried = (encounterId: string) => JSON.parse(t.rows('SELECT input_json FROM encounters WHERE id = ?', encounterId)[0]!['input_json'] as string).carried;

describe('encounters:create asks the ruleset what to carry from the party', () => {
  it('an Enigma fight starts at the party\'s Escalation, and at none when the party has none', async () => {
    const campaign = await ok('campaigns:create', { name: 'The Vault', rulesetId: 'enigma' });
    const fresh = await ok('encounters:create', { campaignId: campaign.id, name: 'First' });
    expect(carried(fresh.id)).toEqual({ escalation: null });

    setParty(campaign.id, { escalation: 3 });
    const next = await ok('encounters:create', { campaignId: campaign.id, name: 'Second' });
    expect(carried(next.id)).toEqual({ escalation: 3 });
    const berrik = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: {} });
    const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: {} });
    await ok('encounters:addFromCampaign', { id: next.id, pcIds: [berrik.id], wholeParty: false, npcs: [{ templateId: goblin.id, count: 1 }] });
    const started = await ok('encounters:append', { id: next.id, event: { type: 'START' } });
    expect(started.view.counters).toEqual([{ key: 'escalation', label: 'Escalation', value: 3 }]);
  });

  it('a ruleset without the hook carries nothing in, whatever the party holds', async () => {
    for (const ruleset of RULESETS.filter((r) => !r.encounter.carriedFromParty)) {
      const campaign = await ok('campaigns:create', { name: `A ${ruleset.name} campaign`, rulesetId: ruleset.id });
      setParty(campaign.id, { escalation: 3 });
      const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Fight' });
      expect(carried(encounter.id), ruleset.id).toEqual({});
    }
    expect(RULESETS.filter((r) => r.encounter.carriedFromParty).map((r) => r.id)).toEqual(['enigma']);
  });
});
