// Encounters as event logs on disk with a warm engine in memory: append, undo and redo each run inside the
// caller's write transaction, so an event is committed before its result is returned (GUIDE §2).
import { createHash, randomUUID, type Hash } from 'node:crypto';
import { GmError, cutText } from '../core/api/contract.ts';
import { EncounterEngine, RuleRefusal, parseEvent, rulesVersionOf, type EngineState, type ParsedEvent } from '../core/encounter/kernel.ts';
import type { Consequences, EncounterInput, EncounterRules, EncounterSnapshot, EncounterView, GmEvent, LogLine } from '../core/encounter/types.ts';
import { carryLabel } from '../core/ledger/carry.ts';
import { findRuleset } from '../core/rulesets/registry.ts';
import { prepared, writeTransaction, type Db } from '../db/connection.ts';
import * as store from '../db/encounters.ts';
import type { EncounterListRow as EncounterHead } from '../db/encounters.ts';
import * as consequences from '../db/consequences.ts';
import type { RollRequest } from '../core/encounter/types.ts';
import type { StoredStep } from '../core/export/encounter.ts';
import { SummaryFold, rosterChange, type EncounterReplay, type RosterChange } from '../core/export/summary.ts';
import { filterKey, matches, storedLogTest, type LogFilter } from '../core/encounter/log-filter.ts';

interface Warm {
  engine: EncounterEngine;
  seq: number;
  /** The digest of the events the engine has applied (see EventDigest). */
  covered: EventDigest;
  /** The log lines stored with event `seq`, when this store wrote that event (the reply and undo label use them). */
  lines?: readonly LogLine[];
}

/**
 * What the database holds of an encounter's consequences when its head is at `seq`: the injury rows match
 * `injuries` (the list the rules gave, and each record's data as written, by key) and the carry-over is written or
 * not. A write compares the rules' new list with it and writes only the records that changed: the same list (most
 * events) costs nothing, and a record given again as the same object is not looked at (see diffInjuries).
 */
interface Synced {
  seq: number;
  injuries: readonly InjuryRecord[];
  written: Map<string, WrittenInjury>;
  carried: boolean;
}

type InjuryRecord = Consequences['injuries'][number];

/** An injury record as its row holds it: the record the rules gave and its data's JSON. */
interface WrittenInjury {
  record: InjuryRecord;
  data: string;
}

const injuryWrite = ({ record, data }: WrittenInjury): consequences.InjuryWrite => ({ key: record.key, characterId: record.characterId, name: record.name, category: record.category, data });

/**
 * What a write changes in the rows of an encounter's injuries, held as `written`: the records of `injuries` new to
 * it (added), those whose data differ from their row's (changed) and the keys no longer given (removed, their
 * event undone). A record given as the very object written is not looked at; another object of the same key is
 * compared by its data's JSON. Returns the rows as they will stand.
 */
function diffInjuries(written: ReadonlyMap<string, WrittenInjury>, injuries: readonly InjuryRecord[]): { changes: consequences.InjuryChanges; written: Map<string, WrittenInjury> } {
  const changes: consequences.InjuryChanges = { added: [], changed: [], removed: [] };
  const next = new Map<string, WrittenInjury>();
  for (const record of injuries) {
    const row = written.get(record.key);
    if (row?.record === record) {
      next.set(record.key, row);
      continue;
    }
    const data = JSON.stringify(record.data);
    const now: WrittenInjury = { record, data };
    next.set(record.key, now);
    if (!row) changes.added.push(injuryWrite(now));
    else if (row.data !== data) changes.changed.push(injuryWrite(now));
  }
  for (const key of written.keys()) if (!next.has(key)) changes.removed.push(key);
  return { changes, written: next };
}

/** The state after an event, kept in memory (see MARKS_KEPT), with the digest of the events that led to it. */
interface Mark {
  /** The machine's snapshot and the conditions beside it. */
  state: EngineState;
  covered: EventDigest;
}

/**
 * The running digest of the events an engine has applied, as stored (each event's JSON and a newline), chained at
 * every snapshot's seq: D(0) = '', D(k) = sha1(D(k − SNAPSHOT_EVERY) and events k − SNAPSHOT_EVERY + 1 … k). A stored
 * snapshot carries the D of its seq, computed from the events its engine applied: one saved by an engine that had
 * gone stale (another process wrote the file) carries a D its stored events do not give. Chained, an engine resumed
 * from a snapshot goes on from its D without reading the events before it.
 *
 * It holds the D it goes on from and the events added since (fewer than SNAPSHOT_EVERY, newest first, shared with
 * its copies), and the hash of them once it has been added to. A copy (every write keeps one with its mark) is
 * those two alone: its hash is made again from them only if events are added to it (a write after an undo).
 */
class EventDigest {
  private constructor(
    private base: string,
    private since: AddedEvent | null,
    private hash: Hash | null,
  ) {}

  /** The digest of the events after a snapshot that carries `digest` (from the start: ''). */
  static after(digest = ''): EventDigest {
    return new EventDigest(digest, null, null);
  }

  /** Adds event `seq`; at a snapshot's seq, returns the D a snapshot there carries. */
  add(payload: string, seq: number): string | null {
    const hash = this.hashed().update(payload).update('\n');
    if (seq % store.SNAPSHOT_EVERY !== 0) {
      this.since = { payload, before: this.since };
      return null;
    }
    const digest = hash.digest('base64');
    this.base = digest;
    this.since = null;
    this.hash = null;
    return digest;
  }

  copy(): EventDigest {
    return new EventDigest(this.base, this.since, null);
  }

  private hashed(): Hash {
    if (this.hash) return this.hash;
    const added: string[] = [];
    for (let event = this.since; event; event = event.before) added.push(event.payload);
    const hash = createHash('sha1').update(this.base);
    for (let i = added.length - 1; i >= 0; i--) hash.update(added[i]!).update('\n');
    return (this.hash = hash);
  }
}

