// "Any system"'s encounter rules as the kernel sees them: refusals, the rolls an event needs, the log in plain words,
// the runner's view (the order with initiative numbers, HP bars with temporary HP, tags) and what the fight leaves
// on the campaign (HP, temporary HP, deaths, injuries).
import type { z } from 'zod';
import type { CombatantView, Consequences, EncounterPrompt, EncounterRules, EncounterSnapshot, EncounterView, GmEvent, LogLine, RollRequest } from '../../encounter/types.ts';
import { names, nameOf } from '../../encounter/roster.ts';
import { renameFields } from '../../encounter/upcast.ts';
import { eventSchema, type AnyEvent } from './events.ts';
import { anySystemMachine } from './machine.ts';
import { npcsToRoll } from './order.ts';
import { refusal as rulesRefusal } from './play.ts';
import { rulingsOf } from './options.ts';
import {
  SIDES, activeId, compareInitiative, dieSides, reactionsLeft, reactionsPerRound, typedInitiative, withoutInitiative,
  type AnyCombatant, type AnyContext, type Roll,
} from './rules.ts';
import { joinRecords, recordsOf, type InjuryRecord } from '../../encounter/records.ts';

const contextOf = (snapshot: EncounterSnapshot) => snapshot.context as AnyContext;
const asEvent = (event: GmEvent) => event as unknown as AnyEvent;

function refusal(snapshot: EncounterSnapshot, event: GmEvent): string | null {
  return rulesRefusal(contextOf(snapshot), asEvent(event));
}

// ---- rolls an event needs (the app rolls them, or the GM types the faces) ----

const signed = (n: number) => (n < 0 ? `− ${-n}` : `+ ${n}`);

function rollsFor(snapshot: EncounterSnapshot, raw: GmEvent): RollRequest[] {
  const ctx = contextOf(snapshot);
  const event = asEvent(raw);
  const sides = dieSides(ctx.options);
  const initiative = (path: (string | number)[], c: { name: string; initiativeModifier: number }): RollRequest =>
    ({ path, label: `${c.name}: initiative, d${sides} ${signed(c.initiativeModifier)}`, notation: `1d${sides}`, count: 1, sides });
  if (typedInitiative(ctx.options) && event.type !== 'DEATH_SAVE') return [];
  switch (event.type) {
    case 'ROLL_INITIATIVE': {
      const c = ctx.combatants[event.combatantId];
      return c && !c.fixed ? [initiative(['roll'], c)] : [];
    }
    case 'ROLL_ALL_INITIATIVE':
      return npcsToRoll(ctx).map((id) => initiative(['rolls', id], ctx.combatants[id]!));
    case 'ADD_LATE_COMBATANT':
      if (ctx.stage === 'setup' || event.initiative !== undefined) return [];
      return [initiative(['roll'], { name: event.combatant.name, initiativeModifier: Number(event.combatant.sheet['initiativeModifier'] ?? 0) })];
    case 'DEATH_SAVE': {
      const c = ctx.combatants[event.combatantId];
      return c ? [{ path: ['roll'], label: `${c.name}: death save, d20 (10 or more succeeds)`, notation: '1d20', count: 1, sides: 20 }] : [];
    }
    default:
      return [];
  }
}

// ---- the log ----

const faceText = (roll: Roll | null | undefined) => (roll?.source === 'manual' ? ' (typed in)' : '');
const hpText = (c: AnyCombatant) => `${c.hp}/${c.hpMax}`;
const savesText = (c: AnyCombatant) => `${c.saves.successes}✓ ${c.saves.failures}✗`;

function initiativeLine(before: AnyContext, after: AnyContext, id: string, roll: Roll | null | undefined): string {
  const c = after.combatants[id]!;
  const init = c.initiative!;
  if (init.face === null) return `${c.name}'s initiative is ${init.total} (typed).`;
  return `${c.name} rolls initiative: ${init.face} ${signed(c.initiativeModifier)} = ${init.total} (d${dieSides(before.options)})${faceText(roll)}.`;
}

