// "Any system"'s recovery as campaign-ledger rules: short and long rests (what they restore is the campaign's
// ruling), notes between sessions, injuries between sessions and injuries healed, a revival, and the recovery screen's card. The pure steps live
// in recovery.ts; this file reads the campaign world into them and writes the results back as a ledger change.
import * as z from 'zod';
import type { GmEvent } from '../../encounter/types.ts';
import type { CampaignWorld, LedgerCharacter, LedgerForm, RecoveryCard, RecoveryOutcome, RecoveryRules } from '../../ledger/types.ts';
import { conditionOf, longRest, refuse, revive, shortRest, stateOf, type RestResult } from './recovery.ts';

// ---- events ----

/** The category of the injuries this ruleset's fights and ledger write (its `records` declaration, index.ts). */
const INJURY = 'injury';
/** As long as a fight's injury's name (events.ts). */
const INJURY_NAME_MAX = 120;

// Built on first use, not as the module loads: a start (which reads no ledger) builds no ruleset's schema
// (docs/performance.md "Start"; server/start-schemas.test.ts).
const eventSchema = z.lazy(() => {
  const characterId = z.string({ error: 'Choose a character.' }).min(1, { error: 'Choose a character.' }).max(64, { error: 'A character id is at most 64 characters.' });
  const hp = (what: string) => z.number({ error: `${what} must be a number.` }).int({ error: `${what} must be a whole number.` })
    .min(0, { error: `${what} cannot be negative.` }).max(9999, { error: `${what} is at most 9999.` });

  return z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('SHORT_REST'), characterId, hp: hp('HP healed') }),
    z.strictObject({ type: z.literal('LONG_REST'), characterId }),
    z.strictObject({ type: z.literal('NOTE'), characterId, text: z.string({ error: 'A note must be text.' }).trim().min(1, { error: 'Write the note.' }).max(500, { error: 'A note is at most 500 characters.' }) }),
    z.strictObject({
      type: z.literal('INJURY'), characterId,
      name: z.string({ error: 'Name the injury.' }).trim().min(1, { error: 'Name the injury.' }).max(INJURY_NAME_MAX, { error: `An injury's name is at most ${INJURY_NAME_MAX} characters.` }),
      untilLongRest: z.boolean({ error: '"Until a long rest" is yes or no.' }).optional(),
      notes: z.string({ error: 'Notes must be text.' }).trim().max(500, { error: 'Notes on an injury are at most 500 characters.' }).optional(),
    }),
    z.strictObject({ type: z.literal('HEAL_INJURY'), characterId, recordId: z.string({ error: 'Choose the injury.' }).min(1, { error: 'Choose the injury.' }).max(64) }),
    z.strictObject({ type: z.literal('REVIVE'), characterId, hp: hp('HP') }),
  ]);
});
type AnyRecoveryEvent = z.infer<typeof eventSchema>;

// ---- forms ----

const who = { key: 'characterId', label: 'Character', kind: 'character' } as const;

const forms: readonly LedgerForm[] = [
  { type: 'SHORT_REST', label: 'Short rest', bulk: true, help: 'Heals the HP you type (hit dice spent, a song of rest), up to the maximum (R-A11).',
    fields: [who, { key: 'hp', label: 'HP healed', kind: 'integer', min: 0, max: 9999, default: 0 }] },
  { type: 'LONG_REST', label: 'Long rest', bulk: true, help: 'HP as the campaign rules it (R-A10), temporary HP to 0, injuries "until a long rest" end. Once a day.', fields: [who] },
  { type: 'NOTE', label: 'Note', help: 'Anything to remember between sessions: a curse, a debt, a promise.', fields: [who, { key: 'text', label: 'Note', kind: 'text' }] },
  { type: 'INJURY', label: 'Injury', help: 'Hurt between sessions (a fall during downtime, a curse): recorded as a fight\'s injury is, until it heals.',
    fields: [who, { key: 'name', label: 'Injury', kind: 'text' }, { key: 'untilLongRest', label: 'Until a long rest', kind: 'flag', optional: true },
      { key: 'notes', label: 'Notes', kind: 'text', optional: true }] },
  { type: 'HEAL_INJURY', label: 'Heal an injury', fields: [who, { key: 'recordId', label: 'Injury', kind: 'record', categories: [INJURY] }] },
  { type: 'REVIVE', label: 'Bring back to life', help: 'A resurrection, a miracle: the character is alive again at the HP you type.', fields: [who, { key: 'hp', label: 'HP', kind: 'integer', min: 1, max: 9999, default: 1 }] },
];

// ---- the character as recovery sees it ----

interface Note { day: number; text: string }
const NOTES_KEPT = 50;

