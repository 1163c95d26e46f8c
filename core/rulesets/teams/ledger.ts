// Teams' recovery between fights as campaign ledger rules (RULES.md §2.5, §2.6, R-T26). The chapter has no rest
// rules: a Rest does what R-T26 is set to (reset the pools, or nothing by itself), Restore gives back the amounts
// the GM's own rules give, Wake brings someone round, Repair mends an item's durability. The cheat-death
// difficulty only ever rises (§2.4 step 13) and the dead recover nothing. The condition a character is read in is
// exactly what the next fight would start from: the encounter's own `carriedIn` and `combatantFromSeed`.
import * as z from 'zod';
import type { GmEvent } from '../../encounter/types.ts';
import { LedgerRefusal, type CampaignWorld, type LedgerCharacter, type LedgerForm, type RecoveryCard, type RecoveryOutcome, type RecoveryRules } from '../../ledger/types.ts';
import { teamsEncounter } from './encounter.ts';
import { repairItem, resetPools, restorePools, wake, POOLS, type Pool, type RecoveringCharacter, type TeamsCondition } from './recovery.ts';
import { combatantFromSeed, type ItemSlot } from './rules.ts';

// ---- the events ----

// Built on first use, not as the module loads: a start (which reads no ledger) builds no ruleset's schema
// (docs/performance.md "Start"; server/start-schemas.test.ts).
const eventSchema = z.lazy(() => {
  const characterIdSchema = z.string({ error: 'Choose a character.' }).min(1, { error: 'Choose a character.' }).max(64, { error: 'A character id is at most 64 characters.' });
  const poolAmount = (label: string) =>
    z
      .number({ error: `${label} must be a number.` })
      .int({ error: `${label} is a whole number.` })
      .min(1, { error: `${label} is at least 1.` })
      .max(999, { error: `${label} is at most 999.` })
      .optional();
  const noteSchema = z.string({ error: 'A note must be text.' }).trim().max(200, { error: 'A note is at most 200 characters.' }).optional();

  return z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('REST'), characterId: characterIdSchema }),
    z.strictObject({
      type: z.literal('RESTORE'),
      characterId: characterIdSchema,
      endurance: poolAmount('Endurance restored'),
      health: poolAmount('Health restored'),
      stamina: poolAmount('Stamina restored'),
      focus: poolAmount('Focus restored'),
      wake: z.boolean({ error: 'Wake must be yes or no.' }).optional(),
    }),
    z.strictObject({ type: z.literal('WAKE'), characterId: characterIdSchema }),
    z.strictObject({
      type: z.literal('REPAIR_ITEM'),
      characterId: characterIdSchema,
      item: z.enum(['weapon', 'shield'], { error: 'The item is the weapon or the shield.' }),
      amount: z.number({ error: 'Durability repaired must be a number.' }).int({ error: 'Durability repaired is a whole number.' }).min(1, { error: 'Durability repaired is at least 1.' }).max(999, { error: 'Durability repaired is at most 999.' }).optional(),
      note: noteSchema,
    }),
  ]);
});
type TeamsRecoveryEvent = z.infer<typeof eventSchema>;

const who = { key: 'characterId', label: 'Character', kind: 'character' } as const;

