// Every fixture the MCP conformance suite's server scenarios expect (2025-11-25 and 2026-07-28), written with
// Kiln's decorators: content tools, tools that log or report progress, server-stateless diagnostics, resources,
// a resource template and prompts.
import { Module } from 'mcp-kiln';
import { ContentPrompts } from './prompts/content-prompts.js';
import { StaticResources } from './resources/static-resources.js';
import { TemplateDataResource } from './resources/template.resource.js';
import { ContentTools } from './tools/content-tools.js';
import { NotificationTools } from './tools/notification-tools.js';
import { StatelessDiagnostics } from './tools/stateless-diagnostics.js';

@Module({
  tools: [...ContentTools, ...NotificationTools, ...StatelessDiagnostics],
  resources: [...StaticResources, TemplateDataResource],
  prompts: [...ContentPrompts],
})
export class EverythingModule {}