function orderText(ctx: AnyContext): string {
  return ctx.order.map((id) => `${nameOf(ctx, id)} ${ctx.combatants[id]!.initiative?.total ?? '—'}`).join(', ');
}

/** Whose turn it is now, and the round when it turned over; a dying one's death save. */
function turnLines(before: AnyContext, after: AnyContext): LogLine[] {
  const lines: LogLine[] = [];
  const id = activeId(after);
  if (after.round !== before.round) lines.push({ round: after.round, kind: 'round', text: `Round ${after.round} begins.` });
  if (id && (id !== activeId(before) || after.round !== before.round)) {
    lines.push({ round: after.round, kind: 'turn', actorId: id, text: `${nameOf(after, id)}'s turn.` });
    if (after.pendingSave === id) lines.push({ round: after.round, kind: 'decision', actorId: id, text: `${nameOf(after, id)} is dying (${savesText(after.combatants[id]!)}): a death save opens the turn.`, rulings: ['R-A7'] });
  }
  return lines;
}

/** What damage, healing or the GM's HP did to one combatant's standing. */
function standingLines(before: AnyCombatant, after: AnyCombatant, round: number): LogLine[] {
  const line = (text: string, rulings: string[] = []): LogLine => ({ round, kind: 'damage', actorId: after.id, text, ...(rulings.length ? { rulings } : {}) });
  const lines: LogLine[] = [];
  if (before.vitality !== after.vitality) {
    if (after.vitality === 'dead') lines.push(line(before.hp > 0 || before.vitality === 'up' ? `${after.name} drops to 0 HP: dead.` : `${after.name} dies (${savesText(after)}).`, after.side === 'party' ? ['R-A5'] : ['R-A6']));
    else if (after.vitality === 'dying' && before.vitality === 'up') lines.push(line(`${after.name} drops to 0 HP: down and dying.`, ['R-A5']));
    else if (after.vitality === 'dying') lines.push(line(`${after.name} takes damage while stable: dying again (${savesText(after)}).`, ['R-A7']));
    else if (after.vitality === 'down') lines.push(line(`${after.name} drops to 0 HP: down.`, [after.side === 'party' ? 'R-A5' : 'R-A6']));
    else if (after.vitality === 'up') lines.push(line(before.vitality === 'dead' ? `${after.name} is revived.` : `${after.name} is back up.`));
  } else if (after.vitality === 'dying' && after.saves.failures !== before.saves.failures) {
    lines.push(line(`${after.name} takes damage while dying: ${after.saves.failures - before.saves.failures === 2 ? 'two failed death saves' : 'a failed death save'} (${savesText(after)}).`, ['R-A7']));
  }
  if (after.concentrationCheck !== null && after.concentrationCheck !== before.concentrationCheck) {
    lines.push(line(`Concentration check for ${after.name}: DC ${after.concentrationCheck} (${after.concentration}). Record whether it holds.`, ['R-A9']));
  }
  return lines;
}

