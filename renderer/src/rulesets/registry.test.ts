// The renderer finds each ruleset's additions by its folder (renderer/src/rulesets/<id>/index.ts), and a ruleset
// without a folder gets the generic screens: no line names a ruleset outside its folder (issue 29).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULESETS } from '../../../core/rulesets/registry.ts';
import { RULESETS_WITH_UI, loadRulesetUi } from './registry.ts';

const here = import.meta.dirname;
const uiFolders = readdirSync(here).filter((name) => statSync(join(here, name)).isDirectory() && readdirSync(join(here, name)).includes('index.ts'));

describe('the renderer registry of ruleset additions', () => {
  it('finds every folder with an index.ts, keyed by the folder, and each is a ruleset of the core registry', () => {
    expect([...RULESETS_WITH_UI].sort()).toEqual(uiFolders.sort());
    const ids = RULESETS.map((r) => r.id as string);
    for (const id of RULESETS_WITH_UI) expect(ids).toContain(id);
  });

  it("reads each folder's additions: Enigma's panel, prompt, prepare-screen order and row action; Thrum's board", async () => {
    const enigma = await loadRulesetUi('enigma');
    expect(enigma.actionPanel).toBeTypeOf('function');
    expect(enigma.prompts?.['mortalPeril']?.ownsKeys).toBe(true);
    expect(enigma.prepOrder?.handles).toEqual(['SET_PARTY_ORDER', 'SET_GM_ORDER', 'SET_FIRST_SIDE']);
    expect(enigma.rowAction?.label('Lotty')).toBe('Damage or heal Lotty');
    expect(enigma.actionKeyLines?.map((line) => line.keys)).toContain('D');
    const thrum = await loadRulesetUi('thrum');
    expect(thrum.board).toBeTypeOf('function');
    expect(thrum.actionPanel).toBeUndefined();
  });

  it('gives a ruleset with no folder, or an unknown id, nothing of its own: the generic screens', async () => {
    const withoutFolder = RULESETS.map((r) => r.id as string).filter((id) => !uiFolders.includes(id));
    expect(withoutFolder.length).toBeGreaterThan(0);
    for (const id of [...withoutFolder, 'no-such-ruleset']) expect(await loadRulesetUi(id)).toEqual({});
  });
});
