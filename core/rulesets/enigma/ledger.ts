// Enigma's recovery between fights as campaign-ledger rules (RULES.md §1.6 "Recovery clock", R-E20, R-E29..R-E31):
// the recovery events and their forms, applied to the campaign world through the pure functions of recovery.ts,
// and the recovery screen's card. Per-day usage lives on each character's state as `recoveryDay`, so a new
// in-game day starts fresh and undo (which restores the stored state) puts the day's limits back.
import * as z from 'zod';
import type { GmEvent } from '../../encounter/types.ts';
import {
  LedgerRefusal,
  type CampaignWorld,
  type LedgerCharacter,
  type LedgerField,
  type LedgerForm,
  type LedgerRecord,
  type PartyBadge,
  type RecoveryCard,
  type RecoveryChange,
  type RecoveryOutcome,
  type RecoveryRules,
} from '../../ledger/types.ts';
import { INJURY_CATEGORIES, injuryEffects, isActiveInjury, speed, type InjuryCategory } from './injuries.ts';
import {
  BREATHERS_PER_DAY,
  RESTS_PER_DAY,
  breather,
  characterMaxLp,
  dayRecord,
  meetCure,
  mostDiminishedDie,
  passDays,
  payHealing,
  rest,
  stitcherTreat,
  type RecoveringCharacter,
  type RecoveringInjury,
  type RecoveryDay,
} from './recovery.ts';
import { CAPACITIES, type Capacity } from './sheet.ts';
import { rulingsOf } from './options.ts';

// ---- events ----

const INJURY_CATEGORY_KEYS = INJURY_CATEGORIES.map((c) => c.key) as readonly InjuryCategory[];
const DIE_SIZES = [4, 6, 8, 10, 12] as const;
const capacityLabel = (capacity: Capacity) => capacity[0]!.toUpperCase() + capacity.slice(1);

const RAISE_VALUES = ['auto', 'none', ...CAPACITIES] as const;

