// Character-sheet schemas: one declarative field list per ruleset. The character editor is generated from it and
// the same list builds the zod schema that validates a sheet on every write (renderer, IPC, HTTP and CLI alike).
import * as z from 'zod';

export const DIE_SIZES = [4, 6, 8, 10, 12, 20] as const;
export type DieSize = (typeof DIE_SIZES)[number];

interface FieldBase {
  /** Key in the stored sheet object. */
  key: string;
  /** Label shown in the editor, in the game's words. */
  label: string;
  /** One line of help under the field. */
  help?: string;
  /** Fields with the same group are shown together under that heading. */
  group?: string;
  /** The name in a one-line summary (the campaign home's party list) when the label is too long for it. */
  short?: string;
}

export interface DieField extends FieldBase {
  kind: 'die';
  default: DieSize;
  /** Allowed sizes; DIE_SIZES when absent. */
  sizes?: readonly DieSize[];
}

export interface IntegerField extends FieldBase {
  kind: 'integer';
  default: number;
  min: number;
  max: number;
  /** The key of the integer field that is this one's maximum (HP under Maximum HP): a value above it is refused. */
  atMost?: string;
}

export interface TextField extends FieldBase {
  kind: 'text';
  default: string;
  maxLength: number;
  multiline?: boolean;
}

export interface ChoiceField extends FieldBase {
  kind: 'choice';
  default: string;
  choices: readonly { value: string; label: string }[];
}

export interface FlagField extends FieldBase {
  kind: 'flag';
  default: boolean;
}

export type SheetField = DieField | IntegerField | TextField | ChoiceField | FlagField;

export interface SheetSchema {
  fields: readonly SheetField[];
  /**
   * The fields that make a combatant's main pool (the one its runner row shows as a bar), for an NPC typed in place
   * on the prepare screen without a template: each is set to the number the GM types, the rest keep their defaults.
   */
  mainPool?: { label: string; keys: readonly string[] };
}

export type SheetValues = Record<string, string | number | boolean>;

function fieldSchema(field: SheetField): z.ZodType {
  switch (field.kind) {
    case 'die': {
      const sizes = field.sizes ?? DIE_SIZES;
      return z
        .number({ error: `${field.label} must be a die size.` })
        .refine((n) => (sizes as readonly number[]).includes(n), {
          message: `${field.label} must be one of ${sizes.map((s) => `d${s}`).join(', ')}.`,
        });
    }
    case 'integer':
      return z
        .number({ error: `${field.label} must be a whole number.` })
        .int({ error: `${field.label} must be a whole number.` })
        .min(field.min, { error: `${field.label} must be at least ${field.min}.` })
        .max(field.max, { error: `${field.label} must be at most ${field.max}.` });
    case 'text':
      return z
        .string({ error: `${field.label} must be text.` })
        .max(field.maxLength, { error: `${field.label} must be at most ${field.maxLength} characters.` });
    case 'choice':
      return z.enum(field.choices.map((c) => c.value) as [string, ...string[]], {
        error: `${field.label} must be one of: ${field.choices.map((c) => c.label).join(', ')}.`,
      });
    case 'flag':
      return z.boolean({ error: `${field.label} must be yes or no.` });
  }
}

/**
 * A strict zod schema for a whole sheet: every field present, nothing else, and no current value above its maximum
 * (`atMost`). An import passes `capped: false`: a sheet saved before the caps were checked still comes back.
 */
export function sheetValidator(schema: SheetSchema, { capped: checkCaps = true }: { capped?: boolean } = {}): z.ZodType<SheetValues> {
  const shape: Record<string, z.ZodType> = {};
  for (const field of schema.fields) shape[field.key] = fieldSchema(field);
  const capped = !checkCaps ? [] : schema.fields.flatMap((field) => {
    const cap = field.kind === 'integer' && field.atMost ? schema.fields.find((f) => f.key === field.atMost) : undefined;
    return cap ? [{ field, cap }] : [];
  });
  return z.strictObject(shape).superRefine((sheet, ctx) => {
    for (const { field, cap } of capped) {
      const value = sheet[field.key] as number;
      const max = sheet[cap.key] as number;
      if (value > max) ctx.addIssue({ code: 'custom', path: [field.key], message: `${field.label} ${value} is above ${cap.label} ${max}: lower ${field.label} or raise ${cap.label}.` });
    }
  }) as unknown as z.ZodType<SheetValues>;
}

