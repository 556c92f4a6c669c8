// The playground itself: the token gate under auth (the token lives in this page's memory only), the picker over
// tools, resources, templates and prompts, the generated form, and a run that follows input_required rounds,
// answering elicitation forms and consent gates in the page, until the call completes.
import { byId, el } from './dom.js';
import { argumentsForm, type ObjectField } from './form.js';
import { askForInput } from './input.js';
import type { JsonRpcAnswer, ServerNotification } from './mcp-messages.js';
import {
  errorPart,
  exchangeLog,
  type LoggedExchange,
  notificationLine,
  promptResultParts,
  resourceResultParts,
  toolResultParts,
} from './output.js';
import { setStatus } from './status.js';
import { schemaOf, type Target, type TargetKind, targets } from './targets.js';
import { expandTemplate } from './uri-template.js';
import { errorMessage, isAbort, isObject, type JsonObject } from './values.js';
import { headerParamHeaders, headerParamsOf, mcpRequest, upcomingRequestId } from './wire.js';

// Rounds one call may take before the page stops following the server's input requests.
const MAX_ROUNDS = 12;
/** The card ids the landing page gives: tool-, resource- (templates too) and prompt- before the name. */
const CARD_PREFIXES: Partial<Record<TargetKind, string>> = {
  tool: 'tool-',
  resource: 'resource-',
  template: 'resource-',
  prompt: 'prompt-',
};

let token: string | undefined;
let running: AbortController | undefined;
let form: ObjectField | undefined;

/** One run of a target: what every round of it sends and shares. */
interface Call {
  readonly target: Target;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
  readonly exchanges: LoggedExchange[];
}

const home = () => byId('pg-root', HTMLElement);

/** Starts the playground, or under auth waits for a bearer token first. */
export function tokenGate(): void {
  const gate = document.getElementById('pg-token');
  if (!gate) {
    start();
    return;
  }
  const input = gate.querySelector('input');
  const forget = byId('pg-forget', HTMLElement);
  if (!input) return;
  gate.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = input.value.trim().replace(/^Bearer\s+/i, '');
    input.value = '';
    if (!value) return;
    token = value;
    gate.hidden = true;
    forget.hidden = false;
    start();
  });
  forget.addEventListener('click', () => {
    token = undefined;
    running?.abort();
    home().replaceChildren();
    forget.hidden = true;
    gate.hidden = false;
    input.focus();
  });
}

function start(): void {
  home().replaceChildren(workspace());
  addTryButtons();
  choose();
}

function workspace(): HTMLElement {
  const picker = el('select', { id: 'pg-target' });
  const groups = [
    ['tool', 'Tools'],
    ['resource', 'Resources'],
    ['template', 'Resource templates'],
    ['prompt', 'Prompts'],
  ] as const;
  for (const [kind, label] of groups) {
    const group = el('optgroup', { label });
    for (const [value, target] of targets) {
      if ((target.kind === 'uri' ? target.group : target.kind) !== kind) continue;
      const name =
        target.item.name + ('title' in target.item && target.item.title ? ` \u00b7 ${target.item.title}` : '');
      group.append(el('option', { value, text: name }));
    }
    if (group.children.length > 0) picker.append(group);
  }
  picker.addEventListener('change', choose);
  const levels = ['', 'debug', 'info', 'notice', 'warning', 'error'];
  const level = el(
    'select',
    { id: 'pg-log-level' },
    levels.map((value) => el('option', { value, text: value || 'none', selected: value === 'info' })),
  );
  const stop = el('button', { type: 'button', className: 'pg-stop', id: 'pg-stop', disabled: true, text: 'Stop' });
  const request = el(
    'form',
    { className: 'pg-request', id: 'pg-form', novalidate: true, 'aria-labelledby': 'pg-request-heading' },
    [
      el('h3', { id: 'pg-request-heading', text: 'Request' }),
      el('div', { className: 'pg-field' }, [
        el('label', { for: 'pg-target', text: 'Tool, resource or prompt' }),
        picker,
      ]),
      el('p', { className: 'pg-target-doc', id: 'pg-target-doc' }),
      el('div', { id: 'pg-args' }),
      el('div', { className: 'pg-actions' }, [
        el('div', { className: 'pg-field pg-inline' }, [
          el('label', { for: 'pg-log-level', text: 'Log messages' }),
          level,
        ]),
        el('button', { type: 'submit', className: 'pg-run', id: 'pg-run', text: 'Run' }),
        stop,
      ]),
    ],
  );
  request.addEventListener('submit', (event) => {
    event.preventDefault();
    void run();
  });
  stop.addEventListener('click', () => running?.abort());
  const output = el('div', { className: 'pg-output', role: 'region', 'aria-labelledby': 'pg-output-heading' }, [
    el('h3', { id: 'pg-output-heading', text: 'Response' }),
    el('p', { className: 'pg-status', id: 'pg-status', role: 'status', text: 'Nothing sent yet.' }),
    el('ol', { className: 'pg-events', id: 'pg-events', 'aria-label': 'Notifications', 'aria-live': 'polite' }),
    el('div', { className: 'pg-result', id: 'pg-result', 'aria-live': 'polite' }),
  ]);
  return el('div', { className: 'pg-grid' }, [request, output]);
}

