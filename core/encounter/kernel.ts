// The event-sourced kernel (GUIDE §2): an encounter is its ordered list of GM events; its state is the replay of
// that list through the ruleset's machine. This module is pure: storage and transports live elsewhere.
import * as z from 'zod';
import { createActor, initialTransition, type AnyActorScope, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';
import { fillRolls } from '../dice/fill-rolls.ts';
import { BATCH_MAX, carryAnnotationSchema } from './schemas.ts';
import { renameFields } from './upcast.ts';
import {
  NO_CONDITIONS, applyCondition, conditionEventSchema, conditionRefusal, follow, isConditionEvent, readStoredConditions, withChips,
  type ConditionEvent, type ConditionsState,
} from './conditions.ts';
import type { EncounterInput, EncounterRoster, EncounterRules, EncounterSnapshot, EncounterView, GmEvent, LogLine, RollRequest } from './types.ts';

/** A refusal a GM can read: the rules forbid the event now, or the payload is malformed. Nothing is changed. */
export class RuleRefusal extends Error {
  override name = 'RuleRefusal';
}

declare const parsedEvent: unique symbol;
/**
 * An event a ruleset's schema has read (`parseEvent`): the engine takes it as it is. Anything else handed to the
 * engine is read there first, so a malformed event never reaches the rules. A parsed event is a value: it is never
 * changed afterwards (a change makes a new object, which the engine reads again).
 */
export type ParsedEvent = GmEvent & { readonly [parsedEvent]: true };

/** Each parsed event → the schema that read it: an event read by one ruleset is read again by another. */
const readBy = new WeakMap<object, EncounterRules['eventSchema']>();

function markParsed(rules: EncounterRules, event: GmEvent): ParsedEvent {
  readBy.set(event, rules.eventSchema);
  return event as ParsedEvent;
}

function parsedFor(rules: EncounterRules, event: unknown): event is ParsedEvent {
  if (event === null || typeof event !== 'object') return false;
  const schema = readBy.get(event);
  return schema !== undefined && schema === rules.eventSchema;
}

/** The version of the ruleset's context shape its snapshots are stored under (EncounterRules.rulesVersion). */
export function rulesVersionOf(rules: EncounterRules): number {
  return rules.rulesVersion ?? 1;
}

/**
 * A stored or imported event in today's shape: the ruleset's `upcast` applied (an event of an older shape rewritten;
 * anything else as it was). For reading a field of a stored event without parsing it; `parseEvent` does this itself.
 */
export function upcastStored(rules: EncounterRules, stored: GmEvent): GmEvent {
  const event = upcast(rules, stored);
  return isGmEvent(event) ? event : stored;
}

/**
 * The shapes every ruleset's events had before their fields were named one way (docs/rulesets/adding-a-ruleset.md,
 * "One name for one thing"): `REMOVE_COMBATANT {id}` is `{combatantId}` since rules version 2 of every ruleset.
 * Applied before the ruleset's own `upcast`.
 */
export function upcastShared(stored: unknown): unknown {
  return renameFields(stored, { REMOVE_COMBATANT: { id: 'combatantId' } });
}

function upcast(rules: EncounterRules, stored: unknown): unknown {
  const shared = upcastShared(stored);
  return rules.upcast ? rules.upcast(shared) : shared;
}

function isGmEvent(value: unknown): value is GmEvent {
  return value !== null && typeof value === 'object' && 'type' in value && typeof value.type === 'string';
}

/**
 * Parses an untrusted payload into one of the ruleset's events, or explains what is wrong with it. A stored or
 * imported event of an older shape is first rewritten by the ruleset's `upcast` (applied here, not as a
 * `z.preprocess` in the schema, which would hide the schema's union from `schemaAt`), so every reader of stored
 * events (a resume, an undo, an export, an import) reads today's shape.
 */
export function parseEvent(rules: EncounterRules, stored: unknown): ParsedEvent {
  const raw = upcast(rules, stored);
  if (raw !== null && typeof raw === 'object' && isConditionEvent(raw as GmEvent)) return markParsed(rules, parseConditionEvent(raw));
  if (raw !== null && typeof raw === 'object' && (raw as GmEvent).type === BATCH) return markParsed(rules, parseBatch(rules, raw));
  const parsed = rules.eventSchema.safeParse(raw);
  if (parsed.success) return markParsed(rules, parsed.data);
  const issues = parsed.error.issues;
  const type = raw && typeof raw === 'object' && 'type' in raw ? String((raw as { type: unknown }).type).slice(0, 40) : '';
  // A field the event does not take explains the rest: a misnamed key also leaves its right name missing.
  const issue = issues.find((i) => i.code === 'unrecognized_keys') ?? issues[0];
  if (!issue) return fail(`The ${type || 'action'} is malformed.`);
  if (issue.code === 'unrecognized_keys') return fail(unknownFields(rules, type, issue.path, issue.keys));
  // Only a problem with the event's own type means the action is unknown; a union inside a field is a field problem.
  if (issue.path.length === 0 || issue.path[0] === 'type') {
    return fail(type ? `"${type}" is not an action this ruleset knows.` : 'The action is missing its type.');
  }
  const where = `In ${type || 'the action'}, ${issue.path.join('.')}`;
  // A choice names its field, whatever sentence the ruleset gave it: "In ATTACK, mode must be one of melee, ranged."
  if (issue.code === 'invalid_value') {
    const choices = listed(issue.values.map((value) => String(value)));
    if (valueAt(raw, issue.path) === undefined) return fail(`${where} is missing; it must be one of ${choices}.`);
    return fail(issue.message && !issue.message.startsWith('Invalid') ? `${where}: ${issue.message}` : `${where} must be one of ${choices}.`);
  }
  if (!issue.message || issue.message.startsWith('Invalid')) return fail(unreadable(rules, type, issue.path));
  // A shared schema says "This must be text.": name the field, so a request from a script says which one.
  if (issue.message.startsWith('This ')) return fail(`${where} ${issue.message.slice('This '.length)}`);
  return fail(issue.message);
}

/**
 * Several targets at once (issue 28 point 4): a kernel event wrapping the ruleset's own events (damage, healing, a
 * condition on each of several combatants), applied in order as one event, so it is logged line by line and undone
 * with one undo. All are applied or none: a part the rules refuse refuses the whole, named by its target.
 */
export const BATCH = 'BATCH';

const batchSchema = z.strictObject({
  type: z.literal(BATCH),
  events: z.array(z.looseObject({ type: z.string() }), { error: 'The actions must be a list.' })
    .min(2, { error: 'Several targets at once needs at least two actions.' }).max(BATCH_MAX, { error: `At most ${BATCH_MAX} actions go at once.` }),
});

function parseBatch(rules: EncounterRules, raw: unknown): GmEvent {
  const parsed = batchSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail(issue?.message && !issue.message.startsWith('Invalid') ? issue.message : 'The actions for several targets cannot be read.');
  }
  const events = parsed.data.events.map((event, i) => {
    if (event.type === BATCH) fail('Actions for several targets cannot hold another such group.');
    try {
      return parseEvent(rules, event);
    } catch (error) {
      if (error instanceof RuleRefusal) fail(`Part ${i + 1} of the actions for several targets: ${error.message}`);
      throw error;
    }
  });
  return { type: BATCH, events };
}

