// Cairn-Errant's runner view: rows, statuses, the waiting prompt, the events allowed now.
import type { CombatantView, EncounterSnapshot, EncounterView, PromptChoice } from '../../encounter/types.ts';
import * as combat from './combat.ts';
import { ANYTIME_TYPES } from './machine.ts';
import * as rules from './rules.ts';
import * as intents from './intents.ts';
import * as order from './order.ts';
import type { CairnCombatant, CairnContext, Wound } from './rules.ts';
import * as moment from './moment.ts';
import * as damage from './damage.ts';
import { contextOf } from './events.ts';
import { momentLabel } from './log.ts';
import { names, plural } from '../../encounter/roster.ts';
import { rulingsOf } from './options.ts';

// ---- the runner's view ----

function statusTags(c: CairnCombatant): string[] {
  const tags: string[] = [];
  if (c.out) tags.push(c.out.kind === 'retreated' ? 'retreated' : c.out.kind === 'dead' ? 'dead' : c.out.kind === 'defeated' ? 'defeated' : 'gone');
  if (c.incapacitated) tags.push(c.deathClock !== null ? `incapacitated: dies in ${c.deathClock} min unless treated` : 'incapacitated (treated)');
  if (c.unconscious) tags.push('unconscious');
  if (rules.paralysed(c)) tags.push('paralysed');
  if (rules.delirious(c)) tags.push('delirious');
  if (!c.aware) tags.push('unaware');
  if (rules.overburdened(c)) tags.push('overburdened: cannot defend');
  if (c.failedCriticalSave && !c.out) tags.push('impaired attacks; attacks against: likely enhanced');
  if (rules.losesInitiative(c)) tags.push('loses every initiative roll');
  else if (c.nextInitiativeDisadvantage) tags.push('next initiative save at disadvantage');
  if (rules.lostFastMovement(c)) tags.push('no fast movement');
  if (rules.anyArmLost(c)) tags.push('an arm lost: no dual or two-handed weapons');
  if (c.fatigue) tags.push(`${plural(c.fatigue, 'Fatigue')}`);
  return tags;
}

/** A wound as the row shows it: "Light burns", "Permanent nerve damage (WIL −1)". */
const woundTag = (w: Wound) => {
  const label = `${w.severity[0]!.toUpperCase()}${w.severity.slice(1)} ${damage.WOUND_TYPES.find((t) => t.key === w.type)!.label}`;
  return w.severity === 'permanent' && w.attribute ? `${label} (${w.attribute.toUpperCase()} −1)` : label;
};

function combatantView(ctx: CairnContext, id: string, status: CombatantView['status'], slot: number | null): CombatantView {
  const c = ctx.combatants[id]!;
  const intent = ctx.intents[id];
  const tags: string[] = [];
  if (intent) tags.push(`${intent.tier}: ${intents.describeIntent(ctx, intent)}`);
  if (ctx.telegraphs[id]) tags.push(`telegraphed: “${ctx.telegraphs[id]}”`);
  const clash = ctx.clashes.find((x) => x.a === id || x.b === id);
  if (clash) tags.push(`clash with ${rules.nameOf(ctx, clash.a === id ? clash.b : clash.a)}: strikes ${clash.first === id ? 'first' : 'second'}`);
  const save = ctx.dexSaves[id];
  if (save) tags.push(save.auto ? 'initiative lost (leg)' : `DEX save ${save.kept}: ${save.passed ? 'before' : 'after'} the enemies`);
  if (ctx.moment.lost.includes(id) && ctx.moments[ctx.cursor]?.ids.includes(id)) tags.push('action lost');
  if (rules.disarmedNow(ctx, id)) tags.push('disarmed this round: unarmed d4');
  tags.push(...statusTags(c));
  // Every open Injury and wound it carries (in from the campaign or gained here) is on its row: each takes a slot.
  // Tags are keys on the row: the same record twice is one tag with its count ("Light burns ×2").
  const records = new Map<string, number>();
  for (const label of [...c.injuries.map((i) => i.name), ...c.wounds.map(woundTag)]) records.set(label, (records.get(label) ?? 0) + 1);
  for (const [label, count] of records) tags.push(count > 1 ? `${label} ×${count}` : label);
  return {
    id,
    name: c.name,
    side: c.side,
    sideLabel: rules.sideLabel(c.side),
    status,
    slot,
    health: { label: 'HP', current: c.hp, max: c.hpMax },
    tags,
    stats: [
      { label: 'STR', value: `${c.str}/${c.strMax}` }, { label: 'DEX', value: `${c.dex}/${c.dexMax}` }, { label: 'WIL', value: `${c.wil}/${c.wilMax}` },
      { label: 'Armor', value: String(c.armor) }, { label: 'Fatigue', value: String(c.fatigue) }, { label: 'Slots', value: `${rules.slotsUsed(c)}/${rules.SLOTS}` },
      ...(intent ? [{ label: 'Turn', value: intent.tier }] : []),
      ...(c.band ? [{ label: 'Band', value: rules.bandLabel(c.band) }] : []),
      ...(c.deathClock !== null ? [{ label: 'Death clock', value: `${c.deathClock} min` }] : []),
    ],
    ...(c.out ? { removedReason: c.out.reason, ...(c.out.kind === 'dead' ? { dead: true } : c.out.kind === 'defeated' ? { defeated: true } : {}) } : {}),
  };
}

