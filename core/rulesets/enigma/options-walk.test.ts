// Every option changes behaviour (issue 27): for each ruling Enigma declares in options.ts and each value other than
// the digest's default, a short case played through the public API (the encounter engine or the campaign ledger)
// ends differently from the same case under the default. The cases are keyed by option: a new option without a
// case, or an option the engine ignores, turns this suite red.
import { describe, expect, it } from 'vitest';
import { EncounterEngine } from '../../encounter/kernel.ts';
import type { CombatantSeed, GmEvent } from '../../encounter/types.ts';
import { applyEvent } from '../../ledger/testing.ts';
import type { CampaignWorld, LedgerCharacter, LedgerRecord } from '../../ledger/types.ts';
import { defaultOptions, otherValues, resolveOptions, type OptionValues } from '../options.ts';
import { normalizeSheet } from '../sheet.ts';
import { enigmaEncounter, perilDetailsOf } from './encounter.ts';
import { rowDetails } from './testing.ts';
import { enigmaRecovery } from './ledger.ts';
import { enigmaOptions } from './options.ts';
import type { EnigmaContext } from './rules.ts';
import { enigmaSheet } from './sheet.ts';

// ---- the encounter, as the runner drives it ----

type Dice = Partial<Record<'endure' | 'navigate' | 'glean' | 'attack' | 'influence' | 'manifest', number>>;
const seed = (id: string, side: 'party' | 'gm', dice: Dice = {}, extra: Partial<CombatantSeed> = {}): CombatantSeed => ({
  id, name: id[0]!.toUpperCase() + id.slice(1), side, characterId: null,
  sheet: { endure: 8, navigate: 8, glean: 8, attack: 8, influence: 8, manifest: 8, namedNpc: false, armoured: false, notes: '', ...dice },
  ...extra,
});
const app = (...faces: number[]) => ({ faces, source: 'app' as const });

function engine(options: OptionValues, carried: number | null = null): EncounterEngine {
  return EncounterEngine.create(enigmaEncounter, { options: { ...defaultOptions(enigmaOptions), ...options }, carried: { escalation: carried } });
}

/** A fight already running: the party's hero acts first against a goblin (or the seeds given). */
function fight(options: OptionValues, seeds: CombatantSeed[] = [seed('hero', 'party', { endure: 10 }), seed('goblin', 'gm')], carried: number | null = null) {
  const e = engine(options, carried);
  e.apply({ type: 'ADD_COMBATANTS', combatants: seeds });
  e.apply({ type: 'START' });
  return e;
}
const ctx = (e: EncounterEngine) => e.snapshot.context as EnigmaContext;
const who = (e: EncounterEngine, id: string) => ctx(e).combatants[id]!;

/** The refusal sentence, or 'accepted'. */
function tryApply(e: EncounterEngine, event: GmEvent): string {
  try {
    e.apply(event);
    return 'accepted';
  } catch (error) {
    return (error as Error).message;
  }
}

const melee = (attack: number, defence: number, extra: Record<string, unknown> = {}): GmEvent => ({
  type: 'ATTACK', attackerId: 'hero', targetId: 'goblin', mode: 'melee', sight: 'clear', damage: 'full', attackRoll: app(attack), defenceRoll: app(defence), ...extra,
});

/** A PC at 0 LP answering Mortal Peril with Survive, as often as the list says, each with the injury given. */
function survives(options: OptionValues, injuries: ({ category: string; baseRoll: number } | null)[]) {
  const e = fight(options);
  for (const injury of injuries) {
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'hero', amount: 20, source: 'cave-in' });
    e.apply({ type: 'RESOLVE_PERIL', combatantId: 'hero', choice: 'survive', costText: 'a scar', ...(injury ? { injury: { mode: 'new', name: 'Hurt', ...injury } } : {}) });
  }
  return who(e, 'hero');
}

// ---- the campaign ledger (recovery between fights) ----

