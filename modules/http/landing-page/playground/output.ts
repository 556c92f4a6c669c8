// How the playground shows answers: notifications as they stream (progress, log records), a tool result split into
// structured result, enrichment and markdown twin, the error envelope with reason and recovery, resource contents,
// prompt messages, and the raw JSON-RPC exchange. Text only ever goes in as text.
import { el } from './dom.js';
import type {
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  ReadResourceResult,
  ResourceContents,
  ServerNotification,
} from './mcp-messages.js';
import { DATA, type ToolEntry } from './page-data.js';
import { isObject, type JsonObject } from './values.js';
import type { WireExchange } from './wire.js';

/** One round of a call as the exchange log shows it: the request, the answer, and what streamed in between. */
export interface LoggedExchange extends WireExchange {
  readonly notifications: readonly ServerNotification[];
}

let partCount = 0;

/** A titled part of the response; data-part names it for whoever reads the page programmatically. */
function part(kind: string, title: string, children: readonly (HTMLElement | null)[]): HTMLElement {
  const id = `pg-part${++partCount}`;
  return el('section', { className: `pg-part pg-part--${kind}`, 'data-part': kind, 'aria-labelledby': id }, [
    el('h4', { id, text: title }),
    ...children,
  ]);
}

const jsonBlock = (value: unknown) =>
  el('pre', { className: 'pg-json-out', tabindex: 0 }, [el('code', { text: JSON.stringify(value, null, 2) })]);

function definitionList(entries: readonly (readonly [string, unknown])[]): HTMLElement {
  const list = el('dl', { className: 'pg-dl' });
  for (const [term, value] of entries) {
    if (value === undefined || value === null || value === '') continue;
    list.append(
      el('dt', { text: term }),
      el('dd', {}, [typeof value === 'string' ? value : el('code', { text: JSON.stringify(value) })]),
    );
  }
  return list;
}

/** A JSON-RPC error or a tool's error envelope: code, message, reason, recovery, request id. */
export function errorPart(error: unknown, title: string): HTMLElement {
  const envelope = isObject(error) ? error : {};
  const data = isObject(envelope.data) ? envelope.data : {};
  const recovery = isObject(data.recovery) ? data.recovery.hint : undefined;
  const extra = Object.entries(data).filter(([key]) => !['reason', 'recovery', 'requestId'].includes(key));
  const children = [
    el('p', { className: 'pg-error-message', text: envelope.message ? String(envelope.message) : 'No message.' }),
    definitionList([
      ['Code', envelope.code !== undefined ? String(envelope.code) : undefined],
      ['Reason', data.reason],
      ['Recovery', recovery],
      ['Request id', data.requestId],
      ...extra,
    ]),
  ];
  const section = part('error', title, children);
  section.setAttribute('role', 'alert');
  return section;
}

/** Content blocks: text as its markdown source, images and audio inline, links and embedded resources named. */
function contentBlocks(blocks: readonly ContentBlock[] | undefined): HTMLElement[] {
  return (blocks || []).map((block) => {
    if (block.type === 'text')
      return el('pre', { className: 'pg-markdown', tabindex: 0 }, [el('code', { text: block.text })]);
    const source = `data:${block.mimeType};base64,${block.data}`;
    if (block.type === 'image')
      return el('img', { className: 'pg-image', src: source, alt: `Image (${block.mimeType})` });
    if (block.type === 'audio')
      return el('audio', { controls: true, src: source, 'aria-label': `Audio (${block.mimeType})` });
    if (block.type === 'resource_link') {
      return el('p', {}, ['Resource link: ', el('code', { text: block.uri }), block.name ? ` (${block.name})` : '']);
    }
    if (block.type === 'resource' && block.resource) return resourceContent(block.resource);
    return jsonBlock(block);
  });
}

function resourceContent(content: ResourceContents): HTMLElement {
  const head = el('p', { className: 'pg-uri' }, [
    el('code', { text: content.uri }),
    content.mimeType ? ` \u00b7 ${content.mimeType}` : '',
  ]);
  if (typeof content.text === 'string') {
    return el('div', {}, [
      head,
      el('pre', { className: 'pg-markdown', tabindex: 0 }, [el('code', { text: content.text })]),
    ]);
  }
  if (typeof content.blob === 'string' && /^image\//.test(content.mimeType || '')) {
    const source = `data:${content.mimeType};base64,${content.blob}`;
    return el('div', {}, [head, el('img', { className: 'pg-image', src: source, alt: content.uri })]);
  }
  const bytes = Math.floor(((content.blob || '').length * 3) / 4);
  return el('div', {}, [head, el('p', { text: `Binary content, ${bytes} bytes.` })]);
}

