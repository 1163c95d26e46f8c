// Several rows of the order of battle picked at once (issue 28 point 4): the runner's row checkboxes fill it, the
// selection bar (components/SelectionBar.svelte) acts on every one of them in one event.
export { BATCH_MAX } from '../../../core/encounter/limits.ts';

export class Selection {
  #ids = $state<string[]>([]);
  /** The row last ticked or unticked: a Shift+click reaches from it. */
  #anchor: string | null = null;

  get ids(): readonly string[] {
    return this.#ids;
  }

  get size(): number {
    return this.#ids.length;
  }

  has(id: string): boolean {
    return this.#ids.includes(id);
  }

  toggle(id: string, on = !this.has(id)): void {
    if (on && !this.has(id)) this.#ids = [...this.#ids, id];
    else if (!on) this.#ids = this.#ids.filter((other) => other !== id);
  }

  /**
   * A row's box clicked (or its key pressed). With Shift, every row from the one clicked before to this one, in the
   * order shown (`shown`: ids top to bottom), takes this one's new state, as in a file manager's list.
   */
  click(id: string, on: boolean, range = false, shown: readonly string[] = []): void {
    const from = range && this.#anchor ? shown.indexOf(this.#anchor) : -1;
    const to = shown.indexOf(id);
    if (from >= 0 && to >= 0) {
      const span = shown.slice(Math.min(from, to), Math.max(from, to) + 1);
      this.#ids = on ? [...this.#ids, ...span.filter((other) => !this.has(other))] : this.#ids.filter((other) => !span.includes(other));
    } else this.toggle(id, on);
    this.#anchor = id;
  }

  clear(): void {
    this.#ids = [];
    this.#anchor = null;
  }

  /** The selected among these combatants, in their order (one taken out of the fight drops out of the selection). */
  among<T extends { id: string }>(combatants: readonly T[]): T[] {
    return combatants.filter((c) => this.#ids.includes(c.id));
  }
}