const forms: readonly LedgerForm[] = [
  {
    type: 'REST', label: 'Rest', bulk: true,
    help: 'The chapter has no rest rules: a full Rest is R-T26\'s reset hook, every pool back to its maximum and conscious. For partial recovery use Restore with the amounts your rules give.',
    fields: [who],
  },
  {
    type: 'RESTORE', label: 'Restore', bulk: true,
    help: 'What your own rules give back: each pool by its amount, up to its maximum. Leave a pool empty to leave it as it is.',
    fields: [
      who,
      ...POOLS.map((pool) => ({ key: pool, label: `${pool[0]!.toUpperCase()}${pool.slice(1)} +`, kind: 'integer' as const, min: 1, max: 999, optional: true, emptyAs: 'omit' as const })),
      { key: 'wake', label: 'Also wake them (health above 0)', kind: 'flag', default: false },
    ],
  },
  { type: 'WAKE', label: 'Wake', help: 'Someone tends an unconscious character and brings them round; at zero health restore some health first.', fields: [who] },
  {
    type: 'REPAIR_ITEM', label: 'Repair item',
    help: 'Mends durability up to the item\'s maximum (10 for metal, 4 otherwise when none is listed); a broken item can be repaired. The chapter gives no repair cost: note it here.',
    fields: [
      who,
      { key: 'item', label: 'Item', kind: 'choice', choices: [{ value: 'weapon', label: 'Weapon' }, { value: 'shield', label: 'Shield' }], default: 'weapon' },
      { key: 'amount', label: 'Durability +', kind: 'integer', min: 1, max: 999, optional: true, emptyAs: 'omit', help: 'Leave empty to repair it fully.' },
      { key: 'note', label: 'Cost and where', kind: 'text', optional: true, emptyAs: 'omit' },
    ],
  },
];

// ---- reading a character ----

const sheetOf = (character: LedgerCharacter) => character.sheet as Record<string, string | number | boolean>;

/** Dead: the fight carried `dead: true` out, or a death was recorded in a fight that never ended. */
const isDead = (character: LedgerCharacter) => character.state['dead'] === true || character.records.some((r) => r.category === 'death');

/** The character as the next fight would see them (the encounter's carriedIn + combatantFromSeed). */
function combatantOf(character: LedgerCharacter) {
  const carried = teamsEncounter.carriedIn!(character.state, character.records.map((r) => r.data));
  return combatantFromSeed({ id: character.id, name: character.name, side: 'party', characterId: character.id, sheet: sheetOf(character), carried });
}

function recovering(character: LedgerCharacter): RecoveringCharacter {
  const c = combatantOf(character);
  const condition: TeamsCondition = {
    endurance: c.endurance, health: c.health, stamina: c.stamina, focus: c.focus,
    unconscious: !c.conscious, cheatDeathDifficulty: c.cheatDeathDifficulty,
    items: { weapon: { durability: c.items.weapon.durability }, ...(c.items.shield ? { shield: { durability: c.items.shield.durability } } : {}) },
    ...(isDead(character) ? { dead: true } : {}),
  };
  return { name: character.name, sheet: sheetOf(character), condition };
}

/**
 * The stored state after a recovery: the pools, consciousness (always written, so health above 0 does not wake a
 * character by default) and item durability; everything else the state holds (the cheat-death difficulty, dead,
 * other keys) stays as it was.
 */
function stored(character: LedgerCharacter, condition: TeamsCondition): Record<string, unknown> {
  const before = character.state['items'] && typeof character.state['items'] === 'object' ? (character.state['items'] as Record<string, unknown>) : {};
  return {
    ...character.state,
    endurance: condition.endurance, health: condition.health, stamina: condition.stamina, focus: condition.focus,
    unconscious: condition.unconscious,
    items: { ...before, ...condition.items },
  };
}

function characterOf(world: CampaignWorld, id: string): LedgerCharacter {
  const character = world.characters.find((c) => c.id === id);
  if (!character) throw new LedgerRefusal('That character is not a party member of this campaign.');
  return character;
}

// ---- applying an event ----

