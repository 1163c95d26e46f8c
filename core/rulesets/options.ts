// Rulings as options (GUIDE §2): every R-xx ruling of RULES.md is a named option with the digest's default.
// A campaign stores its choices; an encounter copies them when it is created so a replay never changes.
import { z } from 'zod';

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
 * resolveOptions. Registered next to the ruleset's own declarations with `retireOptions`.
 */
export interface RetiredOption {
  /** The key campaigns may still hold. */
  key: string;
  /** The ruling it implemented, now a constant of the ruleset. */
  ruling: string;
}

const retired = new WeakMap<readonly RulingOption[], readonly RetiredOption[]>();

export function retireOptions<T extends readonly RulingOption[]>(options: T, retiredOptions: readonly RetiredOption[]): T {
  retired.set(options, retiredOptions);
  return options;
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
