// "Any system"'s ledger rules: an injury between sessions is a record the entry creates (RecoveryChange.newRecords),
// stored as a fight's injury is; the whole party's rest counts each created record once.
import { describe, expect, it } from 'vitest';
import { applyRecovery, foldChange, mergeChanges, parseRecoveryEvent } from '../../ledger/kernel.ts';
import type { CampaignWorld } from '../../ledger/types.ts';
import { defaultOptions } from '../options.ts';
import { findRuleset } from '../registry.ts';
import { anySystemRecovery } from './ledger.ts';
import { anySystemOptions } from './options.ts';

const character = (id: string, name: string) => ({ id, name, role: 'pc' as const, sheet: { hpMax: 20, hp: 20, tempHp: 0 }, state: {}, records: [] });
const world: CampaignWorld = { day: 4, options: defaultOptions(anySystemOptions), party: {}, characters: [character('ana', 'Ana'), character('bo', 'Bo')] };
const apply = (event: Record<string, unknown>) => applyRecovery(anySystemRecovery, world, parseRecoveryEvent(anySystemRecovery, event));

describe('an injury between sessions', () => {
  it('creates one injury record on the character, as a fight stores one, with the day instead of the round', () => {
    expect(apply({ type: 'INJURY', characterId: 'ana', name: '  Broken arm ', untilLongRest: true })).toEqual({
      change: { newRecords: [{ characterId: 'ana', name: 'Broken arm', category: 'injury', data: { untilLongRest: true, day: 4 } }] },
      log: ['Ana is injured on day 4: Broken arm (until a long rest).'],
    });
    expect(apply({ type: 'INJURY', characterId: 'bo', name: 'Cursed', notes: 'Touched the idol.' })).toEqual({
      change: { newRecords: [{ characterId: 'bo', name: 'Cursed', category: 'injury', data: { untilLongRest: false, day: 4, notes: 'Touched the idol.' } }] },
      log: ['Bo is injured on day 4: Cursed.', 'Notes: Touched the idol.'],
    });
  });

  it('is one of the ruleset\'s declared harm categories, and its form offers name, flag and notes', () => {
    const form = anySystemRecovery.forms.find((f) => f.type === 'INJURY')!;
    expect(form.fields.map((f) => [f.key, f.kind, f.optional ?? false])).toEqual([
      ['characterId', 'character', false], ['name', 'text', false], ['untilLongRest', 'flag', true], ['notes', 'text', true],
    ]);
    expect(form.bulk).toBeUndefined();
    const created = apply({ type: 'INJURY', characterId: 'ana', name: 'Burn' }).change.newRecords![0]!;
    expect(findRuleset('any-system')!.records.categories.find((c) => c.key === created.category)).toMatchObject({ label: 'Injury', harm: true });
  });

  it('refuses a name that is empty or too long, and a character not in the party', () => {
    expect(() => apply({ type: 'INJURY', characterId: 'ana', name: '' })).toThrow('Name the injury.');
    expect(() => apply({ type: 'INJURY', characterId: 'ana', name: 'x'.repeat(121) })).toThrow("An injury's name is at most 120 characters.");
    expect(() => apply({ type: 'INJURY', characterId: 'zed', name: 'Burn' })).toThrow('That character is not a party member of this campaign.');
  });

  it('the kernel keeps every created record when changes merge, and leaves them out of the folded world (no id yet)', () => {
    const a = apply({ type: 'INJURY', characterId: 'ana', name: 'Burn' }).change;
    const b = apply({ type: 'INJURY', characterId: 'bo', name: 'Bite' }).change;
    expect(mergeChanges(a, b).newRecords!.map((r) => r.name)).toEqual(['Burn', 'Bite']);
    expect(mergeChanges({}, {})).toEqual({});
    expect(foldChange(world, a)).toEqual(world);
  });
});