function injuryRecord(id: string, category: string, restsRemaining: number): LedgerRecord {
  return {
    id, characterId: 'b', name: id, category,
    data: { id: `inj-${id}`, name: id, category, baseRoll: Math.min(4, restsRemaining), multiplier: 1, restsRemaining, permanent: false, cureCondition: null, notes: '' },
    dayGained: 1,
  };
}
const member = (id: string, name: string, state: Record<string, unknown> = {}, records: LedgerRecord[] = []): LedgerCharacter => ({
  id, name, role: 'pc', sheet: normalizeSheet(enigmaSheet, {}), state, records,
});
const allD8 = { endure: 8, navigate: 8, glean: 8, attack: 8, influence: 8, manifest: 8 };
function world(options: OptionValues, records: LedgerRecord[] = []): CampaignWorld {
  const berrik = member('b', 'Berrik', { lp: 4, dice: { ...allD8, glean: 4 }, healingRestriction: null }, records);
  return { day: 3, options: resolveOptions(enigmaOptions, options), party: { escalation: 3 }, characters: [berrik, member('l', 'Lotty')] };
}
const treat = (recordId: string) => ({ type: 'STITCHER_TREAT', characterId: 'b', recordId, stitcherId: 'l', healingKind: 'natural' });

// ---- one case per option: the outcome it plays to under the given options ----

