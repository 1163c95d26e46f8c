// Setting up a Factions fight (RULES.md §3.2): the roster and its faction groups, factions and their cycle (R-F1),
// morale groups (R-F7), who started it (the initiative), the ambushers, the optional rules, and the start. The
// refusal sentences come from the same checks the machine's guards make.
import * as roster from '../../encounter/roster.ts';
import type { RosterSpec } from '../../encounter/roster.ts';
import type { CombatantSeed } from '../../encounter/types.ts';
import { agrees, isPluralName } from '../../words.ts';
import { nameOf, update } from '../../encounter/roster.ts';
import type { FactionsCombatant, FactionsContext, Roll } from './rules.ts';
import { combatantFromSeed, defaultGroupId, factionLabel, say } from './rules.ts';
import { eachCombatant } from '../../encounter/combatant-table.ts';

const RESERVED_IDS = new Set(['pass', 'none', 'roll', 'random']);

/**
 * The shared roster rules (core/encounter/roster.ts): a seed joins one of the factions, in its faction's default
 * group; ids that answer a question ('pass', 'roll'...) or hold a ':' are reserved. Adding and dropping say so in the log.
 */
export const ROSTER: RosterSpec<FactionsContext, FactionsCombatant> = {
  max: 500,
  sideProblem: (ctx, seed) => (ctx.factions[seed.side] ? null : `${seed.name} must join one of the factions: ${ctx.cycle.map((k) => factionLabel(ctx, k)).join(', ')}.`),
  idProblem: (seed) => (RESERVED_IDS.has(seed.id) || seed.id.includes(':') ? `"${seed.id}" cannot be a combatant's id.` : null),
  fromSeed: (ctx, seed) => ({ ...combatantFromSeed(seed, seed.side, ctx.options), group: defaultGroupId(seed.side) }),
  hasLeft: (c) => c.removed !== null,
  afterAdd: (ctx, seeds) => {
    // One copy of the groups for the whole batch (joinGroup, seed by seed, without counting them).
    const groups = { ...ctx.groups };
    for (const seed of seeds) {
      const groupId = defaultGroupId(seed.side);
      const group = groups[groupId]!;
      groups[groupId] = { ...group, members: [...group.members, seed.id], originalCount: group.originalCount };
    }
    const next: FactionsContext = { ...ctx, groups };
    return say(next, 'setup', roster.addedSentence(seeds, next.cycle.map((key) => ({ key, label: factionLabel(next, key) }))));
  },
  afterDrop: (ctx, id, dropped) => say(leaveGroup(ctx, id, dropped.group), 'setup', `${dropped.name} was taken off the roster.`),
};

export function joinGroup(ctx: FactionsContext, id: string, groupId: string, countIt: boolean): FactionsContext {
  const group = ctx.groups[groupId]!;
  const groups = { ...ctx.groups, [groupId]: { ...group, members: [...group.members, id], originalCount: group.originalCount + (countIt ? 1 : 0) } };
  return update({ ...ctx, groups }, id, { group: groupId });
}

function leaveGroup(ctx: FactionsContext, id: string, groupId = ctx.combatants[id]!.group): FactionsContext {
  const group = ctx.groups[groupId];
  if (!group) return ctx;
  return { ...ctx, groups: { ...ctx.groups, [groupId]: { ...group, members: group.members.filter((m) => m !== id) } } };
}

const FACTION_KEY = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** A faction named by its key or, as a GM types it in a form, by its label (any case); null when none matches. */
export function factionKeyOf(ctx: FactionsContext, text: string): string | null {
  if (ctx.factions[text]) return text;
  const wanted = text.trim().toLowerCase();
  return Object.values(ctx.factions).find((f) => f.key === wanted || f.label.toLowerCase() === wanted)?.key ?? null;
}

const noSuchFaction = (ctx: FactionsContext, text: string) =>
  `There is no faction "${text}": the factions are ${Object.values(ctx.factions).map((f) => (f.key === f.label ? f.key : `${f.label} (${f.key})`)).join(', ')}.`;

export function checkAddFaction(ctx: FactionsContext, key: string, label: string): string | null {
  if (!FACTION_KEY.test(key)) return 'A faction key is up to 32 lower-case letters, digits, - or _.';
  if (ctx.factions[key]) return `There is already a faction "${factionLabel(ctx, key)}" with that key.`;
  if (Object.values(ctx.factions).some((f) => f.label.toLowerCase() === label.toLowerCase())) return `There is already a faction called ${label}.`;
  if (ctx.cycle.length >= 12) return 'An encounter holds at most 12 factions.';
  return null;
}