/** Whom one part of a batch is about, in words: its target's name. */
function partOwner(event: GmEvent, roster: Pick<EncounterRoster, 'order'>): string {
  for (const key of ['targetId', 'combatantId', 'id', 'characterId', 'attackerId']) {
    const id = event[key];
    const named = typeof id === 'string' ? roster.order.find((c) => c.id === id)?.name : undefined;
    if (named) return named;
  }
  const many = event['targetIds'];
  if (Array.isArray(many)) return many.map((id) => roster.order.find((c) => c.id === id)?.name ?? String(id)).join(', ');
  return 'one of the targets';
}

/** A condition event of the kernel's own (conditions.ts), or a sentence saying what is wrong with it. */
function parseConditionEvent(raw: unknown): GmEvent {
  const parsed = conditionEventSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues.find((i) => i.code === 'unrecognized_keys') ?? parsed.error.issues[0];
  if (issue?.code === 'unrecognized_keys') return fail(`A condition has no field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.slice(0, 3).map((k) => `'${k.slice(0, 40)}'`).join(', ')}.`);
  const message = issue?.message ?? '';
  if (message && !message.startsWith('Invalid') && !message.startsWith('This ')) return fail(message);
  const field = issue?.path.find((key): key is string => typeof key === 'string');
  const words: Record<string, string> = { targetIds: 'its combatants', targetId: 'its combatant', conditionId: 'which condition', name: 'its name', duration: 'its duration', whoId: 'whose turn its duration follows', rounds: 'its number of rounds' };
  return fail(`The condition cannot be read: ${field ? (words[field] ?? field) : 'it'} is not right.`);
}

