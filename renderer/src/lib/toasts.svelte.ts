// Sentences for the GM: refusals and failures appear as a toast, never as a stack trace.
import { GmError } from '../../../core/api/replies.ts';

export interface Toast {
  id: number;
  text: string;
  tone: 'error' | 'info';
  /** What the toast is about ("encounter:<id>"): it goes away when that cause is gone, not only when its time is up. */
  cause?: string;
}

class Toasts {
  #items = $state<Toast[]>([]);
  #next = 1;

  get items(): Toast[] {
    return this.#items;
  }

  show(text: string, tone: Toast['tone'] = 'info', cause?: string): void {
    const id = this.#next++;
    this.#items = [...this.#items.slice(-3), { id, text, tone, ...(cause ? { cause } : {}) }];
    setTimeout(() => this.dismiss(id), tone === 'error' ? 8000 : 4000);
  }

  error(error: unknown, cause?: string): void {
    this.show(error instanceof GmError ? error.message : 'Something went wrong and nothing was changed.', 'error', cause);
    if (!(error instanceof GmError)) console.error(error);
  }

  dismiss(id: number): void {
    this.#items = this.#items.filter((t) => t.id !== id);
  }

  /** Takes away every toast about `cause`: a refusal once the GM's next action went through, a fight's notices once its screen closes. */
  clear(cause: string): void {
    if (this.#items.some((t) => t.cause === cause)) this.#items = this.#items.filter((t) => t.cause !== cause);
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