/** A tool's result: the error envelope, or structured result and enrichment apart; then content[], the twin. */
export function toolResultParts(tool: ToolEntry, result: CallToolResult): HTMLElement[] {
  const parts: HTMLElement[] = [];
  const structured = result.structuredContent;
  if (result.isError) {
    const envelope =
      isObject(structured) && isObject(structured.error)
        ? structured.error
        : { message: 'The tool reported an error.' };
    parts.push(errorPart(envelope, 'Tool error'));
  } else if (structured !== undefined) {
    const keys = tool.enrichmentKeys || [];
    const fields: JsonObject = {};
    const enrichment: [string, unknown][] = [];
    if (isObject(structured)) {
      for (const [key, value] of Object.entries(structured)) {
        if (keys.includes(key)) enrichment.push([key, value]);
        else fields[key] = value;
      }
    }
    parts.push(part('structured', 'Structured result', [jsonBlock(isObject(structured) ? fields : structured)]));
    if (enrichment.length > 0) parts.push(part('enrichment', 'Enrichment', [definitionList(enrichment)]));
  }
  const twin = structured !== undefined && !result.isError ? 'Markdown twin' : 'Content';
  parts.push(part('markdown', twin, contentBlocks(result.content)));
  return parts;
}

export function resourceResultParts(result: ReadResourceResult): HTMLElement[] {
  return [part('contents', 'Contents', (result.contents || []).map(resourceContent))];
}

export function promptResultParts(result: GetPromptResult): HTMLElement[] {
  const messages = el('ol', { className: 'pg-messages' });
  for (const message of result.messages || []) {
    messages.append(
      el('li', { className: 'pg-message' }, [
        el('p', { className: 'pg-role', text: message.role }),
        ...contentBlocks([message.content]),
      ]),
    );
  }
  return [part('messages', 'Messages', [result.description ? el('p', { text: result.description }) : null, messages])];
}

/** One streamed notification as a line: progress with a bar, a log record with its level, anything else as JSON. */
export function notificationLine(message: ServerNotification): HTMLElement {
  const params = message.params || {};
  if (message.method === 'notifications/progress') {
    const bar = params.total
      ? el('progress', { value: params.progress, max: params.total, 'aria-hidden': 'true' })
      : null;
    const total = params.total !== undefined ? ` of ${params.total}` : '';
    const text = `Progress ${params.progress}${total}${params.message ? `: ${params.message}` : ''}`;
    return el('li', { className: 'pg-event pg-event--progress', 'data-kind': 'progress' }, [el('span', { text }), bar]);
  }
  if (message.method === 'notifications/message') {
    const data = params.data;
    let text = typeof data === 'string' ? data : JSON.stringify(data);
    if (isObject(data) && typeof data.message === 'string') {
      const { message: _message, ...rest } = data;
      text = data.message + (Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : '');
    }
    return el('li', { className: 'pg-event pg-event--log', 'data-kind': 'log' }, [
      el('span', { className: `pg-level pg-level--${params.level}`, text: params.level }),
      ' ',
      el('span', { text: (params.logger ? `${params.logger}: ` : '') + text }),
    ]);
  }
  return el('li', { className: 'pg-event', 'data-kind': 'other' }, [
    el('code', { text: `${message.method} ${JSON.stringify(params)}` }),
  ]);
}

/** The wire view: every request sent and every message received, round by round. */
export function exchangeLog(exchanges: readonly LoggedExchange[]): HTMLElement {
  const rounds = `${exchanges.length}${exchanges.length === 1 ? ' round)' : ' rounds)'}`;
  const details = el('details', { className: 'pg-raw' }, [el('summary', { text: `JSON-RPC exchange (${rounds}` })]);
  for (const exchange of exchanges) {
    details.append(
      el('p', { className: 'pg-raw-head', text: `Sent (POST ${DATA.endpoint})` }),
      jsonBlock(exchange.request),
    );
    for (const note of exchange.notifications) {
      details.append(el('p', { className: 'pg-raw-head', text: 'Received (event stream)' }), jsonBlock(note));
    }
    details.append(el('p', { className: 'pg-raw-head', text: `Received (HTTP ${exchange.status})` }));
    details.append(
      exchange.response === undefined
        ? el('pre', {}, [el('code', { text: exchange.text || '(empty body)' })])
        : jsonBlock(exchange.response),
    );
  }
  return details;
}
