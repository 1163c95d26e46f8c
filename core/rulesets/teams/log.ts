// Teams' log: one line for each event, then what it caused (a new round, a turn, decisions, deaths).
import type { EncounterSnapshot, GmEvent, LogLine } from '../../encounter/types.ts';
import { eventRound } from '../../encounter/log-round.ts';
import * as combat from './combat.ts';
import { COMBAT_EVENTS } from './events.ts';
import type { CombatEvent, TestSpec } from './combat.ts';
import { contextOf, type TeamsEvent } from './machine.ts';
import * as rules from './rules.ts';
import { addedSentence, nameOf, plural } from '../../encounter/roster.ts';
import type { PendingAttack, Roll, TeamsCombatant, TeamsContext } from './rules.ts';
import { agrees, counted, possessive } from '../../words.ts';
import { rulingsOf } from './options.ts';

const faces = (roll: Roll | null | undefined) => (roll ? `[${roll.faces.join(', ')}]${roll.source === 'manual' ? ' (typed in)' : ''}` : '');
const signed = (n: number) => (n >= 0 ? `+ ${n}` : `− ${-n}`);
const ordinal = (n: number) => ['first', 'second', 'third', 'fourth', 'fifth'][n - 1] ?? `${n}th`;

function testText(spec: TestSpec, roll: Roll): string {
  const result = combat.testResult(spec, roll);
  const sets = combat.setsOf(spec) > 1 ? ` → sets ${result.setTotals.join(' / ')}, keeps ${result.kept}` : ` = ${result.kept}`;
  return `${combat.describeDice({ ...spec, bonus: 0 })}${combat.levelNote(spec.level)} ${faces(roll)}${sets}${spec.bonus ? ` ${signed(spec.bonus)}` : ''}`;
}

/** A whole test: dice, faces, kept set, bonus, +4 for a luck roll of 20 or more, and the total (no "= 7 = 7"). */
function testTotalText(spec: TestSpec, roll: Roll, luckRoll?: Roll | null): string {
  const luck = luckRoll ? combat.luckBonus(luckRoll.faces[0]!) : 0;
  const total = combat.testResult(spec, roll).total + luck;
  return `${testText(spec, roll)}${luck ? ' + 4 (luck 20+)' : ''}${spec.bonus || luck ? ` = ${total}` : ''}`;
}

/** Endurance and health before → after, and what changed in consciousness or life. */
function poolsText(before: TeamsContext, after: TeamsContext, id: string): string {
  const a = before.combatants[id]!;
  const b = after.combatants[id]!;
  const parts = [`endurance ${b.endurance}/${b.enduranceMax}`, `health ${b.health}/${b.healthMax}`];
  const statuses = [combat.isHarmed(b) ? 'harmed' : '', combat.isBloodied(b) ? 'bloodied' : ''].filter(Boolean);
  let text = `${parts.join(', ')}${statuses.length ? ` (${statuses.join(', ')})` : ''}`;
  if (a.conscious && !b.conscious && !b.dead) text += b.health === 0 ? ', unconscious at zero health' : ', falls unconscious (R-T23)';
  if (b.nonlethalZeroed && !a.nonlethalZeroed) text += '; nonlethal source: no death risk yet';
  return text;
}

function hitLine(before: TeamsContext, after: TeamsContext, pa: PendingAttack, defence: string): string {
  const result = combat.hitDamage(before, pa, defence);
  const target = before.combatants[pa.targetId]!;
  const dmg = pa.crit ? pa.weapon.critDamage : pa.weapon.damage;
  const test = rulingsOf(before.options).damageUsesPenalisedTest ? pa.total : pa.unpenalised;
  const raw = `${Math.max(0, test)} + ${pa.crit ? 'critical damage ' : ''}${dmg} = ${result.raw} ${pa.weapon.damageType}`;
  if (result.blocked) {
    const b = result.blocked;
    const overflow = b.overflow ? `; ${b.overflow} too many for its durability: ${target.name} takes ${result.taken}${result.reduction === null ? ' (no second deflection, R-T22)' : ` after deflection ${result.reduction} (R-T22)`}, ${poolsText(before, after, pa.targetId)}` : `; ${target.name} takes nothing`;
    return `${target.name} blocks with ${b.item}: ${raw} − block ${target.items.shield!.blockValue} = ${b.itemDamage} to the item, durability ${b.durability}${b.durability === 0 ? ' (broken)' : ''}${overflow}.`;
  }
  const parried = result.parried ? ` ${target.name} parries with ${result.parried.item} (+${result.parried.value}${rules.damageClass(pa.weapon.damageType) === 'physical' || rulingsOf(before.options).parryScope === 'allDeflection' ? '' : ', no effect on this damage type (R-T21)'}; durability −1).` : '';
  const reduction = result.reduction === null ? ' (typeless: not reduced)' : ` − deflection ${result.reduction}${result.raw - result.reduction < 1 ? ', minimum 1' : ''}`;
  return `${parried ? `${parried.trim()} ` : ''}Damage ${raw}${reduction} = ${result.taken}: ${target.name} ${poolsText(before, after, pa.targetId)}.`;
}