// Built on first use, not as the module loads: a start (which reads no ledger) builds no ruleset's schema
// (docs/performance.md "Start"; server/start-schemas.test.ts).
const eventSchema = z.lazy(() => {
  const characterIdSchema = z
    .string({ error: 'Choose a party member.' })
    .min(1, { error: 'Choose a party member.' })
    .max(64, { error: 'A character id is at most 64 characters.' });
  const recordIdSchema = z
    .string({ error: 'Choose an injury.' })
    .min(1, { error: 'Choose an injury.' })
    .max(200, { error: 'An injury id is at most 200 characters.' });
  const noteSchema = (what: string) => z.string({ error: `${what} must be text.` }).trim().max(200, { error: `${what} is at most 200 characters.` });
  const healingKindSchema = z.enum(['magic', 'fix', 'natural'], { error: 'Say whether the healing is healing magic, a Fix or mundane care.' });
  const raiseSchema = z.enum(RAISE_VALUES, { error: 'Raise the most diminished die, a named capacity die, or none.' });

  const breatherEvent = z.strictObject({
    type: z.literal('BREATHER'),
    characterId: characterIdSchema,
    /** Which diminished die to raise: 'auto' the most diminished one, 'none', or a capacity. Absent = 'auto'. */
    raise: raiseSchema.optional(),
  });
  const restEvent = z.strictObject({ type: z.literal('REST'), characterId: characterIdSchema });
  const stitcherEvent = z.strictObject({
    type: z.literal('STITCHER_TREAT'),
    characterId: characterIdSchema,
    recordId: recordIdSchema,
    stitcherId: z.string({ error: 'Choose the Stitcher.' }).min(1, { error: 'Choose the Stitcher.' }).max(64, { error: 'A character id is at most 64 characters.' }),
    healingKind: healingKindSchema,
  });
  const paidHealingEvent = z.strictObject({
    type: z.literal('PAID_HEALING'),
    characterId: characterIdSchema,
    recordId: recordIdSchema,
    rests: z
      .number({ error: 'Say how many rests to take off.' })
      .int({ error: 'Pay for a whole number of rests.' })
      .min(1, { error: 'Pay for at least 1 rest.' })
      .max(200, { error: 'At most 200 rests at once.' }),
    wealthAvailable: z
      .number({ error: 'Wealth Points are a number.' })
      .int({ error: 'Wealth Points are a whole number.' })
      .min(0, { error: 'Wealth Points cannot be negative.' })
      .max(100000, { error: 'At most 100000 Wealth Points.' })
      .optional(),
    settlement: noteSchema('The place').pipe(z.string().min(1, { error: 'Say where the healing is bought.' })),
    majorSettlement: z.boolean({ error: 'Say whether this is a major settlement.' }),
    healingKind: healingKindSchema,
    illegalClinic: z.boolean({ error: 'Say whether this is an illegal clinic.' }).optional(),
    pricePercent: z
      .number({ error: "The clinic's price is a number." })
      .int({ error: "The clinic's price is a whole percentage." })
      .min(100, { error: "An illegal clinic's price is at least 100% of the ordinary price." })
      .max(1000, { error: "An illegal clinic's price is at most 1000% of the ordinary price." })
      .optional(),
    complication: noteSchema('The complication').optional(),
  });
  const cureEvent = z.strictObject({
    type: z.literal('MARK_CURE_MET'),
    characterId: characterIdSchema,
    recordId: recordIdSchema,
    note: noteSchema('The note').optional(),
  });
  const resetEscalationEvent = z.strictObject({
    type: z.literal('RESET_ESCALATION'),
    characterId: characterIdSchema,
    reason: noteSchema('The reason').optional(),
  });

  return z.discriminatedUnion('type', [breatherEvent, restEvent, stitcherEvent, paidHealingEvent, cureEvent, resetEscalationEvent]);
});
type EnigmaRecoveryEvent = z.infer<typeof eventSchema>;
type RecoveryEventOf<T extends EnigmaRecoveryEvent['type']> = Extract<EnigmaRecoveryEvent, { type: T }>;

// ---- forms ----

const characterField: LedgerField = { key: 'characterId', label: 'Party member', kind: 'character' };
const injuryField = (label: string, help?: string): LedgerField => ({
  key: 'recordId', label, kind: 'record', categories: INJURY_CATEGORY_KEYS, ...(help ? { help } : {}),
});
const healingKindChoices = [
  { value: 'magic', label: 'Healing magic' },
  { value: 'fix', label: 'A Fix' },
  { value: 'natural', label: 'Mundane care (no magic)' },
] as const;

