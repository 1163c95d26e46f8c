// Cairn-Errant's log: the lines each GM event writes, and the consequences every event may cause (statuses changed,
// an order built, a moment opened, the end).
import type { EncounterSnapshot, GmEvent, LogLine } from '../../encounter/types.ts';
import { eventRound } from '../../encounter/log-round.ts';
import * as combat from './combat.ts';
import type { CombatEvent, Roll } from './combat.ts';
import type { CairnEvent } from './events.ts';
import { COMBAT_EVENTS } from './machine.ts';
import * as rules from './rules.ts';
import * as intents from './intents.ts';
import * as order from './order.ts';
import type { CairnContext } from './rules.ts';
import { counted } from '../../words.ts';
import * as attack from './attack.ts';
import * as moment from './moment.ts';
import * as damage from './damage.ts';
import { contextOf } from './events.ts';
import { addedSentence, names } from '../../encounter/roster.ts';
import { rulingsOf } from './options.ts';

// ---- the log ----

const faces = (roll: Roll | null | undefined) => (roll ? `[${roll.faces.join(', ')}]${roll.source === 'manual' ? ' (typed in)' : ''}` : '');
const BUCKET_LABEL: Record<rules.Moment['bucket'], string> = { pcPass: 'PCs who won the DEX save', npc: 'enemies', pcFail: 'PCs who lost the DEX save', clash: 'melee clash' };
const tierLabel = (tier: rules.Moment['tier']) => (tier === 'turn' ? 'turns' : tier);

export function momentLabel(ctx: CairnContext, index: number): string {
  const m = ctx.moments[index]!;
  const contested = m.bucket !== 'clash' && ctx.moments.some((o) => o.tier === m.tier && o.bucket === 'npc') && ctx.moments.some((o) => o.tier === m.tier && (o.bucket === 'pcPass' || o.bucket === 'pcFail'));
  const bucket = m.bucket === 'pcPass' && !contested ? 'PCs' : BUCKET_LABEL[m.bucket];
  return `${tierLabel(m.tier)}, ${bucket}`;
}

function intentLine(ctx: CairnContext, id: string): string {
  const intent = ctx.intents[id]!;
  return `${intents.describeIntent(ctx, intent)} — ${intent.tier} turn${intent.tierConfirmed ? ' (confirmed by the GM)' : ''}`;
}

function damageLine(before: CairnContext, after: CairnContext, id: string): string {
  const a = before.combatants[id]!;
  const b = after.combatants[id]!;
  const parts = [`HP ${a.hp}→${b.hp}`];
  if (b.str !== a.str) parts.push(`STR ${a.str}→${b.str}`);
  return `${b.name}: ${parts.join(', ')}`;
}

/** Source "All improvised weapons break after 1 attack": the log says so when this event broke one. */
const breaks = (before: CairnContext, after: CairnContext, id: string) =>
  !before.brokenImprovised?.includes(id) && after.brokenImprovised?.includes(id) ? ', the improvised weapon breaks' : '';

