// A guard built through DI: it injects the MaintenanceMode service and refuses every call while the shelf is closed.
import { Injectable, type KilnGuard } from 'mcp-kiln';
import { MaintenanceMode } from './maintenance-mode.service.js';

@Injectable()
export class MaintenanceGuard implements KilnGuard {
  constructor(private readonly maintenance: MaintenanceMode) {}

  canActivate(): boolean {
    return !this.maintenance.closed;
  }
}