const forms: readonly LedgerForm[] = [
  {
    type: 'BREATHER',
    label: 'Breather',
    help: `Light activity (sitting, meditating, eating, drinking), ${BREATHERS_PER_DAY} a day: +2 LP up to max LP, one diminished capacity die up a step (R-E29), party Escalation back to 1 (R-E20). Injuries do not count down (R-E31).`,
    bulk: true,
    fields: [
      characterField,
      {
        key: 'raise', label: 'Die to raise', kind: 'choice', default: 'auto',
        choices: [
          { value: 'auto', label: 'The most diminished die' },
          ...CAPACITIES.map((c) => ({ value: c, label: capacityLabel(c) })),
          { value: 'none', label: 'None' },
        ],
        help: 'A named die must be below its base.',
      },
    ],
  },
  {
    type: 'REST',
    label: 'Rest',
    help: `At least 8 hours of sleep, ${RESTS_PER_DAY} a day: + half the base Endure die in LP up to max LP, every capacity die back to base, party Escalation back to 1 (R-E20), every injury one rest closer to healed (R-E31).`,
    bulk: true,
    fields: [characterField],
  },
  {
    type: 'STITCHER_TREAT',
    label: 'Stitcher treatment',
    help: 'A day of treatment by a party member with Stitcher powers takes one rest off one injury; at most one per injury a day, however many Stitchers help (R-E30). It stacks with that night\'s Rest.',
    fields: [
      characterField,
      injuryField('Injury to treat'),
      { key: 'stitcherId', label: 'Stitcher', kind: 'character', help: 'May be the patient.' },
      {
        key: 'healingKind', label: 'The Stitcher\'s power is', kind: 'choice', default: 'magic', choices: healingKindChoices,
        help: 'A character cursed to Fixes only cannot receive healing magic (ENIGMA-18).',
      },
    ],
  },
  {
    type: 'PAID_HEALING',
    label: 'Paid healing',
    help: 'Accelerated healing bought in a major settlement (Nexus City, medical facilities, corporate labs): one rest off per Wealth Point. Illegal clinics may charge more and bring a complication.',
    fields: [
      characterField,
      injuryField('Injury to heal'),
      { key: 'rests', label: 'Rests to take off', kind: 'integer', min: 1, max: 200, default: 1, help: '1 Wealth Point per rest at the ordinary price.' },
      {
        key: 'wealthAvailable', label: 'Wealth Points the character has', kind: 'integer', min: 0, max: 100000, optional: true, emptyAs: 'omit',
        help: 'The app does not keep Wealth: type it to have the cost checked against it, or leave it empty.',
      },
      { key: 'settlement', label: 'Where', kind: 'text', default: 'Nexus City', help: 'Nexus City, a medical facility, a corporate lab…' },
      {
        key: 'majorSettlement', label: 'A major settlement', kind: 'flag', default: true,
        help: 'Only major settlements sell accelerated healing; it may also need faction standing or favours.',
      },
      { key: 'healingKind', label: 'The treatment is', kind: 'choice', default: 'natural', choices: healingKindChoices },
      { key: 'illegalClinic', label: 'Illegal clinic', kind: 'flag', default: false },
      {
        key: 'pricePercent', label: 'Illegal clinic\'s price (% of ordinary)', kind: 'integer', min: 100, max: 1000, optional: true, emptyAs: 'omit',
        help: '150 = half again; the cost is rounded up. Empty: the ordinary price.',
      },
      { key: 'complication', label: 'Complication', kind: 'text', optional: true, emptyAs: 'omit', help: 'What the clinic\'s risk brings, for the GM to play out.' },
    ],
  },
  {
    type: 'MARK_CURE_MET',
    label: 'Cure met',
    help: 'A semi-permanent injury heals only after its special treatment: mark it met and it counts down with rests from then on.',
    fields: [
      characterField,
      injuryField('Injury whose cure is met', 'Only injuries with a cure condition.'),
      { key: 'note', label: 'How', kind: 'text', optional: true, emptyAs: 'omit' },
    ],
  },
  {
    type: 'RESET_ESCALATION',
    label: 'Reset Escalation',
    help: 'Puts the party\'s Escalation back to 1 without a Breather or Rest (a GM call). Escalation is party-wide (R-E20).',
    partyWide: true,
    fields: [
      { ...characterField, help: 'Escalation is party-wide; the reset is logged under this party member.' },
      { key: 'reason', label: 'Why', kind: 'text', optional: true, emptyAs: 'omit' },
    ],
  },
];

// ---- reading the world ----

interface RecoveryView {
  character: LedgerCharacter;
  /** The character as recovery.ts sees it; injury ids are the ledger record ids. */
  recovering: RecoveringCharacter;
  /** The running injury records by ledger record id. */
  records: Map<string, LedgerRecord>;
  dead: boolean;
}

const isDieSize = (n: unknown): n is number => typeof n === 'number' && (DIE_SIZES as readonly number[]).includes(n);
const isInjuryRecord = (record: LedgerRecord) => (INJURY_CATEGORY_KEYS as readonly string[]).includes(record.category);

function baseDice(sheet: Record<string, unknown>): Record<Capacity, number> {
  return Object.fromEntries(CAPACITIES.map((c) => [c, isDieSize(sheet[c]) ? sheet[c] : 8])) as Record<Capacity, number>;
}

