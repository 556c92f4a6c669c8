// The playground's form fields, as browser JavaScript: a JSON Schema becomes labelled, keyboard-operable fields (text,
// numbers, enums, booleans, a JSON box for the rest; objects, arrays and unions in the composite part), each with a
// read() that returns { value } or undefined when the field is left out.
export const PLAYGROUND_FIELDS_SCRIPT = `
let fieldCount = 0;
// Deeper than this, a schema is edited as JSON (a recursive schema would otherwise nest forever).
const MAX_FORM_DEPTH = 6;

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
  const blank = spec.required ? 'Choose\u2026' : 'default' in schema ? '(default: ' + show(schema.default) + ')' : '(left out)';
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
`;
