import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { playgroundModule } from './scripts/playground-bundle.mjs';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // Oxc compiles legacy decorators and emits design:paramtypes, which constructor injection reads.
  oxc: { decorator: { legacy: true, emitDecoratorMetadata: true } },
  // The playground's script, bundled from its browser sources when a test first loads it (as the package build does).
  plugins: [playgroundModule()],
  resolve: {
    alias: [
      { find: /^mcp-kiln\/testing$/, replacement: here('./src/testing/index.ts') },
      { find: /^mcp-kiln\/errors$/, replacement: here('./src/errors/index.ts') },
      { find: /^mcp-kiln\/auth$/, replacement: here('./modules/auth/index.ts') },
      { find: /^mcp-kiln\/http$/, replacement: here('./modules/http/index.ts') },
      { find: /^mcp-kiln\/redis$/, replacement: here('./modules/redis/index.ts') },
      { find: /^mcp-kiln\/storage$/, replacement: here('./src/storage/index.ts') },
      { find: /^mcp-kiln\/host$/, replacement: here('./src/host/index.ts') },
      { find: /^mcp-kiln$/, replacement: here('./src/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    setupFiles: ['reflect-metadata'],
    typecheck: { enabled: true, include: ['test/types/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
