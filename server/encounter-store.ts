// Encounters as event logs on disk with a warm engine in memory: append, undo and redo each run inside the
// caller's write transaction, so an event is committed before its result is returned (GUIDE §2).
import { GmError } from '../core/api/contract.ts';
import { EncounterEngine, RuleRefusal, parseEvent } from '../core/encounter/kernel.ts';
import type { EncounterInput, GmEvent, LogLine } from '../core/encounter/types.ts';
import { findRuleset } from '../core/rulesets/registry.ts';
import type { Db } from '../db/connection.ts';
import * as store from '../db/encounters.ts';
import * as consequences from '../db/consequences.ts';
import { roll } from '../core/dice/dice.ts';
import type { RollRequest } from '../core/encounter/types.ts';
import type { EncounterRow } from '../db/rows.ts';

interface Warm {
  engine: EncounterEngine;
  seq: number;
}

export function rulesFor(rulesetId: string) {
  const rules = findRuleset(rulesetId)?.encounter;
  if (!rules) throw new GmError(`${findRuleset(rulesetId)?.name ?? rulesetId} encounters cannot be run yet: only the character sheets are ready.`);
  return rules;
}

const humanize = (type: string) => type.charAt(0) + type.slice(1).toLowerCase().replaceAll('_', ' ');

export class EncounterStore {
  private warm = new Map<string, Warm>();

  constructor(private readonly db: Db) {}

  /** The engine at the encounter's head: the cached one, or the newest snapshot plus the events after it. */
  engine(row: EncounterRow): EncounterEngine {
    const cached = this.warm.get(row.id);
    if (cached && cached.seq === row.event_count) return cached.engine;
    const rules = rulesFor(row.ruleset_id);
    const input = JSON.parse(row.input_json) as EncounterInput;
    const snapshot = store.latestSnapshot(this.db, row.id, row.event_count);
    const engine = EncounterEngine.resume(rules, input, snapshot?.snapshot, store.readEvents(this.db, row.id, snapshot?.seq ?? 0));
    this.warm.set(row.id, { engine, seq: row.event_count });
    return engine;
  }

  append(row: EncounterRow, raw: unknown, now: string): void {
    this.guarded(row.id, () => {
      const engine = this.engine(row);
      const event = this.fillRolls(engine, this.parse(engine, raw));
      this.commit(row, engine, event, engine.apply(event), now);
      store.clearRedo(this.db, row.id);
    });
  }

  /** The rolls an event would need now, so the GM can type physical dice in. */
  rollsFor(row: EncounterRow, raw: unknown): RollRequest[] {
    const engine = this.engine(row);
    const event = this.parse(engine, raw);
    return engine.rules.rollsFor?.(engine.snapshot, event) ?? [];
  }

  /** Rolls the dice an event asks the app to roll (a roll with no faces); typed-in faces are kept as they are. */
  private fillRolls(engine: EncounterEngine, event: GmEvent): GmEvent {
    const requests = engine.rules.rollsFor?.(engine.snapshot, event) ?? [];
    if (requests.length === 0) return event;
    const filled = structuredClone(event) as Record<string | number, unknown>;
    for (const request of requests) {
      let parent: Record<string | number, unknown> = filled;
      for (const key of request.path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
      const key = request.path.at(-1)!;
      const current = parent[key] as { faces?: number[] } | null | undefined;
      if (!current || !current.faces || current.faces.length === 0) parent[key] = { faces: roll(request.notation).faces, source: 'app' };
    }
    return filled as GmEvent;
  }

  undo(row: EncounterRow, now: string): void {
    if (row.event_count === 0) throw new GmError('There is nothing to undo in this encounter.');
    this.guarded(row.id, () => {
      const event = store.deleteEvent(this.db, row.id, row.event_count);
      store.pushRedo(this.db, row.id, event);
      this.warm.delete(row.id);
      const engine = this.engine({ ...row, event_count: row.event_count - 1 });
      this.writeHead(row, engine, row.event_count - 1, now);
    });
  }

  redo(row: EncounterRow, now: string): void {
    const top = store.peekRedo(this.db, row.id);
    if (!top) throw new GmError('There is nothing to redo in this encounter.');
    this.guarded(row.id, () => {
      const engine = this.engine(row);
      const reason = engine.refusal(top.event);
      if (reason !== null) throw new GmError(`The undone action no longer fits: ${reason}`);
      this.commit(row, engine, top.event, engine.apply(top.event), now);
      store.popRedo(this.db, row.id, top.depth);
    });
  }

  undoLabel(row: EncounterRow): string | null {
    return row.event_count === 0 ? null : (store.lastLogText(this.db, row.id, row.event_count) ?? 'the last action');
  }

  redoLabel(row: EncounterRow): string | null {
    const top = store.peekRedo(this.db, row.id);
    return top ? humanize(top.event.type) : null;
  }

  private parse(engine: EncounterEngine, raw: unknown): GmEvent {
    try {
      return parseEvent(engine.rules, raw);
    } catch (error) {
      if (error instanceof RuleRefusal) throw new GmError(error.message, 'invalid');
      throw error;
    }
  }

  private commit(row: EncounterRow, engine: EncounterEngine, event: GmEvent, lines: LogLine[], now: string): void {
    const seq = row.event_count + 1;
    store.insertEvent(this.db, row.id, seq, event, lines, now);
    if (seq % store.SNAPSHOT_EVERY === 0) store.saveSnapshot(this.db, row.id, seq, engine.persisted());
    this.writeHead(row, engine, seq, now);
  }

  private writeHead(row: EncounterRow, engine: EncounterEngine, seq: number, now: string): void {
    const id = row.id;
    const view = engine.view();
    store.updateHead(this.db, id, { phase: view.phase, round: view.round, eventCount: seq }, now);
    this.syncConsequences(row, engine, seq, now);
    this.warm.set(id, { engine, seq });
  }

  /** The campaign follows the encounter in the same transaction: injuries as they happen, carry-over at the end. */
  private syncConsequences(row: EncounterRow, engine: EncounterEngine, seq: number, now: string): void {
    const { id, campaign_id: campaignId } = row;
    const result = engine.rules.consequences?.(engine.snapshot);
    if (!result) return;
    consequences.syncInjuries(this.db, campaignId, id, result.injuries, seq, now);
    if (result.carry) consequences.applyCarry(this.db, id, campaignId, result.carry, result.party ?? {}, now);
    else consequences.revertCarry(this.db, id, campaignId, now);
  }

  /** Forget every warm engine: after a failed commit, memory must not run ahead of the database. */
  evictAll(): void {
    this.warm.clear();
  }

  /**
   * A refusal happens before anything changes; any other failure inside a write drops the warm engine, since the
   * transaction rolls back and memory must follow.
   */
  private guarded(id: string, work: () => void): void {
    try {
      work();
    } catch (error) {
      if (error instanceof RuleRefusal) throw new GmError(error.message);
      if (!(error instanceof GmError)) this.warm.delete(id);
      throw error;
    }
  }
}
