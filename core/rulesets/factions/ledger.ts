// Factions' recovery between fights as campaign ledger rules (RULES.md §3.6, R-F8, R-F20, R-F21, R-F22; the game
// is Murdham). The chapter has gear degradation but no repair rules, no healing and no rests: repairing and
// replacing gear are GM actions that note the cost and the place, health is set by the GM (R-F20 decides what
// incapacitation means), and the end of a stretch lifts morale immunity (R-F8). The condition a character is read
// in is exactly what the next fight would start from: the encounter's own `carriedIn` and `combatantFromSeed`.
import * as z from 'zod';
import type { GmEvent } from '../../encounter/types.ts';
import { LedgerRefusal, type CampaignWorld, type LedgerCharacter, type LedgerForm, type RecoveryCard, type RecoveryChange, type RecoveryOutcome, type RecoveryRules } from '../../ledger/types.ts';
import { factionsEncounter, npcImmunityEntries } from './encounter.ts';
import { endStretch, repairGear, replaceGear, setHealth, type FactionsState } from './recovery.ts';
import { combatantFromSeed, GEAR_ITEMS, type Gear, type GearItem, type GearState } from './rules.ts';

// ---- the events ----

// Built on first use, not as the module loads: a start (which reads no ledger) builds no ruleset's schema
// (docs/performance.md "Start"; server/start-schemas.test.ts).
const eventSchema = z.lazy(() => {
  const characterIdSchema = z.string({ error: 'Choose a character.' }).min(1, { error: 'Choose a character.' }).max(64, { error: 'A character id is at most 64 characters.' });
  const itemSchema = z.enum(['weapon', 'shield', 'armour'], { error: 'The item is the weapon, the shield or the armour.' });
  const noteSchema = z.string({ error: 'A note must be text.' }).trim().max(200, { error: 'A note is at most 200 characters.' }).optional();

  return z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('REPAIR_GEAR'), characterId: characterIdSchema, item: itemSchema, note: noteSchema }),
    z.strictObject({ type: z.literal('REPLACE_GEAR'), characterId: characterIdSchema, item: itemSchema, note: noteSchema }),
    z.strictObject({
      type: z.literal('SET_HEALTH'),
      characterId: characterIdSchema,
      health: z.number({ error: 'Health must be a number.' }).int({ error: 'Health is a whole number.' }).min(0, { error: 'Health is at least 0.' }).max(99, { error: 'Health is at most 99.' }),
      incapacitated: z.boolean({ error: 'Still incapacitated must be yes or no.' }).optional(),
      note: noteSchema,
    }),
    z.strictObject({ type: z.literal('END_STRETCH'), characterId: characterIdSchema }),
  ]);
});
type FactionsRecoveryEvent = z.infer<typeof eventSchema>;

const who = { key: 'characterId', label: 'Character', kind: 'character' } as const;
const itemField = {
  key: 'item', label: 'Item', kind: 'choice', default: 'weapon',
  choices: [{ value: 'weapon', label: 'Weapon' }, { value: 'shield', label: 'Shield' }, { value: 'armour', label: 'Armour' }],
} as const;
const noteField = { key: 'note', label: 'Cost and where', kind: 'text', optional: true, emptyAs: 'omit', help: 'The chapter gives no cost: what it took and where ("12 coins, the smith at Hollow Ford").' } as const;

const forms: readonly LedgerForm[] = [
  { type: 'REPAIR_GEAR', label: 'Repair gear', help: 'A damaged weapon, shield or armour is whole again. A destroyed item has left the inventory: replace it.', fields: [who, itemField, noteField] },
  { type: 'REPLACE_GEAR', label: 'Replace gear', help: 'New gear of the same kind for a damaged or destroyed item.', fields: [who, itemField, noteField] },
  {
    type: 'SET_HEALTH', label: 'Set health',
    help: 'How health returns is outside this chapter: set it as your rules say, from 0 to the maximum. Health above 0 ends dying.',
    fields: [
      who,
      { key: 'health', label: 'Health', kind: 'integer', min: 0, max: 99 },
      { key: 'incapacitated', label: 'Still incapacitated', kind: 'flag', default: false, help: 'Murdham health (R-F20) only: keep them down above 0 health. At 0 health a character is always incapacitated.' },
      { key: 'note', label: 'Why', kind: 'text', optional: true, emptyAs: 'omit' },
    ],
  },
  { type: 'END_STRETCH', label: 'End the stretch', bulk: true, help: 'R-F8: immunity from a passed morale check lapses, and a failed check is behind them.', fields: [who] },
];

