// A context's combatants by id, changed one combatant at a time without copying the others' record (issue 30).
// Every ruleset keeps `combatants: Record<string, C>` and reads it as a record (`ctx.combatants[id]`,
// `Object.values`, JSON in a snapshot); what was slow is the change: a copy of a 200-key object costs V8 25–60 µs,
// a third of a replay at 200 combatants, where copying an array of 200 rows costs well under 1 µs.
//
// So a changed record is a table of rows in the record's key order, read through a Proxy as the record it stands
// for: the ids and their positions are shared by every table of the same roster, the rows are an array copied on
// change (each row the same object as before but the changed one). It reads, enumerates, compares and stringifies
// as the plain record would, keys in the same order; it cannot be changed in place (contexts never are: a write
// throws), and a spread of it (`{ ...ctx.combatants }`) is a plain record again, as before.
//
// Two things a plain record does that it does not: Object.freeze throws on it (its rows can be frozen), and
// structuredClone refuses it (a Proxy): a context is copied through JSON, as a stored snapshot is.

/** The ids of a roster and where each stands, shared by every table of that roster. */
interface Keys {
  readonly ids: readonly string[];
  readonly at: ReadonlyMap<string, number>;
}

/** What a table holds: the shared keys and its own rows, `rows[i]` the combatant `keys.ids[i]`. */
class Rows<C> {
  constructor(
    readonly keys: Keys,
    readonly rows: readonly C[],
  ) {}
}

const refuse = (): never => {
  throw new TypeError('A combatant record is never changed in place: make a new one (core/encounter/roster.ts update).');
};

/** Keys that are not combatants (`hasOwnProperty`, symbols) read as an ordinary object's. */
const plain: object = {};

/** The key a table answers with what it holds (a plain record has no such key): no map of tables to keep. */
const ROWS = Symbol('rows');

const handler: ProxyHandler<Rows<unknown>> = {
  get(table, key) {
    if (key === ROWS) return table;
    const i = typeof key === 'string' ? table.keys.at.get(key) : undefined;
    return i === undefined ? Reflect.get(plain, key) : table.rows[i];
  },
  has(table, key) {
    return (typeof key === 'string' && table.keys.at.has(key)) || key in plain;
  },
  ownKeys(table) {
    return table.keys.ids as string[];
  },
  getOwnPropertyDescriptor(table, key) {
    const i = typeof key === 'string' ? table.keys.at.get(key) : undefined;
    return i === undefined ? undefined : { value: table.rows[i], writable: true, enumerable: true, configurable: true };
  },
  getPrototypeOf() {
    return Object.prototype;
  },
  set: refuse,
  defineProperty: refuse,
  deleteProperty: refuse,
  preventExtensions: refuse,
  setPrototypeOf: refuse,
};

function tableOf<C>(record: Readonly<Record<string, C>>): Rows<C> {
  const known = (record as { [ROWS]?: Rows<C> })[ROWS];
  if (known) return known;
  const ids = Object.keys(record);
  return new Rows({ ids, at: new Map(ids.map((id, i) => [id, i])) }, ids.map((id) => record[id]!));
}

function recordOf<C>(table: Rows<C>): Record<string, C> {
  return new Proxy(table as Rows<unknown>, handler) as unknown as Record<string, C>;
}

/** A record made here: it throws on any change in place, and cannot be frozen (its rows can). */
export function isCombatantTable(value: unknown): boolean {
  return value !== null && typeof value === 'object' && (value as { [ROWS]?: unknown })[ROWS] instanceof Rows;
}

/**
 * The record with `id`'s combatant replaced (`id` must be one of its keys, which keep their order); the others are
 * the same objects, and a record already made this way shares its keys with the new one.
 */
export function withCombatant<C>(record: Readonly<Record<string, C>>, id: string, combatant: NoInfer<C>): Record<string, C> {
  return withCombatants(record, [[id, combatant]]);
}

/** `withCombatant` for each pair in turn, in one new record. */
export function withCombatants<C>(record: Readonly<Record<string, C>>, changes: Iterable<readonly [string, NoInfer<C>]>): Record<string, C> {
  const table = tableOf(record);
  const rows = table.rows.slice();
  for (const [id, combatant] of changes) {
    const i = table.keys.at.get(id);
    if (i === undefined) throw new Error(`${id} is not a combatant of this encounter.`);
    rows[i] = combatant;
  }
  return recordOf(new Rows(table.keys, rows));
}

/** Every combatant changed by `change` (a new round's reset), keys in the same order and shared with `record`'s. */
export function eachCombatant<C>(record: Readonly<Record<string, C>>, change: (combatant: C, id: string) => C): Record<string, C> {
  const table = tableOf(record);
  return recordOf(new Rows(table.keys, table.rows.map((combatant, i) => change(combatant, table.keys.ids[i]!))));
}
