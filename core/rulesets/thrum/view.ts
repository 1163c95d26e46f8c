// Thrum's runner view: each combatant's row, the events allowed now, the counters, the aside and the board.
import type { CombatantView, EncounterSnapshot, EncounterView, GmEvent } from '../../encounter/types.ts';
import { nameOf } from '../../encounter/roster.ts';
import type { CombatEvent } from './combat.ts';
import { squareLabel } from './grid.ts';
import { delayRefusal } from './machine.ts';
import * as rules from './rules.ts';
import type { Frame, ThrumContext } from './rules.ts';
import { prompt } from './prompts.ts';
import { contextOf, stageOf, turnOpen } from './stages.ts';
import { combatRefusal } from './combat.ts';
import { speedOf } from './health.ts';
import { rulingsOf } from './options.ts';

function combatantView(ctx: ThrumContext, id: string, status: CombatantView['status'], slot: number | null): CombatantView {
  const c = ctx.combatants[id]!;
  const tags: string[] = [];
  if (c.incapacitated) tags.push('Incapacitated');
  // Derived from the loads, never stored (§5.5): the tag says why.
  if (rules.isFrayed(c)) tags.push(`Frayed (Stress ${c.stressLoad} > ${c.stressTolerance})`);
  if (rules.isExhausted(c)) tags.push(`Exhausted (Fatigue ${c.fatigueLoad} > ${c.fatigueTolerance})`);
  for (const [name, s] of Object.entries(c.statuses)) tags.push(`${name} ${s.stacks}`);
  if (c.stance) tags.push(`Stance: ${c.stance}`);
  if (c.buff) tags.push(`Buff: ${c.buff.name}`);
  if (c.wounds) tags.push(`Wounds ${c.wounds}/3`);
  if (c.delayedThisRound) tags.push('Delayed this round');
  else if (c.hasDelayed) tags.push('Delayed earlier: keeps the later slot');
  if (c.fatigueTolerance < c.baseFatigueTolerance) tags.push(`Fatigue Tolerance ${c.fatigueTolerance} (base ${c.baseFatigueTolerance})`);
  if (c.stressTolerance < c.baseStressTolerance) tags.push(`Stress Tolerance ${c.stressTolerance} (base ${c.baseStressTolerance})`);
  return {
    id,
    name: c.name,
    side: c.side,
    sideLabel: c.side === 'party' ? 'Party' : 'Foes',
    status,
    slot,
    health: { label: 'Fatigue', current: c.fatigueLoad, max: c.fatigueTolerance, rising: true },
    tags,
    stats: [
      { label: 'Stress', value: `${c.stressLoad}/${c.stressTolerance}` },
      { label: 'Wounds', value: `${c.wounds}/3` },
      { label: 'Speed', value: String(speedOf(c, ctx)) },
      ...(c.initiative ? [{ label: 'Initiative', value: String(c.initiative.total) }] : []),
    ],
    ...(c.removed ? (c.removed.kind === 'wounds' ? { removedReason: 'three Wounds: out of action', defeated: true } : { removedReason: c.removed.reason }) : {}),
  };
}


function allowedEvents(snapshot: EncounterSnapshot): string[] {
  const ctx = contextOf(snapshot);
  const stage = stageOf(snapshot);
  if (stage === 'setup') return ['ADD_COMBATANTS', 'REMOVE_COMBATANT', 'SET_SIDE', 'SET_MAP', 'PLACE_NPC', 'START', 'SET_CONDITION'];
  if (stage === 'ended') return [];
  if (stage === 'initiative') return [rules.unrolled(ctx).length ? 'ROLL_INITIATIVE' : 'BREAK_TIE', 'REMOVE_COMBATANT', 'ADD_LATE_COMBATANT', 'END_COMBAT'];
  const event = (type: string, extra: Record<string, unknown> = {}) => ({ type, ...extra }) as unknown as GmEvent;
  const active = rules.activeId(ctx);
  const top = ctx.stack.at(-1);
  const conditionOpen = stage === 'rounds' && (ctx.conditions ?? []).some((c) => !c.met) ? ['CONDITION_MET'] : [];
  if (top) {
    const answers: Record<Frame['kind'], string[]> = {
      attack: top.kind === 'attack' && top.attack.targets[top.attack.current]?.defence === null ? ['DEFENSE_CHOICE', 'TRIGGER'] : ['DEFENSE_RESULT', 'TRIGGER'],
      roll: [top.kind === 'roll' && top.roll === 'panic' ? 'PANIC_ROLL' : 'INCAPACITY_ROLL'],
      buff: ['BUFF_CHOICE'],
      trigger: ['RESOLVE_TRIGGER', 'TRIGGER', 'ATTACK', 'APPLY_LOAD', 'APPLY_STATUS', 'CLEAR_STATUS', 'SET_POSITION', 'FORCED_MOVE'],
    };
    const delay = active && delayRefusal(ctx, active, null) === null && ctx.order.length > 1 ? ['DELAY'] : [];
    return [...answers[top.kind], ...delay, 'OVERRIDE', ...conditionOpen];
  }
  const list: string[] = [];
  if (active && delayRefusal(ctx, active, null) === null) list.push('DELAY');
  const zero = stage === 'roundZero' ? 'roundZero' : 'rounds';
  const probe = (type: string, payload: Record<string, unknown>) => combatRefusal(ctx, event(type, payload) as unknown as CombatEvent, zero) === null;
  if (active) {
    const c = ctx.combatants[active]!;
    if (stage === 'roundZero') {
      if (ctx.board && (c.pc || rulingsOf(ctx.options).roundZeroNpcs === 'positionToo')) list.push('POSITION');
    } else {
      if (!c.incapacitated && !ctx.turn.movementClosed && !ctx.turn.stanceTaken) list.push('MOVE');
      if (probe('USE_ABILITY', { ability: 'x' })) list.push('ATTACK', 'USE_ABILITY', 'RESUSCITATE');
    }
    if (!c.incapacitated && !ctx.turn.stanceTaken) list.push('SET_STANCE');
    list.push('END_TURN');
  }
  const anytime = ['REMOVE_COMBATANT', 'ADD_LATE_COMBATANT', 'END_COMBAT', 'APPLY_LOAD', 'APPLY_STATUS', 'CLEAR_STATUS', 'SET_POSITION', 'OVERRIDE'];
  if (stage === 'rounds') anytime.push('TRIGGER', 'FORCED_MOVE', ...conditionOpen);
  return [...list, ...anytime];
}