function eventLines(event: AnyEvent, before: AnyContext, after: AnyContext): LogLine[] {
  const round = after.round;
  const one = (kind: LogLine['kind'], text: string, actorId?: string | null, rulings?: string[]): LogLine[] =>
    [{ round, kind, text, ...(actorId ? { actorId } : {}), ...(rulings?.length ? { rulings } : {}) }];
  switch (event.type) {
    case 'ADD_COMBATANTS':
      return one('setup', `Added: ${event.combatants.map((s) => `${s.name}${s.side === 'party' ? ' (party)' : ''}`).join(', ')}.`);
    case 'ADD_FIXED':
      return one('setup', `Fixed entry: ${event.name} at initiative ${event.initiative}; it loses ties.`);
    case 'REMOVE_COMBATANT': {
      const name = nameOf(before, event.combatantId);
      if (before.stage === 'setup') return one('setup', `${name} is taken off the roster.`);
      return [...one('removal', `${name} leaves the fight${event.reason ? `: ${event.reason}` : ''}.`, event.combatantId), ...turnLines(before, after)];
    }
    case 'START':
      return one('order', typedInitiative(after.options) ? 'The encounter starts: type each initiative total.' : `The encounter starts: roll initiative (d${dieSides(after.options)} + modifier).`);
    case 'ADD_LATE_COMBATANT': {
      const c = after.combatants[event.combatant.id]!;
      const at = c.initiative ? ` at initiative ${c.initiative.total}${c.initiative.face !== null ? ` (${c.initiative.face} ${signed(c.initiativeModifier)}${faceText(event.roll)})` : ''}` : ': it acts last until its initiative is typed';
      return one('setup', `${c.name} joins the fight late${at}.`, c.id);
    }
    case 'END_COMBAT':
      return one('end', `The fight ends: ${after.outcome}`.replace(/([^.!?])$/, '$1.'));
    case 'ROLL_INITIATIVE':
      return one('order', initiativeLine(before, after, event.combatantId, event.roll), event.combatantId);
    case 'ROLL_ALL_INITIATIVE':
      return npcsToRoll(before).map((id) => ({ round, kind: 'order' as const, actorId: id, text: initiativeLine(before, after, id, event.rolls?.[id]) }));
    case 'SET_INITIATIVE':
      return one('order', initiativeLine(before, after, event.combatantId, null), event.combatantId);
    case 'REORDER':
      return one('order', `The GM puts ${nameOf(after, event.combatantId)} before ${nameOf(after, event.beforeId)} (tied at ${after.combatants[event.combatantId]!.initiative?.total}).`, null, ['R-A3']);
    case 'START_COMBAT': {
      const missing = withoutInitiative(before);
      return [
        { round, kind: 'round', text: `Round 1 begins. Order: ${orderText(after)}.${missing.length ? ` Without initiative, last: ${names(after, missing)}.` : ''}` },
        ...turnLines({ ...before, round: 1 }, after),
      ];
    }
    case 'END_TURN':
      return turnLines(before, after);
    case 'DELAY':
      return [...one('turn', `${nameOf(after, event.combatantId)} delays.`, event.combatantId), ...turnLines(before, after)];
    case 'RESUME': {
      const active = activeId(after);
      return one('turn', `${nameOf(after, event.combatantId)} stops delaying and acts after ${nameOf(after, active)} (initiative ${after.combatants[event.combatantId]!.initiative?.total ?? '—'}).`, event.combatantId);
    }
    case 'READY':
      return one('turn', `${nameOf(after, event.combatantId)} readies an action: "${event.trigger.trim()}".`, event.combatantId);
    case 'USE_READY':
      return one('decision', `${nameOf(after, event.combatantId)} takes the readied action ("${before.combatants[event.combatantId]!.ready}")${reactionsPerRound(after.options) > 0 ? ' as a reaction' : ''}.`, event.combatantId, reactionsPerRound(after.options) > 0 ? ['R-A8'] : []);
    case 'USE_REACTION': {
      const c = after.combatants[event.combatantId]!;
      const what = event.what?.trim() ? `: ${event.what.trim()}` : '';
      return one('decision', `${c.name} uses a reaction${what} (${reactionsLeft(after.options, c)} left this round).`, event.combatantId, ['R-A8']);
    }
    case 'APPLY_DAMAGE': {
      const b = before.combatants[event.targetId]!;
      const a = after.combatants[event.targetId]!;
      const parts = [...(b.tempHp !== a.tempHp ? [`temp HP ${b.tempHp} → ${a.tempHp}`] : []), `HP ${b.hp} → ${a.hp}`];
      const from = event.source?.trim() ? ` from ${event.source.trim()}` : '';
      return [...one('damage', `${a.name} takes ${event.amount} damage${event.critical ? ' (a critical hit)' : ''}${from}: ${parts.join(', ')}.`, a.id), ...standingLines(b, a, round)];
    }
    case 'HEAL': {
      const b = before.combatants[event.targetId]!;
      const a = after.combatants[event.targetId]!;
      const from = event.source?.trim() ? ` (${event.source.trim()})` : '';
      const capped = a.hp - b.hp < event.amount ? `, capped at the maximum ${a.hpMax}` : '';
      return [...one('damage', `${a.name} heals ${event.amount}${from}: HP ${b.hp} → ${a.hp}${capped}.`, a.id), ...standingLines(b, a, round)];
    }
    case 'SET_TEMP_HP': {
      const b = before.combatants[event.targetId]!;
      return one('damage', `${b.name} gains ${event.amount} temporary HP${b.tempHp ? ` (the higher stays: ${b.tempHp} → ${event.amount})` : ''}.`, b.id);
    }
    case 'SET_HP': {
      const b = before.combatants[event.targetId]!;
      const a = after.combatants[event.targetId]!;
      return [...one('damage', `The GM sets ${a.name}'s HP: ${b.hp} → ${a.hp}${event.note?.trim() ? ` (${event.note.trim()})` : ''}.`, a.id), ...standingLines(b, a, round)];
    }
    case 'DEATH_SAVE': {
      const b = before.combatants[event.combatantId]!;
      const a = after.combatants[event.combatantId]!;
      const face = event.roll?.faces[0] ?? 1;
      const result = a.vitality === 'up' ? 'a 20: back up at 1 HP'
        : a.vitality === 'dead' ? `${face === 1 ? 'a 1, two failures' : 'a failure'}: ${a.name} dies`
          : a.vitality === 'stable' ? 'a third success: stable'
            : face === 1 ? 'a 1: two failures' : face >= 10 ? 'a success' : 'a failure';
      return one('decision', `${b.name}'s death save: ${face}${faceText(event.roll)}, ${result} (${savesText(a)}).`, a.id, ['R-A7']);
    }
    case 'CONCENTRATE': {
      const b = before.combatants[event.combatantId]!;
      if (!event.on) return one('decision', `${b.name} stops concentrating on ${b.concentration}.`, b.id, ['R-A9']);
      const dropped = b.concentration ? ` (and drops ${b.concentration})` : '';
      return one('decision', `${b.name} concentrates on ${event.spell!.trim()}${dropped}.`, b.id, ['R-A9']);
    }
    case 'CONCENTRATION_CHECK': {
      const b = before.combatants[event.combatantId]!;
      return one('decision', event.passed ? `${b.name} keeps concentration on ${b.concentration} (DC ${b.concentrationCheck}).` : `${b.name} loses concentration on ${b.concentration} (DC ${b.concentrationCheck}).`, b.id, ['R-A9']);
    }
    case 'INJURY':
      return one('damage', `${nameOf(after, event.targetId)} is injured: ${event.name.trim()}${event.untilLongRest ? ' (until a long rest)' : ''}.`, event.targetId);
  }
}

