// Cairn-Errant's encounter rules as the kernel sees them: refusals, the rolls an event needs, what the fight leaves on
// the campaign, and the definition composing the event schema (events.ts), the log (log.ts) and the view (view.ts).
import * as z from 'zod';
import type { Consequences, EncounterRules, EncounterSnapshot, GmEvent, RollRequest } from '../../encounter/types.ts';
import * as combat from './combat.ts';
import type { CombatEvent } from './combat.ts';
import * as events from './events.ts';
import { contextOf, eventSchema, type CairnEvent } from './events.ts';
import { upcastCairnEvent } from './upcast.ts';
import { COMBAT_EVENTS, cairnErrantMachine } from './machine.ts';
import * as rules from './rules.ts';
import * as order from './order.ts';
import * as attack from './attack.ts';
import * as moment from './moment.ts';
import * as damage from './damage.ts';
import { describe } from './log.ts';
import { view } from './view.ts';
import { joinRecords, recordsOf, type InjuryRecord } from '../../encounter/records.ts';

// ---- refusals ----

const SETUP_EVENTS = new Set(['ADD_COMBATANTS', 'START']);

function refusal(snapshot: EncounterSnapshot, raw: GmEvent): string | null {
  const event = raw as GmEvent & CairnEvent;
  const ctx = contextOf(snapshot);
  if (snapshot.matches('ended')) return 'This encounter has ended.';
  if (SETUP_EVENTS.has(event.type) && !snapshot.matches('setup')) return event.type === 'ADD_COMBATANTS' ? 'The fight has started: add newcomers as late arrivals.' : 'The fight has already started.';
  if (!SETUP_EVENTS.has(event.type) && event.type !== 'REMOVE_COMBATANT' && snapshot.matches('setup')) return 'Start the fight first.';
  if (COMBAT_EVENTS.has(event.type)) return combat.combatRefusal(ctx, event as CombatEvent);
  if (event.type === 'END_TURN') return combat.closeMomentRefusal(ctx);
  return events.eventRefusal(ctx, event);
}

// ---- rolls an event needs (the app rolls them, or the GM types the faces) ----

/** A roll request; mixed dice (d8 + d6 + d12) list each die's sides in order, so typed faces are checked one by one. */
const request = (path: (string | number)[], label: string, sizes: number[], keepWorse = false): RollRequest => ({
  path, label, notation: keepWorse ? `${sizes.length}d20kh1` : attack.notation(sizes), count: sizes.length, sides: Math.max(...sizes),
  ...(new Set(sizes).size > 1 ? { dice: [...sizes] } : {}),
});

function rollsFor(snapshot: EncounterSnapshot, raw: GmEvent): RollRequest[] {
  const ctx = contextOf(snapshot);
  const event = raw as GmEvent & CairnEvent;
  const step = moment.nextStep(ctx);
  const name = (id: string) => rules.nameOf(ctx, id);
  try {
    switch (event.type) {
      case 'DEX_SAVE': {
        const c = ctx.combatants[event.combatantId];
        if (!c || !order.pendingDexSaves(ctx).includes(event.combatantId)) return [];
        const dice = order.dexSaveDice(c);
        return [request(['roll'], `${c.name}: DEX save (d20 ≤ ${c.dex}${dice.length === 2 ? ', disadvantage' : ''})`, dice, dice.length === 2)];
      }
      case 'STR_SAVE':
        return step?.kind === 'critSave' ? [request(['roll'], `${name(step.id)}: STR save (d20 ≤ ${ctx.combatants[step.id]!.str})`, [20])] : [];
      case 'CRIT_D6':
        return step?.kind === 'critTable' ? [request(['roll'], `${name(step.id)}: critical damage d6`, [6]), request(['hpRoll'], 'HP regained on a 6', [4])] : [];
      case 'HIT_LOCATION':
        return step?.kind === 'critTable' ? [request(['roll'], `${name(step.id)}: hit location d10`, [10]), request(['strRoll'], 'STR lost on a torso hit', [4])] : [];
      case 'GAMBIT':
        return step?.kind === 'gambit'
          ? [request(['roll'], `${name(step.attackerId)}: gambit roll`, attack.gambitDice(ctx, step.attackerId)), request(['saveRoll'], `${name(step.targetId)}: ${event.save.toUpperCase()} save`, [20])]
          : [];
      case 'ATTACK_BACK':
        // R-C17 option: when the gambit user may react, the attack back is rolled after its reaction (STRIKE).
        return step?.kind === 'attackBack' && event.decision === 'strike' && !moment.reactsToAttackBack(ctx, step.against) ? [request(['roll'], `${name(step.by)}: attack back`, attack.counterDice(ctx, step.by))] : [];
      case 'STRIKE': {
        if (step?.kind === 'attackBackStrike') {
          const plan = attack.planAttackBack(ctx, step);
          if (plan.dice.length === 0) return [];
          const parts = [`${name(step.by)} ${plan.attack.map((d) => `d${d}`).join('+')}`, ...(plan.parry ? [`${name(step.against)}'s parry ${plan.parry.map((d) => `d${d}`).join('+')}`] : [])];
          return [request(['roll'], `Attack back on ${name(step.against)}: ${parts.join(', ')}`, plan.dice)];
        }
        if (step?.kind !== 'strike') return [];
        const plan = attack.planStrike(ctx, step.targetId);
        if (plan.dice.length === 0) return [];
        const parts = [...plan.attacks.filter((a) => !a.negated).map((a) => `${name(a.attackerId)} ${a.dice.map((d) => `d${d.size}`).join('+')}`), ...(plan.parry ? [`${name(step.targetId)}'s parry ${plan.parry.dice.map((d) => `d${d}`).join('+')}`] : [])];
        return [request(['roll'], `Damage on ${name(step.targetId)}: ${parts.join(', ')}`, plan.dice)];
      }
      case 'FIGHT_BACK':
        return step?.kind === 'fightBack' ? [request(['roll'], `${name(step.defenderId)}: fight back`, attack.counterDice(ctx, step.defenderId))] : [];
      case 'RETREAT':
        return ctx.combatants[event.combatantId] && event.safePlace !== false ? [request(['roll'], `${name(event.combatantId)}: DEX save to retreat (d20 ≤ ${ctx.combatants[event.combatantId]!.dex})`, [20])] : [];
      default:
        return [];
    }
  } catch {
    return [];
  }
}

