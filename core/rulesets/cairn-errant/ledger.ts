// Cairn-Errant's recovery between fights as campaign-ledger rules (RULES.md §4.4 steps 10–11, §4.6, R-C24, R-C25,
// R-C27; base Cairn where the hack leans on it): rests, the death clock, critical damage, hit-location Injuries and
// wounds, with medical care run on the campaign clock. The pure steps live in recovery.ts; this file reads the
// campaign world into them and writes their results back as a ledger change.
import * as z from 'zod';
import type { GmEvent } from '../../encounter/types.ts';
import { LedgerRefusal, type CampaignWorld, type LedgerCharacter, type LedgerForm, type LedgerRecord, type RecoveryCard, type RecoveryChange, type RecoveryOutcome, type RecoveryRules } from '../../ledger/types.ts';
import * as recovery from './recovery.ts';
import type { RecoveringCharacter, RecoveryResult } from './recovery.ts';
import { SLOTS, type HitInjury, type Wound } from './rules.ts';
import { counted } from '../../words.ts';
import { rulingsOf } from './options.ts';

/** "A comfortable week-long rest in a healing temple" (§4.6): days of medical care that heal a wound. */
export const CARE_DAYS = 7;

function refuse(message: string): never {
  throw new LedgerRefusal(message);
}

// ---- events ----

// Built on first use, not as the module loads: a start (which reads no ledger) builds no ruleset's schema
// (docs/performance.md "Start"; server/start-schemas.test.ts).
const eventSchema = z.lazy(() => {
  const characterId = z.string({ error: 'Choose a character.' }).min(1, { error: 'Choose a character.' }).max(64, { error: 'A character id is at most 64 characters.' });
  const recordId = z.string({ error: 'Choose an Injury or wound.' }).min(1, { error: 'Choose an Injury or wound.' }).max(200, { error: 'A record id is at most 200 characters.' });
  const flag = (question: string) => z.boolean({ error: question });

  return z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('CATCH_BREATH'), characterId }),
    z.strictObject({ type: z.literal('NIGHT_REST'), characterId, safe: flag('Say whether the place is safe (yes or no).') }),
    z.strictObject({ type: z.literal('EXTENDED_REST'), characterId, healer: flag('Say whether a healer tends them (yes or no).') }),
    z.strictObject({ type: z.literal('TREAT'), characterId }),
    z.strictObject({
      type: z.literal('DEATH_CLOCK'), characterId,
      minutes: z.number({ error: 'Minutes must be a number.' }).int({ error: 'Minutes must be a whole number.' })
        .min(1, { error: 'At least 1 minute passes.' }).max(60, { error: 'The death clock holds at most 60 minutes.' }),
    }),
    z.strictObject({ type: z.literal('RECOVER'), characterId }),
    z.strictObject({ type: z.literal('HEAL_INJURY'), characterId, recordId }),
    z.strictObject({ type: z.literal('FIELD_TREATMENT'), characterId, recordId, medicine: flag('Say whether the right medicine or herbs are at hand (yes or no).') }),
    z.strictObject({ type: z.literal('BEGIN_CARE'), characterId, recordId }),
    z.strictObject({ type: z.literal('STOP_CARE'), characterId, recordId }),
    z.strictObject({ type: z.literal('TRAIN_BACK'), characterId, recordId }),
  ]);
});
type CairnRecoveryEvent = z.infer<typeof eventSchema>;

// ---- forms ----

const who = { key: 'characterId', label: 'Character', kind: 'character' } as const;
const woundField = (help: string) => ({ key: 'recordId', label: 'Wound', kind: 'record', categories: ['wound'], help }) as const;