function describe(event: GmEvent, before: EncounterSnapshot, after: EncounterSnapshot): LogLine[] {
  return eventLines(asEvent(event), contextOf(before), contextOf(after));
}

// ---- the runner's view ----

const vitalityTag = (c: AnyCombatant): string | null =>
  c.vitality === 'dying' ? `Dying ${savesText(c)}` : c.vitality === 'stable' ? 'Stable' : c.vitality === 'down' ? 'Down' : c.vitality === 'dead' ? 'Dead' : null;

function combatantView(ctx: AnyContext, id: string, status: CombatantView['status'], slot: number | null): CombatantView {
  const c = ctx.combatants[id]!;
  const tags: string[] = [];
  const alertTags: string[] = [];
  const vitality = vitalityTag(c);
  if (vitality) tags.push(vitality);
  if (c.vitality === 'dying') alertTags.push(vitality!);
  if (c.fixed) tags.push('Fixed entry');
  if (c.concentration) tags.push(`Concentrating: ${c.concentration}`);
  if (c.concentrationCheck !== null) {
    const check = `Concentration check: DC ${c.concentrationCheck}`;
    tags.push(check);
    alertTags.push(check);
  }
  const per = reactionsPerRound(ctx.options);
  if (!c.fixed && per > 0 && c.reactionsUsed > 0 && ctx.stage === 'running') tags.push(per === 1 ? 'Reaction used' : `Reactions used ${c.reactionsUsed}/${per}`);
  if (c.delaying) tags.push('Delaying');
  if (c.ready) tags.push(`Ready: "${c.ready}"`);
  const stats: NonNullable<CombatantView['stats']> = [{ label: 'Init', value: c.initiative ? String(c.initiative.total) : '—' }];
  if (!c.fixed) {
    // Temporary HP ride on the HP bar (health.temp), not as a stat of their own.
    stats.push({ label: 'AC', value: String(c.ac) });
    if (per > 0) stats.push({ label: 'Reactions', value: `${reactionsLeft(ctx.options, c)}/${per}` });
  }
  return {
    id,
    name: c.name,
    side: c.side,
    sideLabel: c.side === 'party' ? 'Party' : c.fixed ? 'Fixed' : 'Enemies',
    status: c.removed ? 'removed' : status,
    slot,
    ...(c.fixed ? {} : { health: { label: 'HP', current: c.hp, max: c.hpMax, ...(c.tempHp > 0 ? { temp: c.tempHp } : {}) } }),
    tags,
    ...(alertTags.length ? { alertTags } : {}),
    stats,
    ...(c.removed ? { removedReason: c.removed.reason } : {}),
    ...(c.vitality === 'dead' ? { dead: true } : c.vitality !== 'up' ? { defeated: true } : {}),
  };
}

