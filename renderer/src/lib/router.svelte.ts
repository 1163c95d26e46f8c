// Hash routes, so the same build works from gmw://app/ and from http://127.0.0.1:port/ without a server fallback.
export type Route =
  | { name: 'campaigns' }
  | { name: 'campaign'; id: string }
  | { name: 'character'; campaignId: string; id: string | null; role: 'pc' | 'npc' }
  | { name: 'encounter'; id: string }
  | { name: 'log'; id: string }
  | { name: 'recovery'; campaignId: string }
  | { name: 'timeline'; campaignId: string }
  | { name: 'history'; campaignId: string; id: string }
  | { name: 'backups' }
  /** An address that leads to no screen: a broken %-escape, an unknown path, a missing id. */
  | { name: 'notFound' };

/** Each part of the path decoded, or null when one has a malformed %-escape (`#/%E0%A4%A`). */
function decodedParts(hash: string): string[] | null {
  try {
    return hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return null;
  }
}

export function parseRoute(hash: string): Route {
  const parts = decodedParts(hash);
  if (parts === null) return { name: 'notFound' };
  if (parts.length === 0) return { name: 'campaigns' };
  if (parts[0] === 'campaign' && parts[1]) {
    if (parts[2] === 'new-character') return { name: 'character', campaignId: parts[1], id: null, role: parts[3] === 'npc' ? 'npc' : 'pc' };
    if (parts[2] === 'character' && parts[3]) {
      if (parts[4] === 'history') return { name: 'history', campaignId: parts[1], id: parts[3] };
      return { name: 'character', campaignId: parts[1], id: parts[3], role: 'pc' };
    }
    if (parts[2] === 'recovery') return { name: 'recovery', campaignId: parts[1] };
    if (parts[2] === 'timeline') return { name: 'timeline', campaignId: parts[1] };
    return { name: 'campaign', id: parts[1] };
  }
  if (parts[0] === 'encounter' && parts[1]) return parts[2] === 'log' ? { name: 'log', id: parts[1] } : { name: 'encounter', id: parts[1] };
  if (parts[0] === 'backups') return { name: 'backups' };
  return { name: 'notFound' };
}

export const href = {
  campaigns: () => '#/',
  campaign: (id: string) => `#/campaign/${encodeURIComponent(id)}`,
  newCharacter: (campaignId: string, role: 'pc' | 'npc') => `#/campaign/${encodeURIComponent(campaignId)}/new-character/${role}`,
  character: (campaignId: string, id: string) => `#/campaign/${encodeURIComponent(campaignId)}/character/${encodeURIComponent(id)}`,
  encounter: (id: string) => `#/encounter/${encodeURIComponent(id)}`,
  log: (id: string) => `#/encounter/${encodeURIComponent(id)}/log`,
  recovery: (campaignId: string) => `#/campaign/${encodeURIComponent(campaignId)}/recovery`,
  timeline: (campaignId: string) => `#/campaign/${encodeURIComponent(campaignId)}/timeline`,
  history: (campaignId: string, id: string) => `#/campaign/${encodeURIComponent(campaignId)}/character/${encodeURIComponent(id)}/history`,
  backups: () => '#/backups',
};

class Router {
  #route = $state<Route>(parseRoute(typeof location === 'undefined' ? '' : location.hash));

  constructor() {
    if (typeof window !== 'undefined') {
      window.addEventListener('hashchange', () => {
        this.#route = parseRoute(location.hash);
      });
    }
  }

  get route(): Route {
    return this.#route;
  }

  go(hash: string): void {
    location.hash = hash;
  }
}

export const router = new Router();