/**
 * A value of the wrong kind, said in the GM's words: the form's label for the action and its field, the roll's name
 * in words, never a dotted path ("The attack has a typed face for its defence roll that is not a face of the die.").
 */
function unreadable(rules: EncounterRules, type: string, path: readonly PropertyKey[]): string {
  const form = rules.actionForms?.find((f) => f.type === type);
  const action = `The ${(form?.label ?? type.replaceAll('_', ' ')).toLowerCase() || 'action'}`;
  const words = (key: PropertyKey) => String(key).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  const named = path.filter((key): key is string => typeof key === 'string');
  const facesAt = named.indexOf('faces');
  if (facesAt >= 0) {
    const roll = named.slice(0, facesAt).map(words).join(' ') || 'roll';
    return `${action} has a typed face for its ${roll} that is not a face of the die: type whole numbers from 1 to the die's size.`;
  }
  const field = form?.fields.find((f) => f.key === named[0]);
  const what = [field ? field.label.toLowerCase() : named[0] ? words(named[0]) : '', ...named.slice(1).map(words)].filter(Boolean).join(' ');
  return what ? `${action} has a ${what} it cannot read.` : `${action} cannot be read.`;
}

/** "ATTACK has no field 'targt'; it takes: attackerId, targetId, …" (the fields from the ruleset's own schema). */
function unknownFields(rules: EncounterRules, type: string, path: readonly PropertyKey[], keys: readonly string[]): string {
  const shown = keys.slice(0, 3).map((key) => `'${key.slice(0, 40)}'`).join(', ') + (keys.length > 3 ? ', …' : '');
  const owner = path.length ? `In ${type}, ${path.join('.')}` : type;
  const fields = Object.keys(shapeOf(schemaAt(rules, type, path)) ?? {}).filter((key) => path.length > 0 || key !== 'type');
  const takes = fields.length ? `; it takes: ${listed(fields)}` : schemaAt(rules, type, path) ? '; it takes none' : '';
  return `${owner} has no field${keys.length > 1 ? 's' : ''} ${shown}${takes}.`;
}

function listed(items: readonly string[], most = 12): string {
  return items.length > most ? `${items.slice(0, most).join(', ')}, …` : items.join(', ');
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

// ---- the ruleset's schema, walked (zod 4's own definitions): a field's schema and an object's fields ----

type Schema = { _zod: { def: SchemaDef; innerType?: Schema } };
interface SchemaDef {
  type: string;
  innerType?: Schema;
  in?: Schema;
  shape?: Record<string, Schema>;
  element?: Schema;
  options?: Schema[];
  values?: unknown[];
}
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'nonoptional', 'readonly', 'catch']);

/** The schema inside optional, nullable, default, pipe and lazy wrappers (a ruleset's events are built on first use). */
function unwrapped(schema: Schema | undefined): Schema | undefined {
  let inner = schema;
  for (let def = inner?._zod.def; def; def = inner?._zod.def) {
    if (WRAPPERS.has(def.type)) inner = def.innerType;
    else if (def.type === 'pipe') inner = def.in;
    else if (def.type === 'lazy') inner = inner?._zod.innerType;
    else break;
  }
  return inner;
}

function shapeOf(schema: Schema | undefined): Record<string, Schema> | undefined {
  const def = unwrapped(schema)?._zod.def;
  return def?.type === 'object' ? def.shape : undefined;
}