function apply(world: CampaignWorld, raw: GmEvent): RecoveryOutcome {
  const event = raw as TeamsRecoveryEvent;
  const character = characterOf(world, event.characterId);
  const subject = recovering(character);
  let result: { condition: TeamsCondition; text: string };
  switch (event.type) {
    case 'REST': {
      if (subject.condition.dead) throw new LedgerRefusal(`${character.name} is dead: nothing recovers.`);
      // R-T26's reset hook: the chapter has no rest rules, so a full Rest puts every pool back to its maximum
      // whatever the campaign does at the end of a fight (poolsAfterCombat only decides that moment).
      result = resetPools(subject);
      break;
    }
    case 'RESTORE': {
      const amounts: Partial<Record<Pool, number>> = {};
      for (const pool of POOLS) if (event[pool] !== undefined) amounts[pool] = event[pool];
      if (Object.keys(amounts).length === 0) {
        if (subject.condition.dead) throw new LedgerRefusal(`${character.name} is dead: nothing recovers.`);
        throw new LedgerRefusal(event.wake ? `Say which pools ${character.name} recovers; to only bring them round, use Wake.` : `Say which pools ${character.name} recovers and by how much.`);
      }
      result = restorePools(subject, amounts, event.wake === true);
      break;
    }
    case 'WAKE':
      result = wake(subject);
      break;
    case 'REPAIR_ITEM': {
      const repaired = repairItem(subject, event.item as ItemSlot, event.amount);
      const note = event.note?.trim();
      result = { condition: repaired.condition, text: note ? `${repaired.text.slice(0, -1)} (${note}).` : repaired.text };
      break;
    }
  }
  return { change: { characters: [{ id: character.id, state: stored(character, result.condition) }] }, log: [result.text] };
}

// ---- the recovery screen ----

function tone(current: number, max: number): 'ok' | 'warn' | 'bad' {
  if (current >= max) return 'ok';
  return current <= 0 ? 'bad' : 'warn';
}

function card(world: CampaignWorld, characterId: string): RecoveryCard {
  const character = characterOf(world, characterId);
  const c = combatantOf(character);
  const dead = isDead(character);
  const stats: RecoveryCard['stats'] = [
    { label: 'Endurance', value: `${c.endurance}/${c.enduranceMax}`, tone: tone(c.endurance, c.enduranceMax) },
    { label: 'Health', value: `${c.health}/${c.healthMax}`, tone: tone(c.health, c.healthMax) },
    { label: 'Stamina', value: `${c.stamina}/${c.staminaMax}`, tone: tone(c.stamina, c.staminaMax) },
    { label: 'Focus', value: `${c.focus}/${c.focusMax}`, tone: tone(c.focus, c.focusMax) },
    dead ? { label: 'Condition', value: 'Dead', tone: 'bad' } : { label: 'Condition', value: c.conscious ? 'Conscious' : 'Unconscious', tone: c.conscious ? 'ok' : 'bad' },
  ];
  for (const [slot, item] of [['Weapon', c.items.weapon], ['Shield', c.items.shield]] as const) {
    if (!item) continue;
    stats.push({
      label: `${slot}: ${item.name}`,
      value: `durability ${item.durability}/${item.durabilityMax}${item.durability === 0 ? ' (broken)' : ''}`,
      tone: item.durability === 0 ? 'bad' : item.durability < item.durabilityMax ? 'warn' : 'ok',
    });
  }
  const successes = character.records.filter((r) => r.category === 'cheatDeath').length;
  const times = successes === 1 ? 'once' : successes === 2 ? 'twice' : `${successes} times`;
  const marks = [`Cheat-death difficulty ${c.cheatDeathDifficulty}${successes ? ` (cheated death ${times}, +5 each time)` : ''}: it never falls`];
  const records = character.records.map((r) => ({
    id: r.id, name: r.name, category: r.category, permanent: true,
    status: r.category === 'cheatDeath' && typeof r.data['before'] === 'number' && typeof r.data['after'] === 'number'
      ? `permanent: difficulty ${r.data['before']} → ${r.data['after']}`
      : r.category === 'death' ? `permanent${typeof r.data['cause'] === 'string' && r.data['cause'] ? `: ${r.data['cause']}` : ''}` : 'permanent',
  }));
  const out = dead ? 'Dead' : c.conscious ? null : c.health === 0 ? 'Unconscious at zero health: restore health, then wake them' : 'Unconscious: wake them';
  return { stats, marks, records, out };
}

export const teamsRecovery: RecoveryRules = {
  forms,
  eventSchema: eventSchema as unknown as z.ZodType<GmEvent>,
  apply,
  card,
};
