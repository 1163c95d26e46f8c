// What the app's replies and refusals share with the page, without the request schemas: the page's start loads this
// and not zod (core/api/contract.ts re-exports it for the app's side).

/**
 * `refused`: the GM asked for something the rules or the data forbid (a sentence to show);
 * `invalid`: the payload is malformed; `notFound`; `internal`: a bug or an I/O failure (logged, shown generically);
 * `stale`: a write from a screen the encounter has moved past (STALE_SCREEN): nothing was written, read it again.
 */
export type ErrorKind = 'refused' | 'invalid' | 'notFound' | 'internal' | 'stale';

/** An error a GM can read, with its kind. */
export class GmError extends Error {
  override name = 'GmError';
  constructor(
    message: string,
    readonly kind: ErrorKind = 'refused',
  ) {
    super(message);
  }
}

/**
 * The refusal of a write whose screen the encounter has moved past (see logSinceSchema): nothing was written, and
 * the screen reads the encounter again. It travels with the error kind `stale`, which is how the page knows it.
 */
export const STALE_SCREEN = 'The fight moved on since this screen was drawn (in another window, or by a second press); it now shows the newest state. Nothing was changed.';

/** How many of a history's or a timeline session's items a reply carries unless asked for all (the newest). */
export const ITEMS_SENT = 200;
/** How many of a character's open, and healed, injuries and wounds a history carries unless asked for all. */
export const OPEN_RECORDS_SENT = 50;
export const HEALED_RECORDS_SENT = 24;
/** How much of a treatment's line a history's record card shows (and a history carries). */
export const ENTRY_TEXT_SENT = 200;

/** `text` cut to at most `max` characters, with an ellipsis where it was cut. */
export const cutText = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);

/** How many of the newest events' log lines come with every encounter detail. */
export const LOG_TAIL_EVENTS = 200;