/** Per schema: each event type's own object schema. */
const optionsByType = new WeakMap<object, Map<string, Schema>>();

/** The schema of the field at `path` in an event of `type` (the event's own with no path); undefined if not found. */
function schemaAt(rules: EncounterRules, type: string, path: readonly PropertyKey[]): Schema | undefined {
  let byType = optionsByType.get(rules.eventSchema);
  if (!byType) {
    byType = new Map();
    for (const option of unwrapped(rules.eventSchema as unknown as Schema)?._zod.def.options ?? []) {
      const literal = unwrapped(shapeOf(option)?.['type'])?._zod.def;
      for (const value of literal?.type === 'literal' ? literal.values ?? [] : []) if (typeof value === 'string') byType.set(value, option);
    }
    optionsByType.set(rules.eventSchema, byType);
  }
  let schema = byType.get(type);
  for (const key of path) {
    const def = unwrapped(schema)?._zod.def;
    if (def?.type === 'object' && typeof key === 'string') schema = def.shape?.[key];
    else if (def?.type === 'array' && typeof key === 'number') schema = def.element;
    else return undefined;
  }
  return schema;
}

/**
 * What the store adds to a stored event beside the ruleset's own fields (the GM's changes to what an ending carries,
 * server/encounter-store.ts): read with its own schema, the rest with the ruleset's.
 */
const CARRY_KEYS = ['carryAdjust', 'carryReason'] as const;

/** A stored or handed-in event as the engine reads it: the ruleset's event, with the carry-over it may carry. */
function readEvent(rules: EncounterRules, raw: unknown): ParsedEvent {
  if (parsedFor(rules, raw)) return raw;
  if (raw === null || typeof raw !== 'object' || !CARRY_KEYS.some((key) => key in raw)) return parseEvent(rules, raw);
  const { carryAdjust, carryReason, ...action } = raw as Record<string, unknown>;
  const carry = carryAnnotationSchema.safeParse(carryReason === undefined ? { carryAdjust } : { carryAdjust, carryReason });
  if (!carry.success) fail('The carry-over adjustment on this action is malformed.');
  return markParsed(rules, { ...parseEvent(rules, action), ...carry.data });
}

function fail(message: string): never {
  throw new RuleRefusal(message);
}

/** What a pure step hands back besides the next snapshot: actions for the caller to run (the machines have none). */
interface Stepper {
  scope: AnyActorScope;
  effects: { type: string }[];
}
const steppers = new WeakMap<AnyStateMachine, Stepper>();

/**
 * The inert actor scope a pure step runs in, made once per machine. XState's own transition() makes one on every
 * call by creating an actor, which computes the machine's whole initial state each time (a third of a step with
 * 200 combatants); the scope is the public ActorScope, with nothing deferred, logged, emitted or spawned, and the
 * actions a step asks for collected rather than run.
 */
function stepperOf(machine: AnyStateMachine, input: unknown): Stepper {
  let stepper = steppers.get(machine);
  if (!stepper) {
    const self = createActor(machine, { input });
    const effects: { type: string }[] = [];
    const scope: AnyActorScope = {
      self, id: '', sessionId: '', system: self.system,
      logger: () => {}, defer: () => {}, emit: () => {}, stopChild: () => {},
      actionExecutor: (action) => void effects.push(action),
    };
    steppers.set(machine, (stepper = { scope, effects }));
  }
  return stepper;
}

/**
 * The snapshot after `event`, the one given left as it was. The machines are pure (assign and guards only): an
 * action left for the caller to run would be lost, so asking for one throws.
 */
export function pureStep(machine: AnyStateMachine, input: unknown, snapshot: AnyMachineSnapshot, event: { type: string }): AnyMachineSnapshot {
  const { scope, effects } = stepperOf(machine, input);
  effects.length = 0;
  const next = machine.transition(snapshot as never, event as never, scope) as AnyMachineSnapshot;
  if (effects.length) throw new Error(`The ${machine.id} machine asked for actions the engine does not run: ${effects.map((e) => e.type).join(', ')}.`);
  return next;
}

