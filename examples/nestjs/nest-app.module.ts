// The Nest side: its module, the service it owns, and a controller route of its own beside Kiln's /mcp.
import { Controller, Get, Module } from '@nestjs/common';
import { VisitsService } from './visits.service.js';

@Controller()
export class StatusController {
  constructor(private readonly visits: VisitsService) {}

  @Get('status')
  status() {
    return { greetings: this.visits.total };
  }
}

@Module({ providers: [VisitsService], controllers: [StatusController] })
export class NestAppModule {}