function strikeLine(event: Extract<CombatEvent, { type: 'STRIKE' }>, before: CairnContext, after: CairnContext): LogLine {
  const round = eventRound(before, after);
  const name = (id: string) => rules.nameOf(before, id);
  const plan = attack.planStrike(before, event.targetId);
  if (plan.dice.length === 0) {
    return { round, kind: 'attack', actorId: event.targetId, rulings: ['R-C9'], text: `Every attack on ${name(event.targetId)} is negated by the ${plan.defence.kind === 'block' ? 'Block' : 'Dodge'}: no damage.` };
  }
  const outcome = attack.resolveStrike(before, event.targetId, event.roll!);
  const target = before.combatants[event.targetId]!;
  const rulings = new Set(outcome.rulings);
  const each = outcome.totals.map((t) => {
    const spec = plan.attacks.find((a) => a.attackerId === t.attackerId)!;
    if (t.negated) return `${name(t.attackerId)}: ${spec.notes.join(', ')}`;
    const dice = spec.dice.map((d) => `d${d.size}`).join('+');
    const improvised = breaks(before, after, t.attackerId);
    return `${name(t.attackerId)} ${dice} [${t.faces.join(', ')}] → ${t.total}${spec.notes.length ? ` (${spec.notes.join(', ')})` : ''}${improvised}`;
  });
  const sentences = [`Damage on ${target.name}: ${each.join('; ')}.`];
  if (outcome.parry) {
    const p = outcome.parry;
    const armorNote = rulingsOf(before.options).parryIgnoresArmor ? 'Armor ignored' : 'after Armor';
    if (p.result === 'won') sentences.push(`Parry: ${target.name} ${p.ours} beats ${name(p.attackerId)} ${p.theirs}: ${p.damage} straight to ${name(p.attackerId)}'s STR (${armorNote}, no save).`);
    else if (p.result === 'lost') sentences.push(`Parry: ${name(p.attackerId)} ${p.theirs} beats ${target.name} ${p.ours}: ${p.damage} straight to ${target.name}'s STR (${armorNote}, no save).`);
    else sentences.push(`Parry: ${p.ours} against ${p.theirs}, twing! The weapons bounce off in a rain of sparks; no damage either way.`);
  }
  if (outcome.kept) {
    const k = outcome.kept;
    const from = k.attackerIds.length > 1 ? `tied between ${names(before, k.attackerIds)}` : `from ${name(k.attackerIds[0]!)}`;
    const keep = outcome.totals.filter((t) => !t.negated && t.attackerId !== outcome.parry?.attackerId).length > 1 ? 'keeps the highest, ' : '';
    const to = k.toStr ? ` straight to STR (${target.aware ? 'overburdened' : 'unaware'})` : '';
    sentences.push(`${keep}${k.total} ${from} − Armor ${target.armor} = ${k.damage}${to}.`);
    if (k.toStr) rulings.add('R-C13');
    const b = after.combatants[event.targetId]!;
    if (!k.toStr && b.hp === 0 && b.str === target.str && target.hp === k.damage) rulings.add('R-C21');
  }
  const touched = [event.targetId, ...(outcome.parry?.result === 'won' ? [outcome.parry.attackerId] : [])];
  sentences.push(`${touched.map((id) => damageLine(before, after, id)).join('; ')}.`);
  return { round, kind: 'attack', actorId: event.targetId, rulings: [...rulings], text: sentences.join(' ') };
}

/** The attack back after the gambit user's reaction (R-C17 option): dice, the reaction's effect, a Parry's comparison. */
function attackBackLine(step: Extract<rules.Step, { kind: 'attackBackStrike' }>, event: Extract<CombatEvent, { type: 'STRIKE' }>, before: CairnContext, after: CairnContext): LogLine {
  const name = (id: string) => rules.nameOf(before, id);
  const plan = attack.planAttackBack(before, step);
  const outcome = attack.resolveAttackBack(before, plan, event.roll);
  const rulings = ['R-C17'];
  if (outcome.total === null) return { round: eventRound(before, after), kind: 'attack', actorId: step.by, rulings, text: `${name(step.by)}'s attack back is ${plan.notes.join(', ')}: no damage.` };
  const attackFaces = event.roll!.faces.slice(0, plan.attack.length);
  const sentences = [`${name(step.by)} attacks back: ${plan.attack.map((d) => `d${d}`).join('+')} [${attackFaces.join(', ')}] → ${outcome.total}${plan.notes.length ? ` (${plan.notes.join(', ')})` : ''}.`];
  const p = outcome.parry;
  if (p) {
    rulings.push('R-C15');
    const armorNote = rulingsOf(before.options).parryIgnoresArmor ? 'Armor ignored' : 'after Armor';
    if (p.result === 'won') sentences.push(`Parry: ${name(step.against)} ${p.ours} beats ${p.theirs}: ${p.damage} straight to ${name(step.by)}'s STR (${armorNote}, no save).`);
    else if (p.result === 'lost') sentences.push(`Parry: ${p.theirs} beats ${name(step.against)}'s ${p.ours}: ${p.damage} straight to ${name(step.against)}'s STR (${armorNote}, no save).`);
    else sentences.push(`Parry: ${p.ours} against ${p.theirs}, twing! No damage either way.`);
  } else sentences.push(`${outcome.total} − ${name(step.against)}'s Armor ${before.combatants[step.against]!.armor} = ${outcome.damage}.`);
  const touched = p?.result === 'won' ? [step.by] : [step.against];
  sentences.push(`${touched.map((id) => damageLine(before, after, id)).join('; ')}.`);
  return { round: eventRound(before, after), kind: 'attack', actorId: step.by, rulings, text: sentences.join(' ') };
}