/**
 * Where an engine stands: the machine's snapshot and the conditions beside it (conditions.ts). Both are values,
 * never changed in place: a state held as an undo mark is returned to as it was.
 */
export class EngineState {
  constructor(
    readonly machine: EncounterSnapshot,
    readonly conditions: ConditionsState,
  ) {}
}

/** The key the conditions are stored under beside the machine's persisted snapshot (absent: none). */
const CONDITIONS_KEY = 'conditions';

/**
 * One encounter's state, stepped with XState's pure `transition`: each event gives a new snapshot and leaves the
 * old one as it was (contexts are replaced, never changed in place), so a state this process already holds (the
 * one before the newest event, a mark) can be returned to for free, with no actor to revive.
 */
export class EncounterEngine {
  private current: AnyMachineSnapshot;
  /** The conditions on the combatants (conditions.ts), replaced on every change like the snapshot. */
  private conditions: ConditionsState;

  private constructor(
    readonly rules: EncounterRules,
    readonly input: EncounterInput,
    start: AnyMachineSnapshot,
    conditions: ConditionsState = NO_CONDITIONS,
  ) {
    this.current = start;
    this.conditions = conditions;
  }

  /** A new encounter in its setup state. */
  static create(rules: EncounterRules, input: EncounterInput): EncounterEngine {
    return new EncounterEngine(rules, input, initialTransition(rules.machine, input)[0]);
  }

  /** Resume: a stored snapshot (or none) plus the events recorded after it. */
  static resume(rules: EncounterRules, input: EncounterInput, persisted: unknown, tail: readonly unknown[]): EncounterEngine {
    // Restoring a persisted snapshot needs an actor (it revives the context); stepping does not. The conditions are
    // stored beside the machine's own keys; a snapshot stored before there were any reads as none.
    let conditions = NO_CONDITIONS;
    let machine = persisted;
    if (persisted !== null && typeof persisted === 'object' && CONDITIONS_KEY in persisted) {
      const { [CONDITIONS_KEY]: stored, ...rest } = persisted as Record<string, unknown>;
      conditions = readStoredConditions(stored);
      machine = rest;
    }
    const start = machine === undefined || machine === null
      ? initialTransition(rules.machine, input)[0]
      : (createActor(rules.machine, { input, snapshot: machine as never }).getSnapshot() as AnyMachineSnapshot);
    const engine = new EncounterEngine(rules, input, start, conditions);
    for (const event of tail) engine.step(event);
    return engine;
  }

  /**
   * An engine at a state an engine of the same encounter gave (`engine.state`; a machine snapshot alone: with no
   * conditions): nothing replayed or revived.
   */
  static at(rules: EncounterRules, input: EncounterInput, at: EngineState | EncounterSnapshot): EncounterEngine {
    if (at instanceof EngineState) return new EncounterEngine(rules, input, at.machine as unknown as AnyMachineSnapshot, at.conditions);
    return new EncounterEngine(rules, input, at as unknown as AnyMachineSnapshot);
  }

  /** The machine's snapshot, as the ruleset reads it. */
  get snapshot(): EncounterSnapshot {
    return this.current as unknown as EncounterSnapshot;
  }

  /** The whole state (snapshot and conditions), to come back to with `at`. */
  get state(): EngineState {
    if (this.heldState?.machine !== this.snapshot || this.heldState.conditions !== this.conditions) this.heldState = new EngineState(this.snapshot, this.conditions);
    return this.heldState;
  }
  private heldState: EngineState | null = null;

  /** Another engine at this one's state, to try an event on without changing this one. */
  copy(): EncounterEngine {
    return new EncounterEngine(this.rules, this.input, this.current, this.conditions);
  }