function notesOf(state: Record<string, unknown>): Note[] {
  const raw = state['notes'];
  if (!Array.isArray(raw)) return [];
  return raw.filter((n): n is Note => typeof n === 'object' && n !== null && typeof (n as Note).day === 'number' && typeof (n as Note).text === 'string');
}

function characterOf(world: CampaignWorld, id: string): LedgerCharacter {
  const character = world.characters.find((c) => c.id === id);
  if (!character) refuse('That character is not a party member of this campaign.');
  return character;
}

const longRestToday = (world: CampaignWorld, state: Record<string, unknown>) => state['longRestDay'] === world.day;
const injuries = (character: LedgerCharacter) => character.records.filter((r) => r.category === INJURY);

function restOutcome(character: LedgerCharacter, result: RestResult, extra: Record<string, unknown> = {}): RecoveryOutcome {
  return { change: { characters: [{ id: character.id, state: { ...character.state, ...stateOf(result.condition), ...extra } }] }, log: [result.text] };
}

// ---- applying an event ----

function apply(world: CampaignWorld, raw: GmEvent): RecoveryOutcome {
  const event = raw as AnyRecoveryEvent;
  const character = characterOf(world, event.characterId);
  const { name } = character;
  const condition = conditionOf(character.sheet, character.state);
  switch (event.type) {
    case 'SHORT_REST':
      return restOutcome(character, shortRest(name, condition, world.options, event.hp));
    case 'LONG_REST': {
      if (longRestToday(world, character.state)) refuse(`${name} has already had a long rest today (day ${world.day}): move the campaign clock on first.`);
      const result = longRest(name, condition, world.options);
      const ending = injuries(character).filter((r) => r.data['untilLongRest'] === true);
      const outcome = restOutcome(character, ending.length ? { ...result, text: `${result.text.replace(/\.$/, '')}; ${ending.map((r) => r.name).join(', ')} ${ending.length === 1 ? 'heals' : 'heal'}.` } : result, { longRestDay: world.day });
      return ending.length ? { ...outcome, change: { ...outcome.change, records: ending.map((r) => ({ id: r.id, data: r.data, healed: true })) } } : outcome;
    }
    case 'NOTE': {
      const notes = [...notesOf(character.state), { day: world.day, text: event.text }].slice(-NOTES_KEPT);
      return { change: { characters: [{ id: character.id, state: { ...character.state, notes } }] }, log: [`Note on ${name} (day ${world.day}): ${event.text}`] };
    }
    case 'INJURY': {
      // Stored as a fight's injury is (encounter.ts consequences), with the day instead of the round.
      const untilLongRest = event.untilLongRest === true;
      const data = { untilLongRest, day: world.day, ...(event.notes ? { notes: event.notes } : {}) };
      return {
        change: { newRecords: [{ characterId: character.id, name: event.name, category: INJURY, data }] },
        log: [`${name} is injured on day ${world.day}: ${event.name}${untilLongRest ? ' (until a long rest)' : ''}.`, ...(event.notes ? [`Notes: ${event.notes}`] : [])],
      };
    }
    case 'HEAL_INJURY': {
      const record = injuries(character).find((r) => r.id === event.recordId);
      if (!record) refuse(`That injury is not one of ${name}'s open injuries.`);
      return { change: { records: [{ id: record.id, data: record.data, healed: true }] }, log: [`${name}'s ${record.name} heals.`] };
    }
    case 'REVIVE':
      return restOutcome(character, revive(name, condition, event.hp));
  }
}

// ---- the recovery screen ----

function card(world: CampaignWorld, characterId: string): RecoveryCard {
  const character = characterOf(world, characterId);
  const c = conditionOf(character.sheet, character.state);
  const stats: RecoveryCard['stats'] = [
    { label: 'HP', value: `${c.hp}/${c.hpMax}`, tone: c.dead || c.hp === 0 ? 'bad' : c.hp < c.hpMax ? 'warn' : 'ok' },
    { label: 'Temp HP', value: String(c.tempHp) },
    { label: 'Long rest today', value: longRestToday(world, character.state) ? '1/1' : '0/1' },
  ];
  const marks = notesOf(character.state).slice(-5).map((n) => `Note (day ${n.day}): ${n.text}`);
  const records = injuries(character).map((r) => ({ id: r.id, name: r.name, category: r.category, status: r.data['untilLongRest'] === true ? 'until a long rest' : 'until healed' }));
  return { stats, marks, records, out: c.dead ? 'Dead' : null };
}

export const anySystemRecovery: RecoveryRules = {
  forms,
  eventSchema: eventSchema as unknown as z.ZodType<GmEvent>,
  apply,
  card,
};
