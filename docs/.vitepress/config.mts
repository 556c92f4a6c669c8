// The documentation site (`npm run docs:dev`, `npm run docs:build`). The build fails on a dead internal link; links
// into the repository (examples, sources, deploy recipes) are not pages of the site and are left to the repository.
import { defineConfig } from 'vitepress';

const REPOSITORY_FILE =
  /^(\.\/)?(\.\.\/)+(examples|src|modules|decorators|test|deploy|bench|conformance|templates|api|scripts)\//;
const REPOSITORY_PAGE = /^(\.\/)?(\.\.\/)+(ARCHITECTURE|README)(\.md)?(#.*)?$/;

export default defineConfig({
  title: 'Kiln',
  description: 'A TypeScript framework for Model Context Protocol servers, the way NestJS builds web back ends.',
  cleanUrls: true,
  srcExclude: ['reference/api/README.md'],
  ignoreDeadLinks: [(url) => REPOSITORY_FILE.test(url) || REPOSITORY_PAGE.test(url)],
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/getting-started' },
      { text: 'Reference', link: '/reference/settings' },
    ],
    sidebar: [
      {
        text: 'Getting started',
        items: [
          { text: 'Quick start', link: '/guide/getting-started' },
          { text: 'A project of your own', link: '/guide/new-project' },
          { text: 'The kiln command', link: '/guide/cli' },
          { text: 'Connecting clients', link: '/guide/clients' },
          { text: 'Migrating to Kiln', link: '/guide/migrating' },
        ],
      },
      {
        text: 'Concepts',
        items: [
          { text: 'Modules and DI', link: '/concepts/modules-and-di' },
          { text: 'The Context', link: '/concepts/context' },
          { text: 'The call chain', link: '/concepts/call-chain' },
          { text: 'Both protocol versions', link: '/concepts/protocol-versions' },
        ],
      },
      {
        text: 'Guides',
        items: [
          { text: 'Tools', link: '/guide/tools' },
          { text: 'Input rounds and consent', link: '/guide/input-and-consent' },
          { text: 'Resources and prompts', link: '/guide/resources-and-prompts' },
          { text: 'Skills', link: '/guide/skills' },
          { text: 'MCP Apps', link: '/guide/mcp-apps' },
          { text: 'Tasks', link: '/guide/tasks' },
          { text: 'Testing', link: '/guide/testing' },
          { text: 'Serving over HTTP', link: '/guide/http' },
          { text: 'Embedding', link: '/embedding' },
          { text: 'Auth and tenants', link: '/guide/auth' },
          { text: 'Identity providers', link: '/identity-providers' },
          { text: 'Redis and scaling out', link: '/guide/redis' },
          { text: 'Call policies', link: '/call-policies' },
          { text: 'Operations', link: '/operations' },
          { text: 'OpenTelemetry', link: '/guide/opentelemetry' },
          { text: 'Performance', link: '/performance' },
        ],
      },
      {
        text: 'Reference',
        items: [
          { text: 'Settings', link: '/reference/settings' },
          { text: 'Error reasons', link: '/reference/reasons' },
          { text: 'Entry points', link: '/reference/entry-points' },
          { text: 'API', link: '/reference/api/' },
        ],
      },
      {
        text: 'Contributing',
        items: [
          { text: 'How Kiln is verified', link: '/contributing/verification' },
          { text: 'Project layout', link: '/contributing/layout' },
        ],
      },
    ],
  },
});