const forms: readonly LedgerForm[] = [
  {
    type: 'CATCH_BREATH', label: 'Catch a breath', bulk: true, fields: [who],
    help: 'A few moments\' rest and a drink of water restore all lost HP, but leave the party exposed [base Cairn]. Not while dying, incapacitated or unconscious.',
  },
  {
    type: 'NIGHT_REST', label: 'Night\'s rest', bulk: true,
    help: 'A full night\'s rest in a safe place clears all Fatigue, restores HP and wakes the unconscious (R-C25). Once a day.',
    fields: [who, { key: 'safe', label: 'In a safe place', kind: 'flag', default: true, help: 'Fatigue clears only after a full night\'s rest in a safe place (R-C25).' }],
  },
  {
    type: 'EXTENDED_REST', label: 'Extended rest (a week)', bulk: true,
    help: 'A week\'s rest somewhere safe restores DEX and WIL (§4.4 step 11, R-C24) and does all a night\'s rest does. Move the campaign clock on by the week.',
    fields: [who, { key: 'healer', label: 'A healer tends them', kind: 'flag', default: false, help: 'With a healer\'s care the week restores lost STR too [base Cairn].' }],
  },
  {
    type: 'TREAT', label: 'Treat the dying', fields: [who],
    help: 'Stops the death clock of a PC incapacitated by critical damage; the PC stays out until healed (R-C27).',
  },
  {
    type: 'DEATH_CLOCK', label: 'Minutes pass (dying)',
    help: 'In-game minutes pass for an untreated dying PC: at 0 the PC dies (§4.4 step 10).',
    fields: [who, { key: 'minutes', label: 'Minutes', kind: 'integer', min: 1, max: 60, default: 10 }],
  },
  {
    type: 'RECOVER', label: 'Recover from critical damage', fields: [who],
    help: 'The GM rules the PC healed: a treated PC acts again, the unconscious wake, and the impaired attacks after a failed Critical Damage save end (R-C27).',
  },
  {
    type: 'HEAL_INJURY', label: 'Heal an Injury',
    help: 'A hit-location Injury heals when the GM says: its slot frees, and the leg or arm effects end with it (R-C6).',
    fields: [who, { key: 'recordId', label: 'Injury', kind: 'record', categories: ['injury'] }],
  },
  {
    type: 'FIELD_TREATMENT', label: 'Field treatment (light wound)',
    help: 'A light wound heals overnight in the field, but only with the right medicine or herbs (§4.6).',
    fields: [
      who, woundField('A light wound.'),
      { key: 'medicine', label: 'The right medicine or herbs are at hand', kind: 'flag', default: false },
    ],
  },
  {
    type: 'BEGIN_CARE', label: 'Begin medical care',
    help: `Real medical care (a healing temple): the wound heals after ${CARE_DAYS} days of care on the campaign clock (§4.6).`,
    fields: [who, woundField('A light or severe wound.')],
  },
  {
    type: 'STOP_CARE', label: 'Stop medical care',
    help: 'Ends a wound\'s medical care; care started again later begins from its first day.',
    fields: [who, woundField('A wound in care.')],
  },
  {
    type: 'TRAIN_BACK', label: 'Train back a lost point',
    help: 'Training wins back the attribute point a permanent wound cost; the wound\'s slot stays lost for good (§4.6).',
    fields: [who, woundField('A permanent wound.')],
  },
];

// ---- the character as recovery sees it ----

/** A wound in medical care, kept on the character's state: since which day, and the days of care passed so far. */
interface CareEntry {
  recordId: string;
  since: number;
  days: number;
}

interface Subject {
  character: LedgerCharacter;
  /** Running Injury and wound records that no later worsening replaced. */
  live: LedgerRecord[];
  /** The recovery state; its Injuries and wounds are keyed by their ledger record id. */
  condition: RecoveringCharacter;
}

const dataId = (r: LedgerRecord) => String(r.data['id'] ?? r.id);

/** A wound worsened in a later fight is a new record that `supersedes` the old one (encounter.ts carriedIn). */
function liveRecords(records: LedgerRecord[]): LedgerRecord[] {
  const superseded = new Set(records.map((r) => r.data['supersedes']).filter((id): id is string => typeof id === 'string'));
  return records.filter((r) => (r.category === 'injury' || r.category === 'wound') && !superseded.has(dataId(r)));
}

function subjectOf(world: CampaignWorld, id: string): Subject {
  const character = world.characters.find((c) => c.id === id);
  if (!character) refuse('That character is not a party member of this campaign.');
  const live = liveRecords(character.records);
  const items = live.map((r) => ({ ...r.data, id: r.id, supersedes: null }));
  return { character, live, condition: recovery.recoveringCharacter(character.id, character.name, character.sheet, character.state, items) };
}

