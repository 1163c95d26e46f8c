// Adding combatants (setup, §3.1): each joins its faction's own morale group, in the order given; a batch of them
// is the same as adding them one by one, only logged as one line.
import { describe, expect, it } from 'vitest';
import { defaultOptions } from '../options.ts';
import { factionsOptions } from './options.ts';
import * as roster from '../../encounter/roster.ts';
import * as rules from './rules.ts';
import * as setupRules from './setup.ts';
import { seed } from './testing.ts';

const empty = () => rules.initialContext({ options: defaultOptions(factionsOptions), carried: {} });

describe('adding combatants', () => {
  it('a batch gives the combatants, roster and groups of adding them one at a time', () => {
    const seeds = Array.from({ length: 30 }, (_, i) => seed(`c${i}`, i % 3 ? 'gm' : 'party', { agi: 8 + (i % 5) }));
    const batched = roster.addSeeds(setupRules.ROSTER, roster.addSeeds(setupRules.ROSTER, empty(), seeds.slice(0, 12)), seeds.slice(12));
    const single = seeds.reduce((ctx, s) => roster.addSeeds(setupRules.ROSTER, ctx, [s]), empty());
    // Compared as stored (JSON keeps the order of keys and members).
    expect(JSON.stringify(batched.combatants)).toBe(JSON.stringify(single.combatants));
    expect(JSON.stringify(batched.groups)).toBe(JSON.stringify(single.groups));
    expect(batched.roster).toEqual(single.roster);
    expect(batched.groups['faction:party']).toMatchObject({ members: seeds.filter((s) => s.side === 'party').map((s) => s.id), originalCount: 0 });
    expect(seeds.every((s) => batched.combatants[s.id]!.group === `faction:${s.side}`)).toBe(true);
    expect(batched.log.map((l) => l.text)).toEqual([
      `Added ${seeds.slice(0, 12).filter((s) => s.side === 'party').map((s) => s.name).join(', ')} to Party; ${seeds.slice(0, 12).filter((s) => s.side === 'gm').map((s) => s.name).join(', ')} to Enemies.`,
      `Added ${seeds.slice(12).filter((s) => s.side === 'party').map((s) => s.name).join(', ')} to Party; ${seeds.slice(12).filter((s) => s.side === 'gm').map((s) => s.name).join(', ')} to Enemies.`,
    ]);
  });
});
