// Several rows of the order of battle picked at once (issue 28 point 4): the runner's row checkboxes fill it, the
// selection bar (components/SelectionBar.svelte) acts on every one of them in one event.
export { BATCH_MAX } from '../../../core/encounter/schemas.ts';

export class Selection {
  #ids = $state<string[]>([]);

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

  clear(): void {
    this.#ids = [];
  }

  /** The selected among these combatants, in their order (one taken out of the fight drops out of the selection). */
  among<T extends { id: string }>(combatants: readonly T[]): T[] {
    return combatants.filter((c) => this.#ids.includes(c.id));
  }
}
