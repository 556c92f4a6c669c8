// Whether the shelf tools are closed for maintenance: a singleton the maintenance guard reads and a tool flips.
import { Injectable } from 'mcp-kiln';

@Injectable()
export class MaintenanceMode {
  closed = false;
}