function combatLine(event: CombatEvent, before: CairnContext, after: CairnContext): LogLine | null {
  const round = eventRound(before, after);
  const name = (id: string | null | undefined) => rules.nameOf(before, id);
  const step = moment.nextStep(before);
  switch (event.type) {
    case 'REDIRECT': {
      const actor = step?.kind === 'redirect' ? step.actorId : null;
      return { round, kind: 'decision', actorId: actor, rulings: ['R-C4'], text: event.targetId === null ? `${name(actor)}'s target is gone: the action is lost.` : `${name(actor)}'s target is gone: the GM redirects the action to ${name(event.targetId)}.` };
    }
    case 'GAMBIT': {
      if (step?.kind !== 'gambit') return null;
      const target = before.combatants[step.targetId]!;
      const face = Math.max(...event.roll!.faces);
      const difficulty = attack.gambitDifficulty(face, before.options);
      const saveFace = event.saveRoll!.faces[0]!;
      const passes = attack.gambitSavePasses(saveFace, target[event.save], difficulty, before.options);
      const rulings = ['R-C19', ...(saveFace === 1 && difficulty > 0 ? ['R-C16'] : [])];
      const dc = difficulty ? `Difficulty ${difficulty}` : 'no Difficulty';
      const result = passes ? `passes: the gambit fails${moment.nextStep(after)?.kind === 'attackBack' ? ` and ${target.name} may attack back` : ''}` : 'fails: the gambit works';
      return { round, kind: 'attack', actorId: step.attackerId, rulings, text: `${name(step.attackerId)} tries a gambit on ${target.name}${before.intents[step.attackerId]!.note ? ` (${before.intents[step.attackerId]!.note})` : ''}: ${attack.gambitDice(before, step.attackerId).map((d) => `d${d}`).join('+')} ${faces(event.roll)} → ${face}, ${dc}. ${target.name}'s ${event.save.toUpperCase()} save ${faces(event.saveRoll)} against ${target[event.save]}${difficulty ? ` and above ${difficulty}` : ''}: ${result}.` };
    }
    case 'ATTACK_BACK': {
      if (step?.kind !== 'attackBack') return null;
      if (event.decision === 'decline') return { round, kind: 'decision', actorId: step.by, text: `${name(step.by)} does not attack back.` };
      if (moment.reactsToAttackBack(before, step.against)) return { round, kind: 'decision', actorId: step.by, rulings: ['R-C17'], text: `${name(step.by)} attacks ${name(step.against)} back; ${name(step.against)} may react first (the gambit user's reaction is allowed in this campaign).` };
      const total = Math.max(...event.roll!.faces);
      const armor = before.combatants[step.against]!.armor;
      return { round, kind: 'attack', actorId: step.by, rulings: ['R-C17'], text: `${name(step.by)} attacks back: ${attack.counterDice(before, step.by).map((d) => `d${d}`).join('+')} ${faces(event.roll)} → ${total} − Armor ${armor} = ${Math.max(0, total - armor)}; ${name(step.against)} cannot react. ${damageLine(before, after, step.against)}.` };
    }
    case 'DEFENSE': {
      if (step?.kind !== 'defence' && step?.kind !== 'attackBackDefence') return null;
      const defence = moment.defenceOf(event)!;
      const defenderId = step.kind === 'defence' ? step.targetId : step.against;
      const c = after.combatants[defenderId]!;
      const fatigue = moment.defenceFatigue(defence, before.options);
      const cost = fatigue ? ` (+1 Fatigue: ${c.fatigue} Fatigue, ${rules.slotsUsed(c)}/${rules.SLOTS} slots${rules.overburdened(c) ? ', overburdened' : ''})` : '';
      const what = {
        none: `${c.name} takes the attack without reacting`,
        block: `${c.name} blocks: fast and balanced attacks${rulingsOf(before.options).blockDodge === 'graded' && rules.blockGear(before, c) ? ' are negated' : ' become impaired'}`,
        dodge: `${c.name} dodges: balanced and slow attacks${rulingsOf(before.options).blockDodge === 'graded' && !rules.dodgeHampered(before, c) ? ' are negated' : ' become impaired'}`,
        fightBack: `${c.name} will fight back against ${name(defence.kind === 'fightBack' ? defence.attackerId : '')} once the incoming damage is taken`,
        parry: `${c.name} parries ${name(defence.kind === 'parry' ? defence.attackerId : '')}`,
      }[defence.kind];
      const rulings = defence.kind === 'parry' ? ['R-C8'] : defence.kind === 'none' ? [] : ['R-C9'];
      if ((defence.kind === 'block' || defence.kind === 'dodge') && rulingsOf(before.options).blockDodge !== 'default') rulings.push('R-C9');
      if (step.kind === 'attackBackDefence') rulings.unshift('R-C17');
      const against = step.kind === 'attackBackDefence' ? ` (against ${name(step.by)}'s attack back)` : '';
      return { round, kind: 'decision', actorId: defenderId, rulings: [...new Set(rulings)], text: `${what}${against}${cost}.` };
    }
    case 'STRIKE':
      if (step?.kind === 'attackBackStrike') return attackBackLine(step, event, before, after);
      return step?.kind === 'strike' ? strikeLine(event, before, after) : null;
    case 'TIE_BREAK':
      return { round, kind: 'decision', actorId: event.attackerId, rulings: ['R-C20'], text: `The highest dice are tied: the GM picks ${name(event.attackerId)}'s weapon, so only its tags and effects apply.` };
    case 'STR_SAVE': {
      if (step?.kind !== 'critSave') return null;
      const c = before.combatants[step.id]!;
      const { kept, passed } = order.saveResult(event.roll!.faces, c.str);
      const outcome = passed ? 'passes' : step.nonLethal ? `fails: ${c.name} is knocked unconscious (non-lethal)` : c.side === 'party' ? 'fails: critical damage' : `fails${rulingsOf(before.options).npcCriticalDamage === 'fightsOnImpaired' ? `: ${c.name} fights on, impaired (R-C23)` : ''}`;
      return { round, kind: 'decision', actorId: step.id, text: `${c.name}'s STR save against Critical Damage: d20 ${faces(event.roll)} → ${kept} against STR ${c.str}: ${outcome}.` };
    }
    case 'CRIT_D6': {
      const id = event.combatantId;
      const face = event.roll!.faces[0]!;
      const c = after.combatants[id]!;
      const result = damage.critD6Result(face);
      const text = result === 'dies' ? `${c.name} dies.` : result === 'incapacitated' ? `${c.name} is incapacitated and dies within the hour unless treated: the death clock starts at ${damage.DEATH_CLOCK_MINUTES} minutes of in-game time (TREAT stops it).` : `No. Not today: ${c.name} regains d4 ${faces(event.hpRoll)} HP (HP ${c.hp}).`;
      return { round, kind: 'decision', actorId: id, text: `Critical damage d6 ${faces(event.roll)}: ${text}` };
    }
    case 'HIT_LOCATION': {
      const id = event.combatantId;
      const face = event.roll!.faces[0]!;
      const where = damage.locationOf(face);
      const b = after.combatants[id]!;
      const a = before.combatants[id]!;
      const rulings: string[] = [];
      let effect = '';
      if (where.location === 'torso') effect = `loses another d4 ${faces(event.strRoll)} STR (STR ${a.str}→${b.str})`;
      else if (where.location === 'leftLeg' || where.location === 'rightLeg') {
        const twice = rules.legHits(b)[where.location === 'leftLeg' ? 'left' : 'right'] >= 2;
        effect = twice ? 'a second hit on the same leg: loses every initiative roll until it heals' : 'loses fast movement and the use of the leg; the next initiative DEX save is at disadvantage';
        rulings.push('R-C6', 'R-C6b');
      } else if (where.location === 'leftArm' || where.location === 'rightArm') effect = 'disarmed; loses the use of the arm (no dual wielding, no two-handed weapons)';
      else {
        effect = rulingsOf(before.options).headResult === 'gmDecides' ? 'most likely fatal: the GM decides' : 'most likely fatal: dies';
        rulings.push('R-C22');
      }
      return { round, kind: 'decision', actorId: id, rulings, text: `Hit location d10 ${faces(event.roll)}: ${where.name.replace(' injury', '').toLowerCase()}. ${b.name} ${effect}. ${where.name} added to the inventory (${rules.slotsUsed(b)}/${rules.SLOTS} slots).` };
    }
    case 'NPC_CRITICAL': {
      const id = step?.kind === 'npcCrit' ? step.id : null;
      const text = event.result === 'dead' ? 'is dead' : event.result === 'out' ? 'is out of the fight' : 'fights on, its attacks impaired and attacks against it likely enhanced';
      return { round, kind: 'decision', actorId: id, rulings: ['R-C23'], text: `Critical damage: ${name(id)} ${text}.` };
    }
    case 'HEAD_RESULT': {
      const id = step?.kind === 'head' ? step.id : null;
      return { round, kind: 'decision', actorId: id, rulings: ['R-C22'], text: event.result === 'dies' ? `The head hit is fatal: ${name(id)} dies.` : `Against the odds ${name(id)} survives the head hit.` };
    }
    case 'FIGHT_BACK': {
      if (step?.kind !== 'fightBack') return null;
      const total = Math.max(...event.roll!.faces);
      const armor = before.combatants[step.attackerId]!.armor;
      return { round, kind: 'attack', actorId: step.defenderId, text: `${name(step.defenderId)} fights back: ${attack.counterDice(before, step.defenderId).map((d) => `d${d}`).join('+')} ${faces(event.roll)} → ${total} − ${name(step.attackerId)}'s Armor ${armor} = ${Math.max(0, total - armor)}${breaks(before, after, step.defenderId)}; the attacker cannot react. ${damageLine(before, after, step.attackerId)}.` };
    }
    case 'RETREAT': {
      const c = before.combatants[event.combatantId]!;
      if (event.safePlace === false) return { round, kind: 'decision', actorId: event.combatantId, text: `${c.name} has no safe place to run to: the retreat cannot succeed, and the action is lost.` };
      const { kept, passed } = order.saveResult(event.roll!.faces, c.dex);
      return { round, kind: 'decision', actorId: event.combatantId, rulings: passed ? [] : ['R-C10'], text: `${c.name} tries to retreat: DEX save ${faces(event.roll)} → ${kept} against DEX ${c.dex}: ${passed ? `${c.name} gets away` : `fails; the action is wasted and ${c.name} stays in place`}.` };
    }
    case 'APPLY_DAMAGE': {
      const where = event.attribute ?? 'hp';
      const a = before.combatants[event.targetId]!;
      const b = after.combatants[event.targetId]!;
      const result = where === 'dex' ? `DEX ${a.dex}→${b.dex}` : where === 'wil' ? `WIL ${a.wil}→${b.wil}` : damageLine(before, after, event.targetId).replace(`${b.name}: `, '');
      return { round, kind: 'damage', actorId: event.targetId, rulings: where === 'str' ? ['R-C13'] : [], text: `${b.name} takes ${event.amount} ${where === 'hp' ? 'damage' : `${where.toUpperCase()} damage`}${event.nonLethal ? ' (non-lethal)' : ''}${event.source ? ` from ${event.source}` : ''}: ${result}.` };
    }
    case 'SET_AWARE':
      return { round, kind: 'decision', actorId: event.combatantId, rulings: ['R-C13'], text: event.aware ? `${name(event.combatantId)} is aware again.` : `The GM rules ${name(event.combatantId)} unaware: no defence, and damage after Armor goes straight to STR.` };
    case 'SET_BAND': {
      const c = before.combatants[event.combatantId]!;
      const from = c.band ? `${rules.bandLabel(c.band)} → ` : '';
      const reference = c.side === 'enemies' ? 'from the party' : 'from the nearest foe';
      const retiered = Object.keys(after.intents).filter((id) => before.intents[id] && after.intents[id]!.tier !== before.intents[id]!.tier);
      const changed = retiered.length ? ` ${retiered.map((id) => `${rules.nameOf(after, id)}'s intent is now a ${after.intents[id]!.tier} turn`).join('; ')}.` : '';
      return { round, kind: 'decision', actorId: event.combatantId, text: `${c.name} is ${from}${rules.bandLabel(event.band)} ${reference}.${changed}` };
    }
    case 'TREAT':
      return { round, kind: 'decision', actorId: event.combatantId, rulings: ['R-C27'], text: `${name(event.combatantId)} is treated${event.note ? ` (${event.note})` : ''}: the death clock stops${rulingsOf(before.options).treatedStaysOut ? `; ${name(event.combatantId)} stays out of the fight until healed` : ''}.` };
    case 'GAIN_WOUND': {
      const a = before.combatants[event.combatantId]!;
      const b = after.combatants[event.combatantId]!;
      const label = damage.WOUND_TYPES.find((t) => t.key === event.woundType)!.label;
      const changed = b.wounds.find((w) => !a.wounds.some((o) => o.id === w.id && o.severity === w.severity))!;
      const permanent = changed.severity === 'permanent' && changed.attribute ? ` ${changed.attribute.toUpperCase()} −1 (${b[changed.attribute]}/${b[`${changed.attribute}Max`]}); the slot is lost for good.` : '';
      const dropped = b.gearSlots < a.gearSlots ? ' An item is dropped to make room (R-C26).' : '';
      const what = event.choice === 'worsen' ? `${b.name}'s ${label} worsens to ${changed.severity}` : `${b.name} gains ${changed.severity} ${label}`;
      return { round, kind: 'damage', actorId: event.combatantId, rulings: dropped ? ['R-C26'] : [], text: `${what}${event.source ? ` (${event.source})` : ''}: ${rules.slotsUsed(b)}/${rules.SLOTS} slots.${permanent}${dropped}` };
    }
    case 'OVERRIDE': {
      if (event.field === 'skipPrompt') return { round, kind: 'decision', actorId: event.targetId, text: `GM override: the waiting question is set aside (${step ? combat.stepQuestion(before, step) : ''})${event.note ? ` — ${event.note}` : ''}.` };
      const label = { hp: 'HP', str: 'STR', dex: 'DEX', wil: 'WIL', fatigue: 'Fatigue', gearSlots: 'gear slots', armor: 'Armor' }[event.field];
      return { round, kind: 'decision', actorId: event.targetId, text: `GM override: ${name(event.targetId)}'s ${label} set to ${event.value}${event.note ? ` (${event.note})` : ''}.` };
    }
  }
}

