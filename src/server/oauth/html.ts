import type { FastifyReply } from 'fastify';

// Server-rendered pages of the sign-in, consent and connections screens: plain HTML forms that
// work without JavaScript, one small inline stylesheet, readable on a phone and a laptop.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const esc = (value: unknown) => String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]);

const STYLE = `
:root{color-scheme:light dark;--fg:#1c2024;--muted:#5f6b76;--bg:#f6f7f9;--card:#fff;--line:#d9dee3;--accent:#1f6feb;--danger:#c62828}
@media (prefers-color-scheme:dark){:root{--fg:#e6e9ec;--muted:#9aa5b1;--bg:#111418;--card:#1b1f24;--line:#2e353d;--accent:#4c8df6;--danger:#ef5350}}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:46rem;margin:0 auto;padding:1.25rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:1.25rem 1.5rem;margin:1rem 0}
h1{font-size:1.4rem;margin:.2rem 0 1rem}h2{font-size:1.1rem;margin:1.2rem 0 .5rem}
.muted{color:var(--muted)}.brand{font-weight:700;letter-spacing:.02em;color:var(--muted)}
label{display:block;margin:.6rem 0 .2rem;font-weight:600}
input[type=text],input[type=email],input[type=password]{width:100%;padding:.6rem .7rem;font:inherit;border:1px solid var(--line);border-radius:8px;background:transparent;color:inherit}
.choice{display:flex;gap:.6rem;align-items:flex-start;border:1px solid var(--line);border-radius:10px;padding:.7rem .9rem;margin:.5rem 0;font-weight:400}
.choice input{margin-top:.35rem}.choice strong{display:block}
details{margin:.3rem 0 .2rem}summary{cursor:pointer;color:var(--accent)}
ul.ops{margin:.2rem 0 .6rem;padding-left:1.1rem;font-size:.92rem}ul.ops code{font-size:.85rem}
.perms{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:.2rem .8rem}
.perms label{font-weight:400;margin:.15rem 0}
.actions{display:flex;gap:.75rem;flex-wrap:wrap;margin-top:1.2rem}
button{font:inherit;font-weight:600;padding:.65rem 1.2rem;border-radius:8px;border:1px solid var(--line);background:transparent;color:inherit;cursor:pointer}
button.primary{background:var(--accent);border-color:var(--accent);color:#fff}button.danger{color:var(--danger);border-color:var(--danger)}
.error{border-color:var(--danger);color:var(--danger)}
table{width:100%;border-collapse:collapse;font-size:.93rem}th,td{text-align:left;padding:.5rem .4rem;border-bottom:1px solid var(--line);vertical-align:top}
@media (max-width:600px){table,thead,tbody,tr,th,td{display:block}thead{display:none}tr{border-bottom:1px solid var(--line);padding:.5rem 0}td{border:0;padding:.15rem 0}}
`;

export interface PageOptions {
  /** Origins a form on this page may send the browser to after a redirect (CSP form-action). */
  formTargets?: string[];
  status?: number;
}

/** Sends a whole page with the headers every one of these pages needs. */
export function sendPage(reply: FastifyReply, title: string, body: string, opts: PageOptions = {}) {
  // Never '*' nor omitted: only this server and the origins (or private-use schemes) given.
  const targets = (opts.formTargets ?? []).filter((t) => t !== '*' && /^[a-z][a-z0-9+.-]*:(\/\/[^\s;,'"]+)?$/i.test(t));
  const formAction = `form-action 'self'${targets.map((t) => ` ${t}`).join('')}`;
  const csp = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    formAction,
  ]
    .filter(Boolean)
    .join('; ');
  return reply
    .code(opts.status ?? 200)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', csp)
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)} · fos</title><style>${STYLE}</style></head><body><main><div class="brand">fos</div>${body}</main></body></html>`);
}

export const errorBox = (message: string | undefined) => (message ? `<div class="card error" role="alert">${esc(message)}</div>` : '');
export const hidden = (name: string, value: string) => `<input type="hidden" name="${esc(name)}" value="${esc(value)}">`;