function attackLine(event: Extract<CombatEvent, { type: 'ATTACK' }>, before: TeamsContext, after: TeamsContext): LogLine {
  const outcome = combat.resolveAttack(before, event);
  const round = eventRound(before, after);
  const attacker = before.combatants[event.attackerId]!;
  const via = event.via === 'command' ? ' on a Command' : event.via === 'readied' ? ' with a readied action' : '';
  const rulings = [...outcome.rulings, ...(event.via === 'command' ? ['R-T9', 'R-T15'] : []), ...(event.via === 'readied' ? ['R-T7', 'R-T15'] : [])];
  const advantage = outcome.levelParts.length ? ` (${outcome.levelParts.join(', ')})` : '';
  const penalty = outcome.penalty ? ` − ${outcome.penalty} (${ordinal(attacker.attacksThisRound + 1)} attack this round) = ${outcome.total}` : '';
  const target = before.combatants[outcome.targetId]!;
  const shift = combat.sizeShift(attacker, target);
  const evasionNote = [shift ? `size ${signed(shift)}` : '', target.guarding ? 'guarding +1' : ''].filter(Boolean).join(', ');
  const stray = outcome.strayTo ? ` Luck ${outcome.luck}: the shot strays onto ${target.name}${event.strayRoll ? ` (d${combat.strayPool(before, event).length} ${faces(event.strayRoll)})` : ''}.` : '';
  const luck = outcome.crit ? `luck ${outcome.luck} ≥ ${outcome.weapon.critThreshold}: critical, cannot miss` : `luck ${outcome.luck}`;
  const result = outcome.crit ? 'critical hit' : outcome.hit ? 'hit' : 'miss';
  // R-T19 off: the target declared a parry before the roll; it is paid (and wears the item) whatever the roll.
  const parry = event.declaredParry ?? null;
  const parryTarget = before.combatants[event.targetId]!;
  const declared = parry ? ` ${parryTarget.name} parries before the roll with ${parryTarget.items[parry]!.name} (1 stamina, the reaction, R-T19).` : '';
  let text = `${attacker.name} attacks ${nameOf(before, event.targetId)}${via} with ${outcome.weapon.name}${advantage}:${declared} ${testText(outcome.spec, event.testRoll!)}${penalty || !outcome.spec.bonus ? '' : ` = ${outcome.total}`}${penalty}; ${luck}.${stray} Against evasion ${outcome.evasion}${evasionNote ? ` (${evasionNote})` : ''}: ${result}.`;
  if (parry) rulings.push('R-T19');
  if (outcome.hit) {
    const waiting = after.pending[0]?.kind === 'defence' && after.pending[0].attack.attackerId === event.attackerId;
    if (!waiting) {
      const parried = parry && outcome.targetId === event.targetId;
      text += ` ${hitLine(before, after, combat.pendingFrom(event, outcome), parried ? `parry:${parry}` : 'none')}`;
      rulings.push('R-T20', ...(parried ? ['R-T21'] : []));
    }
  }
  return { round, kind: 'attack', actorId: attacker.id, rulings, text };
}

