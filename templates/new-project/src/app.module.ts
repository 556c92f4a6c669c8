// The root module: what this server provides (services) and serves (tools, resources, prompts).
import { Module } from 'mcp-kiln';
import { GreetingService } from './greeting.service.js';
import { SayHelloTool } from './say-hello.tool.js';

@Module({
  providers: [GreetingService],
  tools: [SayHelloTool],
})
export class AppModule {}
