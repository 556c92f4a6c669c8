// Resource templates in the page: the variables a template asks for, and the URI a template gives with their values
// (RFC 6570 up to level 3: {x}, {+x}, {#x}, {.x}, {/x}, {;x}, {?x,y}, {&x}).

interface Operator {
  readonly first: string;
  readonly sep: string;
  readonly named: boolean;
  readonly reserved: boolean;
  /** `;x` with an empty value is `;x`, not `;x=`. */
  readonly bare?: boolean;
}

const OPERATORS: Readonly<Record<string, Operator>> = {
  '': { first: '', sep: ',', named: false, reserved: false },
  '+': { first: '', sep: ',', named: false, reserved: true },
  '#': { first: '#', sep: ',', named: false, reserved: true },
  '.': { first: '.', sep: '.', named: false, reserved: false },
  '/': { first: '/', sep: '/', named: false, reserved: false },
  ';': { first: ';', sep: ';', named: true, reserved: false, bare: true },
  '?': { first: '?', sep: '&', named: true, reserved: false },
  '&': { first: '&', sep: '&', named: true, reserved: false },
};

/** A variable's name without its modifier (explode `*` or prefix `:n`). */
const bareName = (name: string): string => name.replace(/[*]$|:\d+$/, '');

export function expandTemplate(template: string, values: Readonly<Record<string, unknown>>): string {
  return template.replace(/\{([+#./;?&]?)([^}]*)\}/g, (_match, operator: string, list: string) => {
    const rule = OPERATORS[operator] as Operator;
    const parts: string[] = [];
    for (const name of list.split(',').map(bareName)) {
      const value = values[name];
      if (value === undefined || value === '') continue;
      const encoded = rule.reserved ? encodeURI(String(value)) : encodeURIComponent(String(value));
      parts.push(rule.named ? name + (rule.bare && encoded === '' ? '' : `=${encoded}`) : encoded);
    }
    return parts.length > 0 ? rule.first + parts.join(rule.sep) : '';
  });
}

export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(/\{[+#./;?&]?([^}]*)\}/g)) {
    for (const name of (match[1] ?? '').split(',')) {
      const bare = bareName(name);
      if (bare && !names.includes(bare)) names.push(bare);
    }
  }
  return names;
}