function order(ctx: AnyContext): CombatantView[] {
  if (ctx.stage === 'setup') return ctx.roster.map((id) => combatantView(ctx, id, 'waiting', null));
  const rows: CombatantView[] = [];
  if (ctx.stage === 'initiative') {
    const sorted = ctx.roster.filter((id) => !ctx.combatants[id]!.removed);
    const placed = sorted.filter((id) => ctx.combatants[id]!.initiative).sort((x, y) => compare(ctx, x, y));
    placed.forEach((id, i) => rows.push(combatantView(ctx, id, 'waiting', i + 1)));
    for (const id of withoutInitiative(ctx)) rows.push(combatantView(ctx, id, 'unplaced', null));
  } else {
    const active = activeId(ctx);
    ctx.order.forEach((id, i) => rows.push(combatantView(ctx, id, id === active ? 'active' : i < ctx.cursor ? 'acted' : 'waiting', i + 1)));
    for (const id of ctx.roster) if (ctx.combatants[id]!.delaying && !ctx.combatants[id]!.removed) rows.push(combatantView(ctx, id, 'unplaced', null));
  }
  for (const id of ctx.roster) if (ctx.combatants[id]!.removed) rows.push(combatantView(ctx, id, 'removed', null));
  return rows;
}

const compare = (ctx: AnyContext, x: string, y: string) => compareInitiative(ctx, ctx.combatants[x]!, ctx.combatants[y]!);

function prompt(ctx: AnyContext): EncounterPrompt | null {
  const id = ctx.pendingSave;
  if (!id) return null;
  const c = ctx.combatants[id]!;
  return {
    kind: 'deathSave', answer: 'DEATH_SAVE', subjectId: id,
    text: `${c.name} is dying (${savesText(c)}): roll a death save. 10 or more succeeds, a 1 counts twice, a 20 brings them back at 1 HP. Healing wakes them instead.`,
    choices: [{ id, label: `Death save for ${c.name} (d20)`, answer: { combatantId: id } }],
  };
}

