// A fight's injury records, made once per item and per list, for a ruleset's `consequences`. An event that changes
// no injury (most of them) gives the same records as the event before, and one that adds or changes one gives the
// others as the same objects, so the store writes only what changed by comparing records by identity
// (server/encounter-store.ts syncConsequences). It holds because a combatant's lists and the items in them are
// replaced, never changed in place (core/encounter/kernel.test.ts holds contexts to it).
import type { Consequences } from './types.ts';

export type InjuryRecord = Consequences['injuries'][number];

/** Per item and per list: the record(s) made, and for whom (a combatant and its character). */
const itemRecords = new WeakMap<object, { owner: string; record: InjuryRecord | null }>();
const listRecords = new WeakMap<readonly object[], { owner: string; records: readonly InjuryRecord[] }>();
/** Per roster list: the parts last joined, and the joined list. */
const joined = new WeakMap<readonly string[], { parts: readonly (readonly InjuryRecord[])[]; records: InjuryRecord[] }>();

/**
 * The records of `items` for `owner` (whatever a record's words depend on besides the item: the combatant's id and
 * character), each made by `make` once (null: the item gives no record, e.g. one not gained in this fight).
 */
export function recordsOf<T extends object>(items: readonly T[], owner: string, make: (item: T) => InjuryRecord | null): readonly InjuryRecord[] {
  const known = listRecords.get(items);
  if (known?.owner === owner) return known.records;
  const records = items.flatMap((item) => {
    let made = itemRecords.get(item);
    if (made?.owner !== owner) itemRecords.set(item, (made = { owner, record: make(item) }));
    return made.record ? [made.record] : [];
  });
  listRecords.set(items, { owner, records });
  return records;
}

/** The parts joined in order: the same list as last time for this roster while every part is the same. */
export function joinRecords(roster: readonly string[], parts: readonly (readonly InjuryRecord[])[]): InjuryRecord[] {
  const last = joined.get(roster);
  if (last && last.parts.length === parts.length && last.parts.every((part, i) => part === parts[i])) return last.records;
  const records = parts.flat();
  joined.set(roster, { parts, records });
  return records;
}
