// Dark and light themes; the choice is remembered on this device.
type Theme = 'dark' | 'light';
const KEY = 'gmw-theme';

class ThemeState {
  #current = $state<Theme>('dark');

  constructor() {
    if (typeof window === 'undefined') return;
    const stored = localStorage.getItem(KEY);
    const preferred: Theme = window.matchMedia?.('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
    this.apply(stored === 'light' || stored === 'dark' ? stored : preferred);
  }

  get current(): Theme {
    return this.#current;
  }

  toggle(): void {
    this.apply(this.#current === 'dark' ? 'light' : 'dark');
    localStorage.setItem(KEY, this.#current);
  }

  private apply(theme: Theme): void {
    this.#current = theme;
    document.documentElement.dataset['theme'] = theme;
  }
}

export const theme = new ThemeState();
