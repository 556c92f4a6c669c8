// The playground's styles, added to the page's inline stylesheet only when the playground is offered. They reuse the
// page's custom properties, so the dark scheme and contrast carry over.
export const PLAYGROUND_CSS = `
.playground .pg-root:empty { display: none; }
.pg-grid { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 16px; align-items: start; }
.pg-request, .pg-output, .pg-token {
  background: var(--surface); border: 1px solid var(--border); border-radius: 12px; padding: 18px 20px; min-width: 0;
  box-shadow: var(--shadow);
}
.pg-token { margin: 0 0 16px; }
.pg-token-intro { margin: 0 0 12px; }
.pg-request h3, .pg-output h3 { margin: 0 0 12px; font-size: 1.05rem; }
.pg-field { display: grid; gap: 4px; margin: 0 0 12px; }
.pg-field label { font-weight: 600; font-size: 0.92rem; }
.pg-field input[type="checkbox"] { justify-self: start; width: 1.1rem; height: 1.1rem; margin: 2px 0; }
.pg-label { display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; }
.pg-inline { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 0; }
.pg-name { font-family: var(--mono); font-size: 0.9rem; }
.pg-req, .pg-opt { font-size: 0.75rem; font-weight: 700; }
.pg-req { color: var(--accent); }
.pg-opt { color: var(--muted); font-weight: 500; }
.pg-hint { margin: 0; color: var(--muted); font-size: 0.85rem; }
.playground input:not([type="checkbox"]), .playground select, .playground textarea {
  font: inherit; font-size: 0.92rem; color: var(--text); background: var(--bg); border: 1px solid var(--border);
  border-radius: 6px; padding: 6px 8px; min-width: 0; width: 100%;
}
.pg-inline input:not([type="checkbox"]), .pg-inline select { width: auto; flex: 1 1 12em; }
.playground textarea { resize: vertical; }
.pg-json, .playground textarea.pg-json { font-family: var(--mono); }
.playground button {
  font: 600 0.88rem system-ui, sans-serif; color: var(--text); background: var(--surface-2);
  border: 1px solid var(--border); border-radius: 6px; padding: 6px 14px; cursor: pointer;
}
.playground button:hover:not(:disabled) { border-color: var(--accent); }
.playground button:disabled { opacity: 0.55; cursor: default; }
.playground .pg-run, .pg-answer--accept { background: var(--accent); border-color: var(--accent); color: var(--surface); }
.pg-try { margin-left: auto; font: 600 0.8rem system-ui, sans-serif; color: var(--accent); background: var(--surface); border: 1px solid var(--accent); border-radius: 6px; padding: 3px 12px; cursor: pointer; }
.pg-forget { margin: 0 0 16px; }
.pg-actions { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; margin-top: 16px; }
.pg-target-doc { margin: 0 0 12px; color: var(--muted); }
.pg-group { border: 1px solid var(--border); border-radius: 8px; padding: 8px 12px 4px; margin: 0 0 12px; min-width: 0; }
.pg-group legend { padding: 0 4px; display: flex; gap: 8px; align-items: baseline; }
.pg-include, .pg-check { display: flex; gap: 8px; align-items: center; margin: 4px 0 10px; }
.pg-items { list-style: none; margin: 8px 0; padding: 0; display: grid; gap: 8px; }
.pg-item { border-left: 3px solid var(--border); padding-left: 10px; }
.pg-item-head { display: flex; justify-content: space-between; align-items: center; gap: 8px; margin-bottom: 4px; font-size: 0.85rem; color: var(--muted); }
.pg-add { margin-bottom: 8px; }
.pg-variant { border-left: 3px solid var(--accent-soft); padding-left: 10px; }
.pg-const { margin: 0 0 12px; font-size: 0.92rem; }
.pg-empty { color: var(--muted); font-style: italic; margin: 0 0 8px; }
.pg-status { margin: 0 0 8px; font-weight: 600; }
.pg-events { list-style: none; margin: 0 0 8px; padding: 0; font-family: var(--mono); font-size: 0.85rem; }
.pg-events:empty { display: none; }
.pg-event { display: flex; flex-wrap: wrap; gap: 6px 10px; align-items: center; padding: 4px 0; border-top: 1px dashed var(--border); }
.pg-event progress { flex: 1 1 8em; accent-color: var(--accent); }
.pg-level { font-weight: 700; text-transform: uppercase; font-size: 0.75rem; color: var(--type); }
.pg-level--warning, .pg-level--error, .pg-level--critical { color: var(--danger); }
.pg-part { margin: 12px 0 0; }
.pg-part h4 { margin: 0 0 6px; font-size: 0.78rem; font-weight: 700; color: var(--muted); text-transform: uppercase; letter-spacing: 0.07em; }
.pg-part pre, .pg-raw pre {
  margin: 0; padding: 10px 12px; background: var(--code-bg); border: 1px solid var(--border); border-radius: 8px;
  overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 28em;
}
.pg-part--error { padding: 10px 14px; border-left: 3px solid var(--danger); background: var(--danger-soft); border-radius: 8px; }
.pg-part--error h4 { color: var(--danger); }
.pg-error-message { margin: 0 0 6px; font-weight: 600; }
.pg-dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 4px 12px; margin: 0; }
.pg-dl dt { font-weight: 600; color: var(--muted); }
.pg-dl dd { margin: 0; overflow-wrap: anywhere; }
.pg-messages { margin: 0; padding-left: 1.2em; }
.pg-role { margin: 0 0 4px; font-weight: 700; text-transform: capitalize; }
.pg-image { max-width: 100%; border-radius: 6px; }
.pg-input { margin: 12px 0 0; }
.pg-input-body { border: 2px solid var(--accent); border-radius: 10px; padding: 10px 14px; margin: 0; min-width: 0; }
.pg-input-body legend { font-weight: 700; padding: 0 4px; }
.pg-ask-message { margin: 0 0 10px; font-weight: 600; }
.pg-ask--consent .pg-ask-message { font-size: 1.05rem; }
.pg-problem { margin: 0; color: var(--danger); }
.pg-problem:empty { display: none; }
.pg-answered { margin: 0; color: var(--muted); font-style: italic; }
.pg-raw { margin: 14px 0 0; }
.pg-raw summary { cursor: pointer; font-weight: 600; color: var(--muted); }
.pg-raw-head { margin: 10px 0 4px; font-size: 0.8rem; font-weight: 700; color: var(--muted); }
@media (max-width: 900px) { .pg-grid { grid-template-columns: minmax(0, 1fr); } }
@media print { .playground { display: none; } }
`;
