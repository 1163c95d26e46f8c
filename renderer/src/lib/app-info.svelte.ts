// The app's facts and its rulesets: their names fetched once (the campaign list waits for them), each ruleset's sheet,
// options and forms fetched the first time a screen reads them (docs/decisions.md).
import type { AppInfo, RulesetInfo, RulesetName } from '../../../core/api/contract.ts';
import { send } from './api.ts';

/**
 * Values fetched by key at their first read; a failed fetch (the app closing, a test with no server) is tried again at
 * the next read, never thrown. Every key's value lives in one field, not a state each made as a screen first reads its
 * key: a state made inside a screen's derived value is not one that derived follows.
 */
class FetchedByKey<T> {
  #values = $state.raw<Readonly<Record<string, T>>>({});
  #failed = $state.raw<ReadonlySet<string>>(new Set());
  #pending = new Map<string, Promise<T>>();

  constructor(private readonly fetch: (key: string) => Promise<T>) {}

  /** The key's value: undefined until it arrives (the first read asks for it). */
  get(key: string): T | undefined {
    const known = this.#values[key];
    if (!known && !this.#pending.has(key) && typeof window !== 'undefined') void this.load(key).catch(() => undefined);
    return known;
  }

  /** Whether the last fetch of the key failed (a screen then shows what it can without it). */
  failed(key: string): boolean {
    return this.#failed.has(key);
  }

  /** Asks for the key's value now, before a screen reads it; a failed ask is tried again at the next. */
  load(key: string): Promise<T> {
    const known = this.#values[key];
    if (known) return Promise.resolve(known);
    let pending = this.#pending.get(key);
    if (!pending) {
      pending = this.fetch(key).then(
        (value) => {
          this.#values = { ...this.#values, [key]: value };
          if (this.#failed.has(key)) this.#failed = new Set([...this.#failed].filter((failed) => failed !== key));
          return value;
        },
        (error: unknown) => {
          this.#pending.delete(key);
          if (!this.#failed.has(key)) this.#failed = new Set([...this.#failed, key]);
          throw error;
        },
      );
      this.#pending.set(key, pending);
    }
    return pending;
  }
}

/** The one key of the app's facts. */
const APP = 'app';

class AppInfoState {
  #facts = new FetchedByKey<AppInfo>(() => send('app:info', {}));
  #rulesets = new FetchedByKey<RulesetInfo>((id) => send('rulesets:get', { id }));

  /** The app's facts and its rulesets' names (null until they arrive). */
  get info(): AppInfo | null {
    return this.#facts.get(APP) ?? null;
  }

  /** Whether asking for the app's facts failed: the campaign list then shows the rulesets' ids. */
  get infoFailed(): boolean {
    return this.#facts.failed(APP);
  }

  /** A ruleset's name and summary, from the app's facts. */
  rulesetName(id: string): RulesetName | undefined {
    return this.info?.rulesets.find((r) => r.id === id);
  }

  /** A ruleset's sheet, options and forms: undefined until they arrive (the first read asks for them). */
  ruleset(id: string): RulesetInfo | undefined {
    return this.#rulesets.get(id);
  }

  /**
   * A screen's ruleset (none while the screen has not loaded what names it) and whether the screen may show what it
   * reads of it: its sheet, options and forms have come, or asking for them failed.
   */
  rulesetFor(id: string | undefined): { ruleset: RulesetInfo | undefined; settled: boolean } {
    if (id === undefined) return { ruleset: undefined, settled: false };
    const ruleset = this.ruleset(id);
    return { ruleset, settled: ruleset !== undefined || this.#rulesets.failed(id) };
  }

  /** Asks for a ruleset's sheet, options and forms now, before a screen reads them; a failed ask is tried again at the next. */
  loadRuleset(id: string): Promise<RulesetInfo> {
    return this.#rulesets.load(id);
  }
}

export const appInfo = new AppInfoState();