function careOf(state: Record<string, unknown>): CareEntry[] {
  const raw = state['medicalCare'];
  if (!Array.isArray(raw)) return [];
  return raw.filter((e): e is CareEntry => typeof e === 'object' && e !== null && typeof e.recordId === 'string' && typeof e.since === 'number' && typeof e.days === 'number');
}

const nightRestToday = (world: CampaignWorld, state: Record<string, unknown>) => {
  const used = state['recoveryDay'] as { day?: unknown; nightRest?: unknown } | undefined;
  return used?.day === world.day && used.nightRest === true;
};

const recordLabel = (r: LedgerRecord) => (r.category === 'wound' ? recovery.woundLabel(r.data as unknown as Wound) : String(r.data['name'] ?? r.name).toLowerCase());

function recordOf(subject: Subject, id: string, category: 'injury' | 'wound'): LedgerRecord {
  const { character, live } = subject;
  const record = character.records.find((r) => r.id === id);
  const kind = category === 'injury' ? 'Injuries' : 'wounds';
  if (!record || record.category !== category) refuse(`That is not one of ${character.name}'s running ${kind}.`);
  if (!live.includes(record)) {
    const newer = character.records.find((r) => r.data['supersedes'] === dataId(record));
    refuse(`${character.name}'s ${recordLabel(record)} was worsened in a later fight${newer ? ` into ${recordLabel(newer)}` : ''}: choose that wound instead.`);
  }
  return record;
}

// ---- writing a result back ----

const NUMBERS = ['hp', 'str', 'strMax', 'dex', 'dexMax', 'wil', 'wilMax', 'fatigue', 'deathClockMinutes'] as const;
const FLAGS = ['incapacitated', 'treated', 'unconscious', 'failedCriticalSave', 'dead'] as const;

/** A log sentence naming the rulings that decided it (those it does not cite yet). */
function cite(text: string, rulings: string[]): string {
  const missing = rulings.filter((r) => !text.includes(r));
  return missing.length ? `${text.replace(/\.$/, '')} (${missing.join(', ')}).` : text;
}

/** Records that a healed record replaced (a worsened wound's earlier stages) heal with it. */
function healedWithSuperseded(character: LedgerCharacter, healed: LedgerRecord[]): LedgerRecord[] {
  const out = [...healed];
  for (let i = 0; i < out.length; i++) {
    const older = out[i]!.data['supersedes'];
    if (typeof older !== 'string') continue;
    for (const r of character.records) if (dataId(r) === older && !out.includes(r)) out.push(r);
  }
  return out;
}

/**
 * The ledger change for one character after recovery steps: the changed fields of the condition written over the
 * stored state (fields this file does not own are kept), healed records marked healed (their care ended), changed
 * wounds rewritten whole.
 */
function changeOf(subject: Subject, after: RecoveringCharacter, healedIds: string[], editState: (state: Record<string, unknown>) => void = () => {}): RecoveryChange {
  const { character, condition: before } = subject;
  const state: Record<string, unknown> = { ...character.state };
  for (const key of NUMBERS) if (after[key] !== before[key]) state[key] = after[key];
  for (const key of FLAGS) if (after[key] !== before[key]) state[key] = after[key];
  const healed = healedWithSuperseded(character, character.records.filter((r) => healedIds.includes(r.id)));
  const care = careOf(state);
  if (care.some((e) => healedIds.includes(e.recordId))) state['medicalCare'] = care.filter((e) => !healedIds.includes(e.recordId));
  editState(state);
  const records: NonNullable<RecoveryChange['records']> = healed.map((r) => ({ id: r.id, data: r.data, healed: true }));
  for (const wound of after.wounds) {
    const record = character.records.find((r) => r.id === wound.id);
    if (!record) continue;
    const { id: _id, supersedes: _supersedes, ...fields } = wound;
    const data = { ...record.data, ...fields };
    if (JSON.stringify(data) !== JSON.stringify(record.data)) records.push({ id: record.id, data });
  }
  const change: RecoveryChange = { characters: [{ id: character.id, state }] };
  if (records.length) change.records = records;
  return change;
}

const outcome = (subject: Subject, result: RecoveryResult, editState?: (state: Record<string, unknown>) => void): RecoveryOutcome => ({
  change: changeOf(subject, result.character, result.healed, editState),
  log: [cite(result.text, result.rulings)],
});

// ---- applying an event ----

