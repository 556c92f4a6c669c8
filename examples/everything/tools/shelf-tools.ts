// Kiln's guards, interceptors and exception filters on one tool (not a conformance fixture): a guard that closes
// the shelf for maintenance, a timing interceptor, a filter mapping ShelfEmpty to `shelf_empty`; and the switch.
import { Errors, Tool, UseFilters, UseGuards, UseInterceptors } from 'mcp-kiln';
import { z } from 'zod';
import { MaintenanceGuard } from '../call-chain/maintenance.guard.js';
import { MaintenanceMode } from '../call-chain/maintenance-mode.service.js';
import { ShelfEmpty, ShelfErrors, ShelfFilter } from '../call-chain/shelf.filter.js';
import { TimingInterceptor } from '../call-chain/timing.interceptor.js';

const ShelfInput = z.object({ shelf: z.number().int().min(0).max(9).describe('Shelf number, 0 to 9') });

@Tool('kiln_read_shelf', {
  description: 'Read what stands on one shelf; refused while the shelf is closed for maintenance.',
  annotations: { readOnlyHint: true },
  input: ShelfInput,
})
@Errors(ShelfErrors)
@UseGuards(MaintenanceGuard)
@UseInterceptors(TimingInterceptor)
@UseFilters(ShelfFilter)
export class ReadShelfTool {
  handle(input: z.output<typeof ShelfInput>): string {
    if (input.shelf === 0) throw new ShelfEmpty('Shelf 0 is empty.');
    return `Shelf ${input.shelf} holds a book.`;
  }
}

const MaintenanceInput = z.object({ closed: z.boolean().describe('True to close the shelf, false to open it') });

@Tool('kiln_set_maintenance', {
  description: 'Close the shelf for maintenance or open it again; kiln_read_shelf is refused while it is closed.',
  annotations: { idempotentHint: true },
  input: MaintenanceInput,
})
export class SetMaintenanceTool {
  constructor(private readonly maintenance: MaintenanceMode) {}

  handle(input: z.output<typeof MaintenanceInput>): string {
    this.maintenance.closed = input.closed;
    return input.closed ? 'The shelf is closed.' : 'The shelf is open.';
  }
}

export const ShelfTools = [ReadShelfTool, SetMaintenanceTool];