function currentDice(state: Record<string, unknown>, base: Record<Capacity, number>): Record<Capacity, number> {
  const stored = state['dice'] && typeof state['dice'] === 'object' ? (state['dice'] as Record<string, unknown>) : {};
  return Object.fromEntries(CAPACITIES.map((c) => [c, isDieSize(stored[c]) ? stored[c] : base[c]])) as Record<Capacity, number>;
}

const stringList = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** The stored day record, or null when there is none (or it is not one). */
function storedDay(state: Record<string, unknown>): RecoveryDay | null {
  const raw = state['recoveryDay'];
  if (!raw || typeof raw !== 'object') return null;
  const day = raw as Record<string, unknown>;
  if (typeof day['day'] !== 'number') return null;
  return {
    day: day['day'],
    breathersTaken: typeof day['breathersTaken'] === 'number' ? day['breathersTaken'] : 0,
    restTaken: day['restTaken'] === true,
    treatedInjuryIds: stringList(day['treatedInjuryIds']),
    stitchedInjuryIds: stringList(day['stitchedInjuryIds']),
  };
}

/** An injury record's `data` (the encounter's Injury) under its ledger record id. */
function injuryOf(record: LedgerRecord): RecoveringInjury {
  const data = record.data;
  const rests = data['restsRemaining'];
  return {
    id: record.id,
    name: typeof data['name'] === 'string' ? data['name'] : record.name,
    category: (INJURY_CATEGORY_KEYS as readonly string[]).includes(String(data['category'])) ? (data['category'] as InjuryCategory) : (record.category as InjuryCategory),
    baseRoll: typeof data['baseRoll'] === 'number' ? data['baseRoll'] : 1,
    multiplier: typeof data['multiplier'] === 'number' ? data['multiplier'] : 1,
    restsRemaining: typeof rests === 'number' && Number.isInteger(rests) && rests > 0 ? rests : 0,
    permanent: data['permanent'] === true,
    cureCondition: typeof data['cureCondition'] === 'string' && data['cureCondition'].trim() ? data['cureCondition'] : null,
    notes: typeof data['notes'] === 'string' ? data['notes'] : '',
    ...(data['cureMet'] === true ? { cureMet: true } : {}),
  };
}

function viewOf(world: CampaignWorld, character: LedgerCharacter): RecoveryView {
  const state = character.state;
  const base = baseDice(character.sheet);
  const dice = currentDice(state, base);
  const injuryRecords = character.records.filter(isInjuryRecord);
  const injuries = injuryRecords.map(injuryOf);
  // A character with no stored LP has not been hurt since the campaign began: full LP.
  const lp = typeof state['lp'] === 'number' ? state['lp'] : characterMaxLp({ base, condition: { lp: 0, dice }, injuries }, world.options);
  return {
    character,
    recovering: {
      id: character.id,
      name: character.name,
      base,
      condition: { lp, dice },
      injuries,
      healingRestriction: state['healingRestriction'] === 'fixesOnly' ? 'fixesOnly' : null,
      day: dayRecord(world.day, storedDay(state)),
    },
    records: new Map(injuryRecords.map((r) => [r.id, r])),
    dead: state['dead'] === true,
  };
}

function find(world: CampaignWorld, characterId: string): LedgerCharacter {
  return world.characters.find((c) => c.id === characterId) ?? refuse('That character is not a party member of this campaign.');
}

function refuse(message: string): never {
  throw new LedgerRefusal(message);
}

/** The living party member's view; the dead recover nothing. */
function living(world: CampaignWorld, characterId: string): RecoveryView {
  const view = viewOf(world, find(world, characterId));
  if (view.dead) refuse(`${view.character.name} is dead (Sacrifice) and recovers nothing.`);
  return view;
}

// ---- writing changes ----

