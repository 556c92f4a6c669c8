// How the playground shows answers, as browser JavaScript: notifications as they stream (progress, log records), a
// tool result split into structured result, enrichment and markdown twin, the error envelope with reason and
// recovery, resource contents, prompt messages, and the raw JSON-RPC exchange. Text only ever goes in as text.
export const PLAYGROUND_OUTPUT_SCRIPT = String.raw`
let partCount = 0;

/** A titled part of the response; data-part names it for whoever reads the page programmatically. */
function part(kind, title, children) {
  const id = 'pg-part' + ++partCount;
  return el('section', { className: 'pg-part pg-part--' + kind, 'data-part': kind, 'aria-labelledby': id }, [
    el('h4', { id, text: title }),
  ].concat(children));
}

const jsonBlock = (value) => el('pre', { className: 'pg-json-out', tabindex: 0 }, [el('code', { text: JSON.stringify(value, null, 2) })]);

function definitionList(entries) {
  const list = el('dl', { className: 'pg-dl' });
  for (const [term, value] of entries) {
    if (value === undefined || value === null || value === '') continue;
    list.append(el('dt', { text: term }), el('dd', {}, [typeof value === 'string' ? value : el('code', { text: JSON.stringify(value) })]));
  }
  return list;
}

/** A JSON-RPC error or a tool's error envelope: code, message, reason, recovery, request id. */
function errorPart(error, title) {
  const data = isObject(error && error.data) ? error.data : {};
  const recovery = isObject(data.recovery) ? data.recovery.hint : undefined;
  const extra = Object.entries(data).filter(([key]) => !['reason', 'recovery', 'requestId'].includes(key));
  const children = [
    el('p', { className: 'pg-error-message', text: error && error.message ? error.message : 'No message.' }),
    definitionList([
      ['Code', error && error.code !== undefined ? String(error.code) : undefined],
      ['Reason', data.reason],
      ['Recovery', recovery],
      ['Request id', data.requestId],
    ].concat(extra)),
  ];
  const section = part('error', title, children);
  section.setAttribute('role', 'alert');
  return section;
}

/** Content blocks: text as its markdown source, images and audio inline, links and embedded resources named. */
function contentBlocks(blocks) {
  return (blocks || []).map((block) => {
    if (block.type === 'text') return el('pre', { className: 'pg-markdown', tabindex: 0 }, [el('code', { text: block.text })]);
    if (block.type === 'image') return el('img', { className: 'pg-image', src: 'data:' + block.mimeType + ';base64,' + block.data, alt: 'Image (' + block.mimeType + ')' });
    if (block.type === 'audio') return el('audio', { controls: true, src: 'data:' + block.mimeType + ';base64,' + block.data, 'aria-label': 'Audio (' + block.mimeType + ')' });
    if (block.type === 'resource_link') return el('p', {}, ['Resource link: ', el('code', { text: block.uri }), block.name ? ' (' + block.name + ')' : '']);
    if (block.type === 'resource' && block.resource) return resourceContent(block.resource);
    return jsonBlock(block);
  });
}

function resourceContent(content) {
  const head = el('p', { className: 'pg-uri' }, [el('code', { text: content.uri }), content.mimeType ? ' \u00b7 ' + content.mimeType : '']);
  if (typeof content.text === 'string') return el('div', {}, [head, el('pre', { className: 'pg-markdown', tabindex: 0 }, [el('code', { text: content.text })])]);
  if (typeof content.blob === 'string' && /^image\//.test(content.mimeType || '')) {
    return el('div', {}, [head, el('img', { className: 'pg-image', src: 'data:' + content.mimeType + ';base64,' + content.blob, alt: content.uri })]);
  }
  return el('div', {}, [head, el('p', { text: 'Binary content, ' + Math.floor(((content.blob || '').length * 3) / 4) + ' bytes.' })]);
}

/** A tool's result: the error envelope, or structured result and enrichment apart; then content[], the twin. */
function toolResultParts(tool, result) {
  const parts = [];
  const structured = result.structuredContent;
  if (result.isError) {
    const envelope = isObject(structured) && isObject(structured.error) ? structured.error : { message: 'The tool reported an error.' };
    parts.push(errorPart(envelope, 'Tool error'));
  } else if (structured !== undefined) {
    const keys = (tool && tool.enrichmentKeys) || [];
    const main = isObject(structured) ? {} : structured;
    const enrichment = [];
    if (isObject(structured)) {
      for (const [key, value] of Object.entries(structured)) {
        if (keys.includes(key)) enrichment.push([key, value]);
        else main[key] = value;
      }
    }
    parts.push(part('structured', 'Structured result', [jsonBlock(main)]));
    if (enrichment.length > 0) parts.push(part('enrichment', 'Enrichment', [definitionList(enrichment)]));
  }
  const twin = structured !== undefined && !result.isError ? 'Markdown twin' : 'Content';
  parts.push(part('markdown', twin, contentBlocks(result.content)));
  return parts;
}

function resourceResultParts(result) {
  return [part('contents', 'Contents', (result.contents || []).map(resourceContent))];
}

function promptResultParts(result) {
  const messages = el('ol', { className: 'pg-messages' });
  for (const message of result.messages || []) {
    messages.append(el('li', { className: 'pg-message' }, [el('p', { className: 'pg-role', text: message.role })].concat(contentBlocks([message.content]))));
  }
  return [part('messages', 'Messages', [result.description ? el('p', { text: result.description }) : null, messages])];
}

/** One streamed notification as a line: progress with a bar, a log record with its level, anything else as JSON. */
function notificationLine(message) {
  const params = message.params || {};
  if (message.method === 'notifications/progress') {
    const bar = params.total ? el('progress', { value: params.progress, max: params.total, 'aria-hidden': 'true' }) : null;
    const text = 'Progress ' + params.progress + (params.total !== undefined ? ' of ' + params.total : '') + (params.message ? ': ' + params.message : '');
    return el('li', { className: 'pg-event pg-event--progress', 'data-kind': 'progress' }, [el('span', { text }), bar]);
  }
  if (message.method === 'notifications/message') {
    const data = params.data;
    let text = typeof data === 'string' ? data : JSON.stringify(data);
    if (isObject(data) && typeof data.message === 'string') {
      const rest = Object.assign({}, data);
      delete rest.message;
      text = data.message + (Object.keys(rest).length > 0 ? ' ' + JSON.stringify(rest) : '');
    }
    return el('li', { className: 'pg-event pg-event--log', 'data-kind': 'log' }, [
      el('span', { className: 'pg-level pg-level--' + params.level, text: params.level }),
      ' ',
      el('span', { text: (params.logger ? params.logger + ': ' : '') + text }),
    ]);
  }
  return el('li', { className: 'pg-event', 'data-kind': 'other' }, [el('code', { text: message.method + ' ' + JSON.stringify(params) })]);
}

/** The wire view: every request sent and every message received, round by round. */
function exchangeLog(exchanges) {
  const details = el('details', { className: 'pg-raw' }, [el('summary', { text: 'JSON-RPC exchange (' + exchanges.length + (exchanges.length === 1 ? ' round)' : ' rounds)') })]);
  exchanges.forEach((exchange) => {
    details.append(el('p', { className: 'pg-raw-head', text: 'Sent (POST ' + DATA.endpoint + ')' }), jsonBlock(exchange.request));
    for (const note of exchange.notifications) details.append(el('p', { className: 'pg-raw-head', text: 'Received (event stream)' }), jsonBlock(note));
    details.append(el('p', { className: 'pg-raw-head', text: 'Received (HTTP ' + exchange.status + ')' }));
    details.append(exchange.response === undefined ? el('pre', {}, [el('code', { text: exchange.text || '(empty body)' })]) : jsonBlock(exchange.response));
  });
  return details;
}
`;
