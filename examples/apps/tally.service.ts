// The tallies the board shows: named counters kept in memory for the life of the process.
import { Injectable } from 'mcp-kiln';

export interface Tally {
  readonly name: string;
  readonly count: number;
}

@Injectable()
export class TallyService {
  readonly #counts = new Map<string, number>([
    ['coffee', 2],
    ['tea', 1],
  ]);

  list(): Tally[] {
    return [...this.#counts].map(([name, count]) => ({ name, count }));
  }

  add(name: string, by: number): Tally {
    const count = (this.#counts.get(name) ?? 0) + by;
    this.#counts.set(name, count);
    return { name, count };
  }
}