/** An event added to an EventDigest since its D, with those added before it. */
interface AddedEvent {
  readonly payload: string;
  readonly before: AddedEvent | null;
}

type Built = { engine: EncounterEngine; covered: EventDigest };

/**
 * The stored snapshot as a resume may use it: one saved under another version of the ruleset's context shape
 * (EncounterRules.rulesVersion) is read as carrying no digest, so it is checked by a replay of the events and replaced.
 */
function usable(rules: EncounterRules, stored: store.StoredSnapshot | null): store.StoredSnapshot | null {
  return stored && stored.covers !== null && stored.rulesVersion !== rulesVersionOf(rules) ? { ...stored, covers: null } : stored;
}

/** The encounter rules of a ruleset; one this version does not know (a newer database) is refused as rulesetOf does. */
export function rulesFor(rulesetId: string): EncounterRules {
  const ruleset = findRuleset(rulesetId);
  if (!ruleset) throw new GmError(`This campaign uses a ruleset this version does not know (${rulesetId}).`, 'invalid');
  return ruleset.encounter;
}

export interface CarryAdjustment {
  adjust: { characterId: string; key: string; value: number }[];
  reason?: string | undefined;
}

/** How a redo treats an event that ends the fight (see EncounterStore.redo). */
export interface RedoReview {
  /** Stop before writing and answer with what it would carry (EndingToCheck). */
  ask?: boolean | undefined;
  /** The GM (or a script, knowingly) has seen what it carries: write it. */
  confirm?: boolean | undefined;
  /** With `confirm`: the adjustments from the review, replacing those of the undone event (none: an empty list). */
  carry?: CarryAdjustment | undefined;
}

/** The carry-over with the GM's adjustments from the ending event applied. */
function adjusted(carry: NonNullable<Consequences['carry']>, event: GmEvent | null): NonNullable<Consequences['carry']> {
  const adjust = (event?.['carryAdjust'] ?? []) as CarryAdjustment['adjust'];
  if (adjust.length === 0) return carry;
  return carry.map(({ characterId, state }) => {
    const mine = adjust.filter((a) => a.characterId === characterId);
    return { characterId, state: mine.length ? { ...state, ...Object.fromEntries(mine.map((a) => [a.key, a.value])) } : state };
  });
}

/**
 * Thrown by `append` with `askBeforeEnding` when the event would end the fight with something to carry onto the
 * characters: nothing was written, and the event (dice filled) and what it would carry go back to the GM to check.
 */
export class EndingToCheck extends Error {
  override name = 'EndingToCheck';
  constructor(
    readonly event: GmEvent,
    readonly consequences: Consequences & { carry: NonNullable<Consequences['carry']> },
    /** On a redo: the adjustments the undone ending held, for the review to start from. */
    readonly adjusted?: { adjust: CarryAdjustment['adjust']; reason: string },
  ) {
    super('The event ends the encounter: its carry-over is checked before it is committed.');
  }
}

/** The kernel's own events in words (core/encounter/conditions.ts, kernel.ts BATCH); a ruleset's from its type. */
const KERNEL_WORDS: Record<string, string> = { BATCH: 'Actions on several targets', CONDITION_ADD: 'Add condition', CONDITION_REMOVE: 'Remove condition' };
const humanize = (type: string) => KERNEL_WORDS[type] ?? type.charAt(0) + type.slice(1).toLowerCase().replaceAll('_', ' ');

/**
 * In memory only: after every event an encounter keeps its state as a mark (the snapshot itself, which costs
 * nothing: contexts are replaced, never changed in place, and core/encounter/kernel.test.ts holds every ruleset to
 * it), the newest MARKS_KEPT of them, so an undo goes back to the mark before it without replaying anything, for
 * that many undos in a row. Past them, the stored snapshot (every SNAPSHOT_EVERY events) plus the events after it.
 */
const MARKS_KEPT = 64;

/** Encounters whose summary fold is kept (the log screens and exports of the newest ones asked for). */
const FOLDS_KEPT = 4;

/** Filters whose matching lines are kept (see LogMatches), across encounters: the newest ones the log screens asked for. */
const FILTERS_KEPT = 4;

/**
 * The lines of an encounter's log that one filter matches, in log order, for its events up to `seq`: each as the
 * event that wrote it and its place among that event's lines (two compact arrays). A filtered page of the full log
 * screen is a slice of them, read by key; the events appended since are matched when a page is next asked for.
 */
export class LogMatches {
  /** The events up to this one have been matched. */
  seq = 0;
  /** How many lines match. */
  length = 0;
  private seqs = new Int32Array(256);
  private places = new Int32Array(256);

  /** The event that wrote matching line `i`, and its place among that event's lines. */
  seqAt(i: number): number {
    return this.seqs[i]!;
  }

  placeAt(i: number): number {
    return this.places[i]!;
  }

  add(seq: number, place: number): void {
    if (this.length === this.seqs.length) {
      this.seqs = grown(this.seqs);
      this.places = grown(this.places);
    }
    this.seqs[this.length] = seq;
    this.places[this.length] = place;
    this.length += 1;
  }

  /** Forgets the lines of the events after `seq` (an undo took them away): they are matched again if they come back. */
  cut(seq: number): void {
    while (this.length > 0 && this.seqs[this.length - 1]! > seq) this.length -= 1;
    this.seq = Math.min(this.seq, seq);
  }
}

