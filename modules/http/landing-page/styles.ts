// The landing page's stylesheet, inlined so the page needs no second request. Colours are custom properties with
// a dark set under prefers-color-scheme; text colours keep WCAG AA contrast, also inside muted (disabled) cards.
export const LANDING_PAGE_CSS = `
:root {
  color-scheme: light dark;
  --bg: #f5f6f8; --surface: #ffffff; --surface-2: #f0f2f5; --text: #1b1f24; --muted: #434a54;
  --border: #d8dde3; --accent: #b03f0c; --accent-soft: #fcefe6; --code-bg: #f1f3f6; --type: #1d5ba3;
  --danger: #a01d27; --danger-soft: #fbe9ea; --info-soft: #e7effa; --shadow: 0 1px 2px rgb(16 24 40 / 6%);
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0e1116; --surface: #161a21; --surface-2: #1c212a; --text: #e7eaef; --muted: #a7b0bc;
    --border: #2c333e; --accent: #ff9b5e; --accent-soft: #2f1e14; --code-bg: #10141a; --type: #8cbcff;
    --danger: #ff8d93; --danger-soft: #3a1a1e; --info-soft: #15243a; --shadow: none;
  }
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0; background: var(--bg); color: var(--text); line-height: 1.55;
  font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "DejaVu Sans", sans-serif;
}
code, pre { font-family: var(--mono); font-size: 0.9em; }
pre code, h3 code, .snippet figcaption code { font-size: inherit; }
a { color: var(--accent); }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; border-radius: 4px; }
.wrap { max-width: 1040px; margin: 0 auto; padding: 0 24px; }
.skip-link { position: absolute; left: -9999px; top: 8px; background: var(--surface); padding: 8px 12px; z-index: 2; }
.skip-link:focus { left: 8px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }

.masthead {
  border-top: 4px solid var(--accent); border-bottom: 1px solid var(--border); padding: 40px 0 0;
  background: radial-gradient(circle at 85% -40%, var(--accent-soft), transparent 60%), var(--surface);
}
.eyebrow { margin: 0 0 6px; color: var(--accent); font-weight: 700; font-size: 0.8rem; letter-spacing: 0.08em; text-transform: uppercase; }
.masthead h1 { margin: 0; font-size: clamp(1.8rem, 4vw, 2.5rem); line-height: 1.15; letter-spacing: -0.02em; }
.identity { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 12px 0 0; color: var(--muted); }
.identity code { color: var(--text); }
.summary { margin: 10px 0 0; color: var(--muted); }
.toc ul { display: flex; flex-wrap: wrap; gap: 4px; list-style: none; margin: 24px 0 0; padding: 0; }
.toc a {
  display: inline-flex; gap: 6px; align-items: center; padding: 10px 14px; color: var(--text);
  text-decoration: none; font-weight: 600; border-bottom: 2px solid transparent;
}
.toc a:hover { border-bottom-color: var(--accent); }

main { padding-bottom: 48px; }
section { margin-top: 44px; scroll-margin-top: 16px; }
h2 { display: flex; align-items: center; gap: 10px; margin: 0 0 6px; font-size: 1.45rem; letter-spacing: -0.01em; }
.section-intro { margin: 0 0 18px; color: var(--muted); }
.count {
  display: inline-block; min-width: 1.7em; padding: 1px 8px; border-radius: 999px; text-align: center;
  font-size: 0.8rem; font-weight: 600; background: var(--surface-2); color: var(--muted); border: 1px solid var(--border);
}
.empty { color: var(--muted); font-style: italic; margin: 8px 0; }

.instructions {
  margin: 14px 0 0; padding: 16px 20px; background: var(--surface); border: 1px solid var(--border);
  border-left: 4px solid var(--accent); border-radius: 10px; white-space: pre-line;
}

.snippet { margin: 16px 0 0; }
.snippet figcaption {
  display: flex; justify-content: space-between; align-items: flex-end; gap: 12px; min-height: 28px;
  margin: 0 0 6px; font-size: 0.88rem; font-weight: 600; color: var(--muted);
}
.snippet pre {
  margin: 0; padding: 12px 16px; background: var(--code-bg); border: 1px solid var(--border);
  border-radius: 10px; overflow-x: auto; line-height: 1.5;
}
.snippet--endpoint pre, .snippet--cli pre { white-space: pre-wrap; overflow-wrap: anywhere; }
.snippet--endpoint pre { font-size: 1.05rem; font-weight: 600; color: var(--accent); }
.copy {
  flex: none; padding: 3px 12px; font: 600 0.8rem system-ui, sans-serif;
  color: var(--text); background: var(--surface); border: 1px solid var(--border); border-radius: 6px; cursor: pointer;
}
.copy:hover { border-color: var(--accent); }

.cards { display: grid; gap: 16px; }
.card {
  background: var(--surface); border: 1px solid var(--border); border-radius: 12px; padding: 20px 22px;
  box-shadow: var(--shadow); scroll-margin-top: 16px; min-width: 0;
}
.card:target { border-color: var(--accent); box-shadow: 0 0 0 3px var(--accent-soft); }
.card-head { display: flex; flex-wrap: wrap; gap: 8px 16px; justify-content: space-between; align-items: flex-start; }
.card-name { margin: 0; font-size: 1.1rem; word-break: break-word; }
.card-name a { color: var(--text); text-decoration: none; }
.card-name a:hover { text-decoration: underline; }
.card-name code { font-weight: 700; }
.card-title { margin: 2px 0 0; color: var(--muted); font-weight: 500; }
.card-desc { margin: 12px 0 0; white-space: pre-line; }
.sub-heading {
  margin: 18px 0 8px; font-size: 0.78rem; font-weight: 700; color: var(--muted); text-transform: uppercase; letter-spacing: 0.07em;
}
.badges { display: flex; flex-wrap: wrap; gap: 6px; }
.badge {
  display: inline-block; padding: 2px 9px; border-radius: 999px; font-size: 0.78rem; font-weight: 600;
  border: 1px solid var(--border); background: var(--surface-2); color: var(--muted); white-space: nowrap;
}
.badge--version { color: var(--text); font-family: var(--mono); }
.badge--disabled { background: var(--danger-soft); color: var(--danger); border-color: currentColor; }
.badge--template { background: var(--info-soft); color: var(--type); border-color: transparent; }
.badge--task { background: var(--info-soft); color: var(--type); border-color: currentColor; }
.badge--mime { font-family: var(--mono); font-weight: 500; }
.badge--protected { background: var(--info-soft); color: var(--type); border-color: currentColor; }
.protected-note { margin: 0 0 16px; padding: 12px 16px; border-left: 3px solid var(--accent); background: var(--surface-2); border-radius: 8px; }
.protected-note p { margin: 0; }
.scopes { margin: 12px 0 0; display: flex; flex-wrap: wrap; gap: 8px; align-items: baseline; }
.scopes code { padding: 2px 7px; background: var(--code-bg); border: 1px solid var(--border); border-radius: 6px; }

.tool--disabled { opacity: 0.8; background: var(--surface-2); border-style: dashed; box-shadow: none; }
.tool--disabled .card-name code { text-decoration: line-through; text-decoration-thickness: 1px; }
.tool--disabled .type, .tool--disabled .req--yes { color: var(--muted); }
.disabled-note { margin: 14px 0 0; padding: 12px 16px; border-left: 3px solid var(--danger); background: var(--surface); border-radius: 8px; }
.disabled-note p { margin: 0; }
.hint { margin: 10px 0 0; padding: 10px 12px; background: var(--code-bg); border: 1px solid var(--border); border-radius: 6px; white-space: pre-wrap; }

.uri { margin: 12px 0 0; display: flex; flex-wrap: wrap; gap: 8px; align-items: baseline; }
.uri-label { font-size: 0.78rem; font-weight: 700; color: var(--muted); text-transform: uppercase; letter-spacing: 0.06em; }
.uri code { padding: 3px 8px; background: var(--code-bg); border: 1px solid var(--border); border-radius: 6px; word-break: break-all; }
.uri-var { color: var(--accent); font-weight: 700; }

.table-scroll { overflow-x: auto; border: 1px solid var(--border); border-radius: 10px; }
.params { width: 100%; border-collapse: collapse; font-size: 0.92rem; }
.params th, .params td { padding: 9px 12px; text-align: left; vertical-align: top; border-top: 1px solid var(--border); }
.params thead th {
  border-top: 0; background: var(--surface-2); font-size: 0.74rem; font-weight: 700; color: var(--muted);
  text-transform: uppercase; letter-spacing: 0.06em;
}
.params thead th:nth-child(-n+3) { width: 1%; white-space: nowrap; }
.params tbody th { font-weight: 400; white-space: nowrap; }
.params tr.depth-1 th { padding-left: 30px; } .params tr.depth-2 th { padding-left: 48px; }
.params tr.depth-3 th { padding-left: 66px; } .params tr.depth-4 th { padding-left: 84px; }
.params tr:not(.depth-0) { background: color-mix(in srgb, var(--surface-2) 45%, transparent); }
.param-name { font-weight: 700; }
.path-parent { font-weight: 400; color: var(--muted); }
.type { color: var(--type); white-space: nowrap; }
.req { font-size: 0.8rem; font-weight: 700; }
.req--yes { color: var(--accent); }
.req--no { color: var(--muted); font-weight: 500; }
.param-doc p { margin: 0; }
.facts { list-style: none; margin: 4px 0 0; padding: 0; display: flex; flex-wrap: wrap; gap: 4px 14px; font-size: 0.85rem; color: var(--muted); }
.facts code { padding: 0 5px; background: var(--code-bg); border: 1px solid var(--border); border-radius: 4px; color: var(--text); }
.fact-label { font-weight: 600; }
.variants-intro { margin: 14px 0 8px; color: var(--muted); }
.variant { margin: 10px 0 0; padding-left: 14px; border-left: 3px solid var(--border); }
.variant-title { margin: 0 0 6px; font-size: 0.95rem; font-family: var(--mono); }
.variant-doc { margin: 0 0 8px; color: var(--muted); }

.site-footer { padding: 24px; border-top: 1px solid var(--border); color: var(--muted); font-size: 0.88rem; text-align: center; }
@media (max-width: 640px) {
  .wrap { padding: 0 16px; }
  .card { padding: 16px; }
  /* Four columns do not fit a phone: each row becomes a block, name, type and requirement over its description. */
  .params thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  .params, .params tbody { display: block; }
  .params tr { display: flex; flex-wrap: wrap; align-items: baseline; gap: 2px 10px; padding: 10px 12px; }
  .params tr + tr { border-top: 1px solid var(--border); }
  .params th, .params td { display: block; padding: 0; border: 0; }
  .params tbody th { white-space: normal; overflow-wrap: anywhere; }
  .params td.param-doc { flex-basis: 100%; }
  .params tr.depth-1 th, .params tr.depth-2 th, .params tr.depth-3 th, .params tr.depth-4 th { padding-left: 0; }
  .params tr.depth-1 { padding-left: 24px; } .params tr.depth-2 { padding-left: 36px; }
  .params tr.depth-3 { padding-left: 48px; } .params tr.depth-4 { padding-left: 60px; }
}
@media print { .copy, .toc, .skip-link { display: none; } .card { break-inside: avoid; } }
`;
