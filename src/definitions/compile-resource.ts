// Decorated resource classes → CompiledResource. A template's `{variables}` must match its typed params exactly.

import { UriTemplate } from '@modelcontextprotocol/server';
import { ERRORS_METADATA, RESOURCE_METADATA, readMetadata } from '../../decorators/metadata-keys.js';
import type { ResourceMetadata } from '../../decorators/resource.js';
import type { Constructor, ErrorContract } from '../../decorators/types.js';
import { compileContract } from '../context/error-contract.js';
import { checkedCacheHint } from './cache-hint.js';
import { compileScopes } from './compile-scopes.js';
import type { CompiledResource, ResourceHandler } from './compiled-resource.js';
import type { LintFindings } from './lint/tool-lint.js';
import { toJsonSchema, undescribedFields } from './schema/json-schema.js';
import { compileUriMatcher } from './uri-matcher.js';

export function compileResource(resourceClass: Constructor, findings: LintFindings): CompiledResource | undefined {
  const metadata = readMetadata<ResourceMetadata>(RESOURCE_METADATA, resourceClass);
  if (!metadata) {
    findings.errors.push(`${resourceClass.name} is listed in a module's resources but has no @Resource() decorator.`);
    return undefined;
  }
  const { uriTemplate, options } = metadata;
  const where = `Resource ${options.name} (${resourceClass.name})`;
  if (!options.description?.trim()) findings.errors.push(`${where}: description is empty.`);

  let template: UriTemplate | undefined;
  if (UriTemplate.isTemplate(uriTemplate)) {
    template = new UriTemplate(uriTemplate);
    const declared = Object.keys(options.params?.shape ?? {});
    const variables = template.variableNames;
    const missing = variables.filter((v) => !declared.includes(v));
    const extra = declared.filter((k) => !variables.includes(k));
    if (options.params && (missing.length > 0 || extra.length > 0)) {
      findings.errors.push(
        `${where}: params must match the template variables of ${uriTemplate}` +
          `${missing.length ? `; missing ${missing.join(', ')}` : ''}${extra.length ? `; not in the template: ${extra.join(', ')}` : ''}.`,
      );
    }
    if (options.params) {
      const undescribed = undescribedFields(toJsonSchema(options.params, 'input'));
      if (undescribed.length) findings.errors.push(`${where}: params without .describe(): ${undescribed.join(', ')}.`);
    }
  } else if (options.params) {
    findings.errors.push(`${where}: ${uriTemplate} has no {variables}, so it takes no params.`);
  }

  const prototype = resourceClass.prototype as Partial<ResourceHandler>;
  const common = {
    name: options.name,
    ...(options.title ? { title: options.title } : {}),
    description: options.description,
    ...(options.mimeType ? { mimeType: options.mimeType } : {}),
  };
  return {
    name: options.name,
    uriTemplate,
    resourceClass: resourceClass as unknown as CompiledResource['resourceClass'],
    template,
    matcher: template ? compileUriMatcher(template) : undefined,
    params: options.params,
    mimeType: options.mimeType,
    contract: compileContract(readMetadata<ErrorContract>(ERRORS_METADATA, resourceClass)),
    listing: template ? undefined : Object.freeze({ uri: uriTemplate, ...common }),
    templateListing: template ? Object.freeze({ uriTemplate, ...common }) : undefined,
    listsInstances: typeof prototype.list === 'function',
    cacheHint: checkedCacheHint(options.cacheHint, where, findings),
    completes: typeof prototype.complete === 'function',
    scopes: compileScopes(resourceClass, where, findings),
  };
}
