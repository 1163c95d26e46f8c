// The one Content-Security-Policy for every page the app serves, desktop (gmw://app) and web mode alike.
// Scripts and styles come only from the app itself (no eval, no inline scripts); `style-src-attr 'unsafe-inline'`
// lets Svelte set `style=` attributes; nothing may reach a network.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');