function eventLine(event: GmEvent & CairnEvent, before: CairnContext, after: CairnContext): LogLine | null {
  const round = eventRound(before, after);
  if (COMBAT_EVENTS.has(event.type)) return combatLine(event as CombatEvent, before, after);
  switch (event.type) {
    case 'ADD_COMBATANTS': {
      return { round, kind: 'setup', text: addedSentence(event.combatants, [{ key: 'party', label: 'the party' }, { key: 'enemies', label: 'the enemies' }]) };
    }
    case 'REMOVE_COMBATANT': {
      const name = rules.nameOf(before, event.combatantId);
      if (before.phase === 'setup') return { round, kind: 'setup', text: `${name} was taken off the roster.` };
      return { round, kind: 'removal', actorId: event.combatantId, text: `${name} leaves the fight${event.reason ? ` (${event.reason})` : ''}.` };
    }
    case 'START': {
      // A PC carried in while dying: its death clock keeps running in in-game minutes (§4.4 step 10).
      const dying = before.roster.map((id) => before.combatants[id]!).filter((c) => c.deathClock !== null);
      const clocks = dying.map((c) => ` ${c.name} is dying: ${counted(c.deathClock!, 'minute')} left on the death clock unless treated.`).join('');
      return { round: 1, kind: 'round', rulings: ['R-C1'], text: `The fight begins (${rulingsOf(before.options).initiativeMode === 'simpleDex' ? 'base Cairn initiative: one DEX save at the start' : 'declared intents, quick turns before full turns'}).${clocks}` };
    }
    case 'DECLARE_INTENT':
    case 'SET_NPC_INTENT': {
      const c = after.combatants[event.combatantId]!;
      const rulings = rules.lostFastMovement(c) && (event.action === 'move' || event.action === 'retreat') ? ['R-C6b'] : [];
      const who = event.type === 'DECLARE_INTENT' ? `${c.name} declares` : `The Warden sets ${c.name}'s intent`;
      return { round, kind: 'order', actorId: event.combatantId, rulings, text: `${who}: ${intentLine(after, event.combatantId)}.` };
    }
    case 'TELEGRAPH':
      return { round, kind: 'order', actorId: event.combatantId, text: `The Warden telegraphs ${rules.nameOf(after, event.combatantId)}'s intent: “${event.text}”.` };
    case 'CONFIRM_TIER':
      return { round, kind: 'order', actorId: event.combatantId, text: `The GM classifies ${rules.nameOf(after, event.combatantId)}'s intent as a ${event.tier} turn.` };
    case 'LOCK_INTENTS': {
      const needed = order.pendingDexSaves(after);
      const auto = order.autoLosers(after);
      const text = [`Intents locked for round ${round}.`];
      if (needed.length) text.push(`DEX saves needed from ${names(after, needed)}.`);
      if (auto.length) text.push(`${names(after, auto)} ${auto.length === 1 ? 'loses' : 'lose'} the initiative without a roll (a leg hit twice).`);
      return { round, kind: 'order', rulings: ['R-C4', ...(auto.length ? ['R-C6'] : [])], text: text.join(' ') };
    }
    case 'DEX_SAVE': {
      const save = after.dexSaves[event.combatantId]!;
      const c = before.combatants[event.combatantId]!;
      const dice = save.disadvantage ? `2d20 with disadvantage ${faces(event.roll)} → ${save.kept}` : `d20 ${faces(event.roll)}`;
      return { round, kind: 'order', actorId: event.combatantId, rulings: save.disadvantage ? ['R-C6'] : [], text: `${c.name}'s initiative DEX save: ${dice} against DEX ${c.dex}: ${save.passed ? 'passes, acts before the enemies' : 'fails, acts after the enemies'}.` };
    }
    case 'END_TURN': {
      const open = moment.openActions(before);
      return { round, kind: 'turn', text: `The moment closes${open.length ? `: ${names(before, open)} ${open.length === 1 ? 'has' : 'have'} acted at the table` : ''}.` };
    }
    case 'ADD_LATE_COMBATANT':
      return { round, kind: 'order', actorId: event.combatant.id, text: `${event.combatant.name} joins the ${event.combatant.side === 'party' ? 'party' : 'enemies'}${before.phase === 'declare' ? ' and may declare this round' : ' and acts from the next round'}.` };
    case 'END_COMBAT':
      return { round, kind: 'end', rulings: ['R-C7'], text: `The fight ends${event.outcome ? `: ${event.outcome}` : ''}.` };
    default:
      return null;
  }
}