const CASES: Record<string, (options: OptionValues) => unknown> = {
  // R-E1: an NPC order up front is accepted, or refused when every enemy is picked at its slot.
  npcChoice: (o) => {
    const e = engine(o);
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('hero', 'party'), seed('goblin', 'gm'), seed('orc', 'gm')] });
    return tryApply(e, { type: 'SET_GM_ORDER', ids: ['orc', 'goblin'] });
  },
  // R-E2: who takes the first slot after the GM asks for an ambush.
  ambushStartsWithGm: (o) => {
    const e = engine(o);
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('hero', 'party'), seed('goblin', 'gm')] });
    tryApply(e, { type: 'SET_FIRST_SIDE', side: 'gm' });
    e.apply({ type: 'START' });
    return e.view().activeId;
  },
  // R-E4: a late arrival placed first in round 2.
  lateArrivalPosition: (o) => {
    const e = fight(o);
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'END_TURN' });
    tryApply(e, { type: 'ADD_LATE_COMBATANT', combatant: seed('ally', 'party'), position: 0 });
    return ctx(e).order;
  },
  // R-E6: a second reaction before the goblin's turn.
  reactionDebtCap: (o) => {
    const e = fight(o);
    e.apply({ type: 'USE_REACTION', reactorId: 'goblin', power: 'Snap' });
    return tryApply(e, { type: 'USE_REACTION', reactorId: 'goblin', power: 'Snap' });
  },
  // R-E7: what a full-action power leaves of the turn.
  fullActionCost: (o) => {
    const e = fight(o);
    e.apply({ type: 'USE_POWER', power: 'Thunder', cost: 1, fullAction: true });
    return e.view().turn!.actionsLeft;
  },
  // R-E8: an ordinary NPC brought to 0 LP.
  npcAtZero: (o) => {
    const e = fight(o);
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'goblin', amount: 20, source: 'fall' });
    return [who(e, 'goblin').removed?.kind ?? null, ctx(e).pendingPeril];
  },
  // R-E10: the spotlight order the runner offers.
  spotlightOrder: (o) => fight(o).view().aside ?? null,
  // R-E11: 9 spaces and 2 pauses with a speed of 10.
  pauseCostsSpace: (o) => tryApply(fight(o, [seed('hero', 'party', { navigate: 10 }), seed('goblin', 'gm')]), { type: 'MOVE', spaces: 9, pauses: 2 }),
  // R-E14: an attack roll that ties the defence.
  opposedTies: (o) => {
    const e = fight(o);
    e.apply(melee(3, 4)); // 3 + Escalation 1 = 4 against 4: a tie
    return who(e, 'goblin').lp;
  },
  // R-E15: half Escalation at level 3.
  halfEscalationRounding: (o) => {
    const e = fight(o, undefined, 3);
    e.apply(melee(8, 1, { damage: 'half' }));
    return who(e, 'goblin').lp;
  },
  // R-E16: a ranged hit at Escalation 3.
  rangedDamage: (o) => {
    const e = fight(o, undefined, 3);
    e.apply(melee(8, 1, { mode: 'ranged', distance: 4, attackRoll: app(8) }));
    return who(e, 'goblin').lp;
  },
  // R-E17: the hidden hero attacks: is the goblin still unaware of it?
  attackRevealsHidden: (o) => {
    const e = fight(o);
    e.apply({ type: 'HIDE', navigateRoll: app(8), observers: [{ observerId: 'goblin', gleanRoll: app(1) }] });
    e.apply(melee(8, 1));
    return who(e, 'hero').hiddenFrom;
  },
  // R-E18: a check that meets its difficulty exactly.
  fixedDifficulty: (o) => fight(o).apply({ type: 'CHECK', actorId: 'hero', capacity: 'navigate', difficulty: 7, cost: 0, description: 'leap', roll: app(7) })[0]!.text,
  // R-E20: the Escalation of round 1 when the party carries 3.
  escalationAtStart: (o) => fight(o, undefined, 3).view().counters[0]!.value,
  // R-E21: max LP of a PC whose Endure die is diminished to d6.
  maxLpDie: (o) => fight(o, [seed('hero', 'party', { endure: 10 }, { carried: { dice: { endure: 6 } } }), seed('goblin', 'gm')]).view().order.find((c) => c.id === 'hero')!.health!.max,
  // R-E22: LP after Survive with max LP 7 (an LP injury).
  surviveLp: (o) => survives(o, [{ category: 'maxLp', baseRoll: 1 }]).lp,
  // R-E23: the fourth Survive's injury multiplier.
  injuryMultiplier: (o) => survives(o, [null, null, null, { category: 'speed', baseRoll: 2 }]).injuries.map((i) => i.multiplier),
  // R-E25: an injury on the second Survive when the first gave none.
  survivalCount: (o) => survives(o, [null, { category: 'speed', baseRoll: 3 }]).injuries.map((i) => i.restsRemaining),
  // R-E27: the Mortal Peril prompt's d10 name roll follows the campaign's reading.
  manifestRollOfTen: (o) => {
    const e = fight(o);
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'hero', amount: 20, source: 'cave-in' });
    return perilDetailsOf(e.view().prompt)!.manifestRollOfTen;
  },
  // R-E28: speed with two Speed injuries.
  injuryStacking: (o) => {
    const ankle = (id: string) => ({ id, name: 'Ankle', category: 'speed', baseRoll: 1, multiplier: 1, restsRemaining: 1, permanent: false, cureCondition: null, notes: '' });
    const e = fight(o, [seed('hero', 'party', {}, { carried: { injuries: [ankle('i1'), ankle('i2')] } }), seed('goblin', 'gm')]);
    return rowDetails(e, 'hero').speed;
  },
  // R-E29: a Breather on a Glean die diminished to d4 (base d8).
  breatherDieSteps: (o) => applyEvent(enigmaRecovery, world(o), { type: 'BREATHER', characterId: 'b', raise: 'glean' }).world.characters[0]!.state['dice'],
  // R-E30: the same Stitcher treats a second injury the same day.
  stitcherSeveralInjuries: (o) => {
    const w = world(o, [injuryRecord('ankle', 'speed', 3), injuryRecord('ribs', 'endure', 2)]);
    const treated = applyEvent(enigmaRecovery, w, treat('ankle')).world;
    try {
      return applyEvent(enigmaRecovery, treated, treat('ribs')).log;
    } catch (error) {
      return (error as Error).message;
    }
  },
  // R-E31: two days pass with a running injury.
  restsAreDays: (o) => enigmaRecovery.daysPassed!(world(o, [injuryRecord('ankle', 'speed', 3)]), 2)?.log ?? null,
};

/** Every value of an option other than its default. */
describe('every Enigma option changes behaviour (issue 27)', () => {
  it('has a case for every option it declares, and none for an option it does not', () => {
    expect(Object.keys(CASES).sort()).toEqual(enigmaOptions.map((o) => o.key).sort());
  });

  for (const option of enigmaOptions) {
    for (const value of otherValues(option)) {
      it(`${option.ruling} ${option.key} = ${String(value)} plays differently from ${String(option.default)}`, () => {
        const play = CASES[option.key];
        expect(play, `no case for ${option.key}`).toBeDefined();
        expect(play!({ [option.key]: value })).not.toEqual(play!({}));
      });
    }
  }
});