function apply(world: CampaignWorld, raw: GmEvent): RecoveryOutcome {
  const event = raw as CairnRecoveryEvent;
  const subject = subjectOf(world, event.characterId);
  const c = subject.condition;
  const name = c.name;
  if (c.dead) refuse(`${name} is dead. Nothing heals the dead.`);
  const markNight = (state: Record<string, unknown>) => {
    state['recoveryDay'] = { day: world.day, nightRest: true };
  };
  switch (event.type) {
    case 'CATCH_BREATH':
      return outcome(subject, recovery.catchBreath(c));
    case 'NIGHT_REST':
      if (nightRestToday(world, subject.character.state)) {
        refuse(`${name} has already had a night's rest today (day ${world.day}): move the campaign clock on to rest another night.`);
      }
      return outcome(subject, recovery.nightRest(c, { safe: event.safe }), markNight);
    case 'EXTENDED_REST':
      return outcome(subject, recovery.extendedRest(c, { healer: event.healer }), markNight);
    case 'TREAT':
      return outcome(subject, recovery.treat(c, { treatedStaysOut: rulingsOf(world.options).treatedStaysOut }));
    case 'DEATH_CLOCK':
      return outcome(subject, recovery.advanceDeathClock(c, event.minutes));
    case 'RECOVER':
      return outcome(subject, recovery.recover(c));
    case 'HEAL_INJURY': {
      const record = recordOf(subject, event.recordId, 'injury');
      const result = recovery.healInjury(c, record.id);
      const leg = record.data['location'] === 'leftLeg' || record.data['location'] === 'rightLeg';
      const legsLeft = result.character.injuries.some((i: HitInjury) => i.location === 'leftLeg' || i.location === 'rightLeg');
      const clearsPenalty = leg && !legsLeft && subject.character.state['nextInitiativeDisadvantage'] === true;
      const text = clearsPenalty ? result.text.replace(/\.$/, '; the next initiative save is no longer at disadvantage.') : result.text;
      return outcome(subject, { ...result, text }, (state) => {
        if (clearsPenalty) state['nextInitiativeDisadvantage'] = false;
      });
    }
    case 'FIELD_TREATMENT': {
      const record = recordOf(subject, event.recordId, 'wound');
      if (record.data['severity'] === 'light' && !event.medicine) {
        refuse(`${name}'s ${recordLabel(record)} heals in the field only with the right medicine or herbs at hand (§4.6).`);
      }
      return outcome(subject, recovery.fieldTreatment(c, record.id));
    }
    case 'BEGIN_CARE': {
      const record = recordOf(subject, event.recordId, 'wound');
      if (recovery.dying(c)) refuse(`${name} is dying: treat them before anything else.`);
      const running = careOf(subject.character.state).find((e) => e.recordId === record.id);
      if (running) refuse(`${name}'s ${recordLabel(record)} has been in medical care since day ${running.since}: it heals on day ${world.day + Math.max(0, CARE_DAYS - running.days)}.`);
      recovery.medicalCare(c, record.id); // refuses a permanent wound, which never heals
      const entry: CareEntry = { recordId: record.id, since: world.day, days: 0 };
      return {
        change: changeOf(subject, c, [], (state) => {
          state['medicalCare'] = [...careOf(state), entry];
        }),
        log: [`${name}'s ${recordLabel(record)} goes into medical care on day ${world.day}: after ${CARE_DAYS} days of care it heals, on day ${world.day + CARE_DAYS}.`],
      };
    }
    case 'STOP_CARE': {
      const record = recordOf(subject, event.recordId, 'wound');
      const running = careOf(subject.character.state).find((e) => e.recordId === record.id);
      if (!running) refuse(`There is no medical care running for ${name}'s ${recordLabel(record)}.`);
      return {
        change: changeOf(subject, c, [], (state) => {
          state['medicalCare'] = careOf(state).filter((e) => e.recordId !== record.id);
        }),
        log: [`Medical care for ${name}'s ${recordLabel(record)} stops after ${running.days} of ${CARE_DAYS} days (in care since day ${running.since}); care started again begins from its first day.`],
      };
    }
    case 'TRAIN_BACK': {
      const record = recordOf(subject, event.recordId, 'wound');
      return outcome(subject, recovery.trainBack(c, record.id));
    }
  }
}

// ---- the clock ----

