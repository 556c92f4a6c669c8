// The MCP Apps views an app serves, compiled once at boot from every module's `uiResources`: each view's HTML is read
// (from its file, if it names one), its CSP and permissions checked, and its resources/list entry and resources/read
// answer frozen. A tool naming a `ui://` URI no module serves is a boot error.
import { readFile } from 'node:fs/promises';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import type { ReadResourceResult, Resource } from '@modelcontextprotocol/server';
import type { McpUiResourceMeta, UiResourceDeclaration } from '../../../decorators/ui-resource.js';
import type { LintFindings } from '../lint/tool-lint.js';
import { type CompiledToolUi, UI_SCHEME } from './compile-tool-ui.js';

const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const PERMISSION_KEYS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;
// An origin, as CSP source lists take it: scheme, host (a leading `*.` wildcard allowed), optional port, no path.
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?$/;

export interface CompiledUiResources {
  readonly byUri: ReadonlyMap<string, ReadResourceResult>;
  /** What resources/list shows for the views, so hosts can review them (and their CSP) before any call. */
  readonly listing: readonly Resource[];
}

interface ToolWithUi {
  readonly name: string;
  readonly ui: CompiledToolUi | undefined;
}

/** Undefined when no module declares a view; the problems are boot errors, one per view or tool. */
export async function compileUiResources(
  declarations: readonly UiResourceDeclaration[],
  tools: readonly ToolWithUi[],
  takenUris: ReadonlySet<string>,
  findings: LintFindings,
): Promise<CompiledUiResources | undefined> {
  const byUri = new Map<string, ReadResourceResult>();
  const listing: Resource[] = [];
  for (const declaration of new Set(declarations)) {
    const where = `UI resource ${declaration.uri}`;
    const problem =
      declarationProblem(declaration, takenUris) ?? (byUri.has(declaration.uri) ? 'is served twice' : undefined);
    if (problem) {
      findings.errors.push(`${where}: ${problem}.`);
      continue;
    }
    const html = await htmlOf(declaration, where, findings);
    if (html === undefined) continue;
    const ui = uiMeta(declaration);
    const meta = ui ? { _meta: { ui } } : {};
    byUri.set(declaration.uri, {
      contents: [{ uri: declaration.uri, mimeType: RESOURCE_MIME_TYPE, text: html, ...meta }],
    });
    listing.push({
      uri: declaration.uri,
      name: declaration.name,
      ...(declaration.title ? { title: declaration.title } : {}),
      ...(declaration.description ? { description: declaration.description } : {}),
      mimeType: RESOURCE_MIME_TYPE,
      ...meta,
    });
  }
  // A view whose declaration failed was reported above; only a URI nothing declares is the tool's problem.
  const declared = new Set(declarations.map((declaration) => declaration.uri));
  const named = new Set<string>();
  for (const tool of tools) {
    if (!tool.ui) continue;
    named.add(tool.ui.resourceUri);
    if (!declared.has(tool.ui.resourceUri)) {
      findings.errors.push(
        `Tool ${tool.name} names the view ${tool.ui.resourceUri}, which no module serves: add ` +
          `uiResource('${tool.ui.resourceUri}', { name, html | file }) to a module's uiResources.`,
      );
    }
  }
  for (const uri of byUri.keys()) {
    if (!named.has(uri)) findings.warnings.push(`UI resource ${uri} is served, but no tool names it in its ui option.`);
  }
  return byUri.size > 0 ? { byUri, listing } : undefined;
}

function declarationProblem(declaration: UiResourceDeclaration, takenUris: ReadonlySet<string>): string | undefined {
  const { uri, name, html, file, csp, permissions, domain, prefersBorder } = declaration;
  if (typeof uri !== 'string' || !uri.startsWith(UI_SCHEME) || uri.length === UI_SCHEME.length || !URL.canParse(uri)) {
    return 'a view is served at a ui:// URI (ui://<server>/<view>)';
  }
  if (takenUris.has(uri)) return 'a @Resource already serves this URI';
  if (typeof name !== 'string' || name === '') return 'give it a name (shown in resources/list)';
  if ((html === undefined) === (file === undefined)) return 'give its HTML with exactly one of html and file';
  if (csp !== undefined) {
    for (const [key, origins] of Object.entries(csp)) {
      if (!(CSP_KEYS as readonly string[]).includes(key))
        return `csp.${key} is not a CSP field (${CSP_KEYS.join(', ')})`;
      const bad = Array.isArray(origins) ? origins.filter((origin) => !ORIGIN.test(String(origin))) : [origins];
      if (bad.length > 0) {
        return `csp.${key} lists ${JSON.stringify(bad)}; each entry is an origin such as https://api.example.com or https://*.example.com`;
      }
    }
  }
  if (permissions !== undefined) {
    for (const [key, value] of Object.entries(permissions)) {
      if (!(PERMISSION_KEYS as readonly string[]).includes(key) || typeof value !== 'object' || value === null) {
        return `permissions.${key} is not a permission a host grants (${PERMISSION_KEYS.map((k) => `${k}: {}`).join(', ')})`;
      }
    }
  }
  if (domain !== undefined && (typeof domain !== 'string' || domain === '')) return 'domain must be a non-empty string';
  if (prefersBorder !== undefined && typeof prefersBorder !== 'boolean') return 'prefersBorder must be true or false';
  return undefined;
}

async function htmlOf(declaration: UiResourceDeclaration, where: string, findings: LintFindings) {
  let html = declaration.html;
  if (declaration.file !== undefined) {
    try {
      html = await readFile(declaration.file, 'utf8');
    } catch (error) {
      findings.errors.push(`${where}: cannot read its file ${declaration.file} (${(error as Error).message}).`);
      return undefined;
    }
  }
  if (!html?.trim()) {
    findings.errors.push(`${where}: its HTML is empty.`);
    return undefined;
  }
  // The extension asks for a whole HTML5 document; a fragment renders in some hosts and not in others.
  if (!/<html[\s>]|<!doctype html/i.test(html)) {
    findings.warnings.push(
      `${where}: its HTML has no <!DOCTYPE html> or <html> element; hosts expect a whole document.`,
    );
  }
  return html;
}

/** The `_meta.ui` a host reads for the view (CSP, permissions, domain, border), or undefined when none is declared. */
function uiMeta(declaration: UiResourceDeclaration): McpUiResourceMeta | undefined {
  const { csp, permissions, domain, prefersBorder } = declaration;
  const meta: McpUiResourceMeta = {
    ...(csp ? { csp: structuredClone(csp) } : {}),
    ...(permissions ? { permissions: structuredClone(permissions) } : {}),
    ...(domain !== undefined ? { domain } : {}),
    ...(prefersBorder !== undefined ? { prefersBorder } : {}),
  };
  return Object.keys(meta).length > 0 ? meta : undefined;
}