function defendLine(event: Extract<CombatEvent, { type: 'DEFEND' }>, before: TeamsContext, after: TeamsContext): LogLine {
  const head = before.pending[0] as Extract<TeamsContext['pending'][number], { kind: 'defence' }>;
  const pa = head.attack;
  const round = eventRound(before, after);
  const target = before.combatants[pa.targetId]!;
  const free = pa.freeReaction ? ' as a free reaction (R-T14)' : '';
  if (event.defence === 'none') return { round, kind: 'damage', actorId: pa.targetId, rulings: ['R-T20'], text: `${target.name} takes the hit. ${hitLine(before, after, pa, 'none')}` };
  if (event.defence === 'intercept') {
    const ally = before.combatants[event.interceptorId!]!;
    const stillHit = after.pending[0]?.kind === 'defence' || after.combatants[ally.id]!.endurance !== ally.endurance || after.combatants[ally.id]!.health !== ally.health;
    return { round, kind: 'decision', actorId: ally.id, rulings: ['R-T6'], text: `${ally.name} intercepts (1 stamina), displacing ${target.name} and becoming the target${stillHit ? '' : `: the attack (${pa.total}) misses ${ally.name}'s evasion`}.` };
  }
  if (event.defence === 'dodge') {
    const spec = combat.reactionSpec(target, 'dodge')!;
    const total = combat.testResult(spec, event.testRoll!).total + combat.luckBonus(event.luckRoll!.faces[0]!);
    const success = combat.dodgeBeats(before, total, pa.total);
    const lucky = combat.luckBonus(event.luckRoll!.faces[0]!) ? ' + 4 (luck 20+)' : '';
    const rest = success ? 'the attack misses' : after.pending[0]?.kind === 'defence' ? 'still hit' : `still hit. ${hitLine(before, after, { ...pa, dodged: true }, 'none')}`;
    return { round, kind: 'damage', actorId: target.id, rulings: ['R-T18', ...(target.guarding ? ['R-T12'] : [])], text: `${target.name} dodges${free} (1 stamina): ${testText(spec, event.testRoll!)}${lucky} = ${total} against the attack's ${pa.total}: ${rest}` + (success ? '.' : '') };
  }
  return { round, kind: 'damage', actorId: target.id, rulings: ['R-T20', ...(event.defence === 'block' ? ['R-T22'] : ['R-T19', 'R-T21'])], text: `${target.name} reacts${free} (1 stamina). ${hitLine(before, after, pa, combat.defenceKey(event))}` };
}

function combatLine(event: CombatEvent, before: TeamsContext, after: TeamsContext): LogLine {
  const round = eventRound(before, after);
  const name = (id: string | null | undefined) => nameOf(before, id);
  const actor = before.activeId;
  const left = () => (after.turn ? ` ${plural(after.turn.actionsLeft, 'action')} left.` : '');
  switch (event.type) {
    case 'ATTACK':
      return attackLine(event, before, after);
    case 'ACTION': {
      const actorId = event.actorId ?? actor;
      const who = name(actorId);
      const commanded = actorId !== actor ? ` on ${name(actor)}'s Command` : '';
      const label = event.kind === 'other' ? event.name!.trim() : combat.ACTION_LABELS[event.kind];
      const note = event.note ? ` (${event.note})` : '';
      const started = after.combatants[actorId!]?.inProgress && !before.combatants[actorId!]?.inProgress;
      if (started) {
        const x = after.combatants[actorId!]!.inProgress!;
        return { round, kind: 'turn', actorId, rulings: ['R-T10'], text: `${who} starts ${x.name}${note}: ${x.paid} of ${x.cost} actions paid; it finishes on a later turn.` };
      }
      switch (event.kind) {
        case 'guard': return { round, kind: 'turn', actorId, rulings: ['R-T12'], text: `${who} guards: +1 to every defence and defensive test until their next turn. The turn ends.` };
        case 'wait': return { round, kind: 'turn', actorId, rulings: ['R-T6'], text: `${who} waits: an extra reaction until their next turn. The turn ends.` };
        case 'ready': return { round, kind: 'turn', actorId, rulings: ['R-T7'], text: `${who} readies "${event.readied}" for when ${event.trigger}. The turn ends.` };
        case 'sprint': return { round, kind: 'turn', actorId, text: `${who}${commanded} sprints (1 stamina, ${after.combatants[actorId!]!.stamina} left).${left()}` };
        case 'move': return { round, kind: 'turn', actorId, rulings: commanded ? ['R-T9'] : rulingsOf(before.options).stepExcludesMove ? ['R-T8'] : [], text: `${who}${commanded}: Move${commanded ? ' (their Move this turn)' : ''}${note}.${left()}` };
        case 'brandish': return { round, kind: 'turn', actorId, text: `${who}${commanded} brandishes${event.hold ? `: now holding ${holdingText(after.combatants[actorId!]!)}` : ' (weapon and shield stay as they were)'}${note}.${left()}` };
        case 'command': return { round, kind: 'turn', actorId, rulings: ['R-T9'], text: `${who} commands ${name(event.targetId)} (2 focus): ${name(event.targetId)} may take one action now.${left()}` };
        case 'resuscitate': {
          const difficulty = combat.actionDifficulty(before, event)!;
          const woke = after.combatants[event.targetId!]!.conscious;
          return { round, kind: 'turn', actorId, rulings: event.difficulty === undefined || event.difficulty === null ? ['R-T13'] : [], text: `${who} goes prone and tries to resuscitate ${name(event.targetId)}: ${testTotalText(combat.gmTestSpec('Resuscitate', event)!, event.testRoll!, event.luckRoll)} against ${difficulty}: ${woke ? `${name(event.targetId)} is conscious again` : 'no response'}.${left()}` };
        }
        case 'shortTask': {
          const total = combat.actionTestTotal({ kind: 'shortTask', name: 'Short Task', cost: 3, paid: 3, detail: { dice: event.dice, bonus: event.bonus } }, event)!;
          return { round, kind: 'turn', actorId, text: `${who} performs a short task${event.name ? ` (${event.name})` : ''}: ${testTotalText(combat.gmTestSpec('Short Task', event)!, event.testRoll!, event.luckRoll)} against ${event.difficulty}: ${total >= event.difficulty! ? 'success' : 'failure'}.${left()}` };
        }
        default:
          return { round, kind: 'turn', actorId, text: `${who}${commanded}: ${label}${note}.${left()}` };
      }
    }
    case 'KILLING_STRIKE': {
      if (after.combatants[actor!]!.inProgress) return { round, kind: 'turn', actorId: actor, rulings: ['R-T10', 'R-T25'], text: `${name(actor)} starts a killing strike on ${name(event.targetId)}: ${after.combatants[actor!]!.inProgress!.paid} of 3 actions paid.` };
      return strikeLine(before, after, actor!, { targetId: event.targetId, attribute: event.attribute, proficiency: event.proficiency, weapon: event.weapon ?? before.combatants[actor!]!.weapon }, event, round);
    }
    case 'FREE_ACTION': {
      // An item named with a Step or Drop Prone (a form left filled in) means nothing and names nothing.
      const dropped = (event.kind === 'dropItem' && event.item && before.combatants[actor!]!.items[event.item]?.name) || 'an item';
      const what = event.kind === 'step' ? 'takes a 1 m Step instead of a Move' : event.kind === 'dropProne' ? 'drops prone' : `drops ${dropped}`;
      return { round, kind: 'turn', actorId: actor, rulings: event.kind === 'step' ? ['R-T8'] : [], text: `${name(actor)} ${what}${event.note ? ` (${event.note})` : ''} (free).` };
    }
    case 'FIRE_READIED': {
      const c = before.combatants[event.combatantId]!;
      return { round, kind: 'decision', actorId: event.combatantId, rulings: ['R-T7'], text: `${c.name}'s readied action fires: ${c.readied!.action}${event.note ? ` (${event.note})` : ''}.` };
    }
    case 'EXTENDED': {
      const x = before.combatants[actor!]!.inProgress!;
      if (event.decision === 'abandon') return { round, kind: 'turn', actorId: actor, rulings: ['R-T10'], text: `${name(actor)} abandons ${x.name} at no cost (${x.paid} of ${x.cost} actions spent).${left()}` };
      const still = after.combatants[actor!]!.inProgress;
      if (still) return { round, kind: 'turn', actorId: actor, rulings: ['R-T10'], text: `${name(actor)} continues ${x.name}: ${still.paid} of ${still.cost} actions paid.` };
      if (x.kind === 'killingStrike') return strikeLine(before, after, actor!, x.detail as never, event, round);
      let result = '';
      if (x.kind === 'resuscitate' || x.kind === 'shortTask') {
        const total = combat.actionTestTotal(x, event)!;
        const target = x.detail['targetId'] as string | null;
        result = `: ${testTotalText(combat.extendedSpec(x)!, event.testRoll!, event.luckRoll)} against ${x.detail['difficulty']}, ${x.kind === 'resuscitate' ? (after.combatants[target!]?.conscious ? `${name(target)} is conscious again` : 'no response') : total >= Number(x.detail['difficulty']) ? 'success' : 'failure'}`;
      }
      return { round, kind: 'turn', actorId: actor, rulings: ['R-T10'], text: `${name(actor)} finishes ${x.name} (${counted(x.cost - x.paid, 'more action', 'more actions')})${result}.${left()}` };
    }
    case 'OPENING_ATTACK':
      return { round, kind: 'decision', actorId: actor, rulings: ['R-T1b'], text: `The GM waives ${name(actor)}'s opening attack.` };
    case 'DEFEND':
      return defendLine(event, before, after);
    case 'REACTION_TEST': {
      const o = combat.reactionTestOutcome(before, event);
      const label = event.reaction === 'dodge' ? 'Dodge' : event.reaction === 'fortify' ? 'Fortify' : 'Resist';
      return { round, kind: 'decision', actorId: event.reactorId, rulings: ['R-T6'], text: `${name(event.reactorId)}: ${label} against ${event.against || 'an effect'} (1 ${event.reaction === 'resist' ? 'focus' : 'stamina'}): ${testTotalText(o.spec, event.testRoll!, event.luckRoll)} against ${event.difficulty}: ${o.success ? 'success' : 'failure'}.` };
    }
    case 'CONSCIOUSNESS': {
      const head = before.pending[0] as Extract<TeamsContext['pending'][number], { kind: 'consciousness' }>;
      const c = before.combatants[head.id]!;
      if (event.decision === 'unconscious') return { round, kind: 'decision', actorId: c.id, text: `${c.name} falls unconscious.` };
      const spec = combat.reactionSpec(c, 'fortify')!;
      const kept = after.combatants[c.id]!.conscious;
      return { round, kind: 'decision', actorId: c.id, rulings: ['R-T6'], text: `${c.name} fortifies (1 stamina, the reaction): ${testTotalText(spec, event.testRoll!, event.luckRoll)} against missing health ${head.missing}: ${kept ? 'stays conscious' : 'falls unconscious'}.` };
    }
    case 'LUCK_TEST': {
      const head = before.pending[0] as Extract<TeamsContext['pending'][number], { kind: 'death' }>;
      const c = before.combatants[head.id]!;
      const d = after.combatants[head.id]!;
      const face = event.luckRoll!.faces[0]!;
      return d.dead
        ? { round, kind: 'decision', actorId: c.id, text: `${c.name} risks death: luck d${c.luckDie} ${faces(event.luckRoll)} = ${face} against ${c.cheatDeathDifficulty}: fails and dies.` }
        : { round, kind: 'decision', actorId: c.id, text: `${c.name} risks death: luck d${c.luckDie} ${faces(event.luckRoll)} = ${face} against ${c.cheatDeathDifficulty}: cheats death, unconscious at zero health. Cheat-death difficulty is now ${d.cheatDeathDifficulty} for good.` };
    }
    case 'APPLY_DAMAGE': {
      const { taken, reduction } = combat.externalDamage(before, event);
      const reduced = reduction === null ? '' : ` ${event.damageType} − deflection ${reduction}${event.amount - reduction < 1 ? ', minimum 1' : ''} = ${taken}`;
      return { round, kind: 'damage', actorId: event.targetId, text: `${name(event.targetId)} takes ${event.amount}${reduced}${event.nonlethal ? ' nonlethal' : ''} damage${event.source ? ` from ${event.source}` : ''}: ${poolsText(before, after, event.targetId)}.` };
    }
    case 'HEAL': {
      const c = before.combatants[event.targetId]!;
      const gain = combat.healed(c, event);
      const [from, max] = event.pool === 'endurance' ? [c.endurance, c.enduranceMax] : [c.health, c.healthMax];
      const capped = gain < event.amount ? ` (capped at the maximum ${max})` : '';
      const asleep = !c.conscious ? `; still unconscious: Resuscitate wakes them` : '';
      return { round, kind: 'damage', actorId: c.id, text: `${c.name} heals ${event.amount} ${event.pool}${event.source ? ` from ${event.source}` : ''}: ${event.pool} ${from} → ${from + gain}${capped}, ${poolsText(before, after, c.id)}${asleep}.` };
    }
    case 'OVERRIDE':
      return { round, kind: 'decision', actorId: event.targetId, text: `GM override: ${name(event.targetId)}'s ${event.field} set to ${event.value}${event.note ? ` (${event.note})` : ''}.` };
  }
}

/** What a combatant has in hand, for the log and the runner. */
export function holdingText(c: TeamsCombatant): string {
  const items = (['weapon', 'shield'] as const).filter((slot) => c.items[slot] && c.held[slot]).map((slot) => c.items[slot]!.name);
  return items.length ? items.join(' and ') : 'nothing';
}

function strikeLine(before: TeamsContext, after: TeamsContext, strikerId: string, d: { targetId: string; attribute: rules.Attribute; proficiency: rules.Proficiency; weapon: rules.Weapon }, rolls: { testRoll?: Roll | null; luckRoll?: Roll | null; sneakRoll?: Roll | null }, round: number): LogLine {
  const o = combat.resolveStrike(before, strikerId, d, rolls);
  const striker = before.combatants[strikerId]!;
  const target = before.combatants[d.targetId]!;
  const spec = combat.killingStrikeSpec(before, striker, d.attribute, d.proficiency);
  const head = `${striker.name} makes a killing strike on ${target.name} with ${d.weapon.name}: ${testText(spec, rolls.testRoll!)}${o.total !== o.test.total ? ` − ${o.test.total - o.total} (multiple attack penalty)` : ''} = ${o.total} against constitution ${o.constitution}`;
  const rulings = ['R-T15', 'R-T15b', 'R-T25'];
  if (o.killed) return { round, kind: 'attack', actorId: strikerId, rulings, text: `${head}: ${target.name} dies.` };
  const s = o.sneak!;
  const sneak = `: it fails, so a sneak attack is made instead: ${s.total} against evasion ${s.evasion}${s.crit ? ' (critical)' : ''}, ${s.hit ? `hit for ${s.damage!.raw}${s.damage!.reduction === null ? '' : ` − ${s.damage!.reduction}`} = ${s.damage!.taken}: ${poolsText(before, after, d.targetId)}` : 'miss'}.`;
  return { round, kind: 'attack', actorId: strikerId, rulings, text: `${head}${sneak}` };
}

function eventLine(event: GmEvent & TeamsEvent, before: TeamsContext, after: TeamsContext): LogLine | null {
  const round = eventRound(before, after);
  if (COMBAT_EVENTS.has(event.type)) return combatLine(event as CombatEvent, before, after);
  switch (event.type) {
    case 'ADD_COMBATANTS': {
      return { round, kind: 'setup', text: addedSentence(event.combatants, after.teams) };
    }
    case 'REMOVE_COMBATANT': {
      const name = nameOf(before, event.combatantId);
      if (!before.started) return { round, kind: 'setup', text: `${name} was taken off the roster.` };
      return { round, kind: 'removal', actorId: event.combatantId, text: `${name} leaves the fight${event.reason ? ` (${event.reason})` : ''}.` };
    }
    case 'ADD_TEAM':
      return { round, kind: 'setup', text: `New team: ${event.label}, last in initiative for now.` };
    case 'SET_TEAM':
      return { round, kind: 'setup', text: `${nameOf(after, event.combatantId)} joins ${rules.teamLabel(after, event.team)}.` };
    case 'SET_INSTIGATOR':
      return event.combatantId === null
        ? { round, kind: 'setup', text: 'No instigator: the GM sets the team order.', rulings: ['R-T1'] }
        : { round, kind: 'setup', text: `${nameOf(after, event.combatantId)} starts the fight against ${rules.teamLabel(after, after.instigator!.attackedTeam)}: initiative ${after.teamOrder.map((t) => rules.teamLabel(after, t)).join(' → ')}.` };
    case 'SET_TEAM_ORDER':
      return { round, kind: 'setup', text: `Team order: ${after.teamOrder.map((t) => rules.teamLabel(after, t)).join(' → ')}.`, rulings: ['R-T1'] };
    case 'DECLARE_SURPRISE':
      return { round, kind: 'setup', text: event.team === null ? 'No surprise.' : `${agrees(rules.teamLabel(after, event.team), 'has', 'have')} surprise: a surprise round where only they (and those who cannot be surprised) act.` };
    case 'SET_UNSURPRISABLE':
      return { round, kind: 'setup', text: `${nameOf(after, event.combatantId)} ${event.unsurprisable ? 'cannot' : 'can'} be surprised.` };
    case 'SET_OBJECTIVE':
      return { round, kind: 'setup', rulings: ['R-T11'], text: `${possessive(rules.teamLabel(after, event.team))} objective: ${event.text || '—'}.` };
    case 'START':
      return { round, kind: 'round', text: `Combat starts. Initiative: ${after.teamOrder.map((t) => rules.teamLabel(after, t)).join(' → ')}.` };
    case 'SELECT_MEMBER':
      return null; // the turn line below says it
    case 'END_TURN': {
      const id = before.activeId;
      return { round: before.round, kind: 'turn', actorId: id, text: `${nameOf(before, id)} ends the turn${before.turn?.actionsLeft ? ` with ${plural(before.turn.actionsLeft, 'action')} unused` : ''}.` };
    }
    case 'ADD_LATE_COMBATANT': {
      // source: "the team with the benefit of surprise gets to take a whole round where only their team may take
      // actions": an arrival on another team during that round waits for round 1 like the rest of its team.
      const arrival = after.combatants[event.combatant.id]!;
      const when = rules.isSurprised(after, arrival)
        ? `it is the surprise round, so they act from round 1${rulingsOf(after.options).surprisedCannotReact ? ' and cannot react until then (R-T5)' : ''}`
        : 'they may be picked at its next go';
      return { round, kind: 'order', actorId: event.combatant.id, text: `${event.combatant.name} arrives late and joins ${rules.teamLabel(after, event.combatant.side)}; ${when}.` };
    }
    case 'END_COMBAT':
      return { round, kind: 'end', rulings: ['R-T11', 'R-T26'], text: `Combat ends${event.outcome ? `: ${event.outcome}` : ''}. ${rulingsOf(after.options).poolsAfterCombat === 'reset' ? 'Pools return to their maximum.' : 'Endurance, health, stamina and focus stay as they are.'}` };
  }
  return null;
}

/** Lines every event may cause as a side effect: a new round, skipped teams, a new turn, decisions, deaths. */
function consequenceLines(before: EncounterSnapshot, after: EncounterSnapshot): LogLine[] {
  const a = contextOf(before);
  const b = contextOf(after);
  const lines: LogLine[] = [];
  if (after.matches('ended')) return lines;
  // Turns that ended without END_TURN: lost to unconsciousness or removal (R-T3).
  if (a.activeId && b.activeId !== a.activeId && !before.matches('setup')) {
    const c = b.combatants[a.activeId]!;
    if (!c.conscious || c.dead || c.removed) lines.push({ round: a.round, kind: 'turn', actorId: c.id, rulings: ['R-T3'], text: `${c.name}'s turn ends at once and counts as taken.` });
  }
  for (const id of b.roster) {
    const x = a.combatants[id];
    const y = b.combatants[id]!;
    if (x && x.inProgress && !y.inProgress && !y.conscious && x.conscious) lines.push({ round: b.round, kind: 'turn', actorId: id, rulings: ['R-T10'], text: `${y.name} loses consciousness: ${x.inProgress.name} is abandoned.` });
  }
  if (b.round !== a.round || (b.started && !a.started)) {
    lines.push(b.surpriseRound
      ? { round: b.round, kind: 'round', rulings: ['R-T5'], text: `Surprise round: only ${agrees(rules.teamLabel(b, b.surpriseTeam), 'acts', 'act')}, with anyone who cannot be surprised; the surprised cannot react.` }
      : { round: b.round, kind: 'round', rulings: ['R-T2'], text: `Round ${b.round} begins: ${rules.teamLabel(b, b.teamOrder[b.teamCursor])} first.` });
  }
  const picking = after.matches({ running: 'teamPick' });
  if (picking && (!before.matches({ running: 'teamPick' }) || a.teamCursor !== b.teamCursor)) {
    const skipped: string[] = [];
    if (b.round === a.round && a.activeId && !b.activeId) {
      const n = b.teamOrder.length;
      const activeTeam = a.combatants[a.activeId]!.team;
      for (let i = (b.teamOrder.indexOf(activeTeam) + 1) % n; i !== b.teamCursor; i = (i + 1) % n) skipped.push(b.teamOrder[i]!);
    }
    const team = rules.teamLabel(b, b.teamOrder[b.teamCursor]);
    const skipNames = skipped.map((t) => rules.teamLabel(b, t));
    const skip = skipped.length ? `${skipped.length === 1 ? agrees(skipNames[0]!, 'has', 'have') : `${skipNames.join(', ')} have`} nobody left to act this round. ` : '';
    lines.push({ round: b.round, kind: 'order', text: `${skip}${agrees(team, 'picks', 'pick')} a member to act.` });
  }
  if (b.activeId && (b.activeId !== a.activeId || b.round !== a.round)) {
    const c = b.combatants[b.activeId]!;
    const reaction = combat.reactionAvailable(b, c) ? 'reaction ready' : 'no reaction';
    const extra = b.turn?.openingAttack ? ' It opens with the attack that started the fight.' : !b.turn?.extendedDecided ? ` ${c.inProgress!.name} is in progress: continue or abandon it.` : '';
    lines.push({ round: b.round, kind: 'turn', actorId: c.id, rulings: b.turn?.openingAttack ? ['R-T1b'] : !b.turn?.extendedDecided ? ['R-T10'] : [], text: `${c.name}'s turn (${rules.teamLabel(b, c.team)}): 3 actions, ${reaction}.${extra}` });
  }
  for (const p of b.pending) {
    const known = a.pending.some((q) => JSON.stringify(q) === JSON.stringify(p));
    if (known) continue;
    if (p.kind === 'consciousness') lines.push({ round: b.round, kind: 'decision', actorId: p.id, rulings: ['R-T23'], text: `${nameOf(b, p.id)} is missing ${p.missing} health, more than their constitution ${b.combatants[p.id]!.constitution}: Fortify (against ${p.missing}) or fall unconscious?` });
    if (p.kind === 'death') lines.push({ round: b.round, kind: 'decision', actorId: p.id, rulings: ['R-T24', 'R-T27'], text: `${nameOf(b, p.id)} is at zero health and risks death: luck test against ${b.combatants[p.id]!.cheatDeathDifficulty}.` });
    if (p.kind === 'defence') lines.push({ round: b.round, kind: 'decision', actorId: p.attack.targetId, rulings: ['R-T19'], text: `${nameOf(b, p.attack.targetId)} is hit${p.attack.crit ? ' critically' : ''}: block, parry, dodge, intercept, or take it?` });
  }
  const standing = rules.teamsStanding(b);
  if (b.started && standing.length <= 1 && rules.teamsStanding(a).length > 1) {
    lines.push({ round: b.round, kind: 'decision', rulings: ['R-T11'], text: standing.length === 1 ? `Only ${agrees(rules.teamLabel(b, standing[0]), 'is', 'are')} left standing: the GM may end combat.` : 'No team is left standing: the GM may end combat.' });
  }
  if (after.matches({ running: 'stalled' }) && !before.matches({ running: 'stalled' })) lines.push({ round: b.round, kind: 'order', text: 'Nobody is able to take a turn.' });
  return lines;
}

export function describe(raw: GmEvent, before: EncounterSnapshot, after: EncounterSnapshot): LogLine[] {
  const line = eventLine(raw as GmEvent & TeamsEvent, contextOf(before), contextOf(after));
  return [...(line ? [line] : []), ...consequenceLines(before, after)];
}