export function addFaction(ctx: FactionsContext, key: string, label: string): FactionsContext {
  const groupId = defaultGroupId(key);
  const next: FactionsContext = {
    ...ctx,
    factions: { ...ctx.factions, [key]: { key, label } },
    cycle: [...ctx.cycle, key],
    groups: { ...ctx.groups, [groupId]: { id: groupId, label, faction: key, members: [], originalCount: 0, checked: false } },
  };
  return say(next, 'setup', `Faction ${label} joins the cycle: ${next.cycle.map((k) => factionLabel(next, k)).join(' → ')}.`, ['R-F1']);
}

export function checkRenameFaction(ctx: FactionsContext, named: string, label: string): string | null {
  const key = factionKeyOf(ctx, named);
  if (!key) return noSuchFaction(ctx, named);
  if (Object.values(ctx.factions).some((f) => f.key !== key && f.label.toLowerCase() === label.toLowerCase())) return `There is already a faction called ${label}.`;
  return null;
}

export function renameFaction(ctx: FactionsContext, named: string, label: string): FactionsContext {
  const key = factionKeyOf(ctx, named)!;
  const old = factionLabel(ctx, key);
  const groupId = defaultGroupId(key);
  const groups = ctx.groups[groupId] ? { ...ctx.groups, [groupId]: { ...ctx.groups[groupId]!, label } } : ctx.groups;
  return say({ ...ctx, factions: { ...ctx.factions, [key]: { key, label } }, groups }, 'setup', `${old} is now called ${label}.`);
}

export function checkSetFaction(ctx: FactionsContext, id: string, named: string): string | null {
  const c = ctx.combatants[id];
  if (!c) return 'That combatant is not in this encounter.';
  const faction = factionKeyOf(ctx, named);
  if (!faction) return noSuchFaction(ctx, named);
  if (c.faction === faction) return `${c.name} is already with ${factionLabel(ctx, faction)}.`;
  return null;
}

export function setFaction(ctx: FactionsContext, id: string, named: string): FactionsContext {
  const faction = factionKeyOf(ctx, named)!;
  const moved = update(leaveGroup(ctx, id), id, { faction });
  return say(joinGroup(moved, id, defaultGroupId(faction), false), 'setup', `${nameOf(ctx, id)} joins ${factionLabel(ctx, faction)}.`);
}

export function checkCycle(ctx: FactionsContext, named: string[]): string | null {
  const unknown = named.find((k) => factionKeyOf(ctx, k) === null);
  if (unknown !== undefined) return noSuchFaction(ctx, unknown);
  const keys = named.map((k) => factionKeyOf(ctx, k)!);
  const all = Object.keys(ctx.factions);
  const isPermutation = keys.length === all.length && new Set(keys).size === keys.length;
  return isPermutation ? null : `The cycle must list every faction exactly once: ${all.map((k) => factionLabel(ctx, k)).join(', ')}.`;
}

export function setCycle(ctx: FactionsContext, named: string[]): FactionsContext {
  const keys = named.map((k) => factionKeyOf(ctx, k)!);
  return say({ ...ctx, cycle: [...keys] }, 'setup', `Faction cycle: ${keys.map((k) => factionLabel(ctx, k)).join(' → ')}.`, ['R-F1']);
}

/** A morale group's id: the one given, or one made from its label (a form sends only the label). */
export const groupIdOf = (groupId: string | undefined, label: string) => groupId ?? `group:${label.trim().toLowerCase()}`.slice(0, 64);

export function checkSetGroup(ctx: FactionsContext, groupId: string, ids: string[]): string | null {
  if (groupId.startsWith('faction:')) return 'Faction groups are made automatically; give a new group its own id.';
  if (ids.length === 0) return 'A group needs at least one member.';
  if (new Set(ids).size !== ids.length) return 'Each member is listed once.';
  const missing = ids.find((id) => !ctx.combatants[id]);
  if (missing) return 'That combatant is not in this encounter.';
  const factions = new Set(ids.map((id) => ctx.combatants[id]!.faction));
  if (factions.size > 1) return 'A morale group stays inside one faction.';
  const existing = ctx.groups[groupId];
  if (existing && existing.faction !== ctx.combatants[ids[0]!]!.faction) return 'That group belongs to another faction.';
  return null;
}

