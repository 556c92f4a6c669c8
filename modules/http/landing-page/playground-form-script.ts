// The playground's composite fields, as browser JavaScript: nested objects (optional ones built when included, so a
// recursive schema unfolds one level at a time), arrays with add/remove (or checkboxes for a multi-select), unions
// with a variant selector named by their discriminator, and the form for a whole arguments object.
export const PLAYGROUND_FORM_SCRIPT = `
/** The properties of an object, each a field; omitted ones are left out of the value. */
function propertyFields(schema, root, depth, skip, prefill) {
  const required = new Set(schema.required || []);
  const fields = [];
  for (const [name, property] of Object.entries(schema.properties || {})) {
    if (name === skip) continue;
    fields.push({ name, field: buildField(property, root, { label: name, name, required: required.has(name), depth, prefill }) });
  }
  return fields;
}

function readProperties(fields, into) {
  for (const { name, field } of fields) {
    const read = field.read();
    if (read !== undefined) into[name] = read.value;
  }
  return into;
}

/** An object's fields in a group; a union beside the properties adds its selector below them. */
function objectBody(schema, root, depth, skip, prefill) {
  const fields = propertyFields(schema, root, depth + 1, skip, prefill);
  const branches = branchesOf(schema, root);
  const union = branches.length > 1 ? unionField({}, branches, root, { label: 'Variant', required: true, depth: depth + 1, prefill }) : undefined;
  const node = el('div', { className: 'pg-fields' }, fields.map((entry) => entry.field.node).concat(union ? [union.node] : []));
  if (fields.length === 0 && !union) node.append(el('p', { className: 'pg-empty', text: 'No arguments.' }));
  return {
    node,
    focus: () => (fields[0] ? fields[0].field.focus() : union ? union.focus() : undefined),
    read: () => {
      const value = readProperties(fields, {});
      const chosen = union ? union.read() : undefined;
      if (chosen && isObject(chosen.value)) Object.assign(value, chosen.value);
      return { value };
    },
  };
}

function objectField(schema, root, spec) {
  const legend = el('legend', {}, [
    el('span', { className: 'pg-name', text: spec.label }),
    el('span', { className: spec.required ? 'pg-req' : 'pg-opt', text: spec.required ? 'required' : 'optional' }),
  ]);
  const group = el('fieldset', { className: 'pg-group' }, [legend]);
  if (spec.description) group.append(el('p', { className: 'pg-hint', text: spec.description }));
  let body;
  const open = () => {
    body = body || objectBody(schema, root, spec.depth, undefined, spec.prefill);
    if (!body.node.isConnected) group.append(body.node);
  };
  if (spec.required) {
    open();
    return { node: group, focus: () => body.focus(), read: () => body.read() };
  }
  // Optional: built when included, so a recursive schema unfolds one level per click.
  const id = 'pg-f' + ++fieldCount;
  const toggle = el('input', { id, type: 'checkbox' });
  group.append(el('div', { className: 'pg-include' }, [toggle, el('label', { for: id, text: 'Include ' + spec.label })]));
  toggle.addEventListener('change', () => {
    if (toggle.checked) open();
    else if (body) body.node.remove();
  });
  return { node: group, focus: () => toggle.focus(), read: () => (toggle.checked ? body.read() : undefined) };
}

function arrayField(schema, root, spec) {
  const items = resolveSchema(schema.items, root);
  const choices = enumOptions(items, root);
  const legend = el('legend', {}, [
    el('span', { className: 'pg-name', text: spec.label }),
    el('span', { className: spec.required ? 'pg-req' : 'pg-opt', text: spec.required ? 'required' : 'optional' }),
  ]);
  const group = el('fieldset', { className: 'pg-group pg-array' }, [legend]);
  if (spec.description) group.append(el('p', { className: 'pg-hint', text: spec.description }));
  if (choices) {
    // A multi-select: one checkbox per allowed value.
    const boxes = choices.map((choice) => {
      const id = 'pg-f' + ++fieldCount;
      const box = el('input', { id, type: 'checkbox', checked: spec.prefill && Array.isArray(schema.default) && schema.default.includes(choice.value) });
      group.append(el('div', { className: 'pg-check' }, [box, el('label', { for: id, text: choice.label })]));
      return { box, choice };
    });
    return {
      node: group,
      focus: () => boxes[0] && boxes[0].box.focus(),
      read: () => {
        const value = boxes.filter((entry) => entry.box.checked).map((entry) => entry.choice.value);
        return value.length === 0 && !spec.required ? undefined : { value };
      },
    };
  }
  const list = el('ol', { className: 'pg-items' });
  const entries = [];
  const add = el('button', { type: 'button', className: 'pg-add', text: 'Add item', 'aria-label': 'Add an item to ' + spec.label });
  const relabel = () =>
    entries.forEach((entry, index) => {
      entry.title.textContent = 'Item ' + (index + 1);
      entry.remove.setAttribute('aria-label', 'Remove item ' + (index + 1) + ' of ' + spec.label);
    });
  add.addEventListener('click', () => {
    // An object item shows its fields directly under the item's heading; anything else is one field.
    const field = isObject(items.properties) && !items.oneOf && !items.anyOf
      ? objectBody(items, root, spec.depth + 1, undefined, spec.prefill)
      : buildField(items, root, { label: 'Value', name: spec.name, required: true, depth: spec.depth + 1, prefill: spec.prefill });
    const entry = { field, title: el('span', { className: 'pg-item-title' }), remove: el('button', { type: 'button', className: 'pg-remove', text: 'Remove' }) };
    entry.node = el('li', { className: 'pg-item' }, [el('div', { className: 'pg-item-head' }, [entry.title, entry.remove]), field.node]);
    entry.remove.addEventListener('click', () => {
      entries.splice(entries.indexOf(entry), 1);
      entry.node.remove();
      relabel();
      add.focus();
    });
    entries.push(entry);
    list.append(entry.node);
    relabel();
    field.focus();
  });
  group.append(list, add);
  return {
    node: group,
    focus: () => add.focus(),
    read: () => {
      if (entries.length === 0 && !spec.required) return undefined;
      return { value: entries.map((entry) => { const read = entry.field.read(); return read === undefined ? null : read.value; }) };
    },
  };
}

/** One of several shapes: a selector (named by the discriminator when the branches share one), then that branch. */
function unionField(schema, branches, root, spec) {
  const key = discriminatorOf(branches, root);
  const constOf = (branch) => resolveSchema(resolveSchema(branch, root).properties[key], root);
  const labels = branches.map((branch, index) =>
    key ? show(constOf(branch).const) : branch.title || branch.description || 'Variant ' + (index + 1) + ' (' + typeOf(branch) + ')',
  );
  const id = 'pg-f' + ++fieldCount;
  const select = el('select', { id });
  if (!spec.required) select.append(el('option', { value: '', text: '(left out)' }));
  labels.forEach((label, index) => select.append(el('option', { value: String(index), text: label })));
  const label = key ? (spec.label === 'Variant' || spec.label === undefined ? key : spec.label + ' \u00b7 ' + key) : spec.label;
  const row = fieldRow(Object.assign({}, spec, { label }), select, id);
  const note = el('p', { className: 'pg-hint pg-variant-doc' });
  const holder = el('div', { className: 'pg-variant' });
  let current;
  const choose = () => {
    holder.replaceChildren();
    note.textContent = '';
    current = undefined;
    if (select.value === '') return;
    const branch = branches[Number(select.value)];
    const doc = key ? constOf(branch).description || branch.description : branch.description;
    if (doc) note.textContent = doc;
    current = typeOf(branch) === 'object' || isObject(branch.properties)
      ? objectBody(branch, root, spec.depth, key, spec.prefill)
      : buildField(branch, root, { label: spec.label || 'Value', name: spec.name, required: true, depth: spec.depth + 1, prefill: spec.prefill });
    holder.append(current.node);
  };
  select.addEventListener('change', choose);
  choose();
  return {
    node: el('div', { className: 'pg-union' }, [row, note, holder]),
    focus: () => select.focus(),
    read: () => {
      if (!current) return undefined;
      const read = current.read();
      if (!key) return read;
      const value = Object.assign({}, read.value);
      value[key] = constOf(branches[Number(select.value)]).const;
      return { value };
    },
  };
}

/**
 * The form for a whole arguments object (a tool's inputSchema, a prompt's arguments, an elicitation schema);
 * prefill starts each field at its default.
 */
function argumentsForm(schema, prefill) {
  return objectBody(resolveSchema(schema, schema), schema, 0, undefined, prefill === true);
}
`;