function allowedEvents(ctx: AnyContext): string[] {
  const typed = typedInitiative(ctx.options);
  switch (ctx.stage) {
    case 'setup': return ['ADD_COMBATANTS', 'REMOVE_COMBATANT', 'ADD_FIXED', 'START'];
    case 'ended': return [];
    case 'initiative': {
      const missing = withoutInitiative(ctx);
      return [
        ...(!typed && missing.some((id) => !ctx.combatants[id]!.fixed) ? ['ROLL_INITIATIVE'] : []),
        ...(!typed && npcsToRoll(ctx).length ? ['ROLL_ALL_INITIATIVE'] : []),
        'SET_INITIATIVE', 'REORDER', 'ADD_FIXED', 'START_COMBAT', 'REMOVE_COMBATANT', 'ADD_LATE_COMBATANT', 'END_COMBAT',
      ];
    }
    case 'running': {
      if (ctx.pendingSave) return ['DEATH_SAVE', 'HEAL'];
      const present = ctx.roster.map((id) => ctx.combatants[id]!).filter((c) => !c.removed);
      const active = activeId(ctx);
      return [
        ...(active ? ['END_TURN', 'READY'] : []),
        ...(active && ctx.order.filter((id) => ctx.combatants[id]!.vitality !== 'dead').length > 1 ? ['DELAY'] : []),
        ...(present.some((c) => c.delaying) ? ['RESUME'] : []),
        ...(present.some((c) => !c.initiative) ? ['SET_INITIATIVE'] : []),
        'APPLY_DAMAGE', 'HEAL', 'SET_TEMP_HP', 'SET_HP',
        ...(reactionsPerRound(ctx.options) > 0 ? ['USE_REACTION'] : []),
        ...(present.some((c) => c.ready) ? ['USE_READY'] : []),
        ...(rulingsOf(ctx.options).concentration ? ['CONCENTRATE'] : []),
        ...(present.some((c) => c.concentrationCheck !== null) ? ['CONCENTRATION_CHECK'] : []),
        'INJURY', 'ADD_FIXED', 'REMOVE_COMBATANT', 'ADD_LATE_COMBATANT', 'END_COMBAT',
      ];
    }
  }
}

function view(snapshot: EncounterSnapshot): EncounterView {
  const ctx = contextOf(snapshot);
  const phase = ctx.stage === 'setup' ? 'setup' : ctx.stage === 'ended' ? 'ended' : 'running';
  const counters: EncounterView['counters'] = [];
  const aside: NonNullable<EncounterView['aside']> = [];
  if (ctx.stage === 'initiative') {
    counters.push({ key: 'stage', label: 'Stage', value: 'Initiative' });
    const missing = withoutInitiative(ctx);
    aside.push({
      title: 'Initiative',
      text: missing.length
        ? `Still without initiative: ${names(ctx, missing)}. ${typedInitiative(ctx.options) ? 'Type each total.' : 'Roll each one, or roll for everyone outside the party at once.'} Then begin round 1.`
        : 'Everyone has an initiative: order any ties, then begin round 1.',
    });
  }
  const delaying = ctx.roster.filter((id) => ctx.combatants[id]!.delaying && !ctx.combatants[id]!.removed);
  if (ctx.stage === 'running' && delaying.length) aside.push({ title: 'Delaying', text: `${names(ctx, delaying)}: resume to act right after the current turn.` });
  return {
    phase,
    round: ctx.round,
    counters,
    order: order(ctx),
    activeId: activeId(ctx),
    turn: null,
    prompt: prompt(ctx),
    allowed: allowedEvents(ctx),
    ...(aside.length ? { aside } : {}),
    setup: {
      partyOrder: ctx.roster.filter((id) => ctx.combatants[id]!.side === 'party'),
      gmOrder: null,
      firstSide: 'party',
      sides: SIDES.map((s) => ({ ...s })),
    },
    ...(ctx.outcome !== null ? { outcome: ctx.outcome } : {}),
  };
}

