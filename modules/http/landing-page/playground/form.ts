// How a JSON Schema becomes a form: the field each schema gets, and the composite ones built from fields: nested
// objects (optional ones built when included, so a recursive schema unfolds one level at a time), arrays with
// add/remove (or checkboxes for a multi-select), unions with a variant selector named by their discriminator, and the
// form for a whole arguments object.
import { el } from './dom.js';
import {
  booleanField,
  constField,
  enumField,
  type Field,
  type FieldSpec,
  fieldRow,
  jsonField,
  nextFieldId,
  numberField,
  textField,
} from './fields.js';
import { branchesOf, discriminatorOf, enumOptions, type JsonSchema, resolveSchema, typeOf } from './schema.js';
import { isObject, type JsonObject, show } from './values.js';

/** Deeper than this, a schema is edited as JSON (a recursive schema would otherwise nest forever). */
const MAX_FORM_DEPTH = 6;

/** A field for an object: it always reads as one, empty when nothing is filled in. */
export interface ObjectField extends Field {
  read(): { readonly value: JsonObject };
}

interface PropertyField {
  readonly name: string;
  readonly field: Field;
}

/** One field for a schema, whatever its shape. */
export function buildField(raw: unknown, root: JsonSchema, spec: FieldSpec): Field {
  const schema = resolveSchema(raw, root);
  const branches = branchesOf(schema, root);
  const sole = branches.length === 1 && !isObject(schema.properties) ? branches[0] : undefined;
  if (sole) return buildField({ ...sole, ...withoutUnion(schema) }, root, spec);
  const full: FieldSpec = { ...spec, description: spec.description || schema.description || schema.title };
  if ('const' in schema) return constField(schema, full);
  const options = enumOptions(schema, root);
  if (options) return enumField(schema, options, full);
  if (full.depth > MAX_FORM_DEPTH) return jsonField(schema, full);
  if (branches.length > 1 && !isObject(schema.properties)) return unionField(branches, root, full);
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
      return isObject(schema.properties) || branches.length > 1
        ? objectField(schema, root, full)
        : jsonField(schema, full);
    default:
      return jsonField(schema, full);
  }
}

function withoutUnion(schema: JsonSchema): JsonSchema {
  const { oneOf: _oneOf, anyOf: _anyOf, ...rest } = schema;
  return rest;
}

/** The properties of an object, each a field; omitted ones are left out of the value. */
function propertyFields(
  schema: JsonSchema,
  root: JsonSchema,
  depth: number,
  skip: string | undefined,
  prefill: boolean | undefined,
): PropertyField[] {
  const required = new Set(schema.required || []);
  const fields: PropertyField[] = [];
  for (const [name, property] of Object.entries(schema.properties || {})) {
    if (name === skip) continue;
    fields.push({
      name,
      field: buildField(property, root, { label: name, name, required: required.has(name), depth, prefill }),
    });
  }
  return fields;
}

function readProperties(fields: readonly PropertyField[], into: JsonObject): JsonObject {
  for (const { name, field } of fields) {
    const read = field.read();
    if (read !== undefined) into[name] = read.value;
  }
  return into;
}

/** An object's fields in a group; a union beside the properties adds its selector below them. */
function objectBody(
  schema: JsonSchema,
  root: JsonSchema,
  depth: number,
  skip: string | undefined,
  prefill: boolean | undefined,
): ObjectField {
  const fields = propertyFields(schema, root, depth + 1, skip, prefill);
  const branches = branchesOf(schema, root);
  const union =
    branches.length > 1
      ? unionField(branches, root, { label: 'Variant', required: true, depth: depth + 1, prefill })
      : undefined;
  const node = el('div', { className: 'pg-fields' }, [...fields.map((entry) => entry.field.node), union?.node]);
  if (fields.length === 0 && !union) node.append(el('p', { className: 'pg-empty', text: 'No arguments.' }));
  return {
    node,
    focus: () => {
      if (fields[0]) fields[0].field.focus();
      else union?.focus();
    },
    read: () => {
      const value = readProperties(fields, {});
      const chosen = union ? union.read() : undefined;
      if (chosen && isObject(chosen.value)) Object.assign(value, chosen.value);
      return { value };
    },
  };
}

/** A fieldset's legend: the name and whether it is required. */
function legendOf(spec: FieldSpec): HTMLLegendElement {
  return el('legend', {}, [
    el('span', { className: 'pg-name', text: spec.label }),
    el('span', { className: spec.required ? 'pg-req' : 'pg-opt', text: spec.required ? 'required' : 'optional' }),
  ]);
}

function objectField(schema: JsonSchema, root: JsonSchema, spec: FieldSpec): Field {
  const group = el('fieldset', { className: 'pg-group' }, [legendOf(spec)]);
  if (spec.description) group.append(el('p', { className: 'pg-hint', text: spec.description }));
  let body: ObjectField | undefined;
  const open = (): ObjectField => {
    body = body || objectBody(schema, root, spec.depth, undefined, spec.prefill);
    if (!body.node.isConnected) group.append(body.node);
    return body;
  };
  if (spec.required) {
    const opened = open();
    return { node: group, focus: () => opened.focus(), read: () => opened.read() };
  }
  // Optional: built when included, so a recursive schema unfolds one level per click.
  const id = nextFieldId();
  const toggle = el('input', { id, type: 'checkbox' });
  group.append(
    el('div', { className: 'pg-include' }, [toggle, el('label', { for: id, text: `Include ${spec.label}` })]),
  );
  toggle.addEventListener('change', () => {
    if (toggle.checked) open();
    else if (body) body.node.remove();
  });
  return { node: group, focus: () => toggle.focus(), read: () => (toggle.checked ? body?.read() : undefined) };
}

