// Sentences for the GM: refusals and failures appear as a toast, never as a stack trace.
import { GmError } from '../../../core/api/contract.ts';

export interface Toast {
  id: number;
  text: string;
  tone: 'error' | 'info';
}

class Toasts {
  #items = $state<Toast[]>([]);
  #next = 1;

  get items(): Toast[] {
    return this.#items;
  }

  show(text: string, tone: Toast['tone'] = 'info'): void {
    const id = this.#next++;
    this.#items = [...this.#items.slice(-3), { id, text, tone }];
    setTimeout(() => this.dismiss(id), tone === 'error' ? 8000 : 4000);
  }

  error(error: unknown): void {
    this.show(error instanceof GmError ? error.message : 'Something went wrong and nothing was changed.', 'error');
    if (!(error instanceof GmError)) console.error(error);
  }

  dismiss(id: number): void {
    this.#items = this.#items.filter((t) => t.id !== id);
  }
}

export const toasts = new Toasts();

/** Runs an action, showing its refusal as a toast; returns undefined when it was refused. */
export async function attempt<T>(action: () => Promise<T>): Promise<T | undefined> {
  try {
    return await action();
  } catch (error) {
    toasts.error(error);
    return undefined;
  }
}
