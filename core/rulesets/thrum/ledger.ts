// Thrum's recovery between fights as campaign-ledger rules (RULES.md §5.5, §5.6, R-H9, R-H17). Loads reset at the end
// of every fight, so only lowered tolerances and Wounds need recovery, and only Downtime, a very powerful item or a
// story objective gives it. The pure steps live in recovery.ts; this file reads the campaign world into them and
// writes their results back as a ledger change (the stored condition and the Wound records).
import * as z from 'zod';
import type { GmEvent } from '../../encounter/types.ts';
import { LedgerRefusal, type CampaignWorld, type LedgerCharacter, type LedgerForm, type LedgerRecord, type RecoveryCard, type RecoveryOutcome, type RecoveryRules } from '../../ledger/types.ts';
import { MAX_WOUNDS, conditionOf, downtime, restore, stateOf, type RecoveryResult, type ThrumCondition } from './recovery.ts';
import { rulingsOf } from './options.ts';

function refuse(message: string): never {
  throw new LedgerRefusal(message);
}

// ---- events ----

const OUTCOMES = [
  { value: 'convalescing', label: 'A long recovery: Downtime can bring them back', phrase: 'in a long convalescence' },
  { value: 'coma', label: 'Comatose: Downtime can bring them back', phrase: 'in a coma' },
  { value: 'retired', label: 'Leaves play: the player makes a new character', phrase: 'out of play for good' },
  { value: 'dead', label: 'Dead', phrase: 'dead' },
] as const;
type Outcome = (typeof OUTCOMES)[number]['value'];
/** Outcomes after which nothing brings the character back (§5.5: the table decides). */
const FINAL: readonly Outcome[] = ['retired', 'dead'];

// Built on first use, not as the module loads: a start (which reads no ledger) builds no ruleset's schema
// (docs/performance.md "Start"; server/start-schemas.test.ts).
const eventSchema = z.lazy(() => {
  const characterId = z.string({ error: 'Choose a character.' }).min(1, { error: 'Choose a character.' }).max(64, { error: 'A character id is at most 64 characters.' });
  const points = (what: string, max: number) => z.number({ error: `${what} must be a number.` }).int({ error: `${what} must be a whole number.` })
    .min(0, { error: `${what} cannot be negative.` }).max(max, { error: `${what} is at most ${max}.` });

  return z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('DOWNTIME'), characterId,
      days: z.number({ error: 'Days must be a number.' }).int({ error: 'Days must be a whole number.' })
        .min(1, { error: 'Downtime lasts at least 1 day.' }).max(365, { error: 'Downtime lasts at most 365 days.' }),
    }),
    z.strictObject({
      type: z.literal('RESTORE'), characterId,
      by: z.enum(['item', 'objective'], { error: 'Say whether a very powerful item or a story objective restores it.' }),
      source: z.string({ error: 'Name the item or story objective.' }).trim().min(1, { error: 'Name the item or story objective.' }).max(200, { error: 'The name is at most 200 characters.' }),
      fatigue: points('Fatigue Tolerance restored', 30),
      stress: points('Stress Tolerance restored', 30),
      wounds: points('Wounds healed', MAX_WOUNDS),
    }),
    z.strictObject({
      type: z.literal('OUT_OF_ACTION'), characterId,
      outcome: z.enum(OUTCOMES.map((o) => o.value) as [Outcome, ...Outcome[]], { error: 'Choose what three Wounds mean for the character.' }),
      note: z.string({ error: 'A note must be text.' }).trim().max(200, { error: 'A note is at most 200 characters.' }).optional(),
    }),
  ]);
});
type ThrumRecoveryEvent = z.infer<typeof eventSchema>;

// ---- forms ----

const who = { key: 'characterId', label: 'Character', kind: 'character' } as const;