export function view(snapshot: EncounterSnapshot): EncounterView {
  const ctx = contextOf(snapshot);
  const stage = stageOf(snapshot);
  const phase = stage === 'setup' ? 'setup' : stage === 'ended' ? 'ended' : 'running';
  const active = turnOpen(snapshot) ? rules.activeId(ctx) : null;
  let order: CombatantView[];
  if (stage === 'setup') order = ctx.roster.map((id) => combatantView(ctx, id, 'waiting', null));
  else if (stage === 'initiative') {
    const rolled = rules.initiativeOrder(ctx);
    order = [
      ...rolled.map((id, i) => combatantView(ctx, id, 'waiting', i + 1)),
      ...rules.unrolled(ctx).map((id) => combatantView(ctx, id, 'unplaced', null)),
    ];
  } else {
    order = ctx.order.map((id, index) => combatantView(ctx, id, index < ctx.cursor ? 'acted' : index === ctx.cursor && id === active ? 'active' : 'waiting', index + 1));
  }
  if (stage !== 'setup') for (const id of ctx.roster) if (ctx.combatants[id]?.removed) order.push(combatantView(ctx, id, 'removed', null));
  const counters: EncounterView['counters'] = [];
  if (stage === 'initiative') counters.push({ key: 'stage', label: 'Stage', value: 'Initiative' });
  if (stage === 'roundZero') counters.push({ key: 'stage', label: 'Stage', value: 'Round Zero' });
  if (active && stage === 'rounds') {
    const c = ctx.combatants[active]!;
    counters.push({ key: 'movement', label: 'Movement left', value: Math.max(0, speedOf(c, ctx) - ctx.turn.moved) });
  }
  const triggers = ctx.stack.filter((f) => f.kind === 'trigger').length;
  if (triggers) counters.push({ key: 'triggers', label: 'Triggered effects waiting', value: triggers });
  const aside: NonNullable<EncounterView['aside']> = [];
  if (stage === 'roundZero' || stage === 'rounds') {
    // The order as it stands, with each initiative total and who has moved it by a Delay (§5.2 rule 3).
    const entry = (id: string) => {
      const c = ctx.combatants[id]!;
      const delayed = c.delayedThisRound ? ', delayed this round' : c.hasDelayed ? ', delayed' : '';
      return `${c.name} ${c.initiative?.total ?? '—'}${delayed}`;
    };
    aside.push({ title: 'Initiative order', text: ctx.order.map(entry).join(' · ') || 'nobody left' });
  }
  if (ctx.board) {
    const placed = ctx.roster.filter((id) => ctx.combatants[id]!.position);
    aside.push({ title: 'Map', text: `${ctx.board.width}×${ctx.board.height}; positions: ${placed.map((id) => `${nameOf(ctx, id)} ${squareLabel(ctx.combatants[id]!.position!)}`).join(', ') || 'none yet'}` });
  }
  const conditions = ctx.conditions ?? [];
  if (conditions.length) {
    // The numbers the GM gives CONDITION_MET.
    aside.push({ title: 'Win and Defeat Conditions', text: conditions.map((c, i) => `${i + 1}. ${c.kind === 'win' ? 'Win' : 'Defeat'}: ${c.text}${c.met ? ' (met)' : ''}`).join('; ') });
  }
  return {
    phase,
    round: ctx.round,
    counters,
    order,
    activeId: active,
    turn: active ? { actionsLeft: ctx.turn.acted || stage === 'roundZero' ? 0 : 1, actionsPerTurn: stage === 'roundZero' ? 0 : 1 } : null,
    prompt: prompt(snapshot),
    allowed: allowedEvents(snapshot),
    ...(aside.length ? { aside } : {}),
    board: ctx.board
      ? {
          ...ctx.board,
          pieces: ctx.roster.flatMap((id) => {
            const c = ctx.combatants[id]!;
            return c.position && !c.removed ? [{ id, name: c.name, side: c.side, x: c.position.x, y: c.position.y }] : [];
          }),
          cover: { characterHeight: rulingsOf(ctx.options).characterCoverHeight, onLineGivesCover: rulingsOf(ctx.options).dividingLineCover === 'cover' },
        }
      : null,
    setup: {
      partyOrder: ctx.roster.filter((id) => ctx.combatants[id]?.side === 'party'),
      gmOrder: null,
      firstSide: 'party',
      sides: rules.SIDES.map((s) => ({ ...s })),
    },
    ...(ctx.outcome !== null ? { outcome: ctx.outcome } : {}),
  };
}
