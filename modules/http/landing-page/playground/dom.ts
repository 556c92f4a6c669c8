// How the playground builds and finds its elements: text only ever goes in as text, never as markup.

/** An attribute's value: undefined, null and false leave it off, true sets it empty. */
export type AttributeValue = string | number | boolean | null | undefined;
/** A child node or text; empty ones (null, undefined, false, '') are skipped. */
export type Child = Node | string | null | undefined | false;

/** An element with its attributes (`text` sets its text, `className` its classes) and children. */
export function el<Tag extends keyof HTMLElementTagNameMap>(
  tag: Tag,
  attributes: Readonly<Record<string, AttributeValue>> = {},
  children: readonly Child[] = [],
): HTMLElementTagNameMap[Tag] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'text') node.textContent = String(value);
    else if (name === 'className') node.className = String(value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

/** An element the page or the workspace always has, of the kind expected. */
export function byId<Kind extends HTMLElement>(id: string, kind: new () => Kind): Kind {
  const node = document.getElementById(id);
  if (!(node instanceof kind)) throw new Error(`#${id} is missing from the page.`);
  return node;
}
