// The playground itself, as browser JavaScript: the token gate under auth (the token lives in this page's memory
// only), the picker over tools, resources, templates and prompts, the generated form, and a run that follows
// input_required rounds, answering elicitation forms and consent gates in the page, until the call completes.
export const PLAYGROUND_APP_SCRIPT = String.raw`
const DATA = JSON.parse(document.getElementById('pg-data').textContent);
const home = document.getElementById('pg-root');
// Rounds one call may take before the page stops following the server's input requests.
const MAX_ROUNDS = 12;
let token;
let running;

const targets = new Map();
for (const tool of DATA.tools) targets.set('tool:' + tool.name, { kind: 'tool', item: tool, verb: 'Call tool' });
DATA.resources.forEach((resource, index) =>
  targets.set((resource.isTemplate ? 'template:' : 'resource:') + index, { kind: resource.isTemplate ? 'template' : 'resource', item: resource, verb: 'Read resource' }),
);
// Any URI the server may serve, listed or not (a template's expansion, a link from a result).
targets.set('uri:', { kind: 'uri', group: 'resource', item: { name: 'Any URI\u2026', description: 'Read a resource by its URI.' }, verb: 'Read resource' });
for (const prompt of DATA.prompts) targets.set('prompt:' + prompt.name, { kind: 'prompt', item: prompt, verb: 'Get prompt' });

function tokenGate() {
  const form = document.getElementById('pg-token');
  if (!form) return start();
  const input = form.querySelector('input');
  const forget = document.getElementById('pg-forget');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = input.value.trim().replace(/^Bearer\s+/i, '');
    input.value = '';
    if (!value) return;
    token = value;
    form.hidden = true;
    forget.hidden = false;
    start();
  });
  forget.addEventListener('click', () => {
    token = undefined;
    if (running) running.abort();
    home.replaceChildren();
    forget.hidden = true;
    form.hidden = false;
    input.focus();
  });
}

function start() {
  home.replaceChildren(workspace());
  addTryButtons();
  choose();
}

function workspace() {
  const picker = el('select', { id: 'pg-target' });
  const groups = [['tool', 'Tools'], ['resource', 'Resources'], ['template', 'Resource templates'], ['prompt', 'Prompts']];
  for (const [kind, label] of groups) {
    const group = el('optgroup', { label });
    for (const [value, target] of targets) {
      if ((target.group || target.kind) !== kind) continue;
      const name = target.item.name + (target.item.title ? ' \u00b7 ' + target.item.title : '');
      group.append(el('option', { value, text: name }));
    }
    if (group.children.length > 0) picker.append(group);
  }
  picker.addEventListener('change', choose);
  const level = el('select', { id: 'pg-log-level' }, ['', 'debug', 'info', 'notice', 'warning', 'error'].map((value) =>
    el('option', { value, text: value || 'none', selected: value === 'info' }),
  ));
  const form = el('form', { className: 'pg-request', id: 'pg-form', novalidate: true, 'aria-labelledby': 'pg-request-heading' }, [
    el('h3', { id: 'pg-request-heading', text: 'Request' }),
    el('div', { className: 'pg-field' }, [el('label', { for: 'pg-target', text: 'Tool, resource or prompt' }), picker]),
    el('p', { className: 'pg-target-doc', id: 'pg-target-doc' }),
    el('div', { id: 'pg-args' }),
    el('div', { className: 'pg-actions' }, [
      el('div', { className: 'pg-field pg-inline' }, [el('label', { for: 'pg-log-level', text: 'Log messages' }), level]),
      el('button', { type: 'submit', className: 'pg-run', id: 'pg-run', text: 'Run' }),
      el('button', { type: 'button', className: 'pg-stop', id: 'pg-stop', disabled: true, text: 'Stop' }),
    ]),
  ]);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    run();
  });
  form.querySelector('#pg-stop').addEventListener('click', () => running && running.abort());
  const output = el('div', { className: 'pg-output', role: 'region', 'aria-labelledby': 'pg-output-heading' }, [
    el('h3', { id: 'pg-output-heading', text: 'Response' }),
    el('p', { className: 'pg-status', id: 'pg-status', role: 'status', text: 'Nothing sent yet.' }),
    el('ol', { className: 'pg-events', id: 'pg-events', 'aria-label': 'Notifications', 'aria-live': 'polite' }),
    el('div', { className: 'pg-result', id: 'pg-result', 'aria-live': 'polite' }),
  ]);
  return el('div', { className: 'pg-grid' }, [form, output]);
}

/** "Try it" on each card the playground can run: picks it and moves focus to the form. */
function addTryButtons() {
  for (const [value, target] of targets) {
    // The card ids the landing page gives: tool-, resource- (templates too) and prompt- before the name.
    const prefix = { tool: 'tool-', resource: 'resource-', template: 'resource-', prompt: 'prompt-' }[target.kind];
    const card = prefix && document.getElementById(prefix + target.item.name.replace(/[^A-Za-z0-9_-]/g, '-'));
    if (!card || card.querySelector('.pg-try')) continue;
    const button = el('button', { type: 'button', className: 'pg-try', text: 'Try it', 'aria-label': 'Try ' + target.item.name + ' in the playground' });
    button.addEventListener('click', () => {
      const picker = document.getElementById('pg-target');
      if (!picker) return;
      picker.value = value;
      choose();
      document.getElementById('playground').scrollIntoView();
      picker.focus();
    });
    card.querySelector('.card-head').append(button);
  }
}

let form;

function choose() {
  const target = targets.get(document.getElementById('pg-target').value);
  const holder = document.getElementById('pg-args');
  const doc = document.getElementById('pg-target-doc');
  holder.replaceChildren();
  form = undefined;
  if (!target) return;
  document.getElementById('pg-run').textContent = target.verb;
  const item = target.item;
  doc.replaceChildren(item.description || '');
  if (item.uri) doc.append(' ', el('code', { text: item.uri }));
  form = argumentsForm(schemaOf(target));
  holder.append(form.node);
}

/** What the form asks for: a tool's inputSchema, a template's variables, a prompt's (string) arguments. */
function schemaOf(target) {
  if (target.kind === 'tool') return target.item.inputSchema;
  if (target.kind === 'resource') return { type: 'object', properties: {} };
  if (target.kind === 'uri') return { type: 'object', properties: { uri: { type: 'string', description: 'The resource URI' } }, required: ['uri'] };
  const names = target.kind === 'template' ? templateVariables(target.item.uri) : target.item.arguments.map((arg) => arg.name);
  const properties = {};
  for (const name of names) {
    const argument = target.kind === 'prompt' ? target.item.arguments.find((arg) => arg.name === name) : undefined;
    properties[name] = { type: 'string', description: argument && argument.description };
  }
  const required = target.kind === 'template' ? names : target.item.arguments.filter((arg) => arg.required).map((arg) => arg.name);
  return { type: 'object', properties, required };
}

function setStatus(text) {
  document.getElementById('pg-status').textContent = text;
}

async function run() {
  const target = targets.get(document.getElementById('pg-target').value);
  if (!target || !form) return;
  let values;
  try {
    values = form.read().value;
  } catch (error) {
    setStatus('Not sent: ' + error.message);
    return;
  }
  const call = {
    tool: () => ['tools/call', { name: target.item.name, arguments: values }],
    resource: () => ['resources/read', { uri: target.item.uri }],
    template: () => ['resources/read', { uri: expandTemplate(target.item.uri, values) }],
    uri: () => ['resources/read', { uri: values.uri }],
    prompt: () => ['prompts/get', { name: target.item.name, arguments: values }],
  }[target.kind]();
  const headers = target.kind === 'tool' ? headerParamHeaders(headerParamsOf(target.item.inputSchema), values) : {};
  running = new AbortController();
  const result = document.getElementById('pg-result');
  document.getElementById('pg-events').replaceChildren();
  result.replaceChildren();
  result.setAttribute('aria-busy', 'true');
  document.getElementById('pg-stop').disabled = false;
  document.getElementById('pg-run').disabled = true;
  const exchanges = [];
  try {
    await round(target, call[0], call[1], headers, exchanges, 1);
  } catch (error) {
    const stopped = error && error.name === 'AbortError';
    setStatus(stopped ? 'Stopped: the page closed the stream, which cancels the request.' : 'Failed: ' + error.message);
  } finally {
    if (exchanges.length > 0) result.append(exchangeLog(exchanges));
    result.removeAttribute('aria-busy');
    document.getElementById('pg-stop').disabled = true;
    document.getElementById('pg-run').disabled = false;
    running = undefined;
  }
}

/** One round: send, show notifications as they arrive, then the answer; input_required leads to the next round. */
async function round(target, method, params, headers, exchanges, number) {
  setStatus((number === 1 ? 'Sending ' : 'Sending round ' + number + ' of ') + method + ' ' + (params.name || params.uri) + '\u2026');
  const events = document.getElementById('pg-events');
  const notifications = [];
  const exchange = await mcpRequest(method, params, {
    token,
    headers,
    signal: running.signal,
    logLevel: document.getElementById('pg-log-level').value || undefined,
    progressToken: 'pg-progress-' + nextRequestId,
    onNotification: (message) => {
      notifications.push(message);
      events.append(notificationLine(message));
    },
  });
  exchange.notifications = notifications;
  exchanges.push(exchange);
  const result = document.getElementById('pg-result');
  const message = exchange.response;
  if (!message || (!message.result && !message.error)) {
    setStatus('Failed: HTTP ' + exchange.status + ' without a JSON-RPC answer.');
    return;
  }
  if (message.error) {
    setStatus('Error ' + message.error.code + (exchange.status !== 200 ? ' (HTTP ' + exchange.status + ')' : '') + '.');
    result.append(errorPart(message.error, 'JSON-RPC error'));
    return;
  }
  const answer = message.result;
  if (answer.resultType === 'input_required') {
    if (number >= MAX_ROUNDS) {
      setStatus('Stopped after ' + number + ' rounds: the server kept asking for input.');
      return;
    }
    const responses = await askForInput(answer, number);
    const next = Object.assign({}, params);
    delete next.inputResponses;
    delete next.requestState;
    if (Object.keys(responses).length > 0) next.inputResponses = responses;
    if (answer.requestState !== undefined) next.requestState = answer.requestState;
    return round(target, method, next, headers, exchanges, number + 1);
  }
  const parts =
    target.kind === 'tool' ? toolResultParts(target.item, answer) : target.kind === 'prompt' ? promptResultParts(answer) : resourceResultParts(answer);
  setStatus(answer.isError ? 'The tool reported an error.' : 'Complete' + (number > 1 ? ' after ' + number + ' rounds.' : '.'));
  result.append(...parts);
}
`;
