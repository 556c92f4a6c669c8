// Embedding example (docs/embedding.md): the app the embedding snippets mount.
import { Module } from 'mcp-kiln';
import { WhoAmITool } from './whoami.tool.js';

@Module({ tools: [WhoAmITool] })
export class AppModule {}
