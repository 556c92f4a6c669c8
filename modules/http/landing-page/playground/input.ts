// The playground's answer to an input_required result: each elicitation request becomes a form generated from its
// requestedSchema, a consent gate ({ confirm: boolean }) becomes Confirm / Decline, and the person's choice becomes
// the inputResponses of the next round. Stop abandons the round.
import { byId, el } from './dom.js';
import { argumentsForm, type ObjectField } from './form.js';
import type { InputAction, InputResponse, McpResult } from './mcp-messages.js';
import { type JsonSchema, resolveSchema } from './schema.js';
import { setStatus } from './status.js';
import { errorMessage } from './values.js';

/** One question the page shows: a consent gate, or a form for the requested schema. */
type Asked =
  | { readonly key: string; readonly consent: true }
  | { readonly key: string; readonly consent: false; readonly fields: ObjectField };

/** A consent gate's question: one boolean named confirm (what @RequiresConsent asks). */
function isConsentSchema(schema: JsonSchema): boolean {
  const keys = Object.keys(schema.properties || {});
  return (
    keys.length === 1 && keys[0] === 'confirm' && resolveSchema(schema.properties?.confirm, schema).type === 'boolean'
  );
}

/** Shows the server's input requests; resolves with the inputResponses the person chose, rejects when stopped. */
export function askForInput(
  answer: McpResult,
  number: number,
  signal: AbortSignal,
): Promise<Record<string, InputResponse>> {
  const requests = Object.entries(answer.inputRequests || {});
  // Only a requestState: the server wants the same call back with it, and nothing to ask.
  if (requests.length === 0) return Promise.resolve({});
  const headingId = `pg-ask-${number}`;
  const box = el('form', { className: 'pg-input', novalidate: true, 'aria-labelledby': headingId });
  const body = el('fieldset', { className: 'pg-input-body' }, [
    el('legend', { id: headingId, text: `The server asks (round ${number})` }),
  ]);
  box.append(body);
  const asked: Asked[] = [];
  for (const [key, request] of requests) {
    const params = request.params || {};
    if (request.method === 'elicitation/create' && (params.mode || 'form') === 'form') {
      const schema = params.requestedSchema || { type: 'object', properties: {} };
      const consent = isConsentSchema(schema);
      const fields = consent ? undefined : argumentsForm(schema, true);
      body.append(
        el('div', { className: `pg-ask${consent ? ' pg-ask--consent' : ''}`, 'data-key': key }, [
          el('p', { className: 'pg-ask-message', text: params.message || 'The server asks for a value.' }),
          fields ? fields.node : null,
        ]),
      );
      asked.push(fields ? { key, consent: false, fields } : { key, consent: true });
    } else {
      const text = `This page cannot answer ${request.method} (${key}), so it goes back unanswered.`;
      body.append(el('p', { className: 'pg-unsupported', text }));
    }
  }
  const consentOnly = asked.length > 0 && asked.every((entry) => entry.consent);
  const choices: readonly (readonly [InputAction, string])[] = consentOnly
    ? [
        ['accept', 'Confirm'],
        ['decline', 'Decline'],
      ]
    : [
        ['accept', 'Submit'],
        ['decline', 'Decline'],
        ['cancel', 'Cancel'],
      ];
  const problem = el('p', { className: 'pg-problem', role: 'alert' });
  const actions = el('div', { className: 'pg-actions' });
  body.append(problem, actions);
  byId('pg-result', HTMLElement).append(box);
  setStatus(`Waiting for your answer (round ${number}).`);
  return new Promise((resolve, reject) => {
    const stop = () => {
      body.disabled = true;
      reject(new DOMException('Stopped', 'AbortError'));
    };
    signal.addEventListener('abort', stop, { once: true });
    for (const [action, label] of choices) {
      const button = el('button', {
        type: action === 'accept' ? 'submit' : 'button',
        className: `pg-answer pg-answer--${action}`,
        text: label,
      });
      actions.append(button);
      const respond = (event?: Event) => {
        event?.preventDefault();
        const responses: Record<string, InputResponse> = {};
        try {
          for (const entry of asked) {
            if (action !== 'accept') responses[entry.key] = { action };
            else if (entry.consent) responses[entry.key] = { action, content: { confirm: true } };
            else responses[entry.key] = { action, content: entry.fields.read().value };
          }
        } catch (error) {
          problem.textContent = errorMessage(error);
          return;
        }
        signal.removeEventListener('abort', stop);
        body.disabled = true;
        actions.replaceChildren(el('p', { className: 'pg-answered', text: `Answered: ${label}.` }));
        resolve(responses);
      };
      if (action === 'accept') box.addEventListener('submit', respond);
      else button.addEventListener('click', () => respond());
    }
    const first = asked.find((entry) => !entry.consent);
    if (first && !first.consent) first.fields.focus();
    else actions.querySelector('button')?.focus();
  });
}