/** The sheet a new character starts with. */
export function defaultSheet(schema: SheetSchema): SheetValues {
  const sheet: SheetValues = {};
  for (const field of schema.fields) sheet[field.key] = field.default;
  return sheet;
}

/**
 * Fills missing fields with defaults (a sheet saved before a field existed) and keeps only known keys,
 * so a stored sheet always validates against the current schema shape.
 */
export function normalizeSheet(schema: SheetSchema, stored: Record<string, unknown>): Record<string, unknown> {
  const sheet: Record<string, unknown> = {};
  for (const field of schema.fields) sheet[field.key] = field.key in stored ? stored[field.key] : field.default;
  return sheet;
}

/** One number in a character's one-line summary: "STR 10/10", "Weapon d6"; `title` is the whole label. */
export interface SummaryStat {
  key: string;
  short: string;
  title: string;
  text: string;
}

/**
 * A character's first `limit` sheet numbers for a one-line summary, each under its short name (never a cut label:
 * "Res" stood for both Resilience and Resolve). A maximum (`<key>Max`) is shown with its current value as one stat,
 * "STR 10/10", so a pool never takes two places and pushes a later number (WIL) out.
 */
export function sheetSummary(schema: SheetSchema, values: Record<string, unknown>, limit = 6): SummaryStat[] {
  const numbers = schema.fields.filter((f) => f.kind === 'die' || f.kind === 'integer');
  const keys = new Set(numbers.map((f) => f.key));
  const stats: SummaryStat[] = [];
  for (const f of numbers) {
    if (f.key.endsWith('Max') && keys.has(f.key.slice(0, -3))) continue; // shown with its current value
    const value = values[f.key] ?? f.default;
    const text = f.kind === 'die' ? `d${value}` : String(value);
    const max = keys.has(`${f.key}Max`) ? values[`${f.key}Max`] ?? numbers.find((m) => m.key === `${f.key}Max`)!.default : null;
    stats.push({ key: f.key, short: f.short ?? f.label, title: max === null ? f.label : `${f.label} / maximum`, text: max === null ? text : `${text}/${max}` });
    if (stats.length === limit) break;
  }
  return stats;
}

/** The bounds of a pool: its current value's, the start of both, and the maximum's own lower bound (`maxMin`). */
export interface PoolRange {
  default: number;
  min: number;
  max: number;
  /** The lowest maximum (Health maximum 1 where health may be 0); `min` when absent. */
  maxMin?: number;
}

/** The words of a pool beside its key and label, for the current value and (`max…`) the maximum. */
export interface PoolWords {
  group?: string;
  help?: string;
  short?: string;
  /** The maximum's label: "<label> maximum" when absent ("Maximum HP" where the rules say so). */
  maxLabel?: string;
  maxHelp?: string;
  maxShort?: string;
}

function integerField(key: string, label: string, words: { short?: string | undefined; group?: string | undefined; help?: string | undefined }, range: { default: number; min: number; max: number }, atMost?: string): IntegerField {
  // Members in the order the sheets have always listed them (app:info sends them as they are).
  return {
    kind: 'integer', key, label,
    ...(words.short === undefined ? {} : { short: words.short }),
    ...(words.group === undefined ? {} : { group: words.group }),
    default: range.default, min: range.min, max: range.max,
    ...(atMost === undefined ? {} : { atMost }),
    ...(words.help === undefined ? {} : { help: words.help }),
  };
}

/**
 * A pool: its maximum (`<key>Max`) and its current value (`<key>`, never above the maximum: `atMost`), in that
 * order, both starting at `range.default`. Spread into a sheet's fields: `...pool('hp', 'HP', { default: 4, min: 0,
 * max: 20 }, { group: 'Health', maxLabel: 'Maximum HP' })`. The one-line summary shows the pair as "HP 4/4".
 */
export function pool(key: string, label: string, range: PoolRange, words: PoolWords = {}): [IntegerField, IntegerField] {
  const maxKey = `${key}Max`;
  return [
    integerField(maxKey, words.maxLabel ?? `${label} maximum`, { short: words.maxShort, group: words.group, help: words.maxHelp }, { ...range, min: range.maxMin ?? range.min }),
    integerField(key, label, { short: words.short, group: words.group, help: words.help }, range, maxKey),
  ];
}