/** "Try it" on each card the playground can run: picks it and moves focus to the form. */
function addTryButtons(): void {
  for (const [value, target] of targets) {
    const prefix = CARD_PREFIXES[target.kind];
    const card = prefix && document.getElementById(prefix + target.item.name.replace(/[^A-Za-z0-9_-]/g, '-'));
    if (!card || card.querySelector('.pg-try')) continue;
    const button = el('button', {
      type: 'button',
      className: 'pg-try',
      text: 'Try it',
      'aria-label': `Try ${target.item.name} in the playground`,
    });
    button.addEventListener('click', () => {
      const picker = document.getElementById('pg-target');
      if (!(picker instanceof HTMLSelectElement)) return;
      picker.value = value;
      choose();
      document.getElementById('playground')?.scrollIntoView();
      picker.focus();
    });
    card.querySelector('.card-head')?.append(button);
  }
}

function choose(): void {
  const target = targets.get(byId('pg-target', HTMLSelectElement).value);
  const holder = byId('pg-args', HTMLElement);
  const doc = byId('pg-target-doc', HTMLElement);
  holder.replaceChildren();
  form = undefined;
  if (!target) return;
  byId('pg-run', HTMLButtonElement).textContent = target.verb;
  const item = target.item;
  doc.replaceChildren(item.description || '');
  if ('uri' in item) doc.append(' ', el('code', { text: item.uri }));
  form = argumentsForm(schemaOf(target));
  holder.append(form.node);
}

/** The method and params that run a target with the form's values. */
function requestFor(target: Target, values: JsonObject): readonly [string, JsonObject] {
  switch (target.kind) {
    case 'tool':
      return ['tools/call', { name: target.item.name, arguments: values }];
    case 'resource':
      return ['resources/read', { uri: target.item.uri }];
    case 'template':
      return ['resources/read', { uri: expandTemplate(target.item.uri, values) }];
    case 'uri':
      return ['resources/read', { uri: values.uri }];
    case 'prompt':
      return ['prompts/get', { name: target.item.name, arguments: values }];
  }
}

async function run(): Promise<void> {
  const target = targets.get(byId('pg-target', HTMLSelectElement).value);
  if (!target || !form) return;
  let values: JsonObject;
  try {
    values = form.read().value;
  } catch (error) {
    setStatus(`Not sent: ${errorMessage(error)}`);
    return;
  }
  const [method, params] = requestFor(target, values);
  const headers = target.kind === 'tool' ? headerParamHeaders(headerParamsOf(target.item.inputSchema), values) : {};
  running = new AbortController();
  const result = byId('pg-result', HTMLElement);
  const stop = byId('pg-stop', HTMLButtonElement);
  const runButton = byId('pg-run', HTMLButtonElement);
  byId('pg-events', HTMLElement).replaceChildren();
  result.replaceChildren();
  result.setAttribute('aria-busy', 'true');
  stop.disabled = false;
  runButton.disabled = true;
  const call: Call = { target, method, headers, signal: running.signal, exchanges: [] };
  try {
    await round(call, params, 1);
  } catch (error) {
    setStatus(
      isAbort(error)
        ? 'Stopped: the page closed the stream, which cancels the request.'
        : `Failed: ${errorMessage(error)}`,
    );
  } finally {
    if (call.exchanges.length > 0) result.append(exchangeLog(call.exchanges));
    result.removeAttribute('aria-busy');
    stop.disabled = true;
    runButton.disabled = false;
    running = undefined;
  }
}

/** A JSON-RPC answer: an object with a result or an error (anything else is a failed exchange). */
const isAnswer = (message: unknown): message is JsonRpcAnswer =>
  isObject(message) && (Boolean(message.result) || Boolean(message.error));

/** One round: send, show notifications as they arrive, then the answer; input_required leads to the next round. */
async function round(call: Call, params: JsonObject, number: number): Promise<void> {
  const sending = number === 1 ? 'Sending ' : `Sending round ${number} of `;
  setStatus(`${sending}${call.method} ${String(params.name || params.uri)}\u2026`);
  const events = byId('pg-events', HTMLElement);
  const notifications: ServerNotification[] = [];
  const sent = await mcpRequest(call.method, params, {
    token,
    headers: call.headers,
    signal: call.signal,
    logLevel: byId('pg-log-level', HTMLSelectElement).value || undefined,
    progressToken: `pg-progress-${upcomingRequestId()}`,
    onNotification: (message) => {
      notifications.push(message);
      events.append(notificationLine(message));
    },
  });
  const exchange: LoggedExchange = { ...sent, notifications };
  call.exchanges.push(exchange);
  const result = byId('pg-result', HTMLElement);
  const message = exchange.response;
  if (!isAnswer(message)) {
    setStatus(`Failed: HTTP ${exchange.status} without a JSON-RPC answer.`);
    return;
  }
  if (message.error) {
    setStatus(`Error ${message.error.code}${exchange.status !== 200 ? ` (HTTP ${exchange.status})` : ''}.`);
    result.append(errorPart(message.error, 'JSON-RPC error'));
    return;
  }
  const answer = message.result ?? {};
  if (answer.resultType === 'input_required') {
    if (number >= MAX_ROUNDS) {
      setStatus(`Stopped after ${number} rounds: the server kept asking for input.`);
      return;
    }
    const responses = await askForInput(answer, number, call.signal);
    const { inputResponses: _responses, requestState: _state, ...next } = params;
    if (Object.keys(responses).length > 0) next.inputResponses = responses;
    if (answer.requestState !== undefined) next.requestState = answer.requestState;
    return round(call, next, number + 1);
  }
  const { target } = call;
  const parts =
    target.kind === 'tool'
      ? toolResultParts(target.item, answer)
      : target.kind === 'prompt'
        ? promptResultParts(answer)
        : resourceResultParts(answer);
  setStatus(
    answer.isError ? 'The tool reported an error.' : `Complete${number > 1 ? ` after ${number} rounds.` : '.'}`,
  );
  result.append(...parts);
}
