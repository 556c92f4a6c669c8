// The authoring surface: decorators that record metadata for the app compiler in src/.
export {
  Cache,
  type CacheOptions,
  type PolicyKey,
  Quota,
  type QuotaOptions,
  RateLimit,
  type RateLimitOptions,
} from './call-policies.js';
export { Disabled } from './disabled.js';
export { Enrichment, type EnrichmentMetadata } from './enrichment.js';
export { Errors } from './errors.js';
export { headerParam } from './header-param.js';
export { Inject } from './inject.js';
export { Injectable, type InjectableOptions } from './injectable.js';
export { InputAlias } from './input-alias.js';
export type {
  FromJsonSchema,
  JsonInputSchema,
  JsonOutputSchema,
  JsonSchemaObject,
  JsonSchemaValue,
} from './json-schema.js';
export { Module } from './module.js';
export type { OperationCall } from './operation-call.js';
export { Prompt, type PromptMessage, type PromptMetadata, type PromptOptions, type PromptReturn } from './prompt.js';
export {
  type ConsentHashFunction,
  type ConsentMetadata,
  type ConsentOptions,
  type ConsentTool,
  RequiresConsent,
} from './requires-consent.js';
export {
  type CacheHint,
  Resource,
  type ResourceContent,
  type ResourceMetadata,
  type ResourceOptions,
  type ResourceReadReturn,
} from './resource.js';
export { type ScopeRequirement, Scopes, type ScopesOptions } from './scopes.js';
export {
  type InlineSkill,
  type SkillDeclaration,
  type SkillFileContents,
  type SkillFolder,
  skill,
  skillsFromFolder,
} from './skill.js';
export {
  Tool,
  type ToolAnnotations,
  type ToolInputSchema,
  type ToolMetadata,
  type ToolOptions,
  type ToolTaskOptions,
  type ToolTaskSupport,
} from './tool.js';
export * from './types.js';
export {
  type McpUiResourceCsp,
  type McpUiResourceMeta,
  type McpUiResourcePermissions,
  type McpUiToolVisibility,
  type ToolUiOptions,
  type UiResourceDeclaration,
  type UiResourceOptions,
  uiResource,
} from './ui-resource.js';
export { type KilnExceptionFilter, UseFilters } from './use-filters.js';
export { type KilnGuard, UseGuards } from './use-guards.js';
export { type CallHandler, type KilnInterceptor, UseInterceptors } from './use-interceptors.js';
