// The playground's JSON Schema reading, as browser JavaScript: local $refs and $anchors, allOf merged, unions and
// their discriminators, enum options in every shape elicitation uses, plus the element helper the forms share.
export const PLAYGROUND_SCHEMA_SCRIPT = `
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
`;
