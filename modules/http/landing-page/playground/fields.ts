// The playground's form fields for single values: labelled, keyboard-operable controls for text, numbers, enums,
// booleans and constants, and a JSON box for the rest, each with a read() that returns { value } or undefined when the
// field is left out. Objects, arrays and unions are in form.ts.
import { el } from './dom.js';
import type { EnumOption, JsonSchema } from './schema.js';
import { errorMessage, show } from './values.js';

/** A field's value; a field left out reads as undefined instead. */
export interface FieldValue {
  readonly value: unknown;
}

export interface Field {
  readonly node: HTMLElement;
  focus(): void;
  /** The value, or undefined when left out; throws an Error naming the field when the input is unusable. */
  read(): FieldValue | undefined;
}

/**
 * What a field shows beside its control. `prefill` starts a field at its default (an answer to the server), where a
 * call's arguments leave it empty for the server to apply.
 */
export interface FieldSpec {
  readonly label: string;
  readonly required: boolean;
  readonly description?: string | undefined;
  /** Nesting depth, which bounds how far a (recursive) schema unfolds into fields. */
  readonly depth: number;
  /** The property name, which hints at the control (a `body` gets a text area). */
  readonly name?: string | undefined;
  readonly prefill?: boolean | undefined;
}

const INPUT_TYPES: Readonly<Record<string, string>> = { email: 'email', uri: 'url', url: 'url' };
/** Property names whose text is usually long enough for a text area. */
const LONG_TEXT = /^(body|text|content|markdown|message|notes?|description)$/i;

let fieldCount = 0;

/** A fresh id for a control, so its label can name it. */
export const nextFieldId = (): string => `pg-f${++fieldCount}`;

/** A labelled row: the label (with the requirement), the control, and the description tied by aria-describedby. */
export function fieldRow(spec: FieldSpec, control: HTMLElement, id: string): HTMLElement {
  const hintId = spec.description ? `${id}-hint` : undefined;
  if (hintId) control.setAttribute('aria-describedby', hintId);
  if (spec.required) control.setAttribute('aria-required', 'true');
  return el('div', { className: 'pg-field' }, [
    // The marker sits beside the label: aria-required says it to a screen reader, and the name stays the key.
    el('div', { className: 'pg-label' }, [
      el('label', { for: id, className: 'pg-name', text: spec.label }),
      el('span', {
        className: spec.required ? 'pg-req' : 'pg-opt',
        'aria-hidden': 'true',
        text: spec.required ? 'required' : 'optional',
      }),
    ]),
    control,
    hintId ? el('p', { className: 'pg-hint', id: hintId, text: spec.description }) : null,
  ]);
}

function placeholderOf(schema: JsonSchema): string | undefined {
  if ('default' in schema) return `default: ${show(schema.default)}`;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return `e.g. ${show(schema.examples[0])}`;
  return schema.format ? schema.format : undefined;
}

export function textField(schema: JsonSchema, spec: FieldSpec): Field {
  const id = nextFieldId();
  const long = !schema.format && LONG_TEXT.test(spec.name || '');
  const type = (schema.format && INPUT_TYPES[schema.format]) || 'text';
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

export function numberField(schema: JsonSchema, spec: FieldSpec): Field {
  const id = nextFieldId();
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
        if (input.validity.badInput) throw new Error(`${spec.label} is not a number.`);
        return undefined;
      }
      const value = Number(input.value);
      if (!Number.isFinite(value)) throw new Error(`${spec.label} is not a number.`);
      return { value };
    },
  };
}

export function booleanField(schema: JsonSchema, spec: FieldSpec): Field {
  const id = nextFieldId();
  if (spec.required) {
    const box = el('input', { id, type: 'checkbox', checked: schema.default === true });
    return { node: fieldRow(spec, box, id), focus: () => box.focus(), read: () => ({ value: box.checked }) };
  }
  // Optional: a select, so "left out" stays distinct from false.
  const options = [
    { value: true, label: 'true' },
    { value: false, label: 'false' },
  ];
  return enumField(schema, options, spec);
}

export function enumField(schema: JsonSchema, options: readonly EnumOption[], spec: FieldSpec): Field {
  const id = nextFieldId();
  const select = el('select', { id });
  const blank = spec.required
    ? 'Choose\u2026'
    : 'default' in schema
      ? `(default: ${show(schema.default)})`
      : '(left out)';
  select.append(el('option', { value: '', text: blank }));
  options.forEach((option, index) => {
    select.append(el('option', { value: String(index), text: option.label }));
  });
  const preset =
    spec.prefill && 'default' in schema ? options.findIndex((option) => option.value === schema.default) : -1;
  if (preset >= 0) select.value = String(preset);
  return {
    node: fieldRow(spec, select, id),
    focus: () => select.focus(),
    read: () => (select.value === '' ? undefined : { value: options[Number(select.value)]?.value }),
  };
}

export function constField(schema: JsonSchema, spec: FieldSpec): Field {
  return {
    node: el('p', { className: 'pg-const' }, [
      el('span', { className: 'pg-name', text: spec.label }),
      ' = ',
      el('code', { text: show(schema.const) }),
    ]),
    focus: () => {},
    read: () => ({ value: schema.const }),
  };
}

export function jsonField(schema: JsonSchema, spec: FieldSpec): Field {
  const id = nextFieldId();
  const area = el('textarea', {
    id,
    rows: 3,
    className: 'pg-json',
    spellcheck: 'false',
    placeholder: placeholderOf(schema) || 'JSON',
  });
  const described = { ...spec, description: [spec.description, 'Enter a JSON value.'].filter(Boolean).join(' ') };
  return {
    node: fieldRow(described, area, id),
    focus: () => area.focus(),
    read: () => {
      if (area.value.trim() === '') return undefined;
      try {
        return { value: JSON.parse(area.value) as unknown };
      } catch (error) {
        throw new Error(`${spec.label} is not valid JSON: ${errorMessage(error)}`);
      }
    },
  };
}
