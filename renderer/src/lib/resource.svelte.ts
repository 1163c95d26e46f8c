// A value fetched from the app and re-fetched when main says it changed (GUIDE §2: main pushes, renderer re-fetches).
import type { ChangeNotice } from '../../../core/api/names.ts';
import { GmError } from '../../../core/api/replies.ts';
import { onChanged } from './api.ts';

export class Resource<T> {
  #value = $state.raw<T | undefined>(undefined);
  #error = $state<string | null>(null);
  #loading = $state(true);
  #stop: () => void;

  constructor(
    private readonly load: () => Promise<T>,
    private readonly relevant: (notice: ChangeNotice) => boolean,
  ) {
    void this.reload();
    this.#stop = onChanged((notice) => {
      if (this.relevant(notice)) void this.reload();
    });
  }

  get value(): T | undefined {
    return this.#value;
  }
  set value(next: T | undefined) {
    this.#value = next;
  }
  get error(): string | null {
    return this.#error;
  }
  get loading(): boolean {
    return this.#loading;
  }

  async reload(): Promise<void> {
    try {
      this.#value = await this.load();
      this.#error = null;
    } catch (error) {
      this.#error = error instanceof GmError ? error.message : 'This could not be loaded.';
    } finally {
      this.#loading = false;
    }
  }

  dispose(): void {
    this.#stop();
  }
}
