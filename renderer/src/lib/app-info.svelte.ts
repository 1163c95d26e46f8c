// The app's facts and its rulesets: their names fetched once (the campaign list waits for them), each ruleset's sheet,
// options and forms fetched the first time a screen reads them (docs/decisions.md).
import type { AppInfo, RulesetInfo, RulesetName } from '../../../core/api/contract.ts';
import { send } from './api.ts';

/** A value fetched at its first read; a failed fetch (the app closing, a test with no server) is tried again at the next read, never thrown. */
class Fetched<T> {
  #value = $state.raw<T | null>(null);
  #failed = $state(false);
  #pending: Promise<T> | null = null;

  constructor(private readonly fetch: () => Promise<T>) {}

  get value(): T | null {
    if (!this.#value && !this.#pending && typeof window !== 'undefined') void this.load().catch(() => undefined);
    return this.#value;
  }

  /** Whether the last fetch failed (a screen then shows what it can without it). */
  get failed(): boolean {
    return this.#failed;
  }

  load(): Promise<T> {
    if (this.#value) return Promise.resolve(this.#value);
    this.#pending ??= this.fetch().then(
      (value) => {
        this.#value = value;
        this.#failed = false;
        return value;
      },
      (error: unknown) => {
        this.#pending = null;
        this.#failed = true;
        throw error;
      },
    );
    return this.#pending;
  }
}

class AppInfoState {
  #info = new Fetched<AppInfo>(() => send('app:info', {}));
  // One field for every ruleset (not a state each, made as a screen first reads it: a state made inside a screen's
  // derived value is not one it follows).
  #rulesets = $state.raw<Readonly<Record<string, RulesetInfo>>>({});
  #failed = $state.raw<ReadonlySet<string>>(new Set());
  #pending = new Map<string, Promise<RulesetInfo>>();

  /** The app's facts and its rulesets' names (null until they arrive). */
  get info(): AppInfo | null {
    return this.#info.value;
  }

  /** Whether asking for the app's facts failed: the campaign list then shows the rulesets' ids. */
  get infoFailed(): boolean {
    return this.#info.failed;
  }

  /** A ruleset's name and summary, from the app's facts. */
  rulesetName(id: string): RulesetName | undefined {
    return this.info?.rulesets.find((r) => r.id === id);
  }

  /** A ruleset's sheet, options and forms: undefined until they arrive (the first read asks for them). */
  ruleset(id: string): RulesetInfo | undefined {
    const known = this.#rulesets[id];
    if (!known && !this.#pending.has(id) && typeof window !== 'undefined') void this.loadRuleset(id).catch(() => undefined);
    return known;
  }

  /** Whether a screen may show what it reads of a ruleset: its sheet, options and forms have come, or asking failed. */
  rulesetSettled(id: string): boolean {
    return this.ruleset(id) !== undefined || this.#failed.has(id);
  }

  /** Asks for a ruleset's sheet, options and forms now, before a screen reads them; a failed ask is tried again at the next. */
  loadRuleset(id: string): Promise<RulesetInfo> {
    const known = this.#rulesets[id];
    if (known) return Promise.resolve(known);
    let pending = this.#pending.get(id);
    if (!pending) {
      pending = send('rulesets:get', { id }).then(
        (ruleset) => {
          this.#rulesets = { ...this.#rulesets, [id]: ruleset };
          if (this.#failed.has(id)) this.#failed = new Set([...this.#failed].filter((failed) => failed !== id));
          return ruleset;
        },
        (error: unknown) => {
          this.#pending.delete(id);
          if (!this.#failed.has(id)) this.#failed = new Set([...this.#failed, id]);
          throw error;
        },
      );
      this.#pending.set(id, pending);
    }
    return pending;
  }
}

export const appInfo = new AppInfoState();