export function setGroup(ctx: FactionsContext, groupId: string, label: string, ids: string[]): FactionsContext {
  const faction = ctx.combatants[ids[0]!]!.faction;
  let next: FactionsContext = ctx;
  // Former members of a regrouped group go back to their faction's group.
  for (const former of ctx.groups[groupId]?.members ?? []) {
    if (!ids.includes(former)) next = joinGroup(leaveGroup(next, former), former, defaultGroupId(faction), false);
  }
  for (const id of ids) if (next.combatants[id]!.group !== groupId) next = leaveGroup(next, id);
  next = { ...next, groups: { ...next.groups, [groupId]: { id: groupId, label, faction, members: [...ids], originalCount: 0, checked: false } } };
  for (const id of ids) next = update(next, id, { group: groupId });
  return say(next, 'setup', `Morale group ${label}: ${ids.map((id) => nameOf(ctx, id)).join(', ')}.`, ['R-F7']);
}

export function checkInitiative(ctx: FactionsContext, id: string, roll: Roll | null | undefined, started: boolean): string | null {
  if (id === 'random') {
    if (!started) return 'Roll for the initiative once the fight has started: the app offers the roll then.';
    const n = activeFactions(ctx).length;
    if (!roll || roll.faces.length !== 1) return `The initiative roll needs one d${n}.`;
    const face = roll.faces[0]!;
    return Number.isInteger(face) && face >= 1 && face <= n ? null : `${face} is not a face of a d${n}.`;
  }
  const key = factionKeyOf(ctx, id);
  if (!key) return noSuchFaction(ctx, id);
  if (started && !activeFactions(ctx).includes(key)) return `${agrees(factionLabel(ctx, key), 'has', 'have')} nobody in this fight.`;
  return null;
}

export function setInitiative(ctx: FactionsContext, id: string, roll: Roll | null | undefined): FactionsContext {
  if (id === 'random') {
    const factions = activeFactions(ctx);
    const holder = factions[roll!.faces[0]! - 1]!;
    return say({ ...ctx, initiative: holder }, 'order', `Nobody clearly started the fight: d${factions.length} [${roll!.faces[0]}] gives the initiative to ${factionLabel(ctx, holder)}.`);
  }
  const key = factionKeyOf(ctx, id)!;
  return say({ ...ctx, initiative: key }, 'order', `${factionLabel(ctx, key)} started the fight and ${isPluralName(factionLabel(ctx, key)) ? 'hold' : 'holds'} the initiative.`);
}

export function checkConcealed(ctx: FactionsContext, id: string): string | null {
  return ctx.combatants[id] ? null : 'That combatant is not in this encounter.';
}

export function setConcealed(ctx: FactionsContext, id: string, concealed: boolean): FactionsContext {
  const next = update(ctx, id, { concealed });
  return say(next, 'setup', concealed ? `${nameOf(ctx, id)} lies in ambush, concealed.` : `${nameOf(ctx, id)} is not concealed.`);
}


export function setOptionalRules(ctx: FactionsContext, fastSlow: boolean, chaos: boolean): FactionsContext {
  const parts = [fastSlow ? 'fast and slow activations on' : 'fast and slow activations off', chaos ? 'the chaos of combat on (15 seconds to declare a turn)' : 'the chaos of combat off'];
  return say({ ...ctx, fastSlow, chaos }, 'setup', `Optional rules: ${parts.join('; ')}.`);
}

/** Factions with at least one member in the encounter, in cycle order. */
export const activeFactions = (ctx: FactionsContext) => ctx.cycle.filter((key) => ctx.roster.some((id) => ctx.combatants[id]?.faction === key));

export function checkStart(ctx: FactionsContext): string | null {
  if (activeFactions(ctx).length < 2) return 'A fight needs members in at least two factions.';
  return null;
}

/** START: empty factions leave the cycle, groups count their heads, ambushers are marked (§3.2 rule 8, R-F8). */
export function start(ctx: FactionsContext): FactionsContext {
  const cycle = activeFactions(ctx);
  const groups = Object.fromEntries(
    Object.entries(ctx.groups)
      .filter(([, g]) => g.members.length > 0)
      .map(([id, g]) => [id, { ...g, originalCount: g.members.length }]),
  );
  const combatants = eachCombatant(ctx.combatants, (c) => ({ ...c, ambusher: c.concealed }));
  const next: FactionsContext = { ...ctx, cycle, groups, combatants, initiative: ctx.initiative && cycle.includes(ctx.initiative) ? ctx.initiative : null };
  const groupText = Object.values(groups).map((g) => `${g.label} ${g.originalCount}`).join(', ');
  return say(next, 'round', `The fight starts. Factions in cycle order: ${cycle.map((k) => factionLabel(ctx, k)).join(' → ')}. Morale groups: ${groupText}.`, ['R-F1', 'R-F7']);
}