/** The whole new state: what was stored, with the condition and today's record replaced. */
function stateWith(view: RecoveryView, next: RecoveringCharacter, parts: { condition?: boolean; day?: RecoveryDay }): Record<string, unknown> {
  return {
    ...view.character.state,
    ...(parts.condition ? { lp: next.condition.lp, dice: { ...next.condition.dice } } : {}),
    ...(parts.day ? { recoveryDay: parts.day } : {}),
  };
}

/** The records whose countdown or cure changed, with their whole new data; healed at 0 rests (not permanent). */
function recordChanges(view: RecoveryView, injuries: readonly RecoveringInjury[]): NonNullable<RecoveryChange['records']> {
  const before = new Map(view.recovering.injuries.map((i) => [i.id, i]));
  return injuries.flatMap((injury) => {
    const old = before.get(injury.id);
    const record = view.records.get(injury.id);
    if (!old || !record || (old.restsRemaining === injury.restsRemaining && Boolean(old.cureMet) === Boolean(injury.cureMet))) return [];
    const data = { ...record.data, restsRemaining: injury.restsRemaining, ...(injury.cureMet ? { cureMet: true } : {}) };
    return [{ id: record.id, data, ...(isActiveInjury(injury) ? {} : { healed: true }) }];
  });
}

/** The stored party Escalation: a number, or null once reset (or before any fight). */
function storedEscalation(world: CampaignWorld): number | null {
  const value = world.party['escalation'];
  return typeof value === 'number' ? value : null;
}

/** R-E20: a Breather or Rest (or an explicit reset) stores null so the next fight opens at 1 under every option. */
function resetParty(world: CampaignWorld): Pick<RecoveryChange, 'party'> {
  return world.party['escalation'] === null || world.party['escalation'] === undefined ? {} : { party: { ...world.party, escalation: null } };
}

// ---- the actions ----

function applyBreather(world: CampaignWorld, event: RecoveryEventOf<'BREATHER'>): RecoveryOutcome {
  const view = living(world, event.characterId);
  const choice = event.raise ?? 'auto';
  const raise = choice === 'none' ? null : choice === 'auto' ? mostDiminishedDie(view.recovering.base, view.recovering.condition.dice) : choice;
  const result = breather(view.recovering, raise, world.options, storedEscalation(world));
  return {
    change: { characters: [{ id: view.character.id, state: stateWith(view, result.character, { condition: true, day: result.character.day }) }], ...resetParty(world) },
    log: [result.log],
  };
}

function applyRest(world: CampaignWorld, event: RecoveryEventOf<'REST'>): RecoveryOutcome {
  const view = living(world, event.characterId);
  const result = rest(view.recovering, world.options, storedEscalation(world));
  const records = recordChanges(view, result.character.injuries);
  return {
    change: {
      characters: [{ id: view.character.id, state: stateWith(view, result.character, { condition: true, day: result.character.day }) }],
      ...(records.length ? { records } : {}),
      ...resetParty(world),
    },
    log: [result.log],
  };
}

function applyStitcher(world: CampaignWorld, event: RecoveryEventOf<'STITCHER_TREAT'>): RecoveryOutcome {
  const patient = living(world, event.characterId);
  const stitcherCharacter = world.characters.find((c) => c.id === event.stitcherId) ?? refuse('That Stitcher is not a party member of this campaign.');
  const self = stitcherCharacter.id === patient.character.id;
  const stitcher = self ? patient : viewOf(world, stitcherCharacter);
  if (stitcher.dead) refuse(`${stitcher.character.name} is dead (Sacrifice) and cannot treat anyone.`);
  const result = stitcherTreat(patient.recovering, { id: stitcher.character.id, name: stitcher.character.name, day: stitcher.recovering.day }, event.recordId, event.healingKind, world.options);
  const characters = [{ id: patient.character.id, state: stateWith(patient, result.patient, { day: result.patient.day }) }];
  if (!self) characters.push({ id: stitcher.character.id, state: stateWith(stitcher, stitcher.recovering, { day: result.stitcherDay }) });
  return { change: { characters, records: recordChanges(patient, result.patient.injuries) }, log: [result.log] };
}

