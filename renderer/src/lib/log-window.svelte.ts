// The full log screen's lines, a few pages at a time: the screen says which lines it draws, this class asks the app
// for the pages that hold them (encounters:logPage) and forgets the pages furthest from there, so a fight of
// 100,000 lines costs the renderer what a fight of a few hundred does (issue 30). A change to the encounter, or to
// the filter, reads the drawn pages again.
import { untrack } from 'svelte';
import type { LogPage, LogPageLine } from '../../../core/api/contract.ts';
import { GmError } from '../../../core/api/replies.ts';
import type { ChangeNotice } from '../../../core/api/names.ts';
import { showsEveryLine, type LogFilter } from '../../../core/encounter/log-filter.ts';
import { onChanged, send } from './api.ts';

/** Lines per request, and how many pages are kept (the drawn ones and their neighbours). */
export const LOG_PAGE_LINES = 100;
export const LOG_PAGES_KEPT = 6;

/** A page as held: its lines, and the generation (see LogWindow) it was read in. */
interface HeldPage {
  lines: readonly LogPageLine[];
  generation: number;
}

export class LogWindow {
  #pages = $state.raw<ReadonlyMap<number, HeldPage>>(new Map());
  #shown = $state(0);
  #lineCount = $state(0);
  #loaded = $state(false);
  #error = $state<string | null>(null);
  /** Pages asked for and not yet answered, in this generation. */
  #asking = new Set<number>();
  /**
   * Bumped by a change notice or another filter: an answer from before is dropped, and the drawn pages are read
   * again (after a change the held ones stay drawn until then; after another filter they go at once).
   */
  #generation = 0;
  #filter: LogFilter = { kind: 'all', combatant: null, query: '' };
  /** The lines the screen draws, [from, to). */
  #wanted = { from: 0, to: LOG_PAGE_LINES };
  #stop: () => void;

  constructor(private readonly id: string) {
    this.#stop = onChanged((notice: ChangeNotice) => {
      if (notice.area === 'encounters' && notice.id === this.id) this.#restart();
    });
    this.#fetchWanted();
  }

  /** How many lines the view has (all of the log's, or those the filter matches). */
  get shown(): number {
    return this.#shown;
  }
  /** How many lines the whole log has. */
  get lineCount(): number {
    return this.#lineCount;
  }
  /** Whether the first page has come (before it, the screen says nothing about an empty log). */
  get loaded(): boolean {
    return this.#loaded;
  }
  get error(): string | null {
    return this.#error;
  }
  /** How many lines are held in memory (at most LOG_PAGES_KEPT pages). */
  get held(): number {
    let lines = 0;
    for (const page of this.#pages.values()) lines += page.lines.length;
    return lines;
  }

  /** Line `index` of the view, or undefined while its page is on its way. */
  line(index: number): LogPageLine | undefined {
    return this.#pages.get(Math.floor(index / LOG_PAGE_LINES))?.lines[index % LOG_PAGE_LINES];
  }

  /** The lines the GM sees now: their pages are asked for, and the pages furthest from them are forgotten. */
  show(from: number, to: number): void {
    this.#wanted = { from, to };
    // Called from the screen's effect: what is held is read here without the effect depending on it.
    untrack(() => this.#fetchWanted(false));
  }

  /** Another filter: the view starts again from what the screen draws. */
  filter(filter: LogFilter): void {
    if (JSON.stringify(filter) === JSON.stringify(this.#filter)) return;
    this.#filter = filter;
    this.#pages = new Map();
    this.#restart();
  }

  dispose(): void {
    this.#stop();
  }

  #restart(): void {
    this.#generation += 1;
    this.#asking.clear();
    this.#fetchWanted(true);
  }

  #wantedPages(): { first: number; last: number } {
    const first = Math.floor(this.#wanted.from / LOG_PAGE_LINES);
    return { first, last: Math.max(first, Math.floor((Math.max(this.#wanted.to, this.#wanted.from + 1) - 1) / LOG_PAGE_LINES)) };
  }

  /** Asks for every page the wanted lines touch that is not held in this generation. */
  #fetchWanted(again = false): void {
    const { first, last } = this.#wantedPages();
    for (let page = first; page <= last; page += 1) {
      const held = this.#pages.get(page);
      if ((again || held?.generation !== this.#generation) && !this.#asking.has(page)) void this.#fetch(page);
    }
  }

  async #fetch(page: number): Promise<void> {
    const generation = this.#generation;
    this.#asking.add(page);
    const filter = this.#filter;
    let reply: LogPage;
    try {
      reply = await send('encounters:logPage', { id: this.id, from: page * LOG_PAGE_LINES, count: LOG_PAGE_LINES, ...(showsEveryLine(filter) ? {} : { filter }) });
    } catch (error) {
      if (generation === this.#generation) this.#error = error instanceof GmError ? error.message : 'The log could not be loaded.';
      return;
    } finally {
      if (generation === this.#generation) this.#asking.delete(page);
    }
    if (generation !== this.#generation) return;
    const { first, last } = this.#wantedPages();
    const pages = new Map(this.#pages);
    pages.set(page, { lines: reply.lines, generation });
    for (const [number, held] of pages) {
      // A page of an older generation is kept only while it is drawn and its new reading is on its way.
      if (held.generation !== generation && (number < first || number > last)) pages.delete(number);
    }
    // Keep the pages nearest the drawn lines.
    const nearest = [...pages.keys()].sort((a, b) => Math.abs(a - first) - Math.abs(b - first));
    for (const far of nearest.slice(LOG_PAGES_KEPT)) pages.delete(far);
    this.#pages = pages;
    this.#shown = reply.shown;
    this.#lineCount = reply.lineCount;
    this.#loaded = true;
    this.#error = null;
  }
}