function grown(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

/**
 * A snapshot an append (or redo) owes, to be written after the write's reply (see `snapshotsAfterReply`): the state
 * at `seq` (kept as it was: contexts are replaced, never changed in place) and the digest of the events up to it.
 */
interface OwedSnapshot {
  encounterId: string;
  seq: number;
  rules: EncounterRules;
  input: EncounterInput;
  state: EngineState;
  covers: string;
}

export interface EncounterStoreOptions {
  /**
   * Write the snapshot due every SNAPSHOT_EVERY events after the write's reply, in a transaction of its own
   * (`writeOwedSnapshots`), instead of inside the GM's write: the app's (server/app.ts). Without it (scripts,
   * tools, tests that write through a store of their own) the snapshot is written in the write's transaction.
   */
  snapshotsAfterReply?: boolean;
}

export class EncounterStore {
  private warm = new Map<string, Warm>();
  /** Per encounter: seq → the state after that event (see MARKS_KEPT). */
  private marks = new Map<string, Map<number, Mark>>();
  /**
   * Per encounter: its head (event count and version) as this store last read or wrote it. Every write changes the
   * version, so a head that differs means another writer changed the encounter behind this store's back.
   */
  private heads = new Map<string, string>();
  /**
   * Encounters whose engine rests on a stored snapshot taken at its word (a read resumes from it without reading the
   * events before it): the first write of this launch checks its digest against the stored events first.
   */
  private trusted = new Map<string, store.StoredSnapshot>();
  /** Per encounter: its consequences as last written (see Synced). */
  private synced = new Map<string, Synced>();
  /** The summary fold of the encounters asked for most recently, newest last (see `replay`). */
  private folds = new Map<string, SummaryFold>();
  /**
   * Per encounter: how many log lines its events had written when its head was at `seq` (the next event's first line
   * number). Read once, from the newest event, when this launch first writes or pages the encounter; then every
   * append adds its lines and every undo takes its event's away, so a write reads nothing to number its lines.
   */
  private lineCounts = new Map<string, { seq: number; lines: number }>();
  /** The lines the newest filters match, by encounter and filter key, newest last (see `logMatches`). */
  private filtered = new Map<string, { id: string; matched: LogMatches }>();
  /**
   * Per encounter: the head (event count) at which its redo stack is known to be empty, because this store's append
   * emptied it there. The next append then has nothing to delete and the reply's redo label nothing to read; an
   * undo (which fills the stack), a redo and anything that forgets the encounter drop it.
   */
  private redoEmptyAt = new Map<string, number>();
  /** Per encounter: how many undos this store has made (see `logMark`). */
  private undos = new Map<string, number>();
  /** This store's own: a mark from another start of the app (or from before a restore) never matches. */
  private readonly launch = randomUUID().slice(0, 8);

  /** Snapshots owed by writes whose reply has not been followed by `writeOwedSnapshots` yet, oldest first. */
  private owed: OwedSnapshot[] = [];
  private readonly snapshotsAfterReply: boolean;

  constructor(private readonly db: Db, options: EncounterStoreOptions = {}) {
    this.snapshotsAfterReply = options.snapshotsAfterReply ?? false;
  }

  /**
   * The engine at the encounter's head: the cached one, or the newest state at or before it (an in-memory mark,
   * else the stored snapshot) plus the events after it.
   */
  engine(row: EncounterHead, knownInput?: EncounterInput): EncounterEngine {
    return this.head(row, knownInput).engine;
  }

  /** `engine` with the digest of its events, after forgetting what another writer made stale (see `follow`). */
  private head(row: EncounterHead, knownInput?: EncounterInput): Built {
    this.follow(row);
    return this.build(row, knownInput);
  }

  /**
   * `head` for a write: an engine resting on a snapshot taken at its word is first checked against the stored
   * events, so nothing is ever written on top of a snapshot the events do not reproduce.
   */
  private headToWrite(row: EncounterHead): Built {
    this.follow(row);
    this.checkTrusted(row);
    return this.build(row, undefined, true);
  }

  /**
   * Before using what it holds of an encounter, the store checks that the file's head is the one it last saw: if
   * another process wrote the encounter since (through a link to the same file, or while this app was not looking),
   * its engine, marks and caches are dropped and the encounter is rebuilt from the stored events.
   */
  private follow(row: EncounterHead): void {
    const head = `${row.event_count}@${row.updated_at}`;
    const known = this.heads.get(row.id);
    if (known !== undefined && known !== head) this.forget(row.id);
    this.heads.set(row.id, head);
  }

  /** Drops everything held in memory about one encounter (its log mark changes too). */
  private forget(id: string): void {
    this.warm.delete(id);
    this.marks.delete(id);
    this.synced.delete(id);
    this.folds.delete(id);
    this.trusted.delete(id);
    this.lineCounts.delete(id);
    this.redoEmptyAt.delete(id);
    this.dropFiltered(id);
    this.dropOwed(id);
    this.undos.set(id, (this.undos.get(id) ?? 0) + 1);
  }

  /** Checks the snapshot an engine was resumed from (see `trusted`); one its events do not give is forgotten and rebuilt. */
  private checkTrusted(row: EncounterHead): void {
    const stored = this.trusted.get(row.id);
    if (!stored) return;
    this.trusted.delete(row.id);
    const covered = EventDigest.after();
    let digest: string | null = null;
    let seq = 0;
    for (const payload of store.readPayloads(this.db, row.id, 0, stored.seq)) digest = covered.add(payload, (seq += 1));
    if (seq !== stored.seq || digest !== stored.covers) this.forget(row.id);
  }

  private build(row: EncounterHead, knownInput?: EncounterInput, check = false): Built {
    const cached = this.warm.get(row.id);
    if (cached && cached.seq === row.event_count) return cached;
    const rules = rulesFor(row.ruleset_id);
    // An encounter's input never changes once it is stored: an engine of the same encounter can hand its own on.
    const input = knownInput ?? store.readInput(this.db, row.id);
    const mark = this.newestMark(row.id, row.event_count);
    const stored = mark && mark.seq >= Math.floor(row.event_count / store.SNAPSHOT_EVERY) * store.SNAPSHOT_EVERY ? null : usable(rules, store.latestSnapshot(this.db, row.id, row.event_count));
    let built: Built;
    if (mark && (!stored || mark.seq >= stored.seq)) {
      built = { engine: EncounterEngine.at(rules, input, mark.state), covered: mark.covered.copy() };
      this.stepOn(built, store.readPayloads(this.db, row.id, mark.seq, row.event_count), mark.seq);
    } else built = this.resume(row, rules, input, stored, check);
    this.keepWarm(row.id, built.engine, built.covered, row.event_count);
    return built;
  }

  /** Applies stored events (their JSON) after event `seq` to `built`, and adds them to its digest. */
  private stepOn(built: Built, payloads: readonly string[], seq: number): Built {
    for (const payload of payloads) {
      built.engine.step(JSON.parse(payload) as GmEvent);
      built.covered.add(payload, (seq += 1));
    }
    return built;
  }

  /**
   * The engine from the stored snapshot and the events after it; or, when there is none, when it carries no digest
   * (an import's, or one saved before snapshots carried it) or when `check` finds that the stored events do not give
   * its digest, from every event, and a snapshot that was not right is replaced by the replay's. Without `check` (a
   * read) a snapshot with a digest is taken at its word, and checked before the first write (`trusted`).
   */
  private resume(row: EncounterHead, rules: EncounterRules, input: EncounterInput, stored: store.StoredSnapshot | null, check: boolean): Built {
    if (stored && stored.covers !== null && stored.seq % store.SNAPSHOT_EVERY === 0 && !check) {
      this.trusted.set(row.id, stored);
      const built = { engine: EncounterEngine.resume(rules, input, stored.snapshot, []), covered: EventDigest.after(stored.covers) };
      return this.stepOn(built, store.readPayloads(this.db, row.id, stored.seq, row.event_count), stored.seq);
    }
    const payloads = store.readPayloads(this.db, row.id, 0, row.event_count);
    const upTo = stored && stored.seq <= payloads.length ? stored.seq : 0;
    const covered = EventDigest.after();
    let digest: string | null = null;
    payloads.slice(0, upTo).forEach((payload, i) => (digest = covered.add(payload, i + 1)));
    if (stored && upTo === stored.seq && stored.covers !== null && digest === stored.covers) {
      return this.stepOn({ engine: EncounterEngine.resume(rules, input, stored.snapshot, []), covered }, payloads.slice(upTo), upTo);
    }
    const engine = EncounterEngine.resume(rules, input, undefined, payloads.slice(0, upTo).map((payload) => JSON.parse(payload) as GmEvent));
    if (stored && upTo === stored.seq && digest !== null) this.replaceSnapshot(row.id, stored, engine, digest);
    return this.stepOn({ engine, covered }, payloads.slice(upTo), upTo);
  }

  /** Stores the replay's state in place of a snapshot that was saved without a digest or disagrees with its events. */
  private replaceSnapshot(id: string, stored: store.StoredSnapshot, replayed: EncounterEngine, covers: string): void {
    const state = replayed.persisted();
    // A snapshot saved before they carried a digest, and right, is only given one.
    const agreed = stored.covers === null && JSON.stringify(state) === JSON.stringify(stored.snapshot);
    const version = rulesVersionOf(replayed.rules);
    try {
      store.saveSnapshot(this.db, id, stored.seq, state, covers, version);
    } catch (error) {
      // A read-only file: the engine in memory is right all the same, and the next start checks again.
      console.error(`[gmw] the snapshot of encounter ${id} after event ${stored.seq} could not be replaced:`, error);
      return;
    }
    if (stored.rulesVersion !== version) console.error(`[gmw] the snapshot of encounter ${id} after event ${stored.seq} was saved under version ${stored.rulesVersion} of the ruleset's state (now ${version}): it was rebuilt from the events and replaced.`);
    else if (!agreed) console.error(`[gmw] the snapshot of encounter ${id} after event ${stored.seq} did not match its events: it was rebuilt from the events and replaced.`);
  }

  private newestMark(id: string, atOrBefore: number): ({ seq: number } & Mark) | null {
    let best = -1;
    for (const seq of this.marks.get(id)?.keys() ?? []) if (seq <= atOrBefore && seq > best) best = seq;
    return best < 0 ? null : { seq: best, ...this.marks.get(id)!.get(best)! };
  }

  /**
   * Caches `engine` as the encounter's head at `seq` and keeps its state as the mark of `seq` (only the newest
   * MARKS_KEPT). Every head is marked, the head of an encounter opened cold included, so undoing the events
   * appended since it was opened replays nothing.
   */
  private keepWarm(id: string, engine: EncounterEngine, covered: EventDigest, seq: number, lines?: readonly LogLine[]): void {
    this.warm.set(id, lines ? { engine, seq, covered, lines } : { engine, seq, covered });
    const marks = this.marks.get(id) ?? new Map<number, Mark>();
    marks.set(seq, { state: engine.state, covered: covered.copy() });
    for (const old of marks.keys()) if (old <= seq - MARKS_KEPT) marks.delete(old);
    this.marks.set(id, marks);
  }

  /** Forgets the snapshots owed for the encounter after event `seq` (an undo took it away), or all of them. */
  private dropOwed(id: string, after = -1): void {
    if (this.owed.length) this.owed = this.owed.filter((owed) => owed.encounterId !== id || owed.seq <= after);
  }

  /** Whether a write has left a snapshot to write after its reply (see `writeOwedSnapshots`). */
  owesSnapshots(): boolean {
    return this.owed.length > 0;
  }

  /**
   * Writes the snapshots the writes before owe, in one transaction of its own, outside any GM write: after the
   * reply, or before the next write when the event loop has not turned since (server/app.ts). A snapshot is
   * only a shortcut for resume (it carries the digest of its events and is checked against them): one whose event
   * is no longer the encounter's as this store wrote it (an undo, a write rolled back, another writer) is not
   * written, and one never written (a crash first) means a resume replays up to SNAPSHOT_EVERY more events.
   * Returns how many were written.
   */
  writeOwedSnapshots(): number {
    const owed = this.owed;
    this.owed = [];
    if (owed.length === 0) return 0;
    return writeTransaction(this.db, () => {
      let written = 0;
      for (const { encounterId, seq, rules, input, state, covers } of owed) {
        const row = store.getEncounter(this.db, encounterId);
        // The head this store last wrote is the file's, and holds event `seq`: the events up to it are the ones
        // its state was made from (an undo would have dropped it; any other change moves the head's version).
        if (!row || row.event_count < seq || this.heads.get(encounterId) !== `${row.event_count}@${row.updated_at}`) continue;
        store.saveSnapshot(this.db, encounterId, seq, EncounterEngine.at(rules, input, state).persisted(), covers, rulesVersionOf(rules));
        written += 1;
      }
      return written;
    });
  }

  /** Forgets the marks after `seq` (an undo removed those events), or all of them. */
  private dropMarks(id: string, after = -1): void {
    const marks = this.marks.get(id);
    if (!marks) return;
    for (const seq of marks.keys()) if (seq > after) marks.delete(seq);
  }

  /**
   * Appends one event. `carry` holds the GM's adjustments to what an ending event carries onto the characters:
   * they travel inside the stored event (so a redo or a replay writes the same) and are logged as overrides.
   */
  append(row: EncounterHead, raw: unknown, now: string, carry?: CarryAdjustment, askBeforeEnding = false): EncounterHead {
    return this.guarded(row.id, () => {
      const { engine, covered } = this.headToWrite(row);
      let event: GmEvent = this.parse(engine, raw, true);
      if (carry && carry.adjust.length) {
        this.checkAdjustment(engine, event, carry);
        event = { ...event, carryAdjust: carry.adjust, ...(carry.reason ? { carryReason: carry.reason } : {}) };
      }
      const before = engine.view();
      const lines = engine.apply(event); // a refusal throws here, before the engine changed
      // From here the engine runs ahead of the database until writeHead caches it again: a failure in between
      // (even a GmError, which leaves the app's other caches alone) must not leave it cached.
      this.warm.delete(row.id);
      const after = engine.rules.consequences?.(engine.snapshot) ?? null;
      // The same apply decides it: no second engine tried first. Nothing has been written yet.
      if (askBeforeEnding && after?.carry && !consequences.carryApplied(this.db, row.id)) throw new EndingToCheck(event, { ...after, carry: after.carry });
      const head = this.commit(row, engine, covered, before, event, lines, now, after);
      if (this.redoEmptyAt.get(row.id) !== row.event_count) store.clearRedo(this.db, row.id);
      this.redoEmptyAt.set(row.id, head.event_count);
      return head;
    });
  }

  /**
   * The per-round summary and the final view, from the stored events with the log lines they wrote: their stored
   * roster changes added up when every event has one (the final view then comes from this store's engine), else
   * every event replayed. The fold of an encounter asked for before is kept and given only the events appended
   * since; an undo that takes away an event it has counted drops it. The result is the one a replay of every event
   * gives (core/export/summary.ts; server/roster-changes.test.ts holds the two ways to each other).
   */
  replay(row: EncounterHead, stored?: { input: EncounterInput; events: readonly StoredStep[] }): EncounterReplay {
    this.follow(row);
    let fold: SummaryFold | undefined = this.folds.get(row.id);
    // Taken out while it runs: a refusal halfway leaves no half-fed fold behind, and it goes back in as the newest.
    this.folds.delete(row.id);
    if (fold && fold.count > row.event_count) fold = undefined;
    // An export has read every event already: the fold takes its events instead of reading them again.
    const read = (after: number) => (stored ? stored.events.slice(after) : store.readSteps(this.db, row.id, after));
    let steps = read(fold?.count ?? 0);
    // Stored roster changes are added up when every event has one; a fight with events stored before them (or
    // imported) replays every event through the machine.
    const recordable = steps.every((step) => step.rosterJson !== undefined);
    if (fold?.recorded && !recordable) {
      fold = undefined;
      steps = read(0);
    }
    fold ??= new SummaryFold(rulesFor(row.ruleset_id), stored?.input ?? store.readInput(this.db, row.id), recordable);
    for (const step of steps) {
      if (step.seq !== fold.count + 1) throw new Error(`Event ${fold.count + 1} of encounter ${row.id} is missing.`);
      fold.add(fold.recorded ? { event: step.event, lines: step.lines, roster: JSON.parse(step.rosterJson!) as RosterChange } : step);
    }
    this.folds.set(row.id, fold);
    for (const id of this.folds.keys()) if (this.folds.size > FOLDS_KEPT) this.folds.delete(id);
    return fold.recorded ? fold.result(this.engine(row, stored?.input).view()) : fold.result();
  }

  /**
   * Changes whenever an event of the encounter is taken away, which only an undo does: lines read at one mark are
   * still the lines of their events while the mark holds. (The app is the one writer of its database.)
   */
  logMark(id: string): string {
    return `${this.launch}.${this.undos.get(id) ?? 0}`;
  }

  /** What the fight would leave on the campaign if this event were applied now, without applying it. */
  trial(row: EncounterHead, raw: unknown): { consequences: Consequences | null; event: GmEvent } {
    const engine = this.engine(row);
    const filled = this.parse(engine, raw, true);
    const reason = engine.refusal(filled);
    if (reason !== null) throw new GmError(reason);
    const copy = engine.copy();
    copy.step(filled);
    return { consequences: copy.rules.consequences?.(copy.snapshot) ?? null, event: filled };
  }

  private checkAdjustment(engine: EncounterEngine, event: GmEvent, carry: CarryAdjustment): void {
    if (engine.rules.consequences?.(engine.snapshot).carry) throw new GmError('This encounter has already ended; its carry-over can no longer be adjusted here.');
    const copy = engine.copy();
    copy.step(event);
    const after = copy.rules.consequences?.(copy.snapshot).carry;
    if (!after) throw new GmError('Only the action that ends the encounter can adjust what it carries onto the characters.');
    for (const { characterId, key } of carry.adjust) {
      const state = after.find((c) => c.characterId === characterId)?.state;
      if (!state) throw new GmError('That character is not carried out of this encounter.');
      if (typeof state[key] !== 'number') throw new GmError(`“${key.slice(0, 40)}” is not a number this encounter carries onto the character.`);
    }
    // A GM override is logged with its reason (README, "The end of a fight"). Events stored before the reason was
    // required replay as they are: only a new adjustment is checked here.
    if (!carry.reason?.trim()) throw new GmError('Say why the carried values change: a GM override is logged with its reason.');
  }

  /** Log lines for the GM's carry-over adjustments, after the event's own lines. */
  private overrideLines(row: EncounterHead, engine: EncounterEngine, event: GmEvent): LogLine[] {
    const adjust = event['carryAdjust'] as CarryAdjustment['adjust'] | undefined;
    if (!adjust?.length) return [];
    const reason = typeof event['carryReason'] === 'string' && event['carryReason'] ? ` (${event['carryReason']})` : '';
    const carry = engine.rules.consequences?.(engine.snapshot).carry ?? [];
    const round = engine.view().round;
    return adjust.map(({ characterId, key, value }) => {
      const name = (prepared(this.db, 'SELECT name FROM characters WHERE id = ?').get(characterId) as { name: string } | undefined)?.name ?? 'A character';
      const was = carry.find((c) => c.characterId === characterId)?.state[key];
      return { round, kind: 'decision' as const, text: `GM override: ${name}'s ${carryLabel(key)} is carried as ${value} instead of ${String(was)}${reason}.` };
    });
  }

  /** The rolls an event would need now, so the GM can type physical dice in. */
  rollsFor(row: EncounterHead, raw: unknown): RollRequest[] {
    const engine = this.engine(row);
    const event = this.parse(engine, raw);
    return engine.rollsFor(event);
  }

  undo(row: EncounterHead, now: string): EncounterHead {
    if (row.event_count === 0) throw new GmError('There is nothing to undo in this encounter.');
    const refusal = this.undoRefusal(row);
    if (refusal !== null) throw new GmError(refusal);
    return this.guarded(row.id, () => {
      this.follow(row);
      this.checkTrusted(row);
      const counted = this.lineCounts.get(row.id);
      // Dropped first: if anything below throws, the transaction rolls back and the count is read again.
      this.lineCounts.delete(row.id);
      // Cut first too: a rollback leaves the event stored, and the next page only matches it again.
      this.cutFiltered(row.id, row.event_count - 1);
      const { event, lines: removed } = store.deleteEvent(this.db, row.id, row.event_count);
      this.redoEmptyAt.delete(row.id);
      store.pushRedo(this.db, row.id, event);
      this.undos.set(row.id, (this.undos.get(row.id) ?? 0) + 1);
      // A snapshot owed at the event taken away is of a state the encounter no longer reaches.
      this.dropOwed(row.id, row.event_count - 1);
      const input = this.warm.get(row.id)?.engine.input;
      this.warm.delete(row.id);
      if ((this.folds.get(row.id)?.count ?? 0) >= row.event_count) this.folds.delete(row.id);
      this.dropMarks(row.id, row.event_count - 1);
      // The mark of the event before is the state to go back to (or, past the marks, snapshot plus events).
      const { engine, covered } = this.build({ ...row, event_count: row.event_count - 1 }, input, true);
      const head = this.writeHead(row, engine, covered, row.event_count - 1, now);
      if (counted?.seq === row.event_count) this.lineCounts.set(row.id, { seq: head.event_count, lines: counted.lines - removed });
      return head;
    });
  }

  /**
   * Redoes the newest undone event. An event that ends the fight with something to carry onto the characters is
   * an ending like the first: `review.ask` stops before anything is written (EndingToCheck, with the adjustments the
   * undone ending held); only `review.confirm` writes it, with the GM's adjustments from the review when given
   * (else the undone event's own). Without either it is refused: a script cannot end a fight unseen.
   */
  redo(row: EncounterHead, now: string, review: RedoReview = {}): EncounterHead {
    const top = store.peekRedo(this.db, row.id);
    if (!top) throw new GmError('There is nothing to redo in this encounter.');
    return this.guarded(row.id, () => {
      this.redoEmptyAt.delete(row.id);
      const { engine, covered } = this.headToWrite(row);
      let event = top.event;
      if (review.confirm && review.carry) {
        const { carryAdjust: _adjust, carryReason: _reason, ...action } = top.event;
        event = action as GmEvent;
        if (review.carry.adjust.length) {
          this.checkAdjustment(engine, event, review.carry);
          event = { ...event, carryAdjust: review.carry.adjust, ...(review.carry.reason ? { carryReason: review.carry.reason } : {}) };
        }
      }
      const reason = engine.refusal(event);
      if (reason !== null) throw new GmError(`The undone action no longer fits: ${reason}`);
      const before = engine.view();
      const lines = engine.apply(event);
      this.warm.delete(row.id);
      const after = engine.rules.consequences?.(engine.snapshot) ?? null;
      if (after?.carry && !review.confirm && !consequences.carryApplied(this.db, row.id)) {
        if (review.ask) {
          const { carryAdjust, carryReason, ...action } = top.event;
          const adjusted = Array.isArray(carryAdjust) && carryAdjust.length ? { adjust: carryAdjust as CarryAdjustment['adjust'], reason: typeof carryReason === 'string' ? carryReason : '' } : undefined;
          throw new EndingToCheck(action as GmEvent, { ...after, carry: after.carry }, adjusted);
        }
        throw new GmError(`Redoing “${humanize(top.event.type)}” ends the fight and writes its consequences onto the campaign, so it is shown first: redo it in the runner, or send "ask": true to see them and "confirm": true to write them.`);
      }
      const head = this.commit(row, engine, covered, before, event, lines, now, after);
      store.popRedo(this.db, row.id, top.depth);
      return head;
    });
  }

  /**
   * Why undoing the encounter's newest event is refused, or null. Undoing the event that ended the fight takes back
   * what it carried onto the campaign, which only holds while that ending is the newest thing written onto the
   * campaign (db/consequences.ts): not once a ledger entry or another fight's end came after it. An event a ruleset
   * allows after the end (a Factions chase) changes nothing on the campaign, and is undone freely. Only an ended
   * encounter can have written anything, so a running fight costs nothing here.
   */
  undoRefusal(row: EncounterHead): string | null {
    if (row.phase !== 'ended') return null;
    const written = consequences.carryWritten(this.db, row.id);
    if (written === null || written.seq !== row.event_count) return null;
    const endedAt = written.at;
    const entry = consequences.entrySince(this.db, row.campaign_id, endedAt);
    if (entry) {
      const line = (JSON.parse(entry.log_json) as string[])[0] ?? humanize(entry.type);
      return `This fight's end was written onto the campaign, and the campaign has moved on since (“${cutText(line, 80)}” on day ${entry.day}). Undo the later ledger entries first, or leave the fight ended.`;
    }
    const ending = consequences.endingSince(this.db, row.campaign_id, endedAt, { encounterId: row.id });
    if (ending) return `This fight's end was written onto the campaign, and the campaign has moved on since (“${cutText(ending.name, 80)}” ended after it). Undo that fight's end first, or leave this one ended.`;
    return null;
  }

  undoLabel(row: EncounterHead): string | null {
    if (row.event_count === 0) return null;
    const lines = this.newestLines(row);
    return (lines ? lines[0]?.text : store.lastLogText(this.db, row.id, row.event_count)) ?? 'the last action';
  }

  /**
   * The log lines stored with the encounter's newest event when this store wrote it and still holds it as the
   * head (the write's own reply and undo label read them here instead of from the file); else null.
   */
  newestLines(row: EncounterHead): readonly LogLine[] | null {
    const warm = this.warm.get(row.id);
    return warm?.lines && warm.seq === row.event_count ? warm.lines : null;
  }

  redoLabel(row: EncounterHead): string | null {
    this.follow(row);
    if (this.redoEmptyAt.get(row.id) === row.event_count) return null;
    const top = store.peekRedo(this.db, row.id);
    return top ? humanize(top.event.type) : null;
  }

  /** The payload as the ruleset reads it, with the rolls it needs now filled in when `rolled` (the app rolls the empty ones). */
  private parse(engine: EncounterEngine, raw: unknown, rolled = false): ParsedEvent {
    try {
      const event = parseEvent(engine.rules, raw);
      return rolled ? engine.withRolls(event) : event;
    } catch (error) {
      if (error instanceof RuleRefusal) throw new GmError(error.message, 'invalid');
      throw error;
    }
  }

  /**
   * Stores `event` after the head with the lines its apply gave, the override lines of its carry adjustments (an
   * append and a redo of the same event store the same lines) and what it changed in the roster (`before` is the
   * view before it), then writes the new head.
   */
  private commit(row: EncounterHead, engine: EncounterEngine, covered: EventDigest, before: EncounterView, event: GmEvent, lines: LogLine[], now: string, after?: Consequences | null): EncounterHead {
    const seq = row.event_count + 1;
    // What the event changed in the roster, from the views the write builds anyway (before: the head's, kept since
    // the write that made it; after: the one the new head and the reply use).
    const roster = rosterChange(engine.rules, before, engine.view());
    const stored = [...lines, ...this.overrideLines(row, engine, event)];
    const payload = JSON.stringify(event);
    const lineStart = this.linesAt(row);
    // Dropped first: if anything below throws, the transaction rolls back and the count is read again.
    this.lineCounts.delete(row.id);
    store.insertEventRow(this.db, row.id, seq, { type: event.type, payload_json: payload, log_json: JSON.stringify(stored), recorded_at: now, roster_json: roster ? JSON.stringify(roster) : null, line_start: lineStart });
    const digest = covered.add(payload, seq);
    if (digest !== null) {
      if (this.snapshotsAfterReply) this.owed.push({ encounterId: row.id, seq, rules: engine.rules, input: engine.input, state: engine.state, covers: digest });
      else store.saveSnapshot(this.db, row.id, seq, engine.persisted(), digest, rulesVersionOf(engine.rules));
    }
    const head = this.writeHead(row, engine, covered, seq, now, after, stored);
    this.lineCounts.set(row.id, { seq, lines: lineStart + stored.length });
    return head;
  }

  /** How many log lines the encounter's events have written: the length of its full log. */
  lineCount(row: EncounterHead): number {
    this.follow(row);
    return this.linesAt(row);
  }

  /** The encounter's log line count at the head `row` (see lineCounts): kept, or read once from its newest event. */
  private linesAt(row: EncounterHead): number {
    const known = this.lineCounts.get(row.id);
    if (known?.seq === row.event_count) return known.lines;
    const lines = store.logLineCount(this.db, row.id);
    this.lineCounts.set(row.id, { seq: row.event_count, lines });
    return lines;
  }

  /**
   * The lines of the encounter's log `filter` matches (`matches` decides, line by line): kept from the last time a
   * filter of the same key was asked for, with only the events appended since matched; the first time, every event's
   * lines are read, and parsed once when they may match. An undo cuts what it took away (`cutFiltered`).
   */
  logMatches(row: EncounterHead, filter: LogFilter): LogMatches {
    this.follow(row);
    const key = `${row.id} ${filterKey(filter)}`;
    // Taken out while it runs: a failure halfway leaves nothing half-matched behind, and it goes back in as the newest.
    const kept = this.filtered.get(key)?.matched;
    this.filtered.delete(key);
    const matched = kept && kept.seq <= row.event_count ? kept : new LogMatches();
    if (matched.seq < row.event_count) {
      // An event none of whose lines can match, by its stored JSON alone, is not parsed (storedLogTest).
      const mayMatch = storedLogTest(filter);
      for (const { seq, log_json } of store.readLogJson(this.db, row.id, matched.seq)) {
        if (seq > row.event_count) break;
        if (!mayMatch(log_json)) continue;
        (JSON.parse(log_json) as LogLine[]).forEach((line, place) => {
          if (matches(line, filter)) matched.add(seq, place);
        });
      }
      matched.seq = row.event_count;
    }
    this.filtered.set(key, { id: row.id, matched });
    for (const old of this.filtered.keys()) if (this.filtered.size > FILTERS_KEPT) this.filtered.delete(old);
    return matched;
  }

  /** Cuts every filter's matches of the encounter to its events up to `seq`. */
  private cutFiltered(id: string, seq: number): void {
    for (const kept of this.filtered.values()) if (kept.id === id) kept.matched.cut(seq);
  }

  private dropFiltered(id: string): void {
    for (const [key, kept] of this.filtered) if (kept.id === id) this.filtered.delete(key);
  }

  /** Writes the encounter's new head (and what the campaign keeps of it) and returns the row as it now stands. */
  private writeHead(row: EncounterHead, engine: EncounterEngine, covered: EventDigest, seq: number, now: string, after = engine.rules.consequences?.(engine.snapshot) ?? null, lines?: readonly LogLine[]): EncounterHead {
    const id = row.id;
    const { phase, round } = engine.view();
    store.updateHead(this.db, id, { phase, round, eventCount: seq }, now);
    this.syncConsequences(row, after, seq, now);
    this.keepWarm(id, engine, covered, seq, lines);
    this.heads.set(id, `${seq}@${now}`);
    return { ...row, phase, round, event_count: seq, updated_at: now };
  }

  /**
   * The campaign follows the encounter in the same transaction: injuries as they happen, carry-over at the end.
   * When the database holds this encounter's consequences at the head being replaced (`row`), only what the rules
   * now give differently is written (an undo deletes the rows of its event's injuries), and nothing is read: most
   * events change neither, and cost the same however many injuries the fight has given.
   */
  private syncConsequences(row: EncounterHead, result: Consequences | null, seq: number, now: string): void {
    const { id, campaign_id: campaignId } = row;
    if (!result) return;
    const known = this.synced.get(id);
    const held = known?.seq === row.event_count ? known : undefined;
    // Dropped first: if anything below throws, the transaction rolls back and nothing is known any more.
    this.synced.delete(id);
    let written: Map<string, WrittenInjury>;
    if (!held) {
      // Nothing known of the rows (the first write of this launch, or after a failure): the encounter's rows are read.
      written = new Map(result.injuries.map((record) => [record.key, { record, data: JSON.stringify(record.data) }]));
      consequences.syncInjuries(this.db, campaignId, id, [...written.values()].map(injuryWrite), seq, now);
    } else if (held.injuries === result.injuries) {
      written = held.written;
    } else {
      const diff = diffInjuries(held.written, result.injuries);
      consequences.writeInjuryChanges(this.db, campaignId, id, diff.changes, seq, now);
      written = diff.written;
    }
    if (!result.carry) {
      if (held?.carried !== false) consequences.revertCarry(this.db, id, campaignId, now);
    }
    // Written once, when the fight ends: only then is the ending event (with the GM's adjustments) read.
    else if (!held?.carried && !consequences.carryApplied(this.db, id)) consequences.applyCarry(this.db, id, campaignId, adjusted(result.carry, this.endingEvent(row.id)), result.party ?? {}, now, seq);
    this.synced.set(id, { seq, injuries: result.injuries, written, carried: Boolean(result.carry) });
  }

  /** The newest stored event, which is the one that ended the fight when the carry-over is first written. */
  private endingEvent(encounterId: string): GmEvent | null {
    const row = prepared(this.db, 'SELECT payload_json FROM encounter_events WHERE encounter_id = ? ORDER BY seq DESC LIMIT 1').get(encounterId) as { payload_json: string } | undefined;
    return row ? (JSON.parse(row.payload_json) as GmEvent) : null;
  }

  /** Forget every warm engine: after a failed commit, memory must not run ahead of the database. */
  evictAll(): void {
    this.warm.clear();
    this.heads.clear();
    this.trusted.clear();
    this.marks.clear();
    this.synced.clear();
    this.folds.clear();
    this.lineCounts.clear();
    this.redoEmptyAt.clear();
    this.filtered.clear();
    this.owed = [];
  }

  /**
   * A refusal happens before anything changes; any other failure inside a write drops the warm engine, since the
   * transaction rolls back and memory must follow.
   */
  private guarded<T>(id: string, work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (error instanceof RuleRefusal) throw new GmError(error.message);
      if (!(error instanceof GmError) && !(error instanceof EndingToCheck)) {
        this.warm.delete(id);
        this.dropMarks(id);
        this.synced.delete(id);
        this.folds.delete(id);
        this.lineCounts.delete(id);
        this.redoEmptyAt.delete(id);
        this.dropFiltered(id);
      }
      throw error;
    }
  }
}
