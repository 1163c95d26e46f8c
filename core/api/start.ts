// The calls the page makes at start when it opens on the campaign list, in the order it sends them
// (renderer/src/lib/start-calls.ts). Web mode makes the first before it prints its address and the others once in
// the idle time after it, while the browser loads the page (server/first-screen.ts), so that the page's own calls
// are only their work. One list, so that the two cannot drift apart.

/** What the campaign list asks for: archived campaigns too (the list shows them apart). */
export const CAMPAIGN_LIST_INPUT = { includeArchived: true } as const;

export const START_CALLS = [
  ['recovery:status', {}],
  ['campaigns:list', CAMPAIGN_LIST_INPUT],
  ['app:info', {}],
] as const satisfies readonly (readonly [name: string, input: object])[];
