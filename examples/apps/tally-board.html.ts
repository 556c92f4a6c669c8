// The tally board view: one self-contained HTML document (no CDN, no build step). It speaks the MCP Apps protocol
// to its host over postMessage JSON-RPC: ui/initialize, then tool results in, tools/call out through the host.
export const TALLY_BOARD_HTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tally board</title>
<style>
  :root { color-scheme: light dark; font-family: var(--font-sans, system-ui, sans-serif); }
  body { margin: 0; padding: 16px; background: var(--color-background-primary, Canvas); color: var(--color-text-primary, CanvasText); }
  h1 { font-size: 1.1rem; margin: 0 0 12px; }
  ul { list-style: none; margin: 0 0 12px; padding: 0; display: grid; gap: 8px; }
  li { display: flex; align-items: center; gap: 12px; padding: 8px 12px; border: 1px solid var(--color-border-primary, #8884); border-radius: 8px; }
  .name { flex: 1; }
  .count { font-variant-numeric: tabular-nums; font-weight: 600; min-width: 2ch; text-align: right; }
  button { font: inherit; padding: 4px 10px; border-radius: 6px; border: 1px solid #8886; background: transparent; color: inherit; cursor: pointer; }
  .start { display: flex; gap: 8px; }
  input { font: inherit; flex: 1; padding: 4px 8px; border-radius: 6px; border: 1px solid #8886; background: transparent; color: inherit; }
  #status { min-height: 1.2em; margin: 8px 0 0; font-size: 0.85rem; opacity: 0.75; }
</style>
</head>
<body>
<h1>Tally board</h1>
<ul id="tallies" aria-live="polite"></ul>
<div id="start" class="start">
  <label for="new-name" hidden>New tally</label>
  <input id="new-name" name="name" placeholder="Start a tally" maxlength="40">
  <button id="start-button" type="button">Start</button>
</div>
<p id="status" role="status">Waiting for the host…</p>
<script>
(function () {
  var host = window.parent;
  var nextId = 1;
  var pending = new Map();
  var tallies = [];
  var statusLine = document.getElementById('status');

  function send(message) { host.postMessage(Object.assign({ jsonrpc: '2.0' }, message), '*'); }
  function request(method, params) {
    var id = nextId++;
    send({ id: id, method: method, params: params });
    return new Promise(function (resolve, reject) { pending.set(id, { resolve: resolve, reject: reject }); });
  }
  function notify(method, params) { send({ method: method, params: params || {} }); }

  function render() {
    var list = document.getElementById('tallies');
    list.replaceChildren();
    tallies.forEach(function (tally) {
      var item = document.createElement('li');
      var name = document.createElement('span');
      name.className = 'name';
      name.textContent = tally.name;
      var count = document.createElement('span');
      count.className = 'count';
      count.textContent = String(tally.count);
      var add = document.createElement('button');
      add.type = 'button';
      add.textContent = '+1';
      add.setAttribute('aria-label', 'Add one to ' + tally.name);
      add.addEventListener('click', function () { increment(tally.name); });
      item.append(name, count, add);
      list.append(item);
    });
    notify('ui/notifications/size-changed', { width: document.body.scrollWidth, height: document.body.scrollHeight });
  }

  function showResult(result) {
    var data = result && result.structuredContent;
    if (data && Array.isArray(data.tallies)) {
      tallies = data.tallies;
      statusLine.textContent = tallies.length + ' tallies';
      render();
    }
  }

  function increment(name) {
    statusLine.textContent = 'Adding to ' + name + '…';
    request('tools/call', { name: 'tally_increment', arguments: { name: name } }).then(function (result) {
      var updated = result && result.structuredContent;
      if (result.isError || !updated) throw new Error((result.content && result.content[0] && result.content[0].text) || 'the call failed');
      var found = tallies.find(function (tally) { return tally.name === updated.name; });
      if (found) found.count = updated.count; else tallies.push(updated);
      statusLine.textContent = updated.name + ' is now ' + updated.count;
      render();
    }).catch(function (error) { statusLine.textContent = 'Could not add: ' + error.message; });
  }

  // A button and the Enter key rather than a form: hosts sandbox views, often without allow-forms.
  var field = document.getElementById('new-name');
  function startTally() {
    var name = field.value.trim();
    if (name) increment(name);
    field.value = '';
  }
  document.getElementById('start-button').addEventListener('click', startTally);
  field.addEventListener('keydown', function (event) { if (event.key === 'Enter') startTally(); });

  window.addEventListener('message', function (event) {
    if (event.source !== host) return;
    var message = event.data;
    if (!message || message.jsonrpc !== '2.0') return;
    if (message.id !== undefined && pending.has(message.id) && !message.method) {
      var waiter = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result);
      return;
    }
    if (message.method === 'ui/notifications/tool-result') return showResult(message.params);
    if (message.method === 'ui/notifications/host-context-changed' && message.params && message.params.theme) {
      document.documentElement.style.colorScheme = message.params.theme;
      return;
    }
    // Requests from the host: answer the ones a view must, refuse the rest.
    if (message.id !== undefined && message.method) {
      if (message.method === 'ui/resource-teardown' || message.method === 'ping') send({ id: message.id, result: {} });
      else send({ id: message.id, error: { code: -32601, message: 'Method not found: ' + message.method } });
    }
  });

  request('ui/initialize', {
    protocolVersion: '2026-01-26',
    appInfo: { name: 'tally-board', version: '0.1.0' },
    appCapabilities: {},
  }).then(function (initialized) {
    var theme = initialized && initialized.hostContext && initialized.hostContext.theme;
    if (theme) document.documentElement.style.colorScheme = theme;
    notify('ui/notifications/initialized');
    statusLine.textContent = 'Connected to ' + ((initialized && initialized.hostInfo && initialized.hostInfo.name) || 'the host');
  }).catch(function (error) { statusLine.textContent = 'The host refused the view: ' + error.message; });
})();
</script>
</body>
</html>
`;
