// A tool description renders inline in the client's tool list, so the authoring guide asks for one cohesive
// paragraph of prose: blank-line sections, bullet or numbered lists and markdown headings read as clutter there.

const SHAPES: readonly (readonly [RegExp, string])[] = [
  [/\n[ \t]*\n/, 'a blank line'],
  [/^[ \t]*(?:[-*•+]|\d+[.)])[ \t]+\S/m, 'a list'],
  [/^[ \t]*#{1,6}[ \t]+\S/m, 'a markdown heading'],
];

/** What breaks the single-paragraph shape of a description, or undefined when it is one paragraph. */
export function descriptionShapeProblem(description: string): string | undefined {
  const found = SHAPES.filter(([pattern]) => pattern.test(description.trim())).map(([, label]) => label);
  if (found.length === 0) return undefined;
  return (
    `description has ${found.join(' and ')}; it renders inline, so write one cohesive paragraph of prose ` +
    'sentences telling when and how to use the tool'
  );
}
