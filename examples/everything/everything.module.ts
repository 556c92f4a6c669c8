// Every fixture the MCP conformance suite's server scenarios expect (2025-11-25 and 2026-07-28), written with
// Kiln's decorators: content tools, tools that log, report progress or ask the client for input, the
// server-stateless diagnostics, schema fixtures (raw JSON Schema, header parameters), task tools (the Tasks
// extension), resources, a resource template, prompts and a skill; plus shelf tools showing a guard, an interceptor
// and an exception filter.
import { Module } from 'mcp-kiln';
import { MaintenanceMode } from './call-chain/maintenance-mode.service.js';
import { ContentPrompts } from './prompts/content-prompts.js';
import { InputRequiredPrompt } from './prompts/input-required.prompt.js';
import { StaticResources } from './resources/static-resources.js';
import { TemplateDataResource } from './resources/template.resource.js';
import { RoundRecords } from './round-records.service.js';
import { EverythingTourSkill } from './skills/everything-tour.skill.js';
import { ClientInputTools } from './tools/client-input-tools.js';
import { ContentTools } from './tools/content-tools.js';
import { InputRequiredTools } from './tools/input-required-tools.js';
import { NotificationTools } from './tools/notification-tools.js';
import { SchemaTools } from './tools/schema-tools.js';
import { ShelfTools } from './tools/shelf-tools.js';
import { StatelessDiagnostics } from './tools/stateless-diagnostics.js';
import { TaskTools } from './tools/task-tools.js';

@Module({
  providers: [RoundRecords, MaintenanceMode],
  tools: [
    ...ContentTools,
    ...NotificationTools,
    ...ClientInputTools,
    ...InputRequiredTools,
    ...StatelessDiagnostics,
    ...SchemaTools,
    ...ShelfTools,
    ...TaskTools,
  ],
  resources: [...StaticResources, TemplateDataResource],
  prompts: [...ContentPrompts, InputRequiredPrompt],
  skills: [EverythingTourSkill],
})
export class EverythingModule {}
