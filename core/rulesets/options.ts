// Rulings as options (GUIDE §2): every R-xx ruling of RULES.md is a named option with the digest's default.
// A campaign stores its choices; an encounter copies them when it is created so a replay never changes.
import * as z from 'zod';

interface OptionBase {
  /** Stable key stored in the campaign, e.g. `reactionDebtCap`. */
  key: string;
  /** The ruling it implements, e.g. `R-E6`. */
  ruling: string;
  label: string;
  /** What the ruling says, in one or two sentences. */
  description: string;
  /**
   * `app`: a ruling of the app's own on a gap the digest leaves, numbered after the digest's and named as such in
   * docs/rulesets/<id>.md (the digest's rulings and the texts' optional rules have none).
   */
  origin?: 'app';
}

export interface ChoiceOption extends OptionBase {
  kind: 'choice';
  default: string;
  choices: readonly { value: string; label: string }[];
}

export interface FlagOption extends OptionBase {
  kind: 'flag';
  default: boolean;
}

export interface NumberOption extends OptionBase {
  kind: 'number';
  default: number;
  min: number;
  max: number;
}

export type RulingOption = ChoiceOption | FlagOption | NumberOption;

export type OptionValues = Record<string, string | number | boolean>;

/**
 * Keys a ruleset once offered as options and has since made documented constants. A campaign or an export that
 * stored one must still open, save and import: the validator accepts the key and drops it, and so does
 * resolveOptions. Registered with the ruleset's own declarations: `defineOptions(options, { retired })`.
 */
export interface RetiredOption {
  /** The key campaigns may still hold. */
  key: string;
  /** The ruling it implemented, now a constant of the ruleset. */
  ruling: string;
}

const retired = new WeakMap<readonly RulingOption[], readonly RetiredOption[]>();



// ---- declaring options: builders that keep each option's key and values as types ----

/** What every builder takes besides the key: the ruling, its words, and (for an app ruling) its origin. */
interface Described {
  ruling: string;
  label: string;
  description: string;
  origin?: 'app';
}

/** The members every option starts with, in the order the declarations have always listed them. */
function head<K extends string>(key: K, spec: Described): { key: K; ruling: string; origin?: 'app' } {
  return spec.origin ? { key, ruling: spec.ruling, origin: spec.origin } : { key, ruling: spec.ruling };
}

/** An on/off ruling. */
export function flag<const K extends string>(key: K, spec: Described & { default: boolean }): FlagOption & { key: K } {
  return { ...head(key, spec), kind: 'flag', default: spec.default, label: spec.label, description: spec.description };
}

/** A ruling with named readings; the default must be one of them (checked by the type, and on load). */
export function choice<const K extends string, const V extends string>(
  key: K,
  spec: Described & { default: NoInfer<V>; choices: readonly { value: V; label: string }[] },
): ChoiceOption & { key: K; default: V; choices: readonly { value: V; label: string }[] } {
  if (!spec.choices.some((c) => c.value === spec.default)) throw new Error(`The option ${key} defaults to ${spec.default}, which is not one of its choices.`);
  return { ...head(key, spec), kind: 'choice', default: spec.default, label: spec.label, description: spec.description, choices: spec.choices };
}

/** A whole number between `min` and `max`; the default must lie between them (checked on load). */
export function number<const K extends string>(key: K, spec: Described & { default: number; min: number; max: number }): NumberOption & { key: K } {
  if (!(Number.isInteger(spec.default) && spec.min <= spec.default && spec.default <= spec.max)) throw new Error(`The option ${key} defaults to ${spec.default}, outside ${spec.min}–${spec.max}.`);
  return { ...head(key, spec), kind: 'number', default: spec.default, min: spec.min, max: spec.max, label: spec.label, description: spec.description };
}

/** The value type of one declared option: its choices' values, a boolean, or a number. */
export type OptionValueOf<O extends RulingOption> = O extends { kind: 'choice'; choices: readonly { value: infer V }[] } ? V : O extends { kind: 'flag' } ? boolean : number;

/** The typed values of a ruleset's declared options, by key: `values.stunned` is `'skipNextAction' | 'gmAdjudicates'`. */
export type OptionValuesOf<T extends readonly RulingOption[]> = { readonly [O in T[number] as O['key']]: OptionValueOf<O> };

/**
 * A ruleset's options, declared once: the list (as the registry, the validator and app:info read it) with the
 * keys it has retired registered beside it, and its literal types kept, so `readOptions` gives typed values.
 * Two options with one key are a mistake in the declaration and throw on load.
 */
export function defineOptions<const T extends readonly RulingOption[]>(options: T, { retired: retiredOptions = [] }: { retired?: readonly RetiredOption[] } = {}): T {
  const keys = new Set<string>();
  for (const option of options) {
    if (keys.has(option.key)) throw new Error(`The option ${option.key} is declared twice.`);
    keys.add(option.key);
  }
  if (retiredOptions.length) retired.set(options, retiredOptions);
  return options;
}