function applyPaidHealing(world: CampaignWorld, event: RecoveryEventOf<'PAID_HEALING'>): RecoveryOutcome {
  const view = living(world, event.characterId);
  if (!event.illegalClinic && event.pricePercent !== undefined && event.pricePercent !== 100) {
    refuse("Only an illegal clinic sets its own price: tick Illegal clinic or clear the price.");
  }
  const complication = event.complication?.trim() ?? '';
  const result = payHealing(view.recovering, {
    injuryId: event.recordId,
    rests: event.rests,
    wealthAvailable: event.wealthAvailable ?? null,
    settlement: { name: event.settlement, major: event.majorSettlement },
    healingKind: event.healingKind,
    illegalClinic: event.illegalClinic ? { priceMultiplier: (event.pricePercent ?? 100) / 100, complication } : null,
  });
  const log = [result.log];
  if (!event.illegalClinic && complication) log.push(`Complication: ${complication}`);
  // The campaign keeps no Wealth Points: the amount the GM types only checks the cost, so no balance is logged
  // as if it were kept (a later purchase would not know it).
  return { change: { records: recordChanges(view, result.character.injuries) }, log };
}

function applyCure(world: CampaignWorld, event: RecoveryEventOf<'MARK_CURE_MET'>): RecoveryOutcome {
  const view = living(world, event.characterId);
  const result = meetCure(view.recovering, event.recordId, event.note ?? '');
  return { change: { records: recordChanges(view, result.character.injuries) }, log: [result.log] };
}

function applyResetEscalation(world: CampaignWorld, event: RecoveryEventOf<'RESET_ESCALATION'>): RecoveryOutcome {
  const view = living(world, event.characterId);
  const before = storedEscalation(world);
  if (before === null) refuse('Escalation is already back to 1: nothing has raised it since the last reset.');
  const why = event.reason?.trim() ? ` (${event.reason.trim()})` : '';
  return {
    change: resetParty(world),
    log: [
      before > 1
        ? `${view.character.name} calls for a reset: the party's Escalation ${before} → 1 (R-E20)${why}.`
        : `${view.character.name} calls for a reset: the party's Escalation stays at 1 and no longer carries into the next fight (R-E20)${why}.`,
    ],
  };
}

function apply(world: CampaignWorld, raw: GmEvent): RecoveryOutcome {
  const event = raw as unknown as EnigmaRecoveryEvent;
  switch (event.type) {
    case 'BREATHER':
      return applyBreather(world, event);
    case 'REST':
      return applyRest(world, event);
    case 'STITCHER_TREAT':
      return applyStitcher(world, event);
    case 'PAID_HEALING':
      return applyPaidHealing(world, event);
    case 'MARK_CURE_MET':
      return applyCure(world, event);
    case 'RESET_ESCALATION':
      return applyResetEscalation(world, event);
    default:
      return refuse(`"${String((raw as { type?: unknown }).type).slice(0, 40)}" is not an Enigma recovery action.`);
  }
}

/** R-E31 with restsAreDays off: each day that passes takes one off every injury counting down. */
function daysPassed(world: CampaignWorld, days: number): RecoveryOutcome | null {
  let change: RecoveryChange = {};
  const log: string[] = [];
  for (const character of world.characters) {
    const view = viewOf(world, character);
    if (view.dead) continue;
    const result = passDays(view.recovering, days, world.options);
    if (!result) continue;
    const records = recordChanges(view, result.character.injuries);
    if (!records.length) continue;
    change = { records: [...(change.records ?? []), ...records] };
    log.push(result.log);
  }
  return log.length ? { change, log } : null;
}