const forms: readonly LedgerForm[] = [
  {
    type: 'DOWNTIME', label: 'Downtime', bulk: true,
    help: 'Restores lowered Fatigue and Stress Tolerances and heals Wounds as the campaign\'s R-H17 ruling says; ends R-H9\'s lingering incapacity. Once a day.',
    fields: [who, { key: 'days', label: 'Days', kind: 'integer', min: 1, max: 365, default: 1, help: 'Counts when Downtime restores one tolerance point a day (R-H17).' }],
  },
  {
    type: 'RESTORE', label: 'Restore (powerful item or story objective)',
    help: 'A very powerful item or a story objective restores tolerance points or heals Wounds, as much as the GM says (never above base).',
    fields: [
      who,
      { key: 'by', label: 'Restored by', kind: 'choice', default: 'item', choices: [{ value: 'item', label: 'A very powerful item' }, { value: 'objective', label: 'A story objective' }] },
      { key: 'source', label: 'Item or objective', kind: 'text', help: 'Its name, for the log ("Phoenix feather").' },
      { key: 'fatigue', label: 'Fatigue Tolerance points', kind: 'integer', min: 0, max: 30, default: 0 },
      { key: 'stress', label: 'Stress Tolerance points', kind: 'integer', min: 0, max: 30, default: 0 },
      { key: 'wounds', label: 'Wounds healed', kind: 'integer', min: 0, max: MAX_WOUNDS, default: 0 },
    ],
  },
  {
    type: 'OUT_OF_ACTION', label: 'What three Wounds mean',
    help: 'Three Wounds take a character out of normal campaign play; the table decides whether that is death, a coma or a long recovery (§5.5).',
    fields: [
      who,
      { key: 'outcome', label: 'Outcome', kind: 'choice', default: 'convalescing', choices: OUTCOMES.map(({ value, label }) => ({ value, label })) },
      { key: 'note', label: 'Note', kind: 'text', optional: true, emptyAs: 'omit' },
    ],
  },
];

// ---- the character as recovery sees it ----

interface RecordedOutcome {
  outcome: Outcome;
  day: number;
  note?: string;
}

function outcomeOf(state: Record<string, unknown>): RecordedOutcome | null {
  const raw = state['outOfActionOutcome'] as Partial<RecordedOutcome> | undefined;
  if (!raw || !OUTCOMES.some((o) => o.value === raw.outcome) || typeof raw.day !== 'number') return null;
  return { outcome: raw.outcome!, day: raw.day, ...(typeof raw.note === 'string' ? { note: raw.note } : {}) };
}

const phraseOf = (outcome: Outcome) => OUTCOMES.find((o) => o.value === outcome)!.phrase;

function characterOf(world: CampaignWorld, id: string): LedgerCharacter {
  const character = world.characters.find((c) => c.id === id);
  if (!character) refuse('That character is not a party member of this campaign.');
  return character;
}

/** Wound records, newest first: a healed Wound is the last one taken, so "Wound 1 of 3" stays true of what is left. */
function woundRecords(character: LedgerCharacter): LedgerRecord[] {
  const number = (r: LedgerRecord) => (typeof r.data['number'] === 'number' ? r.data['number'] : 0);
  return character.records
    .map((record, index) => ({ record, index }))
    .filter(({ record }) => record.category === 'wound')
    .sort((a, b) => number(b.record) - number(a.record) || b.index - a.index)
    .map(({ record }) => record);
}

const downtimeToday = (world: CampaignWorld, state: Record<string, unknown>) => {
  const used = state['recoveryDay'] as { day?: unknown; downtime?: unknown } | undefined;
  return used?.day === world.day && used.downtime === true;
};

/** A log sentence naming the rulings that decided it (those it does not cite yet). */
function cite(text: string, rulings: string[]): string {
  const missing = rulings.filter((r) => !text.includes(r));
  return missing.length ? `${text.replace(/\.$/, '')} (${missing.join(', ')}).` : text;
}

/**
 * The ledger change after a restoration: the condition written over the stored state (other fields kept), and as
 * many Wound records healed, newest first, as leave no more running than the Wounds that remain.
 */
function outcome(character: LedgerCharacter, result: RecoveryResult, editState: (state: Record<string, unknown>) => void = () => {}): RecoveryOutcome {
  const state: Record<string, unknown> = { ...character.state, ...stateOf(result.condition) };
  if (!result.condition.outOfAction) delete state['outOfActionOutcome'];
  editState(state);
  const running = woundRecords(character);
  const healed = running.slice(0, Math.max(0, running.length - result.condition.wounds));
  return {
    change: {
      characters: [{ id: character.id, state }],
      ...(healed.length ? { records: healed.map((r) => ({ id: r.id, data: r.data, healed: true })) } : {}),
    },
    log: [cite(result.text, result.rulings)],
  };
}

function refuseIfGone(name: string, condition: ThrumCondition, recorded: RecordedOutcome | null, what: string): void {
  if (!condition.outOfAction || !recorded || !FINAL.includes(recorded.outcome)) return;
  if (recorded.outcome === 'dead') refuse(`${name} is dead (three Wounds, day ${recorded.day}): ${what} restores nothing to the dead.`);
  refuse(`${name} has left play for good (three Wounds, day ${recorded.day}): ${what} no longer applies.`);
}

// ---- applying an event ----

