// Every ruleset's sheet and rulings against the shared contract and against the rules digest.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultOptions, optionsValidator, otherValues, resolveOptions, retiredOptionsOf } from './options.ts';
import { RULESETS, findRuleset } from './registry.ts';
import { DIE_SIZES, defaultSheet, sheetValidator } from './sheet.ts';
import type { ActionForm } from '../encounter/types.ts';

const RULES_MD = new URL('../../../shared/rules/RULES.md', import.meta.url);
const digest = existsSync(RULES_MD) ? readFileSync(RULES_MD, 'utf8') : null;
const RULING_PREFIX: Record<string, string> = { enigma: 'E', teams: 'T', factions: 'F', 'cairn-errant': 'C', thrum: 'H' };

it('registers the five modelled rulesets and Any system', () => {
  expect(RULESETS.map((r) => r.id)).toEqual(['enigma', 'teams', 'factions', 'cairn-errant', 'thrum', 'any-system']);
  expect(findRuleset('enigma')?.encounter).toBeDefined();
  expect(findRuleset('dnd5e')).toBeUndefined();
});

describe.each(RULESETS.filter((r) => r.encounter.actionForms?.length).map((r) => [r.name, r] as const))('%s action forms', (_name, ruleset) => {
  /** The event the runner would send from a form left at its defaults. */
  function defaultEvent(form: ActionForm): Record<string, unknown> {
    const event: Record<string, unknown> = { type: form.type };
    for (const field of form.fields) {
      let value: unknown = field.default;
      if (field.kind === 'combatant') value = 'c1';
      if (field.kind === 'combatants') value = field.wrap ? [{ [field.wrap]: 'c1' }] : ['c1'];
      if (field.kind === 'integer') value ??= field.min ?? 0;
      if (field.kind === 'choice') value ??= field.choices?.[0]?.value;
      if (field.kind === 'text') value = value || 'x';
      if (field.kind === 'flag') value ??= false;
      if (field.optional) {
        if (field.emptyAs === 'null') event[field.key] = null;
        continue;
      }
      event[field.key] = value;
    }
    return event;
  }

  it('sends only events the ruleset accepts, in shapes its schema parses', () => {
    for (const form of ruleset.encounter.actionForms!) {
      const parsed = ruleset.encounter.eventSchema.safeParse(defaultEvent(form));
      expect(parsed.success, `${form.type}: ${parsed.error?.issues[0]?.message} at ${parsed.error?.issues[0]?.path.join('.')}`).toBe(true);
    }
  });
});

describe.each(RULESETS.map((r) => [r.name, r] as const))('%s', (_name, ruleset) => {
  const validate = (values: Record<string, unknown>) => sheetValidator(ruleset.sheet).safeParse(values);
  const refusal = (key: string, value: unknown) => {
    const result = validate({ ...defaultSheet(ruleset.sheet), [key]: value });
    expect(result.success, `${key}=${String(value).slice(0, 20)} should be refused`).toBe(false);
    return result.error!.issues.map((i) => i.message).join(' ');
  };

  it('has a valid default sheet with unique keys and a notes field', () => {
    expect(validate(defaultSheet(ruleset.sheet)).success).toBe(true);
    const keys = ruleset.sheet.fields.map((f) => f.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(ruleset.sheet.fields.at(-1)).toMatchObject({ key: 'notes', kind: 'text', maxLength: 4000 });
  });

  it('refuses bad sheet values with a sentence naming the field', () => {
    for (const field of ruleset.sheet.fields) {
      if (field.kind === 'integer') {
        expect(refusal(field.key, field.max + 1)).toContain(field.label);
        expect(refusal(field.key, field.min - 1)).toContain(field.label);
        expect(refusal(field.key, field.default + 0.5)).toContain(field.label);
      }
      if (field.kind === 'die') {
        expect(refusal(field.key, 7)).toContain(field.label);
        for (const size of DIE_SIZES) if (!(field.sizes ?? DIE_SIZES).includes(size)) expect(refusal(field.key, size)).toContain(field.label);
      }
      if (field.kind === 'choice') expect(refusal(field.key, 'nonsense')).toContain(field.label);
    }
    expect(refusal('notes', 'x'.repeat(10_000))).toContain('Notes');
    expect(validate({ ...defaultSheet(ruleset.sheet), hitPoints: 3 }).success).toBe(false);
  });

  it('keeps every ruling default among its choices or bounds', () => {
    expect(new Set(ruleset.options.map((o) => o.key)).size).toBe(ruleset.options.length);
    for (const option of ruleset.options) {
      if (option.kind === 'choice') expect(option.choices.map((c) => c.value)).toContain(option.default);
      if (option.kind === 'number') expect(option.default).toBeGreaterThanOrEqual(option.min);
      if (option.kind === 'number') expect(option.default).toBeLessThanOrEqual(option.max);
    }
    expect(optionsValidator(ruleset.options).safeParse(defaultOptions(ruleset.options)).success).toBe(true);
    expect(optionsValidator(ruleset.options).safeParse({ noSuchRuling: true }).success).toBe(false);
  });

  // Issue 27: "not a choice that chooses nothing". Each ruleset's options walk plays every other value.
  it('declares no option with a single value: a ruling with one reading is a documented constant (retired in defineOptions)', () => {
    expect(ruleset.options.filter((o) => otherValues(o).length === 0).map((o) => o.key)).toEqual([]);
  });

  it('still opens and saves a campaign that stored a retired ruling: the key is accepted and dropped', () => {
    const retired = retiredOptionsOf(ruleset.options);
    const live = ruleset.options[0]!;
    const stored = { ...Object.fromEntries(retired.map((o) => [o.key, 'as stored'])), [live.key]: otherValues(live)[0]! };
    const parsed = optionsValidator(ruleset.options).safeParse(stored);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual({ [live.key]: stored[live.key] });
    expect(Object.keys(resolveOptions(ruleset.options, stored)).filter((key) => retired.some((o) => o.key === key))).toEqual([]);
    expect(new Set(retired.map((o) => o.key)).size + ruleset.options.length).toBe(new Set([...retired, ...ruleset.options].map((o) => o.key)).size);
  });

  // The digest sits beside the repository in ../shared (as in CI); a bare clone has no digest to compare with.
  it.runIf(digest !== null)('has one option for every ruling of the digest, and none that is not there', () => {
    const pattern = new RegExp(`R-${RULING_PREFIX[ruleset.id]}\\d+b?`, 'g');
    const inDigest = new Set(digest!.match(pattern));
    // A ruling with a single reading may be a documented constant instead (`retired` in defineOptions, options.ts).
    const covered = new Set([...ruleset.options, ...retiredOptionsOf(ruleset.options)].map((o) => o.ruling));
    expect([...inDigest].filter((id) => !covered.has(id))).toEqual([]);
    // Optional rules of a text (not rulings on its gaps) are options too, marked as such; so are the app's own
    // rulings on gaps the digest leaves, numbered after the digest's.
    const own = new Set(ruleset.options.filter((o) => o.origin === 'app').map((o) => o.ruling));
    expect([...own].filter((id) => inDigest.has(id)), 'an app ruling takes a number the digest uses').toEqual([]);
    expect([...covered].filter((id) => !inDigest.has(id) && id !== 'Optional rule' && !own.has(id))).toEqual([]);
  });
});
