// The rulesets and app facts, fetched once.
import type { AppInfo, RulesetInfo } from '../../../core/api/contract.ts';
import { send } from './api.ts';

class AppInfoState {
  #info = $state.raw<AppInfo | null>(null);
  #pending: Promise<void> | null = null;

  get info(): AppInfo | null {
    if (!this.#info && !this.#pending && typeof window !== 'undefined') {
      // A failed fetch (the app closing, a test with no server) is tried again at the next read, never thrown.
      this.#pending = send('app:info', {}).then(
        (info) => void (this.#info = info),
        () => void (this.#pending = null),
      );
    }
    return this.#info;
  }

  ruleset(id: string): RulesetInfo | undefined {
    return this.info?.rulesets.find((r) => r.id === id);
  }
}

export const appInfo = new AppInfoState();