/** Lines every event may cause: statuses changed, an order built, a moment opened, a fight-back lost, the end. */
function consequenceLines(before: EncounterSnapshot, after: EncounterSnapshot, event: GmEvent): LogLine[] {
  const a = contextOf(before);
  const b = contextOf(after);
  const lines: LogLine[] = [];
  const round = b.round;
  for (const id of b.roster) {
    const x = a.combatants[id];
    const y = b.combatants[id]!;
    if (!x) continue;
    if (y.out?.kind === 'dead' && x.out?.kind !== 'dead') lines.push({ round, kind: 'damage', actorId: id, text: `${y.name} dies (${y.out.reason}).` });
    if (y.unconscious && !x.unconscious) lines.push({ round, kind: 'damage', actorId: id, text: `${y.name} is knocked unconscious.` });
    if (y.failedCriticalSave && !x.failedCriticalSave && rules.present(y) && !y.incapacitated && !y.unconscious) lines.push({ round, kind: 'damage', actorId: id, text: `${y.name} failed a Critical Damage save: its attacks are impaired from now on, and attacks against it are likely enhanced.` });
    if (rules.paralysed(y) && !rules.paralysed(x)) lines.push({ round, kind: 'damage', actorId: id, rulings: ['R-C24'], text: `${y.name} is at DEX 0: paralysed or knocked out.` });
    if (rules.delirious(y) && !rules.delirious(x)) lines.push({ round, kind: 'damage', actorId: id, rulings: ['R-C24'], text: `${y.name} is at WIL 0: delirious.` });
  }
  // R-C14: a fight-back that was waiting and is gone without being rolled.
  for (const step of a.moment.pending) {
    if (step.kind === 'fightBack' && event.type !== 'FIGHT_BACK' && event.type !== 'OVERRIDE' && !rules.canAct(b.combatants[step.defenderId], b.options) && !b.moment.pending.some((s) => s.kind === 'fightBack' && s.defenderId === step.defenderId)) {
      lines.push({ round, kind: 'decision', actorId: step.defenderId, rulings: ['R-C14'], text: `${rules.nameOf(b, step.defenderId)} is down: the fight-back does not happen.` });
    }
  }
  // Moments passed over in one go: their actors could no longer act, so their actions are lost.
  if (a.phase === 'resolve') {
    const end = b.round === a.round && b.phase === 'resolve' ? b.cursor : a.moments.length;
    for (let i = a.cursor + 1; i < end; i += 1) {
      const lost = a.moments[i]!.ids.filter((id) => !rules.canAct(b.combatants[id], b.options));
      if (lost.length) lines.push({ round: a.round, kind: 'turn', actorId: lost[0]!, text: `Moment ${i + 1} (${momentLabel(a, i)}): ${names(b, lost)} can no longer act; the action is lost.` });
    }
  }
  if (after.matches('ended')) {
    if (event.type !== 'END_COMBAT') lines.push({ round, kind: 'end', rulings: ['R-C7'], text: `The fight is over: ${b.outcome}` });
    return lines;
  }
  if (b.round !== a.round) lines.push({ round, kind: 'round', text: `Round ${round}: declare intents.` });
  if (b.phase === 'resolve' && (a.phase !== 'resolve' || a.round !== b.round)) {
    const board = b.moments.map((m, i) => `${i + 1}. ${momentLabel(b, i)}: ${names(b, m.ids)}`).join('; ');
    const rulings = ['R-C1', 'R-C5', ...(b.clashes.length ? ['R-C2', 'R-C3'] : [])];
    lines.push({ round, kind: 'order', rulings, text: `Order for round ${round}: ${board || 'nobody acts'}.` });
    for (const clash of b.clashes) {
      const second = clash.first === clash.a ? clash.b : clash.a;
      const why = { modifier: 'enhanced before normal before impaired', length: clash.entering ? 'entering Close, the longer weapon first' : 'already Close, the shorter weapon first', dex: 'tied, the DEX save decides' }[clash.decidedBy];
      lines.push({ round, kind: 'order', rulings: ['R-C2', 'R-C3'], text: `Melee clash: ${rules.nameOf(b, clash.first)} strikes before ${rules.nameOf(b, second)} (${why}).` });
    }
  }
  const opened = b.phase === 'resolve' && (a.phase !== 'resolve' || a.cursor !== b.cursor || a.round !== b.round);
  if (opened && b.moments[b.cursor]) {
    const m = b.moments[b.cursor]!;
    const lost = m.ids.filter((id) => !rules.canAct(b.combatants[id], b.options));
    lines.push({ round, kind: 'turn', actorId: m.ids[0] ?? null, rulings: m.ids.length > 1 ? ['R-C1', 'R-C5'] : [], text: `Moment ${b.cursor + 1} of ${b.moments.length} (${momentLabel(b, b.cursor)}): ${m.ids.map((id) => `${rules.nameOf(b, id)} ${intents.describeIntent(b, b.intents[id]!)}`).join('; ')}.${lost.length ? ` ${names(b, lost)} can no longer act.` : ''}` });
  }
  return lines;
}

export function describe(raw: GmEvent, before: EncounterSnapshot, after: EncounterSnapshot): LogLine[] {
  const line = eventLine(raw as GmEvent & CairnEvent, contextOf(before), contextOf(after));
  return [...(line ? [line] : []), ...consequenceLines(before, after, raw)];
}