function activeOf(snapshot: EncounterSnapshot): string | null {
  const ctx = contextOf(snapshot);
  const step = moment.nextStep(ctx);
  if (step) {
    switch (step.kind) {
      case 'redirect': return step.actorId;
      case 'gambit': return step.attackerId;
      case 'defence': case 'strike': return step.attackers[0] ?? step.targetId;
      case 'attackBack': case 'attackBackDefence': case 'attackBackStrike': return step.by;
      case 'fightBack': return step.defenderId;
      default: return 'id' in step ? step.id : step.targetId;
    }
  }
  return ctx.phase === 'resolve' ? moment.openActions(ctx)[0] ?? null : null;
}

function prompt(ctx: CairnContext): EncounterView['prompt'] {
  if (ctx.phase === 'order' && !ctx.moment.pending.length) {
    const pending = order.pendingDexSaves(ctx);
    if (!pending.length) return null;
    return {
      kind: 'dexSaves',
      text: `Initiative: ${names(ctx, pending)} ${pending.length === 1 ? 'rolls a DEX save' : 'roll DEX saves'} to act before or after the enemies.`,
      answer: 'DEX_SAVE',
      choices: pending.map((id) => ({ id, label: `${rules.nameOf(ctx, id)}: DEX ${ctx.combatants[id]!.dex}${ctx.combatants[id]!.nextInitiativeDisadvantage ? ' (disadvantage)' : ''}`, answer: { combatantId: id } })),
    };
  }
  const step = moment.nextStep(ctx);
  if (!step) return null;
  const answer = combat.answerOf(ctx, step);
  const text = combat.stepQuestion(ctx, step);
  /** The one button of a roll step: it names whom the roll is about (`field`: the answering event's field for it). */
  const one = (field: string, id: string, label: string): PromptChoice[] => [{ id, label, answer: { [field]: id } }];
  switch (step.kind) {
    case 'redirect': {
      const actor = ctx.combatants[step.actorId]!;
      const targets = ctx.roster.filter((id) => rules.present(ctx.combatants[id]) && ctx.combatants[id]!.side !== actor.side);
      return { kind: 'redirect', text, answer, subjectId: step.actorId, choices: [...targets.map((id) => ({ id, label: `Redirect to ${rules.nameOf(ctx, id)}`, answer: { targetId: id } })), { id: 'lost', label: 'The action is lost', answer: { targetId: null } }] };
    }
    case 'gambit':
      return { kind: 'gambit', text, answer, subjectId: step.attackerId, choices: [{ id: 'str', label: 'STR save', answer: { save: 'str' } }, { id: 'dex', label: 'DEX save', answer: { save: 'dex' } }, { id: 'wil', label: 'WIL save', answer: { save: 'wil' } }] };
    case 'defence':
      return { kind: 'defence', text, answer, subjectId: step.targetId, choices: moment.defenceChoices(ctx, step.targetId) };
    case 'strike':
      return { kind: 'strike', text, answer, subjectId: step.targetId, choices: one('targetId', step.targetId, 'Roll the damage') };
    case 'tie':
      return { kind: 'tie', text, answer, subjectId: step.targetId, choices: step.candidates.map((id) => ({ id, label: `${rules.nameOf(ctx, id)}'s weapon`, answer: { attackerId: id } })) };
    case 'critSave':
      return { kind: 'critSave', text, answer, subjectId: step.id, choices: one('combatantId', step.id, `Roll the STR save (STR ${ctx.combatants[step.id]!.str})`) };
    case 'critTable':
      return { kind: 'critTable', text, answer, subjectId: step.id, choices: one('combatantId', step.id, rulingsOf(ctx.options).hitLocations ? 'Roll the hit location (d10)' : 'Roll the d6') };
    case 'npcCrit':
      return { kind: 'npcCritical', text, answer, subjectId: step.id, choices: [{ id: 'dead', label: 'Dead', answer: { result: 'dead' } }, { id: 'out', label: 'Out of the fight', answer: { result: 'out' } }, { id: 'fightsOn', label: 'Fights on, impaired', answer: { result: 'fightsOn' } }] };
    case 'head':
      return { kind: 'head', text, answer, subjectId: step.id, choices: [{ id: 'dies', label: 'Dies', answer: { result: 'dies' } }, { id: 'survives', label: 'Survives', answer: { result: 'survives' } }] };
    case 'attackBack':
      return { kind: 'attackBack', text, answer, subjectId: step.by, choices: [{ id: 'strike', label: `Attack ${rules.nameOf(ctx, step.against)} back`, answer: { decision: 'strike' } }, { id: 'decline', label: 'Decline', answer: { decision: 'decline' } }] };
    case 'attackBackDefence':
      return { kind: 'defence', text, answer, subjectId: step.against, choices: moment.attackBackChoices(ctx, step) };
    case 'attackBackStrike':
      return { kind: 'strike', text, answer, subjectId: step.against, choices: one('targetId', step.against, 'Roll the attack back') };
    case 'fightBack':
      return { kind: 'fightBack', text, answer, subjectId: step.defenderId, choices: one('defenderId', step.defenderId, 'Roll the fight-back damage') };
  }
}