/** One stored value as its option reads it; a value of the wrong kind or out of bounds reads as the default. */
function valueFor(option: RulingOption, value: unknown): string | number | boolean {
  switch (option.kind) {
    case 'flag':
      return typeof value === 'boolean' ? value : option.default;
    case 'number':
      return typeof value === 'number' && Number.isInteger(value) && value >= option.min && value <= option.max ? value : option.default;
    case 'choice':
      return typeof value === 'string' && option.choices.some((c) => c.value === value) ? value : option.default;
  }
}

/**
 * The values of `options` (a `defineOptions` list) in `chosen` (an encounter's frozen options, a campaign's
 * choices), typed by key: each option's stored value, or its default where none is stored or the stored one is
 * not one it takes. Retired and unknown keys are left out.
 */
export function readOptions<const T extends readonly RulingOption[]>(options: T, chosen: Readonly<Record<string, unknown>>): OptionValuesOf<T> {
  const values: Record<string, string | number | boolean> = {};
  for (const option of options) values[option.key] = valueFor(option, chosen[option.key]);
  // Built key by key from the list T is: each value is read by its own option above.
  return values as OptionValuesOf<T>;
}

/**
 * A ruleset's typed reader of its rulings: `rulings(ctx.options).stunned`. A misspelt key or a value compared with
 * something its option never takes is a type error. The fight engine asks on every event (a sort on every
 * comparison), and an encounter's options are frozen when it is created and never changed in place: each options
 * object is read once and its values kept while it lives (the last one asked answered without a lookup).
 */
export function optionsReader<const T extends readonly RulingOption[]>(options: T): (chosen: Readonly<Record<string, unknown>>) => OptionValuesOf<T> {
  const read = new WeakMap<object, OptionValuesOf<T>>();
  let lastChosen: object | null = null;
  let lastValues: OptionValuesOf<T> | null = null;
  return (chosen) => {
    if (chosen === lastChosen && lastValues !== null) return lastValues;
    let values = read.get(chosen);
    if (values === undefined) {
      values = readOptions(options, chosen);
      read.set(chosen, values);
    }
    lastChosen = chosen;
    lastValues = values;
    return values;
  };
}

/** The rulings a ruleset applies as constants (former options), e.g. `{ key: 'removalCursor', ruling: 'R-E3' }`. */
export const retiredOptionsOf = (options: readonly RulingOption[]): readonly RetiredOption[] => retired.get(options) ?? [];
const retiredOptionKeys = (options: readonly RulingOption[]): string[] => retiredOptionsOf(options).map((o) => o.key);

function withoutRetired(options: readonly RulingOption[], values: OptionValues): OptionValues {
  const keys = retiredOptionKeys(options);
  if (keys.length === 0) return values;
  return Object.fromEntries(Object.entries(values).filter(([key]) => !keys.includes(key)));
}

/** Every value of an option but its default: the other flag, the other choices, every other whole number in bounds. */
export function otherValues(option: RulingOption): (string | number | boolean)[] {
  if (option.kind === 'flag') return [!option.default];
  if (option.kind === 'choice') return option.choices.map((c) => c.value).filter((v) => v !== option.default);
  return Array.from({ length: option.max - option.min + 1 }, (_v, i) => option.min + i).filter((v) => v !== option.default);
}

export function defaultOptions(options: readonly RulingOption[]): OptionValues {
  const values: OptionValues = {};
  for (const option of options) values[option.key] = option.default;
  return values;
}

/** Validates a partial set of choices; unknown keys are refused so a typo never passes silently. */
export function optionsValidator(options: readonly RulingOption[]): z.ZodType<OptionValues> {
  const shape: Record<string, z.ZodType> = {};
  for (const option of options) {
    const name = `${option.label} (${option.ruling})`;
    if (option.kind === 'flag') shape[option.key] = z.boolean({ error: `${name} must be on or off.` }).optional();
    else if (option.kind === 'number')
      shape[option.key] = z
        .number({ error: `${name} must be a number.` })
        .int()
        .min(option.min, { error: `${name} must be at least ${option.min}.` })
        .max(option.max, { error: `${name} must be at most ${option.max}.` })
        .optional();
    else
      shape[option.key] = z
        .enum(option.choices.map((c) => c.value) as [string, ...string[]], {
          error: `${name} must be one of: ${option.choices.map((c) => c.label).join(', ')}.`,
        })
        .optional();
  }
  const keys = retiredOptionKeys(options);
  if (keys.length === 0) return z.strictObject(shape) as unknown as z.ZodType<OptionValues>;
  for (const key of keys) shape[key] = z.unknown().optional();
  return z.strictObject(shape).transform((values) => withoutRetired(options, values as OptionValues)) as unknown as z.ZodType<OptionValues>;
}

/** Defaults overlaid with the stored choices. */
export function resolveOptions(options: readonly RulingOption[], chosen: OptionValues): OptionValues {
  return { ...defaultOptions(options), ...withoutRetired(options, chosen) };
}
