// The campaign ledger's pure kernel: parse an untrusted recovery event, apply it (one character or the whole
// party) to the campaign as it stands, and fold the change into a new world. Storage lives in db/ledger.ts.
import * as z from 'zod';
import type { GmEvent } from '../encounter/types.ts';
import { isRefusal, LedgerRefusal, type CampaignWorld, type RecoveryChange, type RecoveryOutcome, type RecoveryRules } from './types.ts';

/** The whole party does the same thing: one event, applied to each named character in turn. */
export const partyEventSchema = z.strictObject({
  type: z.literal('PARTY'),
  action: z.looseObject({ type: z.string().min(1).max(40) }),
  characterIds: z.array(z.string().min(1).max(64)).min(1).max(200),
});

/** Parses a ruleset recovery event (or a PARTY event around one), or explains what is wrong with it. */
export function parseRecoveryEvent(rules: RecoveryRules, raw: unknown): GmEvent {
  if (raw && typeof raw === 'object' && (raw as { type?: unknown }).type === 'PARTY') {
    const party = partyEventSchema.safeParse(raw);
    if (!party.success) refuse('The whole-party action is malformed.');
    const form = rules.forms.find((f) => f.type === party.data.action.type);
    if (!form?.bulk) refuse(`"${String(party.data.action.type).slice(0, 40)}" cannot be taken by the whole party at once.`);
    const first = parseOne(rules, { ...party.data.action, characterId: party.data.characterIds[0] });
    const { characterId: _first, ...action } = first;
    return { type: 'PARTY', action, characterIds: [...new Set(party.data.characterIds)] };
  }
  return parseOne(rules, raw);
}

function parseOne(rules: RecoveryRules, raw: unknown): GmEvent {
  const parsed = rules.eventSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const type = raw && typeof raw === 'object' && 'type' in raw ? String((raw as { type: unknown }).type).slice(0, 40) : '';
  if (issue?.code === 'unrecognized_keys') refuse(`The ${type || 'recovery action'} has fields this app does not know: ${issue.keys.join(', ').slice(0, 200)}.`);
  if (!issue || issue.path.length === 0 || issue.path[0] === 'type') {
    refuse(type ? `"${type}" is not a recovery action this ruleset knows.` : 'The recovery action is missing its type.');
  }
  refuse(issue.message && !issue.message.startsWith('Invalid') ? issue.message : `The ${type || 'recovery action'} is malformed at ${issue.path.join('.')}.`);
}

function refuse(message: string): never {
  throw new LedgerRefusal(message);
}

/**
 * The world after a change: states and party replaced, records updated, healed records gone from the running list.
 * Records the change creates are not in it: they get their ids when stored, so no later step of one event names them.
 */
export function foldChange(world: CampaignWorld, change: RecoveryChange): CampaignWorld {
  const states = new Map((change.characters ?? []).map((c) => [c.id, c.state]));
  const records = new Map((change.records ?? []).map((r) => [r.id, r]));
  return {
    ...world,
    party: change.party ?? world.party,
    characters: world.characters.map((c) => ({
      ...c,
      state: states.get(c.id) ?? c.state,
      records: c.records.flatMap((r) => {
        const next = records.get(r.id);
        if (!next) return [r];
        if (next.healed) return [];
        return [{ ...r, data: next.data, name: next.name ?? r.name }];
      }),
    })),
  };
}

/** Two changes in a row as one: later values win, a record healed in either stays healed. */
export function mergeChanges(first: RecoveryChange, second: RecoveryChange): RecoveryChange {
  const byId = <T extends { id: string }>(a: T[] = [], b: T[] = [], merge: (x: T, y: T) => T = (_x, y) => y) => {
    const out = new Map(a.map((x) => [x.id, x]));
    for (const y of b) out.set(y.id, out.has(y.id) ? merge(out.get(y.id)!, y) : y);
    return [...out.values()];
  };
  const merged: RecoveryChange = {};
  const characters = byId(first.characters, second.characters);
  const records = byId(first.records, second.records, (x, y) => ({ ...x, ...y, healed: Boolean(x.healed || y.healed) }));
  if (characters.length) merged.characters = characters;
  if (records.length) merged.records = records;
  const newRecords = [...(first.newRecords ?? []), ...(second.newRecords ?? [])];
  if (newRecords.length) merged.newRecords = newRecords;
  const party = second.party ?? first.party;
  if (party) merged.party = party;
  return merged;
}

/**
 * Applies a parsed recovery event. A PARTY event applies its action to each character in turn (each one sees what
 * the earlier ones changed); a character the rules refuse is skipped with the reason in the log, and the event is
 * refused only when nobody could take it.
 */
export function applyRecovery(rules: RecoveryRules, world: CampaignWorld, event: GmEvent): RecoveryOutcome {
  if (event.type !== 'PARTY') return applyOne(rules, world, event);
  const { action, characterIds } = event as unknown as { action: GmEvent; characterIds: string[] };
  let current = world;
  let change: RecoveryChange = {};
  const log: string[] = [];
  const skipped: string[] = [];
  for (const characterId of characterIds) {
    try {
      const outcome = applyOne(rules, current, { ...action, characterId });
      change = mergeChanges(change, outcome.change);
      current = foldChange(current, outcome.change);
      log.push(...outcome.log);
    } catch (error) {
      if (!isRefusal(error)) throw error;
      skipped.push(error.message);
    }
  }
  if (log.length === 0) refuse(skipped.length === 1 ? skipped[0]! : `Nobody in the party can do that now: ${skipped.join(' ')}`);
  return { change, log: [...log, ...skipped.map((reason) => `Skipped: ${reason}`)] };
}

function applyOne(rules: RecoveryRules, world: CampaignWorld, event: GmEvent): RecoveryOutcome {
  const characterId = event['characterId'];
  if (typeof characterId === 'string' && !world.characters.some((c) => c.id === characterId)) {
    refuse('That character is not a party member of this campaign.');
  }
  try {
    return rules.apply(world, event);
  } catch (error) {
    if (isRefusal(error)) throw new LedgerRefusal(error.message);
    throw error;
  }
}