function apply(world: CampaignWorld, raw: GmEvent): RecoveryOutcome {
  const event = raw as ThrumRecoveryEvent;
  const character = characterOf(world, event.characterId);
  const { name } = character;
  const condition = conditionOf(character.sheet, character.state);
  const recorded = outcomeOf(character.state);
  switch (event.type) {
    case 'DOWNTIME': {
      refuseIfGone(name, condition, recorded, 'Downtime');
      if (downtimeToday(world, character.state)) refuse(`${name} has already had Downtime today (day ${world.day}): move the campaign clock on first.`);
      return outcome(character, downtime(name, condition, world.options, event.days), (state) => {
        state['recoveryDay'] = { day: world.day, downtime: true };
      });
    }
    case 'RESTORE': {
      const what = event.by === 'item' ? 'a very powerful item' : 'a story objective';
      refuseIfGone(name, condition, recorded, `${event.source} (${what})`);
      return outcome(character, restore(name, condition, { fatigue: event.fatigue, stress: event.stress, wounds: event.wounds }, `${event.source} (${what})`));
    }
    case 'OUT_OF_ACTION': {
      if (!condition.outOfAction) refuse(`${name} has ${condition.wounds} of ${MAX_WOUNDS} Wounds: only three Wounds take a character out of play (§5.5).`);
      if (recorded?.outcome === 'dead') refuse(`${name} is dead (three Wounds, day ${recorded.day}): undo that entry if it was a mistake.`);
      const note = event.note?.trim();
      const entry: RecordedOutcome = { outcome: event.outcome, day: world.day, ...(note ? { note } : {}) };
      const comeBack = FINAL.includes(event.outcome) ? '' : '; Downtime that heals a Wound can bring them back';
      return {
        change: { characters: [{ id: character.id, state: { ...character.state, outOfActionOutcome: entry } }] },
        log: [`Three Wounds leave ${name} ${phraseOf(event.outcome)} (day ${world.day})${note ? `: ${note}` : ''}${comeBack}.`],
      };
    }
  }
}

// ---- the recovery screen ----

const toleranceTone = (current: number, base: number): 'ok' | 'warn' | 'bad' => (current <= 0 ? 'bad' : current < base ? 'warn' : 'ok');

function woundStatus(rank: number, world: CampaignWorld): string {
  if (rank === 0 || rulingsOf(world.options).downtimeRestores === 'baseAndAllWounds') return 'heals at the next Downtime (R-H17)';
  return `${rank + 1} Downtimes to go (R-H17)`;
}

function card(world: CampaignWorld, characterId: string): RecoveryCard {
  const character = characterOf(world, characterId);
  const c: ThrumCondition = conditionOf(character.sheet, character.state);
  const recorded = outcomeOf(character.state);
  const stats: RecoveryCard['stats'] = [
    { label: 'Fatigue Tolerance', value: `${c.fatigueTolerance}/${c.baseFatigueTolerance}`, tone: toleranceTone(c.fatigueTolerance, c.baseFatigueTolerance) },
    { label: 'Stress Tolerance', value: `${c.stressTolerance}/${c.baseStressTolerance}`, tone: toleranceTone(c.stressTolerance, c.baseStressTolerance) },
    { label: 'Wounds', value: `${c.wounds}/${MAX_WOUNDS}`, tone: c.wounds >= MAX_WOUNDS ? 'bad' : c.wounds > 0 ? 'warn' : 'ok' },
    { label: 'Downtime today', value: downtimeToday(world, character.state) ? '1/1' : '0/1' },
  ];
  const marks: string[] = [];
  if (c.stillIncapacitated) marks.push('Still Incapacitated: Fatigue Tolerance 0 when the fight ended (R-H9); Downtime restores it');
  if (c.outOfAction) marks.push(recorded ? `Three Wounds: ${phraseOf(recorded.outcome)} since day ${recorded.day}${recorded.note ? ` (${recorded.note})` : ''}` : 'Three Wounds: the table decides what they mean (§5.5)');
  const records = woundRecords(character).map((r, rank) => ({ id: r.id, name: r.name, category: r.category, status: woundStatus(rank, world) })).reverse();
  let out: string | null = null;
  if (recorded?.outcome === 'dead' && c.outOfAction) out = 'Dead (three Wounds)';
  else if (recorded?.outcome === 'retired' && c.outOfAction) out = 'Left play (three Wounds)';
  else if (c.outOfAction) out = 'Out of action: three Wounds';
  else if (c.stillIncapacitated) out = 'Incapacitated: Fatigue Tolerance 0 until Downtime (R-H9)';
  return { stats, marks, records, out };
}

export const thrumRecovery: RecoveryRules = {
  forms,
  eventSchema: eventSchema as unknown as z.ZodType<GmEvent>,
  apply,
  card,
};