/**
 * Days pass: an untreated dying PC's hour has long run out (§4.4 step 10), and every wound in medical care counts the
 * days; at CARE_DAYS it heals (§4.6). Care for a record that is gone (healed, or worsened in a fight) ends.
 */
function daysPassed(world: CampaignWorld, days: number): RecoveryOutcome | null {
  if (!Number.isInteger(days) || days < 1) return null;
  const changes: RecoveryChange = {};
  const log: string[] = [];
  for (const character of world.characters) {
    const subject = subjectOf(world, character.id);
    let c = subject.condition;
    if (c.dead) continue;
    const healed: string[] = [];
    const lines: string[] = [];
    if (recovery.dying(c)) {
      const result = recovery.advanceDeathClock(c, c.deathClockMinutes);
      c = result.character;
      lines.push(result.text);
    }
    const care = careOf(character.state);
    const kept: CareEntry[] = [];
    for (const entry of care) {
      const record = subject.live.find((r) => r.id === entry.recordId);
      if (!record) {
        lines.push(`${c.name}'s medical care since day ${entry.since} ends: the wound it treated has healed or worsened since.`);
        continue;
      }
      if (c.dead) continue;
      const done = entry.days + days;
      if (done >= CARE_DAYS) {
        const result = recovery.medicalCare(c, record.id);
        c = result.character;
        healed.push(...result.healed);
        lines.push(`${result.text.replace(/\.$/, '')} (in care since day ${entry.since}).`);
      } else {
        kept.push({ ...entry, days: done });
        lines.push(`${c.name}'s ${recordLabel(record)}: ${done} of ${CARE_DAYS} days of medical care, ${CARE_DAYS - done} to go.`);
      }
    }
    if (lines.length === 0) continue;
    const change = changeOf(subject, c, healed, (state) => {
      if (care.length) state['medicalCare'] = kept;
    });
    changes.characters = [...(changes.characters ?? []), ...(change.characters ?? [])];
    if (change.records) changes.records = [...(changes.records ?? []), ...change.records];
    log.push(...lines);
  }
  return log.length ? { change: changes, log } : null;
}

// ---- the recovery screen ----

const ATTRIBUTE_NAMES = { str: 'STR', dex: 'DEX', wil: 'WIL' } as const;
const tone = (current: number, max: number): 'ok' | 'warn' | 'bad' => (current <= 0 ? 'bad' : current < max ? 'warn' : 'ok');
const capitalised = (text: string) => `${text[0]?.toUpperCase() ?? ''}${text.slice(1)}`;

function cannotAct(c: RecoveringCharacter, world: CampaignWorld): string | null {
  const paralysed = c.dex <= 0;
  const delirious = c.wil <= 0;
  const stops = rulingsOf(world.options).dexWilZero === 'both' ? paralysed && delirious : paralysed || delirious;
  if (!stops) return null;
  const which = [paralysed ? 'paralysed (DEX 0)' : '', delirious ? 'delirious (WIL 0)' : ''].filter(Boolean).join(' and ');
  return `Cannot act: ${which} until an extended rest (R-C24)`;
}