  /**
   * The view of the current state, built once per state (a write and its reply both ask for it): the ruleset's view
   * with each combatant's conditions on its row. The condition events are not among `allowed` (the ruleset's): they
   * are taken whenever the fight has not ended.
   */
  view(): EncounterView {
    const snapshot = this.snapshot;
    if (this.viewOf !== snapshot) {
      this.machineView = this.rules.view(snapshot);
      this.viewOf = snapshot;
      this.cachedView = null;
    }
    if (!this.cachedView || this.viewConditions !== this.conditions) {
      const view = this.machineView!;
      this.cachedView = this.conditions.list.length ? { ...view, order: withChips(view.order, this.conditions, view) } : view;
      this.viewConditions = this.conditions;
    }
    return this.cachedView;
  }
  private viewOf: EncounterSnapshot | null = null;
  private machineView: EncounterView | null = null;
  private cachedView: EncounterView | null = null;
  private viewConditions: ConditionsState | null = null;

  /** What the conditions read of a snapshot: the ruleset's cheap roster, or its view (cached for the current one). */
  private rosterAt(snapshot: EncounterSnapshot): Pick<EncounterRoster, 'phase' | 'round' | 'order'> {
    if (this.rules.roster) return this.rules.roster(snapshot);
    if (this.viewOf === snapshot) return this.machineView!;
    return this.rules.view(snapshot);
  }

  /**
   * The state in a JSON-safe form, to be stored and restored with `resume`: the machine's persisted snapshot, with
   * the conditions beside its keys once a condition has ever been put on (before that, exactly the machine's).
   */
  persisted(): unknown {
    const machine = this.rules.machine.getPersistedSnapshot(this.current);
    return this.conditions.next === 0 ? machine : { ...(machine as object), [CONDITIONS_KEY]: this.conditions };
  }

  /** Why the rules refuse the event now (a malformed event: what is wrong with it), or null. */
  refusal(raw: unknown): string | null {
    let event: ParsedEvent;
    try {
      event = readEvent(this.rules, raw);
    } catch (error) {
      if (error instanceof RuleRefusal) return error.message;
      throw error;
    }
    const snapshot = this.snapshot;
    if (isConditionEvent(event)) return conditionRefusal(this.conditions, this.rosterAt(snapshot), event as unknown as ConditionEvent);
    if (event.type === BATCH) {
      try {
        this.copy().advance(event);
        return null;
      } catch (error) {
        if (error instanceof RuleRefusal) return error.message;
        throw error;
      }
    }
    const reason = this.rules.refusal(snapshot, event);
    if (reason !== null) return reason;
    return snapshot.can(event) ? null : this.notPossible();
  }

  /** Why the machine takes no event of this kind now: the fight has ended, or it is not the moment. */
  private notPossible(): string {
    const phase = this.rules.view(this.snapshot).phase;
    if (phase === 'ended') return 'This encounter has ended.';
    return `That is not possible ${phase === 'setup' ? 'before combat starts' : 'at this point of the fight'}.`;
  }

  /**
   * The engine's one door: applies an event and returns its log lines. An event `parseEvent` gave is taken as it
   * is; anything else (a stored event, a test's literal) is parsed here first. Throws RuleRefusal, changing
   * nothing, when the event is malformed or the rules forbid it now.
   */
  apply(raw: unknown): LogLine[] {
    const event = readEvent(this.rules, raw);
    const before = this.snapshot;
    const layer = this.advance(event);
    if (isConditionEvent(event) || event.type === BATCH) return layer;
    return [...this.rules.describe(event, before, this.snapshot), ...layer];
  }

  /**
   * The rolls an event needs in this state: the ruleset's (`rollsFor`), none for a condition, and for several targets
   * at once each part's in the state the parts before it leave, its path under `events`.
   */
  rollsFor(raw: unknown): RollRequest[] {
    const event = readEvent(this.rules, raw);
    if (isConditionEvent(event)) return [];
    if (event.type !== BATCH) return this.rules.rollsFor?.(this.snapshot, event) ?? [];
    const copy = this.copy();
    return (event['events'] as ParsedEvent[]).flatMap((part, i) => {
      const requests = copy.rollsFor(part).map((request) => ({ ...request, path: ['events', i, ...request.path] }));
      try {
        copy.step(part);
      } catch (error) {
        if (!(error instanceof RuleRefusal)) throw error;
      }
      return requests;
    });
  }