// ---- reading a character ----

/** The character as the next fight would see them (the encounter's carriedIn + combatantFromSeed). */
function combatantOf(world: CampaignWorld, character: LedgerCharacter) {
  const carried = factionsEncounter.carriedIn!(character.state, character.records.map((r) => r.data));
  return combatantFromSeed({ id: character.id, name: character.name, side: 'party', characterId: character.id, sheet: character.sheet as Record<string, string | number | boolean>, carried }, 'party', world.options);
}

function conditionOf(world: CampaignWorld, character: LedgerCharacter): FactionsState & { healthMax: number; gear: Gear } {
  const c = combatantOf(world, character);
  return {
    health: c.health, healthMax: c.healthMax, incapacitated: c.incapacitated, dying: c.dying, dead: character.state['dead'] === true,
    moraleImmune: c.moraleImmune, moraleFailed: c.moraleFailed, gear: c.gear,
  };
}

function characterOf(world: CampaignWorld, id: string): LedgerCharacter {
  const character = world.characters.find((c) => c.id === id);
  if (!character) throw new LedgerRefusal('That character is not a party member of this campaign.');
  return character;
}

const refuseIf = <T>(result: T | string): T => {
  if (typeof result === 'string') throw new LedgerRefusal(result);
  return result;
};

const withNote = (text: string, note: string | undefined) => (note?.trim() ? `${text} (${note.trim()}).` : `${text}.`);

// ---- applying an event ----

/** A repaired or replaced item: the stored gear state and every running record of that item, healed. */
function mendGear(world: CampaignWorld, character: LedgerCharacter, item: GearItem, how: 'repaired' | 'replaced', next: GearState, before: GearState, note: string | undefined): RecoveryOutcome {
  const gear = character.state['gear'] && typeof character.state['gear'] === 'object' ? (character.state['gear'] as Record<string, unknown>) : {};
  const records: RecoveryChange['records'] = character.records
    .filter((r) => r.category === 'gear' && r.data['item'] === item)
    .map((r) => ({ id: r.id, data: { ...r.data, state: next, [how]: { day: world.day, ...(note?.trim() ? { note: note.trim() } : {}) } }, healed: true }));
  return {
    change: { characters: [{ id: character.id, state: { ...character.state, gear: { ...gear, [item]: next } } }], ...(records.length ? { records } : {}) },
    log: [withNote(`${character.name}'s ${item} is ${how}: ${before} → ${next}`, note)],
  };
}