function allowedEvents(snapshot: EncounterSnapshot): string[] {
  const ctx = contextOf(snapshot);
  if (snapshot.matches('setup')) return ['ADD_COMBATANTS', 'REMOVE_COMBATANT', 'START'];
  if (snapshot.matches('ended')) return [];
  const step = moment.nextStep(ctx);
  if (ctx.moment.pending.length) return [combat.answerOf(ctx, step!), 'OVERRIDE'];
  if (step) return [combat.answerOf(ctx, step), 'OVERRIDE', 'REMOVE_COMBATANT', 'ADD_LATE_COMBATANT', 'END_COMBAT'];
  const anytime = ['REMOVE_COMBATANT', 'ADD_LATE_COMBATANT', 'END_COMBAT', ...ANYTIME_TYPES];
  if (ctx.phase === 'declare') return ['DECLARE_INTENT', 'SET_NPC_INTENT', 'TELEGRAPH', 'CONFIRM_TIER', 'LOCK_INTENTS', ...anytime];
  if (ctx.phase === 'order') return ['DEX_SAVE', ...anytime];
  const open = moment.openActions(ctx);
  return [...(open.some((id) => ctx.intents[id]?.action === 'retreat') ? ['RETREAT'] : []), 'END_TURN', ...anytime];
}

