// A service the Nest application owns: it counts greetings. Nest builds it; Kiln's tool is handed the same instance.
import { Injectable } from '@nestjs/common';

@Injectable()
export class VisitsService {
  private count = 0;

  record(): number {
    this.count += 1;
    return this.count;
  }

  get total(): number {
    return this.count;
  }
}