function apply(world: CampaignWorld, raw: GmEvent): RecoveryOutcome {
  const event = raw as FactionsRecoveryEvent;
  const character = characterOf(world, event.characterId);
  const now = conditionOf(world, character);
  const dead = () => {
    if (now.dead) throw new LedgerRefusal(`${character.name} is dead: nothing recovers.`);
  };
  switch (event.type) {
    case 'REPAIR_GEAR': {
      dead();
      const before = now.gear[event.item];
      return mendGear(world, character, event.item, 'repaired', refuseIf(repairGear(character.name, event.item, before)).state, before, event.note);
    }
    case 'REPLACE_GEAR': {
      dead();
      const before = now.gear[event.item];
      return mendGear(world, character, event.item, 'replaced', refuseIf(replaceGear(character.name, event.item, before)).state, before, event.note);
    }
    case 'SET_HEALTH': {
      const next = refuseIf(setHealth({ name: character.name, state: now, healthMax: now.healthMax }, event.health, world.options, event.incapacitated === true));
      const parts = [`${character.name}'s health is set: ${now.health} → ${next.health}/${now.healthMax}`];
      if (now.dying && !next.dying) parts.push('no longer dying');
      if (next.incapacitated && !now.incapacitated) parts.push(next.health === 0 ? 'incapacitated at 0 health (R-F20)' : 'incapacitated');
      else if (next.incapacitated) parts.push(next.health === 0 ? 'still incapacitated at 0 health (R-F20)' : 'still incapacitated (R-F20)');
      else if (now.incapacitated) parts.push('no longer incapacitated');
      return {
        change: { characters: [{ id: character.id, state: { ...character.state, health: next.health, incapacitated: next.incapacitated, dying: next.dying } }] },
        log: [withNote(parts.join('; '), event.note)],
      };
    }
    case 'END_STRETCH': {
      // R-F8: the stretch ends for the NPCs too: the templates kept immune since a passed check (encounter.ts) lapse
      // with the first character the stretch ends for; a character with no flag of its own ends it for them alone.
      const npcs = npcImmunityEntries(world.party);
      const party = npcs.length ? { party: Object.fromEntries(Object.entries(world.party).filter(([key]) => !npcs.some(([templateId]) => templateId === key))) } : {};
      const npcLine = npcs.length ? [`The stretch ends for the NPCs (R-F8): immunity from the passed morale check lapses for ${npcs.map(([, names]) => names).join(', ')}.`] : [];
      const next = endStretch(character.name, now);
      if (typeof next === 'string') {
        if (npcs.length === 0 || now.dead) throw new LedgerRefusal(next);
        return { change: party, log: npcLine };
      }
      const lapsed = [now.moraleImmune ? 'immunity from the passed morale check lapses' : null, now.moraleFailed ? 'the failed morale check is behind them' : null].filter(Boolean);
      return {
        change: { characters: [{ id: character.id, state: { ...character.state, moraleImmune: next.moraleImmune, moraleFailed: next.moraleFailed } }], ...party },
        log: [`The stretch ends for ${character.name} (R-F8): ${lapsed.join(', and ')}.`, ...npcLine],
      };
    }
  }
}

// ---- the recovery screen ----

const GEAR_LABEL: Record<GearItem, string> = { weapon: 'Weapon', shield: 'Shield', armour: 'Armour' };
const GEAR_SHOWN: Record<Exclude<GearState, 'none'>, { value: string; tone: 'ok' | 'warn' | 'bad' }> = {
  intact: { value: 'ok', tone: 'ok' },
  damaged: { value: 'damaged', tone: 'warn' },
  destroyed: { value: 'destroyed', tone: 'bad' },
};

function card(world: CampaignWorld, characterId: string): RecoveryCard {
  const character = characterOf(world, characterId);
  const c = combatantOf(world, character);
  const dead = character.state['dead'] === true;
  const morale = [
    c.moraleImmune ? 'immune until the stretch ends' : null,
    c.moraleFailed ? 'failed a check this stretch' : null,
    c.fearImmune ? 'immune to fear' : null,
  ].filter((m): m is string => m !== null);
  const stats: RecoveryCard['stats'] = [
    { label: 'Health', value: `${c.health}/${c.healthMax}`, tone: c.health >= c.healthMax ? 'ok' : c.health * 2 <= c.healthMax ? 'bad' : 'warn' },
    { label: 'Morale', value: morale.length ? morale.join('; ') : 'no flag', tone: c.moraleFailed ? 'bad' : 'ok' },
  ];
  for (const item of GEAR_ITEMS) {
    const state = c.gear[item];
    if (state !== 'none') stats.push({ label: GEAR_LABEL[item], ...GEAR_SHOWN[state] });
  }
  const records = character.records.map((r) => ({
    id: r.id, name: r.name, category: r.category,
    status: r.category !== 'gear' ? 'running' : r.data['state'] === 'destroyed' ? 'destroyed, gone from the inventory: replace it' : r.data['state'] === 'damaged' ? 'damaged: repair or replace it' : String(r.data['state'] ?? ''),
  }));
  const out = dead ? 'Dead' : c.dying ? 'Dying: all health lost' : c.incapacitated ? 'Incapacitated' : null;
  return { stats, marks: [], records, out };
}

/** NPCs immune to morale until the stretch ends (R-F8), kept per template by the fights that ended this stretch. */
function partyStats(world: CampaignWorld): { label: string; value: string }[] {
  const npcs = npcImmunityEntries(world.party);
  return npcs.length ? [{ label: 'NPCs immune to morale (stretch)', value: npcs.map(([, names]) => names).join(', ') }] : [];
}

export const factionsRecovery: RecoveryRules = {
  forms,
  eventSchema: eventSchema as unknown as z.ZodType<GmEvent>,
  apply,
  card,
  partyStats,
};