  /**
   * The event with the rolls it needs now filled in: faces the GM typed are kept, empty rolls are rolled by the app
   * (RollRequest). It stays parsed: each roll the app adds is read by the schema of its own field, not the whole
   * event again.
   */
  withRolls(raw: unknown): ParsedEvent {
    const event = readEvent(this.rules, raw);
    if (isConditionEvent(event)) return event;
    if (event.type === BATCH) {
      // Each part's rolls in the state the parts before it leave (a part refused here is refused again on apply).
      const copy = this.copy();
      const events = (event['events'] as ParsedEvent[]).map((part) => {
        const filled = copy.withRolls(part);
        try {
          copy.step(filled);
        } catch (error) {
          if (!(error instanceof RuleRefusal)) throw error;
        }
        return filled;
      });
      return markParsed(this.rules, { type: BATCH, events });
    }
    const filled = fillRolls(this.rules.rollsFor?.(this.snapshot, event) ?? [], event);
    if (filled === event) return event;
    for (const [key, value] of Object.entries(filled)) {
      if (value === event[key]) continue;
      // Only the top-level fields on the way to a filled roll are new objects: each is checked by its own schema.
      const schema = schemaAt(this.rules, event.type, [key]) as unknown as { safeParse(v: unknown): { success: boolean; data?: unknown } } | undefined;
      const read = schema?.safeParse(value);
      if (!read?.success || JSON.stringify(read.data) !== JSON.stringify(value)) return parseEvent(this.rules, filled);
    }
    return markParsed(this.rules, filled);
  }

  /**
   * Applies an event like `apply` without writing its log lines: for replays whose lines are already stored (a
   * resume, an export) or not wanted. The same door: a malformed event is refused.
   */
  step(raw: unknown): void {
    this.advance(readEvent(this.rules, raw));
  }

  /**
   * `step`, returning the conditions' lines: a condition event's own, or for a ruleset's event the conditions that
   * ended and the reminders of the turns it started or ended (conditions.ts `follow`).
   */
  private advance(event: ParsedEvent): LogLine[] {
    if (event.type === BATCH) {
      // Every part on a copy first: a refused part leaves this engine as it was.
      const copy = this.copy();
      const lines: LogLine[] = [];
      for (const part of event['events'] as ParsedEvent[]) {
        try {
          lines.push(...copy.apply(part));
        } catch (error) {
          if (error instanceof RuleRefusal) throw new RuleRefusal(`Nothing was applied: the part for ${partOwner(part, copy.rosterAt(copy.snapshot))} is refused. ${error.message}`);
          throw error;
        }
      }
      this.current = copy.current;
      this.conditions = copy.conditions;
      return lines;
    }
    if (isConditionEvent(event)) {
      const roster = this.rosterAt(this.snapshot);
      const condition = event as unknown as ConditionEvent;
      const refused = conditionRefusal(this.conditions, roster, condition);
      if (refused !== null) throw new RuleRefusal(refused);
      const { state, lines } = applyCondition(this.conditions, roster, condition);
      this.conditions = state;
      return lines;
    }
    const held = this.conditions.list.length ? this.rosterAt(this.snapshot) : null;
    this.stepMachine(event);
    if (!held) return [];
    const { state, lines } = follow(this.conditions, held, this.rosterAt(this.snapshot));
    this.conditions = state;
    return lines;
  }

  private stepMachine(event: ParsedEvent): void {
    const reason = this.rules.refusal(this.snapshot, event);
    if (reason !== null) throw new RuleRefusal(reason);
    let next: AnyMachineSnapshot;
    try {
      next = pureStep(this.rules.machine, this.input, this.current, event);
    } catch (error) {
      throw new Error(`The ${this.rules.machine.id} machine failed on ${event.type}.`, { cause: error });
    }
    // No transition took the event: the machine refuses it here. This is what XState's `can` answers (which
    // `refusal` asks), found by the step itself instead of selecting the transitions twice (about 5% of an export);
    // core/encounter/kernel.test.ts holds the two to the same answer for every ruleset.
    if (next === this.current) throw new RuleRefusal(this.notPossible());
    if (next.status === 'error') throw new Error(`The ${this.rules.machine.id} machine failed on ${event.type}.`, { cause: next.error });
    this.current = next;
  }
}