export function view(snapshot: EncounterSnapshot): EncounterView {
  const ctx = contextOf(snapshot);
  const phase = snapshot.matches('setup') ? 'setup' : snapshot.matches('ended') ? 'ended' : 'running';
  const active = phase === 'running' ? activeOf(snapshot) : null;
  const order: CombatantView[] = [];
  if (phase === 'setup') {
    for (const id of ctx.roster) order.push(combatantView(ctx, id, 'waiting', null));
  } else {
    const placed = new Set<string>();
    if (ctx.phase === 'resolve') {
      ctx.moments.forEach((m, index) => {
        for (const id of m.ids) {
          if (placed.has(id)) continue;
          placed.add(id);
          const done = index < ctx.cursor || (index === ctx.cursor && (ctx.moment.done.includes(id) || !rules.canAct(ctx.combatants[id], ctx.options)));
          // Everyone in the current moment acts at once (R-C1): all of them are active until resolved.
          const status = !rules.present(ctx.combatants[id]) ? 'removed' : done ? 'acted' : index === ctx.cursor ? 'active' : 'waiting';
          order.push(combatantView(ctx, id, status, index + 1));
        }
      });
    }
    for (const id of ctx.roster) if (!placed.has(id) && rules.present(ctx.combatants[id])) order.push(combatantView(ctx, id, 'unplaced', null));
    for (const id of ctx.roster) if (!placed.has(id) && !rules.present(ctx.combatants[id])) order.push(combatantView(ctx, id, 'removed', null));
  }
  const intent = active ? ctx.intents[active] : undefined;
  const stepLabel = { setup: 'Setup', declare: 'Declare', order: 'DEX saves', resolve: 'Resolve' }[ctx.phase];
  const board = ctx.roster.filter((id) => ctx.intents[id] || ctx.telegraphs[id]).map((id) => {
    const i = ctx.intents[id];
    return `${rules.nameOf(ctx, id)} — ${i ? `${i.tier}: ${intents.describeIntent(ctx, i)}` : 'no intent yet'}${ctx.telegraphs[id] ? ` (telegraphed: “${ctx.telegraphs[id]}”)` : ''}`;
  });
  const aside: { title: string; text: string }[] = [];
  if (phase === 'running') {
    aside.push({ title: `Declarations, round ${ctx.round}`, text: board.join('\n') || 'Nobody has declared yet.' });
    if (ctx.clashes.length) aside.push({ title: 'Melee clashes (R-C2, R-C3)', text: ctx.clashes.map((c) => `${rules.nameOf(ctx, c.first)} strikes before ${rules.nameOf(ctx, c.first === c.a ? c.b : c.a)}`).join('\n') });
    if (ctx.moments.length) aside.push({ title: 'Order', text: ctx.moments.map((m, i) => `${i === ctx.cursor ? '▶ ' : ''}${i + 1}. ${momentLabel(ctx, i)}: ${names(ctx, m.ids)}`).join('\n') });
  }
  return {
    phase,
    round: ctx.round,
    counters: phase !== 'running' ? [] : [
      { key: 'step', label: 'Step', value: stepLabel },
      ...(ctx.phase === 'resolve' && ctx.moments[ctx.cursor] ? [
        { key: 'moment', label: 'Moment', value: `${ctx.cursor + 1} / ${ctx.moments.length}` },
        { key: 'now', label: 'Acting', value: momentLabel(ctx, ctx.cursor) },
      ] : []),
    ],
    order,
    activeId: active,
    turn: active && intent ? { actionsLeft: ctx.moment.done.includes(active) ? 0 : intent.tier === 'full' ? 2 : 1, actionsPerTurn: intent.tier === 'full' ? 2 : 1 } : null,
    prompt: phase === 'running' ? prompt(ctx) : null,
    allowed: allowedEvents(snapshot),
    ...(aside.length ? { aside } : {}),
    setup: { partyOrder: ctx.roster.filter((id) => ctx.combatants[id]?.side === 'party'), gmOrder: null, firstSide: 'party', sides: rules.SIDES.map((s) => ({ ...s })) },
    ...(ctx.outcome !== null ? { outcome: ctx.outcome } : {}),
  };
}
