// The event-sourced kernel (GUIDE §2): an encounter is its ordered list of GM events; its state is the replay of
// that list through the ruleset's machine. This module is pure: storage and transports live elsewhere.
import { createActor, initialTransition, type AnyActorScope, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';
import type { EncounterInput, EncounterRules, EncounterSnapshot, EncounterView, GmEvent, LogLine } from './types.ts';

/** A refusal a GM can read: the rules forbid the event now, or the payload is malformed. Nothing is changed. */
export class RuleRefusal extends Error {
  override name = 'RuleRefusal';
}

/** Parses an untrusted payload into one of the ruleset's events, or explains what is wrong with it. */
export function parseEvent(rules: EncounterRules, raw: unknown): GmEvent {
  const parsed = rules.eventSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const type = raw && typeof raw === 'object' && 'type' in raw ? String((raw as { type: unknown }).type).slice(0, 40) : '';
  // Only a problem with the event's own type means the action is unknown; a union inside a field is a field problem.
  if ((issue?.code === 'invalid_union' && issue.path.length === 0) || issue?.path.length === 0 || issue?.path[0] === 'type') {
    return fail(type ? `"${type}" is not an action this ruleset knows.` : 'The action is missing its type.');
  }
  if (!issue?.message || issue.message.startsWith('Invalid')) return fail(`The ${type || 'action'} is malformed at ${issue?.path.join('.') || 'its root'}.`);
  // A shared schema says "This must be text.": name the field, so a request from a script says which one.
  if (issue.message.startsWith('This ')) return fail(`In ${type || 'the action'}, ${issue.path.join('.')} ${issue.message.slice('This '.length)}`);
  return fail(issue.message);
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
 * One encounter's state, stepped with XState's pure `transition`: each event gives a new snapshot and leaves the
 * old one as it was (contexts are replaced, never changed in place), so a state this process already holds (the
 * one before the newest event, a mark) can be returned to for free, with no actor to revive.
 */
export class EncounterEngine {
  private current: AnyMachineSnapshot;

  private constructor(
    readonly rules: EncounterRules,
    readonly input: EncounterInput,
    start: AnyMachineSnapshot,
  ) {
    this.current = start;
  }

  /** A new encounter in its setup state. */
  static create(rules: EncounterRules, input: EncounterInput): EncounterEngine {
    return new EncounterEngine(rules, input, initialTransition(rules.machine, input)[0]);
  }

  /** Resume: a stored snapshot (or none) plus the events recorded after it. */
  static resume(rules: EncounterRules, input: EncounterInput, persisted: unknown, tail: readonly GmEvent[]): EncounterEngine {
    // Restoring a persisted snapshot needs an actor (it revives the context); stepping does not.
    const start = persisted === undefined || persisted === null
      ? initialTransition(rules.machine, input)[0]
      : (createActor(rules.machine, { input, snapshot: persisted as never }).getSnapshot() as AnyMachineSnapshot);
    const engine = new EncounterEngine(rules, input, start);
    for (const event of tail) engine.step(event);
    return engine;
  }

  /** An engine at a snapshot an engine of the same encounter gave (`snapshot`): nothing replayed or revived. */
  static at(rules: EncounterRules, input: EncounterInput, snapshot: EncounterSnapshot): EncounterEngine {
    return new EncounterEngine(rules, input, snapshot as unknown as AnyMachineSnapshot);
  }

  get snapshot(): EncounterSnapshot {
    return this.current as unknown as EncounterSnapshot;
  }

  /** The view of the current snapshot, built once per snapshot (a write and its reply both ask for it). */
  view(): EncounterView {
    const snapshot = this.snapshot;
    if (this.viewOf !== snapshot) {
      this.cachedView = this.rules.view(snapshot);
      this.viewOf = snapshot;
    }
    return this.cachedView!;
  }
  private viewOf: EncounterSnapshot | null = null;
  private cachedView: EncounterView | null = null;

  /** The snapshot in a JSON-safe form, to be stored and restored with `resume`. */
  persisted(): unknown {
    return this.rules.machine.getPersistedSnapshot(this.current);
  }

  /** Why the rules refuse the event now, or null. */
  refusal(event: GmEvent): string | null {
    const snapshot = this.snapshot;
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

  /** Applies an already-parsed event; throws RuleRefusal (changing nothing) when the rules forbid it. */
  apply(event: GmEvent): LogLine[] {
    const before = this.snapshot;
    this.step(event);
    return this.rules.describe(event, before, this.snapshot);
  }

  /**
   * Applies an event like `apply` without writing its log lines: for replays whose lines are already stored (a
   * resume, an export) or not wanted.
   */
  step(event: GmEvent): void {
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