function arrayField(schema: JsonSchema, root: JsonSchema, spec: FieldSpec): Field {
  const items = resolveSchema(schema.items, root);
  const choices = enumOptions(items, root);
  const group = el('fieldset', { className: 'pg-group pg-array' }, [legendOf(spec)]);
  if (spec.description) group.append(el('p', { className: 'pg-hint', text: spec.description }));
  if (choices) {
    // A multi-select: one checkbox per allowed value.
    const defaults = spec.prefill && Array.isArray(schema.default) ? (schema.default as unknown[]) : [];
    const boxes = choices.map((choice) => {
      const id = nextFieldId();
      const box = el('input', { id, type: 'checkbox', checked: defaults.includes(choice.value) });
      group.append(el('div', { className: 'pg-check' }, [box, el('label', { for: id, text: choice.label })]));
      return { box, choice };
    });
    return {
      node: group,
      focus: () => boxes[0]?.box.focus(),
      read: () => {
        const value = boxes.filter((entry) => entry.box.checked).map((entry) => entry.choice.value);
        return value.length === 0 && !spec.required ? undefined : { value };
      },
    };
  }
  const list = el('ol', { className: 'pg-items' });
  const entries: {
    readonly field: Field;
    readonly title: HTMLElement;
    readonly remove: HTMLElement;
    readonly node: HTMLElement;
  }[] = [];
  const add = el('button', {
    type: 'button',
    className: 'pg-add',
    text: 'Add item',
    'aria-label': `Add an item to ${spec.label}`,
  });
  const relabel = () =>
    entries.forEach((entry, index) => {
      entry.title.textContent = `Item ${index + 1}`;
      entry.remove.setAttribute('aria-label', `Remove item ${index + 1} of ${spec.label}`);
    });
  add.addEventListener('click', () => {
    // An object item shows its fields directly under the item's heading; anything else is one field.
    const field =
      isObject(items.properties) && !items.oneOf && !items.anyOf
        ? objectBody(items, root, spec.depth + 1, undefined, spec.prefill)
        : buildField(items, root, {
            label: 'Value',
            name: spec.name,
            required: true,
            depth: spec.depth + 1,
            prefill: spec.prefill,
          });
    const title = el('span', { className: 'pg-item-title' });
    const remove = el('button', { type: 'button', className: 'pg-remove', text: 'Remove' });
    const node = el('li', { className: 'pg-item' }, [
      el('div', { className: 'pg-item-head' }, [title, remove]),
      field.node,
    ]);
    const entry = { field, title, remove, node };
    remove.addEventListener('click', () => {
      entries.splice(entries.indexOf(entry), 1);
      node.remove();
      relabel();
      add.focus();
    });
    entries.push(entry);
    list.append(node);
    relabel();
    field.focus();
  });
  group.append(list, add);
  return {
    node: group,
    focus: () => add.focus(),
    read: () => {
      if (entries.length === 0 && !spec.required) return undefined;
      return {
        value: entries.map((entry) => {
          const read = entry.field.read();
          return read === undefined ? null : read.value;
        }),
      };
    },
  };
}

/** One of several shapes: a selector (named by the discriminator when the branches share one), then that branch. */
function unionField(branches: readonly JsonSchema[], root: JsonSchema, spec: FieldSpec): Field {
  const key = discriminatorOf(branches, root);
  const constOf = (branch: JsonSchema, name: string) =>
    resolveSchema(resolveSchema(branch, root).properties?.[name], root);
  const labels = branches.map((branch, index) =>
    key
      ? show(constOf(branch, key).const)
      : branch.title || branch.description || `Variant ${index + 1} (${typeOf(branch)})`,
  );
  const id = nextFieldId();
  const select = el('select', { id });
  if (!spec.required) select.append(el('option', { value: '', text: '(left out)' }));
  labels.forEach((label, index) => {
    select.append(el('option', { value: String(index), text: label }));
  });
  const label = key ? (spec.label === 'Variant' ? key : `${spec.label} \u00b7 ${key}`) : spec.label;
  const row = fieldRow({ ...spec, label }, select, id);
  const note = el('p', { className: 'pg-hint pg-variant-doc' });
  const holder = el('div', { className: 'pg-variant' });
  let current: Field | undefined;
  const chosenBranch = () => branches[Number(select.value)] as JsonSchema;
  const choose = () => {
    holder.replaceChildren();
    note.textContent = '';
    current = undefined;
    if (select.value === '') return;
    const branch = chosenBranch();
    const doc = key ? constOf(branch, key).description || branch.description : branch.description;
    if (doc) note.textContent = doc;
    current =
      typeOf(branch) === 'object' || isObject(branch.properties)
        ? objectBody(branch, root, spec.depth, key, spec.prefill)
        : buildField(branch, root, {
            label: spec.label || 'Value',
            name: spec.name,
            required: true,
            depth: spec.depth + 1,
            prefill: spec.prefill,
          });
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
      const chosen = read?.value;
      const value: JsonObject = isObject(chosen) ? { ...chosen } : {};
      value[key] = constOf(chosenBranch(), key).const;
      return { value };
    },
  };
}

/**
 * The form for a whole arguments object (a tool's inputSchema, a prompt's arguments, an elicitation schema);
 * prefill starts each field at its default.
 */
export function argumentsForm(schema: JsonSchema, prefill?: boolean): ObjectField {
  return objectBody(resolveSchema(schema, schema), schema, 0, undefined, prefill === true);
}