function card(world: CampaignWorld, characterId: string): RecoveryCard {
  const subject = subjectOf(world, characterId);
  const c = subject.condition;
  const care = careOf(subject.character.state);
  const used = recovery.slotsUsed(c);
  const dying = recovery.dying(c);

  const stats: RecoveryCard['stats'] = [
    { label: 'HP', value: `${c.hp}/${c.hpMax}`, tone: tone(c.hp, c.hpMax) },
    ...(['str', 'dex', 'wil'] as const).map((a) => ({ label: ATTRIBUTE_NAMES[a], value: `${c[a]}/${c[`${a}Max`]}`, tone: tone(c[a], c[`${a}Max`]) })),
    { label: 'Fatigue', value: String(c.fatigue), tone: c.fatigue ? 'warn' : 'ok' },
    { label: 'Slots', value: `${used}/${SLOTS}`, tone: used >= SLOTS ? 'bad' : 'ok' },
    ...(dying ? [{ label: 'Death clock', value: `${c.deathClockMinutes} min`, tone: 'bad' as const }] : []),
    { label: 'Night\'s rest today', value: nightRestToday(world, subject.character.state) ? '1/1' : '0/1' },
  ];

  const marks: string[] = [];
  if (c.failedCriticalSave && !c.dead) marks.push('Impaired attacks: failed a Critical Damage save (attacks against are likely enhanced)');
  if (c.incapacitated && c.treated) marks.push('Treated: stays out until healed (R-C27)');
  if (subject.character.state['nextInitiativeDisadvantage'] === true) marks.push('Next initiative save at disadvantage (R-C6)');
  for (const leg of ['left', 'right'] as const) {
    if (c.injuries.filter((i) => i.location === `${leg}Leg`).length >= 2) marks.push(`Loses every initiative roll until a ${leg} leg injury heals (R-C6)`);
  }
  if (c.injuries.some((i) => i.location === 'leftLeg' || i.location === 'rightLeg')) marks.push('No fast movement: no quick-turn moves, no two-band moves (R-C6b)');
  if (c.injuries.some((i) => i.location === 'leftArm' || i.location === 'rightArm')) marks.push('An arm lost: no dual or two-handed weapons');
  for (const w of c.wounds.filter((x) => x.severity === 'permanent')) {
    const label = recovery.woundLabel(w);
    if (w.attribute) marks.push(w.trainedBack ? `${ATTRIBUTE_NAMES[w.attribute]} point won back by training (${label})` : `${ATTRIBUTE_NAMES[w.attribute]} −1 for good (${label}); training can win it back`);
    marks.push(`Slot lost for good (${label})`);
  }
  if (used > SLOTS) marks.push(`Overburdened: ${used} slots filled of ${SLOTS}, ${used - SLOTS} over; cannot defend (§4.4 step 3)`);
  else if (used === SLOTS) marks.push(`Overburdened: all ${SLOTS} slots full; cannot defend (§4.4 step 3)`);

  const records = subject.live.map((r) => {
    const base = { id: r.id, name: r.name, category: r.category };
    if (r.category === 'injury') return { ...base, status: 'takes a slot until it heals' };
    const wound = r.data as unknown as Wound;
    if (wound.severity === 'permanent') {
      const attribute = wound.attribute ? ATTRIBUTE_NAMES[wound.attribute] : null;
      const cost = attribute ? (wound.trainedBack ? `${attribute} point trained back, ` : `${attribute} −1, `) : '';
      return { ...base, status: `permanent: ${cost}slot lost for good`, permanent: true };
    }
    const entry = care.find((e) => e.recordId === r.id);
    if (entry) return { ...base, status: `in care since day ${entry.since} — heals on day ${world.day + Math.max(0, CARE_DAYS - entry.days)}` };
    return { ...base, status: wound.severity === 'light' ? 'light: heals overnight with the right medicine, or with a week of care' : `severe: needs ${CARE_DAYS} days of medical care` };
  });

  const slots: NonNullable<RecoveryCard['slots']> = [
    ...Array.from({ length: c.gearSlots }, () => ({ label: 'Gear', kind: 'gear' as const })),
    ...Array.from({ length: c.fatigue }, () => ({ label: 'Fatigue', kind: 'fatigue' as const })),
    ...c.injuries.map((i) => ({ label: i.name, kind: 'injury' as const })),
    ...c.wounds.filter((w) => w.severity !== 'permanent').map((w) => ({ label: capitalised(recovery.woundLabel(w)), kind: 'wound' as const })),
    ...c.wounds.filter((w) => w.severity === 'permanent').map((w) => ({ label: `${capitalised(recovery.woundLabel(w))} (lost for good)`, kind: 'lost' as const })),
  ];
  while (slots.length < SLOTS) slots.push({ label: 'Empty', kind: 'empty' });

  let out: string | null = null;
  if (c.dead) out = 'Dead';
  else if (dying) out = `Dying: ${counted(c.deathClockMinutes, 'minute')} left unless treated`;
  else if (c.incapacitated) out = 'Incapacitated: treated, out until healed (R-C27)';
  else if (c.unconscious) out = 'Unconscious until a safe night\'s rest';
  else out = cannotAct(c, world);

  return { stats, marks, records, slots, out };
}

export const cairnErrantRecovery: RecoveryRules = {
  forms,
  eventSchema: eventSchema as unknown as z.ZodType<GmEvent>,
  apply,
  daysPassed,
  card,
};