// ---- what the fight leaves on the campaign ----

const isPc = (c: AnyCombatant) => c.side === 'party' && c.characterId !== null && !c.fixed;

/** A PC's records of its injuries in this fight. */
const injuryRecords = (c: AnyCombatant): readonly InjuryRecord[] =>
  recordsOf(c.injuries, `${c.id} ${c.characterId}`, (i) => ({
    key: `${c.id}.injury${i.n}`, characterId: c.characterId!, name: i.name, category: 'injury', data: { untilLongRest: i.untilLongRest, round: i.round },
  }));

/** A PC's death in this fight, per roster list and combatant: the same record while it stays dead from the same round. */
const deathOf = new WeakMap<readonly string[], Map<string, InjuryRecord>>();

function deathRecords(ctx: AnyContext, c: AnyCombatant): readonly InjuryRecord[] {
  if (c.vitality !== 'dead' || c.diedIn === null) return [];
  let deaths = deathOf.get(ctx.roster);
  if (!deaths) {
    deaths = new Map();
    deathOf.set(ctx.roster, deaths);
  }
  let record = deaths.get(c.id);
  if (record?.characterId !== c.characterId || record.data['round'] !== c.diedIn) {
    record = { key: `${c.id}.death`, characterId: c.characterId!, name: 'Died in the fight', category: 'death', data: { round: c.diedIn } };
    deaths.set(c.id, record);
  }
  return [record];
}

function consequences(snapshot: EncounterSnapshot): Consequences {
  const ctx = contextOf(snapshot);
  const pcs = ctx.roster.map((id) => ctx.combatants[id]!).filter(isPc);
  const injuries = joinRecords(ctx.roster, pcs.flatMap((c) => [injuryRecords(c), deathRecords(ctx, c)]));
  if (ctx.stage !== 'ended') return { injuries, carry: null, party: null };
  return {
    injuries,
    carry: pcs.map((c) => ({ characterId: c.characterId!, state: { hp: c.hp, tempHp: c.tempHp, dead: c.vitality === 'dead' } })),
    party: {},
  };
}

/** The seed's carried part from a character's stored condition: HP, temporary HP, dead. */
function carriedIn(state: Record<string, unknown>): Record<string, unknown> {
  const carried: Record<string, unknown> = {};
  const int = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
  if (int(state['hp'])) carried['hp'] = Math.min(9999, state['hp']);
  if (int(state['tempHp'])) carried['tempHp'] = Math.min(999, state['tempHp']);
  if (state['dead'] === true) carried['dead'] = true;
  return carried;
}

/** The standard 5e conditions, offered as suggestions (the GM may type any other). */
export const CONDITIONS_5E = [
  'Blinded', 'Charmed', 'Deafened', 'Exhaustion', 'Frightened', 'Grappled', 'Incapacitated', 'Invisible',
  'Paralyzed', 'Petrified', 'Poisoned', 'Prone', 'Restrained', 'Stunned', 'Unconscious',
] as const;

/** The events that named their combatant `id` until it was `combatantId`. */
export const NAMED_BY_ID = ['ROLL_INITIATIVE', 'SET_INITIATIVE', 'REORDER', 'DELAY', 'RESUME', 'READY', 'USE_READY', 'USE_REACTION', 'DEATH_SAVE', 'CONCENTRATE', 'CONCENTRATION_CHECK'] as const;

export const anySystemEncounter: EncounterRules = {
  conditionNames: CONDITIONS_5E,
  machine: anySystemMachine,
  eventSchema: eventSchema as unknown as z.ZodType<GmEvent>,
  sides: SIDES,
  refusal,
  describe,
  view,
  rollsFor,
  consequences,
  carriedIn,
  // Before one name for one thing these named their combatant `id` (the context is unchanged: no new rulesVersion).
  upcast: (stored) => renameFields(stored, Object.fromEntries(NAMED_BY_ID.map((type) => [type, { id: 'combatantId' }]))),
};

