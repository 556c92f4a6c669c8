// The playground's form builder, as browser JavaScript: a JSON Schema becomes labelled, keyboard-operable fields
// (text, numbers, enums, booleans, arrays with add/remove, nested objects, unions with a variant selector, JSON for
// the rest), each with a read() that returns { value } or undefined when the field is left out.
export const PLAYGROUND_FORM_SCRIPT = `
let fieldCount = 0;
// Deeper than this, a schema is edited as JSON (a recursive schema would otherwise nest forever).
const MAX_FORM_DEPTH = 6;

function el(tag, attributes, children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'text') node.textContent = value;
    else if (name === 'className') node.className = value;
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of [].concat(children || [])) if (child) node.append(child);
  return node;
}

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const show = (value) => (typeof value === 'string' ? value : JSON.stringify(value));

/** Follows local $refs (JSON pointers and $anchor names); keywords beside a $ref win, as in 2020-12. */
function resolveSchema(schema, root) {
  let current = isObject(schema) ? schema : {};
  for (let hops = 0; typeof current.$ref === 'string' && current.$ref.startsWith('#') && hops < 32; hops++) {
    const siblings = Object.assign({}, current);
    delete siblings.$ref;
    const target = refTarget(current.$ref, root);
    current = Object.assign({}, isObject(target) ? target : {}, siblings);
  }
  if (Array.isArray(current.allOf)) current = mergeAll(current, root);
  return current;
}

function refTarget(ref, root) {
  if (/^#[A-Za-z_]/.test(ref)) {
    const anchor = ref.slice(1);
    return Object.values(root.$defs || root.definitions || {}).find((def) => isObject(def) && def.$anchor === anchor);
  }
  let target = root;
  for (const part of ref.slice(1).split('/').filter(Boolean)) {
    target = isObject(target) ? target[decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  }
  return target;
}

/** allOf as one schema: properties and required lists joined, other keywords kept where the base has none. */
function mergeAll(schema, root) {
  const merged = Object.assign({}, schema, { properties: Object.assign({}, schema.properties) });
  merged.required = [].concat(schema.required || []);
  delete merged.allOf;
  for (const part of schema.allOf) {
    const branch = resolveSchema(part, root);
    Object.assign(merged.properties, branch.properties || {});
    merged.required.push(...(branch.required || []));
    for (const [key, value] of Object.entries(branch)) if (!(key in merged)) merged[key] = value;
  }
  return merged;
}

/**
 * The branches of a union, null left out: a nullable field is its one other branch. Branches that only constrain
 * (anyOf: [{ required: [a] }, { required: [b] }]) describe no shape to choose between, so they give none.
 */
function branchesOf(schema, root) {
  const list = [].concat(schema.oneOf || [], schema.anyOf || []).map((branch) => resolveSchema(branch, root));
  const shaped = list.filter((branch) => SHAPE_KEYWORDS.some((keyword) => keyword in branch));
  return shaped.length === list.length ? list.filter((branch) => branch.type !== 'null') : [];
}

const SHAPE_KEYWORDS = ['type', 'properties', 'items', 'enum', 'const', 'oneOf', 'anyOf'];

function typeOf(schema) {
  const types = [].concat(schema.type || []).filter((type) => type !== 'null');
  if (types.length === 1) return types[0];
  if (types.length === 0 && isObject(schema.properties)) return 'object';
  if (types.length === 0 && isObject(schema.items)) return 'array';
  return types.length === 0 ? 'any' : 'json';
}

/** A union's discriminator: a property holding a const in every branch (kind, type, action, ...). */
function discriminatorOf(branches, root) {
  const first = resolveSchema(branches[0], root).properties || {};
  return Object.keys(first).find((key) =>
    branches.every((branch) => {
      const property = (resolveSchema(branch, root).properties || {})[key];
      return isObject(property) && 'const' in resolveSchema(property, root);
    }),
  );
}

/** Enum options from enum, titled oneOf/anyOf consts, or legacy enumNames: [{ value, label }]. */
function enumOptions(schema, root) {
  if (Array.isArray(schema.enum)) {
    return schema.enum.map((value, index) => ({
      value,
      label: Array.isArray(schema.enumNames) && schema.enumNames[index] ? schema.enumNames[index] : show(value),
    }));
  }
  const branches = [].concat(schema.oneOf || [], schema.anyOf || []).map((branch) => resolveSchema(branch, root));
  if (branches.length > 0 && branches.every((branch) => 'const' in branch)) {
    return branches.map((branch) => ({ value: branch.const, label: branch.title || show(branch.const) }));
  }
  return undefined;
}

/** A labelled row: the label (with the requirement), the control, and the description tied by aria-describedby. */
function fieldRow(spec, control, id) {
  const hintId = spec.description ? id + '-hint' : undefined;
  if (hintId) control.setAttribute('aria-describedby', hintId);
  if (spec.required) control.setAttribute('aria-required', 'true');
  return el('div', { className: 'pg-field' }, [
    // The marker sits beside the label: aria-required says it to a screen reader, and the name stays the key.
    el('div', { className: 'pg-label' }, [
      el('label', { for: id, className: 'pg-name', text: spec.label }),
      el('span', { className: spec.required ? 'pg-req' : 'pg-opt', 'aria-hidden': 'true', text: spec.required ? 'required' : 'optional' }),
    ]),
    control,
    hintId ? el('p', { className: 'pg-hint', id: hintId, text: spec.description }) : null,
  ]);
}

/**
 * One field for a schema. spec: { label, required, description, depth, name, prefill }; prefill starts a field at
 * its default (an answer to the server), where a call's arguments leave it empty for the server to apply.
 * Returns { node, read, focus }.
 * read() gives { value } or undefined when left out, and throws an Error naming the field when input is unusable.
 */
function buildField(raw, root, spec) {
  const schema = resolveSchema(raw, root);
  const branches = branchesOf(schema, root);
  const sole = branches.length === 1 && !isObject(schema.properties) ? branches[0] : undefined;
  if (sole) return buildField(Object.assign({}, sole, withoutUnion(schema)), root, spec);
  const full = Object.assign({ description: schema.description || schema.title }, spec);
  if (!full.description) delete full.description;
  if ('const' in schema) return constField(schema, full);
  const options = enumOptions(schema, root);
  if (options) return enumField(schema, options, full);
  if (full.depth > MAX_FORM_DEPTH) return jsonField(schema, full);
  if (branches.length > 1 && !isObject(schema.properties)) return unionField(schema, branches, root, full);
  switch (typeOf(schema)) {
    case 'string':
      return textField(schema, full);
    case 'number':
    case 'integer':
      return numberField(schema, full);
    case 'boolean':
      return booleanField(schema, full);
    case 'array':
      return arrayField(schema, root, full);
    case 'object':
      return isObject(schema.properties) || branches.length > 1 ? objectField(schema, root, full) : jsonField(schema, full);
    default:
      return jsonField(schema, full);
  }
}

function withoutUnion(schema) {
  const rest = Object.assign({}, schema);
  delete rest.oneOf;
  delete rest.anyOf;
  return rest;
}

function placeholderOf(schema) {
  if ('default' in schema) return 'default: ' + show(schema.default);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return 'e.g. ' + show(schema.examples[0]);
  return schema.format ? schema.format : undefined;
}

function textField(schema, spec) {
  const id = 'pg-f' + ++fieldCount;
  const long = !schema.format && /^(body|text|content|markdown|message|notes?|description)$/i.test(spec.name || '');
  const type = { email: 'email', uri: 'url', url: 'url' }[schema.format] || 'text';
  const input = long
    ? el('textarea', { id, rows: 4, placeholder: placeholderOf(schema) })
    : el('input', { id, type, autocomplete: 'off', spellcheck: 'false', placeholder: placeholderOf(schema) });
  if (spec.prefill && typeof schema.default === 'string') input.value = schema.default;
  return {
    node: fieldRow(spec, input, id),
    focus: () => input.focus(),
    read: () => (input.value === '' && !spec.required ? undefined : { value: input.value }),
  };
}

function numberField(schema, spec) {
  const id = 'pg-f' + ++fieldCount;
  const input = el('input', {
    id,
    type: 'number',
    step: schema.type === 'integer' ? 1 : 'any',
    min: schema.minimum,
    max: schema.maximum,
    placeholder: placeholderOf(schema),
  });
  if (spec.prefill && typeof schema.default === 'number') input.value = String(schema.default);
  return {
    node: fieldRow(spec, input, id),
    focus: () => input.focus(),
    read: () => {
      if (input.value.trim() === '') {
        if (input.validity && input.validity.badInput) throw new Error(spec.label + ' is not a number.');
        return undefined;
      }
      const value = Number(input.value);
      if (!Number.isFinite(value)) throw new Error(spec.label + ' is not a number.');
      return { value };
    },
  };
}

function booleanField(schema, spec) {
  const id = 'pg-f' + ++fieldCount;
  if (spec.required) {
    const box = el('input', { id, type: 'checkbox', checked: schema.default === true });
    return { node: fieldRow(spec, box, id), focus: () => box.focus(), read: () => ({ value: box.checked }) };
  }
  // Optional: a select, so "left out" stays distinct from false.
  return enumField(schema, [{ value: true, label: 'true' }, { value: false, label: 'false' }], spec);
}

function enumField(schema, options, spec) {
  const id = 'pg-f' + ++fieldCount;
  const select = el('select', { id });
  const blank = spec.required ? 'Choose…' : 'default' in schema ? '(default: ' + show(schema.default) + ')' : '(left out)';
  select.append(el('option', { value: '', text: blank }));
  options.forEach((option, index) => select.append(el('option', { value: String(index), text: option.label })));
  const preset = spec.prefill && 'default' in schema ? options.findIndex((option) => option.value === schema.default) : -1;
  if (preset >= 0) select.value = String(preset);
  return {
    node: fieldRow(spec, select, id),
    focus: () => select.focus(),
    read: () => (select.value === '' ? undefined : { value: options[Number(select.value)].value }),
  };
}

function constField(schema, spec) {
  return {
    node: el('p', { className: 'pg-const' }, [el('span', { className: 'pg-name', text: spec.label }), ' = ', el('code', { text: show(schema.const) })]),
    focus: () => {},
    read: () => ({ value: schema.const }),
  };
}

function jsonField(schema, spec) {
  const id = 'pg-f' + ++fieldCount;
  const area = el('textarea', { id, rows: 3, className: 'pg-json', spellcheck: 'false', placeholder: placeholderOf(schema) || 'JSON' });
  const described = Object.assign({}, spec, { description: [spec.description, 'Enter a JSON value.'].filter(Boolean).join(' ') });
  return {
    node: fieldRow(described, area, id),
    focus: () => area.focus(),
    read: () => {
      if (area.value.trim() === '') return undefined;
      try {
        return { value: JSON.parse(area.value) };
      } catch (error) {
        throw new Error(spec.label + ' is not valid JSON: ' + error.message);
      }
    },
  };
}

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
  const label = key ? (spec.label === 'Variant' || spec.label === undefined ? key : spec.label + ' · ' + key) : spec.label;
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
