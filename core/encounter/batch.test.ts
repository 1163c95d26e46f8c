// Several targets at once (issue 28 point 4): one kernel event wrapping the ruleset's own events, every part logged,
// all applied or none, one undo; for every ruleset with a real engine.
import { describe, expect, it } from 'vitest';
import { generateFight, RULESET_IDS } from '../../bench/fight.ts';
import { fight as enigmaFight, seed as enigmaSeed } from '../rulesets/enigma/testing.ts';
import { EncounterEngine, RuleRefusal } from './kernel.ts';
import type { GmEvent } from './types.ts';

function refused(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof RuleRefusal) return error.message;
    throw error;
  }
  throw new Error('not refused');
}

/** The ruleset's own harm event for one target: damage, or Thrum's Fatigue Load. */
const harm = (rulesetId: string, targetId: string, amount: number): GmEvent =>
  rulesetId === 'thrum' ? { type: 'APPLY_LOAD', targetId, load: 'fatigue', amount, source: 'an explosion' } : { type: 'APPLY_DAMAGE', targetId, amount, source: 'an explosion' };

describe('Enigma: an explosion on three', () => {
  const start = () => enigmaFight([enigmaSeed('ana', 'party'), enigmaSeed('orc', 'gm'), enigmaSeed('gob', 'gm'), enigmaSeed('rat', 'gm')]);
  const lp = (e: EncounterEngine, id: string) => e.view().order.find((c) => c.id === id)!.health!.current;

  it('each target\'s line logged; one undo mark before it undoes all', () => {
    const e = start();
    const mark = e.state;
    const lines = e.apply({ type: 'BATCH', events: ['orc', 'gob', 'rat'].map((id) => harm('enigma', id, 2)) });
    expect(lines.filter((l) => l.kind === 'damage').map((l) => l.text)).toHaveLength(3);
    for (const name of ['Orc', 'Gob', 'Rat']) expect(lines.some((l) => l.text.includes(name))).toBe(true);
    expect(['orc', 'gob', 'rat'].map((id) => lp(e, id))).toEqual([6, 6, 6]);
    const back = EncounterEngine.at(e.rules, e.input, mark);
    expect(['orc', 'gob', 'rat'].map((id) => lp(back, id))).toEqual([8, 8, 8]);
  });

  it('a blessing on two and a heal: conditions and healing parts too', () => {
    const e = start();
    e.apply(harm('enigma', 'ana', 3));
    const lines = e.apply({ type: 'BATCH', events: [
      { type: 'HEAL', targetId: 'ana', amount: 2, kind: 'magic', source: 'a blessing' },
      { type: 'CONDITION_ADD', targetIds: ['ana'], name: 'Blessed', duration: { kind: 'rounds', rounds: 1 } },
    ] });
    expect(lines.map((l) => l.text)).toContain("The GM puts Blessed on Ana, for 1 round (counted from Ana's turn).");
    expect(lp(e, 'ana')).toBe(7);
  });

  it('refused as a whole, naming the target whose part was refused; nothing changes', () => {
    const e = start();
    e.apply({ type: 'REMOVE_COMBATANT', combatantId: 'gob', reason: 'fled' });
    const before = JSON.stringify(e.persisted());
    const why = refused(() => e.apply({ type: 'BATCH', events: ['orc', 'gob', 'rat'].map((id) => harm('enigma', id, 2)) }));
    expect(why).toMatch(/^Nothing was applied: the part for Gob is refused\. /);
    expect(e.refusal({ type: 'BATCH', events: ['orc', 'gob'].map((id) => harm('enigma', id, 2)) })).toBe(why);
    expect(JSON.stringify(e.persisted())).toBe(before);
    expect(refused(() => e.apply({ type: 'BATCH', events: [harm('enigma', 'orc', 2), { type: 'APPLY_DAMAGE', targetId: 'rat', amount: 'lots', source: '' }] }))).toMatch(/^Part 2 of the actions for several targets: /);
    expect(refused(() => e.apply({ type: 'BATCH', events: [harm('enigma', 'orc', 2)] }))).toBe('Several targets at once needs at least two actions.');
  });
});

describe.each(RULESET_IDS)('%s: harm to three at once in a real fight', (rulesetId) => {
  it('is one event: its lines name each target, a replay and a resume agree', { timeout: 60_000 }, () => {
    const fight = generateFight(rulesetId, 6, 40, 3);
    const e = EncounterEngine.create(fight.rules, fight.input);
    let batch: GmEvent | null = null;
    let at = 0;
    for (const event of fight.events) {
      e.step(event);
      at += 1;
      const view = e.view();
      if (view.phase !== 'running' || view.prompt) continue;
      const targets = view.order.filter((c) => c.status !== 'removed').slice(0, 3);
      const candidate = { type: 'BATCH', events: targets.map((c) => harm(rulesetId, c.id, 1)) };
      if (e.refusal(candidate) === null) {
        batch = candidate;
        break;
      }
    }
    expect(batch).not.toBeNull();
    const names = (batch!['events'] as GmEvent[]).map((part) => e.view().order.find((c) => c.id === part['targetId'])!.name);
    const lines = e.apply(batch).map((l) => l.text);
    for (const name of names) expect(lines.some((t) => t.includes(name))).toBe(true);
    const events = [...fight.events.slice(0, at), batch!];
    const stored = JSON.parse(JSON.stringify(EncounterEngine.resume(fight.rules, fight.input, undefined, events).persisted()));
    expect(JSON.stringify(EncounterEngine.resume(fight.rules, fight.input, stored, []).view())).toBe(JSON.stringify(e.view()));
  });
});