// ---- what the fight leaves behind (§4.6) ----

const strip = <T extends { gainedHere?: boolean }>(record: T): Omit<T, 'gainedHere'> => {
  const { gainedHere: _gained, ...rest } = record;
  return rest;
};

const injuryRecord = (characterId: string, i: rules.HitInjury): InjuryRecord => ({ key: i.id, characterId, name: i.name, category: 'injury', data: { ...strip(i) } });
const woundRecord = (characterId: string, w: rules.Wound): InjuryRecord => ({
  key: w.id, characterId, name: `${w.severity[0]!.toUpperCase()}${w.severity.slice(1)} ${damage.WOUND_TYPES.find((t) => t.key === w.type)!.label}`, category: 'wound', data: { ...strip(w) },
});

/** A PC's records of the Injuries and wounds it gained in this fight. */
function gainedRecords(c: rules.CairnCombatant): (readonly InjuryRecord[])[] {
  const owner = `${c.id} ${c.characterId}`;
  return [
    recordsOf(c.injuries, owner, (i) => (i.gainedHere ? injuryRecord(c.characterId!, i) : null)),
    recordsOf(c.wounds, owner, (w) => (w.gainedHere ? woundRecord(c.characterId!, w) : null)),
  ];
}

function consequences(snapshot: EncounterSnapshot): Consequences {
  const ctx = contextOf(snapshot);
  const pcs = ctx.roster.map((id) => ctx.combatants[id]!).filter((c) => c.side === 'party' && c.characterId !== null);
  const injuries = joinRecords(ctx.roster, pcs.flatMap(gainedRecords));
  if (!snapshot.matches('ended')) return { injuries, carry: null, party: null };
  return {
    injuries,
    carry: pcs.map((c) => ({
      characterId: c.characterId!,
      state: {
        hp: c.hp, str: c.str, strMax: c.strMax, dex: c.dex, dexMax: c.dexMax, wil: c.wil, wilMax: c.wilMax,
        fatigue: c.fatigue, gearSlots: c.gearSlots, nextInitiativeDisadvantage: c.nextInitiativeDisadvantage, failedCriticalSave: c.failedCriticalSave,
        incapacitated: c.incapacitated, deathClockMinutes: c.deathClock ?? 0, treated: c.treated, unconscious: c.unconscious,
        ...(c.out?.kind === 'dead' ? { dead: true } : {}),
      },
    })),
    party: {},
  };
}

const CARRIED_NUMBERS = ['hp', 'str', 'strMax', 'dex', 'dexMax', 'wil', 'wilMax', 'fatigue', 'gearSlots', 'deathClockMinutes'] as const;
const CARRIED_FLAGS = ['nextInitiativeDisadvantage', 'failedCriticalSave', 'incapacitated', 'treated', 'unconscious'] as const;

/** The `carried` part of a seed: the stored condition, and the running Injuries and wounds (a worsened wound replaces the one it supersedes). */
function carriedIn(state: Record<string, unknown>, records: Record<string, unknown>[]): Record<string, unknown> {
  const carried: Record<string, unknown> = {};
  for (const key of CARRIED_NUMBERS) if (typeof state[key] === 'number') carried[key] = state[key];
  for (const key of CARRIED_FLAGS) if (typeof state[key] === 'boolean') carried[key] = state[key];
  const superseded = new Set(records.map((r) => r['supersedes']).filter((id): id is string => typeof id === 'string'));
  const live = records.filter((r) => !superseded.has(String(r['id'])));
  const injuries = live.filter((r) => r['kind'] === 'injury');
  const wounds = live.filter((r) => r['kind'] === 'wound');
  if (injuries.length) carried['injuries'] = injuries;
  if (wounds.length) carried['wounds'] = wounds;
  return carried;
}

export const cairnErrantEncounter: EncounterRules = {
  // RULES.md §4.5.
  conditionNames: ['Impaired', 'Enhanced', 'Unaware', 'Paralysed', 'Delirious', 'Unconscious'],
  machine: cairnErrantMachine,
  eventSchema: eventSchema as unknown as z.ZodType<GmEvent>,
  sides: rules.SIDES,
  refusal,
  describe,
  view,
  rollsFor,
  upcast: upcastCairnEvent,
  consequences,
  carriedIn,
};