// ---- the recovery screen ----

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function injuryStatus(injury: RecoveringInjury, day: RecoveryDay, unit: 'rest' | 'day'): string {
  if (injury.permanent) return 'permanent';
  const left = `${plural(injury.restsRemaining, unit)} to go`;
  if (injury.cureCondition !== null && !injury.cureMet) return `waiting for its cure: ${injury.cureCondition} (then ${plural(injury.restsRemaining, unit)})`;
  const cured = injury.cureCondition !== null ? ' (cure met)' : '';
  return `${left}${cured}${day.treatedInjuryIds.includes(injury.id) ? '; treated today' : ''}`;
}

function card(world: CampaignWorld, characterId: string): RecoveryCard {
  const view = viewOf(world, find(world, characterId));
  const { recovering } = view;
  const max = characterMaxLp(recovering, world.options);
  const lp = recovering.condition.lp;
  const effects = injuryEffects(recovering.injuries, view.character.sheet['armoured'] === true, world.options);
  const day = recovering.day;
  const stats: RecoveryCard['stats'] = [
    { label: 'LP', value: `${lp}/${max}`, tone: lp >= max ? 'ok' : lp * 2 > max ? 'warn' : 'bad' },
    ...CAPACITIES.map((c) => {
      const current = recovering.condition.dice[c];
      const base = recovering.base[c];
      return { label: capacityLabel(c), value: `d${current}/d${base}`, tone: current < base ? ('warn' as const) : ('ok' as const) };
    }),
    { label: 'Breathers today', value: `${day.breathersTaken}/${BREATHERS_PER_DAY}`, tone: day.breathersTaken >= BREATHERS_PER_DAY ? 'warn' : 'ok' },
    { label: 'Rests today', value: `${day.restTaken ? 1 : 0}/${RESTS_PER_DAY}`, tone: day.restTaken ? 'warn' : 'ok' },
  ];
  const marks: string[] = [];
  if (recovering.healingRestriction === 'fixesOnly') marks.push('Fixes only: no healing magic but Fixes (ENIGMA-18)');
  if (effects.maxLpReduction > 0) marks.push(`Max LP −${effects.maxLpReduction} while injured (R-E21)`);
  if (effects.speedPenalty > 0) marks.push(`Speed ${speed(recovering.condition.dice.navigate, effects)} (−${effects.speedPenalty} from injuries)`);
  const unit = rulingsOf(world.options).restsAreDays ? 'rest' : 'day';
  const records = recovering.injuries.map((injury) => ({
    id: injury.id,
    name: injury.name,
    category: view.records.get(injury.id)!.category,
    status: injuryStatus(injury, day, unit),
    ...(injury.permanent ? { permanent: true } : {}),
  }));
  const legacy = typeof view.character.state['legacy'] === 'string' && view.character.state['legacy'].trim() ? `: ${view.character.state['legacy'].trim()}` : '';
  return { stats, marks, records, out: view.dead ? `Dead (Sacrifice)${legacy}` : null };
}

/** The party's Escalation and what the next fight opens at under the campaign's escalationAtStart (R-E20). */
/** The campaign home's Escalation badge: what the party carries into its next fight (R-E20). */
function partyBadges(party: Record<string, unknown>): PartyBadge[] {
  const escalation = party['escalation'];
  return [{ label: 'Escalation', value: typeof escalation === 'number' ? String(escalation) : '1 (reset)', title: 'Party Escalation: carried into the next fight until a Breather or Rest (R-E20)' }];
}

function partyStats(world: CampaignWorld): { label: string; value: string }[] {
  const stored = storedEscalation(world);
  const mode = rulingsOf(world.options).escalationAtStart;
  const opensAt = mode === 'alwaysOne' || stored === null ? 1 : mode === 'carryPlusOne' ? stored + 1 : stored;
  return [
    { label: 'Escalation', value: stored === null ? '1 (reset)' : String(stored) },
    { label: 'Next fight opens at', value: `Escalation ${opensAt}` },
  ];
}

export const enigmaRecovery: RecoveryRules = {
  forms,
  eventSchema: eventSchema as unknown as z.ZodType<GmEvent>,
  apply,
  daysPassed,
  card,
  partyStats,
  partyBadges,
};
