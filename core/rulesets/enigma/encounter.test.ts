// Enigma's runner view and its cut-down roster: rows kept from one view to the next must be the rows a view built
// from scratch would show, and the roster must agree with the view on every snapshot (the export summary reads it).
import { describe, expect, it } from 'vitest';
import { EncounterEngine, RuleRefusal } from '../../encounter/kernel.ts';
import type { CombatantSeed, EncounterSnapshot, GmEvent } from '../../encounter/types.ts';
import { defaultOptions } from '../options.ts';
import { enigmaEncounter, enigmaRowDetailsOf, perilDetailsOf } from './encounter.ts';
import { enigmaOptions } from './options.ts';
import type { EnigmaContext } from './rules.ts';

const seed = (id: string, side: 'party' | 'gm', namedNpc = false): CombatantSeed => ({
  id, name: id[0]!.toUpperCase() + id.slice(1), side, characterId: null,
  sheet: { endure: 6, navigate: 8, glean: 8, attack: 10, influence: 8, manifest: 8, namedNpc, armoured: false, notes: '' },
});

/** A small seeded generator, so every run plays the same fight. */
function seeded(start: number): () => number {
  let state = start;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/**
 * A fight played by a GM choosing at random among moves the rules may refuse: attacks, hiding and noticing,
 * damage, healing, Mortal Peril answers (with injuries), removals, late arrivals and turn ends; the GM picks each
 * enemy at its slot (R-E1 slot by slot), so round 1 has unplaced rows and a choice prompt. Returns every resting
 * snapshot, the one before the first event included.
 */
function randomFight(events: number, start: number): EncounterSnapshot[] {
  const random = seeded(start);
  const engine = EncounterEngine.create(enigmaEncounter, { options: { ...defaultOptions(enigmaOptions), npcChoice: 'slotBySlot' }, carried: { escalation: null } });
  const snapshots: EncounterSnapshot[] = [engine.snapshot];
  const tryApply = (event: GmEvent): boolean => {
    try {
      engine.apply(event);
    } catch (error) {
      if (error instanceof RuleRefusal) return false;
      throw error;
    }
    snapshots.push(engine.snapshot);
    return true;
  };
  tryApply({ type: 'ADD_COMBATANTS', combatants: [seed('ash', 'party'), seed('bree', 'party'), seed('cole', 'party'), seed('grub', 'gm'), seed('mag', 'gm', true), seed('tusk', 'gm')] });
  tryApply({ type: 'START' });
  const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const faces = (count: number, sides: number) => ({ faces: Array.from({ length: count }, () => 1 + Math.floor(random() * sides)), source: 'app' as const });
  /** The event with its rolls filled in, as the app rolls them. */
  const rolled = (event: GmEvent): GmEvent => {
    const filled: Record<string, unknown> = structuredClone(event);
    for (const roll of enigmaEncounter.rollsFor!(engine.snapshot, event)) {
      let at: Record<string, unknown> = filled;
      for (const key of roll.path.slice(0, -1)) at = at[key] as Record<string, unknown>;
      at[roll.path.at(-1)!] = faces(roll.count, roll.sides);
    }
    return filled as GmEvent;
  };
  let late = 0;
  for (let attempt = 0; attempt < events * 20 && snapshots.length < events; attempt++) {
    const view = engine.view();
    const ids = view.order.filter((c) => c.status !== 'removed' && c.status !== 'unplaced').map((c) => c.id);
    if (view.prompt?.answer === 'CHOOSE_NPC') {
      tryApply({ type: 'CHOOSE_NPC', combatantId: pick(view.prompt.choices).id });
      continue;
    }
    if (view.prompt?.answer === 'RESOLVE_PERIL') {
      const id = view.prompt.subjectId!;
      const extendable = perilDetailsOf(view.prompt)?.extendable ?? [];
      const injury = extendable.length && random() < 0.5 ? { mode: 'extend', injuryId: extendable[0]!.id } : { mode: 'new', name: 'Deep Cut', category: pick(['endure', 'navigate', 'speed', 'maxLp']), baseRoll: 1 + Math.floor(random() * 4) };
      tryApply(random() < 0.1 ? { type: 'RESOLVE_PERIL', id, choice: 'sacrifice', costText: 'for the others' } : { type: 'RESOLVE_PERIL', id, choice: 'survive', costText: 'a scar', injury });
      continue;
    }
    const active = view.activeId;
    const other = pick(ids);
    const roll = random();
    if (roll < 0.3 && active) tryApply(rolled({ type: 'ATTACK', attackerId: active, targetId: other, mode: 'melee', sight: 'clear', damage: 'full' }));
    else if (roll < 0.38 && active) tryApply(rolled({ type: 'ATTACK', attackerId: other, targetId: active, mode: 'melee', sight: 'clear', damage: 'full', asReaction: true }));
    else if (roll < 0.44 && active) tryApply(rolled({ type: 'HIDE', observers: ids.filter((id) => view.order.find((c) => c.id === id)!.side !== view.order.find((c) => c.id === active)!.side).map((observerId) => ({ observerId })) }));
    else if (roll < 0.48 && active) tryApply(rolled({ type: 'NOTICE', targetId: other }));
    else if (roll < 0.56) tryApply({ type: 'APPLY_DAMAGE', targetId: other, amount: 1 + Math.floor(random() * 4), source: 'a rockfall' });
    else if (roll < 0.62) tryApply({ type: 'HEAL', targetId: other, amount: 1 + Math.floor(random() * 3), kind: 'other', source: 'a potion' });
    else if (roll < 0.64) tryApply({ type: 'SET_CAN_ACT', combatantId: other, canAct: random() < 0.5, note: '' });
    else if (roll < 0.65) tryApply({ type: 'REMOVE_COMBATANT', combatantId: other, reason: 'flees' });
    else if (roll < 0.66 && late < 4) late += tryApply({ type: 'ADD_LATE_COMBATANT', combatant: seed(`late${late}`, random() < 0.5 ? 'party' : 'gm') }) ? 1 : 0;
    else if (roll < 0.68) tryApply({ type: 'RAISE_ESCALATION', by: 1, source: '' });
    else tryApply({ type: 'END_TURN' });
  }
  tryApply({ type: 'END_COMBAT', outcome: 'the dust settles' });
  return snapshots;
}

/**
 * The same snapshot with a deep copy of its context, made through JSON as a stored snapshot is (a context's
 * combatant table is a Proxy, which structuredClone refuses): nothing in it was ever seen by the view before.
 */
const fresh = (snapshot: EncounterSnapshot): EncounterSnapshot => ({
  value: snapshot.value,
  context: JSON.parse(JSON.stringify(snapshot.context)) as EncounterSnapshot['context'],
  status: snapshot.status,
  matches: (value) => snapshot.matches(value),
  can: (event) => snapshot.can(event),
});

describe("Enigma's view", () => {
  const snapshots = [...randomFight(700, 7), ...randomFight(700, 1234)];

  it('plays a fight that reaches every kind of row and prompt the test means to cover', () => {
    const views = snapshots.map((s) => enigmaEncounter.view(s));
    const rows = views.flatMap((v) => v.order);
    expect(new Set(views.map((v) => v.phase))).toEqual(new Set(['setup', 'running', 'ended']));
    expect(new Set(views.map((v) => v.prompt?.kind ?? null))).toEqual(new Set([null, 'chooseNpc', 'mortalPeril']));
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['active', 'acted', 'waiting', 'unplaced', 'removed']));
    expect(rows.some((r) => r.tags.some((t) => t.startsWith('hidden from')))).toBe(true);
    expect(rows.some((r) => r.tags.includes('Mortal Peril'))).toBe(true);
    expect(rows.some((r) => (enigmaRowDetailsOf(r)?.injuries.length ?? 0) > 0)).toBe(true);
    expect(rows.some((r) => r.plannedSlot !== undefined && r.plannedSlot !== null)).toBe(true);
  });

  it('shows the same rows when they are kept from earlier views as when every row is built anew', () => {
    for (const snapshot of snapshots) expect(enigmaEncounter.view(snapshot)).toEqual(enigmaEncounter.view(fresh(snapshot)));
  });

  it('keeps the row of a combatant whose record, place (or planned slot) and peril did not change, and only then', () => {
    let kept = 0;
    for (const [i, snapshot] of snapshots.entries()) {
      if (i === 0) continue;
      const before = enigmaEncounter.view(snapshots[i - 1]!).order;
      const now = enigmaEncounter.view(snapshot).order;
      const ctxBefore = snapshots[i - 1]!.context as EnigmaContext;
      const ctxNow = snapshot.context as EnigmaContext;
      for (const row of now) {
        const was = before.find((r) => r.id === row.id);
        if (was === row) {
          kept += 1;
          expect(ctxNow.combatants[row.id]).toBe(ctxBefore.combatants[row.id]);
        } else if (was && ctxNow.combatants[row.id] === ctxBefore.combatants[row.id] && was.status === row.status && was.slot === row.slot && was.tags.includes('Mortal Peril') === row.tags.includes('Mortal Peril') && was.plannedSlot === row.plannedSlot) {
          throw new Error(`${row.name}'s row was built again though nothing it shows changed.`);
        }
      }
    }
    expect(kept).toBeGreaterThan(snapshots.length);
  });

  it('has a roster that agrees with the view on phase, round, order and the answer a prompt waits for', () => {
    for (const snapshot of snapshots) {
      const view = enigmaEncounter.view(snapshot);
      expect(enigmaEncounter.roster!(snapshot)).toEqual({ phase: view.phase, round: view.round, order: view.order, awaiting: view.prompt?.answer ?? null });
    }
  });
});
