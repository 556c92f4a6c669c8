// The playground's MCP client, as browser JavaScript: one 2026-07-28 request per call (the per-request `_meta`, the
// MCP-Protocol-Version, Mcp-Method, Mcp-Name and Mcp-Param-* headers), answered as JSON or as an event stream whose
// notifications are handed on while the call runs. Plain script text, no backticks, so it embeds in String.raw.
export const PLAYGROUND_WIRE_SCRIPT = String.raw`
const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
const META_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const META_CLIENT = 'io.modelcontextprotocol/clientInfo';
const META_LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
// Form elicitation is what the page can answer; it cannot sample a model or list roots.
const CAPABILITIES = { elicitation: { form: {} } };
let nextRequestId = 1;

/** A header value as SEP-2243 spells it: visible ASCII as is, anything else Base64-wrapped. */
function headerValue(value) {
  const text = String(value);
  if (/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(text) && !text.startsWith('=?base64?')) return text;
  if (text === '') return text;
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return '=?base64?' + btoa(binary) + '?=';
}

/** Where a tool asks for Mcp-Param-* headers: properties marked x-mcp-header, reached through properties only. */
function headerParamsOf(schema) {
  const found = [];
  const walk = (node, path) => {
    const properties = node && typeof node === 'object' ? node.properties : undefined;
    if (!properties || typeof properties !== 'object') return;
    for (const [key, child] of Object.entries(properties)) {
      if (!child || typeof child !== 'object') continue;
      if (typeof child['x-mcp-header'] === 'string') found.push({ path: path.concat(key), header: child['x-mcp-header'] });
      walk(child, path.concat(key));
    }
  };
  walk(schema, []);
  return found;
}

function headerParamHeaders(params, args) {
  const headers = {};
  for (const param of params) {
    let value = args;
    for (const key of param.path) value = value && typeof value === 'object' ? value[key] : undefined;
    if (typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) {
      headers['mcp-param-' + param.header.toLowerCase()] = headerValue(value);
    }
  }
  return headers;
}

/**
 * Sends one request and resolves with the exchange: what was sent, the HTTP status, and the JSON-RPC response (or
 * the body text when there was none). Notifications on an event stream reach onNotification as they arrive.
 */
async function mcpRequest(method, params, options) {
  const meta = {};
  meta[META_VERSION] = DATA.protocolVersion;
  meta[META_CAPABILITIES] = CAPABILITIES;
  meta[META_CLIENT] = DATA.client;
  if (options.logLevel) meta[META_LOG_LEVEL] = options.logLevel;
  if (options.progressToken !== undefined) meta.progressToken = options.progressToken;
  const request = { jsonrpc: '2.0', id: nextRequestId++, method, params: Object.assign({}, params, { _meta: meta }) };
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': DATA.protocolVersion,
    'mcp-method': method,
  };
  const target = method === 'resources/read' ? params.uri : params.name;
  if (typeof target === 'string') headers['mcp-name'] = headerValue(target);
  Object.assign(headers, options.headers || {});
  if (options.token) headers.authorization = 'Bearer ' + options.token;
  const response = await fetch(DATA.endpoint, {
    method: 'POST',
    headers,
    body: JSON.stringify(request),
    signal: options.signal,
    credentials: 'omit',
    cache: 'no-store',
  });
  const exchange = { request, status: response.status, response: undefined, text: '' };
  const type = response.headers.get('content-type') || '';
  if (type.includes('text/event-stream') && response.body) {
    await readEventStream(response.body, (message) => {
      if (message && message.id !== undefined && ('result' in message || 'error' in message)) exchange.response = message;
      else options.onNotification(message);
    });
  } else {
    exchange.text = await response.text();
    try {
      exchange.response = JSON.parse(exchange.text);
    } catch {
      exchange.response = undefined;
    }
  }
  return exchange;
}

/** Reads Server-Sent Events off a response body, one JSON-RPC message per event, as they arrive. */
async function readEventStream(body, onMessage) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    buffer = (buffer + chunk.value).replace(/\r\n?/g, '\n');
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const data = buffer
        .slice(0, end)
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n');
      buffer = buffer.slice(end + 2);
      if (data) onMessage(JSON.parse(data));
      end = buffer.indexOf('\n\n');
    }
  }
}

/** A URI from a template (RFC 6570 up to level 3: {x}, {+x}, {#x}, {.x}, {/x}, {;x}, {?x,y}, {&x}). */
function expandTemplate(template, values) {
  const OPERATORS = {
    '': { first: '', sep: ',', named: false, reserved: false },
    '+': { first: '', sep: ',', named: false, reserved: true },
    '#': { first: '#', sep: ',', named: false, reserved: true },
    '.': { first: '.', sep: '.', named: false, reserved: false },
    '/': { first: '/', sep: '/', named: false, reserved: false },
    ';': { first: ';', sep: ';', named: true, reserved: false, bare: true },
    '?': { first: '?', sep: '&', named: true, reserved: false },
    '&': { first: '&', sep: '&', named: true, reserved: false },
  };
  return template.replace(/\{([+#./;?&]?)([^}]*)\}/g, (_match, operator, list) => {
    const rule = OPERATORS[operator];
    const parts = [];
    for (const name of list.split(',').map((item) => item.replace(/[*]$|:\d+$/, ''))) {
      const value = values[name];
      if (value === undefined || value === '') continue;
      const encoded = rule.reserved ? encodeURI(value) : encodeURIComponent(value);
      parts.push(rule.named ? name + (rule.bare && encoded === '' ? '' : '=' + encoded) : encoded);
    }
    return parts.length > 0 ? rule.first + parts.join(rule.sep) : '';
  });
}

function templateVariables(template) {
  const names = [];
  for (const match of template.matchAll(/\{[+#./;?&]?([^}]*)\}/g)) {
    for (const name of match[1].split(',')) {
      const bare = name.replace(/[*]$|:\d+$/, '');
      if (bare && !names.includes(bare)) names.push(bare);
    }
  }
  return names;
}
`;
